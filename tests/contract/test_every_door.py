"""One answer through every door: every input, through every door, gets the same answer.

The same input must get the same findings, the same verdict and the same headline numbers
whether a reviewer runs `evalview check PATH`, `check DIR`, `table`, `score`, `compare`, `export`,
opens it in the app (its overview, its export dialog, `--watch`, the Runs screen of its folder)
or asks `evalview psr` (beside the app's partial credit). `evalview check PATH --json` is the
reference. A door that does not apply to an input (psr on a benchmark-harness file, any door on
a PSR checkpoint-inputs file, which is not a read) must say so, naming the file.

Parametrized input × door (`closed:faulty--check_dir`), so a failure names both. The app doors
(app, app_export, watch, psr, reads_once) assert on one pilot per input, and the Runs screen door
on one Runs screen over the folder of every input; each is made once per test run, whichever
xdist worker asks first (`World`). Failing cases are the divergences this test exists to show:
no skip, no xfail.
"""

from __future__ import annotations

import fcntl
import json
import os
import pickle
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from contract_doors import (
    Answer,
    AppObservation,
    ReadCount,
    Reference,
    RunsRowSeen,
    arm_totals,
    arms_headline,
    check_args,
    counts_of,
    findings_of,
    headline_of_score,
    names_the_audit,
    names_the_file,
    observe_app,
    observe_runs_screen,
    reference,
    run_headline,
    score_args,
    shown_of,
    shown_of_score,
)
from contract_inputs import CHECKPOINT_INPUTS, HARNESS, SPECS, Input, make, run_cli

T = TypeVar("T")

# -- the inputs, their reference answers and their app pilots, each made once -----------------


class World:
    """Everything the doors share, made once per test run: the inputs (in one folder, each in a
    folder of its own), the app's pilot of each input, the Runs screen of the folder of all
    inputs. Shared by the xdist workers through files under one lock each, so a pilot runs once
    whichever worker asks first; the reference answers are cheap and kept per worker."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.inputs_dir = root / "inputs"
        self.scratch = root / "scratch"
        for d in (self.inputs_dir, self.scratch, root / "app", root / "cache"):
            d.mkdir(parents=True, exist_ok=True)
        self._refs: dict[str, Reference] = {}

    def _once(self, key: str, compute: Callable[[], T]) -> T:
        """`compute()` once per test run (across workers), its value kept as a pickle."""
        cached = self.root / "cache" / f"{key}.pickle"
        with open(self.root / "cache" / f"{key}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if cached.is_file():
                value: T = pickle.loads(cached.read_bytes())
                return value
            value = compute()
            cached.write_bytes(pickle.dumps(value))
            return value

    def input(self, spec_id: str) -> Input:
        key = "input-" + _slug(spec_id)
        return self._once(key, lambda: make(spec_id, self.inputs_dir, self.scratch))

    def ref(self, spec_id: str) -> Reference:
        if spec_id not in self._refs:
            self._refs[spec_id] = reference(self.input(spec_id))
        return self._refs[spec_id]

    def app(self, spec_id: str) -> AppObservation:
        """The app's pilot on the input (once: the app doors each assert on their part)."""

        def observe() -> AppObservation:
            # a copy of its own: the watch door touches it while other doors read the input
            shared = self.input(spec_id)
            work = self.root / "app" / shared.folder.name
            shutil.rmtree(work, ignore_errors=True)
            work.mkdir()
            own = Input(spec_id, work / "input")
            shutil.copytree(shared.folder, own.folder)
            return observe_app(own, work)

        return self._once("app-" + _slug(spec_id), observe)

    def runs_screen(self) -> tuple[list[RunsRowSeen], str]:
        """`evalview INPUTS`: the Runs screen over the folder holding every input."""

        def observe() -> tuple[list[RunsRowSeen], str]:
            for spec_id in SPECS:
                self.input(spec_id)
            return observe_runs_screen(self.inputs_dir)

        return self._once("runs-screen", observe)


def _slug(spec_id: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "-" for c in spec_id)


@pytest.fixture(scope="session")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    base = tmp_path_factory.getbasetemp()
    # under xdist each worker has its own basetemp (popen-gwN) in the run's one folder
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    return World(shared / "contract-every-door")


