"""`sushigo faces` and `sushigo synth` end to end through the real dispatcher, on tiny sizes."""

from __future__ import annotations

import contextlib
import errno
import multiprocessing
import signal
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from api.cli import in_words, main
from datasets.faces import render_face
from datasets.table import surface
from datasets.yolo_format import read_split
from tests.datasets.test_scans import photo_of_card, read_png


def test_the_made_up_deck_is_no_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The retired deck is drawn for tests alone (datasets/faces.py), never by a command:
    `faces` only imports a player's own card, and `synth` draws a deck folder."""
    with pytest.raises(SystemExit) as exit_:
        main(["faces", "--out", str(tmp_path), "--per-class", "2"])
    assert exit_.value.code == 2
    assert "(choose from 'import')" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["synth", "--out", str(tmp_path / "set"), "--images", "2"])
    assert exit_.value.code == 2
    assert "the following arguments are required: --faces" in capsys.readouterr().err
    assert not (tmp_path / "set").exists() and not any(tmp_path.iterdir())


def test_faces_import_saves_the_next_face(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    face = render_face("squid", np.random.default_rng(2))
    photo = tmp_path / "squid.png"
    cv2.imwrite(str(photo), photo_of_card(face, table="wood", turn_deg=-5, seed=4)[0])
    out = tmp_path / "faces"
    for name in ("000.png", "001.png"):
        assert main(["faces", "import", str(photo), "--as", "squid", "--out", str(out)]) == 0
        assert f"saved squid face {out / 'squid' / name}" in capsys.readouterr().out
    assert read_png(out / "squid" / "001.png").shape == face.shape


def test_faces_import_takes_several_photos_and_keeps_those_it_can(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A player photographs a class's cards and imports them in one command: a photo
    refused (no card in it, not there) is said, and the others are saved all the same."""
    face = render_face("squid", np.random.default_rng(2))
    photos = []
    for seed in (4, 5):
        photos.append(tmp_path / f"squid-{seed}.png")
        cv2.imwrite(str(photos[-1]), photo_of_card(face, table="wood", turn_deg=-5, seed=seed)[0])
    table = tmp_path / "table.png"
    cv2.imwrite(str(table), surface(np.random.default_rng(1), 600, 800, "wood"))
    half = tmp_path / "half.jpg"  # a photo half copied off the phone
    half.write_bytes(cv2.imencode(".jpg", cv2.imread(str(photos[0])))[1].tobytes()[:20_000])
    out = tmp_path / "faces"
    argv = [str(photos[0]), str(table), str(tmp_path / "gone.jpg"), str(half), str(photos[1])]
    assert main(["faces", "import", *argv, "--as", "squid", "--out", str(out)]) == 2
    said = capsys.readouterr()
    assert sorted(p.name for p in (out / "squid").iterdir()) == ["000.png", "001.png"]
    assert said.out.splitlines() == [
        f"saved squid face {out / 'squid' / '000.png'}",
        f"saved squid face {out / 'squid' / '001.png'}",
        f"2 of 5 photos saved as squid faces in {out}",
    ]
    refusals = said.err.splitlines()
    assert len(refusals) == 3
    assert refusals[0].startswith(f"sushigo faces: refused: {table}: no card found")
    assert refusals[1] == f"sushigo faces: refused: no such photo: {tmp_path / 'gone.jpg'}"
    assert refusals[2].startswith(f"sushigo faces: refused: {half} could not be read whole")
    # All saved: the command succeeds.
    assert main(["faces", "import", *map(str, photos), "--as", "squid", "--out", str(out)]) == 0
    assert "2 of 2 photos saved" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["faces", "import", "{photo}", "--out", "{out}"],
            "faces import needs --as CLASS, one of: tempura",
        ),
        (["faces", "import", "--as", "egg", "--out", "{out}"], "faces import needs a PHOTO"),
        (
            ["faces", "import", "{photo}", "--as", "eel", "--out", "{out}"],
            "unknown card class 'eel'",
        ),
        (["faces", "import", "{table}", "--as", "egg", "--out", "{out}"], "no card found"),
        (["faces", "import", "{photo}", "--as", "egg", "--out", "{out}", "--force"], "no card"),
        (["faces", "import", "{out}/none.jpg", "--as", "egg", "--out", "{out}"], "no such photo"),
        # A folder for the photo, a file for the deck: each said as what it is (they had
        # been "no such photo", "no such deck folder").
        (["faces", "import", "{out}", "--as", "egg", "--out", "{out}/d"], "is a folder: give"),
        (
            ["synth", "--out", "{out}/s", "--images", "2", "--faces", "{photo}"],
            "card.png is a file: give the deck folder",
        ),
        (["synth", "--out", "{out}", "--faces", "{out}"], "synth --out needs --images N"),
        (
            ["synth", "--out", "{out}", "--images", "2", "--faces", "{out}/no"],
            "no such deck folder",
        ),
        (["synth", "--preview", "{out}/sheet.gif", "--faces", "{out}"], "name it .png or .jpg"),
    ],
)
def test_user_errors_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    photo = tmp_path / "card.png"
    table = tmp_path / "table.png"
    cv2.imwrite(str(photo), np.zeros((8, 8, 3), np.uint8))
    cv2.imwrite(str(table), np.full((300, 400, 3), 120, np.uint8))
    filled = [a.format(photo=photo, table=table, out=tmp_path) for a in argv]
    assert main(filled) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.startswith(f"sushigo {argv[0]}: error: ") and err.count("\n") == 1


def test_the_systems_errors_name_the_path_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder that cannot be made is said as its path and the system's words, not as
    "[Errno 20] Not a directory: '...'"."""
    face = render_face("squid", np.random.default_rng(2))
    photo = tmp_path / "squid.png"
    cv2.imwrite(str(photo), photo_of_card(face, table="wood", turn_deg=-5, seed=4)[0])
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    argv = ["faces", "import", str(photo), "--as", "squid", "--out", str(blocked / "faces")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == f"sushigo faces: error: {blocked / 'faces' / 'squid'}: not a directory\n"


def test_an_oserror_in_words() -> None:
    assert in_words(PermissionError(errno.EACCES, "Permission denied", "/x/y.jpg")) == (
        "/x/y.jpg: permission denied"
    )
    assert in_words(OSError(errno.ENOSPC, "No space left on device")) == "no space left on device"
    moved = OSError(errno.EXDEV, "Invalid cross-device link", "/a", None, "/b")
    assert in_words(moved) == "/a -> /b: invalid cross-device link"
    # The project's own wording is left as it is.
    assert in_words(FileNotFoundError("no such photo: p.jpg")) == "no such photo: p.jpg"
    assert in_words(ValueError("bad")) == "bad"


def test_usage_errors_come_from_argparse(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["faces", "photo.jpg", "--out", "x"])  # forgot the word `import`
    assert exit_.value.code == 2
    assert "invalid choice: 'photo.jpg'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["synth", "--out", "a", "--preview", "b.png"])
    assert "not allowed with argument" in capsys.readouterr().err


def test_synth_writes_a_dataset(
    tmp_path: Path, faces_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "set"
    argv = [
        "synth",
        "--out",
        str(out),
        "--images",
        "3",
        "--seed",
        "2",
        "--size",
        "320",
        "--faces",
        str(faces_dir),
        "--workers",
        "1",
    ]
    handler = signal.getsignal(signal.SIGTERM)
    assert main(argv) == 0
    assert "wrote 3 images" in capsys.readouterr().out
    # Its SIGTERM handler was the run's alone: left behind, forked workers inherited it.
    assert signal.getsignal(signal.SIGTERM) is handler
    assert (out / "data.yaml").is_file()
    assert "held_out" not in (out / "data.yaml").read_text()
    items = read_split(out, "train") + read_split(out, "val") + read_split(out, "test")
    assert len(items) == 3
    for item in items:
        image = read_png(item.image)
        assert max(image.shape[:2]) == 320
        assert len(item.boxes) == item.truth["hand_size"]


def test_synth_preview_draws_a_contact_sheet(
    tmp_path: Path, faces_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "preview.png"
    argv = [
        "synth",
        "--preview",
        str(sheet),
        "--images",
        "3",
        "--size",
        "320",
        "--faces",
        str(faces_dir),
        "--workers",
        "1",
    ]
    assert main(argv) == 0
    assert "wrote a preview of 3 images" in capsys.readouterr().out
    image = read_png(sheet)
    # Two columns of 480 px cells (ceil(sqrt(3)) = 2), two rows of cells with captions.
    assert image.shape[1] == 2 * 480 and image.shape[0] > 2 * 480


def test_the_synth_benchmark_runs(faces_dir: Path) -> None:
    """A smoke run of benchmarks/bench_synth.py's timing, so its code path cannot rot."""
    from benchmarks.bench_synth import timed_run

    result = timed_run(3, 160, 1, faces_dir=faces_dir)
    assert result["images"] == 3 and result["steady_per_s"] > 0


def test_synth_printing_another_writes_a_held_out_set(
    tmp_path: Path, faces_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "another"
    argv = ["synth", "--out", str(out), "--images", "2", "--size", "320", "--workers", "1"]
    assert main([*argv, "--faces", str(faces_dir), "--printing", "another"]) == 0
    assert "wrote 2 images" in capsys.readouterr().out
    items = read_split(out, "train") + read_split(out, "val") + read_split(out, "test")
    assert len(items) == 2
    # A held-out set says so, and training refuses it before anything runs.
    assert "--printing another" in (out / "data.yaml").read_text()
    for stage in ("all", "detector", "classifier", "stack-check"):
        assert main(["train", "--data", str(out), "--stage", stage]) == 2
        err = capsys.readouterr().err
        assert "is a held-out test set" in err and "never train on it" in err


def test_synth_never_writes_into_a_dataset_already_there(
    tmp_path: Path, faces_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "set"
    argv = [
        "synth",
        "--out",
        str(out),
        "--size",
        "160",
        "--workers",
        "1",
        "--faces",
        str(faces_dir),
    ]
    assert main([*argv, "--images", "3"]) == 0
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    capsys.readouterr()
    assert main([*argv, "--images", "2", "--seed", "9"]) == 2
    assert f"{out} is not empty" in capsys.readouterr().err
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    assert main([*argv, "--images", "2", "--out", str(out / "data.yaml")]) == 2
    assert "is a file" in capsys.readouterr().err


def test_synth_stops_in_words_when_a_worker_dies(
    tmp_path: Path,
    faces_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker killed mid-run (out of memory, say) ends the run with a line saying so and
    what it left: under a multiprocessing.Pool the command waited for its scenes forever."""
    import os

    from datasets import synth

    drawn = synth.scene_rng

    def dies_at_the_fifth(seed: int, index: int) -> np.random.Generator:
        if index >= 4:
            os._exit(9)  # in the forked worker only: the parent never draws with two
        return drawn(seed, index)

    monkeypatch.setattr(synth, "scene_rng", dies_at_the_fifth)
    out = tmp_path / "set"
    argv = ["synth", "--out", str(out), "--images", "12", "--size", "160", "--workers", "2",
            "--faces", str(faces_dir)]  # fmt: skip
    with deadline(60):  # a failure, not a hang, if the wait came back
        assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"sushigo synth: stopped: {out} holds a part of the dataset (" in err
    assert "of 12 images): remove it before writing there again" in err
    assert "error: a worker drawing the scenes stopped without finishing" in err
    assert "--workers 1" in err


def test_scenes_stopped_early_stop_their_workers_at_once(
    tmp_path: Path, faces_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader that stops (Ctrl-C, an error) stops the workers with it: an executor's
    shutdown had first drawn every scene queued to them, some 20 more here."""
    import time

    from datasets import synth

    started = tmp_path / "started"
    drawn = synth.scene_rng

    def slow(seed: int, index: int) -> np.random.Generator:
        with started.open("a") as log:  # from the workers, each scene as it starts
            log.write(f"{index}\n")
        time.sleep(0.3)
        return drawn(seed, index)

    monkeypatch.setattr(synth, "scene_rng", slow)
    with deadline(60):
        scenes = synth.generate(3, 40, 160, workers=2, faces_dir=faces_dir)
        assert next(scenes)[0] == 0
        scenes.close()
    time.sleep(1.0)  # what a worker left alive would start meanwhile
    count = len(started.read_text().split())
    # Scenes 0-4 at most are read (synth.AHEAD), and a worker begins one more after each.
    assert count <= 7, count
    assert not multiprocessing.active_children()


def test_drawing_in_workers_leaves_no_thread_to_wait_on(
    tmp_path: Path, faces_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No thread of this process waits on a worker: a ProcessPoolExecutor's did, and a run
    whose workers were stopped or lost could leave the interpreter's exit waiting on it for
    ever (CPython issue 83386): CI's tests passed, then never ended."""
    import threading

    from datasets import synth

    before = set(threading.enumerate())
    with deadline(60):
        scenes = synth.generate(3, 8, 160, workers=2, faces_dir=faces_dir)
        assert next(scenes)[0] == 0
        assert set(threading.enumerate()) <= before  # none added (an earlier test's may end)
        assert [index for index, _ in scenes] == list(range(1, 8))
    assert set(threading.enumerate()) <= before
    assert not multiprocessing.active_children()


class NeedsTwo(Exception):
    def __init__(self, first: str, second: str) -> None:
        super().__init__(f"{first} {second}")


@pytest.mark.parametrize("error", [ValueError("no scene 3"), NeedsTwo("no", "scene 3")])
def test_a_workers_error_comes_in_its_scenes_turn(
    faces_dir: Path, monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    """The scenes before a worker's error are yielded first, as with one worker, however
    slow another worker's are: it had been raised as soon as read, up to 4 scenes early.
    An error that cannot be sent back whole says what it was."""
    import time

    from datasets import synth

    drawn = synth.scene_rng

    def slow_first_and_no_fourth(seed: int, index: int) -> np.random.Generator:
        if index == 0:
            time.sleep(1.0)
        if index == 3:
            raise error
        return drawn(seed, index)

    monkeypatch.setattr(synth, "scene_rng", slow_first_and_no_fourth)
    for workers in (1, 2):
        got: list[int] = []
        with deadline(60), pytest.raises(Exception) as raised:
            for index, _ in synth.generate(3, 8, 160, workers=workers, faces_dir=faces_dir):
                got.append(index)
        assert got == [0, 1, 2], workers
        assert "no scene 3" in str(raised.value)
        if workers == 2 and isinstance(error, NeedsTwo):
            assert type(raised.value) is RuntimeError
            assert str(raised.value).startswith("NeedsTwo: no scene 3")
        else:
            assert type(raised.value) is type(error)
        if workers == 2:  # where it was raised, in the worker, is said too
            said = str(raised.value) + "".join(getattr(raised.value, "__notes__", []))
            assert "in the worker drawing scene 3" in said
        assert not multiprocessing.active_children()


@pytest.mark.parametrize("how", ["lost", "stopped", "failed"])
def test_a_process_whose_workers_were_lost_or_stopped_exits(
    tmp_path: Path, faces_dir: Path, how: str
) -> None:
    """The whole process, not only the call, comes to its end: its exit waited on the
    executor's thread before (a hang seen once in CI, after every test had passed)."""
    import subprocess
    import sys

    script = f"""
import os, sys
from pathlib import Path
from datasets import synth
drawn = synth.scene_rng
def scene_rng(seed, index):
    if index == 3 and {how!r} == "lost":
        os._exit(9)
    if index == 3 and {how!r} == "failed":
        raise ValueError("no scene 3")
    return drawn(seed, index)
synth.scene_rng = scene_rng
scenes = synth.generate(3, 30, 640, workers=2, faces_dir=Path({str(faces_dir)!r}))
try:
    for index, _ in scenes:
        if index == 1 and {how!r} == "stopped":
            scenes.close()
            break
except (ChildProcessError, ValueError) as error:
    print(type(error).__name__, str(error).splitlines()[0])
print("ended")
"""
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    said = {
        "lost": "ChildProcessError a worker drawing the scenes stopped without finishing",
        "failed": "ValueError no scene 3",
        "stopped": "ended",
    }[how]
    assert run.stdout.splitlines()[0].startswith(said), run.stdout
    assert run.stdout.splitlines()[-1] == "ended"


@contextlib.contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Raises TimeoutError in the block after `seconds`, for a test that would hang."""

    def expired(*_: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--images", "1000000000", "expected at most 1,000,000"),
        ("--size", "100000", "expected at most 8,192"),
        ("--size", "20", "expected at least 160"),
        ("--seed", "-3", "expected at least 0"),
    ],
)
def test_synth_bounds_are_said_before_anything_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, said: str
) -> None:
    out = tmp_path / "set"
    argv = ["synth", "--out", str(out), "--images", "2", option, value]
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert f"argument {option}: {said}" in capsys.readouterr().err
    assert not out.exists()


def test_a_deck_that_cannot_be_drawn_fails_at_once_and_writes_nothing(
    tmp_path: Path, faces_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A face that is no image: one line, at once, with two workers (their pool had retried
    a failing start without end); a deck lacking a kind: named before any photo."""
    import shutil
    import subprocess
    import sys

    broken = tmp_path / "broken"
    shutil.copytree(faces_dir, broken)
    (broken / "egg" / "000.png").write_text("not a picture")
    out = tmp_path / "set"
    run = subprocess.run(
        [sys.executable, "-m", "api.cli", "synth", "--out", str(out), "--images", "4",
         "--size", "160", "--faces", str(broken), "--workers", "2"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 2, run.stderr
    assert (
        run.stderr.strip().splitlines()[-1].endswith(f"cannot read face image {broken}/egg/000.png")
    )
    assert "Traceback" not in run.stderr
    assert not out.exists()

    lacking = tmp_path / "lacking"
    shutil.copytree(faces_dir, lacking)
    shutil.rmtree(lacking / "squid")
    assert main(["synth", "--out", str(out), "--images", "2", "--size", "160",
                 "--faces", str(lacking), "--workers", "1"]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert f"the deck folder {lacking} has no face for squid" in err
    assert "no back.png: the photos show no draw pile" in err
    assert not out.exists()


def test_a_stopped_synth_says_what_it_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C had left a part of a dataset without a word (exit 130), and the next run
    into the folder was refused as "not empty"."""
    import datasets.synth

    def stopped(out: Path, **_: object) -> Path:
        (out / "images" / "train").mkdir(parents=True)
        for name in ("000000.jpg", "000001.jpg"):
            (out / "images" / "train" / name).write_bytes(b"")
        raise KeyboardInterrupt

    monkeypatch.setattr(datasets.synth, "write_dataset", stopped)
    deck = tmp_path / "deck"
    (deck / "tempura").mkdir(parents=True)
    cv2.imwrite(str(deck / "tempura" / "000.png"), render_face("tempura", np.random.default_rng(1)))
    out = tmp_path / "set"
    assert main(["synth", "--out", str(out), "--images", "40", "--faces", str(deck)]) == 130
    err = capsys.readouterr().err
    said = f"sushigo synth: stopped: {out} holds a part of the dataset (2 of 40 images): remove"
    assert said in err, err
