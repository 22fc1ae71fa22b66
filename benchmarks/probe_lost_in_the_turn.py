"""Does the warning of cards lost in a turn (vision.pipeline.lost_in_the_turn) warn photos
read right? A set's photos as they are and turned a quarter, a half and three quarters
(as a phone's wrong tag leaves them), read with the player count as a game's upload reads
them: of those read turned, how many are right and how many carry the warning, each way.

    python -m benchmarks.probe_lost_in_the_turn data/report-14000 [--photos 100]

`python -m benchmarks.probe_neighbour` measures the photos it is for: the next player's
collection, lying a quarter turn from this one's, read in its place.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import cv2

from datasets.yolo_format import read_all
from scoring import Tally
from vision.detector import load_detector
from vision.notices import NoticeCode
from vision.photo import load_photo, turn_image
from vision.pipeline import read_settled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, nargs="+")
    parser.add_argument("--photos", type=int, default=100, help="of each set, the first N")
    args = parser.parse_args()
    detector = load_detector()
    for data in args.data:
        seen: Counter[tuple[bool, bool]] = Counter()  # (right, warned lost) of photos read turned
        photos = 0
        for item in read_all(data)[: args.photos]:
            truth = Tally.from_mapping(item.truth["tally"])
            image = item.pixels()
            for degrees in (0, 90, 180, 270):
                ok, encoded = cv2.imencode(
                    ".jpg", turn_image(image, degrees), [cv2.IMWRITE_JPEG_QUALITY, 92]
                )
                assert ok
                photos += 1
                settled = read_settled(
                    load_photo(encoded.tobytes()), detector, players=item.truth["players"]
                )
                reading = settled.reading
                if not reading.turn:
                    continue
                lost = any(n.code == NoticeCode.LOST_IN_THE_TURN for n in settled.notices)
                seen[(reading.tally == truth, lost)] += 1
        turned = sum(seen.values())
        print(
            f"{data.name}: {photos} photos ({args.photos} each way up), {turned} read turned: "
            f"right {seen[(True, False)] + seen[(True, True)]} (warned of cards lost in the "
            f"turn: {seen[(True, True)]}), wrong {seen[(False, False)] + seen[(False, True)]} "
            f"(warned so: {seen[(False, True)]})",
            flush=True,
        )


if __name__ == "__main__":
    main()
