"""The audit of a harness result: the spec's honesty rules (EV8xx) as findings with places.

Each check reads a validated `BenchmarkResult` (schema problems are EV801 and stop the rest, as
the numbers of an invalid file mean nothing) and points at the file, the line of the arm record
and the read `arm/s<seed>` (in `episode_id`, the field every finding carries).
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from evalview.audit.registry import DUPLICATE_KEY, Rule
from evalview.findings import Finding, sort_findings
from evalview.harness import rules as R
from evalview.model.harness_file import HarnessFile
from evalview.model.harness_plain import ArmResult, BenchmarkResult

#: The arm the harness ships as the shared starting point (0 optimizer steps by design).
REFERENCE_ARM = "cold-start-only"
#: Paths the harness adds itself; never a scientific difference (the newest harness's
#: `_HARNESS_DIFFERENCES`, offline-KD dataset bookkeeping included).
HARNESS_PATHS = frozenset({"run.name", "run.seed", "run.run_id", "report.enabled",
                           "offline_kd.trajectory_source", "offline_kd.dataset_path"})
#: A common value the runtime resolves (`memory.strategy: auto` -> `resident`): in a file whose
#: arms carry no separate runtime_resolution_diff, such a row is runtime resolution, not a
#: declared difference (the newer harness files it under `runtime_resolution`).
RUNTIME_RESOLVED = "auto"
#: Config leaves that set the optimizer-step budget (steps = ceil(rollouts/accum) x cycles).
SCHEDULE_PATHS = frozenset({
    "train.cycles",
    "train.sft_warmup_cycles",
    "train.rollouts_per_cycle",
    "train.gradient_accumulation_steps",
})
#: measurement_status key -> the fields it vouches for.
STATUS_FIELDS: dict[str, tuple[str, ...]] = {
    "train_time": ("train_seconds",),
    "evaluation_time": ("evaluation_seconds",),
    "wall_time": ("wall_seconds",),
    "peak_vram": ("peak_allocated_bytes", "peak_reserved_bytes"),
    "cache": ("cache_current_bytes", "cache_bytes_written_total", "cache_compression_ratio"),
}
#: Statuses that say a number was not measured at all, whatever the field holds.
FABRICATED = frozenset({"simulated", "estimated", "synthetic", "assumed", "imputed"})


def audit_harness(hf: HarnessFile) -> list[Finding]:
    """Every finding about one harness file, in the stable order of `check`."""
    findings: list[Finding] = [_duplicate_key(hf, key) for key in hf.duplicate_keys]
    findings += _nonfinite(hf)
    if hf.result is None:
        findings += [R.SCHEMA(p.message, file=hf.name, line=p.line) for p in hf.problems]
        return sort_findings(findings)
    res = hf.result
    for check in (_controls, _differences, _budget, _seeds, _single_seed, _reference,
                  _measurement, _ratios, _counts, _local_identity, _recovery_provenance,
                  _invalidated, _overshoot, _task_artifacts, _artifacts_beside, _cap_stop):
        findings.extend(check(hf, res))
    return sort_findings(findings)


def _duplicate_key(hf: HarnessFile, key: str) -> Finding:
    return DUPLICATE_KEY(
        f"{hf.name}: the key {key!r} appears twice in one object; the last value was read",
        file=hf.name, line=hf.key_line(key),
    )


def _where(hf: HarnessFile, arm: ArmResult, message: str, rule: Rule) -> Finding:
    return rule(message, file=hf.name, line=hf.arm_line(arm.run_id), episode_id=arm.key)


def _nonfinite(hf: HarnessFile) -> Iterator[Finding]:
    arms = hf.raw.get("arms")
    for path in hf.nonfinite:
        match = re.match(r"arms\[(\d+)\]\.(\w+)$", path)
        line, read = hf.key_line(path.rsplit(".", 1)[-1]), None
        if match and isinstance(arms, list):
            rec = arms[int(match.group(1))]
            if isinstance(rec, dict) and isinstance(rec.get("run_id"), str):
                line = hf.arm_line(rec["run_id"])
                read = f"{str(rec.get('name'))[:60]}/s{str(rec.get('seed'))[:60]}"
        if path.endswith("tokens_per_solved_task"):
            msg = (f"{path} is NaN: the harness stores null when no task was solved "
                   "(NaN is not JSON, and readers disagree on it). Write null.")
        else:
            msg = (f"{path} is NaN or Infinity, which JSON forbids. Write null for an "
                   "undefined value.")
        yield R.NONFINITE_VALUE(msg, file=hf.name, line=line, episode_id=read)


def _controls(hf: HarnessFile, res: BenchmarkResult) -> Iterator[Finding]:
    missing = [k for k, v in (("budget_axis", res.budget_axis),
                               ("controlled.allowed_differences",
                                res.controlled.get("allowed_differences"))) if v is None]
    if missing:
        yield R.CONTROLS_UNRECORDED(
            f"{', '.join(missing)} not recorded (schema {res.schema_version}): equal budgets and "
            "declared differences cannot be checked; compare the arms' optimizer_steps and "
            "structured_diff by hand before quoting the table.",
            file=hf.name, line=hf.key_line("schema_version"),
        )


def declared_diff(arm: ArmResult) -> list[dict[str, Any]]:
    """The arm's scientific differences: `scientific_config_diff`, else (older v2 files) the
    compatibility `structured_diff` without the harness's own bookkeeping paths."""
    if arm.scientific_config_diff:
        rows = arm.scientific_config_diff
    else:
        rows = [r for r in arm.structured_diff if r.get("common") != RUNTIME_RESOLVED
                and r.get("stage", "declared_vs_common") == "declared_vs_common"]
    return [r for r in rows if str(r.get("path", "")) not in HARNESS_PATHS]


