"""`sushigo detect`, `sushigo eval` through the real entry point and the shipped weights."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from api.cli import main
from datasets.faces import FacePool
from datasets.scene import make_scene
from datasets.synth import write_dataset
from scoring.cards import TALLY_KEYS, TALLY_NAMES
from vision.commands import tally_said
from vision.photo import turn_image
from vision.training.evaluate import Report


@pytest.fixture(scope="module")
def photo(tmp_path_factory: pytest.TempPathFactory, printed_deck: FacePool) -> Path:
    scene = make_scene(np.random.default_rng(2468), printed_deck, size=2016)
    path = tmp_path_factory.mktemp("photo") / "collection.jpg"
    path.write_bytes(scene.jpeg)
    return path


def test_detect_json_prints_the_api_body_and_annotates(
    photo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "annotated.jpg"
    assert main(["detect", str(photo), "--json", "--players", "3", "--annotate", str(out)]) == 0
    body = json.loads(capsys.readouterr().out)
    assert set(body) == {"tally", "cards", "detections", "warnings", "notes", "turned"}
    assert list(body["tally"]) == list(TALLY_KEYS)
    assert body["cards"] == sum(body["tally"].values()) + sum(
        body["tally"][k] for k in ("egg_on_wasabi", "salmon_on_wasabi", "squid_on_wasabi")
    )
    # Boxes are in the photo's own pixels (2016 px), not the reduced decode's.
    assert max(d["box"][2] for d in body["detections"]) > 1008
    annotated = cv2.imread(str(out))
    assert annotated is not None and max(annotated.shape[:2]) >= 1000


def test_detect_says_the_tally_in_the_cards_names(
    photo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["detect", str(photo), "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert main(["detect", str(photo)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{body['cards']} cards:"
    held = {TALLY_NAMES[k]: v for k, v in body["tally"].items() if v}
    said = dict(line.strip().rsplit(maxsplit=1) for line in lines[1 : 1 + len(held)])
    assert {name: int(count) for name, count in said.items()} == held


def test_detect_without_the_player_count_hints_at_it_where_it_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], printed_deck: FacePool
) -> None:
    """Read without --players a photo warns of a doubtful stack, which the hand size
    would settle (92.8 % of the report set exact without it, 99.2 % with it): said."""
    scene = make_scene(np.random.default_rng(2469), printed_deck, size=1280)
    photo = tmp_path / "doubt.jpg"
    photo.write_bytes(scene.jpeg)
    assert main(["detect", str(photo)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("warning: one egg nigiri read as plain") for line in lines)
    assert lines[-1].startswith("hint: give --players N to check the hand size too")
    assert main(["detect", str(photo), "--players", "2"]) == 0
    assert not any(line.startswith("hint:") for line in capsys.readouterr().out.splitlines())


def test_a_tally_is_said_a_kind_a_line_in_names_a_player_knows() -> None:
    tally = dict.fromkeys(TALLY_KEYS, 0) | {"maki_2": 2, "squid_on_wasabi": 1, "pudding": 1}
    assert tally_said(tally, 5).splitlines() == [
        "5 cards:",
        "  Maki, 2 rolls     2",
        "  Squid on wasabi   1",
        "  Pudding           1",
    ]
    assert tally_said(dict.fromkeys(TALLY_KEYS, 0), 0) == "no cards"


def test_a_photo_read_at_a_slant_is_annotated_turned_with_black_corners(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    printed_deck: FacePool,
) -> None:
    faces = printed_deck
    scene = make_scene(np.random.default_rng(24_683), faces, size=1280, style="rows")
    upright = cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR)
    photo = tmp_path / "slanted.jpg"
    cv2.imwrite(str(photo), turn_image(upright, 40))  # its own corners smeared, not black
    out = tmp_path / "annotated.jpg"
    assert main(["detect", str(photo), "--json", "--annotate", str(out)]) == 0
    assert json.loads(capsys.readouterr().out)["turned"] == 320
    annotated = cv2.imread(str(out))
    assert annotated[-3:, -3:].max() < 40  # outside the photo, now turned back
    # In words: the turn is a note, not a warning.
    assert main(["detect", str(photo)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "note: the photo was read turned 40° anticlockwise: its cards lay at a slant" in lines
    assert not any(line.startswith("warning: the photo was read turned") for line in lines)


def test_detect_names_a_missing_or_unreadable_photo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["detect", str(tmp_path / "nope.jpg")]) == 2
    assert "no such photo" in capsys.readouterr().err
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo")
    assert main(["detect", str(text)]) == 2
    assert f"sushigo detect: error: {text}: the file is not an image" in capsys.readouterr().err
    folder = tmp_path / "photos.jpg"
    folder.mkdir()
    assert main(["detect", str(folder)]) == 2
    assert f"{folder} is a folder" in capsys.readouterr().err
    assert main(["detect", "/dev/null"]) == 2  # it had been told "no such photo"
    assert "/dev/null is not a file (a device or a pipe)" in capsys.readouterr().err
    nowhere = tmp_path / "none" / "a.jpg"
    assert main(["detect", str(text), "--annotate", str(nowhere)]) == 2
    assert f"--annotate: no folder {nowhere.parent}" in capsys.readouterr().err
    # It writes a JPEG: not under another format's name.
    assert main(["detect", str(text), "--annotate", str(tmp_path / "out.png")]) == 2
    assert "--annotate writes a JPEG: name it .jpg, not out.png" in capsys.readouterr().err
    assert not (tmp_path / "out.png").exists()
    # Not over the photo it reads: the photo had been replaced by its annotated copy.
    kept = text.read_bytes()
    assert main(["detect", str(text), "--annotate", str(text)]) == 2
    said = f"--annotate {text} would overwrite the photo read: name another file"
    assert said in capsys.readouterr().err
    assert text.read_bytes() == kept


@pytest.mark.parametrize(
    ("card", "said"),
    [
        ("{}", "is not a sushigo model card: no 'detector'"),
        ('{"detector": "f.onnx"}', "is not a sushigo model card: no 'classifier'"),
        ("[1, 2]", "is not a sushigo model card: not a JSON object"),
        ('{"detector": 3, "classifier": "c.onnx", "imgsz": 416}', "must be a name, got 3"),
        ("{", "is not JSON (Expecting property name"),
    ],
)
def test_detect_names_a_weights_folder_whose_model_card_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], card: str, said: str
) -> None:
    """A model card it cannot use is named with what is wrong in it: it had ended in a
    KeyError's traceback."""
    photo = tmp_path / "table.jpg"
    cv2.imwrite(str(photo), np.full((480, 640, 3), 90, np.uint8))
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "model.json").write_text(card)
    assert main(["detect", str(photo), "--weights", str(tmp_path / "w")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"sushigo detect: error: {tmp_path / 'w' / 'model.json'} "), err
    assert said in err and "Traceback" not in err


def test_detect_names_weights_that_are_no_weights_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = tmp_path / "table.jpg"
    cv2.imwrite(str(photo), np.full((480, 640, 3), 90, np.uint8))
    assert main(["detect", str(photo), "--weights", str(photo)]) == 2
    said = f"{photo} is a file with no model.json beside it: name a weights folder"
    assert said in capsys.readouterr().err


def test_eval_reports_exact_tallies_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_dataset(tmp_path / "data", images=4, seed=77, size=960, workers=1, progress=False)
    assert (
        main(["eval", "--data", str(data), "--split", "all", "--json", str(tmp_path / "r.json")])
        == 0
    )
    printed = capsys.readouterr().out
    assert "exact" in printed and "confusion" in printed
    summary = json.loads((tmp_path / "r.json").read_text())
    assert summary["subsets"]["all"]["photos"] == 4
    assert 0.0 <= summary["subsets"]["all"]["exact_tally"] <= 1.0
    wrong = summary["wrong_photos"]
    assert len(wrong) == round(4 * (1 - summary["subsets"]["all"]["exact_tally"]))
    assert all(photo["read_and_true"] for photo in wrong)
    assert f"photos read wrong: {len(wrong)}" in printed


def test_eval_says_which_photos_it_read_and_names_a_bad_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The test split alone had been read (one photo of ten) with no word of it; a broken
    photo or tally record of the set had been named by what was wrong, not by its file."""
    data = write_dataset(tmp_path / "data", images=10, seed=78, size=960, workers=1, progress=False)
    tested = len(list((data / "images" / "test").glob("*.jpg")))
    assert main(["eval", "--data", str(data)]) == 0
    photos = f"{tested} photo" if tested == 1 else f"{tested} photos"
    said = f"the test split's {photos} only: --split all reads the set's other {10 - tested}"
    assert capsys.readouterr().out.startswith(said)
    record = next((data / "tallies" / "test").glob("*.json"))
    record.write_text("{broken")
    assert main(["eval", "--data", str(data)]) == 2
    assert f"error: {record} is not a tally record: " in capsys.readouterr().err
    photo = next((data / "images" / "test").glob("*.jpg"))
    record.unlink()
    photo.write_bytes(b"\x00" * 64)
    (data / "tallies" / "test" / f"{photo.stem}.json").write_text(
        json.dumps({"cards": [], "players": 2})
    )
    assert main(["eval", "--data", str(data)]) == 2
    assert f"error: {photo}: the file is not an image" in capsys.readouterr().err
    empty = tmp_path / "empty"
    (empty / "images").mkdir(parents=True)
    assert main(["eval", "--data", str(empty), "--split", "all"]) == 2
    assert f"no images in {empty}/images/ (train, val or test)" in capsys.readouterr().err


def test_eval_without_players_reads_without_the_player_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import vision.training.evaluate

    asked: list[bool] = []

    def evaluate(*_args: object, players: bool, **_kwargs: object) -> Report:
        asked.append(players)
        return Report()

    monkeypatch.setattr(vision.training.evaluate, "evaluate", evaluate)
    assert main(["eval", "--data", str(tmp_path)]) == 0
    assert main(["eval", "--data", str(tmp_path), "--without-players"]) == 0
    assert asked == [True, False]


def test_eval_with_no_photo_read_wrong_writes_json_that_parses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A share of no photos is null in the JSON (NaN is not JSON) and words on screen."""
    import vision.training.evaluate

    monkeypatch.setattr(vision.training.evaluate, "evaluate", lambda *a, **k: Report())
    out = tmp_path / "r.json"
    assert main(["eval", "--data", str(tmp_path), "--json", str(out)]) == 0
    assert "no photo was read wrong" in capsys.readouterr().out

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} in {out}")

    summary = json.loads(out.read_text(), parse_constant=refuse)
    assert summary["warned"] == {"wrong": None, "right": None}


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["train", "--threads", "0"], "argument --threads: expected at least 1, got 0"),
        (["train", "--batch", "-4"], "argument --batch: expected at least 1, got -4"),
        (["eval", "--limit", "0"], "argument --limit: expected at least 1, got 0"),
        (["eval", "--split", "bogus"], "argument --split: invalid choice: 'bogus'"),
        (["train", "--fraction", "5"], "--fraction: expected a share above 0 and at most 1"),
        (["train", "--fraction", "half"], "--fraction: expected a share such as 0.5, got 'half'"),
    ],
)
def test_train_and_eval_name_a_bad_number_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    with pytest.raises(SystemExit) as exit:
        main([*argv, "--data", str(tmp_path)])
    assert exit.value.code == 2
    assert said in capsys.readouterr().err


