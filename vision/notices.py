"""What reading a photo tells a reviewer that only vision knows: typed notices, worded here.

Each notice is a code (what the fact is) and a sentence a reviewer can act on. Most warn:
the reviewer should check something. A few are notes (`NOTE_CODES`): what the reading did,
told so that the photo makes sense, not a call to check. The collection's own problems
(hand size, deck) are not among them: those are the rules engine's
(scoring.check_collection), and a reading carries its `Problem`s as they are, beside these
notices (`Remark`); every problem warns.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from scoring.cards import said
from scoring.validation import Problem


class NoticeCode(StrEnum):
    """What a Notice is about; the values are stable strings."""

    NO_CARDS = "no_cards"
    LOW_CONFIDENCE = "low_confidence"
    NIGIRI_DOUBT = "nigiri_doubt"  # a nigiri the classifier gave another kind fair odds
    MAKI_DOUBT = "maki_doubt"  # a maki it gave another roll count fair odds
    WASABI_DOUBT = "wasabi_doubt"  # a wasabi it gave a nigiri fair odds
    STRIP_ONLY_STACK = "strip_only_stack"  # a stack the wasabi strip alone shows
    # A nigiri the stack check alone called on a wasabi (no wasabi box under it), read
    # as plain where no hand size settled it (vision.reading.settle_hand_size)
    UNSURE_STACK = "unsure_stack"
    READ_ON_WASABI = "read_on_wasabi"  # the hand size read a plain nigiri as on a wasabi
    TURNED = "turned"  # the photo was read turned (vision.pipeline)
    LOOKED_CLOSER = "looked_closer"  # the hand made right by a closer look
    DOUBTFUL_CARDS = "doubtful_cards"  # the hand made right by boxes the finder doubted
    # The hand made right by leaving out cards that lay apart, as another player's
    LEFT_OUT_APART = "left_out_apart"
    CARDS_APART = "cards_apart"  # in a hand over its size, cards apart at the photo's edge
    SMALL_PHOTO = "small_photo"  # too few pixels for its cards to be read (vision.pipeline)
    # Cards a turned reading found, not counted: the turn had lost others (vision.pipeline)
    TURNED_AWAY = "turned_away"


@dataclass(frozen=True, slots=True)
class Notice:
    """One fact about a photo's reading that a reviewer is shown, in `text`; `boxes`: the
    indices, in the detections it was read from, of the boxes it names, where its words
    alone do not say which (a game keeps them, to mark those boxes and to let the notice
    go once a person has changed them)."""

    code: NoticeCode
    text: str
    boxes: tuple[int, ...] = ()

    def __str__(self) -> str:
        return self.text

    def about(self, boxes: Iterable[int]) -> Notice:
        """This notice, naming `boxes` (indices)."""
        return dataclasses.replace(self, boxes=tuple(int(box) for box in boxes))

    @property
    def warns(self) -> bool:
        """Whether the reviewer is asked to check something (else it is a note)."""
        return self.code not in NOTE_CODES


# Notes, not warnings. The turn's says why a photo shows turned. The closer look's: over
# 2,000 photos of the printed deck it was on 85 of the 203 right photos warned and warned
# none of the wrong ones alone (benchmarks/probe_notices.py); the hand it made right is
# checked by the card count all the same.
NOTE_CODES: Final = frozenset({NoticeCode.TURNED, NoticeCode.LOOKED_CLOSER})

# What a reading tells a reviewer, a warning or a note: vision's notices, and the rules
# engine's problems of the tally.
Remark = Notice | Problem


def remark_text(remark: Remark) -> str:
    """The sentence a reviewer is shown for `remark`."""
    return remark.text if isinstance(remark, Notice) else remark.message


def warns(remark: Remark) -> bool:
    """Whether `remark` asks the reviewer to check something: every problem does, and
    every notice but a note."""
    return remark.warns if isinstance(remark, Notice) else True


def warning_texts(told: Iterable[Remark]) -> list[str]:
    """Of what a reading told, the warnings (those that ask for a check), in words."""
    return [remark_text(remark) for remark in told if warns(remark)]


def note_texts(told: Iterable[Remark]) -> list[str]:
    """Of what a reading told, the notes (what it did: a turn, a closer look), in words."""
    return [remark_text(remark) for remark in told if not warns(remark)]


NO_CARDS: Final = Notice(
    NoticeCode.NO_CARDS,
    "no cards were found in this photo: take it again from above with the whole collection "
    "in the frame, or count the cards by hand",
)


def small_photo(width: int, height: int) -> Notice:
    """A photo too small for its cards to be read, whatever was found in it."""
    return Notice(
        NoticeCode.SMALL_PHOTO,
        f"the photo is only {width} x {height} px, too small to read its cards: take it with "
        "the phone's camera at full size, or count the cards by hand",
    )


def low_confidence(
    labels: Sequence[str], threshold: float, under: Sequence[str | None] | None = None
) -> Notice:
    """The boxes (their labels) read at less than `threshold` confidence; `under`, for each,
    the nigiri (label) lying on it where it is a stack's wasabi: "the wasabi under the egg
    nigiri", where a bare "wasabi" had sent the player to another card, a lone wasabi."""
    one = len(labels) == 1
    on = under or [None] * len(labels)
    names = [
        said(label) if nigiri is None else f"the wasabi under the {said(nigiri)}"
        for label, nigiri in zip(labels, on, strict=True)
    ]
    return Notice(
        NoticeCode.LOW_CONFIDENCE,
        f"{len(labels)} {'card' if one else 'cards'} read with under {threshold:.0%} certainty "
        f"({', '.join(names)}): check {'it' if one else 'them'}",
    )