def is_measured(status: str) -> bool:
    """`measured` and its qualified forms (`measured_primary`, `measured_diagnostic_...`)."""
    return status == "measured" or status.startswith("measured_")


def path_allowed(path: str, patterns: list[str]) -> bool:
    """The harness's matching: an exact path, or `prefix.*` for everything under prefix."""
    for pattern in patterns:
        if pattern.endswith(".*"):
            prefix = pattern[:-2]
            if path == prefix or path.startswith(prefix + "."):
                return True
        elif path == pattern:
            return True
    return False


def _differences(hf: HarnessFile, res: BenchmarkResult) -> Iterator[Finding]:
    if res.controlled.get("allowed_differences") is None:
        return
    allowed = res.allowed_differences
    seen: set[tuple[str, str]] = set()
    for arm in res.arms:
        for row in declared_diff(arm):
            path = str(row.get("path", ""))
            if path_allowed(path, allowed) or (arm.name, path) in seen:
                continue
            seen.add((arm.name, path))
            yield _where(hf, arm, (
                f"arm {arm.name!r} differs from the common config at {path} "
                f"({_v(row.get('common'))} -> {_v(row.get('arm'))}), which is not in "
                f"allowed_differences {allowed}: an undeclared difference the harness rejects "
                "before allocation. Declare it and re-run, or do not compare this arm."
            ), R.UNDECLARED_DIFFERENCE)


