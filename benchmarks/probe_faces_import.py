"""What `sushigo faces import` makes of photos of whole collections (a `sushigo synth`
set's photos, each many cards): how many it refuses as several cards, finds no card in,
or would import as one card. None of these photos is one card, so every import is wrong.

    python -m benchmarks.probe_faces_import --data data/report-14000 [--limit 100]

Beside it, the same photos with the several-cards check off (`datasets.scans._ANOTHER_CARD`
set out of reach): what the import did before the check.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from unittest import mock

from datasets import scans


def outcomes(paths: list[Path]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for path in paths:
        try:
            scans.find_card(scans.read_photo(path))
            counts["imported as one card"] += 1
        except scans.SeveralCards:
            counts["refused: several cards"] += 1
        except scans.CardNotFound:
            counts["refused: no card found"] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, required=True, help="a `sushigo synth` dataset")
    parser.add_argument("--limit", type=int, default=100)
    args = parser.parse_args()
    paths = sorted(args.data.glob("images/*/*.jpg"))[: args.limit]
    now = outcomes(paths)
    with mock.patch.object(scans, "_ANOTHER_CARD", float("inf")):
        before = outcomes(paths)
    print(f"{len(paths)} photos of collections")
    print(f"{'outcome':<26}{'with the check':>16}{'without':>10}")
    for key in ("imported as one card", "refused: several cards", "refused: no card found"):
        print(f"{key:<26}{now[key]:>16}{before[key]:>10}")


if __name__ == "__main__":
    main()
