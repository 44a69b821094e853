"""export_run: what is published, what is not, and every refusal leaving nothing behind."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from report_runs import EXAMPLE, copy_example, rewrite, tree_state

from evalview.audit import audit
from evalview.load import InputError, load_run
from evalview.model.result import Result
from evalview.report.destination import Refused
from evalview.report.export import AuditRefused, export_run
from evalview.report.sanitize import Scrubber, iter_strings
from evalview.stats import score_run


@pytest.fixture
def run(tmp_path: Path) -> Path:
    return copy_example(tmp_path / "run")


def _doc(dest: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((dest / "result.json").read_text())
    return data


def test_numbers_are_the_scorecards(run: Path, tmp_path: Path) -> None:
    done = export_run(run, tmp_path / "out", bootstrap=2000)
    loaded = load_run(run)
    card = score_run(loaded, findings=audit(loaded), bootstrap=2000, allow_errors=True)
    doc = _doc(tmp_path / "out")
    Result.model_validate(doc)
    assert doc["denominators"][0]["name"] == "selected"  # the headline comes first
    assert [d["denominator"] for d in doc["denominators"]] == [12, 12, 8]
    assert doc["counts"] == {
        k: getattr(card.denominators, k)
        for k in ("selected", "attempted", "completed", "errors", "successes", "unattempted")
    }
    assert doc["rates"] == card.rates.to_json()
    assert doc["aggregate"]["mean"] == card.aggregate.mean
    assert doc["aggregate"]["se"] == card.aggregate.se
    assert doc["aggregate"]["bootstrap"] == list(card.aggregate.bootstrap or ())
    assert [(t["task"], t["successes"], t["wilson95"]) for t in doc["tasks"]] == [
        (t.task, t.successes, list(t.wilson95)) for t in card.tasks
    ]
    assert doc["error_categories"] == {
        "policy": 1, "protocol": 1, "infrastructure": 1, "evaluation": 1
    }
    assert doc["pending_infrastructure_errors"] == 1
    assert {w["code"] for w in doc["audit_warnings"]} == {
        f.code for f in audit(loaded) if f.severity.value == "warning"
    }
    errored = [e for e in doc["episodes"] if e["status"] == "error"]
    assert len(errored) == 4 and all(e["success"] is None for e in errored)
    assert done.result.counts.selected == 12


def test_nothing_private_is_published(run: Path, tmp_path: Path) -> None:
    """The example's error messages hold /home/alice/...; none of that, nor instructions,
    metadata, usage or unselected metrics, may reach either file."""

    def plant(rec: dict[str, Any]) -> None:
        rec["episode"]["metadata"] = {"host": "lab-7", "cwd": "/home/alice/x"}
        rec["episode"]["instruction"] = "SECRET-INSTRUCTION"
        rec["metrics"]["private_note"] = "SECRET-METRIC"
        rec["artifacts"] = {"video": "/home/alice/v.mp4"}
        if rec["termination_reason"] == "policy:stop":
            rec["termination_reason"] = "policy:stop in /scratch/lab/sim.py"

    def identity(m: dict[str, Any]) -> None:
        # Paths and credential names in declarations are audit errors (EV212/EV213); a user
        # name is not something the audit can know, so the scrubber catches it.
        m["policy"]["version"] = "alice-ckpt-9000"

    rewrite(run, lambda s: "run-by-alice" if s == "run-1" else s, plant, identity)
    export_run(run, tmp_path / "out", bootstrap=0, scrubber=Scrubber(user_names=("alice",)))
    for name in ("result.json", "index.html"):
        text = (tmp_path / "out" / name).read_text()
        for secret in ("alice", "/home", "/scratch", "boom", "run.py", "SECRET", "lab-7",
                       "metadata", "private_note", "Perform the declared task", "usage",
                       "input_tokens", "artifacts", str(run), str(tmp_path)):
            assert secret not in text, (name, secret)
    doc = _doc(tmp_path / "out")
    assert doc["policy"]["version"] == "[user]-ckpt-9000"
    assert doc["run_id"] == "run-by-[user]"
    assert {e["termination_reason"] for e in doc["episodes"]} >= {"policy:stop in [path]"}
    assert doc["redactions"] >= 3
    for s in iter_strings(doc):
        assert not s.startswith("/"), s


def test_selected_metrics_only_native_values(run: Path, tmp_path: Path) -> None:
    def metrics(rec: dict[str, Any]) -> None:
        rec["metrics"]["nested"] = {"score": 1}
        rec["metrics"]["flag"] = rec["episode"]["seed"] % 2 == 0

    rewrite(run, episode=metrics)
    export_run(run, tmp_path / "out", bootstrap=0,
               metrics=["score", "message", "nested", "flag", "absent"])
    doc = _doc(tmp_path / "out")
    assert doc["metrics_selected"] == ["score", "message", "nested", "flag", "absent"]
    by_id = {e["id"]: e["metrics"] for e in doc["episodes"]}
    first = by_id["task-00/seed1001"]
    assert first["score"] == 97
    assert first["message"] is None  # text is never a native metric
    assert first["nested"] is None  # nested objects are never selected
    assert first["flag"] is False and by_id["task-00/seed1000"]["flag"] is True
    assert first["absent"] is None
    assert by_id["task-00/seed1003"]["score"] is None  # errored: no metrics at all
    with pytest.raises(Refused, match="nested objects are never selected"):
        export_run(run, tmp_path / "out2", bootstrap=0, metrics=["nested.score"])
    assert not (tmp_path / "out2").exists()


def _assert_refused_cleanly(run: Path, parent: Path, before: dict[str, Any]) -> None:
    assert tree_state(run) == before
    assert not [p for p in parent.iterdir() if p.name.endswith(".partial")]


def test_refuses_an_existing_destination(run: Path, tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    with pytest.raises(Refused, match="already exists"):
        export_run(run, tmp_path / "out")
    os.symlink(tmp_path / "nowhere", tmp_path / "dangling")
    with pytest.raises(Refused, match="already exists"):
        export_run(run, tmp_path / "dangling")


@pytest.mark.parametrize("how", ["direct", "dotdot", "symlink", "itself"])
def test_refuses_a_destination_inside_the_run(run: Path, tmp_path: Path, how: str) -> None:
    before = tree_state(run)
    if how == "direct":
        dest = run / "report"
    elif how == "dotdot":
        dest = tmp_path / "elsewhere" / ".." / "run" / "episodes" / "report"
        (tmp_path / "elsewhere").mkdir()
    elif how == "symlink":
        os.symlink(run, tmp_path / "alias")
        dest = tmp_path / "alias" / "report"
    else:
        dest = run / "episodes" / ".." / ".."
        dest = Path(str(run) + "/../run/new")
    with pytest.raises(Refused, match="inside the run"):
        export_run(run, dest)
    _assert_refused_cleanly(run, tmp_path, before)
    assert not (run / "report").exists() and not (run / "new").exists()


def test_refuses_an_inconsistent_record_listing_its_findings(run: Path, tmp_path: Path) -> None:
    summary = json.loads((run / "summary.json").read_text())
    summary["successes"] = 11
    (run / "summary.json").write_text(json.dumps(summary))
    before = tree_state(run)
    with pytest.raises(AuditRefused) as info:
        export_run(run, tmp_path / "out")
    assert info.value.findings and all(f.severity.value == "error" for f in info.value.findings)
    assert any(f.file == "summary.json" for f in info.value.findings)
    assert not (tmp_path / "out").exists()
    _assert_refused_cleanly(run, tmp_path, before)


@pytest.mark.parametrize(
    "target", ["episodes.jsonl", "summary.json", "episodes/task-01-seed1002/result.json"]
)
def test_refuses_when_an_input_changes_mid_export(
    run: Path, tmp_path: Path, target: str
) -> None:
    def change() -> None:
        with open(run / target, "ab") as fh:
            fh.write(b" ")

    dest = tmp_path / "out"
    with pytest.raises(Refused, match=re.escape(target) + " changed while the export"):
        export_run(run, dest, bootstrap=0, before_commit=change)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]


def test_a_touched_input_is_a_change_too(run: Path, tmp_path: Path) -> None:
    def touch() -> None:
        st = os.stat(run / "manifest.json")
        os.utime(run / "manifest.json", ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))

    with pytest.raises(Refused, match=r"manifest\.json changed"):
        export_run(run, tmp_path / "out", bootstrap=0, before_commit=touch)
    assert not (tmp_path / "out").exists()


def test_a_new_result_file_mid_export_is_a_change(run: Path, tmp_path: Path) -> None:
    def add() -> None:
        (run / "episodes" / "late").mkdir()
        (run / "episodes" / "late" / "result.json").write_text("{}")

    with pytest.raises(Refused, match=r"episodes/late/result\.json changed"):
        export_run(run, tmp_path / "out", bootstrap=0, before_commit=add)


def test_source_is_byte_identical_afterwards(run: Path, tmp_path: Path) -> None:
    before = tree_state(run)
    export_run(run, tmp_path / "out", metrics=["score"], bootstrap=0)
    assert tree_state(run) == before
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["index.html", "result.json"]


def test_the_example_is_untouched(tmp_path: Path) -> None:
    before = tree_state(EXAMPLE)
    export_run(EXAMPLE, tmp_path / "out", bootstrap=0)
    assert tree_state(EXAMPLE) == before


def test_unreadable_source_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        export_run(tmp_path / "missing", tmp_path / "out")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="not a closed run"):
        export_run(tmp_path / "empty", tmp_path / "out")
    assert not (tmp_path / "out").exists()


def _age(run: Path, seconds: int = 3600) -> None:
    """Make every file of the run as old as a closed run's (the files were just copied)."""
    old = (os.stat(run).st_mtime_ns // 10**9 - seconds) * 10**9
    for p in run.rglob("*"):
        os.utime(p, ns=(old, old), follow_symlinks=False)


def test_a_same_size_rewrite_with_the_old_mtime_is_caught_by_the_read_hash(
    run: Path, tmp_path: Path
) -> None:
    """A recent file keeping size and mtime (a coarse filesystem clock) is hashed again and
    compared with the hash taken while the loader read it."""
    target = run / "summary.json"
    os.utime(target)  # written just now (the copy kept the example's old mtimes)

    def rewrite_in_place() -> None:
        st = os.stat(target)
        data = target.read_bytes()
        target.write_bytes(data.replace(b"1", b"2", 1) if b"1" in data else data[:-1] + b" ")
        os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))
        assert os.stat(target).st_size == st.st_size

    with pytest.raises(Refused, match=r"summary\.json changed while the export"):
        export_run(run, tmp_path / "out", bootstrap=0, before_commit=rewrite_in_place)


