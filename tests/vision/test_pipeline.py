"""A photo whose cards do not stand upright is read turned (vision/pipeline.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from benchmarks.probe_lamp import lamp_scenes, under_the_lamp
from datasets.faces import FacePool
from datasets.scene import make_scene
from scoring import Tally
from vision import pipeline
from vision.detections import Detections
from vision.detector import load_detector
from vision.labels import label_id
from vision.notices import NoticeCode
from vision.photo import (
    Photo,
    boxes_turned_back,
    card_slant,
    load_photo,
    turn_image,
    turned_file,
    turned_size,
)
from vision.pipeline import (
    ASKEW,
    SLANT_BEYOND,
    TURN_FLOOR,
    detect_photo,
    read_photo,
    read_settled,
)
from vision.reading import MIN_CONFIDENCE, Reading

WIDTH, HEIGHT = 120, 80


def photo_of(image: np.ndarray, scale: float = 2.0) -> Photo:
    height, width = image.shape[:2]
    return Photo(image, (round(width * scale), round(height * scale)), scale)


def marked_image() -> np.ndarray:
    """An image whose top-left corner is red: which way up it lies shows there."""
    image = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    image[:10, :10] = (0, 0, 255)
    return image


class UprightOnly:
    """Reads cards confidently only when the red corner is top left (upright); any other
    way up, it finds `turned_reading` (a confidence per box) in whatever image it gets."""

    def __init__(self, upright: float = 0.9, turned: tuple[float, ...] = (0.5, 0.4)) -> None:
        self.upright, self.turned, self.calls = upright, turned, 0

    def __call__(
        self, image: np.ndarray, size: int | None = None, conf: float | None = None
    ) -> Detections:
        self.calls += 1
        upright = image[2, 2, 2] == 255 and image[2, 2, 0] == 0
        scores = (self.upright,) * 3 if upright else self.turned
        boxes = [[10.0 * i, 20.0, 10.0 * i + 8, 30.0] for i in range(len(scores))]
        return Detections(np.array(boxes).reshape(-1, 4), np.array(scores), [0] * len(scores))


def test_turning_a_photo_turns_its_image_and_size_and_adds_up() -> None:
    photo = photo_of(marked_image())
    quarter = photo.turned(90)
    assert quarter.image.shape == (WIDTH, HEIGHT, 3)
    assert quarter.original_size == (2 * HEIGHT, 2 * WIDTH) and quarter.turn == 90
    assert quarter.image[2, -3, 2] == 255  # the top-left corner went top right
    back = quarter.turned(270)
    assert back.turn == 0 and back.original_size == photo.original_size
    np.testing.assert_array_equal(back.image, photo.image)
    assert photo.turned(360) is photo
    with pytest.raises(ValueError, match="turn"):
        Photo(photo.image, photo.original_size, 1.0, turn=360)


def test_a_photo_turned_at_a_slant_grows_its_canvas_to_hold_all_of_it() -> None:
    photo = photo_of(marked_image())
    slanted = photo.turned(30)
    grown = turned_size((WIDTH, HEIGHT), 30)
    assert grown == (round(WIDTH * 0.866 + HEIGHT * 0.5), round(WIDTH * 0.5 + HEIGHT * 0.866))
    assert slanted.image.shape[:2] == grown[::-1] and slanted.turn == 30
    assert slanted.original_size == turned_size(photo.original_size, 30)
    assert slanted.turned(330).turn == 0
    # Nothing is cut off: the red corner is still there, turned.
    assert (slanted.image[..., 2] == 255).sum() >= 0.8 * 100


def cards_at(angle: int) -> np.ndarray:
    """Three white cards in a row on a grey table, turned `angle` degrees clockwise."""
    image = np.full((600, 800, 3), 90, np.uint8)
    for i in range(3):
        cv2.rectangle(image, (100 + 200 * i, 150), (226 + 200 * i, 326), (240, 240, 240), -1)
        cv2.rectangle(image, (110 + 200 * i, 160), (216 + 200 * i, 190), (40, 80, 200), -1)
    return turn_image(image, angle % 360)


@pytest.mark.parametrize("angle", [-40, -25, -8, 0, 12, 30, 44])
def test_card_slant_is_the_turn_that_stands_the_cards_straight(angle: int) -> None:
    image = cards_at(angle)
    assert card_slant(image, np.zeros((0, 4))) == pytest.approx(-angle, abs=1.0)
    # Judged inside the boxes found: stripes outside them (a tablecloth) do not count.
    height, width = image.shape[:2]
    for k in range(0, 140, 14):
        cv2.line(image, (0, 140 - k), (140 - k, 0), (255, 255, 255), 4)
    inside = np.array([[150, 150, width - 150, height - 150]], float)
    assert card_slant(image, inside) == pytest.approx(-angle, abs=1.0)
    assert abs(card_slant(image[:140, :140], np.zeros((0, 4)))) == pytest.approx(45, abs=1.0)


def card_boxes(image: np.ndarray) -> np.ndarray:
    """The boxes of the white cards of `cards_at`, in their row's order."""
    white = (cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) > 165).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(white)
    boxes = [[x, y, x + w, y + h] for x, y, w, h, area in stats[1:count] if area > 500]
    return in_a_row(np.array(boxes, float))


