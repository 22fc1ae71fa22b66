"""The upload-shrink benchmark's smoke run on two photos, so that its code path cannot rot."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from datasets.synth import generate
from datasets.yolo_format import PROCEDURAL_DECK, prepare, split_of, write_scene

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]


def test_bench_photo_upload_smoke(tmp_path: Path, browser: Any) -> None:
    """`browser` only for its skip: without Chromium the benchmark cannot run either."""
    data = tmp_path / "photos"
    prepare(data, deck=PROCEDURAL_DECK)
    for index, scene in generate(7, 2, 4032, workers=1):
        write_scene(data, split_of(index, 2), f"{index:06d}", scene)
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_photo_upload", "--data", str(data)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 photos from" in result.stdout and "2 shrunk" in result.stdout, result.stdout
    smaller = re.search(r"([\d.]+)x smaller at the median photo", result.stdout)
    assert smaller and float(smaller[1]) > 1, result.stdout
    assert re.search(r"same tally both ways: \d of 2", result.stdout), result.stdout