def test_each_input_is_read_once_and_not_hashed_again(
    run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a closed run (old files) the export reads every input once, in the loader, hashes
    those bytes, and at the end only stats the files."""
    import hashlib

    from evalview.report import snapshot

    _age(run)
    rereads: list[Path] = []
    real_state = snapshot._state
    monkeypatch.setattr(snapshot, "_state", lambda p: rereads.append(p) or real_state(p))
    recorders: list[snapshot.Recorder] = []
    real_recorder = snapshot.Recorder

    def recorder() -> snapshot.Recorder:
        recorders.append(real_recorder())
        return recorders[-1]

    monkeypatch.setattr(snapshot, "Recorder", recorder)
    export_run(run, tmp_path / "out", bootstrap=0)
    assert rereads == []
    (rec,) = recorders
    assert sorted(rec.states) == sorted(snapshot.input_files(run))
    for rel, state in rec.states.items():
        assert state is not None
        assert state.sha256 == hashlib.sha256((run / rel).read_bytes()).hexdigest(), rel


def test_a_touched_old_input_is_still_a_change(run: Path, tmp_path: Path) -> None:
    _age(run)
    target = run / "episodes" / "task-01-seed1002" / "result.json"

    def touch() -> None:
        os.utime(target)

    with pytest.raises(Refused, match=r"task-01-seed1002/result\.json changed"):
        export_run(run, tmp_path / "out", bootstrap=0, before_commit=touch)
