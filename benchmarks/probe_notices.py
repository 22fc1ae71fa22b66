"""Which notices warn the reviewer on photos read right, and which on photos read wrong:
on each set's photos, read with the player count as a game's upload reads them, for each
notice or problem code, the photos read right and read wrong that carry it, and those
it alone carries (the turn's note, which says why a photo shows turned, is
left out). Where a code is on many right photos and alone on no wrong one, it costs the
reviewer attention for nothing the others do not already say: such a code is better a
note (vision.notices.NOTE_CODES, marked so below; the photos counted warned are those with
a warning, notes aside).

    python -m benchmarks.probe_notices data/tune-13000 data/tune-13500 ...
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from datasets.yolo_format import read_all
from scoring import Tally
from vision.detector import load_detector
from vision.notices import NOTE_CODES, NoticeCode, warns
from vision.photo import load_photo_file
from vision.pipeline import read_photo


def main() -> None:
    detector = load_detector()
    right: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    alone: Counter[str] = Counter()
    alone_right: Counter[str] = Counter()
    photos = read_right = right_warned = 0
    for data in map(Path, sys.argv[1:]):
        for item in read_all(data):
            reading = read_photo(
                load_photo_file(item.image), detector, players=item.truth["players"]
            )
            codes = {str(w.code) for w in reading.remarks} - {NoticeCode.TURNED.value}
            exact = reading.tally == Tally.from_mapping(item.truth["tally"])
            photos += 1
            read_right += exact
            right_warned += exact and any(map(warns, reading.remarks))
            (right if exact else wrong).update(codes)
            if len(codes) == 1:
                (alone_right if exact else alone).update(codes)
    print(f"{photos} photos, {read_right} read right, {right_warned} of them warned")
    print(f"{'code':<22} {'right':>6} {'wrong':>6}   it alone: right, wrong")
    for code in sorted(right.keys() | wrong.keys(), key=lambda c: (-right[c], c)):
        counts = f"{right[code]:>6} {wrong[code]:>6}   {alone_right[code]:>6} {alone[code]:>6}"
        note = " (note)" if code in NOTE_CODES else ""
        print(f"{code + note:<22} {counts}")


if __name__ == "__main__":
    main()
