"""The fast CPU inference path: the ONNX finder under OpenVINO (vision/finder.py), the
ONNX crop networks under onnxruntime.

Stage one finds every card (one class, the visible part of each card) in a letterboxed
copy of the photo, exactly as ultralytics' predictor would (same letterbox, same
thresholds, same NMS), and once more, closer, around a collection small in the frame
(`zoom_region`); stage two reads each card's kind from a crop of the photo at its decoded
resolution. The result is a `Detections` in the photo's pixels. No torch here.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scoring.cards import MAKI, NIGIRI, STACKS
from vision import WEIGHTS_DIR
from vision.boxes import ious
from vision.classifier import CLASSES, NONE_ID, crop_boxes, to_input
from vision.detections import Detections
from vision.finder import FinderNetwork
from vision.labels import LABEL_ID
from vision.stack_check import MIN_PROBABILITY, ON_WASABI, context_crops, trimmed_boxes

MODEL_CARD = "model.json"  # metadata beside the weights: files, image size, when trained
# The finder's NMS overlap, below ultralytics' 0.7: labels box each card's visible part, so
# two true boxes hardly overlap, and at 0.7 a second box on one card counted it twice.
NMS_IOU = 0.5
DETECTION_CONF = 0.25
# A collection spanning less than ZOOM_BELOW_SPAN of the photo's width and height is looked
# at again around its cards (plus ZOOM_MARGIN), where thin strips of covered cards are larger.
ZOOM_BELOW_SPAN = 0.55
ZOOM_MARGIN = 0.12
ZOOM_ASPECT_STEP = 0.2
# The second look runs at three quarters of the finder's image size (480 px for 640): the
# region is already closer, and a smaller input is quicker.
ZOOM_SIZE = 0.75

# Classifier index -> label id (LABELS follows TALLY_KEYS, the classifier CARD_KINDS).
_CLASS_TO_LABEL = np.array([LABEL_ID.get(name, -1) for name in CLASSES], np.int64)
# A nigiri's label id, and the label id of the same nigiri on a wasabi.
_NIGIRI_IDS = np.array([LABEL_ID[n] for n in NIGIRI], np.int64)
_NIGIRI_CLASSES = np.array([CLASSES.index(n) for n in NIGIRI], np.int64)
_MAKI_IDS = np.array([LABEL_ID[m] for m in MAKI], np.int64)
_MAKI_CLASSES = np.array([CLASSES.index(m) for m in MAKI], np.int64)
# A wasabi's face is the nigiri's yellow (card-spec.md): its doubt is the likeliest nigiri.
_WASABI_ID = LABEL_ID["wasabi"]
_WASABI_CLASSES = np.array([CLASSES.index("wasabi"), *_NIGIRI_CLASSES], np.int64)
_STACK_OF = np.arange(len(LABEL_ID), dtype=np.int64)
for _stack, _nigiri in STACKS.items():
    _STACK_OF[LABEL_ID[_nigiri]] = LABEL_ID[_stack]


@dataclass(frozen=True)
class ModelInfo:
    folder: Path
    detector: Path
    classifier: Path
    stack_check: Path | None  # optional: older weights folders have none
    imgsz: int
    conf: float
    iou: float
    meta: dict[str, Any]

    @classmethod
    def load(cls, folder: Path) -> ModelInfo:
        card_path = folder / MODEL_CARD
        if not card_path.exists():
            raise FileNotFoundError(f"no {MODEL_CARD} in {folder}: not a sushigo weights folder")
        try:
            meta = json.loads(card_path.read_text())
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ValueError(f"{card_path} is not JSON ({error})") from None
        if not isinstance(meta, dict):
            raise ValueError(f"{card_path} is not a sushigo model card: not a JSON object")
        try:
            return cls(
                folder=folder,
                detector=folder / _file_name(meta["detector"]),
                classifier=folder / _file_name(meta["classifier"]),
                stack_check=(
                    folder / _file_name(meta["stack_check"]) if meta.get("stack_check") else None
                ),
                imgsz=int(meta["imgsz"]),
                conf=float(meta.get("conf", DETECTION_CONF)),
                iou=float(meta.get("iou", NMS_IOU)),
                meta=meta,
            )
        except KeyError as error:
            raise ValueError(f"{card_path} is not a sushigo model card: no {error}") from None
        except (TypeError, ValueError, AttributeError) as error:
            raise ValueError(f"{card_path} is not a sushigo model card: {error}") from None

    def describe(self) -> dict[str, Any]:
        """What `GET /api/v1/model` shows: files, hashes, classes, when trained."""
        return {
            "folder": str(self.folder),
            "detector": {"file": self.detector.name, "sha256": _sha256(self.detector)},
            "classifier": {"file": self.classifier.name, "sha256": _sha256(self.classifier)},
            "stack_check": (
                {"file": self.stack_check.name, "sha256": _sha256(self.stack_check)}
                if self.stack_check
                else None
            ),
            "classes": list(CLASSES[:NONE_ID]),
            "imgsz": self.imgsz,
            "trained": self.meta.get("trained"),
            "metrics": self.meta.get("metrics", {}),
        }


def _file_name(value: Any) -> str:
    """A network's file as the model card names it: a name in the weights folder."""
    if not isinstance(value, str) or not value:
        raise TypeError(f"a network's file must be a name, got {value!r}")
    return value


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def letterbox(
    image: np.ndarray, size: int, *, stride: int | None = None
) -> tuple[np.ndarray, float, tuple[int, int]]:
    """Ultralytics' LetterBox(center=True): resize to fit `size`, pad with grey 114.

    With a stride (ultralytics' auto=True, what `predict` does by default) the padding
    only rounds each side up to a multiple of it: a 4:3 photo is run at 640 x 480, not
    640 x 640, a quarter less work for the same result. Without, pad to a square.
    """
    h, w = image.shape[:2]
    r = min(size / h, size / w)
    new_w, new_h = max(round(w * r), 1), max(round(h * r), 1)
    pad_w, pad_h = size - new_w, size - new_h
    if stride:
        pad_w, pad_h = pad_w % stride, pad_h % stride
    dw, dh = pad_w / 2, pad_h / 2
    resized = (
        cv2.resize(image, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
        if (new_w, new_h) != (w, h)
        else image
    )
    top, bottom = round(dh - 0.1), round(dh + 0.1)
    left, right = round(dw - 0.1), round(dw + 0.1)
    padded = cv2.copyMakeBorder(
        resized, top, bottom, left, right, cv2.BORDER_CONSTANT, value=(114, 114, 114)
    )
    return padded, r, (left, top)


def decode_yolo(
    output: np.ndarray, conf: float, iou: float, max_det: int = 300
) -> tuple[np.ndarray, np.ndarray]:
    """(1, 4 + nc, A) raw YOLOv8 output -> boxes xyxy (N, 4) and scores (N,), after NMS."""
    # Thresholded before the transpose: only the few anchors above it are copied.
    scores = output[0, 4:].max(0)
    keep = scores > conf
    pred, scores = output[0][:, keep].T, scores[keep]  # (N, 4 + nc)
    if not len(pred):
        return np.zeros((0, 4), np.float32), np.zeros(0, np.float32)
    xy, wh = pred[:, :2], pred[:, 2:4]
    boxes = np.concatenate([xy - wh / 2, xy + wh / 2], 1)
    order = _nms(boxes, scores, iou)[:max_det]
    return boxes[order].astype(np.float32), scores[order].astype(np.float32)


def _nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    order = np.argsort(-scores, kind="stable")
    keep: list[int] = []
    while len(order):
        i = order[0]
        keep.append(int(i))
        rest = order[1:]
        order = rest[ious(boxes[i], boxes[rest]) <= iou]
    return np.array(keep, np.int64)


class CardDetector:
    """Callable: BGR image -> Detections (card kinds as labels) in that image's pixels."""

    def __init__(self, info: ModelInfo, *, threads: int = 2) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # Idle worker threads sleep instead of spinning: in the service, spinning threads
        # took the core the request's own work (database, response) needed.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        providers = ["CPUExecutionProvider"]
        self.info = info
        self._finder = FinderNetwork(info.detector, threads=threads)
        self._classifier = ort.InferenceSession(str(info.classifier), options, providers=providers)
        self.stride = self._finder.stride
        self.zoom_size = zoom_size(info.imgsz, self.stride)
        self._stack_check = (
            ort.InferenceSession(str(info.stack_check), options, providers=providers)
            if info.stack_check
            else None
        )
        # The stack check's crops are as large as its network takes (fixed in its ONNX file).
        self.stack_crop = (
            int(self._stack_check.get_inputs()[0].shape[-1]) if self._stack_check else 0
        )
        self._lock = threading.Lock()  # sessions are thread-safe; the lock bounds CPU use

    def find_cards(
        self, image: np.ndarray, size: int | None = None, conf: float | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Stage one: card boxes (xyxy, image px) and their scores, with the image fitted
        into `size` px (default: the finder's own image size, what `predict` uses), scored
        above `conf` (default: the weights' own threshold)."""
        size = size or self.info.imgsz
        padded, r, (left, top) = letterbox(image, size, stride=self.stride)
        with self._lock:
            output = self._finder(padded[None])
        boxes, scores = decode_yolo(output, self.info.conf if conf is None else conf, self.info.iou)
        boxes[:, [0, 2]] = (boxes[:, [0, 2]] - left) / r
        boxes[:, [1, 3]] = (boxes[:, [1, 3]] - top) / r
        h, w = image.shape[:2]
        boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, w)
        boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, h)
        return boxes, scores

    def classify(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """Stage two: class probabilities (N, len(CLASSES)) for each box."""
        if not len(boxes):
            return np.zeros((0, len(CLASSES)), np.float32)
        return self._probabilities(self._classifier, crop_boxes(image, boxes))

    def classify_stacked(
        self, image: np.ndarray, boxes: np.ndarray, probs: np.ndarray
    ) -> np.ndarray:
        """Class probabilities (N, len(CLASSES)) for nigiri boxes the stack check put on a
        wasabi, given each box's own (`classify`): the mean over the box and its four
        trims, which leave out a strip of the wasabi boxed with the nigiri
        (stack_check.STRIP_KEEP)."""
        trims = np.concatenate([trimmed_boxes(box) for box in boxes])
        read = self.classify(image, trims).reshape(len(boxes), -1, len(CLASSES))
        return np.concatenate([probs[:, None], read], 1).mean(1)

    def on_wasabi(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """The stack check: for each nigiri box, the probability that a wasabi lies under
        it (vision/stack_check.py). Zeros when these weights have no stack check.

        Each crop is also asked mirrored, and the likelier answer kept: card-spec lets a
        nigiri be shifted sideways either way, and a check that learned strips on one side
        can miss them on the other."""
        if self._stack_check is None or not len(boxes):
            return np.zeros(len(boxes), np.float32)
        crops = context_crops(image, boxes, self.stack_crop)
        both = np.concatenate([crops, crops[:, :, ::-1]])
        on = self._probabilities(self._stack_check, both)[:, ON_WASABI]
        return np.maximum(on[: len(crops)], on[len(crops) :])

    def _probabilities(self, network: Any, crops: np.ndarray) -> np.ndarray:
        """Softmax of a crop network's logits, (N, classes)."""
        with self._lock:
            (logits,) = network.run(None, {network.get_inputs()[0].name: to_input(crops)})
        e = np.exp(logits - logits.max(1, keepdims=True))
        return (e / e.sum(1, keepdims=True)).astype(np.float32)

    def find_collection(
        self, image: np.ndarray, conf: float | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Card boxes and scores, from a second, closer look when the collection is small
        in the frame (`zoom_region`)."""
        boxes, scores = self.find_cards(image, conf=conf)
        # Where to look closer is the sure boxes' decision, whatever `conf` lets through.
        region = zoom_region(boxes[scores > self.info.conf], image.shape[:2])
        if region is None:
            return boxes, scores
        x0, y0, x1, y1 = region
        boxes, scores = self.find_cards(image[y0:y1, x0:x1], self.zoom_size, conf)
        boxes += np.array([x0, y0, x0, y0], np.float32)
        return boxes, scores

    def __call__(
        self, image: np.ndarray, size: int | None = None, conf: float | None = None
    ) -> Detections:
        """The cards in `image`; with `size`, found by the finder at that input size in one
        look (a closer look, vision.pipeline), else at its own with a second look around a
        collection small in the frame; with `conf`, every box the finder scores above it
        (default: the weights' threshold)."""
        # No white balance: the printed card has no white to judge the light by, and the
        # networks learn coloured light and print runs from the training photos instead.
        if size:
            boxes, scores = self.find_cards(image, size, conf)
        else:
            boxes, scores = self.find_collection(image, conf)
        probs = self.classify(image, boxes)
        if not len(boxes):
            return Detections.empty()
        kind = probs.argmax(1)
        card = kind != NONE_ID
        # The confidence a reviewer sees: that it is a card, and that it is this kind.
        confidence = scores * probs[np.arange(len(kind)), kind]
        boxes, scores, probs = boxes[card], scores[card], probs[card]
        confidence, labels = confidence[card], _CLASS_TO_LABEL[kind[card]]
        nigiri = np.flatnonzero(np.isin(labels, _NIGIRI_IDS))
        under = np.full(len(boxes), np.nan, np.float32)
        under[nigiri] = self.on_wasabi(image, boxes[nigiri])
        stacked = nigiri[under[nigiri] >= MIN_PROBABILITY]
        if len(stacked):
            # The trims only overrule the box's kind; where they agree, the box's own
            # figures stand, so that a photo's confidence (which decides its turn,
            # vision/pipeline.py) does not drop with the trims' cut-off views.
            trimmed = self.classify_stacked(image, boxes[stacked], probs[stacked])
            trimmed_kind = _NIGIRI_CLASSES[trimmed[:, _NIGIRI_CLASSES].argmax(1)]
            overrule = _CLASS_TO_LABEL[trimmed_kind] != labels[stacked]
            overruled = stacked[overrule]
            probs[overruled] = trimmed[overrule]
            confidence[overruled] = scores[overruled] * trimmed[overrule, trimmed_kind[overrule]]
            labels[overruled] = _CLASS_TO_LABEL[trimmed_kind[overrule]]
        labels[stacked] = _STACK_OF[labels[stacked]]
        doubt = np.full(len(boxes), np.nan, np.float32)
        doubt[nigiri] = other_of(probs[nigiri], _NIGIRI_CLASSES)
        maki = np.flatnonzero(np.isin(labels, _MAKI_IDS))
        doubt[maki] = other_of(probs[maki], _MAKI_CLASSES)
        wasabi = np.flatnonzero(labels == _WASABI_ID)
        doubt[wasabi] = other_of(probs[wasabi], _WASABI_CLASSES)
        return Detections(boxes, confidence, labels, under, doubt)


def other_of(probs: np.ndarray, family: np.ndarray) -> np.ndarray:
    """For boxes the classifier read as one of `family` (classifier indices: the three
    nigiri, the three maki, or wasabi and the three nigiri), (N, len(CLASSES))
    probabilities: the probability of the likeliest other kind of that family. Each family
    shares one face colour (card-spec.md): only the dish (and its top-left icon) tells the
    yellow cards apart, only the small rolls in the top-left corner the maki, and that is
    where the classifier errs first."""
    return np.sort(probs[:, family], axis=1)[:, -2]


def zoom_size(imgsz: int, stride: int | None) -> int:
    """The second look's image size: ZOOM_SIZE of the finder's, on a multiple of its
    stride. A finder exported for one fixed shape (no stride) takes only its own size."""
    if stride is None:
        return imgsz
    return max(stride, round(imgsz * ZOOM_SIZE / stride) * stride)


def zoom_region(boxes: np.ndarray, size: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """The region (x0, y0, x1, y1, whole pixels) of an image of `size` (height, width) to
    look at again around these card boxes, or None when they already fill the frame.

    The region's short side is widened to a multiple of ZOOM_ASPECT_STEP of its long
    side, so that the finder's inputs come in a few shapes (640 x 128, 256 ... 640): it is
    compiled once per input shape (vision/finder.py). Regions of the photo's own aspect
    would need no new shape but zoom less into a row of cards.
    """
    if not len(boxes):
        return None
    height, width = size
    x0, y0 = boxes[:, :2].min(0)
    x1, y1 = boxes[:, 2:].max(0)
    if x1 - x0 >= ZOOM_BELOW_SPAN * width or y1 - y0 >= ZOOM_BELOW_SPAN * height:
        return None
    margin = ZOOM_MARGIN * max(height, width)
    region_w = min(width, x1 - x0 + 2 * margin)
    region_h = min(height, y1 - y0 + 2 * margin)
    long_side = max(region_w, region_h)
    steps = math.ceil(min(region_w, region_h) / long_side / ZOOM_ASPECT_STEP - 1e-6)
    short_side = min(1.0, steps * ZOOM_ASPECT_STEP) * long_side
    if region_w < region_h:
        region_w = min(width, short_side)
    else:
        region_h = min(height, short_side)
    w, h = round(region_w), round(region_h)
    left = min(max(0, round((x0 + x1 - w) / 2)), width - w)
    top = min(max(0, round((y0 + y1 - h) / 2)), height - h)
    return left, top, left + w, top + h


def default_weights() -> Path:
    return WEIGHTS_DIR


@lru_cache(maxsize=4)
def _load(folder: Path, threads: int) -> CardDetector:
    return CardDetector(ModelInfo.load(folder), threads=threads)


def load_detector(weights: Path | None = None, *, threads: int = 2) -> CardDetector:
    """The detector for a weights folder, loaded once per process and shared."""
    return _load(_weights_folder(weights), threads)


def model_info(weights: Path | None = None) -> ModelInfo:
    """The weights' metadata, without loading onnxruntime."""
    return ModelInfo.load(_weights_folder(weights))


def _weights_folder(weights: Path | None) -> Path:
    """The weights folder `weights` names: a folder, or a file in one (its model.json)."""
    given = Path(weights).resolve() if weights else WEIGHTS_DIR.resolve()
    if not given.is_file():
        return given
    if not (given.parent / MODEL_CARD).is_file():
        # A photo given as --weights had been told "no model.json in" its folder.
        raise FileNotFoundError(
            f"{weights} is a file with no {MODEL_CARD} beside it: name a weights folder"
        )
    return given.parent
