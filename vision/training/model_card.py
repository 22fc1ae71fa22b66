"""The figures in model.json, measured: every number the model card and vision/README.md
quote comes from one run of this script over the named held-out sets.

    python -m vision.training.model_card --weights vision/weights \\
        --set report=data/report-14000 --set another_printing=data/another-15000

Each set is read in full (`sushigo eval --split all`); its summary lands under
metrics.<name> with the set's own description (from its data.yaml), so that a figure and
the photos it was measured on stay together.
"""

from __future__ import annotations

import argparse
import json
import re
from importlib.metadata import version
from pathlib import Path
from typing import Any

import yaml

from scoring.cards import MAKI, NIGIRI
from vision.detector import MODEL_CARD, default_weights, load_detector
from vision.training.evaluate import evaluate, format_report, without_nan

# The look-alike families (card-spec.md): one yellow, one red.
FAMILIES = {"yellow": (*NIGIRI, "wasabi"), "maki": MAKI}


def family_confusion(confusion: dict[str, dict[str, int]]) -> dict[str, dict[str, Any]]:
    """The confusion rows and columns of each look-alike family, with what else they went
    to (another kind, or missed)."""
    tables = {}
    for family, kinds in FAMILIES.items():
        table = {}
        for true in kinds:
            row = confusion.get(true, {})
            table[true] = {read: row.get(read, 0) for read in kinds}
            table[true]["other"] = sum(
                n for read, n in row.items() if read not in kinds and read != "(missed)"
            )
            table[true]["missed"] = row.get("(missed)", 0)
        tables[family] = table
    return tables


def cpu() -> str:
    """The CPU's model and the vector extensions that decide onnxruntime's int8 kernels
    (vision/training/quantize.py)."""
    info = Path("/proc/cpuinfo")
    text = info.read_text() if info.exists() else ""
    model = re.search(r"model name\s*:\s*(.*)", text)
    listed = re.search(r"flags\s*:\s*(.*)", text)
    flags = set(listed.group(1).split()) if listed else set()
    wanted = ("avx2", "avx512f", "avx512_vnni", "avx_vnni", "amx_int8")
    found = ", ".join(f"{flag} {'yes' if flag in flags else 'no'}" for flag in wanted)
    return f"{model.group(1) if model else 'unknown CPU'}: {found}"


def environment() -> dict[str, str]:
    """What a figure was measured with beside the weights: the runtimes that run them, the
    OpenCV that drew and decoded the photos, and the CPU (int8 kernels differ by CPU)."""
    import cv2

    packages = ("onnxruntime", "openvino", "numpy")
    return {**{name: version(name) for name in packages}, "opencv": cv2.__version__, "cpu": cpu()}


def set_description(data: Path) -> dict[str, Any]:
    meta = yaml.safe_load((data / "data.yaml").read_text()) or {}
    photos = len(list((data / "images").glob("*/*.jpg")))
    return {"folder": data.name, "photos": photos, "held_out": meta.get("held_out")}


def measure(weights: Path, data: Path) -> dict[str, Any]:
    s = evaluate(data, load_detector(weights), split="all").summary()
    print(f"== {data}\n{format_report(s)}")
    return {
        "set": set_description(data),
        "subsets": s["subsets"],
        "warned": s["warned"],
        "photos_wrong": len(s["wrong_photos"]),
        "map50_95": {k: round(v["map50_95"], 4) for k, v in s["map50_95"].items()},
        "confusion": family_confusion(s["confusion"]),
        "seconds_median": s["seconds_median"],
        "measured_with": environment(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--weights", type=Path, default=default_weights())
    parser.add_argument(
        "--set", action="append", required=True, metavar="NAME=DIR", help="a held-out set"
    )
    args = parser.parse_args(argv)
    card_path = args.weights / MODEL_CARD
    card = json.loads(card_path.read_text())
    metrics = dict(card.get("metrics") or {})
    for spec in args.set:
        name, _, folder = spec.partition("=")
        if not folder or not (Path(folder) / "data.yaml").is_file():
            parser.error(f"--set {spec!r}: expected NAME=DIR with DIR/data.yaml")
        metrics[name] = measure(args.weights, Path(folder))
    card["metrics"] = metrics
    card_path.write_text(json.dumps(without_nan(card), indent=1, allow_nan=False) + "\n")
    print(f"wrote the figures of {', '.join(s.partition('=')[0] for s in args.set)} to {card_path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
