"""The inputs of the contract test, and the command line as the tests call it.

Every input sits alone in a folder of its own (so `check DIR`, `table DIR` and the Runs screen see
only it), as a copy: the watch door touches it, and evalview must never write beside the samples.
The inputs are every read under sample_runs/ (a file of several named reads is one input per read
KEY), sample_runs/psr/checkpoint-inputs.json (not a read: every door must say so), the vendored
example, an exported result.json of a sample run and a doctored copy of it, and hostile variants
of each format.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_runs"
VENDORED = REPO / "tests" / "audit" / "fixtures" / "closed-run-small"
#: The partial-credit side files of the checkpoint-inputs sample (as sample_runs/README.md runs it):
#: given to the doors that take them (the app and `evalview psr`), so both score it.
PSR_SIDE_FILES = (
    "--bare-targets", str(SAMPLES / "psr" / "bare-targets.json"),
    "--catalog", str(SAMPLES / "psr" / "catalog.json"),
)

CLOSED_RUN = "closed-run"
LEROBOT = "lerobot"
HARNESS = "harness"
RESULT_JSON = "result-json"
CHECKPOINT_INPUTS = "checkpoint-inputs"
TASK_RESULTS = "task-results"


@dataclass(frozen=True)
class CliResult:
    code: int
    stdout: str
    stderr: str

    @property
    def json(self) -> Any:
        """The one JSON document `--json` writes on stdout."""
        assert self.stdout.strip(), f"no JSON on stdout (exit {self.code}); stderr: {self.stderr}"
        return json.loads(self.stdout)

    @property
    def text(self) -> str:
        """Everything the command said, on either stream, whitespace collapsed (rich wraps)."""
        return " ".join(f"{self.stdout}\n{self.stderr}".split())


def run_cli(args: Sequence[str]) -> CliResult:
    """`evalview ARGS` in this process (the door scripts use), stdout and stderr captured."""
    from evalview.cli import main

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
        out.flush()
    assert isinstance(out.buffer, io.BytesIO)
    return CliResult(code, out.buffer.getvalue().decode("utf-8"), err.getvalue())


# -- how each input is made ------------------------------------------------------------------

Build = Callable[[Path, Path], None]  # (destination of the input, scratch folder of the session)


def _copy(src: Path) -> Build:
    def build(dest: Path, _scratch: Path) -> None:
        if src.is_dir():
            shutil.copytree(src, dest)
        else:
            shutil.copyfile(src, dest)

    return build


def _edited(src: Path, edit: Callable[[Any], None]) -> Build:
    """A copy of the JSON file (or of the closed run holding it) with one visible edit."""

    def build(dest: Path, _scratch: Path) -> None:
        if src.is_dir():  # a closed run: the edit is of its summary.json
            shutil.copytree(src, dest)
            target = dest / "summary.json"
        else:
            shutil.copyfile(src, dest)
            target = dest
        doc = json.loads(target.read_text(encoding="utf-8"))
        edit(doc)
        target.write_text(json.dumps(doc, indent=2), encoding="utf-8")

    return build


def exported_result(scratch: Path) -> Path:
    """`evalview export sample_runs/robobench-24x50 --output-dir X`: X/result.json (made once
    per session)."""
    out = scratch / "robobench-24x50-export"
    if not (out / "result.json").is_file():
        done = run_cli(["export", SAMPLES / "robobench-24x50", "--output-dir", out])
        assert done.code == 0, done.text
    return out / "result.json"


def _exported(edit: Callable[[Any], None] | None = None) -> Build:
    def build(dest: Path, scratch: Path) -> None:
        src = exported_result(scratch)
        if edit is None:
            shutil.copyfile(src, dest)
            return
        doc = json.loads(src.read_text(encoding="utf-8"))
        edit(doc)
        dest.write_text(json.dumps(doc, indent=2), encoding="utf-8")

    return build


def _doctor_mean(doc: Any) -> None:
    doc["aggregate"]["mean"] = 0.9


def _summary_one_success_more(doc: Any) -> None:
    doc["successes"] += 1


def _lerobot_count(doc: Any) -> None:
    doc["aggregated"]["n_success"] += 1


def _second_read_count(doc: Any) -> None:
    doc["eval_results_800"]["overall"]["n_success"] += 1


def _harness_extra_key(doc: Any) -> None:
    doc["unexpected_key"] = "a key BenchmarkResult does not declare"


def _harness_wrong_rate(doc: Any) -> None:
    """One read's success_rate is half a task off: no whole number of solved tasks (EV813)."""
    arm = doc["arms"][1]
    tasks = int(arm["tasks"])
    solved = round(float(arm["success_rate"]) * tasks)
    arm["success_rate"] = (solved + 0.5 if solved < tasks else solved - 0.5) / tasks


