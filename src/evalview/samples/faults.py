"""The faulty sample: a conforming run with deliberate, documented faults, to demonstrate the audit.

Each fault edits the built run in one place and says what the audit should say about it. Faults
are applied to the records first, the summary and status are recomputed from them (so no fault
leaks into another), and only then are summary and raw-byte faults applied.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import orjson

from evalview.samples.closed_run import ClosedRun, build_closed_run, refresh, result_path


@dataclass(frozen=True, slots=True)
class Fault:
    name: str
    #: What is wrong, in the words of sample_runs/README.md.
    description: str
    #: Which part of the record is broken (mirrors the audit's rule families).
    family: str
    apply: Callable[[ClosedRun], None]
    #: Applied after the summary and status are recomputed from the records.
    late: bool = False


def _first(
    run: ClosedRun, *, start: int, status: str, success: bool | None = None, known: bool = False
) -> int:
    """The first record at or after `start` of the kind a fault needs (faults use disjoint ranges,
    so no two faults land on the same episode)."""
    for i, r in enumerate(run.records):
        if i < start:
            continue
        if r["status"] != status or (success is not None and r["success"] is not success):
            continue
        if known and r["usage"]["input_tokens"] is None:
            continue
        return i
    raise LookupError("the faulty sample has no episode of the kind this fault needs")


def _swap_lines(run: ClosedRun) -> None:
    run.records[4], run.records[5] = run.records[5], run.records[4]


def _drop_episode(run: ClosedRun) -> None:
    del run.records[20]


def _interruption_as_failure(run: ClosedRun) -> None:
    r = run.records[_first(run, start=8, status="completed", success=False)]
    r["termination_reason"] = "error:infrastructure"


def _cached_over_input(run: ClosedRun) -> None:
    i = _first(run, start=12, status="completed", success=True, known=True)
    r = run.records[i]
    part = r["component_usage"]["planner"]
    extra = part["input_tokens"] - part["cached_input_tokens"] + 500
    part["cached_input_tokens"] += extra
    r["usage"]["cached_input_tokens"] += extra


def _undeclared_component(run: ClosedRun) -> None:
    r = run.records[_first(run, start=24, status="completed", known=True)]
    # All zeros, so the totals agree however a reader treats the stray component.
    r["component_usage"]["critic"] = {
        "calls": 0,
        "input_tokens": 0,
        "output_tokens": 0,
        "cached_input_tokens": 0,
        "estimated_cost_usd": 0.0,
        "latency_s": 0.0,
    }


def _bad_category(run: ClosedRun) -> None:
    r = run.records[_first(run, start=0, status="error")]
    r["error"]["category"] = "network"
    r["termination_reason"] = "error:network"


def _credential_in_config(run: ClosedRun) -> None:
    run.manifest["method"]["configuration"]["openai_api_key"] = "sk-EXAMPLE-NOT-A-REAL-KEY"


def _absolute_path_in_config(run: ClosedRun) -> None:
    run.manifest["method"]["configuration"]["checkpoint"] = "/home/alice/ckpt/pi-test/step-40000"


def _summary_total(run: ClosedRun) -> None:
    # policy_calls, not successes: no rate depends on it, so only the total itself disagrees.
    run.summary["policy_calls"] += 10


def _boolean_rate(run: ClosedRun) -> None:
    run.summary["success_rate"] = True


def _result_differs(run: ClosedRun) -> None:
    r = run.records[_first(run, start=32, status="completed", success=False)]
    changed = orjson.loads(orjson.dumps(r))
    changed["success"] = True
    changed["metrics"]["success"] = True
    run.result_files[result_path(r)] = changed


def _duplicate_key(run: ClosedRun) -> None:
    r = run.records[-1]
    rel = result_path(r)
    raw = orjson.dumps(run.result_files[rel]) + b"\n"
    seed = f'"seed":{r["episode"]["seed"]}'.encode()
    run.raw[rel] = raw.replace(seed, seed + b"," + seed, 1)


FAULTS: tuple[Fault, ...] = (
    Fault("out-of-order", "episodes.jsonl lines 5 and 6 are swapped, so the file is not in the "
          "selected schedule order.", "episodes", _swap_lines),
    Fault("missing-episode", "the 21st selected episode has no line and no result file although "
          "`fail_fast` is false (summary and status were computed without it).", "closure",
          _drop_episode),
    Fault("interruption-as-failure", "a completed, unsuccessful episode has termination reason "
          "`error:infrastructure`: an interruption recorded as a task failure.", "episodes",
          _interruption_as_failure),
    Fault("cached-over-input", "one episode reports more cached input tokens than input tokens "
          "(in its planner component and in its total).", "episodes", _cached_over_input),
    Fault("undeclared-component", "one episode's `component_usage` has a `critic` component the "
          "manifest's method does not declare.", "episodes", _undeclared_component),
    Fault("bad-error-category", "one errored episode has error category `network`, which is not "
          "policy, protocol, infrastructure or evaluation.", "episodes", _bad_category),
    Fault("credential-in-config", "the method configuration has a credential-named field "
          "`openai_api_key`.", "manifest", _credential_in_config),
    Fault("absolute-path-in-config", "the method configuration has an absolute path "
          "(`checkpoint: /home/alice/...`).", "manifest", _absolute_path_in_config),
    Fault("summary-total", "summary.json's `policy_calls` is 10 more than the episodes' sum.",
          "summary", _summary_total, late=True),
    Fault("boolean-rate", "summary.json has `success_rate: true`; a rate must be a number.",
          "summary", _boolean_rate, late=True),
    Fault("result-differs", "one `episodes/<dir>/result.json` says `success: true` while its "
          "episodes.jsonl line says false.", "episodes", _result_differs, late=True),
    Fault("duplicate-key", "the last episode's result.json repeats the key `seed`; the file is "
          "rejected, so that episode's line also has no readable result file.", "reading",
          _duplicate_key, late=True),
)


def build_faulty_run() -> ClosedRun:
    """A 6-task x 8-seed run with every fault of `FAULTS` applied."""
    run = build_closed_run(
        tasks=["pick-red-cube", "stack-three-blocks", "hang-mug", "wipe-table", "sort-fruit",
               "insert-peg"],
        seeds=8,
        rng_seed=7,
        run_id="robobench-faulty-demo",
        error_rate=0.12,
    )
    for fault in FAULTS:
        if not fault.late:
            fault.apply(run)
    refresh(run)
    for fault in FAULTS:
        if fault.late:
            fault.apply(run)
    return run