def in_a_row(boxes: np.ndarray) -> np.ndarray:
    """Boxes of cards 200 px apart along a row, whichever way it runs, in its order."""
    return boxes[np.argsort(boxes.sum(1))]


@pytest.mark.parametrize("angle", [90, 180, 270, 30, -25])
def test_boxes_found_in_a_photo_turned_straight_are_turned_back_to_the_photos_own(
    angle: int,
) -> None:
    image = cards_at(angle)  # cards lying `angle` degrees off straight
    height, width = image.shape[:2]
    straight = turn_image(image, -angle % 360)
    found = card_boxes(straight)
    back = boxes_turned_back(found, (width, height), -angle % 360)
    np.testing.assert_allclose(in_a_row(back), card_boxes(image), atol=3)
    assert boxes_turned_back(found, (width, height), 0) is not found


class StraightOnly:
    """Reads cards confidently only where they stand straight in the image it gets."""

    def __init__(self) -> None:
        self.calls = 0
        self.shapes: list[tuple[int, ...]] = []

    def __call__(
        self, image: np.ndarray, size: int | None = None, conf: float | None = None
    ) -> Detections:
        self.calls += 1
        self.shapes.append(image.shape[:2])
        straight = abs(card_slant(image, np.zeros((0, 4)))) < 3
        scores = [0.9, 0.9, 0.9] if straight else [0.6, 0.6, 0.6]
        boxes = [[100.0 + 200 * i, 150, 226 + 200 * i, 326] for i in range(3)]
        return Detections(np.array(boxes), np.array(scores), [0, 0, 0])


def test_cards_at_a_slant_are_read_turned_straight() -> None:
    detector = StraightOnly()
    seen, detections = detect_photo(photo_of(cards_at(30)), detector)
    assert seen.turn == 330  # turned back 30 degrees: anticlockwise
    np.testing.assert_allclose(detections.confidence, 0.9)
    assert detector.calls == 1 + 3 + 1  # as found and its quarter turns, then straight
    settled = read_settled(photo_of(cards_at(30)), StraightOnly())
    reading = settled.reading
    assert reading.to_json()["turned"] == 330
    assert reading.note_texts == [
        "the photo was read turned 30° anticlockwise: its cards lay at a slant"
    ]
    assert reading.warning_texts == []  # a note: the reviewer is not asked to check the turn
    assert settled.notices == reading.remarks  # what the reviewer is told, the turn too
    assert read_photo(photo_of(cards_at(30)), StraightOnly()).to_json() == reading.to_json()


def test_cards_nearly_straight_are_not_tried_at_a_slant() -> None:
    detector = StraightOnly()
    image = cards_at(SLANT_BEYOND - 3)
    seen, _ = detect_photo(photo_of(image), detector)
    height, width = image.shape[:2]
    assert seen.turn == 0
    assert turned_size((width, height), SLANT_BEYOND - 3)[::-1] not in detector.shapes