def _harness_nan_rate(doc: Any) -> None:
    """One read's success_rate is NaN (issue 24: a math domain error in the scorer, then a
    traceback in every door that scores): EV809 and EV813, no mean for that arm."""
    doc["arms"][0]["success_rate"] = float("nan")


def _lerobot_edge_numbers(doc: Any) -> None:
    """Numbers at the edge (issue 24): a seed past 64 bits (it overflowed the seed column), a
    reward of 10**400 (OverflowError in fsum) and a recorded pc_success of 10**400."""
    doc["per_episode"][0]["seed"] = 2**64 - 1
    doc["per_episode"][1]["sum_reward"] = 10**400
    doc["aggregated"]["pc_success"] = 10**400


#: A named read's key holding an OSC 8 link, a clear-screen, a right-to-left override and rich
#: markup (issue 24: check printed such a key raw, and `x[/bold]y` raised MarkupError).
HOSTILE_KEY = "r\x1b]8;;http://x\x1b\\[/bold]\x1b[2J\u202e800"


def _hostile_key(doc: Any) -> None:
    doc[HOSTILE_KEY] = doc.pop("eval_results_800")


@dataclass(frozen=True)
class Spec:
    id: str
    kind: str
    #: the input's file or directory name inside its folder
    name: str
    build: Build
    #: the named read, in a file of several
    read: str | None = None
    #: options of the partial-credit doors only (the app and `evalview psr`)
    side: tuple[str, ...] = ()
    #: a variant made to break: whether `check` must find an error in it (None: a sample)
    broken: bool | None = None


def _specs() -> list[Spec]:
    specs = [
        Spec(f"closed:{n}", CLOSED_RUN, n, _copy(SAMPLES / n))
        for n in ("faulty", "fail-fast", "robobench-24x50")
    ]
    specs += [
        Spec(f"closed:replicates/{d.parent.name}/{d.name}", CLOSED_RUN, d.name, _copy(d))
        for d in sorted((SAMPLES / "replicates").glob("*/*"))
        if d.is_dir()
    ]
    specs.append(Spec("closed:vendored-example", CLOSED_RUN, VENDORED.name, _copy(VENDORED)))
    for f in sorted((SAMPLES / "lerobot").glob("*.json")):
        top = json.loads(f.read_text(encoding="utf-8"))
        keys = [k for k, v in top.items() if isinstance(v, dict) and "overall" in v]
        if keys:
            specs += [
                Spec(f"lerobot:{f.stem}[{k}]", LEROBOT, f.name, _copy(f), read=k) for k in keys
            ]
        else:
            specs.append(Spec(f"lerobot:{f.stem}", LEROBOT, f.name, _copy(f)))
    specs += [
        Spec(f"harness:{f.stem}", HARNESS, f.name, _copy(f))
        for f in sorted((SAMPLES / "harness").glob("*.json"))
    ]
    inputs = SAMPLES / "psr" / "checkpoint-inputs.json"
    specs.append(
        Spec("psr:checkpoint-inputs", CHECKPOINT_INPUTS, inputs.name, _copy(inputs),
             side=PSR_SIDE_FILES)
    )
    specs += [
        Spec("result:robobench-24x50", RESULT_JSON, "result.json", _exported()),
        Spec("result:doctored-mean", RESULT_JSON, "result.json", _exported(_doctor_mean),
             broken=True),
    ]
    two = SAMPLES / "lerobot" / "libero10-two-reads.json"
    single = SAMPLES / "harness" / "gpu-calc-hard-single-seed.json"
    three = SAMPLES / "harness" / "gpu-calc-hard-equal-update-3seeds.json"
    specs += [
        Spec("hostile:closed-summary-disagrees", CLOSED_RUN, "closed-run",
             _edited(VENDORED, _summary_one_success_more), broken=True),
        Spec("hostile:lerobot-broken-count", LEROBOT, "eval_info.json",
             _edited(SAMPLES / "lerobot" / "pusht-single-env.json", _lerobot_count),
             broken=True),
        *(  # the count is broken in the second read only: the first stays clean
            Spec(f"hostile:lerobot-two-reads-broken[{k}]", LEROBOT, two.name,
                 _edited(two, _second_read_count), read=k, broken=k == "eval_results_800")
            for k in ("eval_results_400", "eval_results_800")
        ),
        Spec("hostile:harness-extra-key", HARNESS, single.name,
             _edited(single, _harness_extra_key), broken=True),
        Spec("hostile:harness-wrong-success-rate", HARNESS, three.name,
             _edited(three, _harness_wrong_rate), broken=True),
        Spec("hostile:harness-nan-success-rate", HARNESS, three.name,
             _edited(three, _harness_nan_rate), broken=True),
        Spec("hostile:lerobot-edge-numbers", LEROBOT, "eval_info.json",
             _edited(SAMPLES / "lerobot" / "pusht-single-env.json", _lerobot_edge_numbers),
             broken=True),
        Spec("hostile:lerobot-control-key", LEROBOT, two.name, _edited(two, _hostile_key),
             read=HOSTILE_KEY, broken=False),
    ]
    return specs