def _diff(door: str, got: Answer, ref: Answer) -> str:
    """Which parts of the answer differ, with both values, in one message."""
    parts = []
    for name, a, b in (
        ("is a read", got.is_read, ref.is_read),
        ("verdict ok", got.ok, ref.ok),
        ("counts", dict(got.counts), dict(ref.counts)),
        ("headline", got.headline, ref.headline),
    ):
        if a != b:
            parts.append(f"{name}: {door} says {a!r}, check says {b!r}")
    if got.findings != ref.findings:
        only_door = sorted(set(got.findings) - set(ref.findings))
        only_check = sorted(set(ref.findings) - set(got.findings))
        parts.append(f"findings only in {door}: {only_door}; only in check: {only_check}")
    return f"{door} answers differently from `evalview check`: " + "; ".join(parts)


def _assert_same(door: str, got: Answer, ref: Answer) -> None:
    assert got.core() == ref.core(), _diff(door, got, ref)


def _no_cases(inp: Input, ref: Reference, text: str, door: str) -> None:
    """A read `score` finds no case in (an aggregates-only read): the door refuses it with
    score's words, naming the file."""
    assert ref.no_cases, ref.score.text
    said = " ".join(text.split())
    assert ref.no_cases in said, f"{door} does not say what score says ({ref.no_cases}): {said}"
    assert names_the_file(inp, said), f"{door}'s refusal does not name the file: {said}"


def _not_applicable(inp: Input, res: Any, door: str) -> None:
    """The door refuses an input it does not apply to: exit 1 or 2, naming the file."""
    assert res.code in (1, 2), f"{door} on {inp.path.name} (not a read) exits {res.code}"
    assert names_the_file(inp, res.text), f"{door}'s refusal does not name the file: {res.text}"


# -- the doors ---------------------------------------------------------------------------------


def door_check(w: World, inp: Input, ref: Reference, tmp_path: Path) -> None:
    """The reference itself: its exit code is its verdict, its counts tally its findings, and a
    file of several reads checked whole says of each read what `--read KEY` says."""
    if not ref.answer.is_read:
        assert ref.check.code == 2, ref.check.text
        assert names_the_file(inp, ref.check.text), ref.check.text
        return
    doc = ref.check.json
    assert doc["ok"] == ref.answer.ok
    assert ref.check.code == (0 if ref.answer.ok else 1)
    tally = {"error": 0, "warning": 0, "info": 0}
    for f in doc["findings"]:
        tally[f["severity"]] += 1
    assert counts_of(tally) == ref.answer.counts
    if inp.read is not None:
        whole = run_cli(["check", inp.path, "--json"])
        mine = [r for r in whole.json["reads"] if r["run_id"] == inp.read]
        assert len(mine) == 1, [r["run_id"] for r in whole.json["reads"]]
        assert findings_of(mine[0]["findings"]) == ref.answer.findings
        assert counts_of(mine[0]["counts"]) == ref.answer.counts


def door_check_dir(w: World, inp: Input, ref: Reference, tmp_path: Path) -> None:
    """`check DIR --json`, DIR holding only the input."""
    res = run_cli(["check", inp.folder, "--json"])
    if not ref.answer.is_read:
        assert res.code == 2, f"check DIR on a folder holding only {inp.path.name}: {res.text}"
        assert names_the_file(inp, res.text), res.text
        return
    doc = res.json
    docs = [d for d in doc["runs"] if d["path"] == inp.spec.name and d.get("read") == inp.read]
    assert len(docs) == 1, (
        f"check DIR does not list {inp.spec.name} [{inp.read}] as one read: runs "
        f"{[(d['path'], d.get('read')) for d in doc['runs']]}, skipped {doc.get('skipped')}"
    )
    d = docs[0]
    assert d["status"] == "read", d.get("error")
    got = Answer(True, findings_of(d["findings"]), counts_of(d["counts"]), ref.answer.headline)
    _assert_same("check DIR", got, ref.answer)
    assert d["ok"] == ref.answer.ok
    if inp.read is None:
        assert res.code == (0 if ref.answer.ok else 1), (
            f"check DIR exits {res.code}; check PATH exits {ref.check.code}"
        )


