"""`sushigo synth`: many scenes, in parallel, byte-identical for a seed."""

from __future__ import annotations

import multiprocessing as mp
import os
import pickle
import signal
import traceback
from collections.abc import Iterator
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path

import numpy as np

from datasets.deck import deck_manifest, load_deck, missing_classes
from datasets.faces import FacePool
from datasets.printing import ANOTHER_PRINTING, PrintRun
from datasets.scene import Scene, make_scene
from datasets.yolo_format import PROCEDURAL_DECK, prepare, split_of, write_scene

_pool: FacePool | None = None
# Different procedural faces of each kind drawn where no deck folder is given.
RENDERED_PER_KIND = 10
# How many scenes a worker may draw ahead of the one being written (each held in memory).
AHEAD = 4


def face_pool(seed: int, faces_dir: Path | None = None, mix_rendered: bool = False) -> FacePool:
    """The deck in `faces_dir` (datasets/deck.py); without one, procedural faces (seeded:
    a made-up deck for tests only). `mix_rendered` adds procedural faces to the deck's."""
    if faces_dir is None:
        return FacePool.rendered(seed, RENDERED_PER_KIND)
    deck = load_deck(faces_dir)
    if not mix_rendered:
        lacking = missing_classes(faces_dir)
        if lacking:
            raise ValueError(
                f"the deck folder {faces_dir} has no face for {', '.join(lacking)}: every "
                f"kind needs one (sushigo faces import PHOTO --as CLASS --out {faces_dir})"
            )
        return deck
    rendered = FacePool.rendered(seed, RENDERED_PER_KIND)
    for kind, levels in rendered.faces.items():
        deck.faces.setdefault(kind, []).extend(levels)
    return deck


def scene_rng(seed: int, index: int) -> np.random.Generator:
    # One stream per image: the output does not depend on the number of workers.
    return np.random.default_rng([seed, index])


def _init(seed: int, faces_dir: Path | None, mix: bool) -> None:
    global _pool
    _pool = face_pool(seed, faces_dir, mix)


# How the deck is printed in the photos: a print run drawn per photo within training's
# ranges, or one printing outside them (held out: datasets/printing.py).
PRINTINGS: dict[str, PrintRun | None] = {"varied": None, "another": ANOTHER_PRINTING}


def _make(args: tuple[int, int, int, str]) -> tuple[int, Scene]:
    seed, index, size, printing = args
    assert _pool is not None
    # None: a print run drawn for each photo (make_scene's own).
    return index, make_scene(scene_rng(seed, index), _pool, size=size, printing=PRINTINGS[printing])


def generate(
    seed: int,
    count: int,
    size: int,
    *,
    workers: int | None = None,
    faces_dir: Path | None = None,
    mix_rendered: bool = False,
    start: int = 0,
    printing: str = "varied",
) -> Iterator[tuple[int, Scene]]:
    """(index, scene) for indices start..start+count-1, in order. The deck is read now,
    before the first scene is asked for: a deck that cannot be drawn fails the call."""
    if printing not in PRINTINGS:
        raise ValueError(f"unknown printing {printing!r}; expected one of {', '.join(PRINTINGS)}")
    workers = workers or min(2, os.cpu_count() or 1)
    tasks = [(seed, i, size, printing) for i in range(start, start + count)]
    # Read here, once: a face that cannot be read is this process's error, said as such,
    # not a worker's start that fails. Forked workers share it.
    _init(seed, faces_dir, mix_rendered)
    return _scenes(tasks, workers)


