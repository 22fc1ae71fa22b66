"""POST /api/v1/detect, GET /api/v1/model, and the detector's place in the service:
boxes in original photo pixels, detection off the event loop, 503 without a detector."""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from api.main import create_app
from api.settings import Settings
from tests.api.conftest import (
    LEFT_OUT_TWO,
    NEIGHBOUR_PHOTO,
    WITH_NEIGHBOURS,
    FakeDetector,
    Table,
    boxes_for,
    make_photo,
)

REPO = Path(__file__).resolve().parents[2]


def test_detect_returns_design_md_body(client: TestClient, detector: FakeDetector) -> None:
    records = boxes_for(["tempura", "tempura", "salmon", "wasabi"])
    detector.register((900, 700), records)
    response = client.post(
        "/api/v1/detect",
        files={"image": ("cards.jpg", make_photo((900, 700), records), "image/jpeg")},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert set(body) == {"tally", "cards", "detections", "warnings", "notes", "turned"}
    assert body["tally"]["tempura"] == 2 and body["cards"] == 4 and body["turned"] == 0
    assert body["notes"] == []
    assert len(body["tally"]) == 15
    assert body["detections"][0] == {
        "label": "tempura",
        "confidence": 0.9,
        "box": [float(v) for v in records[0]["box"]],
        "left_out": False,
    }
    assert detector.calls == 1 and detector.on_event_loop == 0


def test_detect_flags_the_cards_it_left_out(client: TestClient, detector: FakeDetector) -> None:
    """A neighbour's two cards at the photo's edge, left out to make a two-player hand of
    ten right, are listed flagged `left_out`: a client adding up the boxes it was sent
    counts the tally's ten, not twelve."""
    # Beside them, a box under the confidence floor and a second box on one of them:
    # no cards, so not listed among those left out (the warning counts two).
    records = [
        *WITH_NEIGHBOURS,
        {"label": "tempura", "confidence": 0.1, "box": [0, 460, 80, 578]},
        {"label": "tempura", "confidence": 0.6, "box": [2, 202, 82, 320]},
    ]
    detector.register(NEIGHBOUR_PHOTO, records)
    response = client.post(
        "/api/v1/detect",
        files={"image": ("cards.jpg", make_photo(NEIGHBOUR_PHOTO, records), "image/jpeg")},
        data={"players": "2"},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["cards"] == 10 and body["warnings"] == [LEFT_OUT_TWO]
    flags = [d["left_out"] for d in body["detections"]]
    assert len(flags) == 12 and flags.count(True) == 2
    left_out = [d for d in body["detections"] if d["left_out"]]
    assert {d["label"] for d in left_out} == {"tempura"} and body["tally"]["tempura"] == 0
    # Always sent, so required in the OpenAPI document (a generated client's field is
    # not optional).
    schema = client.get("/openapi.json").json()["components"]["schemas"]["DetectionPublic"]
    assert "left_out" in schema["required"]


def test_detect_players_checks_the_hand_size(client: TestClient, detector: FakeDetector) -> None:
    records = boxes_for(["tempura"] * 3)
    detector.register((900, 700), records)
    response = client.post(
        "/api/v1/detect",
        files={"image": ("cards.jpg", make_photo((900, 700), records), "image/jpeg")},
        data={"players": "2"},
    )
    assert response.status_code == 200
    assert response.json()["warnings"]


def test_a_photo_too_small_to_read_says_so(client: TestClient, table: Table) -> None:
    """A 50 x 50 px photo is said to be too small, by the detect route and on a game's
    review, beside "no cards were found" (which alone had sent the player to take it
    "from above"). A 300 px photo is not."""
    tiny = make_photo((50, 50))
    body = client.post("/api/v1/detect", files={"image": ("t.jpg", tiny, "image/jpeg")}).json()
    said = "the photo is only 50 x 50 px, too small to read its cards"
    assert any(said in warning for warning in body["warnings"]), body["warnings"]
    assert any("no cards were found" in warning for warning in body["warnings"])
    uploaded = table.upload(1, 1, tiny)
    assert uploaded.status_code in (200, 201), uploaded.text
    review = table.collection(1, 1)
    assert any(said in text for text in review["warnings"]), review["warnings"]
    enough = client.post(
        "/api/v1/detect", files={"image": ("s.jpg", make_photo((300, 225)), "image/jpeg")}
    ).json()
    assert not any("too small" in warning for warning in enough["warnings"]), enough


def test_boxes_are_in_original_pixels_of_a_large_photo(
    client: TestClient, detector: FakeDetector
) -> None:
    # A 4000x3000 JPEG is decoded at 1/4 scale: the detector sees 1000x750.
    detector.register((1000, 750), [{"label": "egg", "confidence": 0.8, "box": [10, 20, 110, 220]}])
    photo = make_photo((4000, 3000))
    body = client.post("/api/v1/detect", files={"image": ("big.jpg", photo, "image/jpeg")}).json()
    assert body["detections"][0]["box"] == [40.0, 80.0, 440.0, 880.0]


def test_upload_of_a_rotated_photo_keeps_upright_size(table: Table, detector: FakeDetector) -> None:
    image = Image.new("RGB", (1200, 800), (30, 60, 90))
    exif = image.getexif()
    exif[0x0112] = 6  # stored sideways: rotate 90 degrees to view
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", exif=exif)
    detector.register((800, 1200), [{"label": "squid", "confidence": 0.7, "box": [5, 5, 400, 600]}])
    response = table.upload(1, 1, buffer.getvalue())
    assert response.status_code == 201, response.text
    draft = response.json()
    assert (draft["photo"]["width"], draft["photo"]["height"]) == (800, 1200)
    assert draft["tally"]["squid"] == 1


def test_without_a_detector_detection_routes_are_503(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", weights=tmp_path / "missing.onnx")
    with TestClient(create_app(settings)) as client:
        photo = make_photo((300, 200))
        response = client.post("/api/v1/detect", files={"image": ("a.jpg", photo, "image/jpeg")})
        assert response.status_code == 503
        assert "detector" in response.json()["detail"]
        table = Table(client, {"players": ["A", "B"]})
        assert table.upload(1, 1, photo).status_code == 503
        # Everything else works without it: the calculator way.
        assert table.set_counts(1, 1, {"tempura": 2})["tally"]["tempura"] == 2
        info = client.get("/api/v1/model").json()
        assert info["available"] is False and info["error"]
        assert info["weights"] == str(tmp_path / "missing.onnx")
        assert "tempura" in info["classes"]


def test_model_route_and_app_start_do_not_import_torch(tmp_path: Path) -> None:
    script = textwrap.dedent(
        f"""
        import sys
        from fastapi.testclient import TestClient
        from api.main import create_app
        from api.settings import Settings
        app = create_app(Settings(data_dir={str(tmp_path / "data")!r}))
        with TestClient(app) as client:
            response = client.get("/api/v1/model")
            assert response.status_code == 200, response.text
            print(response.json())
        heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "ultralytics"))
        assert not heavy, heavy
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.both_databases
def test_parallel_uploads_all_land(client: TestClient, detector: FakeDetector) -> None:
    tables = [Table(client, {"players": ["A", "B", "C", "D"]}) for _ in range(2)]
    jobs = [(t, seat, 910 + 10 * i + seat) for i, t in enumerate(tables) for seat in (1, 2, 3, 4)]
    for _, _, width in jobs:
        detector.register((width, 700), boxes_for(["maki_1"] * 8))

    def upload(job: tuple[Table, int, int]) -> int:
        table, seat, width = job
        return int(table.upload(1, seat, make_photo((width, 700)), version=0).status_code)

    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(upload, jobs))
    assert statuses == [201] * len(jobs)
    assert detector.on_event_loop == 0
    for table in tables:
        view = table.round(1)
        assert [c["tally"]["maki_1"] for c in view["collections"]] == [8, 8, 8, 8]
        assert view["version"] == 4


@pytest.mark.both_databases
def test_racing_writes_to_one_collection_one_wins_one_409(client: TestClient, table: Table) -> None:
    def write(i: int) -> int:
        response = table.correct(1, 1, action="set_counts", counts={"tempura": i + 1}, version=0)
        return int(response.status_code)

    with ThreadPoolExecutor(6) as pool:
        statuses = sorted(pool.map(write, range(6)))
    assert statuses == [200] + [409] * 5
    state = table.collection(1, 1)
    assert state["version"] == 1
    assert len(client.get(f"{table.collection_url(1, 1)}/events").json()) == 1
