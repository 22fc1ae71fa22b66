"""The test run's own guard (tests/exit_guard.py): a run whose exit is stuck ends, saying
where, instead of holding CI until its time is up."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]


def guarded(within: str) -> dict[str, str]:
    """The environment of an inner run: the guard's time, none of the outer run's options."""
    return {**os.environ, "SUSHIGO_EXIT_WITHIN_S": within, "PYTHONPATH": str(CHECKOUT),
            "PYTEST_ADDOPTS": ""}  # fmt: skip


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
        env=guarded(within="2"),
    )  # fmt: skip
    assert "1 passed" in run.stdout
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Timeout (0:00:02)!" in run.stderr
    assert "in wait" in run.stderr and "threading.py" in run.stderr  # where each thread waits


def test_a_process_that_runs_the_tests_and_goes_on_is_left_alone(tmp_path: Path) -> None:
    """pytest.main in a console or an editor: the process goes on after the run."""
    (tmp_path / "test_fine.py").write_text("def test_fine():\n    pass\n")
    host = (
        "import time, pytest\n"
        f"code = pytest.main(['-q', '-p', 'no:cacheprovider', '-p', 'tests.exit_guard', "
        f"'--rootdir', {str(tmp_path)!r}, {str(tmp_path / 'test_fine.py')!r}])\n"
        "time.sleep(4)\n"
        "print('went on', int(code))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", host], capture_output=True, text=True, timeout=120,
        cwd=CHECKOUT, env=guarded(within="1"),
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == "went on 0"
