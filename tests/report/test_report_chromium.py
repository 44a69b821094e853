"""The exported page in Debian's headless Chromium: it renders, fetches nothing, runs nothing.

Requests are observed with a recording HTTP proxy: every fetch Chromium makes goes through it.
Chromium's own service traffic (update checks, clock sync on Google hosts) is not the page's and
is ignored by host; a control page with an external image and stylesheet proves the proxy sees
page requests. Injected markup is tested twice: on the page as exported (CSP on), and with the
CSP meta tag removed, so autoescaping alone is shown to keep task names inert.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from report_runs import HOSTILE_IMG, HOSTILE_SCRIPT, hostile_run

from evalview.report.export import export_run
from helpers.chromium import RecordingProxy, chromium

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("chromium")
    run = hostile_run(base / "run")
    export_run(run, base / "out", bootstrap=500, metrics=["score"])
    return base / "out" / "index.html"


def _without_csp(page: Path, tmp: Path) -> Path:
    html = page.read_text()
    stripped = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
    assert stripped != html and "Content-Security-Policy" not in stripped
    out = tmp / "no-csp.html"
    out.write_text(stripped)
    return out


def _assert_inert_and_rendered(dom: str) -> None:
    # Title as rendered (a script from data would have changed it).
    title = re.search(r"<title>(.*?)</title>", dom, re.S)
    assert title is not None and title.group(1) == "evalview result: run-1"
    assert "pwned" not in title.group(1)
    # No element came from the data: no script element at all, no injected <img>.
    assert "<script" not in dom.lower()
    assert 'id="injected"' not in dom and "<img" not in dom.lower()
    # The hostile names are there, as text.
    assert "&lt;script&gt;document.title='pwned'&lt;/script&gt;" in dom
    assert "&lt;img src=x onerror=" in dom
    # Tables and plot rendered: 3 task rows, 4 category columns, 12 episodes, 4 plot rows.
    tasks = re.search(r'<table id="tasks">(.*?)</table>', dom, re.S)
    assert tasks is not None and tasks.group(1).count("<tr>") == 1 + 3
    errors = re.search(r'<table id="errors">(.*?)</table>', dom, re.S)
    assert errors is not None and errors.group(1).count("<th>") >= 4
    plot = re.search(r'<svg id="plot"(.*?)</svg>', dom, re.S)
    assert plot is not None
    assert plot.group(1).count("<circle") == 4 and plot.group(1).count('class="task"') == 3
    assert 'class="aggregate"' in plot.group(1)
    assert 'id="pending-infrastructure"' in dom and 'id="audit-warnings"' in dom


def test_page_renders_tables_and_plot_and_runs_no_injected_markup(
    exported: Path, tmp_path: Path
) -> None:
    dom = chromium(exported, tmp_path, "--dump-dom")
    _assert_inert_and_rendered(dom)
    assert "Content-Security-Policy" in dom


def test_escaping_alone_keeps_markup_inert(exported: Path, tmp_path: Path) -> None:
    dom = chromium(_without_csp(exported, tmp_path), tmp_path, "--dump-dom")
    _assert_inert_and_rendered(dom)


def test_the_proxy_sees_page_requests(tmp_path: Path, proxy: RecordingProxy) -> None:
    control = tmp_path / "control.html"
    control.write_text(
        '<html><body><img src="http://cdn.example.invalid/x.png">'
        '<link rel="stylesheet" href="http://fonts.example.invalid/f.css"></body></html>'
    )
    chromium(control, tmp_path, "--dump-dom", proxy=proxy)
    assert {"cdn.example.invalid", "fonts.example.invalid"} <= set(proxy.page_hosts())


def test_page_makes_no_external_request(
    exported: Path, tmp_path: Path, proxy: RecordingProxy
) -> None:
    # Without the CSP too: the page itself references nothing outside itself.
    page = _without_csp(exported, tmp_path)
    chromium(page, tmp_path, "--dump-dom", proxy=proxy)
    chromium(exported, tmp_path, "--dump-dom", proxy=proxy)
    assert proxy.page_hosts() == []


def test_the_pages_csp_blocks_fetches_even_if_markup_got_in(
    exported: Path, tmp_path: Path, proxy: RecordingProxy
) -> None:
    tampered = tmp_path / "tampered.html"
    tampered.write_text(
        exported.read_text().replace(
            "</body>", '<img src="http://cdn.example.invalid/leak.png"></body>'
        )
    )
    chromium(tampered, tmp_path, "--dump-dom", proxy=proxy)
    assert proxy.page_hosts() == []


def test_screenshot_is_a_rendered_page(exported: Path, tmp_path: Path) -> None:
    shot = tmp_path / "page.png"
    chromium(exported, tmp_path, f"--screenshot={shot}")
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1000, 1600)
    assert len(data) > 30_000  # text, tables and the plot; a blank page compresses to ~5 kB


def test_hostile_names_in_the_source_are_what_the_page_escaped() -> None:
    # Guard for the fixture itself: the names really are markup.
    assert "<script>" in HOSTILE_SCRIPT and "onerror=" in HOSTILE_IMG
