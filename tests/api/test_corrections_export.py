"""`sushigo corrections export`: confirmed photos, as corrected in review, become a YOLO
dataset; tallies the boxes cannot stand for are listed apart in skipped.json."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cv2
import pytest
import yaml
from fastapi.testclient import TestClient
from sqlalchemy import select

from api.cli import main
from api.corrections import ConfirmedCollection, ReviewedPhoto, why_not_trainable
from api.database import make_engine, make_sessionmaker
from api.models import ReviewEvent
from api.settings import Settings
from datasets.yolo_format import read_split, refuse_for_training
from scoring.cards import CARD_KINDS, TALLY_KEYS
from tests.api.conftest import (
    LEFT_OUT_TWO,
    NEIGHBOUR_PHOTO,
    WITH_NEIGHBOURS,
    FakeDetector,
    Table,
    boxes_for,
    make_photo,
)

# Ana's photo: the detector finds a dumpling that is not there, reads the squid as an
# egg, misses the chopsticks and adds a wasabi below its confidence floor.
DETECTED = ["tempura", "tempura", "sashimi", "sashimi", "maki_2", "salmon", "egg", "pudding"]
ANA_SIZE = (2400, 1800)  # over 1600 px: exported at 1600x1200
CORRECTED = sorted([*DETECTED[:6], "squid", "pudding", "chopsticks"])
NINE = ["tempura", "sashimi", "sashimi", "dumpling", "maki_1", "salmon", "egg", "pudding", "squid"]


def _upload(table: Table, seat: int, size: tuple[int, int], records: list[dict[str, Any]]) -> Any:
    response = table.upload(1, seat, make_photo(size, records))
    assert response.status_code == 201, response.text
    return response.json()


def _correct(table: Table, seat: int, **body: Any) -> dict[str, Any]:
    response = table.correct(1, seat, **body)
    assert response.status_code == 200, response.text
    return response.json()


@pytest.fixture
def played(client: TestClient, table: Table, detector: FakeDetector) -> dict[str, Any]:
    """Two games' first rounds, reviewed every way the export must tell apart."""
    # Ana (game 1, seat 1): relabel, delete, add, an undone relabel; confirmed.
    # The photo decodes at half size (1200x900), where the fake detector answers.
    records = boxes_for([*DETECTED, "dumpling", "wasabi"], width=1200, height=900)
    records[-1]["confidence"] = 0.1
    detector.register((1200, 900), records)
    draft = _upload(table, 1, ANA_SIZE, boxes_for([*DETECTED, "dumpling"], width=2400, height=1800))
    assert len(draft["detections"]) == 10
    _correct(table, 1, action="relabel", detection=7, label="squid")
    _correct(table, 1, action="delete", detection=9)
    missed = boxes_for(["chopsticks"] * 13, width=2400, height=1800)[12]["box"]
    _correct(table, 1, action="add", label="chopsticks", box=missed)
    _correct(table, 1, action="relabel", detection=1, label="dumpling")
    assert table.act(1, 1, "undo").status_code == 200
    ana = table.confirm(1, 1)
    assert sorted(d["label"] for d in ana["detections"] if d["counted"]) == CORRECTED

    # Ben: counters only. Cy: a box relabelled as a whole stack.
    table.set_counts(1, 2, {"tempura": 3, "sashimi": 3, "dumpling": 3})
    table.confirm(1, 2)
    cy_records = boxes_for(NINE)
    detector.register((900, 700), cy_records)
    _upload(table, 3, (900, 700), cy_records)
    _correct(table, 3, action="relabel", detection=6, label="salmon_on_wasabi")
    table.confirm(1, 3)

    # Game 2: Di's count set by hand over the boxes; Ed's photo as detected; Flo's
    # confirmed, then corrected again (so no longer confirmed).
    other = Table(client, {"players": ["Di", "Ed", "Flo"]})
    for seat, size in ((1, (901, 700)), (2, (902, 700)), (3, (903, 700))):
        records = boxes_for(NINE, width=size[0], height=size[1])
        detector.register(size, records)
        _upload(other, seat, size, records)
    _correct(other, 1, action="set_counts", counts={"pudding": 2})
    di = other.confirm(1, 1)
    ed = other.confirm(1, 2)
    other.confirm(1, 3)
    _correct(other, 3, action="delete", detection=1)
    assert other.collection(1, 3)["status"] == "draft"
    return {"ana": ana, "di": di, "ed": ed, "game1": table.id, "game2": other.id}


