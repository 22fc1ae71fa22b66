"""A hand one card short: a nigiri read back on its wasabi, or the missing card looked for
first? On each set's photos, read with the player count as a game's upload reads them,
settled both ways: the read-back kept wherever it makes the hand right (as before), and
vision.pipeline.settle, which then first looks for a card the finder missed (the closer
looks and the doubtful boxes, without the read-back) and keeps what makes the hand right.
Exact tallies both ways, and the photos that change.

    python -m benchmarks.probe_read_back data/tune-13000 data/tune-13500 ...
"""

from __future__ import annotations

import sys
from pathlib import Path

from datasets.yolo_format import read_all
from scoring import Tally
from scoring.cards import HAND_SIZE
from vision.detector import load_detector
from vision.notices import NoticeCode
from vision.photo import load_photo_file
from vision.pipeline import _look_again, _turned_back, detect_photo, settle
from vision.reading import settle_hand_size


def main() -> None:
    detector = load_detector()
    for data in map(Path, sys.argv[1:]):
        photos = read_backs = first = second = 0
        changed = []
        for item in read_all(data):
            photos += 1
            truth = Tally.from_mapping(item.truth["tally"])
            players = item.truth["players"]
            photo = load_photo_file(item.image)
            seen, detections = detect_photo(photo, detector)
            settled = settle_hand_size(detections, players)  # the read-back first
            if settled.reading.cards != HAND_SIZE[players]:
                settled = _look_again(seen, detections, detector, players, settled)
            kept = settle(seen, detections, detector, players)
            read_backs += NoticeCode.READ_ON_WASABI in (n.code for n in settled.notices)
            turn = (seen.turn - photo.turn) % 360
            a = _turned_back(settled, turn).reading.tally == truth
            b = _turned_back(kept, turn).reading.tally == truth
            first += a
            second += b
            if a != b:
                changed.append(f"{item.image.stem} {'right -> wrong' if a else 'wrong -> right'}")
        print(
            f"{data.name}: {photos} photos, {read_backs} read back; exact: read back first "
            f"{first}, the missing card looked for first {second}; changed: "
            f"{', '.join(changed) or 'none'}"
        )


if __name__ == "__main__":
    main()