def test_an_empty_table_is_not_turned_by_the_slant_of_its_grain() -> None:
    table = np.full((600, 800, 3), 120, np.uint8)
    for k in range(-800, 1600, 40):
        cv2.line(table, (k, 0), (k + 600, 600), (60, 90, 140), 8)  # grain at 45 degrees

    def nothing(image: np.ndarray) -> Detections:
        return Detections.empty()

    assert abs(card_slant(table, np.zeros((0, 4)))) > SLANT_BEYOND
    seen, detections = detect_photo(photo_of(table), nothing)
    assert seen.turn == 0 and len(detections) == 0


@pytest.mark.parametrize("confidence", [0.9, TURN_FLOOR - 0.01])
def test_a_photo_where_nothing_is_found_is_read_once_more_turned_askew(
    confidence: float,
) -> None:
    """After the whole photo, its four tiles and its three quarter turns, one turn askew
    (with its own quarter turns): an empty table is looked at 12 times."""
    table = np.full((600, 800, 3), 120, np.uint8)  # no edge: no slant to go by
    askew_shape = turned_size((800, 600), ASKEW)[::-1]
    shapes: list[tuple[int, ...]] = []

    def only_askew(image: np.ndarray) -> Detections:
        shapes.append(image.shape[:2])
        if image.shape[:2] != askew_shape:
            return Detections.empty()
        return Detections(np.array([[10.0, 10, 100, 140]]), np.array([confidence]), [0])

    seen, detections = detect_photo(photo_of(table), only_askew)
    if confidence >= TURN_FLOOR:
        assert seen.turn == ASKEW and len(detections) == 1
        assert len(shapes) == 9, shapes  # and askew confident: no quarters of it
    else:  # a faint find on an empty table is not worth turning the photo for
        assert seen.turn == 0 and len(detections) == 0
        assert len(shapes) == 12, shapes
    assert shapes[8] == askew_shape and askew_shape not in shapes[:8]


@pytest.mark.parametrize(
    ("as_it_lies", "askew", "kept"),
    [
        (0.3, 0.9, True),  # a few faint finds; turned askew, all of them clearly
        (0.3, TURN_FLOOR - 0.01, False),  # askew no reading to trust either
        (0.6, 0.61, False),  # askew hardly better
    ],
)
def test_a_photo_read_without_confidence_is_read_once_more_turned_askew(
    as_it_lies: float, askew: float, kept: bool
) -> None:
    # Cards upside down at 45 degrees on a striped cloth: the stripes decided the slant
    # (photo.card_slant), and as it lay the finder saw 2 of 7 cards, at 0.3 and 0.43.
    table = marked_image()
    askew_shape = turned_size((WIDTH, HEIGHT), ASKEW)[::-1]

    def faint_unless_askew(image: np.ndarray) -> Detections:
        if image.shape[:2] == askew_shape:
            return Detections(np.array([[10.0, 10, 30, 40]] * 3), np.array([askew] * 3), [0] * 3)
        if image.shape[:2] == (HEIGHT, WIDTH) and image[2, 2, 2] == 255:  # as it lies
            return Detections(np.array([[40.0, 30, 70, 70]]), np.array([as_it_lies]), [0])
        return Detections.empty()

    seen, detections = detect_photo(photo_of(table), faint_unless_askew)
    assert seen.turn == (ASKEW if kept else 0)
    np.testing.assert_allclose(detections.confidence, askew if kept else as_it_lies)


def test_a_confident_reading_is_not_tried_askew() -> None:
    shapes: list[tuple[int, ...]] = []

    def confident(image: np.ndarray) -> Detections:
        shapes.append(image.shape[:2])
        return Detections(np.array([[10.0, 10, 30, 40]]), np.array([TURN_FLOOR + 0.01]), [0])

    detect_photo(photo_of(np.full((HEIGHT, WIDTH, 3), 120, np.uint8)), confident)
    assert turned_size((WIDTH, HEIGHT), ASKEW)[::-1] not in shapes


class FindsWhatIsLargeEnough:
    """Finds the bright card of an image only where it fills 2 % of it or more: as the
    finder misses a small collection in a big frame."""

    def __init__(self, confidence: float) -> None:
        self.confidence = confidence

    def __call__(
        self, image: np.ndarray, size: int | None = None, conf: float | None = None
    ) -> Detections:
        ys, xs = np.nonzero(image[..., 0] > 200)
        if len(xs) < 0.02 * image.shape[0] * image.shape[1]:
            return Detections.empty()
        box = [[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]]
        return Detections(np.array(box, float), np.array([self.confidence]), [0])


