"""The printed deck for tests that need real faces: the scans beside the checkout
(../shared/decks/original, never committed) or SUSHIGO_DECK. Without them those tests say
so and skip; CI sets SUSHIGO_REQUIRE_DECK=1, where a missing deck is a failure."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from datasets.deck import CHECKOUT_DECK, table_faces
from datasets.faces import FacePool

# A run whose exit is stuck says where and ends (CI's time is not the limit that says so).
from tests.exit_guard import pytest_unconfigure  # noqa: F401


def deck_folder() -> Path:
    return Path(os.environ.get("SUSHIGO_DECK", CHECKOUT_DECK))


def pytest_report_header() -> str:
    folder = deck_folder()
    if folder.is_dir():
        return f"printed deck: {folder}"
    return f"printed deck: not at hand ({folder}): the tests that read it are skipped"


@pytest.fixture(scope="session")
def printed_deck_folder() -> Path:
    folder = deck_folder()
    if not folder.is_dir():
        message = f"the printed deck's scans are not at hand ({folder})"
        if os.environ.get("SUSHIGO_REQUIRE_DECK"):
            pytest.fail(message + ", and SUSHIGO_REQUIRE_DECK is set")
        pytest.skip(message)
    return folder


@pytest.fixture(scope="session")
def printed_deck(printed_deck_folder: Path) -> FacePool:
    from datasets.deck import load_deck

    return load_deck(printed_deck_folder)


@pytest.fixture(scope="session")
def table_deck() -> FacePool:
    """The printed deck where at hand, else the procedural one: for tests about the
    product around a photo (pages, uploads), not about reading its cards."""
    return table_faces(deck_folder())
