"""The crop networks' training: the classifier's and the stack check's network (one design),
their crops from synth datasets, augmentation, the training loop, the ONNX export.
What they do at inference is vision/classifier.py's and vision/stack_check.py's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from datasets.printing import GAMMA, SATURATION
from vision.boxes import areas, intersections
from vision.classifier import CLASSES, CROP, NONE_ID, crop_boxes, to_input

if TYPE_CHECKING:
    import torch

SQUEEZE = 32  # channels per cell the crop networks' head reads
NOT_A_CARD = 0.15  # a "none" crop: no card covers more of it than this share


def build_network(classes: int = len(CLASSES), size: int = CROP) -> torch.nn.Module:
    """The crop networks' design, for size x size crops (a multiple of 16)."""
    import torch
    from torch import nn

    def block(cin: int, cout: int, stride: int) -> nn.Sequential:
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
            nn.Conv2d(cout, cout, 3, 1, 1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        )

    class CardNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                block(3, 24, 2),  # 48
                block(24, 48, 2),  # 24
                block(48, 96, 2),  # 12
                block(96, 160, 2),  # 6
            )
            # No global pooling: the kind is at the TOP of the crop (a covered card's strip
            # also shows the next card's top at its bottom), so the head keeps where
            # things are.
            self.squeeze = nn.Sequential(nn.Conv2d(160, SQUEEZE, 1), nn.ReLU(inplace=True))
            cells = size // 16  # four stride-2 blocks: 6 x 6 at 96 px
            self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(SQUEEZE * cells * cells, classes))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.head(torch.flatten(self.squeeze(self.features(x)), 1))

    return CardNet()


# --- training data ----------------------------------------------------------------------


@dataclass
class CropSet:
    crops: np.ndarray  # (N, size, size, 3) uint8, CROP for the classifier
    labels: np.ndarray  # (N,) int64

    @classmethod
    def joined(cls, parts: list[CropSet]) -> CropSet:
        return cls(
            np.concatenate([p.crops for p in parts]), np.concatenate([p.labels for p in parts])
        )


def train_and_val(
    crops_from: Callable[..., CropSet], datasets: Sequence[Path], *, seed: int
) -> tuple[CropSet, CropSet]:
    """A crop network's train and val crops from synth datasets (`crops_from` is
    `crops_from_dataset` or the stack check's; val's jitter is seeded apart)."""
    train = CropSet.joined([crops_from(d, "train", seed=seed) for d in datasets])
    val = CropSet.joined([crops_from(d, "val", seed=seed + 1) for d in datasets])
    return train, val


def jitter_box(box: np.ndarray, rng: np.random.Generator, amount: float) -> np.ndarray:
    x1, y1, x2, y2 = box
    bw, bh = x2 - x1, y2 - y1
    d = rng.uniform(-amount, amount, 4) * np.array([bw, bh, bw, bh])
    return np.array([x1 + d[0], y1 + d[1], x2 + d[2], y2 + d[3]])