@pytest.mark.parametrize("confidence", [0.9, TURN_FLOOR - 0.01])
def test_a_small_collection_found_only_tile_by_tile_is_read_on_its_region(
    confidence: float,
) -> None:
    table = np.full((600, 800, 3), 120, np.uint8)
    table[40:100, 50:140] = 255  # 1.1 % of the photo, 3 % of its top-left tile
    seen, detections = detect_photo(photo_of(table), FindsWhatIsLargeEnough(confidence))
    assert seen.turn == 0
    if confidence >= TURN_FLOOR:
        np.testing.assert_allclose(detections.xyxy, [[100, 80, 280, 200]])  # scale 2
    else:
        assert len(detections) == 0


def test_a_slant_that_reads_less_confidently_is_not_kept() -> None:
    class SlantedBest(StraightOnly):
        def __call__(
            self, image: np.ndarray, size: int | None = None, conf: float | None = None
        ) -> Detections:
            found = super().__call__(image)
            return Detections(found.xyxy, 1.5 - found.confidence, found.class_id)

    seen, detections = detect_photo(photo_of(cards_at(30)), SlantedBest())
    assert seen.turn == 0
    np.testing.assert_allclose(detections.confidence, 0.9)


@pytest.mark.parametrize("quarters", [1, 2, 3])
def test_a_photo_whose_cards_are_not_upright_is_read_turned_back(quarters: int) -> None:
    image = turn_image(marked_image(), 90 * quarters)  # as the phone's tag left it
    detector = UprightOnly()
    seen, detections, told = pipeline.look_at(photo_of(image), detector)
    assert seen.turn == (360 - 90 * quarters) % 360
    assert told == []  # the same cards, found sideways, are none lost
    assert seen.image[2, 2, 2] == 255  # upright again
    assert detector.calls == 4  # as found, then the three other turns
    np.testing.assert_allclose(detections.confidence, 0.9)
    assert detections.xyxy[0, 2] == 8 * seen.scale  # boxes in the original pixels


class NeighbourSideways:
    """As the photo came (its red corner top left): this player's three cards upright, at
    0.9, and two of the next player's, lying a quarter turn from them, at 0.3. Turned a
    quarter clockwise, the next player's four stand upright, at 0.9, elsewhere in the
    photo, and this player's are not found; turned any other way, nothing."""

    def __call__(
        self, image: np.ndarray, size: int | None = None, conf: float | None = None
    ) -> Detections:
        def red(y: int, x: int) -> bool:
            return bool(image[y, x, 2] == 255 and image[y, x, 0] == 0)

        if red(2, 2):
            boxes = [[10, 20, 18, 30], [20, 20, 28, 30], [30, 20, 38, 30]]
            boxes += [[60, 40, 70, 50], [80, 40, 90, 50]]
            scores = [0.9, 0.9, 0.9, 0.3, 0.3]
        elif red(2, image.shape[1] - 3):
            boxes = [[50, 90, 58, 100], [60, 90, 68, 100], [50, 104, 58, 114]]
            boxes += [[60, 104, 68, 114]]
            scores = [0.9] * 4
        else:
            boxes, scores = [], []
        found = np.array(boxes, np.float32).reshape(-1, 4)
        return Detections(found, np.array(scores), [label_id("tempura")] * len(scores))


def test_a_turn_that_loses_cards_found_sure_as_the_photo_came_is_not_kept() -> None:
    """The next player's collection, lying a quarter turn from this one's, had been read
    upright in its place: the hand could add up, and nothing said so. The photo is read as
    it came, and the cards the turn would have read are named as not counted."""
    photo = photo_of(marked_image())
    seen, detections, told = pipeline.look_at(photo, NeighbourSideways())
    assert seen.turn == 0 and len(detections) == 5  # as it came: the 0.3 ones too
    np.testing.assert_allclose(detections.xyxy[0], [20, 40, 36, 60])  # original pixels
    assert [n.code for n in told] == [NoticeCode.TURNED_AWAY]
    reading = read_photo(photo, NeighbourSideways())
    assert reading.turn == 0 and reading.cards == 5
    assert reading.warning_texts[-1:] == [  # after "too small": a test's photo is tiny
        "4 cards lying another way (tempura, tempura, tempura, tempura) are not counted: "
        "if they are this player's, take the photo again with this player's cards upright"
    ]


