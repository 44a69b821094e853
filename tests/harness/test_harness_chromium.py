"""The exported harness page in Debian's headless Chromium: it renders its tables and caveats,
runs nothing injected and fetches nothing (every request goes through a recording proxy)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from evalview.cli import main
from evalview.harness.audit import SINGLE_SEED_LABEL
from evalview.harness.score import MEASURED_NOT_MATCHED
from helpers.chromium import RecordingProxy, chromium
from helpers.paths import SAMPLE_RUNS

pytestmark = pytest.mark.e2e


SAMPLES = SAMPLE_RUNS / "harness"


def test_single_seed_page_renders_its_arms_and_caveats(
    tmp_path: Path, proxy: RecordingProxy
) -> None:
    source = SAMPLES / "gpu-calc-hard-single-seed.json"
    dest = tmp_path / "out"
    assert main(["export", str(source), "--output-dir", str(dest)]) == 0
    arms = json.loads(source.read_text())["arms"]
    dom = chromium(dest / "index.html", tmp_path, "--dump-dom", proxy=proxy)
    assert "<script" not in dom.lower()
    # every arm is a rendered row, and the caveats the harness keeps are on the page as text
    for arm in arms:
        assert f">{arm['name']}<" in dom
    assert SINGLE_SEED_LABEL in dom
    assert re.sub(r"\s+", " ", MEASURED_NOT_MATCHED)[:60] in re.sub(r"\s+", " ", dom)
    assert "/home/" not in dom
    assert proxy.page_hosts() == []


def test_markup_in_an_arm_name_stays_text_in_the_browser(
    tmp_path: Path, proxy: RecordingProxy
) -> None:
    text = (SAMPLES / "gpu-calc-hard-equal-update-3seeds.json").read_text()
    hostile = "<img src=x onerror=document.title='pwned'>"
    # the arm's name everywhere the file refers to it (reads, diffs), so the file stays valid
    doc = json.loads(text.replace('"sft-continued"', json.dumps(hostile)))
    assert doc["arms"][1]["name"] == hostile
    (tmp_path / "src").mkdir()
    source = tmp_path / "src" / "hostile.json"
    source.write_text(json.dumps(doc))
    dest = tmp_path / "out"
    assert main(["export", str(source), "--output-dir", str(dest)]) == 0
    dom = chromium(dest / "index.html", tmp_path, "--dump-dom", proxy=proxy)
    title = re.search(r"<title>(.*?)</title>", dom, re.S)
    assert title is not None and "pwned" not in title.group(1)
    assert "<img" not in dom.lower()
    assert "&lt;img src=x onerror=" in dom
    assert proxy.page_hosts() == []
