"""`sushigo synth`: many scenes, in parallel, byte-identical for a seed."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
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


def _worker() -> None:
    # Ctrl-C is the parent's to answer (one line, api.cli): not a traceback per worker.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A worker stopped (_stop) ends at once: the parent's SIGTERM handler, inherited by the
    # fork, had raised SystemExit in it, which the executor's worker caught and sent back
    # through a pipe nobody read any more, hanging there, and the parent with it.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


# How the deck is printed in the photos: a print run drawn per photo within training's
# ranges, or one printing outside them (held out: datasets/printing.py).
PRINTINGS: dict[str, PrintRun | None] = {"varied": None, "another": ANOTHER_PRINTING}


def _make(args: tuple[int, int, int, str]) -> tuple[int, Scene]:
    seed, index, size, printing = args
    assert _pool is not None
    extra = {} if PRINTINGS[printing] is None else {"printing": PRINTINGS[printing]}
    return index, make_scene(scene_rng(seed, index), _pool, size=size, **extra)


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
    if workers <= 1:
        yield from map(_make, tasks)
        return
    # An executor, not a multiprocessing.Pool: a worker that dies (killed, out of memory)
    # breaks it, where a Pool waits for the lost scenes without end.
    executor = ProcessPoolExecutor(workers, mp_context=mp.get_context("fork"), initializer=_worker)
    try:
        yield from executor.map(_make, tasks, chunksize=4)
    except BrokenProcessPool as error:
        _stop(executor)
        raise ChildProcessError(
            "a worker drawing the scenes stopped without finishing (killed, or out of "
            "memory?); run again, with --workers 1 if it happens again"
        ) from error
    except BaseException:
        # Stopped early (Ctrl-C, SIGTERM, an error, a reader that stops): a shutdown would
        # first draw every scene already queued to the workers, seconds of them.
        _stop(executor)
        raise
    executor.shutdown(wait=True)


def _stop(executor: ProcessPoolExecutor) -> None:
    """Stops the executor's workers now, their queued scenes dropped."""
    # No public way to reach them before Python 3.14's terminate_workers().
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=10)


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
