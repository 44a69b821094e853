"""The exported harness page of every sample, in headless Chromium: at 1,280 px, on a 390 px
phone, in a dark colour scheme and on paper.

One host page holds the page three times, each in an iframe of a given width (headless Chromium
will not lay a window out narrower than 500 px, so the phone is an iframe, as in
test_report_page_layout.py): 1,280 px, a 390 px phone, and the page with its `@media print` rules
applied to all media in a 718 px frame (A4 less 1 cm margins, what a printer lays out, less the
frame's scrollbar: a little stricter than paper; paper does not scroll, so a table wider than that
is cut). A probe script in the host page (the page itself runs nothing) measures element boxes
and colours and writes them into the DOM, which `--dump-dom` returns. The real `--print-to-pdf`
is checked as well.

Two of the five samples are refused by `evalview export` (audit errors); their pages are rendered
by the same renderer from the same document builder, so every sample's page is laid out here.
"""

from __future__ import annotations

import html
import json
import re
import zlib
from pathlib import Path
from typing import Any

import pytest

from evalview.cli import main
from evalview.harness.score import score_harness
from evalview.report.harness_export import _scrubber, build_document
from evalview.report.harness_render import render_html
from evalview.samples.harness import HARNESS_DIR, HARNESS_SAMPLES
from evalview.session import open_harness
from helpers.chromium import chromium
from helpers.paths import SAMPLE_RUNS

pytestmark = pytest.mark.e2e

SAMPLES = SAMPLE_RUNS / HARNESS_DIR
NAMES = sorted(s.file.removesuffix(".json") for s in HARNESS_SAMPLES)
#: `evalview export` refuses these (audit errors, tests/harness/test_harness_samples.py).
REFUSED = {"cpu-toy-calc-equal-update-v1", "gpu-calc-hard-undeclared-difference"}
CSP = re.compile(r'<meta http-equiv="Content-Security-Policy"[^>]*>')
FRAMES = {"wide": 1280, "phone": 390, "paper": 718}

