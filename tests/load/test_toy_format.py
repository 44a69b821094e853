"""Adding a format is one module: a toy reader joined through the `evalview.readers` entry-point
group (no line of evalview changed) is read by every door, listed in help and refusals, and
asked after the built-in formats, so it can never capture one of them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest

import evalview.load.registry as registry
from evalview.cli import main
from evalview.load.reader import Reader
from helpers.closed_runs import outcomes_for, write_run

TOY = {
    "format": "toy-eval/v1",
    "run": "toy-1",
    "episodes": [
        {"task": "a", "seed": 1, "success": True},
        {"task": "a", "seed": 2, "success": False},
        {"task": "b", "seed": 1, "success": True},
        {"task": "b", "seed": 2, "success": True},
    ],
}


def _entry_points(*points: EntryPoint) -> Any:
    def fake(*, group: str) -> list[EntryPoint]:
        return list(points) if group == registry.ENTRY_POINT_GROUP else []

    return fake


@pytest.fixture
def toy_plugin(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    import importlib.metadata

    point = EntryPoint("toy", "toy_format:READER", registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(importlib.metadata, "entry_points", _entry_points(point))
    registry.plugin_readers.cache_clear()
    yield
    registry.plugin_readers.cache_clear()


def _toy(tmp_path: Path, doc: dict[str, Any] = TOY) -> Path:
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(doc))
    return path


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    code = main(list(args))
    out = capsys.readouterr().out
    return code, json.loads(out)


def test_without_the_plugin_the_toy_file_is_refused_naming_every_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registry.plugin_readers.cache_clear()
    assert main(["check", str(_toy(tmp_path))]) == 2
    err = capsys.readouterr().err
    assert "of no format evalview reads" in err
    for reader in registry.READERS:  # the refusal lists the formats from their declarations
        assert reader.described.split(" (")[0] in " ".join(err.split())


def test_the_plugin_is_read_by_check_score_table_and_compare(
    toy_plugin: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _toy(tmp_path)
    assert "a toy-eval results JSON" in registry.formats_sentence()
    code, check = _json(capsys, "check", str(path), "--json")
    assert code == 0 and check["ok"] is True and check["counts"]["error"] == 0
    code, score = _json(capsys, "score", str(path), "--json", "--bootstrap", "0")
    assert code == 0
    d = score["denominators"]
    assert (d["successes"], d["selected"]) == (3, 4)
    assert score["aggregate"]["mean"] == pytest.approx((0.5 + 1.0) / 2)
    code, table = _json(capsys, "table", str(tmp_path), "--format", "json", "--bootstrap", "0")
    assert code == 0
    [row] = table["rows"]
    assert (row["successes"], row["selected"], row["run_id"]) == (3, 4, "toy-1")
    code, folder = _json(capsys, "check", str(tmp_path), "--json")
    assert code == 0 and folder["runs"][0]["counts"] == check["counts"]
    code, compared = _json(capsys, "compare", str(path), str(path), "--json")
    assert code == 0 and compared["overall"]["pairs"] == 4


def test_the_plugin_says_why_it_has_no_partial_credit(
    toy_plugin: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["psr", str(_toy(tmp_path))]) == 1
    assert "toy.json is a toy-eval results JSON: it records no verifier messages" in " ".join(
        capsys.readouterr().err.split()
    )


def test_a_plugin_cannot_capture_a_built_in_format(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A greedy plugin (detects everything, priority 0) is still asked after the built-ins."""
    import importlib.metadata

    import toy_format

    greedy = Reader(
        "greedy", "takes everything", lambda s: True, toy_format.READER.read, priority=0
    )
    broken = EntryPoint("broken", "no_such_module:READER", registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(toy_format, "GREEDY", greedy, raising=False)
    point = EntryPoint("greedy", "toy_format:GREEDY", registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(importlib.metadata, "entry_points", _entry_points(broken, point))
    registry.plugin_readers.cache_clear()
    try:
        run = write_run(tmp_path / "run", outcomes_for({"t": (1, 2)}, 2))
        assert registry.read_input(run).format == "closed-run"
        # the broken entry point is left out, the greedy one listed after the built-ins
        assert [r.name for r in registry.all_readers()][-1] == "greedy"
    finally:
        registry.plugin_readers.cache_clear()


def test_readers_are_asked_by_declared_priority_not_by_position() -> None:
    priorities = [r.priority for r in registry.READERS]
    assert priorities == sorted(priorities)
    # the broad PSR checkpoint-inputs detector is asked last of the built-ins, by declaration
    assert registry.READERS[-1].name == "psr-checkpoint-inputs"
    assert registry.BUILTIN[-1] is not registry.READERS[0]


def test_docs_formats_table_is_the_registrys() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "formats.md").read_text()
    assert registry.formats_markdown() in doc


def test_every_export_label_is_a_source_format_result_json_accepts() -> None:
    from typing import get_args

    from evalview.model.result import Result

    accepted = set(get_args(Result.model_fields["source_format"].annotation))
    episode_readers = [r for r in registry.READERS if r.holds == "episodes"]
    for reader in episode_readers:
        assert reader.export_label is None or reader.export_label in accepted
