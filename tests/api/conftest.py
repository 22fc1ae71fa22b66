"""Fixtures for the API tests: an app over a temporary data folder and SQLite file, with
the detector replaced by a fake that returns the boxes a test registered for a photo.

A test marked `both_databases` runs twice: over SQLite and over a fresh database in a
throwaway PostgreSQL server (tests/api/postgres.py). A missing PostgreSQL fails those
runs with a message saying what to install; they are never skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

import cv2
import numpy as np
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from api.deps import get_detector
from api.main import create_app
from api.settings import Settings
from tests.api.postgres import PostgresServer, PostgresUnavailable, running_server
from vision.detections import Detections

DATABASES = ("sqlite", "postgresql")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "both_databases: run the test over SQLite and over PostgreSQL"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.definition.get_closest_marker("both_databases"):
        metafunc.parametrize("database", DATABASES, indirect=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the whole run (each test gets its own database)."""
    stack = contextlib.ExitStack()
    try:
        server = stack.enter_context(running_server())
    except PostgresUnavailable as error:
        pytest.fail(str(error), pytrace=False)
    with stack:
        yield server


@pytest.fixture
def database(request: pytest.FixtureRequest) -> str:
    """Which database the test's app uses: SQLite unless the test is `both_databases`."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
def database_url(database: str, request: pytest.FixtureRequest) -> str | None:
    """None for SQLite in the data folder; else a fresh PostgreSQL database's URL."""
    if database == "sqlite":
        return None
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.new_database()


LABEL_COLOURS = {
    "tempura": (40, 160, 220),
    "sashimi": (60, 60, 200),
    "dumpling": (200, 200, 230),
    "maki_1": (30, 30, 30),
    "maki_2": (60, 60, 60),
    "maki_3": (90, 90, 90),
    "egg": (80, 230, 250),
    "salmon": (90, 140, 250),
    "squid": (220, 220, 220),
    "wasabi": (60, 200, 60),
    "pudding": (40, 200, 240),
    "chopsticks": (30, 90, 140),
}


class FakeDetector:
    """Returns the detections registered for a photo's decoded size (each test photo
    gets its own size), in that decoded image's pixels. Thread-safe; counts calls; waits
    `delay` seconds first where a test sets it (the phone page's progress)."""

    def __init__(self) -> None:
        self.by_size: dict[tuple[int, int], list[dict[str, Any]]] = {}
        self.delay = 0.0
        self.calls = 0
        self.threads: set[int] = set()
        self.on_event_loop = 0  # calls made from a thread running an event loop
        self._lock = threading.Lock()

    def register(self, size: tuple[int, int], records: Sequence[dict[str, Any]]) -> None:
        self.by_size[size] = list(records)

    def forget(self) -> None:
        """Answers registered so far no longer given: a photo turned a quarter has another
        test's photo's size, and would be read as that photo."""
        self.by_size.clear()

    def __call__(
        self, image: np.ndarray, size: int | None = None, conf: float | None = None
    ) -> Detections:
        with self._lock:
            self.calls += 1
            self.threads.add(threading.get_ident())
            try:
                asyncio.get_running_loop()
                self.on_event_loop += 1
            except RuntimeError:
                pass
        if self.delay:
            time.sleep(self.delay)
        height, width = image.shape[:2]
        records = self.by_size.get((width, height), [])
        # A record's "wasabi_under" is the stack check's odds, as the real detector gives
        # them (records stored with a photo do not keep them).
        under = [r.get("wasabi_under", np.nan) for r in records]
        return dataclasses.replace(Detections.from_records(records), wasabi_under=under)


def boxes_for(
    labels: Sequence[str], *, width: int = 900, height: int = 700
) -> list[dict[str, Any]]:
    """Detection records laying `labels` out in a grid of card-sized boxes."""
    records = []
    columns = 6
    card_w, card_h = (width - 20) // columns, (height - 20) // 3
    for i, label in enumerate(labels):
        row, col = divmod(i, columns)
        x1, y1 = 10 + col * card_w, 10 + (row % 3) * card_h
        records.append(
            {"label": label, "confidence": 0.9, "box": [x1, y1, x1 + card_w - 8, y1 + card_h - 8]}
        )
    return records


def make_photo(
    size: tuple[int, int], records: Sequence[dict[str, Any]] = (), *, ext: str = ".jpg"
) -> bytes:
    """A photo of `size` (width, height) with a coloured card drawn for each record."""
    width, height = size
    image = np.full((height, width, 3), (35, 70, 120), np.uint8)  # a wooden table
    for record in records:
        x1, y1, x2, y2 = (int(v) for v in record["box"])
        kind = str(record["label"]).split("_on_")[0]
        cv2.rectangle(image, (x1, y1), (x2, y2), LABEL_COLOURS.get(kind, (255, 255, 255)), -1)
        cv2.putText(image, kind[:6], (x1 + 4, y1 + 24), cv2.FONT_HERSHEY_SIMPLEX, 0.7, 0, 2)
    ok, encoded = cv2.imencode(ext, image)
    assert ok
    return encoded.tobytes()


@pytest.fixture
def settings(tmp_path: Any, database_url: str | None) -> Settings:
    return Settings(
        data_dir=tmp_path / "data",
        database_url=database_url,
        max_upload_bytes=3_000_000,
        max_pixels=30_000_000,
    )


@pytest.fixture
def detector() -> FakeDetector:
    return FakeDetector()


