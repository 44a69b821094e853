"""The reporting rules' verdict on one read: what refuses it and what a reader must be told.

`score_run` gathers the facts (`ReadState`) and does the arithmetic; the rules that turn those
facts into refusals and labels live here, so the wording and the order of every refusal and label
of `evalview score` are in one place (reporting-rules.txt, "What the scorer pools").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from evalview.findings import Finding
from evalview.fmt import pct_range, ratio
from evalview.model.run import Run
from evalview.stats.aggregate import ZeroSpread
from evalview.stats.benchmark import BenchmarkDeclaration, SeedSet
from evalview.stats.errors import ErroredCase

APPENDIX_VIEW = "(appendix view)"
DEVELOPMENT = "[development seeds]"
NOT_PUBLISHABLE = "not a publishable read"
OFF_PROTOCOL = "OFF-PROTOCOL"
#: The label of a read whose format cannot record errored or unattempted episodes (LeRobot).
NO_ERROR_RECORD = (
    "no error record: the format records no errored or unattempted episode, so every "
    "denominator is the episodes recorded"
)
#: The label of a view over one of the read's own task groups (a LeRobot suite).
GROUP_VIEW = "(group view)"
#: The start of the label of an all-T SE that is zero by design (stats/aggregate.py ZeroSpread).
ZERO_SPREAD = "SE zero by design, not precision"


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the read must not be reported. `code` is stable; `details` name the cases or files."""

    code: str
    message: str
    details: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": list(self.details)}


@dataclass(frozen=True, slots=True)
class ReadState:
    """Every fact about one read that its refusals and labels depend on (nothing else does)."""

    path: str
    #: the benchmark declaration's objections (None: no declaration, or none to make)
    version_problem: str | None
    seed_set_problem: str | None
    off_protocol: tuple[str, ...]
    untagged: tuple[str, ...]
    view: str | None
    #: why `view` cannot be shown (None: no view asked, or it is declared)
    view_problem: str | None
    seed_set: SeedSet | None
    errored: tuple[ErroredCase, ...]
    audit_errors: tuple[Finding, ...]
    missing: tuple[str, ...]
    has_tasks: bool
    allow_errors: bool
    allow_off_protocol: bool
    #: a declared view whose task count contradicts its name (`informative_20` with 3 tasks)
    view_size_warning: str | None = None
    #: the run records no benchmark.version_sha256 while the declaration identifies its release
    version_unverified: str | None = None
    #: `view` is one of the read's own task groups (a LeRobot suite), not a benchmark subset
    group_view: bool = False
    #: False when the format cannot record errored or unattempted episodes (LeRobot)
    records_errors: bool = True
    #: every task is 0/n or n/n: the all-T SE and both intervals are zero by design
    zero_spread: ZeroSpread | None = None
    #: why the read holds no case, in its format's terms (the reader's `no_cases`); None: the
    #: closed run's words (an empty or unreadable protocol.episode_ids)
    no_cases: str | None = None

    @property
    def view_applied(self) -> bool:
        """The read is scored on a declared subset (an appendix view) or one of its groups."""
        return self.view is not None and self.view_problem is None


def view_problem(
    view: str | None, benchmark: BenchmarkDeclaration | None, groups: tuple[str, ...] = (),
    keys: tuple[str, ...] = (),
) -> str | None:
    """Why `--view VIEW` cannot be shown: subsets are declared by the benchmark, by name; a
    read's own task groups (`groups`, LeRobot suites) are views without a declaration, as are
    its grouping keys (`keys`, an Inspect log's sample metadata): an unknown one names them."""
    if view is None:
        return None
    if benchmark is None:
        if view in groups:
            return None
        if keys:  # said as --group-by says it: the keys this read can be viewed by
            return (
                f"no grouping {view!r} in this read (its groupable sample metadata keys: "
                f"{', '.join(keys)}); --view KEY and --group-by KEY take one of them, "
                "--view NAME with --benchmark FILE a declared subset."
            )
        own = f" (this read's own groups: {', '.join(groups)})" if groups else ""
        return (
            f"--view {view} needs --benchmark FILE: subsets are declared by the benchmark{own}."
        )
    if view not in benchmark.subsets:
        known = ", ".join(sorted(benchmark.subsets)) or "none"
        return f"{benchmark.source} declares no subset {view!r} (declared: {known})."
    return None


def refusals(s: ReadState) -> tuple[Refusal, ...]:
    """The refusals of one read, in the order `score --json` lists them."""
    out: list[Refusal] = []
    if s.version_problem is not None:
        out.append(Refusal("benchmark-version", f"{s.path}: {s.version_problem}."))
    if s.seed_set_problem is not None:
        out.append(Refusal("seed-set", f"{s.path}: {s.seed_set_problem}."))
    if s.off_protocol and not s.allow_off_protocol:
        out.append(
            Refusal(
                "off-protocol",
                f"{s.path}: an off-protocol read ({'; '.join(s.off_protocol)}). The scorer reads "
                "an off-protocol result only with --allow-off-protocol, and labels it "
                "OFF-PROTOCOL.",
                s.off_protocol,
            )
        )
    if s.untagged:
        out.append(
            Refusal(
                "quality-tag-untagged",
                f"{s.path}: the read is conditioned on quality tag 0 ({', '.join(s.untagged)}). "
                "Tag 0 is the trainer's \"untagged\" sentinel, not a trained quality bin: "
                "re-run with the quality bin the policy was trained on.",
                s.untagged,
            )
        )
    if s.view_problem is not None:
        out.append(Refusal("view-unknown", s.view_problem))
    if s.errored and not s.allow_errors:
        pending = sum(1 for e in s.errored if e.pending)
        out.append(
            Refusal(
                "errored-rollouts",
                f"{s.path}: {len(s.errored)} errored rollout(s) ({pending} infrastructure, "
                "pending a re-run). The reporting rules score only reads whose rollouts all "
                "completed: re-run them, or pass --allow-errors to score them as non-successes "
                "(not a publishable read).",
                tuple(e.describe() for e in s.errored),
            )
        )
    if s.audit_errors and not s.allow_errors:
        out.append(
            Refusal(
                "audit-errors",
                f"{s.path}: the audit finds {len(s.audit_errors)} error(s); the record is "
                "inconsistent. Fix them (see `evalview check`), or pass --allow-errors to score "
                "it anyway (not a publishable read).",
                tuple(_finding_line(f) for f in s.audit_errors),
            )
        )
    if not s.has_tasks:
        out.append(Refusal("no-cases", no_cases_message(s.path, s.no_cases)))
    return tuple(out)


