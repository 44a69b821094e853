"""Opened sessions of the shared example and of the faulty sample, shared by the TUI tests."""

from __future__ import annotations

import pytest
from tui_helpers import EXAMPLE, FAULTY

from evalview.session import Session, open_session


@pytest.fixture(scope="session")
def example_session() -> Session:
    return open_session(EXAMPLE)


@pytest.fixture(scope="session")
def faulty_session() -> Session:
    return open_session(FAULTY)
