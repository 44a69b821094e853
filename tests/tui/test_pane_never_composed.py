"""A run screen's tabs are mounted after its first frame; when the app closes (or the screen is
replaced) meanwhile, a pane can be mounted without its children ever being composed. Its
`on_mount` must then do nothing: querying its table raised NoMatches, and the exception ended
the process with status 1 after the app had closed (seen in CI on
test_first_paint_costs.py::test_opening_a_read_never_imports_the_runs_screen, under load).

Each pane of every tab is built for a read and its `on_mount` called while it has no children,
as in that race; this fails on the code before for the Episodes, Tasks, Findings, Samples and
partial-credit panes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from evalview.session import open_session
from evalview.tui.tabs import TABS
from helpers.paths import SAMPLE_RUNS

READS = {
    "closed run": SAMPLE_RUNS / "faulty",
    "inspect": SAMPLE_RUNS / "inspect" / "os-agent-model-a.eval",
}


@pytest.mark.parametrize("read", list(READS))
@pytest.mark.parametrize("tab", [t.id for t in TABS])
def test_a_pane_mounted_without_its_children_does_nothing(read: str, tab: str) -> None:
    session = open_session(Path(READS[read]))
    spec = next(t for t in TABS if t.id == tab)
    pane = spec.make(session, f"{tab}-pane")
    assert not pane.children  # never composed
    on_mount = getattr(pane, "on_mount", None)
    if on_mount is not None:
        on_mount()  # no NoMatches, no AttributeError