def test_a_turn_that_loses_one_card_found_sure_is_kept() -> None:
    """One card lost (LOST_AT_LEAST is two) is a box the turned reading merely placed
    otherwise: the turn stands, and nothing is said."""

    class OneLost(NeighbourSideways):
        def __call__(
            self, image: np.ndarray, size: int | None = None, conf: float | None = None
        ) -> Detections:
            found = super().__call__(image, size, conf)
            if image[2, 2, 2] == 255 and image[2, 2, 0] == 0:  # as it came: one sure card
                return Detections(found.xyxy[2:], found.confidence[2:], found.class_id[2:])
            return found

    seen, detections, told = pipeline.look_at(photo_of(marked_image()), OneLost())
    assert seen.turn == 90 and len(detections) == 4 and told == []


def test_a_confident_reading_is_never_turned_nor_tried_turned() -> None:
    detector = UprightOnly()
    seen, _ = detect_photo(photo_of(marked_image()), detector)
    assert seen.turn == 0 and detector.calls == 1


@pytest.mark.parametrize(
    ("upright", "turned"),
    [
        (0.75, (0.76,)),  # better, but by less than the margin
        (0.0, (TURN_FLOOR - 0.05,) * 9),  # nothing upright, and little sideways
        (0.75, (0.8,)),  # surer, but one card sideways against three upright
    ],
)
def test_a_turn_must_read_clearly_better_and_well_to_be_kept(
    upright: float, turned: tuple[float, ...]
) -> None:
    # The upright image gets `upright` (no boxes at 0), every turned one `turned`.
    class Doubtful(UprightOnly):
        def __call__(
            self, image: np.ndarray, size: int | None = None, conf: float | None = None
        ) -> Detections:
            found = super().__call__(image)
            if self.calls == 1:
                n = 3 if upright else 0
                return Detections(found.xyxy[:n], np.full(n, upright), found.class_id[:n])
            return found

    seen, _ = detect_photo(photo_of(marked_image()), Doubtful(turned=turned))
    assert seen.turn == 0


def test_turned_file_keeps_every_pixel_of_the_photo_turned() -> None:
    image = np.zeros((300, 400, 3), np.uint8)
    image[:40, :60] = (0, 0, 255)
    ok, encoded = cv2.imencode(".png", image)
    assert ok
    turned = load_photo(turned_file(encoded.tobytes(), 90))
    assert turned.image.shape == (400, 300, 3) and turned.scale == 1.0
    assert turned.image[5, -5, 2] > 200 and turned.image[5, 5, 2] < 50


def test_turned_file_turns_a_photo_after_its_exif_orientation() -> None:
    import io

    from PIL import Image

    upright = np.zeros((300, 400, 3), np.uint8)
    upright[:40, :60] = (0, 0, 255)  # red, top left once upright
    stored = np.ascontiguousarray(np.rot90(upright, 1))  # tag 6: turn 90° clockwise to show
    exif = Image.Exif()
    exif[0x0112] = 6
    buffer = io.BytesIO()
    Image.fromarray(stored[..., ::-1]).save(buffer, format="JPEG", quality=95, exif=exif)
    turned = load_photo(turned_file(buffer.getvalue(), 180))  # then upside down
    assert turned.image.shape == (300, 400, 3)
    assert turned.image[-5, -5, 2] > 200 and turned.image[5, 5, 2] < 50


@pytest.fixture(scope="module")
def scene(printed_deck: FacePool) -> object:
    rng = np.random.default_rng(24_680)  # a seed no training set uses
    return make_scene(rng, printed_deck, size=1280)


