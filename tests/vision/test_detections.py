"""The one detections type: its checks, and the stack check's probability carried along."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision.detections import Detections
from vision.labels import LABELS, label_id


def three() -> Detections:
    return Detections(
        [[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10]],
        [0.9, 0.8, 0.7],
        [label_id("egg"), label_id("tempura"), label_id("salmon")],
        [0.6, np.nan, 0.1],
    )


def test_the_stack_checks_probability_goes_wherever_the_boxes_go() -> None:
    found = three()
    np.testing.assert_allclose(found[[2, 0]].wasabi_under, [0.1, 0.6])
    np.testing.assert_allclose(found.scaled(4).wasabi_under, found.wasabi_under)
    assert found.scaled(4).xyxy[2, 2] == 200
    relabelled = found.relabelled(np.array([label_id("egg_on_wasabi"), 0, 0]))
    assert relabelled.labels[0] == "egg_on_wasabi"
    np.testing.assert_allclose(relabelled.wasabi_under, found.wasabi_under)
    merged = Detections.merge([found, Detections.from_records([
        {"label": "squid", "confidence": 0.5, "box": [60, 0, 70, 10]},
    ])])  # fmt: skip
    assert len(merged) == 4 and np.isnan(merged.wasabi_under[3])


def test_a_nigiris_doubt_goes_wherever_the_boxes_go_and_into_a_games_records() -> None:
    found = dataclasses.replace(three(), doubt=[0.2, np.nan, 0.05])
    np.testing.assert_allclose(found[[2, 0]].doubt, [0.05, 0.2])
    np.testing.assert_allclose(found.scaled(2).doubt, found.doubts)
    np.testing.assert_allclose(found.relabelled(found.class_id).doubt, found.doubts)
    merged = Detections.merge([found, three()])
    np.testing.assert_allclose(merged.doubts[[0, 2]], [0.2, 0.05])
    assert np.isnan(merged.doubts[[1, 3, 4, 5]]).all()
    stored = found.to_records(stored=True)
    assert [r.get("doubt") for r in stored] == [0.2, None, 0.05]
    np.testing.assert_allclose(Detections.from_records(stored).doubts, found.doubts)
    # The stack check's odds too: a strip-only stack is warned of in a game's review.
    checked = dataclasses.replace(found, wasabi_under=[np.nan, 0.3, np.nan])
    kept = checked.to_records(stored=True)
    assert [r.get("under") for r in kept] == [None, 0.3, None]
    np.testing.assert_allclose(Detections.from_records(kept).under, checked.under)
    assert all("under" not in r for r in checked.to_records())
    assert all("doubt" not in r for r in found.to_records())  # the contract's shape


def test_not_asked_is_nan_and_never_reaches_the_json() -> None:
    plain = Detections([[0, 0, 10, 10]], [0.9], [0])
    assert np.isnan(plain.wasabi_under).all()
    assert np.isnan(Detections.empty().wasabi_under).shape == (0,)
    assert set(three().to_records()[0]) == {"label", "confidence", "box", "left_out"}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"confidence": [0.9, 0.8]}, "confidence"),
        ({"class_id": [0, 1]}, "class_id"),
        ({"wasabi_under": [0.5, 0.5]}, "wasabi_under"),
        ({"doubt": [0.5, 0.5]}, "doubt"),
        ({"class_id": [len(LABELS)]}, "class_id"),
        ({"xyxy": [[10, 0, 0, 10]]}, "x2 >= x1"),
    ],
)
def test_inconsistent_detections_are_refused(kwargs: dict, message: str) -> None:
    fields = {"xyxy": [[0, 0, 10, 10]], "confidence": [0.9], "class_id": [0]} | kwargs
    with pytest.raises(ValueError, match=message):
        Detections(**fields)
