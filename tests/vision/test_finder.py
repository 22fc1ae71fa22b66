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


def test_the_first_shapes_are_compiled_for_and_every_other_shape_shares_one(
    onnxruntime_finder,
) -> None:
    network = FinderNetwork(model_info().detector)
    network.fixed_shapes = 2  # two compilations show the rule as well as the shipped four
    shapes = [(480, 640), (640, 480), (384, 640), (320, 416), (480, 640)]
    outputs = [network(_image(h, w, seed)) for seed, (h, w) in enumerate(shapes)]
    assert list(network._fixed) == [(1, 480, 640, 3), (1, 640, 480, 3)]
    assert network._dynamic is not None  # the third and fourth shapes ran on it
    for seed, ((h, w), ours) in enumerate(zip(shapes, outputs, strict=True)):
        np.testing.assert_allclose(ours, onnxruntime_finder(_image(h, w, seed)), atol=2e-3)
    np.testing.assert_array_equal(outputs[4], network(_image(480, 640, 4)))


def test_output_is_not_overwritten_by_the_next_call() -> None:
    network = FinderNetwork(model_info().detector)
    first = network(_image(480, 640, 0))
    kept = first.copy()
    network(_image(480, 640, 1))
    np.testing.assert_array_equal(first, kept)
