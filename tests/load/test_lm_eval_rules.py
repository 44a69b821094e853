"""Every EV050–EV063 rule is triggered by one minimal edit of a clean lm-eval output directory
(the generated model A: results JSON and four samples files), and `evalview check --json` gives
it with the rule's severity and its location (file, and line for a samples line). The clean
directory has no finding at all."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from evalview.audit import RULES
from evalview.samples import lm_eval as G
from helpers.inspect_logs import run_cli

TS = G.MODELS[0][4]
RESULTS = f"results_{TS}.json"
MC = f"samples_mc_binary_{TS}.jsonl"
GEN = f"samples_gen_em_{TS}.jsonl"


@dataclass
class Out:
    """Model A's output directory as files, edited in memory before it is written."""

    results: dict[str, Any]
    samples: dict[str, list[str]]  # file name -> its lines (JSON text, or anything)

    def line(self, name: str, i: int) -> dict[str, Any]:
        """Line i (0-based) of a samples file, parsed."""
        value: dict[str, Any] = json.loads(self.samples[name][i])
        return value

    def set_line(self, name: str, i: int, value: dict[str, Any]) -> None:
        self.samples[name][i] = json.dumps(value)


def _clean() -> Out:
    files = G.build(0)
    return Out(
        json.loads(files[RESULTS]),
        {n: b.decode().splitlines() for n, b in files.items() if n.startswith("samples_")},
    )


def _write(out: Out, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, lines in out.samples.items():
        (folder / name).write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    path = folder / RESULTS
    path.write_text(json.dumps(out.results, indent=2), encoding="utf-8")
    return path


def _check(out: Out, folder: Path) -> tuple[int, list[dict[str, Any]]]:
    done = run_cli(["check", _write(out, folder), "--json"])
    assert done.code in (0, 1), done.text
    return done.code, done.json["findings"]


# -- the edits ---------------------------------------------------------------------------------


def _n_samples_not_numbers(o: Out) -> None:
    o.results["n-samples"]["mc_binary"] = {"original": "sixty", "effective": 60}


def _limit(o: Out) -> None:
    o.results["n-samples"]["mc_binary"]["original"] = 100


def _stderr_na(o: Out) -> None:
    o.results["results"]["mc_binary"]["acc_stderr,none"] = "N/A"


def _no_git_hash(o: Out) -> None:
    del o.results["git_hash"]


def _private_model_args(o: Out) -> None:
    o.results["config"]["model_args"] = "pretrained=/home/alice/ckpt,dtype=bfloat16"


def _group_off(o: Out) -> None:
    for section in ("results", "groups"):
        o.results[section]["arith"]["acc,none"] += 0.05


def _stderr_off(o: Out) -> None:
    o.results["results"]["mc_binary"]["acc_stderr,none"] *= 2


def _document_flipped(o: Out) -> None:
    d = o.line(MC, 0)
    d["acc"] = 1.0 - d["acc"]
    o.set_line(MC, 0, d)


def _doc_hash_copied(o: Out) -> None:
    d = o.line(MC, 5)
    d["doc_hash"] = o.line(MC, 4)["doc_hash"]
    o.set_line(MC, 5, d)


def _document_dropped(o: Out) -> None:
    o.samples[MC].pop()


def _not_a_mean(o: Out) -> None:
    o.results["configs"]["mc_binary"]["metric_list"][0]["aggregation"] = "median"


def _no_samples(o: Out) -> None:
    o.samples.clear()


def _broken_line(o: Out) -> None:
    o.samples[MC].insert(1, "{not json")


def _graded_headline(o: Out) -> None:
    d = o.line(GEN, 0)
    d["exact_match"] = 0.5
    o.set_line(GEN, 0, d)


Edit = Callable[[Out], None]

#: code -> (edit, severity, file of the finding, line of the finding)
CASES: dict[str, tuple[Edit, str, str, int | None]] = {
    "EV050": (_n_samples_not_numbers, "error", RESULTS, None),
    "EV051": (_limit, "warning", RESULTS, None),
    "EV052": (_stderr_na, "warning", RESULTS, None),
    "EV053": (_no_git_hash, "warning", RESULTS, None),
    "EV054": (_private_model_args, "warning", RESULTS, None),
    "EV055": (_group_off, "error", RESULTS, None),
    "EV056": (_stderr_off, "error", RESULTS, None),
    "EV057": (_document_flipped, "error", RESULTS, None),
    "EV058": (_doc_hash_copied, "error", MC, 6),
    "EV059": (_document_dropped, "error", MC, None),
    "EV060": (_not_a_mean, "info", RESULTS, None),
    "EV061": (_no_samples, "info", RESULTS, None),
    "EV062": (_broken_line, "error", MC, 2),
    "EV063": (_graded_headline, "warning", RESULTS, None),
}

#: what each finding's message must name (the task, metric or field it is about)
NAMES = {
    "EV050": "n-samples.mc_binary", "EV051": "mc_binary 60 of 100", "EV052": "acc,none",
    "EV053": "git_hash", "EV054": "pretrained", "EV055": "group arith", "EV056": "mc_binary",
    "EV057": "mc_binary acc,none", "EV058": "doc_id 5", "EV059": "59 documents",
    "EV060": "not a mean", "EV061": "no samples_", "EV062": "not valid JSON", "EV063": "gen_em",
}


def test_the_clean_directory_has_no_finding(tmp_path: Path) -> None:
    code, found = _check(_clean(), tmp_path)
    assert (code, found) == (0, [])


@pytest.mark.parametrize("code", sorted(CASES))
def test_edit_triggers_rule(tmp_path: Path, code: str) -> None:
    edit, severity, file, line = CASES[code]
    out = _clean()
    edit(out)
    exit_code, found = _check(out, tmp_path)
    hits = [f for f in found if f["code"] == code]
    assert hits, (code, [f"{f['code']} {f['message']}" for f in found])
    for f in hits:
        assert f["severity"] == severity == RULES[code].severity.value
        assert (f["file"], f["line"]) == (file, line), f
        assert NAMES[code] in f["message"], f["message"]
    # an error finding fails the check (exit 1); caveats and information do not
    errors = any(f["severity"] == "error" for f in found)
    assert exit_code == (1 if errors else 0)
    if severity == "error":
        assert exit_code == 1


def test_a_token_in_model_args_is_said_without_its_value(tmp_path: Path) -> None:
    out = _clean()
    secret = "hf_" + "a" * 30
    out.results["config"]["model_args"] = {"pretrained": "org/model-a", "token": secret}
    _code, found = _check(out, tmp_path)
    hits = [f for f in found if f["code"] == "EV054"]
    assert len(hits) == 1 and "token" in hits[0]["message"]
    assert secret not in json.dumps(found)


def test_every_lm_eval_rule_has_a_case() -> None:
    ours = {c for c in RULES if c[:4] in ("EV05", "EV06")}
    assert ours == set(CASES) == {f"EV{n:03d}" for n in range(50, 64)}
