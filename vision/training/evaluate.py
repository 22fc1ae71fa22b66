"""`sushigo eval`: how right the tallies are on held-out generated photos.

The figure that matters to a player is the share of photos whose whole tally is exactly
right; mAP is reported beside it, per class, computed on the final labelled boxes.
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from scoring import Tally, score_round
from scoring.cards import CARD_KINDS, STACKS, TALLY_KEYS
from vision.boxes import ious
from vision.notices import Remark, note_texts, warning_texts, warns
from vision.photo import PhotoError, boxes_turned_back, load_photo_file
from vision.pipeline import Detector, read_settled

# Conditions that make a photo hard, from the generator's record of how it was made.
HARD = {
    "steep_angle": lambda m: m.get("tilt", 0) >= 35,
    "low_light": lambda m: m.get("gain", 1) < 0.6,
    "heavy_overlap": lambda m: m.get("style") == "columns",
    "small_in_frame": lambda m: m.get("fill", 1) < 0.45,
}
IOU_THRESHOLDS = np.linspace(0.5, 0.95, 10)
WRONG_PRINTED = 30  # photos read wrong listed in the printed report


@dataclass
class PhotoResult:
    name: str
    truth: Tally
    predicted: Tally
    meta: dict[str, Any]
    seconds: float
    remarks: tuple[Remark, ...] = ()  # the reading's warnings and notes, in order
    turned: int = 0  # degrees clockwise the photo was read turned

    @property
    def warned(self) -> bool:
        """Whether the reviewer was told to look: a warning, not only notes (the turn's
        says why a photo shows turned, not that it reads wrong)."""
        return any(map(warns, self.remarks))

    @property
    def exact(self) -> bool:
        return self.truth == self.predicted

    def differences(self) -> dict[str, list[int]]:
        """Each tally key read wrong: [read, true]."""
        read, true = self.predicted.to_dict(), self.truth.to_dict()
        return {key: [read[key], true[key]] for key in TALLY_KEYS if read[key] != true[key]}

    def right(self, keys: tuple[str, ...]) -> bool:
        return all(getattr(self.truth, k) == getattr(self.predicted, k) for k in keys)

    @property
    def maki_icons_right(self) -> bool:
        return self.truth.maki_icons == self.predicted.maki_icons

    @property
    def cards_right(self) -> bool:
        """The card count (a stack counting two) is right: what the hand-size check sees."""
        return self.truth.cards == self.predicted.cards

    @property
    def score_right(self) -> bool:
        """The player's round score is right whatever the others hold: every dish but
        maki scores the same, and the maki icon count (all maki depends on) is equal."""
        return _dishes(self.truth) == _dishes(self.predicted) and self.maki_icons_right


def _dishes(t: Tally) -> dict[str, int]:
    score = score_round([t, Tally()], validate=False)[0].breakdown
    return {k: v for k, v in score.items() if k != "maki"}


@dataclass
class Report:
    photos: list[PhotoResult] = field(default_factory=list)
    ap: dict[str, dict[str, float]] = field(default_factory=dict)
    confusion: dict[str, Counter[str]] = field(default_factory=dict)
    players: bool = True  # read with each photo's player count (the hand-size check)

    def share(self, results: list[PhotoResult] | None = None, test: str = "exact") -> float:
        results = self.photos if results is None else results
        if not results:
            return float("nan")
        checks = {
            "exact": lambda r: r.exact,
            "stacks": lambda r: r.right(tuple(STACKS)),
            "maki_icons": lambda r: r.maki_icons_right,
            "score": lambda r: r.score_right,
            "cards": lambda r: r.cards_right,
        }
        return sum(1 for r in results if checks[test](r)) / len(results)

    def summary(self) -> dict[str, Any]:
        rows = {"all": self.photos}
        for name, test in HARD.items():
            rows[name] = [r for r in self.photos if test(r.meta)]
        table = {
            name: {
                "photos": len(results),
                "exact_tally": self.share(results, "exact"),
                "stacks_right": self.share(results, "stacks"),
                "maki_icons_right": self.share(results, "maki_icons"),
                "round_score_right": self.share(results, "score"),
                "cards_right": self.share(results, "cards"),
            }
            for name, results in rows.items()
        }
        errors = {
            key: _count_errors(
                [getattr(r.predicted, key) - getattr(r.truth, key) for r in self.photos]
            )
            for key in TALLY_KEYS
        }
        seconds = [r.seconds for r in self.photos]
        misread = [r for r in self.photos if not r.exact]
        # Which photos to look at next, and what the reviewer was told about each.
        wrong = [
            {
                "photo": r.name,
                "read_and_true": r.differences(),
                "hard": [name for name, test in HARD.items() if test(r.meta)],
                "warnings": warning_texts(r.remarks),
                "notes": note_texts(r.remarks),
            }
            for r in misread
        ]
        # How well the warnings steer a reviewer: the share of wrong photos that carry one
        # (caught), and of right photos that carry one (a look that finds nothing wrong).
        warned = {
            "wrong": _warned_share(misread),
            "right": _warned_share([r for r in self.photos if r.exact]),
        }
        return {
            "with_players": self.players,
            "subsets": table,
            "count_errors": errors,
            "map50_95": self.ap,
            "confusion": {k: dict(v) for k, v in self.confusion.items()},
            "seconds_median": float(np.median(seconds)) if seconds else None,
            "wrong_photos": wrong,
            "warned": warned,
        }


def _count_errors(misses: list[int]) -> dict[str, Any]:
    """A tally key's errors from each photo's count read less its true count."""
    return {
        "photos_wrong": sum(1 for miss in misses if miss),
        "mean_abs_error": float(np.mean([abs(miss) for miss in misses])) if misses else 0.0,
        "over": sum(max(0, miss) for miss in misses),
        "under": sum(max(0, -miss) for miss in misses),
    }


def _warned_share(results: list[PhotoResult]) -> float:
    return sum(1 for r in results if r.warned) / len(results) if results else float("nan")


def evaluate(
    data: Path,
    detector: Detector,
    *,
    split: str = "test",
    limit: int | None = None,
    players: bool = True,
) -> Report:
    """Every photo of `data`'s `split` read as a game's upload reads it, with its player
    count (`players`), or without, as `sushigo detect` without --players does."""
    from datasets.yolo_format import read_all, read_split

    # "all": a held-out set made only for evaluation uses every split.
    items = (read_all(data) if split == "all" else read_split(data, split))[:limit]
    if not items:
        where = "train, val or test" if split == "all" else split
        raise ValueError(f"no images in {data}/images/ ({where})")
    report = Report(players=players)
    predictions: list[tuple[str, np.ndarray, float, int]] = []  # kind, box, conf, image
    truths: list[tuple[str, np.ndarray, int]] = []
    confusion: dict[str, Counter[str]] = {k: Counter() for k in (*CARD_KINDS, "(none)")}
    for n, item in enumerate(items):
        start = time.perf_counter()
        try:
            photo = load_photo_file(item.image)
        except PhotoError as error:  # which of the set's photos: it had not been said
            raise PhotoError(error.reason, f"{item.image}: {error}") from None
        count = item.truth["players"] if players else None
        # As read_photo reads it, keeping the detector's boxes for mAP and confusion.
        detections, reading, _ = read_settled(photo, detector, players=count)
        turned = reading.turn
        seconds = time.perf_counter() - start
        report.photos.append(
            PhotoResult(
                item.image.stem,
                Tally.from_mapping(item.truth["tally"]),
                reading.tally,
                item.truth["meta"],
                seconds,
                tuple(reading.remarks),
                reading.turn,
            )
        )
        # mAP and confusion are about card boxes: every box the detector drew, a nigiri it
        # labelled as a stack counted as that nigiri (the tally above is what reads stacks).
        # The truth's boxes are in the photo as it came; a photo read turned found its own.
        boxes = boxes_turned_back(detections.xyxy, photo.original_size, turned)
        labels = [STACKS.get(label, label) for label in detections.labels]
        for box, label, conf in zip(boxes, labels, detections.confidence, strict=True):
            predictions.append((label, box, float(conf), n))
        gt = [(kind, np.array(box, float)) for kind, *box in item.boxes]
        truths.extend((kind, box, n) for kind, box in gt)
        _confuse(confusion, gt, list(zip(labels, boxes, strict=True)))
    report.ap = _average_precision(predictions, truths)
    report.confusion = confusion
    return report


def _confuse(
    table: dict[str, Counter[str]],
    gt: list[tuple[str, np.ndarray]],
    pred: list[tuple[str, np.ndarray]],
) -> None:
    """Rows: true kind ("(none)" = a detection matching no card); columns: predicted."""
    used: set[int] = set()
    for kind, box in gt:
        best, best_iou = -1, 0.5
        if pred:
            overlaps = ious(box, np.array([p[1] for p in pred]))
            for j in np.argsort(-overlaps):
                if overlaps[j] >= best_iou and j not in used:
                    best = int(j)
                    break
        if best < 0:
            table[kind]["(missed)"] += 1
        else:
            used.add(best)
            table[kind][pred[best][0]] += 1
    for j, (label, _) in enumerate(pred):
        if j not in used:
            table["(none)"][label] += 1


def _average_precision(
    predictions: list[tuple[str, np.ndarray, float, int]], truths: list[tuple[str, np.ndarray, int]]
) -> dict[str, dict[str, float]]:
    """COCO-style AP per class at IoU 0.50:0.95 (101-point interpolation)."""
    result: dict[str, dict[str, float]] = {}
    for kind in CARD_KINDS:
        listed: dict[int, list[np.ndarray]] = {}
        for k, box, img in truths:
            if k == kind:
                listed.setdefault(img, []).append(box)
        gts = {img: np.array(boxes) for img, boxes in listed.items()}
        n_gt = sum(len(b) for b in gts.values())
        preds = sorted((p for p in predictions if p[0] == kind), key=lambda p: -p[2])
        if n_gt == 0:
            continue
        aps = []
        for threshold in IOU_THRESHOLDS:
            matched = {img: np.zeros(len(b), bool) for img, b in gts.items()}
            tp = np.zeros(len(preds))
            for i, (_, box, _, img) in enumerate(preds):
                if img not in gts:
                    continue
                overlaps = ious(box, gts[img])
                overlaps[matched[img]] = -1
                j = int(np.argmax(overlaps))
                if overlaps[j] >= threshold:
                    matched[img][j] = True
                    tp[i] = 1
            aps.append(_ap(tp, n_gt))
        result[kind] = {"map50": round(aps[0], 4), "map50_95": round(float(np.mean(aps)), 4)}
    return result


def _ap(tp: np.ndarray, n_gt: int) -> float:
    if not len(tp):
        return 0.0
    ctp = np.cumsum(tp)
    recall = ctp / n_gt
    precision = ctp / np.arange(1, len(tp) + 1)
    precision = np.maximum.accumulate(precision[::-1])[::-1]
    points = np.linspace(0, 1, 101)
    idx = np.searchsorted(recall, points, side="left")
    return float(np.mean([precision[i] if i < len(precision) else 0.0 for i in idx]))


def format_report(summary: dict[str, Any]) -> str:
    count = "with" if summary.get("with_players", True) else "without"
    lines = [f"read {count} the player count (the hand-size check)", ""]
    lines.append("subset            photos  exact   stacks  maki    score   cards")
    for name, row in summary["subsets"].items():
        figures = (
            row["exact_tally"],
            row["stacks_right"],
            row["maki_icons_right"],
            row["round_score_right"],
            row["cards_right"],
        )
        lines.append(f"{name:<17} {row['photos']:>6}  " + "   ".join(map(_share, figures)))
    lines.append("")
    lines.append("category          wrong  over  under")
    for key, row in summary["count_errors"].items():
        lines.append(f"{key:<17} {row['photos_wrong']:>5} {row['over']:>5} {row['under']:>6}")
    lines.append("")
    lines.append("class             mAP50   mAP50-95")
    for kind, row in summary["map50_95"].items():
        lines.append(f"{kind:<17} {_share(row['map50'])}   {_share(row['map50_95'])}")
    lines.append("")
    # Columns numbered as the rows (names cut to fit had read "tempur", "(misse").
    cols = [*CARD_KINDS, "(missed)"]
    lines.append("confusion (rows true, columns predicted: 1-12 as the rows, 13 missed)")
    lines.append(" " * 14 + " ".join(f"{n:>4}" for n in range(1, len(cols) + 1)))
    for number, (row_name, counts) in enumerate(summary["confusion"].items(), start=1):
        label = f"{number:>2} {row_name}" if row_name in CARD_KINDS else f"   {row_name}"
        lines.append(f"{label:<13} " + " ".join(f"{counts.get(c, 0):>4}" for c in cols))
    if summary.get("seconds_median") is not None:
        lines.append(
            f"\nmedian seconds per photo (decode + detect + tally): {summary['seconds_median']:.3f}"
        )
    warned = summary["warned"]
    of_wrong, of_right = (
        f"no photo was read {how}" if math.isnan(share) else f"{share:.3f} of the photos read {how}"
        for share, how in ((warned["wrong"], "wrong"), (warned["right"], "right"))
    )
    lines.append(f"\nwith a warning: {of_wrong}, {of_right}")
    wrong = summary["wrong_photos"]
    lines.append(
        f"photos read wrong: {len(wrong)} (key read (true); hard subsets; warnings; notes)"
    )
    for photo in wrong[:WRONG_PRINTED]:
        read = ", ".join(
            f"{k} {read} ({true})" for k, (read, true) in photo["read_and_true"].items()
        )
        told = [*photo["warnings"], *(f"note: {note}" for note in photo["notes"])]
        parts = [photo["photo"], read, ", ".join(photo["hard"]), "; ".join(told)]
        lines.append("  ".join(part for part in parts if part))
    if len(wrong) > WRONG_PRINTED:
        lines.append(f"... and {len(wrong) - WRONG_PRINTED} more (all of them in --json)")
    return "\n".join(lines)


def _share(value: float) -> str:
    """A share as the report's columns write it; one of no photos (NaN) as a dash, in line."""
    return "  -  " if math.isnan(value) else f"{value:.3f}"


def write_report(summary: dict[str, Any], path: Path) -> None:
    """The summary as JSON; a share of no photos (NaN) as null, which JSON can hold."""
    path.write_text(json.dumps(without_nan(summary), indent=1, sort_keys=True, allow_nan=False))


def without_nan(value: Any) -> Any:
    """`value` with every NaN float (a share of no photos) as None, all the way down."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {key: without_nan(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [without_nan(item) for item in value]
    return value