def _scenes(tasks: list[tuple[int, int, int, str]], workers: int) -> Iterator[tuple[int, Scene]]:
    workers = min(workers, len(tasks))
    if workers <= 1:
        yield from map(_make, tasks)
        return
    # Worker k draws scenes k, k+workers, ... and sends each down its own pipe. No thread
    # of this process waits on a worker: an executor's did, and a worker lost or stopped
    # could leave it, and the interpreter's exit joining it, waiting for ever (CPython
    # issue 83386).
    fork = mp.get_context("fork")
    drawing: list[tuple[BaseProcess, Connection]] = []
    try:
        for k in range(workers):
            reader, writer = fork.Pipe(duplex=False)
            process = fork.Process(target=_draw, args=(writer, tasks[k::workers]), daemon=True)
            process.start()
            # The worker's copy is then the pipe's only writer: its end is this end's EOF.
            writer.close()
            drawing.append((process, reader))
        readers = [reader for _, reader in drawing]
        due = list(range(workers))  # the next scene each worker sends
        early: dict[int, tuple[int, Scene] | Exception] = {}
        for i in range(len(tasks)):
            while i not in early:
                # Read whichever worker is ready, so none waits on another's slower scene;
                # a worker runs at most AHEAD scenes ahead of the one yielded.
                last = min(i + AHEAD, len(tasks) - 1)
                ahead = [r for r, d in zip(readers, due, strict=True) if d <= last]
                for ready in wait(ahead):
                    k = readers.index(ready)  # type: ignore[arg-type]
                    early[due[k]] = got = _received(readers[k])
                    # A worker's end is raised in its scene's turn: the scenes before it,
                    # drawn by others, are written first, whatever the number of workers.
                    due[k] = len(tasks) if isinstance(got, Exception) else due[k] + workers
            got = early.pop(i)
            if isinstance(got, Exception):
                raise got
            yield got
    finally:
        _stop(drawing)


def _draw(out: Connection, tasks: list[tuple[int, int, int, str]]) -> None:
    """A worker: draws its scenes in order and sends each, or the error that stopped it."""
    # Ctrl-C is the parent's to answer (one line, api.cli): not a traceback per worker.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Stopped by the parent (_stop), a worker ends at once, not through the command's
    # SIGTERM handler inherited by the fork.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for task in tasks:
        try:
            made = _make(task)
        except Exception as error:
            # An error, where a scene is a tuple: the parent tells them apart by type.
            out.send(_sendable(error, f"in the worker drawing scene {task[1]}"))
            return
        out.send(made)


def _sendable(error: Exception, where: str) -> Exception:
    """The error with the worker's traceback as a note, or, where it cannot travel through
    a pipe whole (an error holding a lock, one that needs other arguments to be made), a
    RuntimeError saying what it was."""
    said = f"{where}:\n{traceback.format_exc()}"
    error.add_note(said)
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}\n{said}")
    return error


def _received(reader: Connection) -> tuple[int, Scene] | Exception:
    """A worker's next scene, or the error that ended it (its own, or its loss)."""
    try:
        return reader.recv()
    except (EOFError, OSError) as error:  # the pipe closed, or closed mid-scene
        lost = ChildProcessError(
            "a worker drawing the scenes stopped without finishing (killed, or out of "
            "memory?); run again, with --workers 1 if it happens again"
        )
        lost.__cause__ = error
        return lost


def _stop(drawing: list[tuple[BaseProcess, Connection]]) -> None:
    """Stops the workers now (a run stopped early drops their scenes; a finished one is
    ending anyway), and closes the pipes."""
    for process, _ in drawing:
        if process.is_alive():
            process.terminate()
    for process, reader in drawing:
        process.join(timeout=10)
        if process.is_alive():  # SIGTERM is their default, but never wait on one for ever
            process.kill()
            process.join()
        reader.close()


def write_dataset(
    out: Path,
    *,
    images: int,
    seed: int,
    size: int = 640,
    workers: int | None = None,
    faces_dir: Path | None = None,
    mix_rendered: bool = False,
    progress: bool = True,
    held_out: str | None = None,
    printing: str = "varied",
) -> Path:
    """Write a dataset; `held_out` marks it as a test set that training refuses."""
    from tqdm import tqdm

    deck = (
        {"folder": str(faces_dir.resolve()), "sha256": deck_manifest(faces_dir)}
        if faces_dir is not None and not mix_rendered
        else PROCEDURAL_DECK
    )
    # The deck is read first: a deck that cannot be drawn fails before any file.
    scenes = generate(
        seed,
        images,
        size,
        workers=workers,
        faces_dir=faces_dir,
        mix_rendered=mix_rendered,
        printing=printing,
    )
    prepare(out, held_out, deck=deck)
    for index, made in tqdm(scenes, total=images, disable=not progress, desc="synth", unit="img"):
        write_scene(out, split_of(index, images), f"{index:06d}", made)
    return out