def _table(w: World, inp: Input, ref: Reference, *, allow_errors: bool) -> dict[str, Any] | None:
    extra = ["--allow-errors"] if allow_errors else []
    res = run_cli(["table", inp.folder, "--format", "json", "--bootstrap", "0", *extra])
    door = "table --allow-errors" if allow_errors else "table"
    if not ref.answer.is_read:
        assert res.code == 2, f"{door} on a folder holding only {inp.path.name}: {res.text}"
        assert names_the_file(inp, res.text), res.text
        return None
    doc = res.json
    rows = [
        r for r in doc["rows"]
        if Path(r["path"]).name == inp.spec.name and r.get("read") == inp.read
    ]
    if inp.kind == HARNESS:
        return _harness_rows(door, inp, ref, rows, res.code, allow_errors=allow_errors)
    assert len(rows) == 1, (
        f"{door} has no row for {inp.spec.name} [{inp.read}] (left out of the table): rows "
        f"{[(r['path'], r.get('read')) for r in doc['rows']]}, skipped {doc.get('skipped')}"
    )
    row = rows[0]
    assert counts_of(row["counts"]) == ref.answer.counts, (
        f"{door}'s row counts {row['counts']}; check counts {dict(ref.answer.counts)}"
    )
    if inp.kind != HARNESS:
        got = run_headline(row["successes"], row["selected"])
        assert got == ref.answer.headline, f"{door}: {got}; score: {ref.answer.headline}"
        if not row["refused"]:
            _assert_shown(door, shown_of(row["mean"], row["labels"]), ref)
    if inp.read is None:
        assert res.code == (1 if row["refused"] else 0), (res.code, row["refused"])
    return row


def _harness_rows(
    door: str,
    inp: Input,
    ref: Reference,
    rows: list[dict[str, Any]],
    code: int,
    *,
    allow_errors: bool,
) -> dict[str, Any]:
    """A harness result in the table: one row per arm (docs/folders.md), each with check's
    counts and the arm's solved / rollouts summed over its seeds; one refused row for a file
    that does not validate. Refused for the audit (every arm) unless allowed."""
    assert rows, f"{door} has no row for {inp.spec.name} (left out of the table)"
    for row in rows:
        assert counts_of(row["counts"]) == ref.answer.counts, (
            f"{door}'s row counts {row['counts']}; check counts {dict(ref.answer.counts)}"
        )
    if ref.answer.headline is None:  # not a valid BenchmarkResult: one row, refused
        assert len(rows) == 1 and rows[0]["refused"], rows
        assert code == 1
        return rows[0]
    got = {r["arm"]: (r["successes"], r["selected"]) for r in rows}
    assert got == arm_totals(ref.answer.headline), f"{door}: {got}"
    refused = {bool(r["refused"]) for r in rows}
    assert refused == {bool(ref.answer.errors) and not allow_errors}, (door, refused)
    assert code == (1 if True in refused else 0), (code, refused)
    return rows[0]


def door_table(w: World, inp: Input, ref: Reference, tmp_path: Path) -> None:
    """`table DIR --format json`: the read is a row, with check's counts and score's
    denominators, refused (the audit named) when the audit has errors."""
    row = _table(w, inp, ref, allow_errors=False)
    if row is not None and ref.answer.errors:
        assert row["refused"] and names_the_audit(row["refused"]), (
            f"table does not refuse a read whose audit has {ref.answer.errors} error(s) for "
            f"them: refused={row['refused']!r}"
        )


def door_table_allow_errors(w: World, inp: Input, ref: Reference, tmp_path: Path) -> None:
    """`table DIR --format json --allow-errors`: a read with audit errors stays refused or
    labelled with them; a read without keeps no such label."""
    row = _table(w, inp, ref, allow_errors=True)
    if row is None:
        return
    labelled = [lbl for lbl in row["labels"] if "audit error" in lbl]
    if ref.answer.errors:
        n = ref.answer.errors
        assert row["refused"] or any(f"{n} audit error" in lbl for lbl in labelled), (
            f"table --allow-errors drops the audit-error label of a read with {n} audit "
            f"error(s): labels {row['labels']}, refused {row['refused']!r}"
        )
    else:
        assert not labelled, row["labels"]


