"""The test run's own guard (tests/exit_guard.py): a run whose exit is stuck ends, saying
where, instead of holding CI until its time is up."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]


def test_a_run_stuck_at_its_exit_says_where_and_ends(tmp_path: Path) -> None:
    (tmp_path / "test_stuck.py").write_text(
        "import threading\n"
        "def test_leaves_a_thread_behind():\n"
        "    threading.Thread(target=threading.Event().wait, name='waits-for-ever').start()\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
         "tests.exit_guard", "--rootdir", str(tmp_path), str(tmp_path / "test_stuck.py")],
        capture_output=True, text=True, timeout=120, cwd=CHECKOUT,
        env={**os.environ, "SUSHIGO_EXIT_WITHIN_S": "2", "PYTHONPATH": str(CHECKOUT)},
    )  # fmt: skip
    assert "1 passed" in run.stdout
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Timeout (0:00:02)!" in run.stderr
    assert "in wait" in run.stderr and "threading.py" in run.stderr  # where each thread waits
