"""`evalview export` of harness results: sanitized, caveats kept, refusals, never beside it."""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from evalview.cli import main
from evalview.harness.audit import SINGLE_SEED_LABEL
from evalview.harness.score import MEASURED_NOT_MATCHED
from evalview.report.sanitize import iter_strings
from helpers.paths import SAMPLE_RUNS

SAMPLES = SAMPLE_RUNS / "harness"
SINGLE = SAMPLES / "gpu-calc-hard-single-seed.json"


def _export(tmp_path: Path, source: Path, name: str = "out") -> tuple[int, Path]:
    dest = tmp_path / name
    return main(["export", str(source), "--output-dir", str(dest)]), dest


class _Rows(HTMLParser):
    """Table rows of the page as text, and whether any script or external reference exists."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[str] = []
        self.scripts = 0
        self.external: list[str] = []
        self._row: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self.scripts += 1
        for key, value in attrs:
            if key in ("src", "href") and value and not value.startswith("#"):
                self.external.append(value)
        if tag == "tr":
            self._row = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr" and self._row is not None:
            self.rows.append(" ".join(self._row))
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._row is not None:
            self._row.append(data.strip())


def test_single_seed_export_is_sanitized_and_keeps_its_caveats(tmp_path: Path) -> None:
    code, dest = _export(tmp_path, SINGLE)
    assert code == 0
    doc = json.loads((dest / "result.json").read_text())
    text = " ".join(iter_strings(doc))
    assert "/home/" not in text and "mlee" not in text
    assert all("/" not in v for v in doc["run_dirs"].values())
    assert "node" not in doc["identity"]["hardware"]["os"]
    assert SINGLE_SEED_LABEL in doc["labels"] and doc["caveat"] == MEASURED_NOT_MATCHED
    html = (dest / "index.html").read_text()
    assert "/home/" not in html and "mlee" not in html
    assert MEASURED_NOT_MATCHED in html
    page = _Rows()
    page.feed(html)
    assert page.scripts == 0 and page.external == []
    # every body row that shows a rate of an arm carries the label beside it
    numbered = [r for r in page.rows if "%" in r and not r.startswith("arm")]
    assert len(numbered) >= 10
    assert all(SINGLE_SEED_LABEL in r for r in numbered)


def test_export_refuses_audit_errors(tmp_path: Path) -> None:
    code, dest = _export(tmp_path, SAMPLES / "gpu-calc-hard-undeclared-difference.json")
    assert code == 1 and not dest.exists()
    assert [p.name for p in tmp_path.iterdir()] == []


def test_export_never_writes_beside_the_source(tmp_path: Path) -> None:
    source = tmp_path / "results" / "r.json"
    source.parent.mkdir()
    shutil.copy(SAMPLES / "cpu-toy-calc-equal-update-v2.json", source)
    code = main(["export", str(source), "--output-dir", str(source.parent / "report")])
    assert code == 1 and sorted(p.name for p in source.parent.iterdir()) == ["r.json"]


def test_clean_export_has_arms_reads_and_bars(tmp_path: Path) -> None:
    code, dest = _export(tmp_path, SAMPLES / "gpu-calc-hard-equal-update-3seeds.json")
    assert code == 0
    doc = json.loads((dest / "result.json").read_text())
    assert doc["arms"][0]["name"] == "cold-start-only"
    assert all(len(a["reads"]) == 3 for a in doc["arms"])
    html = (dest / "index.html").read_text()
    assert html.count('class="wilson"') == 15 and html.count('class="range"') == 5
    assert "paired, n_seeds=3" in html and SINGLE_SEED_LABEL not in html
    # every bar position is a percentage on the one 0-100 % scale
    for value in re.findall(r"left: ([0-9.]+)%", html):
        assert 0.0 <= float(value) <= 100.0


@pytest.mark.parametrize("option", [["--metric", "score"]])
def test_episode_options_are_refused(tmp_path: Path, option: list[str]) -> None:
    dest = tmp_path / "o"
    code = main(["export", str(SINGLE), "--output-dir", str(dest), *option])
    assert code == 1 and not dest.exists()


def test_injected_markup_in_arm_names_stays_text(tmp_path: Path) -> None:
    doc = json.loads((SAMPLES / "cpu-toy-calc-equal-update-v2.json").read_text())
    for a in doc["arms"]:
        if a["name"] == "opd-exact":
            a["name"] = "<script>alert(1)</script><img src=x>"
    source = tmp_path / "in" / "r.json"
    source.parent.mkdir()
    source.write_text(json.dumps(doc))
    code, dest = _export(tmp_path, source)
    assert code == 0
    page = _Rows()
    html = (dest / "index.html").read_text()
    page.feed(html)
    assert page.scripts == 0 and page.external == []
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


@pytest.mark.parametrize("command", ["check", "score"])
def test_the_exported_result_json_says_to_open_its_source(
    tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The export is a publication copy that evalview does not read back: opening it names what
    it is and the harness file it came from (exit 2), not "neither a closed run nor ..."."""
    code, dest = _export(tmp_path, SINGLE)
    assert code == 0
    capsys.readouterr()
    assert main([command, str(dest / "result.json")]) == 2
    err = capsys.readouterr().err
    assert "an evalview export of a benchmark-harness result" in err
    assert "'gpu-calc-hard-single-seed.json'" in err
    assert "neither a closed run" not in err