def _v(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _budget(hf: HarnessFile, res: BenchmarkResult) -> Iterator[Finding]:
    if res.budget_axis != "optimizer_steps":
        return
    competitors = [a for a in res.arms if not (a.name == REFERENCE_ARM and a.optimizer_steps == 0)]
    if not competitors:
        return
    counts = Counter(a.optimizer_steps for a in competitors)
    top = max(counts.values())
    budget = next(a.optimizer_steps for a in competitors if counts[a.optimizer_steps] == top)
    allowed = res.allowed_differences
    reported: set[str] = set()
    for arm in competitors:
        if arm.optimizer_steps == budget or arm.name in reported:
            continue
        covering = [str(r.get("path")) for r in declared_diff(arm)
                    if str(r.get("path")) in SCHEDULE_PATHS
                    and path_allowed(str(r.get("path")), allowed)]
        if covering:
            continue
        reported.add(arm.name)
        yield _where(hf, arm, (
            f"arm {arm.name!r} ran {arm.optimizer_steps} optimizer steps where the other arms ran "
            f"{budget}, and budget_axis is optimizer_steps (equal updates); no declared schedule "
            f"difference ({', '.join(sorted(SCHEDULE_PATHS))}) covers it. Its success rate is "
            "not comparable at an equal budget."
        ), R.UNEQUAL_BUDGET)


#: Seeds a finding lists one by one; the rest are counted (20,000 declared seeds must not make
#: every finding 20,000 numbers long).
SEEDS_SHOWN = 10


def seed_list(seeds: list[int]) -> str:
    """`[1, 2, 3]`, or the first SEEDS_SHOWN and how many more."""
    if len(seeds) <= SEEDS_SHOWN:
        return str(seeds)
    return f"{str(seeds[:SEEDS_SHOWN])[:-1]}, ... and {len(seeds) - SEEDS_SHOWN:,} more]"


def _seeds(hf: HarnessFile, res: BenchmarkResult) -> Iterator[Finding]:
    grid: dict[str, Counter[int]] = defaultdict(Counter)
    for arm in res.arms:
        grid[arm.name][arm.seed] += 1
    declared = list(dict.fromkeys(res.seeds)) if res.seeds else sorted(
        {a.seed for a in res.arms})
    declared_set = set(declared)
    if len(declared) != len(res.seeds) and res.seeds:
        yield R.SEEDS_INCOMPLETE(
            f"seeds {seed_list(res.seeds)} repeats a seed: each seed is one repetition.",
            file=hf.name, line=hf.key_line("seeds"))
    first = {a.name: a for a in reversed(res.arms)}
    for name, got in grid.items():  # sets and counts: arms x seeds, not arms x seeds^2
        missing = [s for s in declared if s not in got]
        extra = sorted(s for s in got if s not in declared_set)
        repeated = sorted(s for s, n in got.items() if n > 1)
        parts = []
        if missing:
            parts.append(f"no read at seed(s) {seed_list(missing)}")
        if extra:
            parts.append(f"read(s) at undeclared seed(s) {seed_list(extra)}")
        if repeated:
            parts.append(f"more than one read at seed(s) {seed_list(repeated)}")
        if parts:
            yield _where(hf, first[name], (
                f"arm {name!r}: {'; '.join(parts)} (declared seeds {seed_list(declared)}). A "
                "per-arm mean over a different seed set is not comparable; publish every "
                "seed's read."
            ), R.SEEDS_INCOMPLETE)


SINGLE_SEED_LABEL = "single seed -- no significance claimed"


def _single_seed(hf: HarnessFile, res: BenchmarkResult) -> Iterator[Finding]:
    if res.single_seed:
        yield R.SINGLE_SEED(
            f"one seed ({seed_list(res.seeds or sorted({a.seed for a in res.arms}))}): no variance "
            f"estimate, so every number of this file is shown with '{SINGLE_SEED_LABEL}'. "
            "Add seeds for a min-max range and a replicate contrast.",
            file=hf.name, line=hf.key_line("seeds"))


def _reference(hf: HarnessFile, res: BenchmarkResult) -> Iterator[Finding]:
    refs = [a for a in res.arms if a.name == REFERENCE_ARM]
    if not refs:
        what = ("a single-run submission has no reference row" if res.submission
                else f"none of the arms {res.arm_names} is {REFERENCE_ARM!r}")
        yield R.REFERENCE_MISSING(
            f"{what}: no delta is quoted, and a success rate read alone includes whatever the "
            "cold start already achieved. Run the cold-start-only arm on the same split.",
            file=hf.name, line=hf.key_line("arms"))
    for arm in refs:
        if arm.optimizer_steps != 0:
            yield _where(hf, arm, (
                f"{REFERENCE_ARM!r} ran {arm.optimizer_steps} optimizer steps; the reference "
                "row is the shared cold start evaluated with 0 further steps. Deltas over it "
                "would hide those steps' effect."
            ), R.REFERENCE_TRAINED)


def _measurement(hf: HarnessFile, res: BenchmarkResult) -> Iterator[Finding]:
    quiet: dict[tuple[str, str], list[ArmResult]] = defaultdict(list)
    unrecorded: list[ArmResult] = []
    for arm in res.arms:
        status = arm.measurement_status
        if isinstance(status, str):
            if not is_measured(status):
                yield _where(hf, arm, (
                    f"{arm.key}: measurement_status is {status!r}, yet the arm reports a "
                    "success rate, times and counts. Only measured numbers may be published "
                    "as miniVERL measurements; trace each to a run directory."
                ), R.UNMEASURED_NUMBER)
            continue
        if not status:
            unrecorded.append(arm)
            continue
        for key, value in status.items():
            if is_measured(value):
                continue
            fields = STATUS_FIELDS.get(key, ())
            shown = [f for f in fields if getattr(arm, f) is not None]
            if value in FABRICATED or shown:
                which = ", ".join(f"{f}={getattr(arm, f)}" for f in shown) or "its numbers"
                yield _where(hf, arm, (
                    f"{arm.key}: measurement_status.{key} is {value!r}, yet {which} is "
                    "reported as a number. Report null for what was not measured."
                ), R.UNMEASURED_NUMBER)
            else:
                quiet[(key, value)].append(arm)
    for (key, value), arms in quiet.items():
        nulls = ", ".join(STATUS_FIELDS.get(key, ())) or key
        yield _where(hf, arms[0], (
            f"measurement_status.{key} is {value!r} for {len(arms)} of {len(res.arms)} reads "
            f"({nulls} null): shown as not measured, never as zero."
        ), R.NOT_MEASURED)
    if unrecorded:
        yield _where(hf, unrecorded[0], (
            f"{len(unrecorded)} of {len(res.arms)} reads record no measurement_status "
            f"(schema {res.schema_version}): whether times, memory and cache were measured is "
            "not stated."
        ), R.NOT_MEASURED)


def _whole(x: float) -> bool:
    """A whole number up to float noise; never for NaN or infinity (a ratio of 5e-324 gives an
    infinite count, which no rounding makes whole)."""
    return math.isfinite(x) and abs(x - round(x)) <= 1e-6 * max(1.0, abs(x))


def _finite(x: float | None) -> bool:
    return x is not None and math.isfinite(x)


def _ratios(hf: HarnessFile, res: BenchmarkResult) -> Iterator[Finding]:
    for arm in res.arms:
        problems = []
        pairs = (
            ("selected_position_ratio", arm.selected_position_ratio,
             "selected_training_tokens_total", arm.selected_training_tokens_total),
            ("teacher_queried_position_ratio", arm.teacher_queried_position_ratio,
             "teacher_queried_positions_total", arm.teacher_queried_positions_total),
        )
        implied: dict[str, float] = {}
        for rname, ratio, nname, num in pairs:
            if not _finite(ratio) or num is None:
                continue
            assert ratio is not None
            if not 0.0 <= ratio <= 1.0:
                problems.append(f"{rname} = {ratio:g} is not a fraction of positions")
            elif num == 0 and ratio != 0:
                problems.append(f"{rname} = {ratio:g} with {nname} = 0")
            elif num > 0 and ratio == 0:
                problems.append(f"{rname} = 0 with {nname} = {num}")
            elif num > 0:
                eligible = num / ratio
                implied[rname] = eligible
                if not _whole(eligible):
                    problems.append(
                        f"{nname} / {rname} = {num} / {ratio:.6g} = {eligible:.4f} eligible "
                        "positions, not a whole count: an average of cycle ratios?")
        if len(implied) == 2:
            a, b = implied.values()
            if abs(a - b) > 1e-6 * max(a, b) and _whole(a) and _whole(b):
                problems.append(
                    f"the two ratios imply different eligible-position totals ({a:.0f} and "
                    f"{b:.0f}); both are over the same summed denominator")
        if problems:
            yield _where(hf, arm, (
                f"{arm.key}: " + "; ".join(problems) + ". The harness defines both ratios as "
                "summed numerators over summed denominators across every cycle."
            ), R.RATIO_NOT_OF_SUMS)


def solved_count(arm: ArmResult) -> int | None:
    """Solved tasks behind success_rate (greedy: one trajectory per task), None if not whole."""
    if arm.tasks <= 0 or not math.isfinite(arm.success_rate):
        return None
    if not 0.0 <= arm.success_rate <= 1.0:
        return None
    solved = arm.success_rate * arm.tasks
    return round(solved) if _whole(solved) else None


def _counts(hf: HarnessFile, res: BenchmarkResult) -> Iterator[Finding]:
    for arm in res.arms:
        if solved_count(arm) is not None:
            continue
        if arm.tasks <= 0:
            why = "tasks is 0: no task was evaluated, so the success rate has no denominator"
        elif not 0.0 <= arm.success_rate <= 1.0:
            why = f"success_rate {arm.success_rate!r} is not a fraction"
        else:
            why = (f"success_rate x tasks = {arm.success_rate!r} x {arm.tasks} = "
                   f"{arm.success_rate * arm.tasks:.4f}, not a whole number of solved tasks")
        yield _where(hf, arm, (
            f"{arm.key}: {why}. Greedy evaluation scores one trajectory per task, so the rate "
            "must be solved / tasks; no interval is computed for this read."
        ), R.RATE_NOT_A_COUNT)


_ABS_PATH = re.compile(r"(?:^|(?<=[\s=:'\"]))(?:~[\w.-]*/|/(?!/)|[A-Za-z]:[\\/]|\\\\)[^\s'\"]*")
#: A home-directory path; group 1 is the user it names. Public, with IDENTITY_KEYS, because the
#: export (report/harness_export.py) scrubs exactly the names this audit reports (EV811).
HOME_USER = re.compile(r"(?:/home/|/Users/|[A-Za-z]:[\\/]Users[\\/])([^/\\\s'\"]+)")
#: Keys whose value identifies a machine or a person (host, user, ip, ...), in any letter case.
IDENTITY_KEYS = frozenset({"host", "hostname", "node", "nodename", "user", "username",
                           "login", "fqdn", "ip", "ip_address", "mac", "home"})


def local_identities(value: Any, where: str = "") -> list[tuple[str, str]]:
    """(location, what) for every absolute path, home-directory user and host/user key."""
    out: list[tuple[str, str]] = []
    if isinstance(value, dict):
        for k, v in value.items():
            loc = f"{where}.{k}" if where else str(k)
            if str(k).lower() in IDENTITY_KEYS and v not in (None, ""):
                out.append((loc, f"a {k} ({_v(v)})"))
            else:
                out.extend(local_identities(v, loc))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(local_identities(v, f"{where}[{i}]"))
    elif isinstance(value, str):
        for m in _ABS_PATH.finditer(value):
            if m.group(0).startswith("<local>"):
                continue
            user = HOME_USER.search(m.group(0))
            extra = f", naming the user {user.group(1)!r}" if user else ""
            out.append((where, f"the absolute path {_v(m.group(0))}{extra}"))
    return out


def _local_identity(hf: HarnessFile, res: BenchmarkResult) -> Iterator[Finding]:
    fix = ("The harness's publisher (and `evalview export`) strips them; publish the sanitized "
           "file, not this one.")
    run_dirs = [(a, local_identities(a.run_dir, "run_dir")) for a in res.arms]
    leaky = [(a, hits) for a, hits in run_dirs if hits]
    if leaky:
        arm, hits = leaky[0]
        yield _where(hf, arm, (
            f"run_dir of {len(leaky)} of {len(res.arms)} reads is machine-local, e.g. "
            f"{arm.key}: {hits[0][1]}. {fix}"
        ), R.LOCAL_IDENTITY)
    for field in ("hardware", "invocation"):
        hits = local_identities(getattr(res, field), field)
        if hits:
            shown = "; ".join(f"{loc}: {what}" for loc, what in hits[:3])
            more = f" and {len(hits) - 3} more" if len(hits) > 3 else ""
            yield R.LOCAL_IDENTITY(f"{field} holds {shown}{more}. {fix}",
                                   file=hf.name, line=hf.key_line(field))


#: What the harness's validator requires of a schema-3 result (None or [] is missing).
V3_REQUIRED = (
    "preregistration_sha", "preregistration_digest", "hypothesis_ids", "task_schedule_digest",
    "template_registry_version", "template_registry_digest", "selected_teacher_candidate",
    "teacher_gate_results", "teacher_preparation_cost", "budget_view", "stop_criterion",
    "recovery_metrics", "task_level_artifacts", "result_analysis_version", "invalidation_status",
)
#: Digest fields and the hex length each must have (a git commit, SHA-256 digests).
V3_DIGESTS = (("preregistration_sha", 40), ("preregistration_digest", 64),
              ("task_schedule_digest", 64), ("template_registry_digest", 64))
_HEX = re.compile(r"[0-9a-f]+")


def _is_hex(value: object, length: int) -> bool:
    return isinstance(value, str) and len(value) == length and bool(_HEX.fullmatch(value))


def _recovery_provenance(hf: HarnessFile, res: BenchmarkResult) -> Iterator[Finding]:
    if not res.recovery:
        return
    missing = [k for k in V3_REQUIRED if getattr(res, k) in (None, [], {})]
    if missing:
        yield R.RECOVERY_PROVENANCE(
            f"schema 3 without {', '.join(missing)}: the harness's validator refuses such a "
            "result (benchmark schema v3 requires them), so its preregistration, budget view "
            "and task-level evidence cannot be traced. Publish the file the harness wrote.",
            file=hf.name, line=hf.key_line("schema_version"))
    for key, length in V3_DIGESTS:
        value = getattr(res, key)
        if value is not None and not _is_hex(value, length):
            yield R.RECOVERY_PROVENANCE(
                f"{key} is {_v(value)}, not a {length}-character lowercase hex digest: the "
                "preregistration or schedule it names cannot be checked against it.",
                file=hf.name, line=hf.key_line(key))


def _invalidated(hf: HarnessFile, res: BenchmarkResult) -> Iterator[Finding]:
    status = res.invalidation_status
    if status is None or (status.get("valid") is True and status.get("reasons") == []):
        return
    reasons = status.get("reasons")
    why = (f"reasons {reasons}" if isinstance(reasons, list) and reasons
           else "no reasons listed")
    yield R.INVALIDATED(
        f"invalidation_status is {_v(status)} ({why}): the run was invalidated after it was "
        "recorded, and the harness's publisher refuses an invalidated result. Do not quote "
        "its numbers.", file=hf.name, line=hf.key_line("invalidation_status"))


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _overshoot(hf: HarnessFile, res: BenchmarkResult) -> Iterator[Finding]:
    values: list[tuple[ArmResult, float]] = []
    for arm in res.arms:
        over = arm.overshoot
        actual, target, value = (_number(over.get(k)) for k in ("actual", "target", "value"))
        if value is None:
            continue
        values.append((arm, value))
        problems = []
        if actual is not None and target is not None and not _close(value, actual - target):
            problems.append(f"value {value:g} is not actual - target = {actual:g} - "
                            f"{target:g} = {actual - target:g}")
        if value < 0:
            problems.append(f"value {value:g} is negative: the arm stopped short of its "
                            f"{over.get('axis')} target")
        if problems:
            yield _where(hf, arm, f"{arm.key}: overshoot " + "; ".join(problems) + ".",
                         R.OVERSHOOT_INCONSISTENT)
    maximum = _number(res.overshoot.get("maximum"))
    if maximum is None or not values:
        return
    arm, largest = max(values, key=lambda av: av[1])
    if not _close(maximum, largest):
        yield R.OVERSHOOT_INCONSISTENT(
            f"overshoot.maximum is {maximum:g} but the largest arm overshoot is {largest:g} "
            f"({arm.key}): the budget's overshoot beside the numbers is misreported.",
            file=hf.name, line=hf.key_line("overshoot"))


_ARTIFACT_KEYS = ("path", "sha256", "bytes")


def _artifact_problem(artifact: dict[str, Any] | None) -> str | None:
    if not artifact:
        return "records no task_level_artifact"
    missing = [k for k in _ARTIFACT_KEYS if k not in artifact]
    if missing:
        return f"task_level_artifact lacks {', '.join(missing)}"
    if not _is_hex(artifact["sha256"], 64):
        return f"task_level_artifact.sha256 {_v(artifact['sha256'])} is not a SHA-256"
    size = artifact["bytes"]
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        return f"task_level_artifact.bytes {_v(size)} is not a byte count"
    return None


def _key_of(artifact: dict[str, Any]) -> tuple[str, str]:
    return (str(artifact.get("path")), str(artifact.get("sha256")))


def _task_artifacts(hf: HarnessFile, res: BenchmarkResult) -> Iterator[Finding]:
    if not res.recovery:
        return
    bad = [(a, p) for a in res.arms if (p := _artifact_problem(a.task_level_artifact))]
    if bad:
        arm, problem = bad[0]
        yield _where(hf, arm, (
            f"{len(bad)} of {len(res.arms)} reads have no usable task-level artifact, e.g. "
            f"{arm.key} {problem}: its per-task outcomes cannot be traced or paired. The "
            "harness's publisher refuses such an arm."
        ), R.TASK_ARTIFACT_UNRECORDED)
    listed = {_key_of(a) for a in res.task_level_artifacts}
    of_arms = {_key_of(a.task_level_artifact) for a in res.arms if a.task_level_artifact}
    if res.task_level_artifacts and listed != of_arms:
        unlisted, extra = sorted(of_arms - listed), sorted(listed - of_arms)
        parts = []
        if unlisted:
            parts.append(f"{len(unlisted)} arm artifact(s) not listed (e.g. {unlisted[0][0]})")
        if extra:
            parts.append(f"{len(extra)} listed artifact(s) of no arm (e.g. {extra[0][0]})")
        yield R.TASK_ARTIFACT_UNRECORDED(
            f"task_level_artifacts does not match the arms' task_level_artifact records: "
            f"{'; '.join(parts)}.", file=hf.name, line=hf.key_line("task_level_artifacts"))


def _artifacts_beside(hf: HarnessFile, res: BenchmarkResult) -> Iterator[Finding]:
    """Each task-level artifact the result records, verified when it sits beside the result
    (a relative path under the result's folder, a regular file, not a link): the size first,
    then the SHA-256. Absent ones are one info finding: published results often ship without
    their trajectories, and that is not an error."""
    records = [a for a in res.task_level_artifacts if _artifact_problem(a) is None]
    if not records:
        return
    from evalview.load.hashing import sha256_file

    folder = hf.path.parent
    absent: list[str] = []
    for artifact in records:
        rel = str(artifact["path"])
        parts = Path(rel).parts
        if Path(rel).is_absolute() or ".." in parts or not parts:
            absent.append(f"{rel} (outside the result's folder)")
            continue
        target = folder / rel
        if not target.exists() and not target.is_symlink():
            absent.append(rel)
            continue
        if target.is_symlink() or not target.is_file():
            absent.append(f"{rel} (a link or not a file: not followed)")
            continue
        size, actual = target.stat().st_size, None
        if size == artifact["bytes"]:
            actual = sha256_file(target)
        if actual != str(artifact["sha256"]).lower():
            found = f"{size:,} bytes" if actual is None else f"SHA-256 {actual}"
            yield R.TASK_ARTIFACT_CHANGED(
                f"{hf.name} records {rel} as {artifact['bytes']:,} bytes with SHA-256 "
                f"{artifact['sha256']}, but the file beside it has {found}: the per-task "
                "outcomes there are not the ones this result's numbers came from. Restore the "
                "published artifact or re-run the evaluation.",
                file=hf.name, line=hf.line_of(rel))
    if absent:
        yield R.TASK_ARTIFACT_ABSENT(
            f"{len(absent)} of {len(records)} task-level artifact(s) are not beside "
            f"{hf.name} (e.g. {absent[0]}); their hashes are not verified. Put the published "
            "artifacts beside the result to check them.",
            file=hf.name, line=hf.key_line("task_level_artifacts"))


#: The arm stop that means "ran out of configured cycles", not "reached the view's target".
CYCLE_CAP = "configured_cycles"


def _cap_stop(hf: HarnessFile, res: BenchmarkResult) -> Iterator[Finding]:
    view = (res.stop_criterion or {}).get("kind")
    if not isinstance(view, str) or view in ("optimizer_steps", CYCLE_CAP):
        return
    capped = [a for a in res.arms if (a.stop_criterion or {}).get("kind") == CYCLE_CAP]
    if not capped:
        return
    names = sorted({a.name for a in capped})
    target = ", ".join(f"{k}={v}" for k, v in (res.stop_criterion or {}).items()
                       if k != "kind")
    yield _where(hf, capped[0], (
        f"{len(capped)} of {len(res.arms)} reads ({', '.join(names)}) stopped at their "
        f"configured cycle cap, not at the {res.budget_view or view} target ({target}): on "
        f"the {view} axis they are not at an equal budget. Quote this view as cycle-capped, "
        "with each arm's stop beside its number."
    ), R.BUDGET_CAP_STOP)
