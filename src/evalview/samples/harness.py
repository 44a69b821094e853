"""Benchmark-harness result samples (`sample_runs/harness/`): miniVERL BenchmarkResult files.

Realistic, synthetic and deterministic (seeded `random.Random`, fixed timestamps, `json.dumps`
with fixed options): the spec's shipped example (recipes/benchmark_calc.yaml: 7 arms x 2 seeds,
the optimizer steps of its budget table, a 450-step cold start, CPU toy models), a single-seed
GPU file as written before publishing (machine-local paths and a host name), a preserved schema-1
file (v1 field names, a NaN the harness later stored as null), a clean three-seed GPU file (the
replicate contrast has enough seeds) and the same file with an undeclared difference.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HARNESS_DIR = "harness"


@dataclass(frozen=True, slots=True)
class ArmSpec:
    """One arm: its mode/objective, its declared overrides and its true success probability."""

    name: str
    description: str
    mode: str
    loss_mode: str | None
    divergence: str | None
    top_k: int | None
    selector: str
    steps: int
    p_success: float
    diff: tuple[tuple[str, Any, Any], ...] = ()  # (path, common, arm)
    select_fraction: float = 1.0


def _sha(payload: Any) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def _hex(rng: random.Random, n: int = 40) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _common_config(difficulty: str, split: str, cycles: int, device: str) -> dict[str, Any]:
    return {
        "run": {"mode": "opd", "name": "benchmark", "seed": 0},
        "models": {"device": device, "dtype": "float32" if device == "cpu" else "bfloat16"},
        "environment": {"name": "calculator", "difficulty": difficulty, "eval_tasks": 32},
        "train": {"cycles": cycles, "sft_warmup_cycles": 0, "rollouts_per_cycle": 8,
                  "gradient_accumulation_steps": 8, "learning_rate": 5e-5},
        "loss": {"mode": "bucketed_topk_tail", "divergence": "reverse_kl", "top_k": 16},
        "selection": {"selector": "all_model_tokens"},
        "eval": {"enabled": True, "split": split, "temperature": 0.0},
        "report": {"enabled": True},
    }


CALC_ALLOWED = ["run.mode", "train.cycles", "loss.mode", "loss.top_k", "loss.divergence",
                "selection.selector"]

#: recipes/benchmark_calc.yaml, as the spec's budget table lists it (60 steps; cold-start-only 0).
CALC_ARMS = (
    ArmSpec("cold-start-only", "the shared cold start, evaluated with no further updates",
            "sft", None, None, None, "all_model_tokens", 0, 0.56,
            (("run.mode", "opd", "sft"), ("train.cycles", 60, 0))),
    ArmSpec("sft-continued", "60 more SFT updates on oracle traces", "sft", None, None, None,
            "all_model_tokens", 60, 0.62, (("run.mode", "opd", "sft"),)),
    ArmSpec("offline-kd", "bucketed top-k distillation on oracle traces", "offline_kd",
            "bucketed_topk_tail", "reverse_kl", 16, "all_model_tokens", 60, 0.66,
            (("run.mode", "opd", "offline_kd"),)),
    ArmSpec("opd-bucketed-k16", "on-policy distillation, bucketed top-16 + tail", "opd",
            "bucketed_topk_tail", "reverse_kl", 16, "all_model_tokens", 60, 0.72),
    ArmSpec("opd-exact", "on-policy distillation, exact full-vocabulary loss", "opd",
            "exact_full_vocab", "reverse_kl", 1, "all_model_tokens", 60, 0.72,
            (("loss.mode", "bucketed_topk_tail", "exact_full_vocab"), ("loss.top_k", 16, 1))),
    ArmSpec("opd-bucketed-forward-kl", "on-policy distillation, forward KL", "opd",
            "bucketed_topk_tail", "forward_kl", 16, "all_model_tokens", 60, 0.69,
            (("loss.divergence", "reverse_kl", "forward_kl"),)),
    ArmSpec("opd-tool-and-final", "on-policy distillation on tool-call and final tokens only",
            "opd", "bucketed_topk_tail", "reverse_kl", 16, "tool_and_final", 60, 0.66,
            (("selection.selector", "all_model_tokens", "tool_and_final"),), 0.31),
)

GPU_ALLOWED = ["run.mode", "train.cycles", "models.teacher.context_mode",
               "models.teacher.adapter.*"]

GPU_ARMS = (
    ArmSpec("cold-start-only", "the shared 12-cycle SFT cold start, no further updates", "sft",
            None, None, None, "all_model_tokens", 0, 0.29,
            (("run.mode", "opd", "sft"), ("train.cycles", 16, 0))),
    ArmSpec("sft-continued", "16 more SFT updates", "sft", None, None, None,
            "all_model_tokens", 16, 0.35, (("run.mode", "opd", "sft"),)),
    ArmSpec("opd-raw-teacher", "OPD against the raw Qwen3 teacher", "opd",
            "bucketed_topk_tail", "reverse_kl", 16, "all_model_tokens", 16, 0.42),
    ArmSpec("opd-privileged-context", "OPD with the answer in the teacher's context", "opd",
            "bucketed_topk_tail", "reverse_kl", 16, "all_model_tokens", 16, 0.5,
            (("models.teacher.context_mode", "raw", "privileged"),)),
    ArmSpec("opd-protocol-sft-teacher", "OPD against the protocol-SFT teacher adapter", "opd",
            "bucketed_topk_tail", "reverse_kl", 16, "all_model_tokens", 16, 0.46,
            (("models.teacher.adapter.revision", None,
              "23323751318135484c06c043b1f9b9e7016dd89f"),)),
)


def _diff_rows(diff: tuple[tuple[str, Any, Any], ...]) -> list[dict[str, Any]]:
    return [
        {"path": p, "common": c, "arm": a,
         "change": "added" if c is None else "removed" if a is None else "changed"}
        for p, c, a in diff
    ]


def _arm(
    rng: random.Random, spec: ArmSpec, *, bench: str, seed: int, tasks: int, gpu: bool,
    run_root: str, rollouts_per_cycle: int = 8,
) -> dict[str, Any]:
    solved = sum(rng.random() < spec.p_success for _ in range(tasks))
    rate = solved / tasks
    run_id = f"{bench}-{spec.name}-s{seed}"
    sft = spec.mode == "sft"
    trained = spec.steps > 0
    trajectories = spec.steps * rollouts_per_cycle
    per_traj = rng.randint(36, 52)
    generated = trajectories * per_traj if trained else 0
    eligible = generated if trained else 0
    selected = round(eligible * spec.select_fraction)
    teacher = None if sft else selected
    gen_per_task = round(rng.uniform(38.0, 56.0), 3)
    cache = not sft and trained
    step_s = (rng.uniform(5.5, 7.5) if gpu else rng.uniform(1.4, 2.2)) * (0.5 if sft else 1.0)
    train_s = round(spec.steps * step_s, 3)
    eval_s = round(tasks * (rng.uniform(1.6, 2.4) if gpu else rng.uniform(0.6, 0.9)), 3)
    harness_rows = [
        {"path": "run.name", "common": "benchmark", "arm": run_id, "change": "changed"},
        {"path": "run.seed", "common": 0, "arm": seed, "change": "changed"},
        {"path": "report.enabled", "common": True, "arm": False, "change": "changed"},
    ]
    scientific = _diff_rows(spec.diff)
    peak = rng.randint(9_800, 14_200) * 1024 * 1024 if gpu else None
    return {
        "name": spec.name,
        "description": spec.description,
        "mode": spec.mode,
        "seed": seed,
        "run_id": run_id,
        "run_dir": f"{run_root}/{run_id}",
        "objective": "sft_cross_entropy" if sft else spec.mode,
        "opd_freshness": "strict_on_policy" if spec.mode == "opd" else None,
        "loss_mode": spec.loss_mode,
        "divergence": spec.divergence,
        "selector": spec.selector,
        "top_k": (151_936 if spec.loss_mode == "exact_full_vocab" else spec.top_k),
        "resolved_config_digest": _sha([bench, spec.name, seed, "resolved"]),
        "structured_diff": sorted(harness_rows + scientific, key=lambda r: r["path"]),
        "student_model_id": "Qwen/Qwen3-0.6B" if gpu else "toy/student-tiny",
        "student_model_revision": _hex(random.Random(f"{bench}-student")),
        "teacher_model_id": None if sft else ("Qwen/Qwen3-4B" if gpu else "toy/teacher-small"),
        "teacher_model_revision": None if sft else _hex(random.Random(f"{bench}-teacher")),
        "teacher_adapter": None,
        "tokenizer_fingerprint": _hex(random.Random(f"{bench}-tok"), 16),
        "teacher_context_mode": None if sft else (
            "privileged" if spec.name == "opd-privileged-context" else "raw"),
        "declared_config_digest": _sha([bench, spec.name, seed, "declared"]),
        "runtime_resolved_config_digest": _sha([bench, spec.name, seed, "runtime"]),
        "scientific_config_diff": scientific,
        "runtime_resolution_diff": [
            {"path": "models.device", "common": "auto", "arm": "cuda" if gpu else "cpu",
             "change": "changed"}],
        "harness_config_diff": harness_rows,
        "optimizer_steps": spec.steps,
        "policy_version": spec.steps,
        "total_trajectories": trajectories,
        "generated_training_tokens_total": generated,
        "selected_training_tokens_total": selected,
        "model_generated_training_tokens_total": generated if spec.mode == "opd" else 0,
        "selected_position_ratio": (selected / eligible) if eligible else None,
        "teacher_queried_positions_total": teacher,
        "teacher_queried_position_ratio": (
            (teacher / eligible) if teacher is not None and eligible else None),
        "tasks": tasks,
        "success_rate": rate,
        "strict_task_success_rate": rate,
        "lenient_diagnostic_success_rate": min(1.0, (solved + rng.randint(0, 2)) / tasks),
        "avg_turns": round(rng.uniform(2.1, 3.4), 4),
        "avg_tool_calls": round(rng.uniform(1.1, 2.2), 4),
        **_rollout_counters(rng, tasks, solved, run_id),
        "protocol_token_accuracy": None,
        "generated_tokens_per_task": gen_per_task,
        "tokens_per_solved_task": (gen_per_task * tasks / solved) if solved else None,
        "cache_current_bytes": rng.randint(2_000_000, 9_000_000) if cache else None,
        "cache_bytes_written_total": rng.randint(12_000_000, 40_000_000) if cache else None,
        "cache_compression_ratio": round(rng.uniform(180.0, 420.0), 3) if cache else None,
        "peak_allocated_bytes": peak,
        "peak_reserved_bytes": None if peak is None else peak + rng.randint(200, 900) * 2**20,
        "train_seconds": train_s,
        "evaluation_seconds": eval_s,
        "wall_seconds": round(train_s + eval_s + rng.uniform(2.0, 9.0), 3),
        "baseline_success_rate": None,
        "measurement_status": {
            "train_time": "measured",
            "evaluation_time": "measured",
            "wall_time": "measured",
            "peak_vram": "measured" if gpu else "not_run_no_cuda",
            "cache": "measured" if cache else "not_applicable",
        },
    }


def _rollout_counters(
    rng: random.Random, tasks: int, solved: int, run_id: str
) -> dict[str, Any]:
    """The precise RolloutStats counters the current harness records, consistent with each
    other (parsed <= emitted, successes + errors = parsed, the rates are those counts' ratios),
    and the deprecated aliases it still writes beside them. `rng` gives the same four draws as
    before the counters existed (so every other number of the samples stays as it was); the
    counters' own draws come from a generator of their own."""
    emitted = rng.randint(tasks, 2 * tasks)
    valid = rng.uniform(0.86, 0.99)
    rng.uniform(0.01, 0.14)  # the old, independent invalid rate: now 1 - valid, exactly
    final_valid = rng.uniform(0.9, 1.0)
    own = random.Random(f"{run_id}-counters")
    parsed = min(emitted - 1, round(emitted * valid))
    errors = own.randint(0, parsed // 6)
    finals = own.randint(max(solved, tasks * 3 // 4), tasks)
    valid_finals = max(solved, min(finals, round(finals * final_valid)))
    return {
        "assistant_turns": emitted + finals + own.randint(0, tasks // 8),
        "emitted_tool_calls": emitted,
        "parsed_tool_calls": parsed,
        "tool_execution_successes": parsed - errors,
        "tool_execution_errors": errors,
        "unknown_tool_calls": own.randint(0, errors),
        "parse_errors": emitted - parsed,
        "repeated_call_terminations": own.randint(0, 2),
        "final_answers_emitted": finals,
        "final_answers_format_valid": valid_finals,
        "final_answers_verified": valid_finals,
        "parse_valid_tool_call_rate": parsed / emitted,
        "tool_execution_success_rate": (parsed - errors) / parsed if parsed else None,
        "tool_execution_error_rate": errors / parsed if parsed else None,
        "tool_call_count": emitted,
        "valid_tool_call_rate": parsed / emitted,
        "invalid_tool_call_rate": (emitted - parsed) / emitted,
        "final_answer_format_validity_rate": valid_finals / finals if finals else None,
    }


def _result(
    *, name: str, description: str, arms: tuple[ArmSpec, ...], seeds: list[int], tasks: int,
    gpu: bool, cold_cycles: int, difficulty: str, split: str, allowed: list[str],
    created_at: str, invocation: list[str], run_root: str, notes: str,
    hardware_extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    rng = random.Random(name)
    budget = max(a.steps for a in arms)
    common = _common_config(difficulty, split, budget, "auto")
    digest = _sha(common)
    cold = copy.deepcopy(common)
    cold["run"].update(mode="sft", name=f"{name}-coldstart")
    cold["train"].update(cycles=cold_cycles)
    cold["eval"]["enabled"] = False
    cold["report"]["enabled"] = False
    hardware: dict[str, Any] = {
        "gpu": ({"available": True, "name": "NVIDIA GeForce RTX 4080", "total_memory_gib": 15.99,
                 "capability": "8.9", "driver_version": "596.49", "device_count": 1}
                if gpu else {"available": False}),
        "os": {"system": "Linux", "release": "6.8.0-45-generic", "machine": "x86_64"},
        "cpu_count": 16 if gpu else 8,
    }
    if hardware_extra:
        hardware["os"].update(hardware_extra)
    records = [
        _arm(rng, spec, bench=name, seed=seed, tasks=tasks, gpu=gpu, run_root=run_root)
        for seed in seeds for spec in arms
    ]
    return {
        "schema_version": 2,
        "miniverl_version": "0.2.1",
        "name": name,
        "description": description,
        "created_at": created_at,
        "git_commit": _hex(random.Random(f"{name}-git")),
        "invocation": invocation,
        "budget_axis": "optimizer_steps",
        "hardware": hardware,
        "software": {"python": "3.11.9", "packages": {
            "torch": "2.4.1+cu124" if gpu else "2.4.1+cpu", "transformers": "4.44.2",
            "pydantic": "2.8.2", "numpy": "1.26.4"}},
        "cold_start": {
            "cycles": cold_cycles,
            "resolved_config": cold,
            "resolved_config_digest": _sha(cold),
            "environment": "calculator",
            "difficulty": difficulty,
            "checkpoints": [
                {"seed": s, "run_id": f"{name}-coldstart-s{s}",
                 "resolved_config_digest": _sha([cold, s]),
                 "checkpoint_digest": _sha([name, "checkpoint", s]),
                 "train_seconds": round(cold_cycles * rng.uniform(1.1, 1.5), 3)}
                for s in seeds
            ],
        },
        "common_resolved_config": common,
        "common_resolved_config_digest": digest,
        "common_declared_config": common,
        "common_declared_config_digest": digest,
        "controlled": {"source": "common_declared_config", "digest": digest,
                       "budget_axis": "optimizer_steps", "allowed_differences": allowed},
        "arms": records,
        "notes": notes,
        "seeds": seeds,
    }


def shipped_example() -> dict[str, Any]:
    """recipes/benchmark_calc.yaml: 7 arms x 2 seeds on toy CPU models, 450-cycle cold start."""
    return _result(
        name="cpu-toy-calc-equal-update-v2",
        description="Equal optimizer-update comparison of continued SFT, offline KD and four "
                    "OPD variants on the toy calculator task, from one shared SFT cold start.",
        arms=CALC_ARMS, seeds=[1234, 20260727], tasks=32, gpu=False, cold_cycles=450,
        difficulty="medium", split="test", allowed=CALC_ALLOWED,
        created_at="2026-07-27T14:02:11Z",
        invocation=["miniverl", "benchmark", "recipes/benchmark_calc.yaml", "--output",
                    "runs/benchmarks"],
        run_root="runs/benchmarks",
        notes="Toy CPU models: a pipeline check, not evidence about OPD at scale.",
    )


def single_seed() -> dict[str, Any]:
    """One seed on a GPU, as run_benchmark wrote it: absolute paths and the host name inside."""
    return _result(
        name="gpu-calc-hard-single-seed",
        description="Five arms on the hard calculator split, one prespecified seed.",
        arms=GPU_ARMS, seeds=[20260727], tasks=48, gpu=True, cold_cycles=12,
        difficulty="hard", split="test", allowed=GPU_ALLOWED,
        created_at="2026-08-02T21:47:05Z",
        invocation=["/home/mlee/miniverl/.venv/bin/miniverl", "benchmark",
                    "benchmarks/configs/gpu_calc_hard.yaml", "--output",
                    "/home/mlee/miniverl/runs/benchmarks"],
        run_root="/home/mlee/miniverl/runs/benchmarks",
        notes="RTX 4080, driver 596.49. Not yet published: run through the publisher first.",
        hardware_extra={"node": "mlee-desktop"},
    )


def three_seeds() -> dict[str, Any]:
    """Five GPU arms at three seeds, sanitized: enough shared seeds for a replicate contrast."""
    return _result(
        name="gpu-calc-hard-equal-update-3seeds",
        description="Five arms on the hard calculator split at three prespecified seeds.",
        arms=GPU_ARMS, seeds=[1234, 20260727, 31337], tasks=48, gpu=True, cold_cycles=12,
        difficulty="hard", split="test", allowed=GPU_ALLOWED,
        created_at="2026-08-09T08:15:40Z",
        invocation=["miniverl", "benchmark", "benchmarks/configs/gpu_calc_hard.yaml",
                    "--output", "<local>/benchmarks"],
        run_root="runs/benchmarks",
        notes="RTX 4080, driver 596.49. Sanitized by the publisher.",
    )


def undeclared_difference() -> dict[str, Any]:
    """The three-seed file where one arm doubled rollouts_per_cycle without declaring it."""
    doc = three_seeds()
    doc["name"] = "gpu-calc-hard-undeclared-difference"
    extra = {"path": "train.rollouts_per_cycle", "common": 8, "arm": 16, "change": "changed"}
    for arm in doc["arms"]:
        arm["run_id"] = arm["run_id"].replace("equal-update-3seeds", "undeclared-difference")
        arm["run_dir"] = f"runs/benchmarks/{arm['run_id']}"
        if arm["name"] == "opd-privileged-context":
            arm["scientific_config_diff"] = [*arm["scientific_config_diff"], extra]
            arm["structured_diff"] = sorted([*arm["structured_diff"], extra],
                                            key=lambda r: r["path"])
            arm["optimizer_steps"] = arm["policy_version"] = 32
            arm["total_trajectories"] *= 2
            arm["train_seconds"] = round(arm["train_seconds"] * 2, 3)
            arm["wall_seconds"] = round(arm["wall_seconds"] + arm["train_seconds"] / 2, 3)
    return doc


def version_one() -> dict[str, Any]:
    """A preserved schema-1 file: v1 field names, no controls, and a NaN the harness later
    wrote as null (the arm that solved nothing)."""
    arms = (CALC_ARMS[0], CALC_ARMS[1], CALC_ARMS[3], CALC_ARMS[4])
    doc = _result(
        name="cpu-toy-calc-equal-update", description="The v0.1 toy comparison (schema 1).",
        arms=arms, seeds=[1234, 20260727], tasks=32, gpu=False, cold_cycles=450,
        difficulty="medium", split="test", allowed=[], created_at="2026-05-14T10:31:52Z",
        invocation=[], run_root="runs/benchmarks",
        notes="Preserved byte-for-byte; see the erratum.",
    )
    for key in ("invocation", "budget_axis", "cold_start", "common_resolved_config",
                "common_resolved_config_digest", "common_declared_config",
                "common_declared_config_digest"):
        del doc[key]
    doc.update(schema_version=1, miniverl_version="0.1.0", controlled={})
    keep = ("name", "description", "mode", "seed", "run_id", "run_dir", "resolved_config_digest",
            "structured_diff", "optimizer_steps", "policy_version", "tasks", "success_rate",
            "avg_turns", "avg_tool_calls", "tool_call_count", "valid_tool_call_rate",
            "invalid_tool_call_rate", "generated_tokens_per_task", "tokens_per_solved_task",
            "train_seconds", "peak_allocated_bytes", "peak_reserved_bytes")
    v1_arms = []
    for arm in doc["arms"]:
        v1 = {k: arm[k] for k in keep}
        v1["selected_training_tokens"] = arm["selected_training_tokens_total"]
        v1["seconds"] = arm["wall_seconds"]
        v1["cache_bytes"] = arm["cache_current_bytes"]
        if arm["name"] == "opd-exact" and arm["seed"] == 1234:
            v1.update(success_rate=0.0, tokens_per_solved_task=float("nan"))
        v1_arms.append(v1)
    doc["arms"] = v1_arms
    return doc


@dataclass(frozen=True, slots=True)
class HarnessSample:
    file: str
    description: str
    build: Callable[[], dict[str, Any]]


HARNESS_SAMPLES: tuple[HarnessSample, ...] = (
    HarnessSample(
        "cpu-toy-calc-equal-update-v2.json",
        "The spec's shipped example (recipes/benchmark_calc.yaml): 7 arms x 2 seeds on toy CPU "
        "models, 60 optimizer steps each and 0 for cold-start-only, after a 450-step cold "
        "start. `check` finds no error or warning (info: no CUDA, no cache for SFT arms).",
        shipped_example),
    HarnessSample(
        "gpu-calc-hard-single-seed.json",
        "Five GPU arms at one seed, as the harness wrote it before publishing: EV804 single "
        "seed, and EV811 for absolute paths in run_dir and invocation and the host name in "
        "hardware. Every number carries 'single seed -- no significance claimed'.",
        single_seed),
    HarnessSample(
        "gpu-calc-hard-equal-update-3seeds.json",
        "Five GPU arms at three seeds, sanitized: clean, and each arm shares three seeds with "
        "cold-start-only, so `score` reports a paired replicate contrast.",
        three_seeds),
    HarnessSample(
        "gpu-calc-hard-undeclared-difference.json",
        "The three-seed file with one fault: opd-privileged-context doubled "
        "train.rollouts_per_cycle, which allowed_differences does not declare (EV802), and so "
        "ran 32 optimizer steps where the others ran 16 (EV803). `check` exits 1.",
        undeclared_difference),
    HarnessSample(
        "cpu-toy-calc-equal-update-v1.json",
        "A preserved schema-1 file: v1 field names (selected_training_tokens, seconds, "
        "cache_bytes), no budget axis or allowed differences (EV815), no measurement status, "
        "and tokens_per_solved_task NaN for the arm that solved nothing (EV809).",
        version_one),
)


def harness_bytes(doc: dict[str, Any]) -> bytes:
    """As the harness writes: schema 2 and later through its canonical_json (sorted keys, so
    `arms` comes first and `schema_version` near the end); a preserved schema-1 file in the
    order it was written then, NaN as it was written before v2."""
    sort = isinstance(doc.get("schema_version"), int) and doc["schema_version"] >= 2
    return (json.dumps(doc, indent=2, ensure_ascii=False, sort_keys=sort) + "\n").encode("utf-8")


def write_harness_samples(out_dir: str | Path) -> list[Path]:
    """Write every harness sample into `out_dir/harness/`, replacing only our own files."""
    root = Path(out_dir) / HARNESS_DIR
    if root.exists() and not root.is_dir():
        raise FileExistsError(f"{root}: exists and is not a directory; move it away first.")
    ours = {s.file for s in HARNESS_SAMPLES}
    if root.is_dir():
        strangers = [p.name for p in root.iterdir() if p.name not in ours]
        if strangers:
            raise FileExistsError(
                f"{root}: holds files the generator did not write ({', '.join(sorted(strangers))})"
                "; move them away first.")
        shutil.rmtree(root)
    root.mkdir(parents=True)
    written = []
    for sample in HARNESS_SAMPLES:
        target = root / sample.file
        target.write_bytes(harness_bytes(sample.build()))
        written.append(target)
    return written


def readme_section() -> list[str]:
    lines = [
        f"## `{HARNESS_DIR}/`",
        "",
        "Benchmark-harness results (miniVERL `BenchmarkResult`, see "
        "`docs/formats.md`): arms x seeds, not episodes. Open one with `evalview check`, "
        "`evalview score` or the app.",
        "",
        "| file | what it shows |",
        "| --- | --- |",
    ]
    lines += [f"| {s.file} | {s.description} |" for s in HARNESS_SAMPLES]
    lines.append("")
    return lines
