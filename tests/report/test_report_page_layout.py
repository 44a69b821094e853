"""The exported page on a phone (400 px), in a dark scheme and on paper, in headless Chromium.

Headless Chromium will not lay a window out narrower than 500 px, so the 400 px phone is an
iframe of that width whose `srcdoc` is the page (same origin, so a probe script in the host page
can measure it). The page itself runs no script: the probe is only in the test's host page.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from evalview.report.export import export_run
from helpers.chromium import CHROMIUM, chromium
from helpers.paths import SAMPLE_RUNS

pytestmark = pytest.mark.e2e

SAMPLE = SAMPLE_RUNS / "robobench-24x50"
CSP = re.compile(r'<meta http-equiv="Content-Security-Policy"[^>]*>')

PROBE = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="phone" style="width:400px;height:900px;border:0" srcdoc="{page}"></iframe>
<script>
document.getElementById("phone").addEventListener("load", () => {{
  const doc = document.getElementById("phone").contentDocument;
  const win = doc.defaultView;
  const tables = [...doc.querySelectorAll("table")].map(t => ({{
    box: win.getComputedStyle(t.parentElement).overflowX,
    boxWidth: t.parentElement.getBoundingClientRect().right,
  }}));
  const cells = [...doc.querySelectorAll("td, th")].filter(
    c => !c.classList.contains("prose")).map(c => win.getComputedStyle(c).whiteSpace);
  const out = doc.createElement("pre");
  out.id = "probe";
  out.textContent = JSON.stringify({{
    width: doc.documentElement.scrollWidth,
    client: doc.documentElement.clientWidth,
    plot: doc.getElementById("plot").getBoundingClientRect().right,
    tables, wrapping: [...new Set(cells)],
    background: win.getComputedStyle(doc.body).backgroundColor,
  }});
  document.body.appendChild(out);
}});
</script></body></html>"""


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("page") / "out"
    export_run(SAMPLE, out, bootstrap=0)
    return out / "index.html"


def _measure(page: Path, tmp: Path, *extra: str) -> dict[str, object]:
    """Load the page in a 400 px iframe; what the probe measured."""
    inner = CSP.sub("", page.read_text())  # the probe reads the frame; the page runs nothing
    host = tmp / "phone.html"
    host.write_text(PROBE.format(page=html.escape(inner, quote=True)))
    dom = chromium(host, tmp, "--dump-dom", "--virtual-time-budget=5000", *extra)
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found is not None, "the probe did not run"
    value = json.loads(html.unescape(found.group(1)))
    assert isinstance(value, dict)
    return value


def test_the_page_fits_a_400px_phone(page: Path, tmp_path: Path) -> None:
    got = _measure(page, tmp_path)
    client = got["client"]
    assert isinstance(client, int) and 380 <= client <= 400  # the phone (less a scrollbar)
    assert got["width"] == client  # nothing sticks out sideways
    assert isinstance(got["plot"], int | float) and got["plot"] <= 400  # the plot scales down
    tables = got["tables"]
    assert isinstance(tables, list) and len(tables) == 4  # tasks, errors, audit, episodes
    for t in tables:  # each wide table scrolls inside a box that fits the phone
        assert t["box"] == "auto" and t["boxWidth"] <= 400
    assert got["wrapping"] == ["nowrap"]  # ids, codes and numbers never break mid-word


def test_the_page_follows_a_dark_colour_scheme(page: Path, tmp_path: Path) -> None:
    assert _measure(page, tmp_path)["background"] == "rgb(255, 255, 255)"
    assert _measure(page, tmp_path, "--force-dark-mode")["background"] == "rgb(13, 17, 23)"


def _pages(pdf: Path) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf.read_bytes()))


def test_printing_lists_every_episode(page: Path, tmp_path: Path) -> None:
    """Printed, the closed episode list opens (1,200 rows: many pages); without the print
    styles the same page prints only the summary."""
    assert CHROMIUM
    printed = tmp_path / "page.pdf"
    chromium(page, tmp_path, "--no-pdf-header-footer", f"--print-to-pdf={printed}")
    plain = tmp_path / "no-print-css.html"
    plain.write_text(re.sub(r"@media print \{.*?\n\}\n", "", page.read_text(), flags=re.S))
    assert plain.read_text() != page.read_text()
    bare = tmp_path / "bare.pdf"
    chromium(plain, tmp_path, "--no-pdf-header-footer", f"--print-to-pdf={bare}")
    assert _pages(bare) <= 6
    assert _pages(printed) >= 20  # 1,200 episode rows at about 50 a page


def test_the_standard_error_is_in_points_as_in_the_app_and_cli(page: Path) -> None:
    text = page.read_text()
    assert "± 1.0 pt SE" in text and "% SE" not in text
