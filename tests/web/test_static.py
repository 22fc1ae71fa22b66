"""The page's files without a browser: served at / beside the API, nothing fetched from
elsewhere, every module it imports present, and its card vocabulary and table rules the
scoring engine's own."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.main import WEB_DIR, create_app
from api.settings import Settings
from scoring import BREAKDOWN_KEYS, HAND_SIZE, TALLY_KEYS
from scoring.names import MAX_NAME_LENGTH
from scoring.rules import max_rounds
from vision.annotate import PALETTE

SVG_NAMESPACE = "http://www.w3.org/2000/svg"


def web_files() -> list[Path]:
    return sorted(p for p in WEB_DIR.rglob("*") if p.is_file())


def modules() -> list[Path]:
    return [p for p in web_files() if p.suffix == ".js"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(data_dir=tmp_path / "data"))) as client:
        yield client


def test_the_page_is_served_at_the_root_beside_the_api(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert 'src="app.js"' in page.text and 'href="style.css"' in page.text
    for module in modules():
        response = client.get(f"/{module.name}")
        assert response.status_code == 200, module.name
        # Browsers refuse an ES module served with another type.
        assert "javascript" in response.headers["content-type"], module.name
    assert client.get("/style.css").headers["content-type"].startswith("text/css")
    # The static mount does not shadow the API.
    missing = client.get("/api/v1/games/no-such-game")
    assert missing.status_code == 404
    assert "no game" in missing.json()["detail"]


@pytest.mark.parametrize("path", web_files(), ids=lambda p: p.name)
def test_nothing_is_fetched_from_the_internet(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    addresses = set(re.findall(r"(?:https?:)?//[\w.-]+\.[a-z]{2,}[^\s\"'`)]*", text))
    assert addresses <= {SVG_NAMESPACE}, addresses


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.name)
def test_every_imported_module_is_there(path: Path) -> None:
    imports = re.findall(r'^\s*(?:import|export)\b[^;]*?from\s+"([^"]+)"', path.read_text(), re.M)
    assert imports or path.name != "app.js"
    for name in imports:
        assert name.startswith("./"), f"{path.name} imports {name!r}: only local modules"
        assert (path.parent / name).is_file(), f"{path.name} imports a missing {name}"


def test_the_categories_are_the_tally_keys_in_order() -> None:
    text = (WEB_DIR / "cards.js").read_text()
    categories = text.split("export const CATEGORIES")[1].split("];")[0]
    assert tuple(re.findall(r'key: "(\w+)"', categories)) == TALLY_KEYS
    breakdown = text.split("export const BREAKDOWN")[1].split("];")[0]
    assert tuple(re.findall(r'key: "(\w+)"', breakdown)) == BREAKDOWN_KEYS


def test_the_boxes_colours_are_the_annotated_photos() -> None:
    """The page's box colours and the annotated JPEG's (vision.annotate) are one palette."""
    text = (WEB_DIR / "cards.js").read_text()
    categories = text.split("export const CATEGORIES")[1].split("];")[0]
    colours = dict(re.findall(r'key: "(\w+)".*?colour: "(#[0-9a-f]{6})"', categories))
    assert colours == PALETTE


def test_hand_sizes_and_round_limits_match_the_rules() -> None:
    text = (WEB_DIR / "cards.js").read_text()

    def table(name: str) -> dict[int, int]:
        body = re.search(rf"export const {name} = \{{([^}}]*)\}}", text)
        assert body, name
        return {int(k): int(v) for k, v in re.findall(r"(\d+):\s*(\d+)", body.group(1))}

    assert table("HAND_SIZE") == dict(HAND_SIZE)
    assert table("MAX_ROUNDS") == {players: max_rounds(players) for players in range(2, 6)}
    assert f"export const NAME_LENGTH = {MAX_NAME_LENGTH};" in text
