"""A test run that cannot end says where it is stuck, and ends. CI's run had once passed
every test and then never ended (a thread of the synth workers' executor, joined at the
exit), holding CI until its time was up: here an exit still stuck SUSHIGO_EXIT_WITHIN_S
seconds (120) after the summary prints every thread's stack and exits with 1."""

from __future__ import annotations

import faulthandler
import os
import sys
from pathlib import Path

import pytest


def pytest_unconfigure(config: pytest.Config) -> None:
    # Only where the process is the test command, about to exit: a console or an editor
    # that runs pytest.main and goes on would be killed two minutes later.
    if not _is_the_pytest_command():
        return
    seconds = float(os.environ.get("SUSHIGO_EXIT_WITHIN_S", "120"))
    faulthandler.dump_traceback_later(seconds, exit=True, file=sys.__stderr__)


def _is_the_pytest_command() -> bool:
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None:  # python -m pytest
        return spec.name in ("pytest", "pytest.__main__")
    return Path(sys.argv[0]).name in ("pytest", "py.test")