PROBE_JS = r"""
const rgba = s => { const m = s.match(/[\d.]+/g).map(Number);
  return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3]))
  .concat([1]);
const lum = c => { const f = v => { v /= 255;
  return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05); };
function backdrop(win, el) {  // the colour behind el: its and its ancestors' backgrounds
  const layers = [];
  for (let e = el; e; e = e.parentElement) {
    const c = rgba(win.getComputedStyle(e).backgroundColor);
    if (c[3] > 0) layers.push(c);
    if (c[3] >= 1) break;
  }
  let bg = [255, 255, 255, 1];
  for (const l of layers.reverse()) bg = over(l, bg);
  return bg;
}
function lines(cell) {  // how many lines the cell's text occupies
  const doc = cell.ownerDocument, tops = [];
  const walk = doc.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  const size = parseFloat(doc.defaultView.getComputedStyle(cell).fontSize);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (!n.textContent.trim()) continue;
    const r = doc.createRange(); r.selectNodeContents(n);
    for (const q of r.getClientRects())
      if (q.width > 0 && !tops.some(t => Math.abs(t - q.top) < size / 2)) tops.push(q.top);
  }
  return tops.length;
}
const NUMBER = "td:not(.text):not(.prose):not(.label):not(.flag):not(.bar)";
const box = el => { const r = el.getBoundingClientRect();
  return {left: r.left, right: r.right, width: r.width}; };
function measure(frame) {
  const doc = frame.contentDocument, win = doc.defaultView, root = doc.documentElement;
  const tables = [...doc.querySelectorAll("table")];
  const following = t => {  // an axis inside the table, or the next sibling after it
    const inner = t.querySelector(".axis");
    if (inner) return inner;
    for (let e = (t.closest(".scroll") || t).nextElementSibling; e; e = e.nextElementSibling) {
      if (e.querySelector("table") || e.matches("table, h2")) return null;
      if (e.matches(".axis, .scale")) return e;
    }
    return null;
  };
  const out = {
    client: root.clientWidth, width: root.scrollWidth,
    background: win.getComputedStyle(doc.body).backgroundColor,
    bodyBackdrop: backdrop(win, doc.body),
    tables: tables.map(t => {
      const parent = t.parentElement, cs = win.getComputedStyle(parent);
      const head = t.querySelector("th");
      return {name: head ? head.textContent.trim() : "", width: t.getBoundingClientRect().width,
        column: parent.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight),
        overflow: cs.overflowX, boxRight: parent.getBoundingClientRect().right,
        columns: [...(t.querySelector("tbody tr") || t.rows[0]).cells].map(
          c => Math.round(c.getBoundingClientRect().width))};
    }),
    wrapped: [...doc.querySelectorAll(NUMBER + ", .axis span")].filter(c => lines(c) > 1)
      .map(c => c.textContent.trim()),
    numbers: doc.querySelectorAll(NUMBER).length,
    axes: tables.filter(t => t.querySelector(".track")).map(t => {
      const axis = following(t);
      const cell = t.querySelector(".track").closest("td");
      return {axis: axis && box(axis), column: box(cell),
        tracks: [...t.querySelectorAll(".track")].map(box)};
    }),
    printColour: [...doc.querySelectorAll(".track, .track *")].map(
      e => win.getComputedStyle(e).printColorAdjust),
  };
  // Text against what is behind it (WCAG: 4.5 for text); bar marks against their track (3).
  out.contrast = [];
  for (const el of doc.body.querySelectorAll("*")) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    const bg = backdrop(win, el), fg = over(rgba(win.getComputedStyle(el).color), bg);
    out.contrast.push([el.tagName + "." + el.className, Math.round(ratio(fg, bg) * 100) / 100]);
  }
  out.marks = [];
  for (const el of doc.querySelectorAll(".track > *")) {
    const cs = win.getComputedStyle(el);
    const paint = cs.borderLeftStyle !== "none" && parseFloat(cs.borderLeftWidth) > 0
      ? cs.borderLeftColor : cs.backgroundColor;
    const bg = backdrop(win, el.parentElement);
    const mark = over(rgba(paint).slice(0, 3).concat([rgba(paint)[3] * cs.opacity]), bg);
    out.marks.push([el.className, Math.round(ratio(mark, bg) * 100) / 100]);
  }
  // Every number reachable: scroll its box (from the start, as a reader would) until it shows.
  const boxes = [...doc.querySelectorAll("*")].filter(
    e => ["auto", "scroll"].includes(win.getComputedStyle(e).overflowX) && e !== root);
  out.unreachable = [];
  for (const cell of doc.querySelectorAll(NUMBER)) {
    boxes.forEach(b => { b.scrollLeft = 0; });
    cell.scrollIntoView({block: "nearest", inline: "nearest"});
    const r = cell.getBoundingClientRect();
    const hit = doc.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (win.scrollX !== 0 || r.left < 0 || r.right > root.clientWidth + 0.5 || !hit
        || !cell.contains(hit)) out.unreachable.push(cell.textContent.trim());
  }
  // Scrolled to its end, a table still shows each row's name (the first column).
  out.names = [];
  for (const b of boxes) {
    const row = b.querySelector("tbody tr");
    if (!row || b.scrollWidth <= b.clientWidth) continue;
    b.scrollLeft = b.scrollWidth;
    const name = row.firstElementChild.getBoundingClientRect(), edge = b.getBoundingClientRect();
    out.names.push({left: name.left - edge.left, hidden: name.right > edge.right});
    b.scrollLeft = 0;
  }
  win.scrollTo(0, 0);
  return out;
}
Promise.all([...document.querySelectorAll("iframe")].map(f => new Promise(ok => {
  const d = f.contentDocument;
  if (d && d.URL === "about:srcdoc" && d.readyState === "complete") ok();
  else f.addEventListener("load", ok);
}))).then(() => {
  const got = {};
  for (const f of document.querySelectorAll("iframe")) got[f.id] = measure(f);
  const pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(got);
  document.body.appendChild(pre);
});
"""


