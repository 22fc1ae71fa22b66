"""The written dataset: what it says is what was dealt, in both label forms, and the same
seed gives the same bytes whatever the number of worker processes."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import yaml

from datasets.collection import deal_collection
from datasets.synth import scene_rng, write_dataset
from datasets.yolo_format import KIND_ID, SPLITS, read_split
from scoring.cards import CARD_KINDS, TALLY_KEYS

SEED = 5
IMAGES = 12  # 80/10/10: 10 train, 1 val, 1 test (split_of works by position)
SIZE = 320


def _write(out: Path, faces_dir: Path, *, seed: int = SEED, workers: int = 1) -> Path:
    return write_dataset(
        out,
        images=IMAGES,
        seed=seed,
        size=SIZE,
        workers=workers,
        faces_dir=faces_dir,
        mix_rendered=False,
        progress=False,
    )


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory, faces_dir: Path) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("synth")
    return {
        "one_worker": _write(root / "w1", faces_dir, workers=1),
        "two_workers": _write(root / "w2", faces_dir, workers=2),
        "other_seed": _write(root / "s2", faces_dir, seed=SEED + 1, workers=2),
    }


def _files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != "data.yaml"
    }


def _tally_from_cards(cards: list[dict]) -> dict[str, int]:
    """The contract tally from the per-card records alone: a nigiri with on_wasabi is a
    stack, the wasabi it points at is not counted on its own."""
    counts = dict.fromkeys(TALLY_KEYS, 0)
    under = {c["on_wasabi"] for c in cards if c["on_wasabi"] is not None}
    for i, card in enumerate(cards):
        if i in under:
            continue
        stacked = card["on_wasabi"] is not None
        counts[f"{card['kind']}_on_wasabi" if stacked else card["kind"]] += 1
    return counts


def test_layout_is_a_ready_ultralytics_dataset(written: dict[str, Path]) -> None:
    root = written["one_worker"]
    data = yaml.safe_load((root / "data.yaml").read_text())
    assert data["names"] == dict(enumerate(CARD_KINDS))
    assert Path(data["path"]) == root.resolve()
    counts = {split: len(read_split(root, split)) for split in SPLITS}
    assert counts == {"train": 10, "val": 1, "test": 1}
    for split in SPLITS:
        images = sorted((root / "images" / split).glob("*.jpg"))
        labels = sorted((root / "labels" / split).glob("*.txt"))
        assert [p.stem for p in images] == [p.stem for p in labels]


def test_tallies_read_back_equal_the_dealt_collections(written: dict[str, Path]) -> None:
    root = written["one_worker"]
    for split in SPLITS:
        for item in read_split(root, split):
            index = int(item.image.stem)
            # Deal again from the image's own seed stream: the generator deals first.
            dealt = deal_collection(scene_rng(SEED, index))
            truth = item.truth
            assert truth["tally"] == dealt.tally()
            assert _tally_from_cards(truth["cards"]) == dealt.tally()
            assert truth["players"] == dealt.players
            assert truth["hand_size"] == dealt.hand_size == len(item.boxes)


def test_yolo_labels_match_the_json_boxes(written: dict[str, Path]) -> None:
    root = written["one_worker"]
    for split in SPLITS:
        for item in read_split(root, split):
            w, h = item.truth["meta"]["width"], item.truth["meta"]["height"]
            lines = (root / "labels" / split / f"{item.image.stem}.txt").read_text().split()
            rows = [lines[i : i + 5] for i in range(0, len(lines), 5)]
            assert len(rows) == len(item.boxes)
            kinds = Counter(c["kind"] for c in item.truth["cards"])
            assert Counter(CARD_KINDS[int(r[0])] for r in rows) == kinds
            for row, (kind, x1, y1, x2, y2) in zip(rows, item.boxes, strict=True):
                cls, cx, cy, bw, bh = int(row[0]), *map(float, row[1:])
                assert cls == KIND_ID[kind]
                assert 0 < bw <= 1 and 0 < bh <= 1
                assert cx - bw / 2 + 1e-6 >= 0 and cx + bw / 2 <= 1 + 1e-6
                assert abs(cx * w - (x1 + x2) / 2) < 0.1 and abs(bw * w - (x2 - x1)) < 0.1
                assert abs(cy * h - (y1 + y2) / 2) < 0.1 and abs(bh * h - (y2 - y1)) < 0.1


def test_same_seed_same_bytes_with_one_or_two_workers(written: dict[str, Path]) -> None:
    one, two = _files(written["one_worker"]), _files(written["two_workers"])
    assert len(one) == 3 * IMAGES
    assert one.keys() == two.keys()
    assert [name for name in one if one[name] != two[name]] == []
    # data.yaml differs only in the absolute path of its own folder.
    a, b = (
        yaml.safe_load((written[k] / "data.yaml").read_text())
        for k in ("one_worker", "two_workers")
    )
    assert {k: v for k, v in a.items() if k != "path"} == {
        k: v for k, v in b.items() if k != "path"
    }


def test_another_seed_gives_other_images(written: dict[str, Path]) -> None:
    one, other = _files(written["one_worker"]), _files(written["other_seed"])
    images = [name for name in one if name.startswith("images")]
    assert all(one[name] != other[name] for name in images)
    tallies = [json.loads(one[n]) for n in one if n.startswith("tallies")]
    other_tallies = [json.loads(other[n]) for n in one if n.startswith("tallies")]
    assert tallies != other_tallies