def no_cases_message(path: str, why: str | None) -> str:
    """The no-cases refusal: in the format's terms when its reader says why (`Reader.no_cases`),
    else in the closed run's."""
    if why is not None:
        return f"{path}: no selected case to score: {why}"
    return (f"{path}: no selected case to score (manifest.json protocol.episode_ids is empty or "
            "unreadable).")


def labels(s: ReadState) -> tuple[str, ...]:
    """What a reader must see beside the numbers, the appendix-view label first."""
    out: list[str] = []
    if s.view_applied:
        out.append(f"{GROUP_VIEW} {s.view}" if s.group_view else APPENDIX_VIEW)
    if s.seed_set == "development":
        out.append(DEVELOPMENT)
    if s.off_protocol and s.allow_off_protocol:
        out.append(f"{OFF_PROTOCOL}: {'; '.join(s.off_protocol)}")
    if s.allow_errors and (s.errored or s.audit_errors):
        parts = []
        if s.errored:
            parts.append(f"{len(s.errored)} errored rollout(s) scored as non-successes")
        if s.audit_errors:
            parts.append(f"{len(s.audit_errors)} audit error(s)")
        out.append(f"{NOT_PUBLISHABLE}: {', '.join(parts)} (--allow-errors)")
    if not s.records_errors:
        out.append(NO_ERROR_RECORD)
    if s.missing:
        out.append(
            f"{len(s.missing)} declared case(s) missing from the run, counted as failures"
        )
    if s.view_size_warning is not None:
        out.append(s.view_size_warning)
    if s.version_unverified is not None:
        out.append(f"{NOT_PUBLISHABLE}: {s.version_unverified}")
    if s.zero_spread is not None:
        out.append(zero_spread_label(s.zero_spread))
    return tuple(out)


def zero_spread_label(z: ZeroSpread) -> str:
    """Said beside the number wherever it is shown (text, --json `labels`, the app, the page):
    an SE of 0 there is the design speaking, and the pooled Wilson interval is what is honest."""
    low, high = z.episodes
    if high == 1:
        design = "one episode per task"
    elif low == high:
        design = f"{low} episodes per task, each task all successes or all failures"
    else:
        design = f"{low} to {high} episodes per task, each task all successes or all failures"
    pooled = (
        f"pooled Wilson 95 % {pct_range(*z.pooled_wilson95)} "
        f"({ratio(z.successes, z.selected)} episodes)"
    )
    if z.episodes_needed is None:
        need = (
            f"every episode {z.one_outcome}: no number of episodes per task gives an SE while "
            "that holds"
        )
    else:
        rarer = "failure" if 2 * z.successes >= z.selected else "success"
        need = (
            f"a real SE needs at least {z.episodes_needed:,} episodes per task (at the pooled "
            f"rate, one {rarer} expected in each task)"
        )
    return (
        f"{ZERO_SPREAD}: every task is 0/n or n/n ({design}), so the binomial SE, the normal "
        f"interval and the seed bootstrap have no spread to measure; {pooled}; {need}"
    )


def view_size_problem(view: str, tasks: tuple[str, ...] | list[str], source: str) -> str | None:
    """A warning when a declared view's name promises a size its task list does not have
    (`informative_20` with 3 tasks): the table would be titled with the wrong number."""
    import re

    match = re.search(r"_(\d+)$", view)
    if match is None or int(match.group(1)) == len(tasks):
        return None
    return (
        f"warning: view {view!r} names {int(match.group(1))} tasks, but {source} declares "
        f"{len(tasks)} for it; check the declaration before quoting this view"
    )


#: Where a conditioned read names its quality bin (docs/statistics.md, "quality tags").
QUALITY_TAG_PLACES: tuple[tuple[str, ...], ...] = (
    (),  # the manifest's top level
    ("policy",),
    ("protocol",),
    ("method", "configuration"),
)
QUALITY_TAG_KEYS = ("quality_tag", "quality_bin")


def untagged_quality_tags(run: Run) -> tuple[str, ...]:
    """The manifest fields that condition the read on quality tag 0 (`0`, `0.0` or `"0"`),
    at the top level or under policy, protocol or method.configuration."""
    found = []
    for place in QUALITY_TAG_PLACES:
        node: Any = run.manifest
        for key in place:
            node = node.get(key) if isinstance(node, dict) else None
        if not isinstance(node, dict):
            continue
        for key in QUALITY_TAG_KEYS:
            value = node.get(key)
            if (type(value) in (int, float) and value == 0) or (
                isinstance(value, str) and value.strip() == "0"
            ):
                found.append(f"manifest.{'.'.join((*place, key))} = {value!r}")
    return tuple(found)


def _finding_line(f: Finding) -> str:
    """`CODE place: message`, the place once: most audit messages already begin with it."""
    if f.file and f.message.startswith(f.file):
        return f"{f.code} {f.message}"
    return f"{f.code} {f.location}: {f.message}"
