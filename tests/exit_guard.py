"""A test run that cannot end says where it is stuck, and ends. CI's run had once passed
every test and then never ended (a thread of the synth workers' executor, joined at the
exit), holding CI until its time was up: here an exit still stuck SUSHIGO_EXIT_WITHIN_S
seconds (120) after the summary prints every thread's stack and exits with 1."""

from __future__ import annotations

import faulthandler
import os
import sys

import pytest


def pytest_unconfigure(config: pytest.Config) -> None:
    seconds = float(os.environ.get("SUSHIGO_EXIT_WITHIN_S", "120"))
    faulthandler.dump_traceback_later(seconds, exit=True, file=sys.__stderr__)
