"""Each box of a review says which box it makes one stack with (`stack_with`), as the
server's reading of the boxes found the stack: the wasabi strip and its nigiri point at
each other, whether the nigiri is a plain one on a counted wasabi or a box labelled as a
stack with its strip absorbed; every other box says null."""

from __future__ import annotations

from typing import Any

from tests.api.conftest import TWO_STACKS, FakeDetector, Table, make_photo

SIZE = (1000, 750)
BOXES = TWO_STACKS


def partners(draft: dict[str, Any]) -> dict[int, int | None]:
    return {box["id"]: box["stack_with"] for box in draft["detections"]}


def test_a_stacks_two_boxes_point_at_each_other(table: Table, detector: FakeDetector) -> None:
    detector.register(SIZE, BOXES)
    response = table.upload(1, 1, make_photo(SIZE, BOXES))
    assert response.status_code == 201, response.text
    draft = response.json()
    assert draft["tally"]["salmon_on_wasabi"] == 1 and draft["tally"]["squid_on_wasabi"] == 1
    assert draft["tally"]["wasabi"] == 0
    assert partners(draft) == {1: 2, 2: 1, 3: 4, 4: 3, 5: None, 6: None}
    counted = {box["id"]: box["counted"] for box in draft["detections"]}
    assert counted[3] is False and counted[1] is True  # the absorbed strip, the stack's own

    # Relabelled as a stack by a person, the salmon and its strip stay one.
    draft = table.correct(1, 1, action="relabel", detection=2, label="salmon_on_wasabi").json()
    assert draft["tally"]["salmon_on_wasabi"] == 1 and draft["tally"]["wasabi"] == 0
    assert partners(draft) == {1: 2, 2: 1, 3: 4, 4: 3, 5: None, 6: None}

    # Its strip deleted, the stack box stands alone; a plain nigiri has no partner.
    draft = table.correct(1, 1, action="delete", detection=1).json()
    assert partners(draft) == {2: None, 3: 4, 4: 3, 5: None, 6: None}
    draft = table.correct(1, 1, action="relabel", detection=2, label="salmon").json()
    assert draft["tally"]["salmon"] == 1
    assert partners(draft)[2] is None

    # A tempura relabelled as a wasabi far from any nigiri stays out of every stack.
    draft = table.correct(1, 1, action="relabel", detection=5, label="wasabi").json()
    assert draft["tally"]["wasabi"] == 1
    assert partners(draft) == {2: None, 3: 4, 4: 3, 5: None, 6: None}


def test_a_stack_box_relabelled_as_its_plain_nigiri_takes_its_strip_with_it(
    table: Table, detector: FakeDetector
) -> None:
    """The review screen's "No wasabi under it", for a box the detector labelled as a
    stack: the strip it absorbed would pair with the plain nigiri again and keep the
    stack, so it goes in the same step, and comes back with one undo."""
    detector.register(SIZE, BOXES)
    assert table.upload(1, 1, make_photo(SIZE, BOXES)).status_code == 201
    draft = table.correct(1, 1, action="relabel", detection=4, label="squid").json()
    assert draft["tally"]["squid"] == 1 and draft["tally"]["squid_on_wasabi"] == 0
    assert draft["tally"]["wasabi"] == 0  # the strip was the stack's, no card of its own
    assert partners(draft) == {1: 2, 2: 1, 4: None, 5: None, 6: None}
    undone = table.act(1, 1, "undo").json()
    assert undone["tally"]["squid_on_wasabi"] == 1 and undone["tally"]["squid"] == 0
    assert partners(undone) == {1: 2, 2: 1, 3: 4, 4: 3, 5: None, 6: None}

    # Relabelled as another stack it keeps its strip; a counted wasabi under a plain
    # nigiri is a card of its own, and stays when the nigiri is relabelled.
    draft = table.correct(1, 1, action="relabel", detection=4, label="egg_on_wasabi").json()
    assert partners(draft)[3] == 4 and draft["tally"]["egg_on_wasabi"] == 1
    draft = table.correct(1, 1, action="relabel", detection=2, label="tempura").json()
    assert 1 in partners(draft) and draft["tally"]["wasabi"] == 1