@pytest.mark.parametrize("quarters", [1, 2])
def test_the_shipped_detector_reads_a_turned_photo_as_the_upright_one(
    scene: object, quarters: int
) -> None:
    detector = load_detector()
    upright = read_photo(load_photo(scene.jpeg), detector)
    assert upright.turn == 0
    image = turn_image(cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), 1), 90 * quarters)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    reading = read_photo(load_photo(encoded.tobytes()), detector)
    assert reading.turn == 360 - 90 * quarters
    assert reading.tally == upright.tally == Tally.from_mapping(scene.tally())
    assert any("read turned" in note for note in reading.note_texts)
    assert reading.warning_texts == upright.warning_texts  # no card lost in the turn
    assert reading.to_json()["turned"] == 360 - 90 * quarters


def test_the_shipped_detector_reads_photos_taken_at_a_slant_to_the_cards(
    monkeypatch: pytest.MonkeyPatch,
    printed_deck: FacePool,
) -> None:
    """Rows of cards photographed 40 or 45 degrees off square (and 135: off square and
    upside down): read as upright photos are, and no worse than without the slant. (The
    made-up deck's finder read most of them wrong without it; the printed deck's reads
    all six either way, the one at 135 degrees by the askew look.) One of six may be read
    wrong, and must then say so beyond the note that it was turned."""
    detector = load_detector()
    faces = printed_deck
    photos = []
    for seed in (24_682, 24_683):  # seeds no training set uses
        scene = make_scene(np.random.default_rng(seed), faces, size=1280, style="rows")
        upright = cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), 1)
        for angle in (40, -45, 135):
            image = turn_image(upright, angle % 360)
            ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])
            assert ok
            photos.append((load_photo(encoded.tobytes()), Tally.from_mapping(scene.tally())))
    readings = [read_photo(photo, detector) for photo, _ in photos]
    right = [r.tally == tally for r, (_, tally) in zip(readings, photos, strict=True)]
    assert sum(right) >= 5, right
    # Each is read turned, and says so: at a slant, or (seed 24682 at 135 degrees, read
    # right) a quarter turn off, "on their side".
    assert all("the photo was read turned" in r.note_texts[-1] for r in readings)
    assert sum("at a slant" in r.note_texts[-1] for r in readings) >= 5
    # One read wrong must say so beyond the note that it was turned. The shipped weights
    # read all six right (twenty-eighth session: seed 24683 at 135 degrees, once an egg
    # read as on a wasabi and unwarned, now reads right at a 135-degree turn).
    right_or_warned = [ok or bool(r.warning_texts) for ok, r in zip(right, readings, strict=True)]
    assert all(right_or_warned), right_or_warned
    monkeypatch.setattr(pipeline, "SLANT_BEYOND", 90.0)
    unslanted = [read_photo(photo, detector).tally == tally for photo, tally in photos]
    assert sum(right) >= sum(unslanted), (right, unslanted)


# --- light of another colour: no white balance, the networks learnt coloured light ---------


@pytest.fixture(scope="module")
def scenes(printed_deck: FacePool) -> list:
    return lamp_scenes(printed_deck)


def test_the_shipped_detector_reads_photos_under_a_lamps_warm_light(scenes: list) -> None:
    detector = load_detector()
    exact = 0
    for scene in scenes:
        photo = under_the_lamp(load_photo(scene.jpeg))
        exact += read_photo(photo, detector).tally == Tally.from_mapping(scene.tally())
    # All but one: the shipped weights read 10 of these 10 in plain light and 9 under the
    # lamp, without the player count (benchmarks/probe_lamp.py).
    assert exact >= len(scenes) - 1, f"{exact}/{len(scenes)}"


class ShortSighted:
    """Finds `first` cards in a row as a photo is read, and `closer` when asked for one
    look at a size among `sizes` (default: every closer look's; in whatever image)."""

    def __init__(self, first: int, closer: int, sizes: tuple[int, ...] = ()) -> None:
        self.first, self.closer, self.sizes = first, closer, []
        self.closer_sizes = sizes or pipeline.CLOSER_SIZES

    def __call__(
        self, image: np.ndarray, size: int | None = None, conf: float | None = None
    ) -> Detections:
        self.sizes.append(size)
        count = self.closer if size in self.closer_sizes else self.first
        boxes = [[10.0 + 60 * i, 20.0, 60.0 + 60 * i, 90.0] for i in range(count)]
        return Detections(np.array(boxes).reshape(-1, 4), np.full(count, 0.9), [0] * count)


def table() -> Photo:
    return photo_of(np.full((300, 600, 3), 90, np.uint8))


