"""index.html as text: escaped values, no reference to anything outside the file, no script."""

from __future__ import annotations

import re
from pathlib import Path

from markupsafe import escape
from report_runs import HOSTILE_IMG, HOSTILE_SCRIPT, hostile_run

from evalview.report.export import export_run
from evalview.report.render import CSP


def test_page_is_self_contained_and_escaped(tmp_path: Path) -> None:
    export_run(hostile_run(tmp_path / "run"), tmp_path / "out", bootstrap=0)
    html = (tmp_path / "out" / "index.html").read_text()
    assert HOSTILE_SCRIPT not in html and HOSTILE_IMG not in html
    assert "&lt;script&gt;" in html and "&#34;&gt;&lt;img src=x onerror=" in html
    assert "<script" not in html.lower()
    assert f'content="{escape(CSP)}"' in html
    # Nothing that could make a request: no URL scheme, no protocol-relative reference,
    # no src attribute, no CSS url()/@import; links only to fragments of the page itself.
    assert not re.search(r"(https?|ftp|file):", html)
    assert "//" not in html
    assert not re.search(r"\bsrc\s*=", html.replace("src=x", ""))  # the escaped hostile text
    assert "url(" not in html and "@import" not in html
    assert re.findall(r'href="([^"]*)"', html) == ["#audit"]


def test_headline_shows_successes_over_selected_first(tmp_path: Path) -> None:
    export_run(hostile_run(tmp_path / "run"), tmp_path / "out", bootstrap=0)
    html = (tmp_path / "out" / "index.html").read_text()
    cards = re.findall(r'id="rate-(\w+)"', html)
    assert cards == ["selected", "attempted", "completed"]
    main = re.search(r'<div class="card main" id="rate-selected">(.*?)</div>\s*</div>', html, re.S)
    assert main is not None
    assert "33.3 %" in main.group(1) and "4 / 12" in main.group(1)
