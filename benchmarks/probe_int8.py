"""Whether the int8 crop networks pick their float networks' classes on the CPU at hand:
quantized with 7-bit weights (as shipped, vision/training/quantize.py) and with full-range
ones, and, given photos, the exact tallies each way and with the float networks.

    python -m benchmarks.probe_int8 --calibrate data/crops-12000 [--photos data/report-14000]

On a CPU without VNNI (AVX2 only) full-range copies saturate and read worse; with VNNI
both ways agree. The copies are made in a temporary folder: the shipped ones stay.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from pathlib import Path

from vision.detector import WEIGHTS_DIR, load_detector
from vision.training.evaluate import evaluate
from vision.training.model_card import cpu
from vision.training.quantize import quantize_weights

WAYS = {"7-bit weights (shipped)": True, "full-range weights": False}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calibrate", type=Path, required=True, help="a training dataset")
    parser.add_argument("--photos", type=Path, help="a held-out dataset to read each way")
    parser.add_argument("--weights", type=Path, default=WEIGHTS_DIR)
    args = parser.parse_args()
    print(cpu())
    with tempfile.TemporaryDirectory() as scratch:
        folders = {}
        for way, reduce_range in WAYS.items():
            folder = Path(scratch) / f"reduce_range_{reduce_range}"
            shutil.copytree(args.weights, folder)
            folders[way] = folder
            agreement = quantize_weights(folder, [args.calibrate], reduce_range=reduce_range)
            for name, same in agreement.items():
                print(f"{name}, {way}: the float network's class on {same:.2%} of val crops")
        if args.photos is None:
            return
        folders["float networks"] = float_folder = Path(scratch) / "float"
        shutil.copytree(args.weights, float_folder)
        card = json.loads((float_folder / "model.json").read_text())
        card.update(classifier="classifier.onnx", stack_check="stack_check.onnx")
        (float_folder / "model.json").write_text(json.dumps(card))
        for way, folder in folders.items():
            report = evaluate(args.photos, load_detector(folder), split="all")
            wrong = sum(not photo.exact for photo in report.photos)
            print(f"{args.photos.name}, {way}: exact {report.share():.1%} "
                  f"({wrong} of {len(report.photos)} wrong)")  # fmt: skip


if __name__ == "__main__":
    main()
