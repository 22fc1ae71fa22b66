"""The card finder's network under OpenVINO: compiled for the shapes a table sends most, and
once for every other shape.

OpenVINO for this one network because the finder is most of a photo's time
(benchmarks/bench_detect.py --stages), so this is where a runtime matters; the int8 crop
networks stay on onnxruntime, which made and measured them (vision/training/quantize.py).

Precision is pinned to f32: on CPUs with bf16 units OpenVINO may otherwise compute in
bf16, and the finder's boxes must equal ultralytics' (tests/vision/test_detector.py).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np

# The first shapes a process meets get a network compiled for each: a table's phones send
# two (upright, on its side), and the closer look around a collection small in the frame
# a few more (vision.detector.zoom_region). Every other shape shares one dynamic-shape
# compilation, slower as shapes alternate (benchmarks/bench_finder_shapes.py measures the
# ways). Each compilation holds about 17 MB: four keep the service within issue 29's
# memory bound (benchmarks/bench_hostile.py: +181 MB against 200; twelve, +236).
FIXED_SHAPES = 4
CACHED_SHAPES = 16  # the plugin's own cache of what each dynamic shape needs


class FinderNetwork:
    """Callable: a letterboxed (1, H, W, 3) BGR uint8 image -> the network's raw
    (1, 4 + nc, A) output.

    The network itself takes (1, 3, H, W) float32 RGB in [0, 1]; the conversion is
    compiled into the network (OpenVINO's pre-processing), so no numpy pass does it first
    (vision.classifier.to_input does it for the crop networks).

    A finder exported with dynamic shapes takes any H and W that are multiples of
    `stride`; a fixed-size export takes only its own shape (`stride` is None then).
    Calls are serialized: one inference at a time already uses every thread it is given.
    """

    def __init__(self, path: Path, *, threads: int = 2) -> None:
        import openvino as ov

        self._core = ov.Core()
        self._model = self._core.read_model(str(path))
        self._config = {
            "INFERENCE_PRECISION_HINT": "f32",
            "INFERENCE_NUM_THREADS": threads,
            "PERFORMANCE_HINT": "LATENCY",
            "NUM_STREAMS": 1,
            # Threads not tied to cores: in the service they share two cores with the
            # request threads.
            "ENABLE_CPU_PINNING": False,
            "CPU_RUNTIME_CACHE_CAPACITY": CACHED_SHAPES,
        }
        # Compiled on first use, so that loading stays quick.
        self.fixed_shapes = FIXED_SHAPES  # how many shapes get a compilation of their own
        self._fixed: dict[tuple[int, ...], Any] = {}
        self._dynamic: Any = None
        self._lock = threading.Lock()
        self._dynamic_shape = self._model.inputs[0].get_partial_shape().is_dynamic
        self.stride = (
            int(self._model.get_rt_info(["framework", "stride"]).astype(str))
            if self._dynamic_shape
            else None
        )

    def __call__(self, image: np.ndarray) -> np.ndarray:
        with self._lock:
            request = self._request(tuple(image.shape))
            return np.array(request.infer({0: image})[0], copy=True)

    def _request(self, shape: tuple[int, ...]) -> Any:
        request = self._fixed.get(shape)
        if request is not None:
            return request
        dynamic = self._dynamic_shape
        if dynamic and len(self._fixed) >= self.fixed_shapes:
            if self._dynamic is None:
                self._dynamic = self._compiled(self._model.clone())
            return self._dynamic
        model = self._model.clone()
        if dynamic:
            batch, height, width, _ = shape
            model.reshape({0: [batch, 3, height, width]})
        request = self._fixed[shape] = self._compiled(model)
        return request

    def _compiled(self, model: Any) -> Any:
        compiled = self._core.compile_model(_with_image_input(model), "CPU", self._config)
        return compiled.create_infer_request()


def _with_image_input(model: Any) -> Any:
    """`model` taking BGR uint8 NHWC images, converting them as ultralytics does
    (RGB, float32, / 255) inside the compiled network."""
    import openvino as ov
    from openvino.preprocess import ColorFormat, PrePostProcessor

    steps = PrePostProcessor(model)
    steps.input().tensor().set_element_type(ov.Type.u8).set_layout(
        ov.Layout("NHWC")
    ).set_color_format(ColorFormat.BGR)
    steps.input().model().set_layout(ov.Layout("NCHW"))
    steps.input().preprocess().convert_element_type(ov.Type.f32).convert_color(
        ColorFormat.RGB
    ).scale(255.0)
    return steps.build()