@pytest.fixture
def app(settings: Settings, detector: FakeDetector) -> FastAPI:
    app = create_app(settings)
    app.dependency_overrides[get_detector] = lambda: detector
    return app


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as client:
        yield client


class Table:
    """A game created through the API, with helpers that carry its token and versions."""

    def __init__(self, client: TestClient, body: dict[str, Any]) -> None:
        self.client = client
        response = client.post("/api/v1/games", json=body)
        assert response.status_code == 201, response.text
        self.game = response.json()
        self.id = self.game["id"]
        self.token = self.game["edit_token"]
        self.headers = {"Authorization": f"Bearer {self.token}"}
        self.url = f"/api/v1/games/{self.id}"

    def collection_url(self, round: int, seat: int) -> str:
        return f"{self.url}/rounds/{round}/players/{seat}"

    def collection(self, round: int, seat: int) -> dict[str, Any]:
        response = self.client.get(self.collection_url(round, seat))
        assert response.status_code == 200, response.text
        return response.json()

    def round(self, number: int) -> dict[str, Any]:
        response = self.client.get(f"{self.url}/rounds/{number}")
        assert response.status_code == 200, response.text
        return response.json()

    def upload(self, round: int, seat: int, photo: bytes, **form: Any) -> Any:
        version = form.pop("version", None)
        if version is None:
            version = self.collection(round, seat)["version"]
        return self.client.post(
            f"{self.collection_url(round, seat)}/photos",
            files={"image": ("photo.jpg", photo, "image/jpeg")},
            data={"version": str(version), **form},
            headers=self.headers,
        )

    def correct(self, round: int, seat: int, **body: Any) -> Any:
        if "version" not in body:
            body["version"] = self.collection(round, seat)["version"]
        return self.client.post(
            f"{self.collection_url(round, seat)}/corrections", json=body, headers=self.headers
        )

    def act(self, round: int, seat: int, action: str, **body: Any) -> Any:
        if "version" not in body:
            body["version"] = self.collection(round, seat)["version"]
        return self.client.post(
            f"{self.collection_url(round, seat)}/{action}", json=body, headers=self.headers
        )

    def set_counts(
        self, round: int, seat: int, counts: dict[str, int] | dict[str, int | None]
    ) -> dict[str, Any]:
        response = self.correct(round, seat, action="set_counts", counts=counts)
        assert response.status_code == 200, response.text
        return response.json()

    def confirm(self, round: int, seat: int) -> dict[str, Any]:
        response = self.act(round, seat, "confirm")
        assert response.status_code == 200, response.text
        return response.json()

    def record(self, number: int, **body: Any) -> Any:
        if "version" not in body:
            body["version"] = self.round(number)["version"]
        return self.client.post(
            f"{self.url}/rounds/{number}/record", json=body, headers=self.headers
        )

    def reopen(self, number: int) -> Any:
        version = self.round(number)["version"]
        return self.client.post(
            f"{self.url}/rounds/{number}/reopen", json={"version": version}, headers=self.headers
        )

    def standings(self) -> dict[str, Any]:
        response = self.client.get(f"{self.url}/standings")
        assert response.status_code == 200, response.text
        return response.json()


@pytest.fixture
def table(client: TestClient) -> Table:
    return Table(client, {"players": ["Ana", "Ben", "Cy"]})


# Two stacks on one photo, each a nigiri lying on its wasabi shifted down a fifth of a
# card, so that the wasabi shows as a strip above it: one as the detector reads most (a
# wasabi box and a salmon box, paired by the reading), one a box labelled as the whole
# stack (a reviewer's or the stack check's, unsure: the reading warns) with its strip,
# which the tally leaves out. And two plain tempura, away from both.
TWO_STACKS = [
    {"label": "wasabi", "confidence": 0.9, "box": [100, 100, 260, 150]},
    {"label": "salmon", "confidence": 0.9, "box": [100, 150, 260, 387]},
    {"label": "wasabi", "confidence": 0.9, "box": [400, 100, 560, 150]},
    {"label": "squid_on_wasabi", "confidence": 0.4, "box": [400, 150, 560, 387]},
    {"label": "tempura", "confidence": 0.9, "box": [100, 420, 260, 580]},
    {"label": "tempura", "confidence": 0.9, "box": [400, 420, 560, 580]},
]


# Ana's ten cards (two players' hand) in two rows in the middle of the photo, and two of
# the next player's at its left edge, apart: the reading leaves those two out.
NEIGHBOUR_PHOTO = (1200, 800)
WITH_NEIGHBOURS = [
    {
        "label": "sashimi" if i < 6 else "dumpling",
        "confidence": 0.9,
        "box": [x, y, x + 80, y + 118],
    }
    for i, (x, y) in enumerate((400 + 90 * (i % 5), 200 + 130 * (i // 5)) for i in range(10))
] + [{"label": "tempura", "confidence": 0.9, "box": [0, y, 80, y + 118]} for y in (200, 330)]
LEFT_OUT_TWO = (
    "2 cards lying apart from the rest (tempura, tempura) were left out as another player's, "
    "which made the hand's count right: if they are this player's, count them"
)


def texts_drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts OpenCV draws from now on (an annotated photo's tags and panel), in order."""
    drawn: list[str] = []
    real = cv2.putText

    def record(image: np.ndarray, text: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(text)
        return real(image, text, *args, **kwargs)

    monkeypatch.setattr(cv2, "putText", record)
    return drawn