def door_score(w: World, inp: Input, ref: Reference, tmp_path: Path) -> None:
    """`score PATH --json`: refused for the audit exactly when check finds errors, with the
    same denominators."""
    res = run_cli(score_args(inp, allow_errors=False))
    if not ref.answer.is_read:
        _not_applicable(inp, res, "score")
        return
    doc = res.json
    assert res.code == (1 if doc["refused"] else 0), (res.code, doc["refused"])
    if inp.kind == HARNESS:
        assert findings_of(doc["findings"]) == ref.answer.findings
        assert bool(doc["refused"]) == bool(ref.answer.errors or ref.answer.headline is None), (
            doc.get("refusals")
        )
        if not doc["refused"]:
            assert headline_of_score(inp, doc) == ref.answer.headline
        return
    codes = {r["code"] for r in doc.get("refusals") or []}
    assert ("audit-errors" in codes) == bool(ref.answer.errors), (
        f"score refusals {sorted(codes)}; check finds {ref.answer.errors} error(s)"
    )
    assert headline_of_score(inp, doc) == ref.answer.headline
    if not doc["refused"]:
        _assert_shown("score", shown_of_score(doc), ref)
        text = run_cli([a for a in score_args(inp, allow_errors=False) if a != "--json"])
        _assert_shown_in_text("score's text", text.stdout, ref)


def door_score_allow_errors(w: World, inp: Input, ref: Reference, tmp_path: Path) -> None:
    """`score PATH --json --allow-errors`: scored, labelled not publishable exactly when the
    audit has errors."""
    res = ref.score
    if not ref.answer.is_read:
        _not_applicable(inp, res, "score --allow-errors")
        return
    doc = res.json
    if inp.kind == HARNESS:
        if ref.answer.headline is None:  # not a valid BenchmarkResult: nothing to score
            assert res.code == 1 and doc["refused"], doc
            assert ref.answer.errors, "a harness file with no score but no audit error"
            return
        assert res.code == 0 and not doc["refused"], doc.get("refusals")
        labelled = any("not a publishable" in lbl for lbl in doc["labels"])
        assert labelled == bool(ref.answer.errors), doc["labels"]
        return
    codes = {r["code"] for r in doc.get("refusals") or []}
    assert "audit-errors" not in codes, codes
    n = ref.answer.errors
    labelled = [lbl for lbl in doc["labels"] if "audit error" in lbl]
    if n:
        assert any(f"{n} audit error" in lbl for lbl in labelled), doc["labels"]
    else:
        assert not labelled, doc["labels"]


def door_compare(w: World, inp: Input, ref: Reference, tmp_path: Path) -> None:
    """`compare PATH PATH --json --allow-errors` (the read with itself): refused when the audit
    has errors; else every pair agrees with itself."""
    reads = [] if inp.read is None else ["--read-a", inp.read, "--read-b", inp.read]
    res = run_cli(["compare", inp.path, inp.path, "--json", "--allow-errors", *reads])
    if not ref.answer.is_read:
        _not_applicable(inp, res, "compare")
        return
    if ref.answer.errors:
        assert res.code == 1, (
            f"compare does not refuse a read whose audit has {ref.answer.errors} error(s): "
            f"exit {res.code}, {res.text[:300]}"
        )
        assert names_the_audit(res.text), res.text
        return
    if ref.no_cases:
        assert res.code == 1, f"compare pairs a read score finds no case in: {res.text[:300]}"
        said = " ".join(res.text.split())
        # compare's own words (issue 27), not score's: it names the file and says why there is
        # nothing to pair and what would give pairs
        assert "not compared, nothing to pair" in said, said
        assert "no selected case to score" not in said, said
        assert names_the_file(inp, said), f"compare's refusal does not name the file: {said}"
        return
    assert res.code == 0, res.text
    doc = res.json
    if inp.kind == HARNESS:
        assert all(a["difference"] in (0, 0.0, None) for a in doc["arms"]), doc["arms"]
        return
    overall = doc["overall"]
    assert overall["only_a"] == overall["only_b"] == 0, overall
    assert ("run", overall["both"], ref.answer.headline[2]) == ref.answer.headline, (
        f"compare pairs {overall['both']} successes; score counts {ref.answer.headline}"
    )


