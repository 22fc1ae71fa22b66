"""Does keeping a photo as it came, where its turned reading would lose cards found sure
so (vision.pipeline.look_at), cost photos whose turn was right? A set's photos as they
are and turned a quarter, a half and three quarters (as a phone's wrong tag leaves them),
read with the player count as a game's upload reads them, with the rule and without it
(every turn kept, `LOST_AT_LEAST` out of reach): how many are right each way, how many
wrong go unwarned, on how many the two differ, and how many read right carry the
warning of cards lying another way.

    python -m benchmarks.probe_turn_keeps data/report-14000 [--photos 100]

`python -m benchmarks.probe_neighbour [--turn-anyway]` measures the photos the rule is
for: the next player's collection, lying a quarter turn from this one's, read in its place.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import cv2

from datasets.yolo_format import read_all
from scoring import Tally
from vision import pipeline
from vision.detector import load_detector
from vision.notices import NoticeCode, warns
from vision.photo import load_photo, turn_image
from vision.pipeline import read_settled

NEVER = 10**9  # LOST_AT_LEAST out of reach: every turn is kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, nargs="+")
    parser.add_argument("--photos", type=int, default=100, help="of each set, the first N")
    args = parser.parse_args()
    detector = load_detector()
    keeps = pipeline.LOST_AT_LEAST
    for data in args.data:
        seen: Counter[str] = Counter()
        for item in read_all(data)[: args.photos]:
            truth = Tally.from_mapping(item.truth["tally"])
            image = item.pixels()
            for degrees in (0, 90, 180, 270):
                ok, encoded = cv2.imencode(
                    ".jpg", turn_image(image, degrees), [cv2.IMWRITE_JPEG_QUALITY, 92]
                )
                assert ok
                photo = load_photo(encoded.tobytes())
                seen["photos"] += 1
                tallies = []
                for way, lost_at_least in (("with the rule", keeps), ("every turn kept", NEVER)):
                    pipeline.LOST_AT_LEAST = lost_at_least
                    settled = read_settled(photo, detector, players=item.truth["players"])
                    reading = settled.reading
                    right = reading.tally == truth
                    seen[f"{way}: right"] += right
                    seen[f"{way}: wrong, unwarned"] += not right and not any(
                        map(warns, reading.remarks)
                    )
                    away = any(n.code == NoticeCode.TURNED_AWAY for n in settled.notices)
                    seen[f"{way}: right, warned of cards lying another way"] += right and away
                    tallies.append(reading.tally)
                seen["read differently"] += tallies[0] != tallies[1]
        pipeline.LOST_AT_LEAST = keeps
        print(f"{data.name}: {dict(seen)}", flush=True)


if __name__ == "__main__":
    main()
