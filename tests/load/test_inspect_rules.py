"""Every EV0xx rule is triggered by a minimal edit of a clean Inspect log (both formats where the
rule applies to both), with the rule's severity, and a clean log triggers no error or warning."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import pytest

from evalview.audit import RULES
from evalview.findings import Finding, Severity
from evalview.load import read_input
from evalview.load.inspect_ai import read_log
from evalview.load.source import Source
from evalview.samples import inspect_ai as G
from helpers.inspect_logs import edited, small_log, write

CLEAN = [["C", "C"], ["I", "C"], ["I", "I"], ["C", "I"]]


def _clean() -> G.InspectLog:
    return small_log(CLEAN)


def _findings(log: G.InspectLog, tmp_path: Path, fmt: str) -> list[Finding]:
    path = write(log, tmp_path / f"log.{fmt}", fmt)
    return read_log(Source(path)).reading_findings


def _sample(log: G.InspectLog, sid: int, epoch: int) -> dict:  # type: ignore[type-arg]
    return next(d for d in log.samples if d["id"] == sid and d["epoch"] == epoch)


def _status(log: G.InspectLog) -> None:
    log.header["status"] = "cancelled"


def _task_not_a_name(log: G.InspectLog) -> None:
    log.header["eval"]["task"] = 7


def _subset(log: G.InspectLog) -> None:
    log.header["eval"]["config"]["limit"] = 4
    log.header["eval"]["dataset"]["samples"] = 100


def _duplicate_id(log: G.InspectLog) -> None:
    log.header["eval"]["dataset"]["sample_ids"].append(1)


def _bad_value(log: G.InspectLog) -> None:
    _sample(log, 2, 1)["scores"]["includes"]["value"] = "maybe"


def _doctored_accuracy(log: G.InspectLog) -> None:
    log.header["results"]["scores"][0]["metrics"]["accuracy"]["value"] = 0.9


def _doctored_count(log: G.InspectLog) -> None:
    log.header["results"]["scores"][0]["scored_samples"] = 3


def _doctored_reduction(log: G.InspectLog) -> None:
    assert log.reductions is not None
    log.reductions[0]["samples"][2]["value"] = 1.0


def _missing_sample(log: G.InspectLog) -> None:
    log.samples.remove(_sample(log, 3, 2))


def _unscored(log: G.InspectLog) -> None:
    _sample(log, 4, 2)["scores"]["includes"]["value"] = math.nan


def _graded(log: G.InspectLog) -> None:
    _sample(log, 1, 1)["scores"]["includes"]["value"] = "P"


def _not_recomputed(log: G.InspectLog) -> None:
    log.header["results"]["scores"][0]["metrics"]["bootstrap_stderr"] = {
        "name": "bootstrap_stderr", "value": 0.2, "params": {}}


def _no_samples(log: G.InspectLog) -> None:
    log.samples.clear()


def _unknown_sample(log: G.InspectLog) -> None:
    extra = dict(_sample(log, 1, 1))
    extra["id"] = 999
    log.samples.append(extra)


def _duplicate_sample_json(log: G.InspectLog) -> None:
    log.samples.append(dict(_sample(log, 2, 2)))


Edit = Callable[[G.InspectLog], None]

#: code -> (edit, formats it is made in)
CASES: dict[str, tuple[Edit, tuple[str, ...]]] = {
    "EV001": (_task_not_a_name, ("eval", "json")),
    "EV002": (_status, ("eval", "json")),
    "EV005": (_subset, ("eval", "json")),
    "EV007": (_duplicate_id, ("eval", "json")),
    "EV009": (_bad_value, ("eval", "json")),
    "EV010": (_doctored_accuracy, ("eval", "json")),
    "EV011": (_doctored_count, ("eval", "json")),
    "EV012": (_doctored_reduction, ("eval", "json")),
    "EV013": (_missing_sample, ("eval", "json")),
    "EV014": (_unscored, ("eval", "json")),
    "EV015": (_graded, ("eval", "json")),
    "EV018": (_not_recomputed, ("eval", "json")),
    "EV019": (_no_samples, ("eval", "json")),
    "EV020": (_unknown_sample, ("eval", "json")),
}


@pytest.mark.parametrize("fmt", ["eval", "json"])
def test_clean_log_has_no_error_or_warning(tmp_path: Path, fmt: str) -> None:
    found = _findings(_clean(), tmp_path, fmt)
    assert [f for f in found if f.severity is not Severity.INFO] == []
    assert {f.code for f in found} == {"EV006", "EV016"}  # 2 epochs: the reducer; the headline


@pytest.mark.parametrize(
    ("code", "fmt"), [(c, f) for c, (_e, fmts) in sorted(CASES.items()) for f in fmts]
)
def test_edit_triggers_rule(tmp_path: Path, code: str, fmt: str) -> None:
    edit, _fmts = CASES[code]
    found = _findings(edited(_clean(), edit), tmp_path, fmt)
    hits = [f for f in found if f.code == code]
    assert hits, (code, [f"{f.code} {f.message}" for f in found])
    for f in hits:
        assert f.severity is RULES[code].severity
        assert f.file == f"log.{fmt}"
        assert f.message.strip()


def test_errors_limits_and_headline(tmp_path: Path) -> None:
    log = small_log([["C", None], ["I", "C"], [None, "I"]], limits={(2, 1): "token"})
    found = {f.code: f for f in _findings(log, tmp_path, "eval")}
    assert found["EV003"].severity is Severity.WARNING
    assert "2 sample-epoch(s) ended in an error" in found["EV003"].message
    assert found["EV004"].episode_id == "2/epoch1"
    assert "token 1" in found["EV004"].message
    # Inspect's accuracy is over the scored samples (errored epochs left out), evalview's over
    # every selected sample-epoch
    assert "2 errored sample-epoch(s) are left out of its denominator" in found["EV016"].message
    assert "successes / selected = 2 / 6" in found["EV016"].message


def test_duplicate_sample_in_a_json_log(tmp_path: Path) -> None:
    found = _findings(edited(_clean(), _duplicate_sample_json), tmp_path, "json")
    dup = [f for f in found if f.code == "EV007"]
    assert dup and dup[0].episode_id == "2/epoch2"


def test_superseded_member_is_read_last(tmp_path: Path) -> None:
    """A re-logged sample member: Inspect reads the last one, and so does evalview (EV008)."""
    log = _clean()
    members = G.eval_members(log)
    again = dict(_sample(log, 3, 1))
    again["scores"] = {"includes": {"value": "C"}}
    members.insert(-1, ("samples/3_epoch_1.json", G.dumps(again)))
    path = tmp_path / "log.eval"
    G.write_zip(path, members)
    run = read_log(Source(path))
    codes = {f.code for f in run.reading_findings}
    assert "EV008" in codes
    i = list(run.episodes.ids).index("3/epoch1")
    assert run.episodes.success[i] == 1  # the last member's C, not the first's I
    # the recorded metrics were computed from the first attempt: the audit says so
    assert "EV010" in codes


def test_summary_disagreeing_with_its_sample(tmp_path: Path) -> None:
    log = _clean()
    members = G.eval_members(log)
    summaries = [G.summary_doc(d) for d in log.samples]
    summaries[0]["scores"]["includes"]["value"] = (
        "I" if summaries[0]["scores"]["includes"]["value"] == "C" else "C"
    )
    members = [(n, G.dumps(summaries) if n == "summaries.json" else b) for n, b in members]
    path = tmp_path / "log.eval"
    G.write_zip(path, members)
    found = [f for f in read_log(Source(path)).reading_findings if f.code == "EV017"]
    assert len(found) == 1 and "summaries.json" in found[0].message


def test_every_inspect_rule_has_a_case() -> None:
    made_elsewhere = {"EV003", "EV004", "EV006", "EV008", "EV016", "EV017"}  # tests above
    # Inspect AI has EV001-EV049 of EV0xx; EV050-EV069 are lm-eval's (test_lm_eval_rules.py)
    inspect = {c for c in RULES if c.startswith("EV0") and int(c[2:]) < 50}
    assert inspect == set(CASES) | made_elsewhere


def test_read_through_the_registry(tmp_path: Path) -> None:
    path = write(_clean(), tmp_path / "no-suffix", "eval")
    reading = read_input(path)
    assert reading.format == "inspect-ai"
    assert len(reading.runs[0].run.schedule) == 8
