"""Opened sessions of the example run and of the faulty sample, used by the TUI tests."""

from __future__ import annotations

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