@pytest.mark.parametrize("first", [6, 8])
def test_a_short_or_long_hand_is_looked_at_closer_and_kept_where_that_makes_it_right(
    first: int,
) -> None:
    detector = ShortSighted(first=first, closer=7)  # 5 players: a hand of 7
    reading = read_photo(table(), detector, players=5)
    assert detector.sizes[-1:] == [pipeline.CLOSER_SIZES[0]]  # the first look that did
    assert reading.cards == 7 and reading.tally.tempura == 7
    assert [w.code for w in reading.notices] == [NoticeCode.LOOKED_CLOSER]
    # A note: the hand it made right is checked by the card count all the same.
    assert reading.note_texts == [
        f"the photo was looked at closer to find the hand's 7 cards ({first} were found at first)"
    ]
    assert reading.warning_texts == []
    assert not reading.problems  # the hand is right now
    # The closer look's boxes are in the photo's original pixels, like the first look's.
    assert reading.detections.xyxy.max() <= 2 * 600


def test_the_closer_looks_go_on_until_one_makes_the_hand_right() -> None:
    last = pipeline.CLOSER_SIZES[-1]
    detector = ShortSighted(first=6, closer=7, sizes=(last,))
    reading = read_photo(table(), detector, players=5)
    assert reading.cards == 7 and detector.sizes[-len(pipeline.CLOSER_SIZES) :] == list(
        pipeline.CLOSER_SIZES
    )


@pytest.mark.parametrize("closer", [6, 8])
def test_a_closer_look_that_does_not_make_the_hand_right_is_dropped(closer: int) -> None:
    reading = read_photo(table(), ShortSighted(first=6, closer=closer), players=5)
    assert reading.cards == 6 and NoticeCode.LOOKED_CLOSER not in codes(reading)
    assert [p.code for p in reading.problems] == ["too_few_cards"]


def test_without_the_player_count_or_with_the_hand_right_there_is_no_closer_look() -> None:
    for players, first in ((None, 6), (None, 8), (5, 7), (2, 10)):
        detector = ShortSighted(first=first, closer=first + 1)
        read_photo(table(), detector, players=players)
        assert not set(pipeline.CLOSER_SIZES) & set(detector.sizes)


class MissedACard:
    """Finds 4 cards, an egg the stack check called on a wasabi (0.97) and a salmon it did
    not (0.1) in a row as a photo is read; with `missed`, a closer look also finds the
    dumpling the first look missed at the row's end."""

    def __init__(self, missed: bool) -> None:
        self.missed = missed
        self.cards = ("tempura", "tempura", "sashimi", "dumpling", "egg", "salmon", "dumpling")
        self.under = {"egg": 0.97, "salmon": 0.1}

    def __call__(
        self, image: np.ndarray, size: int | None = None, conf: float | None = None
    ) -> Detections:
        count = 7 if self.missed and size in pipeline.CLOSER_SIZES else 6
        cards = self.cards[:count]
        boxes = [[10.0 + 60 * i, 20.0, 60.0 + 60 * i, 90.0] for i in range(count)]
        under = [self.under.get(card, np.nan) for card in cards]
        class_id = [label_id(card) for card in cards]
        return Detections(np.array(boxes), np.full(count, 0.9), class_id, under)


def test_a_hand_one_short_looks_for_a_missed_card_before_it_reads_a_nigiri_on_a_wasabi() -> None:
    """Five players hold 7 cards; 6 are found. The egg the check called on a wasabi would
    make 7 as a stack, and so would the dumpling a closer look finds: the card is looked
    for first (benchmarks/probe_read_back.py), and the egg stays plain."""
    reading = read_photo(table(), MissedACard(missed=True), players=5)
    assert reading.cards == 7 and reading.tally.egg == 1 and reading.tally.dumpling == 2
    assert reading.tally.egg_on_wasabi == 0
    assert codes(reading) == [NoticeCode.LOOKED_CLOSER]


def test_a_hand_one_short_where_no_card_was_missed_reads_the_nigiri_on_its_wasabi() -> None:
    reading = read_photo(table(), MissedACard(missed=False), players=5)
    assert reading.cards == 7 and reading.tally.egg_on_wasabi == 1 and reading.tally.egg == 0
    assert codes(reading) == [NoticeCode.READ_ON_WASABI]


