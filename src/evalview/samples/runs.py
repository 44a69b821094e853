"""The committed sample runs (sample_runs/) and their README, made by one deterministic function."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from evalview.samples.closed_run import ClosedRun, build_closed_run, write_closed_run
from evalview.samples.faults import FAULTS, build_faulty_run
from evalview.samples.harness import readme_section, write_harness_samples
from evalview.samples.inspect_ai import INSPECT_DIR, write_inspect_samples
from evalview.samples.inspect_ai import readme_section as inspect_readme_section
from evalview.samples.lerobot import FILES as LEROBOT_FILES
from evalview.samples.lerobot import write_lerobot_samples
from evalview.samples.lm_eval import LM_EVAL_DIR
from evalview.samples.lm_eval import readme_section as lm_eval_readme_section
from evalview.samples.lm_eval import write as write_lm_eval_samples

#: The directory (under sample_runs/) of the LeRobot eval_info.json samples.
LEROBOT_DIR = "lerobot"

#: The run `evalview` opens when given no path.
BUNDLED = "robobench-24x50"


@dataclass(frozen=True, slots=True)
class Sample:
    name: str
    description: str
    build: Callable[[], ClosedRun]


def _robobench() -> ClosedRun:
    return build_closed_run(tasks=24, seeds=50)


def _fail_fast() -> ClosedRun:
    return build_closed_run(
        tasks=["open-top-drawer", "hang-mug", "wipe-table", "sort-fruit", "turn-faucet-on",
               "place-book-shelf", "water-plant", "arrange-cups"],
        seeds=10,
        rng_seed=11,
        run_id="robobench-pi-test-failfast",
        policy_version="ckpt-38000",
        fail_fast_after=37,
        components=False,
        recording=False,
    )


#: The replicate reads: two methods x three fine-tuning seeds, small (6 tasks x 8 seeds each).
REPLICATES_DIR = "replicates"
REPLICATE_METHODS = (("planner-a", 0.0, 31), ("planner-b", 0.1, 47))
REPLICATE_SEEDS = (1, 2, 3)
_REPLICATE_TASKS = ["pick-red-cube", "open-top-drawer", "stack-three-blocks", "insert-peg",
                    "close-microwave", "hang-mug"]
REPLICATES_DESCRIPTION = (
    "Six small reads (6 tasks x 8 seeds each, no errored episode) of two methods, `planner-a` "
    "and `planner-b` (the second somewhat better on the tasks between floor and ceiling), each "
    "fine-tuned three times (`manifest.policy.fine_tune_seed` 1, 2, 3): the shape of a paper's "
    "main table. `evalview table sample_runs/replicates` prints it; `evalview contrast --a "
    "1=sample_runs/replicates/planner-a/ft-seed-1 2=... 3=... --b 1=... 2=... 3=...` (the "
    "planner-b reads) contrasts the methods paired by replicate. Each replicate is its own "
    "training run, so each has its own checkpoint (`ft1-step-30000`, ...)."
)


def _replicate(
    method: str, shift: float, base_seed: int, replicate: int
) -> Callable[[], ClosedRun]:
    def build() -> ClosedRun:
        run = build_closed_run(
            tasks=_REPLICATE_TASKS,
            seeds=8,
            rng_seed=base_seed * 100 + replicate,
            run_id=f"robobench-{method}-ft{replicate}",
            policy_name=method,
            policy_version=f"ft{replicate}-step-30000",
            error_rate=0.0,
            recording=False,
            success_shift=shift,
        )
        run.manifest["policy"]["fine_tune_seed"] = replicate
        return run

    return build


_REPLICATE_SAMPLES = tuple(
    Sample(
        f"{REPLICATES_DIR}/{method}/ft-seed-{k}",
        REPLICATES_DESCRIPTION,
        _replicate(method, shift, base, k),
    )
    for method, shift, base in REPLICATE_METHODS
    for k in REPLICATE_SEEDS
)

SAMPLES: tuple[Sample, ...] = (
    Sample(
        BUNDLED,
        "A realistic 24-task x 50-seed run (1,200 episodes) of a planner + reviewer method. "
        "Per-task success rates spread from 0 % to 100 % (fold-towel, open-jar and knot-rope at "
        "the floor; pick-red-cube and push-button at the ceiling); about 2 % of episodes errored, "
        "in all four categories (infrastructure, policy, evaluation, protocol), with error "
        "messages that contain machine paths an export must strip. Usage is partially known: "
        "calls are always counted, tokens and cost only for some episodes, so the summary's "
        "token and cost totals are null (unknown propagates). Completed episodes carry "
        "`metrics.score` and a verifier checkpoint message in `metrics.message`. The audit finds "
        "no error; it warns about the errored episodes.",
        _robobench,
    ),
    Sample(
        "fail-fast",
        "An 8-task x 10-seed run declared with `fail_fast: true` that stopped right after its "
        "38th episode errored (infrastructure); the other 42 selected cases are unattempted and "
        "stay in the schedule and the denominator. Its method is a legacy policy projection "
        "(no declared components, no component usage). The audit finds no error; it warns about "
        "the pending infrastructure error and the unattempted cases.",
        _fail_fast,
    ),
    Sample(
        "faulty",
        "A 6-task x 8-seed run with the deliberate faults listed below, for demonstrating the "
        "audit (`evalview check sample_runs/faulty` exits 1). Apart from these faults it conforms.",
        build_faulty_run,
    ),
    *_REPLICATE_SAMPLES,
)


def readme() -> str:
    lines = [
        "# Sample runs",
        "",
        "Closed runs in the `starvla-rsi.eval/v1` format, made by a deterministic generator.",
        "Do not edit them by hand: regenerate with",
        "",
        "```sh",
        "python -m evalview.samples sample_runs",
        "```",
        "",
        "(a test checks that regenerating gives byte-identical files). The data is synthetic:",
        "no policy was run to make it.",
        "",
    ]
    grouped: set[str] = set()
    for sample in SAMPLES:
        top, sep, _rest = sample.name.partition("/")
        if sep and top in grouped:
            continue  # a group of reads (replicates/...) has one section
        grouped.add(top)
        lines += [f"## `{top}/`", "", sample.description, ""]
    lines += [
        f"## `{LEROBOT_DIR}/`",
        "",
        "LeRobot `lerobot-eval` results (`eval_info.json`), LIBERO-style, written the way",
        "lerobot-eval writes them (its arithmetic, its float noise, json.dump with indent=2):",
        "",
    ]
    lines += [f"- `{name}`: {what}" for name, what in LEROBOT_FILES.items()]
    lines += [
        "",
        "Open, score and compare them (pairs are (task, episode index)):",
        "",
        "```sh",
        "evalview sample_runs/lerobot/smolvla-libero-40k.json",
        "evalview score sample_runs/lerobot/smolvla-libero-40k.json --per-task",
        "evalview compare sample_runs/lerobot/smolvla-libero-20k.json "
        "sample_runs/lerobot/smolvla-libero-40k.json",
        "evalview score sample_runs/lerobot/libero10-two-reads.json --json   # {\"reads\": [...]}",
        "```",
        "",
    ]
    lines += [
        "## The folder as a whole",
        "",
        "`evalview sample_runs/` opens the Runs screen over every read here (the PSR files are "
        "not reads and are listed as skipped); `evalview check sample_runs/` audits them all in "
        "parallel (exit 1: `faulty/` has errors); `evalview table sample_runs/ --format latex` "
        "prints the paper's table (exit 1: the reads with errored rollouts are refused, and their "
        "rows say why).",
        "",
    ]
    lines += ["### Faults in `faulty/`", "", "| fault | part | what is wrong |"]
    lines.append("| --- | --- | --- |")
    for fault in FAULTS:
        lines.append(f"| {fault.name} | {fault.family} | {fault.description} |")
    lines.append("")
    lines += readme_section()
    lines += inspect_readme_section()
    lines += lm_eval_readme_section()
    return "\n".join(lines)


def write_sample_runs(out_dir: str | Path, names: tuple[str, ...] | None = None) -> list[Path]:
    """Write the sample runs (all, or `names`) and README.md under `out_dir`; with every run,
    also the benchmark-harness result files under `out_dir/harness/`.

    An existing sample directory is replaced only if it holds a manifest.json (it is ours to
    regenerate); anything else in the way is an error rather than something deleted.
    """
    root = Path(out_dir)
    root.mkdir(parents=True, exist_ok=True)
    written = []
    for sample in SAMPLES:
        if names is not None and sample.name not in names:
            continue
        target = root / sample.name
        if target.exists():
            if not (target / "manifest.json").is_file():
                raise FileExistsError(
                    f"{target}: exists and is not a sample run; move it away first."
                )
            shutil.rmtree(target)
        written.append(write_closed_run(sample.build(), target))
    if names is None or LEROBOT_DIR in names:
        written.extend(write_lerobot_samples(root / LEROBOT_DIR))
    if names is None or INSPECT_DIR in names:
        written.extend(write_inspect_samples(root / INSPECT_DIR))
    if names is None or LM_EVAL_DIR in names:
        written.extend(write_lm_eval_samples(root / LM_EVAL_DIR))
    if names is None:
        written.extend(write_harness_samples(root))
        (root / "README.md").write_text(readme(), encoding="utf-8")
    return written