# -- published miniVERL results (issue 21) -----------------------------------------------------
# The BenchmarkResult files miniVERL itself publishes (schema 1, 2 and 3, sorted keys as the
# harness writes them), byte-identical in tests/fixtures/miniverl (README: source, commit,
# license), and one hostile schema-3 variant: an invalidated RecoveryBench result (EV817).

MINIVERL = REPO / "tests" / "fixtures" / "miniverl"


def _harness_sorted_edit(src: Path, edit: Callable[[Any], None]) -> Build:
    """A copy with one edit, written back as the harness writes (sorted keys, indent 2)."""

    def build(dest: Path, _scratch: Path) -> None:
        doc = json.loads(src.read_text(encoding="utf-8"))
        edit(doc)
        dest.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")

    return build


def _invalidate(doc: Any) -> None:
    doc["invalidation_status"] = {"valid": False, "reasons": ["teacher gate re-run"]}


def _miniverl_published_specs() -> list[Spec]:
    specs = [
        Spec(f"miniverl:{f.stem}", HARNESS, f.name, _copy(f))
        for f in sorted(MINIVERL.glob("*.json"))
    ]
    wall = MINIVERL / "recoverybench-v1-equal-wall-time.json"
    specs.append(Spec("hostile:miniverl-schema3-invalidated", HARNESS, wall.name,
                      _harness_sorted_edit(wall, _invalidate), broken=True))
    return specs


# -- RecoveryBench task-level results (miniVERL), the published file ---------------------------
# tests/fixtures/miniverl-recoverybench/README.md: source, commit, license. A file of named reads
# (VIEW/ARM, VIEW/ARM/seedS, VIEW/ARM/recovered_after_tool_error): three of them, and two hostile
# variants (a broken line, which every read carries; an analysis beside the file whose recorded
# pair count the lines do not give, which the two compared arms carry).

RECOVERYBENCH = REPO / "tests" / "fixtures" / "miniverl-recoverybench"
TASK_RESULTS_FILE = RECOVERYBENCH / "recoverybench-v1-task-results.jsonl"
_FRESH = "equal_optimizer_updates/strict-opd-fresh"


def _broken_line(dest: Path, _scratch: Path) -> None:
    lines = TASK_RESULTS_FILE.read_text(encoding="utf-8").splitlines(keepends=True)
    lines.insert(1, "{not json\n")
    dest.write_text("".join(lines), encoding="utf-8")


def _analysis_disagrees(dest: Path, _scratch: Path) -> None:
    shutil.copyfile(TASK_RESULTS_FILE, dest)
    analysis = RECOVERYBENCH / "recoverybench-v1-analysis.json"
    doc = json.loads(analysis.read_text(encoding="utf-8"))
    doc["recovery_after_error"]["pairs"] += 1
    (dest.parent / analysis.name).write_text(json.dumps(doc, indent=2, sort_keys=True))


