"""Export leaks (issue 10, class 4): no control character from the data reaches any exported file,
and a credential-shaped value in a published field refuses the export with a finding naming the
field and its JSON path (EV606), or, with --redact, is replaced and listed in result.json and on
the page."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from report_runs import copy_example, rewrite, tree_state

from evalview.cli import main
from evalview.report.destination import AuditRefused
from evalview.report.export import export_run
from evalview.report.leaks import find_leaks

#: C0 (other than the newline and tab of the files' own layout), DEL, C1, bidi and invisible marks.
_FORBIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]"
)
CONTROLS = "\x1b[31m\x07\x08\x0b\x7f\x9b\u202e\u200b\ufeff"

# Planted values, one per shape the issue saw leaking.
API_KEY = "sk-proj-AbCdEfGh0123456789ijklMNOP"
GITHUB = "ghp_0123456789abcdefghijABCDEFGHIJ0123"
AWS = "AKIAIOSFODNN7EXAMPLE"
BEARER = "Bearer eyJhbGciOiJIUzI1NiJ9.payload"
EMAIL = "alice.researcher@lab.example.org"
HOST = "gpu-node-07.cluster.internal"
PRIVATE_IP = "192.168.4.17"
TRACE = 'Traceback (most recent call last): File "drv.py", line 3'


def _plant(run: Path, where: str, value: str) -> None:
    """Put `value` into the field `where` of the run, consistently across its files."""

    def manifest(m: dict[str, Any]) -> None:
        if where == "policy.version":
            m["policy"]["version"] = value
        elif where == "benchmark.source_revision":
            m["benchmark"]["source_revision"] = value
        elif where == "method.models.role":
            m["method"]["models"][0]["role"] = value
        elif where == "method.models.provider":
            m["method"]["models"][0]["provider"] = value
        elif where == "method.configuration":
            m["method"]["configuration"]["endpoint"] = value

    def episode(r: dict[str, Any]) -> None:
        if r["episode"]["id"] != "task-00/seed1000":
            return
        if where == "termination_reason":
            r["termination_reason"] = value
        elif where == "error_type":
            r.update(status="error", success=None, termination_reason="error:policy",
                     error={"type": value, "category": "policy"}, metrics={})

    rewrite(run, manifest=manifest, episode=episode)
    if where == "error_type":
        status = json.loads((run / "status.json").read_text())
        summary = json.loads((run / "summary.json").read_text())
        summary.update(completed=summary["completed"] - 1, errors=summary["errors"] + 1)
        for key in ("success_rate", "completion_rate"):
            summary.pop(key, None)
        (run / "summary.json").write_text(json.dumps(summary))
        (run / "status.json").write_text(json.dumps(status))


PLANTED: list[tuple[str, str, str]] = [
    ("policy.version", API_KEY, "$.policy.version"),
    ("benchmark.source_revision", GITHUB, "$.benchmark.source_revision"),
    ("method.models.role", EMAIL, "$.method.models[0].role"),
    ("method.models.provider", HOST, "$.method.models[0].provider"),
    ("method.configuration", PRIVATE_IP, "$.method.configuration.endpoint"),
    ("termination_reason", BEARER, "$.episodes[0].termination_reason"),
    ("error_type", TRACE, "$.episodes[0].error_type"),
]


@pytest.mark.parametrize(("where", "value", "path"), PLANTED, ids=[p[0] for p in PLANTED])
def test_credential_shaped_value_refuses_naming_field_and_path(
    tmp_path: Path, where: str, value: str, path: str
) -> None:
    run = copy_example(tmp_path / "run")
    _plant(run, where, value)
    before = tree_state(tmp_path)
    with pytest.raises(AuditRefused) as info:
        export_run(run, tmp_path / "out", bootstrap=0)
    leaks = [f for f in info.value.findings if f.code == "EV606"]
    assert leaks and any(path in f.message for f in leaks), [f.message for f in leaks]
    field = path.rsplit(".", 1)[-1]
    assert any(f"`{field}`" in f.message and f.file for f in leaks)
    assert all(value not in f.message for f in leaks)  # the finding never repeats the secret
    assert tree_state(tmp_path) == before and not (tmp_path / "out").exists()


def test_run_id_and_episode_ids_point_at_their_source(tmp_path: Path) -> None:
    run = rewrite(copy_example(tmp_path / "run"),
                  lambda s: s.replace("task-01", f"task-01-{AWS}").replace("run-", f"{EMAIL}-"))
    with pytest.raises(AuditRefused) as info:
        export_run(run, tmp_path / "out", bootstrap=0)
    places = {(f.file, re.match(r"result\.json (\S+):", f.message).group(1))  # type: ignore[union-attr]
              for f in info.value.findings}
    assert ("manifest.json", "$.run_id") in places
    episode = [f for f in info.value.findings if "$.episodes[" in f.message and ".id" in f.message]
    assert episode and all(f.file == "episodes.jsonl" and f.line for f in episode)
    assert any("$.tasks[" in f.message for f in info.value.findings)


def test_cli_refuses_and_redact_publishes_a_listed_replacement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = copy_example(tmp_path / "run")
    _plant(run, "policy.version", API_KEY)
    out = tmp_path / "out"
    assert main(["export", str(run), "--output-dir", str(out), "--bootstrap", "0"]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "EV606" in err and "$.policy.version" in err and API_KEY not in err
    assert main(["export", str(run), "--output-dir", str(out), "--bootstrap", "0",
                 "--redact"]) == 0
    capsys.readouterr()
    text = (out / "result.json").read_text() + (out / "index.html").read_text()
    assert API_KEY not in text
    doc = json.loads((out / "result.json").read_text())
    assert doc["policy"]["version"] == "[redacted API key]"
    assert {"path": "$.policy.version", "field": "version", "kind": "API key"} in doc["redacted"]
    page = (out / "index.html").read_text()
    assert 'id="redacted"' in page and "$.policy.version" in page
    assert main(["check", str(out / "result.json")]) == 0  # the redacted file still audits clean


def test_control_characters_never_reach_an_exported_file(tmp_path: Path) -> None:
    run = rewrite(
        copy_example(tmp_path / "run"),
        lambda s: s.replace("task-00", f"task-00{CONTROLS}").replace("run-", f"run-{CONTROLS}"),
    )
    export_run(run, tmp_path / "out", bootstrap=0)
    for name in ("result.json", "index.html"):
        text = (tmp_path / "out" / name).read_text(encoding="utf-8")
        assert _FORBIDDEN.search(text) is None, (name, _FORBIDDEN.search(text))
        assert "\\u001b" not in text  # not even escaped in the JSON
    doc = json.loads((tmp_path / "out" / "result.json").read_text())
    assert doc["tasks"][0]["task"] == "task-00[31m"  # the ESC is gone, the rest kept


@pytest.mark.parametrize(
    "benign",
    ["task-00/seed1000", "environment:truncated", "error:infrastructure", "TimeoutError",
     "v1.2.3", "pick.place", "skill-sk-1", "a@b", "10.5 %", "planner", "episodes.jsonl"],
)
def test_benign_values_are_not_flagged(benign: str) -> None:
    assert find_leaks({"x": benign}) == []


def _flag(value: str) -> Callable[[], list[Any]]:
    return lambda: find_leaks({"x": value})


@pytest.mark.parametrize(
    "value", [API_KEY, GITHUB, AWS, BEARER, EMAIL, HOST, PRIVATE_IP, TRACE, "localhost:8080"]
)
def test_each_shape_is_flagged(value: str) -> None:
    assert [leak.path for leak in _flag(value)()] != []