def _render(name: str, out: Path) -> Path:
    """`evalview export` of the sample; for a refused one, the same renderer's page."""
    source, dest = SAMPLES / f"{name}.json", out / name
    code = main(["export", str(source), "--output-dir", str(dest)])
    assert code == (1 if name in REFUSED else 0)
    if code == 0:
        return dest / "index.html"
    session = open_harness(source)
    assert session is not None and session.file.result is not None
    card = score_harness(session.file.result, session.findings)
    doc = build_document(session.file, card, _scrubber(session.file, None))
    dest.mkdir()
    (dest / "index.html").write_text(render_html(doc), encoding="utf-8")
    return dest / "index.html"


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("harness-pages")
    return {name: _render(name, out) for name in NAMES}


def _host(page: Path, tmp: Path) -> Path:
    inner = CSP.sub("", page.read_text())  # the probe reads the frames; the page runs nothing
    printed = inner.replace("@media print", "@media all")
    frames = "".join(
        f'<iframe id="{key}" style="display:block;width:{px}px;height:1400px;border:0" '
        f'srcdoc="{html.escape(printed if key == "paper" else inner, quote=True)}"></iframe>'
        for key, px in FRAMES.items()
    )
    host = tmp / "host.html"
    host.write_text(f'<!DOCTYPE html><html><body style="margin:0">{frames}'
                    f"<script>{PROBE_JS}</script></body></html>")
    return host


def _measure(page: Path, tmp: Path, *extra: str) -> dict[str, Any]:
    dom = chromium(_host(page, tmp), tmp, "--dump-dom", "--virtual-time-budget=10000", *extra)
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found is not None, "the probe did not run"
    value = json.loads(html.unescape(found.group(1)))
    assert isinstance(value, dict) and set(value) == set(FRAMES)
    return value