def door_export(w: World, inp: Input, ref: Reference, tmp_path: Path) -> None:
    """`export PATH --output-dir DIR`: refused (nothing written) when the audit has errors;
    else result.json carries the same denominators."""
    out = tmp_path / "export"
    res = run_cli(["export", inp.path, "--output-dir", out, "--bootstrap", "0", *inp.read_args])
    if not ref.answer.is_read:
        _not_applicable(inp, res, "export")
        assert not out.exists()
        return
    if ref.answer.errors:
        assert res.code == 1 and not out.exists(), (res.code, res.text[:300])
        assert names_the_audit(res.text), res.text
        return
    if ref.no_cases:
        assert res.code == 1 and not out.exists(), (res.code, res.text[:300])
        _no_cases(inp, ref, res.text, "export")
        return
    assert res.code == 0, res.text
    _assert_result_json("export", inp, ref, json.loads((out / "result.json").read_text()))


def _assert_result_json(door: str, inp: Input, ref: Reference, result: dict[str, Any]) -> None:
    if inp.kind == HARNESS:
        assert arms_headline(result["arms"]) == ref.answer.headline
        assert counts_of(result["counts"]) == ref.answer.counts
        return
    c = result["counts"]
    got = run_headline(c["successes"], c["selected"])
    assert got == ref.answer.headline, f"{door}'s result.json: {got}; score: {ref.answer.headline}"
    _assert_shown(f"{door}'s result.json", shown_of(result["aggregate"]["mean"], result["labels"]),
                  ref)


def _assert_shown(door: str, got: Any, ref: Reference) -> None:
    """Issue 22: the all-T mean reads the same, rounded once, and the caveat of an SE that is
    zero by design goes wherever the number goes."""
    assert got == ref.shown, f"{door} shows {got}; score --json: {ref.shown}"


def _assert_shown_in_text(door: str, text: str, ref: Reference) -> None:
    assert ref.shown is not None
    mean, zero = ref.shown
    flat = " ".join(text.split())
    if mean is not None:
        assert mean in flat, f"{door} does not show the mean {mean}"
    assert ("zero by design" in flat) == (zero is not None), (
        f"{door}: the zero-SE caveat {'missing' if zero else 'shown without cause'}"
    )


def door_app(w: World, inp: Input, ref: Reference, tmp_path: Path) -> None:
    """`evalview PATH [--read KEY]`: the overview shows check's findings and verdict and
    score's denominators."""
    obs = w.app(inp.spec.id)
    assert "open" not in obs.broken and "closing" not in obs.broken, obs.broken
    if not ref.answer.is_read:
        assert obs.kind == "inputs", (obs.kind, obs.failure)
        return
    assert obs.kind in ("run", "harness"), (
        f"the app does not open the read: {obs.kind} (exit {obs.exit_code}): {obs.failure}"
    )
    assert obs.overview is not None
    _assert_same("the app", obs.overview, ref.answer)
    if obs.kind == "run" and ref.shown is not None:
        _assert_shown("the app", obs.shown, ref)
        _assert_shown_in_text("the app's Overview", obs.aggregate_text, ref)


def _keys_score_names(inp: Input) -> tuple[str, ...]:
    """The grouping keys `score --group-by` names for a key the read does not record."""
    res = run_cli([*score_args(inp, allow_errors=True), "--group-by", "no-such-key-here"])
    for r in res.json.get("refusals") or []:
        if r["code"] == "unknown-group":
            known = r["message"].split("groupable sample metadata keys: ", 1)[1]
            known = known.split(");", 1)[0]
            return () if known == "none" else tuple(known.split(", "))
    raise AssertionError(f"score took an unknown --group-by key: {res.text[:300]}")