def _task_results_specs() -> list[Spec]:
    name = TASK_RESULTS_FILE.name
    return [
        *(
            Spec(f"task-results:recoverybench-v1[{k}]", TASK_RESULTS, name,
                 _copy(TASK_RESULTS_FILE), read=k)
            for k in (
                _FRESH,
                f"{_FRESH}/seed1234",
                "equal_optimizer_updates/offline-kd-frozen-student/recovered_after_tool_error",
            )
        ),
        Spec(f"hostile:task-results-broken-line[{_FRESH}]", TASK_RESULTS, name, _broken_line,
             read=_FRESH, broken=True),
        Spec(f"hostile:task-results-analysis-disagrees[{_FRESH}]", TASK_RESULTS, name,
             _analysis_disagrees, read=_FRESH, broken=True),
    ]


# -- Inspect AI eval logs (issue 26) ------------------------------------------------------------
# Real logs from Inspect's own tests (tests/fixtures/inspect_ai/README.md: source, commit,
# license), the generated agent task (sample_runs/inspect: its .eval files, and model B's .json
# twin written by the generator), and hostile variants: a doctored recorded accuracy (EV010) and a
# log that says success with a sample member deleted (EV013).

INSPECT = "inspect"
INSPECT_FIXTURES = REPO / "tests" / "fixtures" / "inspect_ai"


def _inspect_json_twin(dest: Path, _scratch: Path) -> None:
    from evalview.samples.inspect_ai import MODELS, build_log, write_json

    stem, model, ability, eval_id, run_id = MODELS[1]
    write_json(build_log(stem, model, ability, eval_id, run_id), dest)


def _rezipped(src: Path, edit: Callable[[list[tuple[str, bytes]]], list[tuple[str, bytes]]]
              ) -> Build:
    def build(dest: Path, _scratch: Path) -> None:
        import zipfile

        from evalview.samples.inspect_ai import write_zip

        with zipfile.ZipFile(src) as z:
            members = [(n, z.read(n)) for n in z.namelist()]
        write_zip(dest, edit(members))

    return build