@pytest.fixture(scope="module")
def light(pages: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("light")
    return {name: _measure(page, tmp) for name, page in pages.items()}


@pytest.fixture(scope="module")
def dark(pages: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("dark")
    return {name: _measure(page, tmp, "--force-dark-mode") for name, page in pages.items()}


def _tables_fit(got: dict[str, Any]) -> None:
    assert got["width"] == got["client"], "the page scrolls sideways"
    for t in got["tables"]:
        assert t["width"] <= t["column"] + 0.5, f"table {t['name']!r} is wider than its column"


def _no_number_wraps(got: dict[str, Any]) -> None:
    assert got["numbers"] > 20
    assert got["wrapped"] == [], "numbers broken over two lines"


@pytest.mark.parametrize("name", NAMES)
def test_at_1280px_every_table_fits_and_no_number_wraps(light: dict[str, Any], name: str) -> None:
    got = light[name]["wide"]
    assert got["client"] >= 1260  # the 1,280 px frame, less a scrollbar
    assert got["tables"][0]["name"] == "arm"  # the Arms table first
    _tables_fit(got)
    _no_number_wraps(got)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("frame", ["wide", "phone", "paper"])
def test_the_axis_sits_in_the_bar_column_aligned_with_the_bars(
    light: dict[str, Any], name: str, frame: str
) -> None:
    axes = light[name][frame]["axes"]
    assert len(axes) == 2  # the Arms table's ranges and every read's Wilson interval
    for a in axes:
        axis = a["axis"]
        assert axis is not None, "a table of bars without its 0-100 % axis"
        assert axis["width"] <= a["column"]["width"] + 0.5, "the axis is wider than its column"
        for track in a["tracks"]:
            assert abs(axis["left"] - track["left"]) <= 1  # 0 % where the bars' 0 % is
            assert abs(axis["right"] - track["right"]) <= 1  # and 100 % where theirs is


@pytest.mark.parametrize("name", NAMES)
def test_on_a_390px_phone_every_number_is_reachable_and_the_page_does_not_overflow(
    light: dict[str, Any], name: str
) -> None:
    got = light[name]["phone"]
    assert 370 <= got["client"] <= 390
    assert got["width"] == got["client"], "the page scrolls sideways"
    for t in got["tables"]:  # a wide table scrolls inside a box that fits the phone
        assert t["boxRight"] <= got["client"] + 0.5
        assert t["width"] <= t["column"] + 0.5 or t["overflow"] == "auto"
    assert got["unreachable"] == [], "numbers that cannot be scrolled into view"
    _no_number_wraps(got)
    assert got["names"], "no table needs to scroll on a phone?"
    for n in got["names"]:  # scrolled to the end, each row's name stays at the left
        assert abs(n["left"]) <= 1 and not n["hidden"]


def _dark(colour: list[float]) -> bool:
    r, g, b = colour[:3]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 60


@pytest.mark.parametrize("name", NAMES)
def test_the_page_follows_a_dark_colour_scheme_and_stays_legible(
    light: dict[str, Any], dark: dict[str, Any], name: str
) -> None:
    assert light[name]["wide"]["background"] == "rgb(255, 255, 255)"
    assert dark[name]["wide"]["background"] == "rgb(13, 17, 23)"  # the run page's dark ground
    for scheme in (light, dark):
        for frame in ("wide", "phone"):
            got = scheme[name][frame]
            assert _dark(got["bodyBackdrop"]) == (scheme is dark)
            low = [(el, c) for el, c in got["contrast"] if c < 4.5]
            assert got["contrast"] and low == [], "text below 4.5:1 against its background"
            faint = [(el, c) for el, c in got["marks"] if c < 3 and el != "range"]
            assert got["marks"] and faint == [], "bar marks below 3:1 against their track"


@pytest.mark.parametrize("name", NAMES)
def test_on_paper_every_table_fits_the_page_and_the_bars_print(
    light: dict[str, Any], dark: dict[str, Any], name: str
) -> None:
    for scheme in (light, dark):
        got = scheme[name]["paper"]
        _tables_fit(got)  # paper does not scroll: a table wider than the page is cut
        _no_number_wraps(got)
        assert not _dark(got["bodyBackdrop"])  # paper stays white in a dark scheme
        low = [(el, c) for el, c in got["contrast"] if c < 4.5]
        assert low == []
        # the bars are backgrounds: a browser drops them on paper unless told to keep them
        assert got["printColour"] and set(got["printColour"]) == {"exact"}


def _fills(pdf: Path) -> set[tuple[float, ...]]:
    """The RGB fill and stroke colours the PDF's (deflated) content streams paint with."""
    found: set[tuple[float, ...]] = set()
    for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", pdf.read_bytes(), re.S):
        try:
            text = zlib.decompress(stream)
        except zlib.error:
            continue
        for m in re.finditer(rb"([0-9.]+) ([0-9.]+) ([0-9.]+) (?:rg|RG)\b", text):
            found.add(tuple(round(float(v) * 255) for v in m.groups()))
    return found


#: The dark scheme's ground, header, lines, text and muted text (the run page's palette).
DARK_SCHEME = {(13, 17, 23), (22, 27, 34), (48, 54, 61), (33, 38, 45), (230, 237, 243),
               (157, 167, 179)}


@pytest.mark.parametrize("name", ["gpu-calc-hard-single-seed", "cpu-toy-calc-equal-update-v2"])
def test_printed_from_a_dark_scheme_the_page_is_black_on_white_with_its_bars(
    pages: dict[str, Path], tmp_path: Path, name: str
) -> None:
    pdf = tmp_path / "page.pdf"
    chromium(pages[name], tmp_path, "--force-dark-mode", "--no-pdf-header-footer",
             f"--print-to-pdf={pdf}")
    assert pdf.read_bytes()[:5] == b"%PDF-"
    fills = _fills(pdf)
    assert not fills & DARK_SCHEME, "the dark scheme on paper"
    assert (0, 0, 0) in fills and (27, 31, 36) not in fills  # text in black, as the run page's
    assert (9, 105, 218) in fills and (207, 34, 46) in fills  # the bars: blue band, red tick
