"""The finder under OpenVINO: the network's raw output for each input shape, from one
compilation."""

from __future__ import annotations

import numpy as np
import pytest

from vision.classifier import to_input
from vision.detector import model_info
from vision.finder import FinderNetwork


@pytest.fixture(scope="module")
def onnxruntime_finder():  # the reference: the same ONNX file under onnxruntime
    import onnxruntime as ort

    session = ort.InferenceSession(str(model_info().detector), providers=["CPUExecutionProvider"])
    return lambda image: session.run(None, {session.get_inputs()[0].name: to_input(image)})[0]


def _image(height: int, width: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (1, height, width, 3), dtype=np.uint8)


def test_raw_output_equals_onnxruntime_for_each_shape(onnxruntime_finder) -> None:
    network = FinderNetwork(model_info().detector)
    assert network.stride == 32
    for seed, (height, width) in enumerate([(480, 640), (640, 480), (384, 640)]):
        image = _image(height, width, seed)
        ours, theirs = network(image), onnxruntime_finder(image)
        assert ours.shape == theirs.shape == (1, theirs.shape[1], height * width * 21 // 1024)
        # Box coordinates are in input pixels, scores in [0, 1]: f32 both ways.
        np.testing.assert_allclose(ours, theirs, atol=2e-3)


def test_one_compilation_serves_every_shape_and_a_shape_seen_before_reads_the_same() -> None:
    network = FinderNetwork(model_info().detector)
    first = _image(480, 640, 0)
    before = network(first)
    compiled = network._request
    network(_image(640, 480, 1))
    network(_image(384, 640, 2))
    np.testing.assert_array_equal(network(first), before)
    assert network._request is compiled


def test_output_is_not_overwritten_by_the_next_call() -> None:
    network = FinderNetwork(model_info().detector)
    first = network(_image(480, 640, 0))
    kept = first.copy()
    network(_image(480, 640, 1))
    np.testing.assert_array_equal(first, kept)