def test_eval_names_a_missing_set_or_json_folder_before_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval", "--data", str(tmp_path / "none")]) == 2
    assert f"no such dataset folder: {tmp_path / 'none'}" in capsys.readouterr().err
    out = tmp_path / "nowhere" / "r.json"
    assert main(["eval", "--data", str(tmp_path), "--json", str(out)]) == 2
    assert f"--json: no folder {out.parent} to write r.json in" in capsys.readouterr().err
    # Not over a file of the set it reads: its data.yaml had been written over.
    (tmp_path / "data.yaml").write_text("names: {}\n")
    assert main(["eval", "--data", str(tmp_path), "--json", str(tmp_path / "data.yaml")]) == 2
    said = f"--json {tmp_path / 'data.yaml'} would overwrite a file of {tmp_path}"
    assert said in capsys.readouterr().err
    assert (tmp_path / "data.yaml").read_text() == "names: {}\n"


def test_train_passes_the_device_to_the_finder_training(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import vision.training.train

    (tmp_path / "data.yaml").write_text("path: .\n")
    seen = []

    def train_detector(cfg: vision.training.train.DetectorTraining, *, resume: bool) -> Path:
        seen.append(cfg)
        return tmp_path / "best.pt"

    monkeypatch.setattr(vision.training.train, "train_detector", train_detector)
    argv = ["train", "--data", str(tmp_path), "--stage", "detector", "--out", str(tmp_path)]
    assert main([*argv, "--device", "0"]) == 0
    assert main(argv) == 0
    assert [cfg.device for cfg in seen] == ["0", "cpu"]
    assert main([*argv, "--hours", "1.5"]) == 0
    assert main([*argv, "--epochs", "3"]) == 0
    # From scratch: the finder fitted into the measured two-hour run's budget at 416 px,
    # unless epochs or hours are given.
    assert [cfg.hours for cfg in seen] == [1.25, 1.25, 1.5, None]
    assert [cfg.epochs for cfg in seen][-1] == 3
    assert {cfg.imgsz for cfg in seen} == {416}
    # --resume with no run to continue is refused: it had started one of hours from scratch.
    runs = len(seen)
    assert main([*argv, "--resume"]) == 2
    said = f"--resume: no card finder's run to continue in {tmp_path} (no {tmp_path}/detector/"
    assert said in capsys.readouterr().err
    (tmp_path / "detector" / "weights").mkdir(parents=True)
    (tmp_path / "detector" / "weights" / "last.pt").write_bytes(b"")
    assert main([*argv, "--resume"]) == 0
    assert len(seen) == runs + 1


@pytest.mark.parametrize("hours", ["0", "-1", "soon", "nan", "inf"])
def test_train_names_a_time_budget_that_is_not_a_number_of_hours(
    tmp_path: Path, hours: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "data.yaml").write_text("path: .\n")
    with pytest.raises(SystemExit) as exit:
        main(["train", "--data", str(tmp_path), "--hours", hours])
    assert exit.value.code == 2
    assert "--hours" in capsys.readouterr().err


def test_train_gives_the_classifier_the_false_alarms_of_the_finder_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import vision.training.train
    from vision.detector import default_weights

    (tmp_path / "data.yaml").write_text("path: .\n")
    seen: list[Path | None] = []

    def train_classifier_run(data: Path, out: Path, **kw: object) -> Path:
        seen.append(kw["false_alarms_of"])  # type: ignore[arg-type]
        return tmp_path / "classifier.onnx"

    monkeypatch.setattr(vision.training.train, "train_classifier_run", train_classifier_run)
    argv = ["train", "--data", str(tmp_path), "--stage", "classifier", "--out", str(tmp_path)]
    assert main(argv) == 0
    assert main([*argv, "--false-alarms"]) == 0
    assert main([*argv, "--false-alarms", "--weights", str(tmp_path)]) == 0
    assert seen == [None, default_weights(), tmp_path]


def test_a_fine_tune_that_reads_its_held_out_photos_worse_says_to_keep_the_weights_before() -> None:
    from vision.training.finetune import format_comparison

    def figures(exact: float) -> dict:
        keys = ("exact_tally", "stacks_right", "maki_icons_right", "round_score_right")
        return {"subsets": {"all": dict.fromkeys(keys, exact)}}

    worse = {"weights": "runs/ft/weights", "held_out_photos": 10}
    text = format_comparison({**worse, "before": figures(1.0), "after": figures(0.9)})
    assert "exact_tally          1.000    0.900" in text
    assert text.endswith("worse than the weights they started from: keep serving those")
    text = format_comparison({**worse, "before": figures(0.9), "after": figures(0.9)})
    assert text.endswith("runs/ft/weights (serve them with --weights)")


def test_train_from_alone_starts_from_the_shipped_networks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--from` with no folder is the shipped one wherever sushigo is run from: the
    README's `--from vision/weights` named a folder of the checkout's working directory."""
    from api.cli import build_parser
    from vision.commands import _start
    from vision.detector import WEIGHTS_DIR

    monkeypatch.chdir(tmp_path)
    args = build_parser().parse_args(["train", "--data", "set", "--from"])
    assert _start(args, "detector.pt") == WEIGHTS_DIR / "detector.pt"
    args = build_parser().parse_args(["train", "--data", "set", "--from", "mine"])
    with pytest.raises(FileNotFoundError, match="--from mine: no such weights folder"):
        _start(args, "detector.pt")