def door_app_samples(w: World, inp: Input, ref: Reference, tmp_path: Path) -> None:
    """Issues 26/27: the app's Samples tab shows each sample's Wilson interval over epochs, the
    rates by each grouping key and the other scorers exactly as `score --json --group-by KEY`
    prints them; a read with none of them has no such tab."""
    if not ref.answer.is_read or inp.kind == HARNESS:
        return
    obs = w.app(inp.spec.id)
    assert "open" not in obs.broken and "samples" not in obs.broken, obs.broken
    if obs.kind != "run" or ref.score.code not in (0, 1):
        return
    doc = ref.score.json
    keys = _keys_score_names(inp)
    has = bool(doc.get("samples") or doc.get("other_scorers") or keys)
    assert (obs.samples is not None) == has, (
        f"the app {'has' if obs.samples is not None else 'has no'} Samples tab; score --json "
        f"has samples {bool(doc.get('samples'))}, other scorers "
        f"{bool(doc.get('other_scorers'))}, grouping keys {keys}"
    )
    if obs.samples is None:
        return
    assert obs.samples_keys == keys
    first = obs.samples[""]
    assert first["samples"] == doc.get("samples")
    assert first["other_scorers"] == doc.get("other_scorers", [])
    assert (first["groups"] or {}).get("key") == (keys[0] if keys else None)
    for key in keys:
        by = run_cli([*score_args(inp, allow_errors=True), "--group-by", key]).json
        assert obs.samples[key]["groups"] == by["groups"], key


def door_app_export(w: World, inp: Input, ref: Reference, tmp_path: Path) -> None:
    """The app's `e` dialog exports what `evalview export` exports, and refuses what it
    refuses."""
    obs = w.app(inp.spec.id)
    assert "open" not in obs.broken and "export" not in obs.broken, obs.broken
    e = obs.export
    if not ref.answer.is_read:
        assert e.outcome in ("no-dialog", "refused") and not e.written, e
        return
    assert e.outcome in ("ok", "refused"), e
    if ref.answer.errors:
        assert e.outcome == "refused" and not e.written, e
        assert names_the_audit(e.text), f"the app's export refuses, not for the audit: {e.text}"
        return
    if ref.no_cases:
        assert e.outcome == "refused" and not e.written, e
        _no_cases(inp, ref, e.text, "the app's export")
        return
    assert e.outcome == "ok", f"the app's export refuses what `evalview export` writes: {e.text}"
    assert e.result is not None
    _assert_result_json("the app's export", inp, ref, e.result)


def door_watch(w: World, inp: Input, ref: Reference, tmp_path: Path) -> None:
    """`evalview PATH --watch`: after the file is saved again, the re-read answers the same."""
    obs = w.app(inp.spec.id)
    assert "open" not in obs.broken, obs.broken
    watch = obs.watch
    assert watch.watching, f"--watch is not in effect in the app on {inp.path.name} ({obs.kind})"
    assert not watch.problems, f"re-reading after a touch fails: {watch.problems}"
    if not ref.answer.is_read:
        assert watch.still_inputs, "the checkpoint-inputs viewer did not survive a re-read"
        return
    assert "watch" not in obs.broken, obs.broken
    assert watch.reread is not None
    _assert_same("the re-read (--watch)", watch.reread, ref.answer)


def door_runs_screen(w: World, inp: Input, ref: Reference, tmp_path: Path) -> None:
    """`evalview DIR`: the Runs screen lists the read, with check's counts and score's
    denominators; a file that is not a read is skipped."""
    rows, title = w.runs_screen()
    rel = f"{inp.folder.name}/{inp.spec.name}"
    if not ref.answer.is_read:
        mine = [r for r in rows if r.rel == rel]
        assert [r.status for r in mine] == ["skipped"], (mine, title)
        return
    mine = [r for r in rows if r.rel == rel and r.read == inp.read]
    if inp.kind == HARNESS:
        assert mine and all(r.status == "read" for r in mine), (
            f"the Runs screen leaves {inp.spec.name} out: {mine}"
        )
        for r in mine:
            assert counts_of(r.counts) == ref.answer.counts, (r.counts, ref.answer.counts)
        if ref.answer.headline is not None:
            got = {r.arm: (r.successes, r.selected) for r in mine}
            assert got == arm_totals(ref.answer.headline), f"the Runs screen: {got}"
        return
    assert len(mine) == 1, (
        f"the Runs screen has no row for {rel} [{inp.read}]: "
        f"{[r for r in rows if r.rel == rel]}"
    )
    row = mine[0]
    assert row.status == "read", (
        f"the Runs screen leaves {inp.spec.name} out ({row.status}: {row.reason})"
    )
    assert counts_of(row.counts) == ref.answer.counts, (
        f"the Runs screen counts {row.counts}; check counts {dict(ref.answer.counts)}"
    )
    if inp.kind != HARNESS:
        got = run_headline(row.successes, row.selected)
        assert got == ref.answer.headline, f"the Runs screen: {got}; score: {ref.answer.headline}"