class Doubting:
    """Finds `first` cards in a row (at any size), and with a lower threshold asked, also a
    box shifted a little off the first card (the same card) and `doubtful` cards more in a
    second row, each scored under the finder's threshold."""

    def __init__(self, first: int, doubtful: int) -> None:
        self.first, self.doubtful, self.asked = first, doubtful, []

    def __call__(
        self, image: np.ndarray, size: int | None = None, conf: float | None = None
    ) -> Detections:
        self.asked.append(conf)
        boxes = [[10.0 + 60 * i, 20.0, 60.0 + 60 * i, 90.0] for i in range(self.first)]
        scores = [0.9] * self.first
        if conf is not None:
            boxes.append([20.0, 25.0, 70.0, 95.0])  # the first card again, more likely
            boxes += [[10.0 + 60 * i, 120.0, 60.0 + 60 * i, 190.0] for i in range(self.doubtful)]
            scores += [0.2] + [0.1] * self.doubtful
        return Detections(np.array(boxes).reshape(-1, 4), scores, [0] * len(boxes))


def test_a_hand_still_short_takes_the_boxes_the_finder_doubted_where_they_make_it_right() -> None:
    detector = Doubting(first=6, doubtful=1)  # 5 players: a hand of 7
    reading = read_photo(table(), detector, players=5)
    assert detector.asked[-1] == pipeline.DOUBTFUL_CONF
    assert reading.cards == 7 and reading.tally.tempura == 7 and not reading.problems
    assert codes(reading)[-1] == NoticeCode.DOUBTFUL_CARDS
    assert "1 card boxed only because the hand was short (tempura)" in reading.warning_texts[-1]
    # The box on the first card found is not a card more, however likely the finder said.
    assert (reading.detections.xyxy[:, 1] == 25.0).sum() == 0
    # The notice names the box it took, for a game to mark it: the one read at the floor.
    settled = read_settled(table(), Doubting(first=6, doubtful=1), players=5)
    (taken,) = settled.notices[-1].boxes
    assert settled.detections.confidence[taken] == pytest.approx(MIN_CONFIDENCE)
    assert (settled.detections.confidence == settled.detections.confidence[taken]).sum() == 1


class MergedStrip:
    """Finds 6 cards in a row, the first boxed with the strip of a card it covers (one box
    a strip taller than a card), and with a lower threshold asked, that strip too."""

    def __call__(
        self, image: np.ndarray, size: int | None = None, conf: float | None = None
    ) -> Detections:
        boxes = [[10.0 + 60 * i, 20.0, 60.0 + 60 * i, 90.0] for i in range(6)]
        boxes[0] = [10.0, 20.0, 60.0, 110.0]  # the strip (20-40) and the card under it
        scores = [0.9] * 6
        if conf is not None:
            boxes.append([10.0, 20.0, 60.0, 40.0])
            scores.append(0.1)
        return Detections(np.array(boxes), scores, [0] * len(boxes))


def test_a_doubted_strip_atop_a_box_a_card_too_tall_is_a_card_and_the_box_is_cut_below_it() -> None:
    reading = read_photo(table(), MergedStrip(), players=5)
    assert reading.cards == 7 and codes(reading)[-1] == NoticeCode.DOUBTFUL_CARDS
    # The photo was decoded at half size: boxes in its original pixels, twice as large.
    boxes = reading.detections.xyxy.tolist()
    assert [20.0, 80.0, 120.0, 220.0] in boxes and [20.0, 40.0, 120.0, 80.0] in boxes


@pytest.mark.parametrize("first, doubtful", [(5, 1), (8, 2)])
def test_doubted_boxes_that_do_not_make_the_hand_right_are_dropped(
    first: int, doubtful: int
) -> None:
    reading = read_photo(table(), Doubting(first=first, doubtful=doubtful), players=5)
    assert reading.cards == first and NoticeCode.DOUBTFUL_CARDS not in codes(reading)
    assert [p.code for p in reading.problems] == [
        "too_few_cards" if first < 7 else "too_many_cards"
    ]


def codes(reading: Reading) -> list[str]:
    return [w.code for w in reading.remarks]