def _doctored_accuracy(members: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    out = []
    for name, data in members:
        if name == "header.json":
            doc = json.loads(data)
            doc["results"]["scores"][0]["metrics"]["accuracy"]["value"] = 0.9
            data = json.dumps(doc, indent=2).encode()
        out.append((name, data))
    return out


def _member_deleted(members: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    return [(n, d) for n, d in members if n != "samples/7_epoch_1.json"]


def _inspect_specs() -> list[Spec]:
    real = INSPECT_FIXTURES
    popularity = "2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval"
    a = SAMPLES / "inspect" / "os-agent-model-a.eval"
    return [
        Spec("inspect:real-popularity-10", INSPECT, popularity, _copy(real / popularity)),
        Spec("inspect:real-streaming-epochs", INSPECT, "log_streaming.eval",
             _copy(real / "log_streaming.eval")),
        Spec("inspect:real-cancelled-json", INSPECT, "popularity.json",
             _copy(real / "2025-05-12T20-28-13-04-00_popularity.json")),
        Spec("inspect:real-v1-nan-no-samples", INSPECT, "log_with_nan.json",
             _copy(real / "log_with_nan.json"), broken=True),
        Spec("inspect:os-agent-model-a", INSPECT, a.name, _copy(a)),
        Spec("inspect:os-agent-model-b-json", INSPECT, "os-agent-model-b.json",
             _inspect_json_twin),
        Spec("hostile:inspect-doctored-accuracy", INSPECT, a.name,
             _rezipped(a, _doctored_accuracy), broken=True),
        Spec("hostile:inspect-member-deleted", INSPECT, a.name, _rezipped(a, _member_deleted),
             broken=True),
    ]


# -- lm-evaluation-harness output (issue 27) ------------------------------------------------------
# Real results files from lm-eval's repository (tests/fixtures/lm_eval/README.md: source, commits,
# MIT), with the samples file beside the one that has it; the generated sample's two models
# (sample_runs/lm-eval: each model's results JSON with its four samples files); and hostile
# variants: a results file whose group mean disagrees with its subtasks (EV055), a samples file
# with one document's doc_hash copied onto another (EV058).

LM_EVAL = "lm-eval"
LM_EVAL_FIXTURES = REPO / "tests" / "fixtures" / "lm_eval"


def _with_siblings(src: Path, edit: Callable[[Path], None] | None = None) -> Build:
    """The results JSON at `dest` and every samples file of its folder beside it (a copy of
    lm-eval's output directory), then `edit(dest)` of the copy."""

    def build(dest: Path, _scratch: Path) -> None:
        shutil.copyfile(src, dest)
        for sib in sorted(src.parent.glob("samples_*.jsonl")):
            shutil.copyfile(sib, dest.parent / sib.name)
        if edit is not None:
            edit(dest)

    return build


def _group_mean_off(dest: Path) -> None:
    """The group's recorded acc moved 0.05 off its subtasks' size-weighted mean."""
    doc = json.loads(dest.read_text(encoding="utf-8"))
    for section in ("results", "groups"):
        if "arith" in doc.get(section, {}):
            doc[section]["arith"]["acc,none"] += 0.05
    dest.write_text(json.dumps(doc, indent=2), encoding="utf-8")


def _duplicate_doc_hash(dest: Path) -> None:
    """mc_binary's document 5 given document 4's doc_hash: one document counted twice."""
    samples = next(dest.parent.glob("samples_mc_binary_*.jsonl"))
    lines = [json.loads(x) for x in samples.read_text(encoding="utf-8").splitlines()]
    lines[5]["doc_hash"] = lines[4]["doc_hash"]
    samples.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")


def _lm_eval_specs() -> list[Spec]:
    real = LM_EVAL_FIXTURES
    specs = [
        Spec(f"lm-eval:real-{f.parent.name}/{f.stem}", LM_EVAL, f.name, _with_siblings(f))
        for f in sorted(real.glob("*/*.json"))
    ]
    for d in sorted((SAMPLES / "lm-eval").iterdir()):
        results = next(d.glob("results_*.json"))
        specs.append(Spec(f"lm-eval:{d.name}", LM_EVAL, results.name, _with_siblings(results)))
    a = next((SAMPLES / "lm-eval" / "org__model-a").glob("results_*.json"))
    specs += [
        Spec("hostile:lm-eval-group-mean-disagrees", LM_EVAL, a.name,
             _with_siblings(a, _group_mean_off), broken=True),
        Spec("hostile:lm-eval-duplicate-doc-hash", LM_EVAL, a.name,
             _with_siblings(a, _duplicate_doc_hash), broken=True),
    ]
    return specs


SPECS: dict[str, Spec] = {
    s.id: s
    for s in [*_specs(), *_miniverl_published_specs(), *_task_results_specs(), *_inspect_specs(),
              *_lm_eval_specs()]
}


@dataclass(frozen=True)
class Input:
    """One input, made: alone in `folder` (picklable: the spec is found again by its id)."""

    spec_id: str
    folder: Path

    @property
    def spec(self) -> Spec:
        return SPECS[self.spec_id]

    @property
    def path(self) -> Path:
        return self.folder / self.spec.name

    @property
    def read(self) -> str | None:
        return self.spec.read

    @property
    def kind(self) -> str:
        return self.spec.kind

    @property
    def read_args(self) -> list[str]:
        """How every door that takes one addresses the named read (`--read KEY`)."""
        return [] if self.read is None else ["--read", self.read]

    @property
    def touch_target(self) -> Path:
        """The file a reviewer edits (for the watch door)."""
        return self.path / "manifest.json" if self.path.is_dir() else self.path


def make(spec_id: str, base: Path, scratch: Path) -> Input:
    """Make the input in a new folder under `base`, named after its id."""
    spec = SPECS[spec_id]
    name = "".join(c if c.isalnum() or c in "-_." else "-" for c in spec_id).strip("-")
    inp = Input(spec_id, base / name)
    shutil.rmtree(inp.folder, ignore_errors=True)  # what an interrupted attempt left
    inp.folder.mkdir(parents=True)
    spec.build(inp.path, scratch)
    return inp