# A doubt's words: what may be wrong, what else the card may be, and what to check for
# one box and for more.
_DOUBT_WORDS: Final[dict[NoticeCode, tuple[str, str, tuple[str, str]]]] = {
    NoticeCode.NIGIRI_DOUBT: (
        "nigiri may be another kind",
        "another kind",
        ("check the dish in its top-left corner", "check the dishes in their top-left corners"),
    ),
    NoticeCode.MAKI_DOUBT: (
        "maki may show another number of rolls",
        "another number",
        (
            "count the small rolls in its top-left corner",
            "count the small rolls in their top-left corners",
        ),
    ),
    NoticeCode.WASABI_DOUBT: (
        "wasabi may be a nigiri",
        "a nigiri",
        ("check the dish in its top-left corner", "check the dishes in their top-left corners"),
    ),
}


def doubt(code: NoticeCode, doubted: Sequence[tuple[str, float]]) -> Notice:
    """The boxes (label, odds of another kind or count) read with doubt of kind `code`
    (NIGIRI_DOUBT, MAKI_DOUBT or WASABI_DOUBT)."""
    what, other, check = _DOUBT_WORDS[code]
    # "read as": "squid nigiri (another kind 14% likely)" had read as squid suggested.
    if len(doubted) == 1:
        ((label, odds),) = doubted
        return Notice(code, f"1 {what}: read as {said(label)}, {other} {_likely(odds)}; {check[0]}")
    which = ", ".join(
        f"one read as {said(label)} ({other} {_likely(odds)})" for label, odds in doubted
    )
    return Notice(code, f"{len(doubted)} {what}: {which}; {check[1]}")


def strip_only(nigiri: Sequence[str]) -> Notice:
    """The stacks (their nigiri's labels) found by the wasabi strip alone."""
    one = len(nigiri) == 1
    return Notice(
        NoticeCode.STRIP_ONLY_STACK,
        f"{len(nigiri)} {'stack' if one else 'stacks'} seen only by the strip above "
        f"{'its nigiri' if one else 'their nigiri'} ({', '.join(map(said, nigiri))}): check "
        f"that {'it is' if one else 'each is'} a wasabi's top (its green icon), not another "
        "yellow card's",
    )


def unsure_stacks(nigiri: Sequence[str]) -> Notice:
    """The nigiri (labels) read as plain though the stack check called them on a wasabi:
    no wasabi box was found under them, and no hand size settled them."""
    # No odds said: the check's are not a wasabi's chance here, where no wasabi's top was
    # found (five in six such nigiri lay plain on the tuning sets; reading.settle_hand_size).
    if len(nigiri) == 1:
        (label,) = nigiri
        text = (
            f"one {said(label)} read as plain, though it may lie on a wasabi whose top was not "
            "found: check whether a wasabi shows above it"
        )
    else:
        which = ", ".join(map(said, nigiri))
        text = (
            f"{len(nigiri)} nigiri read as plain, though they may lie on a wasabi ({which}) "
            "whose top was not found: check whether a wasabi shows above each"
        )
    return Notice(NoticeCode.UNSURE_STACK, text)