def _export(settings: Settings, out: Path, *extra: str) -> str:
    command = ["corrections", "export", "--out", str(out), "--data-dir", str(settings.data_dir)]
    if settings.database_url:
        command += ["--database-url", settings.database_url]
    code = main([*command, *extra])
    assert code == 0
    return str(out)


def _name(game: str, seat: int) -> str:
    return f"game-{game}-round1-seat{seat}"


@pytest.mark.both_databases
def test_export_writes_the_corrected_boxes_and_the_confirmed_tally(
    played: dict[str, Any], settings: Settings, tmp_path: Path, capsys: Any
) -> None:
    out = tmp_path / "export"
    _export(settings, out)
    assert capsys.readouterr().out.startswith("written 2, skipped 3")

    data = yaml.safe_load((out / "data.yaml").read_text())
    assert data["train"] == "images/train" and data["names"] == dict(enumerate(CARD_KINDS))
    items = {item.image.stem: item for item in read_split(out, "train")}
    assert sorted(items) == sorted([_name(played["game1"], 1), _name(played["game2"], 2)])
    assert read_split(out, "val") == [] and read_split(out, "test") == []

    for key, seat, game, size in (
        ("ana", 1, "game1", (1600, 1200)),
        ("ed", 2, "game2", (902, 700)),
    ):
        item = items[_name(played[game], seat)]
        collection = played[key]
        image = cv2.imread(str(item.image))
        assert image is not None
        height, width = image.shape[:2]
        assert (width, height) == size
        photo = collection["photo"]
        sx, sy = width / photo["width"], height / photo["height"]
        expected = sorted(
            (d["label"], d["box"][0] * sx, d["box"][1] * sy, d["box"][2] * sx, d["box"][3] * sy)
            for d in collection["detections"]
            if d["counted"]
        )
        written = sorted(item.boxes)
        assert [b[0] for b in written] == [b[0] for b in expected]
        for got, want in zip(written, expected, strict=True):
            assert got[1:] == pytest.approx(want[1:], abs=0.06)
        assert item.truth["tally"] == collection["confirmed_tally"]
        assert item.truth["players"] == 3 and item.truth["hand_size"] == 9
        assert item.truth["meta"]["photo"] == photo["id"]

        # The label lines say the same as the JSON, normalised to the written image.
        lines = (out / "labels" / "train" / f"{item.image.stem}.txt").read_text().splitlines()
        from_lines = []
        for line in lines:
            cls, *rest = line.split()
            cx, cy, w, h = (float(v) for v in rest)
            x1, y1 = (cx - w / 2) * width, (cy - h / 2) * height
            x2, y2 = (cx + w / 2) * width, (cy + h / 2) * height
            from_lines.append((CARD_KINDS[int(cls)], x1, y1, x2, y2))
        for got, want in zip(sorted(from_lines), written, strict=True):
            assert got[0] == want[0] and got[1:] == pytest.approx(want[1:], abs=0.01)

    ana = items[_name(played["game1"], 1)]
    assert sorted(b[0] for b in ana.boxes) == CORRECTED  # squid, no dumpling, chopsticks
    assert ana.truth["meta"]["corrections"] == {
        "detected": 10,
        "relabeled": 1,
        "deleted": 1,
        "added": 1,
        "uncounted": 1,  # the wasabi below the confidence floor
    }


def test_cards_left_out_as_another_players_are_written_as_cards_outside_the_tally(
    client: TestClient, detector: FakeDetector, settings: Settings, tmp_path: Path
) -> None:
    """The next player's two cards at the photo's edge, left out of Ana's tally and not
    counted by the reviewer: cards the finder was right to box, so they are labelled (as
    a neighbour's are in `sushigo synth`'s photos), marked, and the tally is Ana's."""
    table = Table(client, {"players": ["Ana", "Ben"]})
    # And among the next player's, a second box on the first card and a box too unsure to
    # read: left out with them, written as no card.
    records = [
        *WITH_NEIGHBOURS,
        {"label": "tempura", "confidence": 0.9, "box": [1, 201, 81, 319]},
        {"label": "egg", "confidence": 0.1, "box": [0, 460, 80, 578]},
    ]
    detector.register(NEIGHBOUR_PHOTO, records)
    _upload(table, 1, NEIGHBOUR_PHOTO, records)
    confirmed = table.confirm(1, 1)
    assert confirmed["cards"] == 10 and confirmed["warnings"] == [LEFT_OUT_TWO]
    assert sum(d["left_out"] for d in confirmed["detections"]) == 4
    out = tmp_path / "export"
    _export(settings, out)
    (item,) = read_split(out, "train")
    assert len(item.boxes) == 12
    assert [c.get("left_out", False) for c in item.truth["cards"]] == [False] * 10 + [True] * 2
    assert [b[:3] for b in item.boxes[10:]] == [("tempura", 0, 200), ("tempura", 0, 330)]
    assert item.truth["tally"] == confirmed["confirmed_tally"]
    assert item.truth["tally"]["tempura"] == 0
    assert item.truth["meta"]["corrections"]["uncounted"] == 4
    lines = (out / "labels" / "train" / f"{item.image.stem}.txt").read_text().splitlines()
    assert len(lines) == 12


def test_a_card_a_person_left_out_is_written_as_a_card_outside_the_tally(
    client: TestClient, detector: FakeDetector, settings: Settings, tmp_path: Path
) -> None:
    """A card of the next player's the reading counted, left out by a person: written as
    a card (a deleted box would have been table), outside Ana's tally."""
    table = Table(client, {"players": ["Ana", "Ben"]})
    records = [*WITH_NEIGHBOURS[:9], WITH_NEIGHBOURS[10]]
    detector.register(NEIGHBOUR_PHOTO, records)
    assert _upload(table, 1, NEIGHBOUR_PHOTO, records)["cards"] == 10
    _correct(table, 1, action="leave_out", detection=10)
    confirmed = table.confirm(1, 1)
    assert confirmed["cards"] == 9
    out = tmp_path / "export"
    _export(settings, out)
    (item,) = read_split(out, "train")
    assert [c.get("left_out", False) for c in item.truth["cards"]] == [False] * 9 + [True]
    assert item.boxes[-1][0] == "tempura" and item.truth["tally"]["tempura"] == 0
    assert item.truth["meta"]["corrections"]["relabeled"] == 0  # left out, not relabelled


def test_tallies_the_boxes_cannot_stand_for_are_listed_apart(
    played: dict[str, Any], settings: Settings, tmp_path: Path
) -> None:
    out = tmp_path / "export"
    _export(settings, out)
    skipped = json.loads((out / "skipped.json").read_text())
    by_player = {entry["player"]: entry for entry in skipped}
    assert sorted(by_player) == ["Ben", "Cy", "Di"]  # Flo's is not confirmed: not listed
    assert by_player["Ben"]["reason"] == "counts_only" and by_player["Ben"]["photo"] is None
    assert by_player["Cy"]["reason"] == "stack_label"
    assert "salmon_on_wasabi" in by_player["Cy"]["detail"]
    assert by_player["Di"]["reason"] == "tally_mismatch"
    assert "pudding 1 vs 2" in by_player["Di"]["detail"]
    for player, game, seat in (("Ben", "game1", 2), ("Cy", "game1", 3), ("Di", "game2", 1)):
        entry = by_player[player]
        assert (entry["game"], entry["round"], entry["seat"]) == (played[game], 1, seat)
        assert not (out / "images" / "train" / f"{_name(played[game], seat)}.jpg").exists()


@pytest.mark.both_databases
def test_since_keeps_only_later_confirmations(
    played: dict[str, Any], settings: Settings, tmp_path: Path, capsys: Any
) -> None:
    # Ana's and Ben's tallies were confirmed long ago.
    engine = make_engine(settings.resolved_database_url)
    with make_sessionmaker(engine)() as session:
        for event in session.scalars(select(ReviewEvent).where(ReviewEvent.kind == "confirm")):
            collection = event.collection
            if collection.round.game_id == played["game1"] and collection.player.seat in (1, 2):
                event.created_at = datetime(2020, 1, 1, tzinfo=UTC)
        session.commit()
    engine.dispose()

    out = _export(settings, tmp_path / "recent", "--since", "2021-01-01")
    assert capsys.readouterr().out.startswith("written 1, skipped 2")
    assert [i.image.stem for i in read_split(Path(out), "train")] == [_name(played["game2"], 2)]
    skipped = json.loads((Path(out) / "skipped.json").read_text())
    assert sorted(entry["player"] for entry in skipped) == ["Cy", "Di"]

    _export(settings, tmp_path / "all", "--since", "2019-12-31T23:00:00+00:00")
    assert capsys.readouterr().out.startswith("written 2, skipped 3")


