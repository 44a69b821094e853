"""Opened sessions of the example run and of the faulty sample, used by the TUI tests."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest
from tui_helpers import FAULTY

from evalview.session import Session, open_session
from helpers.paths import EXAMPLE


@pytest.fixture(scope="session")
def example_session() -> Session:
    return open_session(EXAMPLE)


@pytest.fixture(scope="session")
def faulty_session() -> Session:
    return open_session(FAULTY)


@pytest.fixture
def cpu_load() -> Iterator[None]:
    """Two processes spinning on the CPU for the test's duration (the machine has 2 cores): keys
    typed ahead must land however slowly the app gets to them (issue 25)."""
    spin = "import time\nend = time.monotonic() + 300\nwhile time.monotonic() < end: pass\n"
    procs = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(2)]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()
