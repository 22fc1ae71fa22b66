"""The API benchmark's smoke run (a few seconds), so that its code path cannot rot."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_bench_api_smoke(tmp_path: Path) -> None:
    report_path = tmp_path / "report.json"
    result = subprocess.run(
        [
            sys.executable, "-m", "benchmarks.bench_api",
            "--smoke", "--stand-in", "--json", str(report_path),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(report_path.read_text())
    assert report["detector"] == "stand-in"
    assert report["load"]["errors"] == 0 and report["load"]["uploads"] > 0
    assert report["upload_to_draft"]["n"] == 2


def test_bench_hostile_smoke(tmp_path: Path) -> None:
    report_path = tmp_path / "report.json"
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_hostile", "--smoke", "--json", str(report_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(report_path.read_text())
    statuses = {s for r in report["hostile"].values() for s in r["statuses"]}
    assert statuses <= {401, 413, 422} and report["ratio"] > 0
    assert report["uploads"] == {"count": 3, "statuses": [201]}
    memory = report["memory_mb"]
    start, loaded = memory["start"], memory["models_loaded"]
    assert start["private"] < loaded["private"] <= loaded["resident"], memory  # networks in
    assert "slowest concurrent read" in result.stdout


def test_probe_hostile_quick() -> None:
    """Issue 29's probe against its own `sushigo serve`, without the 14 MB / 25 MB bodies."""
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.probe_hostile", "--quick"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("PASS: ") and "0 problems" in last, result.stdout
    assert "FAIL" not in result.stdout
