"""A phone's photo as the page sends it (api/web/photo.js), in a real headless Chromium: a
big photo goes as a JPEG of photo.js's LONG_SIDE px, turned upright as its EXIF tag said;
a small one, or one the browser cannot decode, goes as it came."""

from __future__ import annotations

import io
import re
from typing import Any

import cv2
import httpx
import numpy as np
import pytest
from PIL import Image

from api.main import WEB_DIR
from datasets.faces import FacePool
from datasets.scene import make_scene
from tests.vision.test_photo import encode
from tests.web.conftest import PHONE, TIMEOUT_MS, Server

pytestmark = pytest.mark.browser

# photo.js's own figure, so that the two cannot drift apart.
PHOTO_JS = (WEB_DIR / "photo.js").read_text()
LONG_SIDE = int(re.findall(r"export const LONG_SIDE = (\d+);", PHOTO_JS)[0])
ROTATE_90_CW = 6  # the EXIF orientation of a phone held upright: the pixels lie on their side


@pytest.fixture(scope="module")
def scene_image(table_deck: FacePool) -> np.ndarray:
    """A 12 MP table photo as a phone stores it (BGR), 4032 x 3024: its pixels lie as the
    sensor saw them, and its EXIF tag (ROTATE_90_CW in these tests) says how to show it."""
    scene = make_scene(np.random.default_rng(31), table_deck, size=4032)
    return cv2.rotate(scene.image, cv2.ROTATE_90_COUNTERCLOCKWISE)


def sent_photo(server: Server, browser: Any, data: bytes, name: str, mime: str) -> bytes:
    """The bytes the server stored after the page uploaded `data` as seat 1's photo."""
    created = httpx.post(f"{server.url}/api/v1/games", json={"players": ["Ana", "Ben"]})
    created.raise_for_status()
    game = created.json()
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(f"{server.url}/?game={game['id']}#edit={game['edit_token']}")
        page.get_by_test_id("file-1").set_input_files(
            {"name": name, "mimeType": mime, "buffer": data}
        )
        page.get_by_test_id("hand-check").wait_for()
    finally:
        context.close()
    collection = httpx.get(f"{server.url}/api/v1/games/{game['id']}/rounds/1/players/1")
    collection.raise_for_status()
    photo = collection.json()["photo"]
    image = httpx.get(f"{server.url}{photo['image_url']}")
    image.raise_for_status()
    return image.content


def decoded(data: bytes) -> tuple[np.ndarray, int]:
    """The stored photo's pixels as stored (BGR) and its EXIF orientation (1 when none)."""
    with Image.open(io.BytesIO(data)) as image:
        orientation = int(image.getexif().get(0x0112, 1))
        return cv2.cvtColor(np.asarray(image.convert("RGB")), cv2.COLOR_RGB2BGR), orientation


def test_a_big_photo_is_sent_smaller_and_upright(
    server: Server, browser: Any, scene_image: np.ndarray
) -> None:
    original = encode(scene_image, "JPEG", orientation=ROTATE_90_CW, quality=95)
    sent = sent_photo(server, browser, original, "IMG_0001.JPG", "image/jpeg")

    image, orientation = decoded(sent)
    assert scene_image.shape[:2] == (3024, 4032)
    assert image.shape[:2] == (LONG_SIDE, LONG_SIDE * 3 // 4)  # portrait, as the phone shows it
    assert orientation == 1  # the turn is in the pixels now, not in a tag
    assert len(sent) < len(original) / 2, (len(sent), len(original))
    # The same picture: the original turned as its tag says, at the same size.
    upright = cv2.rotate(scene_image, cv2.ROTATE_90_CLOCKWISE)
    expected = cv2.resize(upright, image.shape[1::-1], interpolation=cv2.INTER_AREA)
    error = np.abs(image.astype(np.int16) - expected.astype(np.int16)).mean()
    assert error < 3, error
    turned_wrong = cv2.resize(
        cv2.rotate(scene_image, cv2.ROTATE_90_COUNTERCLOCKWISE),
        image.shape[1::-1],
        interpolation=cv2.INTER_AREA,
    )
    assert np.abs(image.astype(np.int16) - turned_wrong.astype(np.int16)).mean() > 3 * error


def test_a_photo_small_already_is_sent_as_it_came(
    server: Server, browser: Any, scene_image: np.ndarray
) -> None:
    small = cv2.resize(scene_image, (1600, 1200), interpolation=cv2.INTER_AREA)
    original = encode(small, "JPEG", orientation=ROTATE_90_CW, quality=95)
    assert sent_photo(server, browser, original, "small.jpg", "image/jpeg") == original


def test_a_photo_the_browser_cannot_decode_is_sent_for_the_server_to_read(
    server: Server, browser: Any, scene_image: np.ndarray
) -> None:
    """HEIC: Chromium decodes none, the server does (pillow-heif)."""
    original = encode(scene_image, "HEIF", quality=60)
    assert sent_photo(server, browser, original, "IMG_0002.HEIC", "image/heic") == original
