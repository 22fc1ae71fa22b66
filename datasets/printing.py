"""How a printed card differs from its scan in a photo (card-spec.md, "How a printed card
varies"): the print run's colour, saturation and gamma (one per photo: one deck on the
table), and each card's own wear, gloss, glare and bend.

Training draws `print_run` and `wear_card` within the ranges below. `ANOTHER_PRINTING` lies
outside them on purpose: a held-out deck (`sushigo synth --printing another`) to measure
how the detector carries over to a printing it never saw.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class PrintRun:
    """One printing of the deck, applied to every face of a photo."""

    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)  # BGR colour cast of the inks
    saturation: float = 1.0
    gamma: float = 1.0  # > 1 darker mid-tones
    hue: float = 0.0  # degrees
    scan_scale: float = 1.0  # < 1: a coarser scan, the face resampled down and back up

    def __post_init__(self) -> None:
        if not (0.05 <= self.scan_scale <= 1.0):
            raise ValueError(f"scan_scale must lie in [0.05, 1], got {self.scan_scale}")
        if self.saturation < 0 or self.gamma <= 0:
            raise ValueError("saturation must be >= 0 and gamma > 0")

    @property
    def is_plain(self) -> bool:
        return self == PLAIN

    def apply(self, face: np.ndarray) -> np.ndarray:
        """The RGBA (BGRA) face as this printing shows it."""
        if self.is_plain:
            return face
        bgr = face[..., :3]
        if self.scan_scale < 1.0:
            h, w = bgr.shape[:2]
            small = cv2.resize(
                bgr,
                (max(2, round(w * self.scan_scale)), max(2, round(h * self.scan_scale))),
                interpolation=cv2.INTER_AREA,
            )
            bgr = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
        if self.hue or self.saturation != 1.0:
            hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV).astype(np.float32)
            hsv[..., 0] = (hsv[..., 0] + self.hue / 2) % 180  # OpenCV hue is degrees / 2
            hsv[..., 1] = np.clip(hsv[..., 1] * self.saturation, 0, 255)
            bgr = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
        lut = np.empty((256, 1, 3), np.uint8)
        ramp = np.arange(256, dtype=np.float32) / 255
        for c, gain in enumerate(self.gains):
            lut[:, 0, c] = np.clip(255 * gain * ramp**self.gamma, 0, 255).round()
        bgr = cv2.LUT(np.ascontiguousarray(bgr), lut)
        return np.dstack([bgr, face[..., 3]])


PLAIN = PrintRun()
# Another printing, beyond every range `print_run` draws: warmer, paler, lighter, its hue
# turned, from a scan at 45 % of the resolution.
ANOTHER_PRINTING = PrintRun(
    gains=(0.86, 0.98, 1.1), saturation=0.72, gamma=0.78, hue=-6.0, scan_scale=0.45
)


# The ranges training draws a print run from; each stops short of `ANOTHER_PRINTING`.
GAINS = (0.88, 1.12)
SATURATION = (0.76, 1.22)
GAMMA = (0.81, 1.2)
HUE = (-4.5, 4.5)
SCAN_SCALE = (0.6, 1.0)


def print_run(rng: np.random.Generator) -> PrintRun:
    """A print run as training meets it: a colour cast, saturation, gamma, hue and at times
    a coarser scan, each drawn within the ranges above."""
    if rng.random() < 0.2:
        return PLAIN
    cast = rng.normal(0, 0.05, 3)
    return PrintRun(
        gains=tuple(float(g) for g in np.clip(1 + cast, *GAINS)),  # type: ignore[arg-type]
        saturation=float(rng.uniform(*SATURATION)),
        gamma=float(rng.uniform(*GAMMA)),
        hue=float(rng.uniform(*HUE)),
        scan_scale=float(rng.uniform(*SCAN_SCALE)) if rng.random() < 0.3 else 1.0,
    )


def wear_card(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One card's wear: whitened edges and scuffs, a gloss band from the coating, a
    shading gradient (a slight bend), and the bend itself (edges bowed a little)."""
    out = face[..., :3].astype(np.float32)
    alpha = face[..., 3]
    h, w = out.shape[:2]
    if rng.random() < 0.5:  # edge wear: the card stock shows through where the ink rubs off
        edge = cv2.distanceTransform((alpha > 0).astype(np.uint8), cv2.DIST_L2, 3)
        reach = rng.uniform(0.006, 0.02) * w
        speckle = cv2.resize(rng.random((h // 6 + 1, w // 6 + 1)).astype(np.float32), (w, h))
        worn = (edge < reach) & (speckle > rng.uniform(0.4, 0.75))
        out[worn] = out[worn] * 0.35 + 210
    for _ in range(int(rng.integers(0, 3))):  # scuffs
        p0 = np.array([rng.uniform(0, w), rng.uniform(0, h)])
        p1 = p0 + rng.normal(0, 0.12, 2) * [w, h]
        cv2.line(out, tuple(p0.astype(int)), tuple(p1.astype(int)), (215, 215, 215), 1, cv2.LINE_AA)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if rng.random() < 0.35:  # gloss: a soft bright band across the coated card
        angle = rng.uniform(0, np.pi)
        along = (xx / w - 0.5) * np.cos(angle) + (yy / h - 0.5) * np.sin(angle)
        centre, width = rng.uniform(-0.5, 0.5), rng.uniform(0.04, 0.2)
        band = np.exp(-(((along - centre) / width) ** 2))
        out += band[..., None] * rng.uniform(25, 110)
    if rng.random() < 0.5:  # bend: light falls off across the curved card
        gx, gy = rng.normal(0, 0.08, 2)
        out *= (1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5))[..., None]
    worn_face = np.dstack([np.clip(out, 0, 255).astype(np.uint8), alpha])
    if rng.random() < 0.4:
        worn_face = _bowed(worn_face, rng)
    return worn_face


def _bowed(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The face with its long sides bowed by up to 1.5 % of its width (a bent card)."""
    h, w = face.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    bow = rng.uniform(-0.015, 0.015) * w
    shift = bow * np.sin(np.pi * yy / max(h - 1, 1))
    return cv2.remap(
        face,
        xx - shift,
        yy,
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )
