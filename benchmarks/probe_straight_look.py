"""Is the look at a photo turned straight worth its time? Cards lying more than
vision.pipeline.SLANT_BEYOND degrees off square are read once more, turned straight: a
second finder look on such photos, a fair share of `bench_detect`'s. On each set's photos,
read with the player count as a game's upload reads them, the exact tallies with that
look and without it (SLANT_BEYOND past any slant), and the photos that change.

    python -m benchmarks.probe_straight_look data/report-14000 data/tune-13000 ...
"""

from __future__ import annotations

import sys
from pathlib import Path

import vision.pipeline as pipeline
from datasets.yolo_format import read_all
from scoring import Tally
from vision.detector import load_detector
from vision.photo import load_photo_file

NEVER = 1e9  # a slant no photo has: the straight look is never taken


def main() -> None:
    detector = load_detector(threads=1)
    shipped = pipeline.SLANT_BEYOND
    for data in map(Path, sys.argv[1:]):
        photos = with_it = without_it = 0
        changed = []
        for item in read_all(data):
            truth = Tally.from_mapping(item.truth["tally"])
            photo = load_photo_file(item.image)
            right = []
            for beyond in (shipped, NEVER):
                pipeline.SLANT_BEYOND = beyond
                reading = pipeline.read_photo(photo, detector, players=item.truth["players"])
                right.append(reading.tally == truth)
            pipeline.SLANT_BEYOND = shipped
            photos += 1
            with_it += right[0]
            without_it += right[1]
            if right[0] != right[1]:
                changed.append(f"{item.image.stem} {'right' if right[0] else 'wrong'} with it")
        print(
            f"{data.name}: {photos} photos; exact with the straight look {with_it}, without "
            f"it {without_it}; changed: {', '.join(changed) or 'none'}",
            flush=True,
        )


if __name__ == "__main__":
    main()
