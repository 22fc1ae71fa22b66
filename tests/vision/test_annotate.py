"""Drawing a reading on its photo, and encoding the result."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.annotate import (
    COLOURS,
    _laid_out,
    _Style,
    annotate,
    encode_jpeg,
    left_out_tags,
    panel_layout,
    tag_places,
    tags,
    wrap,
)
from vision.detections import Detections
from vision.labels import LABELS, label_id
from vision.reading import read_tally


def detections(*rows: tuple[str, list[float], float]) -> Detections:
    return Detections(
        np.array([box for _, box, _ in rows], np.float32),
        np.array([p for _, _, p in rows], np.float32),
        np.array([label_id(label) for label, _, _ in rows]),
    )


def photo(height: int = 900, width: int = 1200) -> np.ndarray:
    return np.full((height, width, 3), 120, np.uint8)


# A wasabi strip above a salmon (a stack), and a tempura, well clear of the tally panel.
STACK_AND_TEMPURA = detections(
    ("wasabi", [500, 300, 689, 370], 0.9),
    ("salmon", [500, 366, 689, 630], 0.8),
    ("tempura", [800, 366, 989, 630], 0.42),
)


def changed(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    return np.any(before != after, axis=2)


def test_boxes_labels_and_panel_are_drawn() -> None:
    image = photo()
    original = image.copy()
    reading = read_tally(STACK_AND_TEMPURA, players=2)
    assert reading.tally.salmon_on_wasabi == 1 and reading.remarks
    drawn = annotate(image, reading)
    assert drawn.shape == image.shape and drawn.dtype == np.uint8
    np.testing.assert_array_equal(image, original)  # the input is left alone
    diff = changed(image, drawn)
    for x1, y1, x2, y2 in STACK_AND_TEMPURA.xyxy.astype(int):
        assert diff[y1 + 5 : y2 - 5, x1].any() and diff[y1 + 5 : y2 - 5, x2].any()  # sides
        assert diff[max(0, y1 - 30) : y1, x1:x2].any()  # the label tag above
    assert not diff[450:550, 850:950].any()  # the tempura itself stays visible
    assert diff[:30, :150].any()  # the tally panel, top left


def test_the_stack_link_is_drawn_between_centres() -> None:
    reading = read_tally(STACK_AND_TEMPURA)
    drawn = annotate(photo(), reading)
    link = np.all(drawn == (255, 0, 255), axis=2)
    # Along the line from the wasabi's centre (594, 335) to the salmon's (594, 498).
    assert link[370:490, 590:599].any(axis=1).all()


def test_each_kind_has_its_own_colour() -> None:
    assert len(COLOURS) == len(LABELS)
    assert len(set(COLOURS)) == len(LABELS)


def test_box_colour_follows_the_label() -> None:
    reading = read_tally(detections(("dumpling", [400, 300, 600, 600], 0.9)))
    drawn = annotate(photo(), reading)
    colour = COLOURS[label_id("dumpling")]
    assert np.all(drawn[450, 399:402] == colour, axis=1).any()


def test_empty_reading_draws_only_the_panel() -> None:
    image = photo()
    drawn = annotate(image, read_tally(Detections.empty()))
    assert drawn.shape == image.shape
    diff = changed(image, drawn)
    assert diff[:40, :200].any()
    assert not diff[300:, 300:].any()


@pytest.mark.parametrize(("height", "width"), [(48, 64), (3024, 4032), (4032, 3024)])
def test_any_image_size(height: int, width: int) -> None:
    scale = width / 1200
    reading = read_tally(STACK_AND_TEMPURA.scaled(scale), players=4)
    drawn = annotate(photo(height, width), reading)
    assert drawn.shape == (height, width, 3)


def test_lines_and_text_grow_with_the_image() -> None:
    """The panel covers about the same share of a big photo as of a small one."""
    reading = read_tally(STACK_AND_TEMPURA)
    shares = []
    for width in (800, 4000):
        image = photo(width * 3 // 4, width)
        drawn = annotate(image, read_tally(STACK_AND_TEMPURA.scaled(width / 1200)))
        rows = np.nonzero(changed(image, drawn)[:, : width // 10].any(axis=1))[0]
        shares.append(rows.max() / width)
    assert reading.cards == 3
    assert shares[1] == pytest.approx(shares[0], rel=0.35)


def test_boxes_partly_outside_the_image() -> None:
    reading = read_tally(detections(("pudding", [-50, -40, 300, 400], 0.7)))
    drawn = annotate(photo(200, 250), reading)
    assert drawn.shape == (200, 250, 3)


def test_grayscale_image_is_drawn_in_colour() -> None:
    drawn = annotate(np.full((300, 400), 100, np.uint8), read_tally(STACK_AND_TEMPURA.scaled(0.3)))
    assert drawn.shape == (300, 400, 3)


def test_encode_jpeg_round_trip() -> None:
    drawn = annotate(photo(), read_tally(STACK_AND_TEMPURA))
    data = encode_jpeg(drawn)
    assert data[:3] == b"\xff\xd8\xff"
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert decoded.shape == drawn.shape
    assert np.abs(decoded.astype(int) - drawn).mean() < 3
    assert len(encode_jpeg(drawn, quality=30)) < len(encode_jpeg(drawn, quality=95))


def test_encode_jpeg_refuses_a_bad_quality() -> None:
    with pytest.raises(ValueError, match="quality"):
        encode_jpeg(photo(), quality=0)


def test_the_panel_moves_off_cards_in_the_top_left_corner() -> None:
    image = photo()
    in_the_corner = detections(
        ("sashimi", [10, 10, 200, 270], 0.9), ("egg", [210, 10, 400, 270], 0.9)
    )
    drawn = annotate(image, read_tally(in_the_corner))
    darkened = np.all(drawn == 42, axis=2)  # the panel darkens the grey 120 to 42
    assert not darkened[:270, :400].any()  # the cards are not under the panel
    assert darkened[-40:, :].any() or darkened[:40, -200:].any()  # it went to a corner


def test_a_long_warning_is_wrapped_to_the_photo_not_cut() -> None:
    style = _Style(800)
    text = (
        "one squid nigiri read as plain, though it may lie on a wasabi whose top was not "
        "found: check whether a wasabi shows above it"
    )
    lines = wrap(text, style, 300)
    assert len(lines) >= 3
    assert all(style.text_size(line)[0] <= 300 for line in lines)
    assert all(line.startswith("  ") for line in lines[1:])
    assert " ".join(line.strip() for line in lines) == text  # every word, in order
    assert wrap("Tempura: 2", style, 300) == ["Tempura: 2"]


def many_warnings(count: int) -> list[tuple[str, tuple[int, int, int]]]:
    text = "one squid nigiri read as plain, though it may lie on a wasabi whose top was"
    return [(f"! {text} ({k})", (0, 0, 255)) for k in range(count)]


def test_many_warnings_on_a_small_photo_fit_in_smaller_text() -> None:
    """Every line of the panel lies inside the photo: the text shrinks to fit its height."""
    style = _Style(320)
    lines = [("9 cards", (255, 255, 255)), *many_warnings(30)]
    as_it_was = _laid_out(lines, 320, style)
    assert as_it_was.height > 240  # in the photo's own text size it would run off
    panel = panel_layout(lines, (240, 320), style)
    assert panel.style.text_scale < style.text_scale
    assert panel.height <= 240 and panel.width <= 320
    last_baseline = panel.style.pad + (len(panel.texts) - 1) * panel.line_h + panel.ascent
    assert last_baseline < panel.height
    assert all(panel.style.text_size(text)[0] <= 320 for text, _ in panel.texts)
    words = " ".join(text.strip() for text, _ in panel.texts)
    assert all(f"({k})" in words for k in range(30))  # no warning dropped


def test_a_panel_too_long_for_the_smallest_text_says_how_many_lines_it_left_out() -> None:
    style = _Style(320)
    lines = many_warnings(200)
    panel = panel_layout(lines, (240, 320), style)
    assert panel.height <= 240
    kept = len(panel.texts) - 1
    left_out = len(_laid_out(lines, 320, panel.style).texts) - kept
    assert panel.texts[-1][0] == f"... {left_out} more lines"


def test_tags_of_boxes_side_by_side_do_not_cover_each_other() -> None:
    """A lone wasabi's long tag ("Wasabi (no nigiri on it) 89%") would run over the tag
    of the card beside it on the same row: the lower one moves down inside its box."""
    row = detections(
        ("wasabi", [40, 260, 170, 410], 0.89),
        ("egg", [195, 236, 330, 410], 0.88),
        ("maki_2", [335, 236, 470, 410], 0.9),
    )
    labelled = tags(read_tally(row))
    style = _Style(1000)
    places = tag_places(labelled, style, (1000, 750))
    assert len(places) == 3
    for k, a in enumerate(places):
        for b in places[k + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    # The higher tags stay on their boxes' top edges, outside them.
    assert places[1][3] == 236 and places[2][3] == 236
    assert places[0][1] >= 260  # the wasabi's, inside its box
    drawn = annotate(photo(1000, 750), read_tally(row))
    assert drawn.shape == (1000, 750, 3)


def test_tags_with_no_room_to_move_stay_inside_the_photo() -> None:
    """In a photo too low to move a tag down, tags that meet stay in it, covering."""
    row = detections(("tempura", [40, 2, 170, 40], 0.9), ("sashimi", [100, 2, 300, 40], 0.9))
    places = tag_places(tags(read_tally(row)), _Style(1000), (40, 750))
    assert len(places) == 2
    assert all(
        0 <= top < bottom <= 40 and 0 <= left < right <= 750 for left, top, right, bottom in places
    )


def test_a_box_a_warning_points_at_asks_in_its_tag() -> None:
    """The tempura read at 42 % is warned of: its tag ends in "?", as on the review page,
    also where a box under the reading's floor came before it (the warning names boxes by
    their index in the detections read, the tags by theirs in the reading)."""
    reading = read_tally(STACK_AND_TEMPURA)
    assert [tag.text for tag in tags(reading)] == ["Salmon on wasabi 80%", "Tempura 42% ?"]
    unread = detections(("dumpling", [100, 366, 289, 630], 0.1))
    reading = read_tally(Detections.merge([unread, STACK_AND_TEMPURA]))
    assert [tag.text for tag in tags(reading)] == ["Salmon on wasabi 80%", "Tempura 42% ?"]


def test_a_tag_leaves_its_cards_top_left_icon_in_view() -> None:
    """A column's covered cards show their top strip; the top-left icon on it is what
    tells the look-alikes apart, so a tag that fits goes against the box's right edge."""
    column = detections(
        ("squid", [100, 200, 700, 260], 0.9),
        ("egg", [100, 258, 700, 318], 0.9),
        ("salmon", [100, 316, 700, 720], 0.9),
    )
    labelled = tags(read_tally(column))
    places = tag_places(labelled, _Style(1000), (1000, 900))
    for tag, (left, _, right, _) in zip(labelled, places, strict=True):
        x1, _, x2, _ = (float(v) for v in tag.box)
        assert right - left < (x2 - x1) / 2, tag.text  # it fits twice over
        assert right == round(x2) and left > x1 + (x2 - x1) / 3, (tag.text, left, right)


def test_cards_left_out_are_drawn_dashed_with_a_tag_saying_so() -> None:
    """A card left out as another player's: a dashed frame in its colour (gaps along each
    side), and a tag saying what it is and that it was left out."""
    left_out = detections(("tempura", [100, 300, 289, 564], 0.9))
    reading = read_tally(STACK_AND_TEMPURA)
    image = photo()
    without = annotate(image, reading)
    drawn = annotate(image, reading, left_out=left_out)
    frame = np.all(drawn == COLOURS[label_id("tempura")], axis=2) & changed(without, drawn)
    left_side = frame[320:540, 98:103].any(axis=1)
    assert 0.3 < left_side.mean() < 0.8  # dashes: drawn along part of the side, not all
    assert [tag.text for tag in left_out_tags(left_out)] == ["Tempura, left out"]
    assert changed(without, drawn)[270:300, 100:289].any()  # the tag, above the box