def read_on_wasabi(nigiri: str) -> Notice:
    """The hand had one card too few: this nigiri (label), which the stack check called
    on a wasabi, was read as on a wasabi. No odds said, as for unsure_stacks: the check's
    odds of a wasabi whose top was not found had read as a certainty."""
    return Notice(
        NoticeCode.READ_ON_WASABI,
        f"one {said(nigiri)} read as lying on a wasabi, to make up the hand's count: check "
        "that a wasabi is under it",
    )


def _likely(probability: float) -> str:
    """A probability as a player reads it, "97% likely": under 1 said under 100%, and
    over 0 over 0%, so that no odds read as certain."""
    return f"{min(max(probability, 0.01), 0.99):.0%} likely"


def turned(degrees: int) -> Notice:
    """A photo read turned `degrees` clockwise."""
    if degrees == 180:
        return Notice(
            NoticeCode.TURNED, "the photo was read turned 180°: its cards stood upside down"
        )
    side = "clockwise" if degrees < 180 else "anticlockwise"
    by = degrees if degrees < 180 else 360 - degrees
    why = "lay on their side" if degrees % 90 == 0 else "lay at a slant"
    return Notice(NoticeCode.TURNED, f"the photo was read turned {by}° {side}: its cards {why}")


def doubtful_cards(labels: Sequence[str]) -> Notice:
    """Cards (their labels) boxed only because the hand was short: the finder scored them
    under its threshold (vision.pipeline)."""
    one = len(labels) == 1
    return Notice(
        NoticeCode.DOUBTFUL_CARDS,
        f"{len(labels)} card{'' if one else 's'} boxed only because the hand was short "
        f"({', '.join(map(said, labels))}): check that {'it is' if one else 'they are'} "
        f"there and read right",
    )


def left_out_apart(labels: Sequence[str]) -> Notice:
    """Cards (their labels) left out of a hand that was over: they lay apart from the
    collection, as the next player's do (vision.neighbours). Their boxes stay, not
    counted, for a reviewer to count."""
    one = len(labels) == 1
    return Notice(
        NoticeCode.LEFT_OUT_APART,
        f"{len(labels)} card{'' if one else 's'} lying apart from the rest "
        f"({', '.join(map(said, labels))}) {'was' if one else 'were'} left out as another "
        f"player's, which made the hand's count right: if {'it is' if one else 'they are'} "
        f"this player's, count {'it' if one else 'them'}",
    )


def cards_apart(count: int) -> Notice:
    """Cards of a hand over its size that lie apart from the rest at the photo's edge,
    where the next player's collection would show (vision.neighbours)."""
    one = count == 1
    return Notice(
        NoticeCode.CARDS_APART,
        f"{count} card{'' if one else 's'} at the photo's edge {'lies' if one else 'lie'} "
        f"apart from the rest: check that {'it is' if one else 'they are'} this player's",
    )


def turned_away(labels: Sequence[str]) -> Notice:
    """Cards (their labels) a reading of the photo turned found, not counted: the photo
    was read as it came, where the turn lost cards found so (vision.pipeline.look_at).
    Most often the next player's collection, lying a quarter turn from this one's."""
    one = len(labels) == 1
    return Notice(
        NoticeCode.TURNED_AWAY,
        f"{len(labels)} card{'' if one else 's'} lying another way "
        f"({', '.join(map(said, labels))}) {'is' if one else 'are'} not counted: if "
        f"{'it is' if one else 'they are'} this player's, take the photo again with this "
        f"player's cards upright",
    )


def looked_closer(before: int, hand: int) -> Notice:
    """The collection read as `before` cards, not the hand's `hand`, until it was looked
    at closer (vision.pipeline): what that look changed is the likeliest to be wrong."""
    return Notice(
        NoticeCode.LOOKED_CLOSER,
        f"the photo was looked at closer to find the hand's {hand} cards ({before} were found "
        "at first)",
    )