def _without(doc: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k not in keys}


def door_psr(w: World, inp: Input, ref: Reference, tmp_path: Path) -> None:
    """`evalview psr PATH --json` gives the app's partial credit, or refuses with the app's
    reason."""
    res = run_cli(["psr", inp.path, "--json", *inp.spec.side])
    if inp.kind == HARNESS:  # arms x seeds: no episode, no verifier message; the app has no tab
        _not_applicable(inp, res, "psr")
        return
    obs = w.app(inp.spec.id)
    assert "open" not in obs.broken, obs.broken
    if inp.kind == CHECKPOINT_INPUTS:
        assert obs.kind == "inputs", (obs.kind, obs.failure)
        assert res.code == 0, res.text
        assert obs.psr is not None
        assert _without(res.json, "input") == _without(obs.psr, "input")
        return
    assert obs.kind == "run", (obs.kind, obs.failure)
    if obs.psr is not None:
        assert res.code == 0, f"psr refuses what the app scores: {res.text}"
        assert _without(res.json, "input") == _without(obs.psr, "input")
        return
    why = " ".join((obs.psr_refusal or "").split())
    assert res.code == 1, f"psr exits {res.code} where the app says: {why}; psr says {res.text}"
    assert why in res.text, f"the app says {why!r}; psr says {res.text!r}"


def door_reads_once(w: World, inp: Input, ref: Reference, tmp_path: Path) -> None:
    """The app reads (and parses) the input as often as `check` does: once."""
    count = ReadCount(inp.path)
    with count.counting():
        run_cli(check_args(inp))
    obs = w.app(inp.spec.id)
    assert count.reads == 1, f"check reads {inp.path.name} {count.reads} times"
    assert obs.reads == count.as_tuple(), (
        f"the app reads / parses {inp.path.name} {obs.reads}; check {count.as_tuple()}"
    )


DOORS: dict[str, Callable[[World, Input, Reference, Path], None]] = {
    "check": door_check,
    "check_dir": door_check_dir,
    "table": door_table,
    "table_allow_errors": door_table_allow_errors,
    "score": door_score,
    "score_allow_errors": door_score_allow_errors,
    "compare": door_compare,
    "export": door_export,
    "app": door_app,
    "app_export": door_app_export,
    "app_samples": door_app_samples,
    "watch": door_watch,
    "psr": door_psr,
    "reads_once": door_reads_once,
    "runs_screen": door_runs_screen,
}

CASES = [(spec_id, door) for spec_id in SPECS for door in DOORS]


def _case_id(case: tuple[str, str]) -> str:
    spec_id, door = case
    return f"{spec_id.replace('[', '@').replace(']', '')}--{door}"


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_one_answer_through_every_door(case: tuple[str, str], world: World, tmp_path: Path) -> None:
    spec_id, door = case
    DOORS[door](world, world.input(spec_id), world.ref(spec_id), tmp_path)


def test_every_format_and_door_is_covered() -> None:
    """The inputs span every format and the hostile variants; every door meets every input."""
    kinds = {s.kind for s in SPECS.values()}
    assert kinds == {
        "closed-run", "lerobot", "harness", "result-json", "checkpoint-inputs", "task-results",
        "inspect", "lm-eval",
    }
    hostile = {s.kind for s in SPECS.values() if s.id.startswith("hostile:")}
    assert {"closed-run", "lerobot", "harness", "task-results", "inspect", "lm-eval"} <= hostile
    assert any(s.read for s in SPECS.values())
    assert len(CASES) == len(SPECS) * len(DOORS)


@pytest.mark.parametrize("spec_id", [s.id for s in SPECS.values() if s.broken is not None])
def test_each_hostile_variant_breaks_what_it_says(spec_id: str, world: World) -> None:
    """A variant that stopped being hostile would make its doors agree for nothing."""
    ref = world.ref(spec_id).answer
    assert ref.is_read
    assert bool(ref.errors) == SPECS[spec_id].broken, ref.findings
