"""A test run that cannot end says why, and ends. CI's run had once passed every test and
then never ended (a thread of the synth workers' executor, joined at the exit): here what
would keep the process alive is named under the summary, and an exit still stuck after
SUSHIGO_EXIT_WITHIN_S seconds (120) prints every thread's stack and exits with 1."""

from __future__ import annotations

import faulthandler
import multiprocessing
import os
import sys
import threading

import pytest


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    threads = [
        thread.name
        for thread in threading.enumerate()
        if thread is not threading.main_thread() and not thread.daemon
    ]
    children = [f"{child.name} (pid {child.pid})" for child in multiprocessing.active_children()]
    if threads or children:
        terminalreporter.write_line(
            "still running at the end, which the exit waits on: " + ", ".join(threads + children),
            yellow=True,
        )


def pytest_unconfigure(config: pytest.Config) -> None:
    seconds = float(os.environ.get("SUSHIGO_EXIT_WITHIN_S", "120"))
    faulthandler.dump_traceback_later(seconds, exit=True, file=sys.__stderr__)
