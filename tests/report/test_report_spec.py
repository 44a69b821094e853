"""The export against closed-result-format's sentences about the report: the method
configuration is shown only when supplied (a legacy projection is labelled "configuration not
supplied"), extra private files are neither read nor copied, an off-protocol read is labelled, and
the page does not claim the schedule covers the native benchmark."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from report_runs import copy_example, rewrite

from evalview.report.export import export_run


@pytest.fixture
def run(tmp_path: Path) -> Path:
    return copy_example(tmp_path / "run")


def _export(run: Path, tmp_path: Path) -> tuple[dict[str, Any], str]:
    out = tmp_path / "out"
    export_run(run, out, bootstrap=0)
    doc: dict[str, Any] = json.loads((out / "result.json").read_text())
    return doc, (out / "index.html").read_text()


def test_participant_configuration_is_shown(run: Path, tmp_path: Path) -> None:
    doc, html = _export(run, tmp_path)
    assert doc["method"]["configuration_supplied"] is True
    assert "configuration not supplied" not in html
    assert "&#34;memory&#34;" in html or '"memory"' in html
    assert "planner (planning)" in html


def test_legacy_projection_is_labelled_not_supplied(run: Path, tmp_path: Path) -> None:
    def legacy(m: dict[str, Any]) -> None:
        m["method_origin"] = "legacy_policy_projection"
        m["method"]["configuration"] = {"legacy_beam_width": 3}

    rewrite(run, manifest=legacy)
    doc, html = _export(run, tmp_path)
    assert doc["method"]["configuration"] is None
    assert doc["method"]["configuration_supplied"] is False
    assert "configuration not supplied</strong> (legacy policy projection)" in html
    assert "legacy_beam_width" not in html and "legacy_beam_width" not in json.dumps(doc)


def test_no_method_is_labelled_not_supplied(run: Path, tmp_path: Path) -> None:
    rewrite(run, manifest=lambda m: (m.pop("method"), m.pop("method_origin")))
    doc, html = _export(run, tmp_path)
    assert doc["method"] is None
    assert "configuration not supplied</strong> (no method declaration)" in html


def test_configuration_markup_is_escaped(run: Path, tmp_path: Path) -> None:
    rewrite(run, manifest=lambda m: m["method"]["configuration"].update(
        note="<script>alert(1)</script>"))
    _, html = _export(run, tmp_path)
    assert "<script>alert(1)</script>" not in html


def test_extra_private_files_are_neither_scanned_nor_copied(run: Path, tmp_path: Path) -> None:
    (run / "private.json").write_text('{"api_key": "sk-live-123"}')
    one = sorted((run / "episodes").iterdir())[0]
    (one / "transcript.txt").write_text("PRIVATE PROMPT CONTENT")
    doc, html = _export(run, tmp_path)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["index.html", "result.json"]
    for text in (json.dumps(doc), html):
        assert "sk-live-123" not in text and "PRIVATE PROMPT" not in text


def test_off_protocol_read_is_exported_labelled(run: Path, tmp_path: Path) -> None:
    rewrite(run, manifest=lambda m: m["protocol"].update(deviations=["camera moved"]))
    doc, html = _export(run, tmp_path)
    assert any(label.startswith("OFF-PROTOCOL") for label in doc["labels"])
    assert "OFF-PROTOCOL" in html


def test_page_does_not_claim_benchmark_coverage(run: Path, tmp_path: Path) -> None:
    _, html = _export(run, tmp_path)
    assert "does not establish coverage of the whole native benchmark" in html
