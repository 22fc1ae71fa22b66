"""How the thresholds of the three box warnings trade right photos warned for wrong photos
left unwarned: a box read under LOW (low_confidence), a nigiri given another nigiri kind
at least NIGIRI (vision.reading.NIGIRI_DOUBT), a maki another roll count at least MAKI
(MAKI_DOUBT). Each set's photos are read once, as a game's upload reads them; each
threshold set is then applied to the boxes read, the other warnings kept as they were.

    python -m benchmarks.probe_warn_thresholds data/tune-13000 data/tune-13500 ...

Per set and over all: right photos warned, and wrong photos left with no warning.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path
from typing import NamedTuple

import numpy as np

from datasets.yolo_format import read_all
from scoring import Tally
from scoring.cards import MAKI, NIGIRI, STACKS
from vision.detector import load_detector
from vision.notices import NoticeCode, warns
from vision.photo import load_photo_file
from vision.pipeline import read_photo

_BOX_CODES = {NoticeCode.LOW_CONFIDENCE, NoticeCode.NIGIRI_DOUBT, NoticeCode.MAKI_DOUBT}
LOWS = (0.5, 0.55, 0.6, 0.7)
DOUBTS = (0.1, 0.07, 0.05, 0.03)


class Read(NamedTuple):
    exact: bool
    other_warning: bool  # a warning the three thresholds do not decide
    lowest: float  # the least confident box read
    nigiri_doubt: float  # the most doubted nigiri (0 where none)
    maki_doubt: float


def read_set(data: Path, detector: object) -> list[Read]:
    reads = []
    for item in read_all(data):
        reading = read_photo(load_photo_file(item.image), detector, players=item.truth["players"])
        found = reading.detections
        kinds = [STACKS.get(label, label) for label in found.labels]
        doubts = np.nan_to_num(found.doubts, nan=0.0)
        nigiri = [d for d, k in zip(doubts, kinds, strict=True) if k in NIGIRI]
        maki = [d for d, k in zip(doubts, kinds, strict=True) if k in MAKI]
        reads.append(
            Read(
                exact=reading.tally == Tally.from_mapping(item.truth["tally"]),
                other_warning=any(
                    warns(r) and getattr(r, "code", None) not in _BOX_CODES for r in reading.remarks
                ),
                lowest=float(found.confidence.min()) if len(found) else 1.0,
                nigiri_doubt=float(max(nigiri, default=0.0)),
                maki_doubt=float(max(maki, default=0.0)),
            )
        )
    return reads


def warned(read: Read, low: float, nigiri: float, maki: float) -> bool:
    return (
        read.other_warning
        or read.lowest < low
        or read.nigiri_doubt >= nigiri
        or read.maki_doubt >= maki
    )


def main() -> None:
    detector = load_detector()
    sets = {data.name: read_set(data, detector) for data in map(Path, sys.argv[1:])}
    sets["all"] = [read for reads in sets.values() for read in reads]
    names = list(sets)
    print("low  nigiri maki  " + "  ".join(f"{n:>22}" for n in names))
    print(" " * 17 + "  ".join(f"{'right warned, wrong not':>22}" for _ in names))
    for low, nigiri, maki in itertools.product(LOWS, DOUBTS, DOUBTS):
        cells = []
        for name in names:
            reads = sets[name]
            right = [r for r in reads if r.exact]
            wrong = [r for r in reads if not r.exact]
            right_warned = sum(warned(r, low, nigiri, maki) for r in right)
            unwarned = sum(not warned(r, low, nigiri, maki) for r in wrong)
            share = right_warned / max(len(right), 1)
            cells.append(f"{right_warned:>5} ({share:5.1%}) {unwarned:>3}/{len(wrong):<3}")
        print(f"{low:<4} {nigiri:<6} {maki:<5} " + "  ".join(f"{c:>22}" for c in cells))


if __name__ == "__main__":
    main()
