"""The labels a detection box can carry.

The detector itself only outputs the twelve card kinds (each box is the visible part of one
card); a person reviewing a photo may also label one box as a whole stack (a nigiri lying
on a wasabi), which is why the stack keys are labels too. Label ids follow TALLY_KEYS.
"""

from __future__ import annotations

from typing import Final

from scoring.cards import CARD_KINDS, STACKS, TALLY_KEYS

LABELS: Final[tuple[str, ...]] = TALLY_KEYS
LABEL_ID: Final[dict[str, int]] = {name: i for i, name in enumerate(LABELS)}
DETECTOR_LABELS: Final[tuple[str, ...]] = CARD_KINDS
STACK_LABELS: Final[tuple[str, ...]] = tuple(STACKS)


def label_id(name: str) -> int:
    """The id of a label; a clear error for a name that is not one."""
    try:
        return LABEL_ID[name]
    except KeyError:
        raise ValueError(f"unknown label {name!r}; expected one of {', '.join(LABELS)}") from None