def crops_from_dataset(
    root: Path,
    split: str,
    *,
    seed: int,
    per_card: int = 2,
    none_per_image: int = 2,
    size: int = CROP,
    false_alarms: Callable[[np.ndarray], np.ndarray] | None = None,
) -> CropSet:
    """Card crops (with the box jitter a detector makes) and non-card crops from a dataset.

    `false_alarms`, when given, maps an image to the boxes a card finder puts on it (for
    example `CardDetector.find_collection`'s); those lying off every card become "none"
    crops too, so that the classifier learns to turn down what the finder mistakes for
    a card (a tablecloth's red stripes read as maki)."""
    from datasets.yolo_format import read_split

    rng = np.random.default_rng(seed)
    kind_id = {k: i for i, k in enumerate(CLASSES)}
    crops: list[np.ndarray] = []
    labels: list[int] = []
    for item in read_split(root, split):
        image = item.pixels()
        h, w = image.shape[:2]
        boxes = np.array([b[1:] for b in item.boxes], float)
        chosen = [jitter_box(box, rng, 0.08) for box in boxes for _ in range(per_card)]
        chosen_labels = [kind_id[b[0]] for b in item.boxes for _ in range(per_card)]
        # Non-cards: boxes of a card's size that overlap no card much.
        sizes = boxes[:, 2:] - boxes[:, :2] if len(boxes) else np.array([[w / 8, h / 8]])
        accepted = 0
        for _ in range(none_per_image * 10):
            if accepted == none_per_image:
                break
            bw, bh = sizes[int(rng.integers(len(sizes)))] * rng.uniform(0.6, 1.5)
            x1, y1 = rng.uniform(0, max(1, w - bw)), rng.uniform(0, max(1, h - bh))
            cand = np.array([x1, y1, x1 + bw, y1 + bh])
            if _off_every_card(cand, boxes):
                chosen.append(cand)
                chosen_labels.append(NONE_ID)
                accepted += 1
        # Clutter the generator drew (draw pile, cup, score sheet...): the finder fires on
        # card-like things, and the classifier must call them "none".
        for thing in item.truth.get("meta", {}).get("clutter", []):
            chosen.append(jitter_box(np.array(thing["box"], float), rng, 0.08))
            chosen_labels.append(NONE_ID)
        if false_alarms is not None:
            for found in false_alarms(image):
                if _off_every_card(found, boxes):
                    chosen.append(found)
                    chosen_labels.append(NONE_ID)
        crops.append(crop_boxes(image, np.array(chosen), size=size))
        labels.extend(chosen_labels)
    return CropSet(np.concatenate(crops), np.array(labels, np.int64))


def _off_every_card(box: np.ndarray, cards: np.ndarray) -> bool:
    """Whether no card box of `cards` covers NOT_A_CARD of `box`: a "none" crop."""
    return len(cards) == 0 or _max_overlap(box, cards) < NOT_A_CARD


def _max_overlap(box: np.ndarray, boxes: np.ndarray) -> float:
    """The largest share of `box` that one of `boxes` covers."""
    return float((intersections(box, boxes) / max(float(areas(box)[0]), 1e-6)).max())


LAMP_SHARE = 0.3  # of training crops seen under a coloured lamp
REPAINT_SHARE = 0.5  # of training crops given a second print run's saturation and gamma


def _augment(batch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Light and lens changes the photo synthesizer already varies, varied once more."""
    x = batch.astype(np.float32)
    n = len(x)
    # A print run's saturation and gamma once more, per crop: the photos drew one per
    # photo, so the networks saw few decks paler or lighter than the scans.
    repaint = np.flatnonzero(rng.random(n) < REPAINT_SHARE)
    grey = x[repaint].mean(axis=3, keepdims=True)
    saturation = rng.uniform(*SATURATION, (len(repaint), 1, 1, 1))
    x[repaint] = np.clip(grey + saturation * (x[repaint] - grey), 0, 255)
    gamma = rng.uniform(*GAMMA, (len(repaint), 1, 1, 1))
    x[repaint] = 255 * (x[repaint] / 255) ** gamma
    x *= rng.uniform(0.6, 1.3, (n, 1, 1, 1))
    x += rng.uniform(-25, 25, (n, 1, 1, 1))
    x *= rng.uniform(0.9, 1.1, (n, 1, 1, 3))
    # A lamp's warm light or a window's cool one, stronger than a print run's cast: red
    # up and blue down (BGR), or the other way. Without it the printed deck's classifier
    # read chopsticks as sashimi under warm light (tests/vision/test_pipeline.py).
    lamps = np.flatnonzero(rng.random(n) < LAMP_SHARE)
    warmth = rng.uniform(0.0, 1.0, len(lamps)) * rng.choice([-1.0, 1.0], len(lamps))
    x[lamps] *= np.stack([1 - 0.4 * warmth, np.ones_like(warmth), 1 + 0.25 * warmth], 1)[
        :, None, None, :
    ]
    x += rng.normal(0, rng.uniform(0, 8), x.shape)
    for i in np.flatnonzero(rng.random(n) < 0.25):
        x[i] = cv2.GaussianBlur(x[i], (0, 0), rng.uniform(0.5, 1.5))
    return np.clip(x, 0, 255).astype(np.uint8)


def train_classifier(
    train: CropSet,
    val: CropSet,
    *,
    epochs: int = 12,
    batch: int = 128,
    threads: int = 1,
    seed: int = 0,
    log: Any = print,
    init: Path | None = None,
    lr: float = 3e-3,
    classes: int = len(CLASSES),
    name: str = "classifier",
) -> tuple[Any, float]:
    """Train the classifier (from `init`, a saved state dict, when given); returns
    (network, best validation accuracy)."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    rng = np.random.default_rng(seed)
    net = build_network(classes, size=train.crops.shape[1])
    if init is not None:
        state = torch.load(init, map_location="cpu", weights_only=True)
        net.load_state_dict(_head_resized(state, net.state_dict()["head.1.weight"].shape))
    steps = epochs * int(np.ceil(len(train.labels) / batch))
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    best_acc, best_state = -1.0, None
    for epoch in range(epochs):
        net.train()
        order = rng.permutation(len(train.labels))
        total = 0.0
        for start in range(0, len(order), batch):
            idx = order[start : start + batch]
            x = torch.from_numpy(to_input(_augment(train.crops[idx], rng)))
            y = torch.from_numpy(train.labels[idx])
            opt.zero_grad()
            loss = loss_fn(net(x), y)
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        acc = accuracy(net, val)
        log(f"{name} epoch {epoch + 1}/{epochs} loss {total / len(order):.4f} val acc {acc:.4f}")
        if acc >= best_acc:
            best_acc = acc
            best_state = {k: v.clone() for k, v in net.state_dict().items()}
    assert best_state is not None
    net.load_state_dict(best_state)
    return net, best_acc


def _head_resized(state: dict[str, Any], shape: tuple[int, ...]) -> dict[str, Any]:
    """A state dict whose head takes `shape`'s grid of cells: a network trained on other
    crop sizes starts from its own head's weights, resized over the new grid, so that
    what it learned of where things lie in the crop carries over."""
    import torch

    weight = state["head.1.weight"]
    if tuple(weight.shape) == tuple(shape):
        return state
    classes = weight.shape[0]
    old = round((weight.shape[1] / SQUEEZE) ** 0.5)
    new = round((shape[1] / SQUEEZE) ** 0.5)
    grid = weight.reshape(classes, SQUEEZE, old, old)
    resized = torch.nn.functional.interpolate(grid, size=(new, new), mode="bilinear")
    # The same evidence spread over more cells: scaled to keep the logits' size.
    return {**state, "head.1.weight": resized.reshape(classes, -1) * (old * old) / (new * new)}


def predict_logits(net: Any, crops: np.ndarray, batch: int = 256) -> np.ndarray:
    import torch

    net.eval()
    outs = []
    with torch.no_grad():
        for start in range(0, len(crops), batch):
            outs.append(net(torch.from_numpy(to_input(crops[start : start + batch]))).numpy())
    return np.concatenate(outs) if outs else np.zeros((0, net.head[-1].out_features), np.float32)


def accuracy(net: Any, data: CropSet) -> float:
    if len(data.labels) == 0:
        return 0.0
    return float((predict_logits(net, data.crops).argmax(1) == data.labels).mean())


def export_onnx(net: Any, path: Path, size: int = CROP) -> Path:
    """Write the network as ONNX for the fast path, taking size x size crops, and its
    state dict beside it (classifier.pt) so that fine-tuning can start from it."""
    import torch

    net.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), path.with_suffix(".pt"))
    dummy = torch.zeros(1, 3, size, size)
    torch.onnx.export(
        net,
        (dummy,),
        str(path),
        input_names=["crops"],
        output_names=["logits"],
        dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
        opset_version=17,
        dynamo=False,
    )
    return path