def test_refuses_a_folder_in_use_and_a_bad_date(
    played: dict[str, Any], settings: Settings, tmp_path: Path, capsys: Any
) -> None:
    used = tmp_path / "used"
    used.mkdir()
    (used / "notes.txt").write_text("mine")
    args = ["corrections", "export", "--data-dir", str(settings.data_dir)]
    assert main([*args, "--out", str(used)]) == 2
    assert "not empty" in capsys.readouterr().err
    assert sorted(p.name for p in used.iterdir()) == ["notes.txt"]

    assert main([*args, "--out", str(tmp_path / "new"), "--since", "last week"]) == 2
    assert "not an ISO date" in capsys.readouterr().err

    assert main([*args[:2], "--out", str(tmp_path / "x"), "--data-dir", str(tmp_path)]) == 2
    assert "no database" in capsys.readouterr().err


def _confirmed(counts: dict[str, int], photo: bool) -> ConfirmedCollection:
    tally = {key: counts.get(key, 0) for key in TALLY_KEYS}
    empty = ReviewedPhoto(
        id=1, sha256="0" * 64, width=900, height=700, model={}, boxes=[],
        detected_tally=dict.fromkeys(TALLY_KEYS, 0), detected=0, deleted=0, uncounted=0,
    )  # fmt: skip
    return ConfirmedCollection(
        game="g", title=None, round=1, seat=1, player="Ana", players=3,
        confirmed_at=datetime(2025, 1, 1, tzinfo=UTC), tally=tally, counts=counts,
        photo=empty if photo else None,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("counts", "photo", "reason"),
    [
        pytest.param({"tempura": 9}, False, "counts_only", id="counters, no photo"),
        pytest.param({"tempura": 9}, True, "counts_only", id="counters over a photo with no box"),
        pytest.param({}, True, None, id="a photo of no cards confirmed as none is a fine example"),
    ],
)
def test_a_photo_without_boxes(counts: dict[str, int], photo: bool, reason: str | None) -> None:
    skip = why_not_trainable(_confirmed(counts, photo))
    assert (skip and skip.reason) == reason


def test_export_names_an_out_that_is_a_file(
    settings: Settings, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "export.txt"
    out.write_text("kept")
    command = ["corrections", "export", "--out", str(out), "--data-dir", str(settings.data_dir)]
    assert main(command) == 2
    assert f"{out} is a file" in capsys.readouterr().err
    assert out.read_text() == "kept"


def test_an_export_with_nothing_confirmed_says_so(
    client: TestClient, settings: Settings, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "written 0, skipped 0" and two paths had read as an export gone wrong."""
    out = tmp_path / "export"
    _export(settings, out)
    said = f"nothing to export: no photo confirmed in review (the dataset {out} is empty)\n"
    assert capsys.readouterr().out == said


def test_a_stack_with_its_strip_is_written_as_its_two_cards(
    client: TestClient, table: Table, detector: FakeDetector, settings: Settings, tmp_path: Path
) -> None:
    """The stack check labels a nigiri on its wasabi as the stack; where the wasabi's strip
    was boxed too, the photo teaches both cards (it had been skipped, and with it most
    photos holding a stack); and the set is one training takes."""
    size = (1300, 700)
    plain = boxes_for(["tempura", "tempura", "sashimi", "dumpling", "egg", "pudding", "squid"])
    strip = [1000.0, 300.0, 1160.0, 350.0]
    stacked = [1000.0, 350.0, 1160.0, 587.0]
    records = [
        *plain,
        {"label": "wasabi", "confidence": 0.9, "box": strip},
        {"label": "salmon_on_wasabi", "confidence": 0.97, "box": stacked},
    ]
    detector.register(size, records)
    _upload(table, 1, size, records)
    ana = table.confirm(1, 1)
    assert ana["confirmed_tally"]["salmon_on_wasabi"] == 1 and ana["cards"] == 9

    out = tmp_path / "export"
    _export(settings, out)
    (item,) = read_split(out, "train")
    assert sorted(item.boxes) == sorted(
        [
            *((r["label"], *map(float, r["box"])) for r in plain),
            ("wasabi", *strip),
            ("salmon", *stacked),
        ]
    )
    cards = item.truth["cards"]
    (salmon,) = [c for c in cards if c["kind"] == "salmon"]
    assert cards[salmon["on_wasabi"]]["kind"] == "wasabi"
    assert cards[salmon["on_wasabi"]]["box"] == strip
    assert yaml.safe_load((out / "data.yaml").read_text())["deck"] == "photographed at the table"
    refuse_for_training(out)  # neither held out nor the made-up deck
