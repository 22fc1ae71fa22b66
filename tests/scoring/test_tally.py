"""Tally: the fifteen-key contract, its refusals and its derived counts."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from scoring import CARD_KINDS, TALLY_KEYS, InvalidTallyError, ScoringError, Tally


class Count:
    """An integer-like value from another library (numpy ints behave like this)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def test_tally_fields_are_the_fifteen_contract_keys_in_order() -> None:
    assert tuple(f.name for f in dataclasses.fields(Tally)) == TALLY_KEYS
    assert len(TALLY_KEYS) == 15


def test_tally_is_frozen_and_keyword_only() -> None:
    tally = Tally(tempura=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        tally.tempura = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Tally(1)  # type: ignore[call-arg]


def test_from_mapping_missing_keys_are_zero() -> None:
    assert Tally.from_mapping({}) == Tally()
    assert Tally.from_mapping({"squid": 2}).to_dict() == {
        key: (2 if key == "squid" else 0) for key in TALLY_KEYS
    }


def test_to_dict_has_all_fifteen_keys_and_round_trips() -> None:
    tally = Tally(**{key: i for i, key in enumerate(TALLY_KEYS)})
    assert list(tally.to_dict()) == list(TALLY_KEYS)
    assert Tally.from_mapping(tally.to_dict()) == tally


def test_from_mapping_accepts_any_integer_type() -> None:
    tally = Tally.from_mapping({"tempura": Count(3)})
    assert tally.tempura == 3 and type(tally.tempura) is int


@pytest.mark.parametrize(
    ("mapping", "key", "value"),
    [
        ({"tempora": 1}, "tempora", 1),
        ({"maki": 1}, "maki", 1),
        ({"tempura": -1}, "tempura", -1),
        ({"pudding": True}, "pudding", True),
        ({"pudding": False}, "pudding", False),
        ({"egg": 1.0}, "egg", 1.0),
        ({"egg": 1.5}, "egg", 1.5),
        ({"salmon": "2"}, "salmon", "2"),
        ({"squid": None}, "squid", None),
        ({"wasabi": [1]}, "wasabi", [1]),
    ],
    ids=[
        "unknown_key_misspelt",
        "unknown_key_maki_without_icons",
        "negative_count",
        "bool_true",
        "bool_false",
        "float_even_if_whole",
        "float_fraction",
        "numeric_string",
        "null",
        "list",
    ],
)
def test_from_mapping_refuses_and_names_key_and_value(
    mapping: dict[str, Any], key: str, value: object
) -> None:
    with pytest.raises(InvalidTallyError) as caught:
        Tally.from_mapping(mapping)
    error = caught.value
    assert isinstance(error, ScoringError) and isinstance(error, ValueError)
    assert error.key == key
    assert error.value == value and type(error.value) is type(value)
    assert error.reason
    assert key in str(error) and repr(value) in str(error)


def test_from_mapping_names_the_player_when_given() -> None:
    with pytest.raises(InvalidTallyError) as caught:
        Tally.from_mapping({"tempura": -2}, player=1)
    assert caught.value.player == 1
    assert str(caught.value).startswith("player 2's tally")


def test_from_mapping_refuses_a_non_mapping() -> None:
    with pytest.raises(InvalidTallyError) as caught:
        Tally.from_mapping([("tempura", 1)])  # type: ignore[arg-type]
    assert caught.value.key is None


@pytest.mark.parametrize(
    "fields",
    [{"tempura": -1}, {"egg": True}, {"dumpling": 2.0}, {"chopsticks": "1"}],
    ids=["negative", "bool", "float", "string"],
)
def test_constructor_validates_like_from_mapping(fields: dict[str, Any]) -> None:
    with pytest.raises(InvalidTallyError):
        Tally(**fields)


@pytest.mark.parametrize(
    ("tally", "icons"),
    [
        (Tally(), 0),
        (Tally(maki_1=1), 1),
        (Tally(maki_2=1), 2),
        (Tally(maki_3=1), 3),
        (Tally(maki_1=2, maki_2=1, maki_3=2), 10),
    ],
    ids=["none", "one_icon_card", "two_icon_card", "three_icon_card", "mixed_cards"],
)
def test_maki_icons_are_maki1_plus_2maki2_plus_3maki3(tally: Tally, icons: int) -> None:
    assert tally.maki_icons == icons


@pytest.mark.parametrize(
    ("tally", "cards"),
    [
        (Tally(), 0),
        (Tally(tempura=2, pudding=1, chopsticks=1), 4),
        (Tally(salmon_on_wasabi=1), 2),
        (Tally(egg_on_wasabi=1, squid_on_wasabi=2, wasabi=1), 7),
        (Tally(maki_3=2), 2),
    ],
    ids=[
        "empty",
        "plain_cards_count_1",
        "a_stack_counts_2",
        "stacks_and_loose_wasabi",
        "maki_by_card",
    ],
)
def test_cards_count_each_stack_as_two(tally: Tally, cards: int) -> None:
    assert tally.cards == cards


def test_nigiri_used_counts_plain_and_on_wasabi() -> None:
    tally = Tally(egg=1, salmon=2, salmon_on_wasabi=1, squid_on_wasabi=2)
    assert tally.nigiri_used == {"egg": 1, "salmon": 3, "squid": 2}


def test_kinds_used_a_stack_uses_a_wasabi_and_a_nigiri() -> None:
    tally = Tally(tempura=1, maki_2=2, salmon=1, squid_on_wasabi=2, wasabi=1, pudding=3)
    used = tally.kinds_used()
    assert list(used) == list(CARD_KINDS)
    assert used["wasabi"] == 3
    assert used["squid"] == 2 and used["salmon"] == 1 and used["egg"] == 0
    assert used["maki_2"] == 2 and used["pudding"] == 3 and used["tempura"] == 1
    assert sum(used.values()) == tally.cards
    assert tally.stacks == 2 and tally.wasabi_used == 3
