"""One lerobot-eval document (an `eval_info.json`, or one named read of it) → tasks + findings.

What lerobot-eval writes (docs/formats.md cites the source): a single environment is
`{"per_episode": [...], "aggregated": {...}}`; several tasks are `{"per_task": [...],
"per_group": {...}, "overall": {...}}`. Newer versions add `n_episodes`, `n_success`,
`pc_success` and `pc_success_ci95` (percent) at the levels listed in `_AGGREGATE_KEYS`. Every
recorded aggregate is recomputed from the per-episode lists and compared (EV707), with a tolerance
for float noise (`28.000000000000004` is 14/50).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal

from evalview.findings import Finding
from evalview.load.bounds import MAX_NAME, finite_number, int64
from evalview.load.lerobot import rules as R
from evalview.load.lerobot.locate import Locator, Path, show_path
from evalview.rules import Rule

Layout = Literal["single-env", "multi-task"]

#: The task name of a single-environment file (one task; GROUP/ID like every LeRobot task).
SINGLE_ENV_TASK = "env/0"

_EPISODE_KEYS = frozenset(
    {"episode_ix", "sum_reward", "max_reward", "success", "seed",
     "safety_cost", "had_violation", "violation_steps", "constraint_violations"}
)
_TIMING = frozenset({"eval_s", "eval_ep_s"})
_SAFETY = frozenset({"avg_safety_cost", "pc_had_violation", "avg_violation_steps"})
_COUNTS = frozenset({"n_episodes", "n_success", "pc_success", "pc_success_ci95"})
_REWARDS = frozenset({"avg_sum_reward", "avg_max_reward"})
_VIDEOS = frozenset({"video_paths", "predicted_video_paths"})
_AGGREGATED_KEYS = _REWARDS | _COUNTS | _TIMING | _SAFETY
_GROUP_KEYS = _REWARDS | _COUNTS | _VIDEOS | _SAFETY | {"constraint_violations"}
_OVERALL_KEYS = _GROUP_KEYS | _TIMING
_TASK_KEYS = frozenset({"task_group", "task_id", "metrics"}) | _COUNTS
_METRICS_KEYS = frozenset(
    {"sum_rewards", "max_rewards", "successes", "safety_costs", "violation_steps",
     "constraint_violations"}
) | _VIDEOS
_SINGLE_KEYS = frozenset({"per_episode", "aggregated"}) | _VIDEOS
_MULTI_KEYS = frozenset({"per_task", "per_group", "overall"})

#: Float noise tolerated between a recorded and a recomputed aggregate (percent points / reward).
ABS_TOL = 1e-6
REL_TOL = 1e-9


def layout_of(value: Any) -> Layout | None:
    """Which lerobot-eval document `value` is, by its keys; None when it is not one."""
    if not isinstance(value, dict):
        return None
    if "per_task" in value and "overall" in value:
        return "multi-task"
    if "per_episode" in value and "aggregated" in value:
        return "single-env"
    return None


@dataclass(frozen=True, slots=True)
class TaskStats:
    """One task's totals: episodes, successes, whether every success is a boolean, reward sums."""

    n: int
    k: int
    valid: bool
    reward_sums: tuple[float, float]
    reward_counts: tuple[int, int]


@dataclass
class TaskRecord:
    """One task's episodes as recorded. success is 1, 0 or -1 (not a boolean: EV703)."""

    group: str
    task_id: str
    path: Path
    successes: list[int] = field(default_factory=list)
    sum_rewards: list[float] = field(default_factory=list)
    max_rewards: list[float] = field(default_factory=list)
    seeds: list[int | None] = field(default_factory=list)
    episode_ix: list[int] = field(default_factory=list)
    _stats: TaskStats | None = field(default=None, repr=False)
    #: finds `lines` when first asked (the episode table): `check` never needs them, and
    #: finding them is a pass over the whole file (`Locator`)
    _locate: Callable[[], list[int]] | None = field(default=None, repr=False, compare=False)
    _lines: list[int] | None = field(default=None, repr=False, compare=False)

    @property
    def name(self) -> str:
        return f"{self.group}/{self.task_id}"

    @property
    def lines(self) -> list[int]:
        """The line of each episode (of its success) in the file, 0 where none is known."""
        if self._lines is None:
            self._lines = self._locate() if self._locate is not None else []
            self._locate = None  # and with it the locator, and the file's bytes
        return self._lines

    def stats(self) -> TaskStats:
        """Counts and reward sums, computed once: every level's aggregate is built from them."""
        if self._stats is None:
            sums = [x for x in self.sum_rewards if not math.isnan(x)]
            maxes = [x for x in self.max_rewards if not math.isnan(x)]
            self._stats = TaskStats(
                n=len(self.successes),
                k=self.successes.count(1),
                valid=-1 not in self.successes,
                reward_sums=(safe_fsum(sums), safe_fsum(maxes)),
                reward_counts=(len(sums), len(maxes)),
            )
        return self._stats

    @property
    def n(self) -> int:
        return len(self.successes)


@dataclass
class LeRobotRead:
    """One read: its tasks, its groups, what lerobot-eval itself reported, and the findings."""

    layout: Layout
    tasks: list[TaskRecord]
    groups: dict[str, list[str]]
    #: lerobot-eval's own pooled pc_success (overall / aggregated), percent; None when not a number
    recorded_pc_success: float | None
    newer_keys: bool
    video_paths: int
    findings: list[Finding]
    #: lerobot-eval's own pooled pc_success of each group (per_group), percent, where it is a
    #: finite number: what a group view is compared with
    recorded_group_pc_success: dict[str, float] = field(default_factory=dict)


#: The reporting rules' z (evalview.stats.intervals.Z95).
_Z95 = 1.959964


def wilson_interval(k: int, n: int) -> tuple[float, float]:
    """Wilson 95 %, as `evalview.stats.intervals.wilson_interval` computes it (a test checks they
    agree). Here so that reading a LeRobot file imports neither numpy nor the stats package."""
    p, z2 = k / n, _Z95 * _Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = _Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo, hi = max(0.0, centre - half), min(1.0, centre + half)
    return (0.0 if k == 0 else lo), (1.0 if k == n else hi)


def _is_number(x: Any) -> bool:
    """A JSON number evalview can compare: a float (NaN included: EV708 says so) or an int that
    fits 64 bits (a wider one overflows any float arithmetic: not a number here)."""
    return type(x) is float or int64(x)


def safe_fsum(values: list[float] | tuple[float, ...]) -> float:
    """`math.fsum`, or NaN when finite values add up past the largest float (fsum raises then):
    an average of such rewards cannot be recomputed, which the caller says."""
    try:
        return math.fsum(values)
    except (OverflowError, ValueError):
        return math.nan


def _close(recorded: float, expected: float) -> bool:
    return abs(recorded - expected) <= ABS_TOL + REL_TOL * abs(expected)


#: Longest recorded value a message quotes whole (a 10 MB task name is cut, not repeated).
_SHOWN = 60


def _fmt(x: Any) -> str:
    if isinstance(x, float):
        return repr(x) if not math.isnan(x) else "NaN"
    if isinstance(x, int) and not isinstance(x, bool) and not int64(x):
        return f"an integer of {len(str(abs(x)))} digits"
    text = repr(x) if isinstance(x, str) else str(x)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


class _Reader:
    """State of one document's reading: the locator, the prefix path, the findings."""

    def __init__(self, loc: Locator, prefix: Path, file: str) -> None:
        self.loc, self.prefix, self.file = loc, prefix, file
        self.findings: list[Finding] = []

    def at(self, rule: Rule, path: Path, message: str, episode_id: str | None = None) -> None:
        full = (*self.prefix, *path)
        where = show_path(full)
        self.findings.append(
            rule(
                f"{where}: {message}" if where else message,
                file=self.file,
                line=self.loc.line(full),
                episode_id=episode_id,
            )
        )

    def unknown_keys(self, obj: dict[str, Any], known: frozenset[str], path: Path) -> None:
        extra = [k for k in obj if k not in known]
        for k in extra:
            self.at(R.UNKNOWN_KEY, (*path, k), "a key lerobot-eval does not write; kept, not read.")

    # -- one task's lists -------------------------------------------------------------------------

    def success_of(self, value: Any, path: Path, eid: str) -> int:
        if isinstance(value, bool):
            return int(value)
        self.at(R.SUCCESS_INVALID, path, f"success is {_fmt(value)}, not true or false.", eid)
        return -1

    def reward_of(self, value: Any, path: Path, eid: str, what: str) -> float:
        number = finite_number(value)
        if number is not None:
            return number
        self.at(R.REWARD_INVALID, path, f"{what} is {_fmt(value)}, not a finite number.", eid)
        return math.nan

    def successes_of(self, values: list[Any], path: Path, task: str) -> list[int]:
        """A whole successes list: the fast path when every element is a boolean."""
        if set(map(type, values)) <= {bool}:
            return list(map(int, values))
        return [
            self.success_of(v, (*path, j), f"{task}/ep{j}") for j, v in enumerate(values)
        ]

    def rewards_of(self, values: list[Any], n: int, path: Path, task: str) -> list[float]:
        """A whole rewards list, padded with NaN to the episode count (EV702 said why)."""
        kinds = set(map(type, values))
        if (kinds <= {float, int} and math.isfinite(safe_fsum(values))
                and (int not in kinds or all(map(int64, values)))):
            out = list(map(float, values))
            return out[:n] + [math.nan] * (n - len(out))
        what = str(path[-1])[:-1]
        out = [
            self.reward_of(v, (*path, j), f"{task}/ep{j}", what)
            for j, v in enumerate(values[:n])
        ]
        return out + [math.nan] * (n - len(out))

    # -- aggregates -------------------------------------------------------------------------------

    def aggregates(self, obj: dict[str, Any], path: Path, tasks: list[TaskRecord]) -> None:
        """Recompute every aggregate key present in `obj` from `tasks` and compare."""
        stats = [t.stats() for t in tasks]
        n = sum(st.n for st in stats)
        k = sum(st.k for st in stats)
        expected: dict[str, Any] = {"n_episodes": n}
        if all(st.valid for st in stats):
            expected["n_success"] = k
            expected["pc_success"] = 100.0 * k / n if n else math.nan
            lo, hi = wilson_interval(k, n) if n else (math.nan, math.nan)
            expected["pc_success_ci95"] = [100.0 * lo, 100.0 * hi]
        for key, i in (("avg_sum_reward", 0), ("avg_max_reward", 1)):
            total = safe_fsum([st.reward_sums[i] for st in stats])
            count = sum(st.reward_counts[i] for st in stats)
            expected[key] = total / count if count else math.nan
            if count and math.isnan(total) and key in obj:
                self.at(
                    R.REWARD_INVALID, (*path, key),
                    "the per-episode rewards add up past the largest float, so their average "
                    "cannot be recomputed; not compared.",
                )
                expected.pop(key)
        for key, want in expected.items():
            if key in obj:
                self.compare(obj[key], want, (*path, key), n)

    def compare(self, got: Any, want: Any, path: Path, n: int) -> None:
        key = str(path[-1])
        if key in ("n_episodes", "n_success"):
            if not isinstance(got, int) or isinstance(got, bool):
                self.at(R.STRUCTURE, path, f"{key} is {_fmt(got)}, not a whole number.")
            elif got != want:
                self.at(
                    R.AGGREGATE_MISMATCH, path,
                    f"recorded {key} {got}, but the per-episode lists give {want}.",
                )
            return
        if key == "pc_success_ci95":
            if not (isinstance(got, list) and len(got) == 2 and all(map(_is_number, got))):
                self.at(R.STRUCTURE, path, f"{key} is {_fmt(got)}, not [low, high] in percent.")
                return
            for i, (g, w) in enumerate(zip(got, want, strict=True)):
                if self._number_differs(g, w, (*path, i), n):
                    self.at(
                        R.AGGREGATE_MISMATCH, path,
                        f"recorded 95 % Wilson interval [{_fmt(got[0])}, {_fmt(got[1])}] %, "
                        f"but the successes give [{want[0]:.4f}, {want[1]:.4f}] %.",
                    )
                    return
            return
        if not _is_number(got):
            self.at(R.STRUCTURE, path, f"{key} is {_fmt(got)}, not a number.")
            return
        if self._number_differs(got, want, path, n):
            shown = "undefined (no episode)" if math.isnan(want) else f"{want!r}"
            self.at(
                R.AGGREGATE_MISMATCH, path,
                f"recorded {key} {_fmt(got)}, but the per-episode lists give {shown}.",
            )

    def _number_differs(self, got: float, want: float, path: Path, n: int) -> bool:
        """True when they disagree; NaN where evalview finds no value either is EV708, not EV707."""
        if math.isnan(want):
            if math.isnan(got):
                self.at(
                    R.UNDEFINED_AGGREGATE, path,
                    f"NaN over {n} episodes: lerobot-eval's mean of nothing; evalview recomputes "
                    "it as undefined too.",
                )
                return False
            return True
        return not (math.isfinite(got) and _close(got, want))


def read_document(
    doc: dict[str, Any], loc: Locator, *, prefix: Path = (), file: str
) -> LeRobotRead:
    """Read one lerobot-eval document (`layout_of(doc)` is not None)."""
    r = _Reader(loc, prefix, file)
    layout = layout_of(doc)
    read = _single_env(doc, r) if layout == "single-env" else _multi_task(doc, r)
    for t in read.tasks:
        if t.n == 0:
            r.at(R.EMPTY_TASK, t.path, f"task {t.name} recorded no episode; it has no rate.")
    if read.video_paths:
        r.at(
            R.VIDEO_PATHS, (),
            f"{read.video_paths} video path(s) recorded: local paths, never published by "
            "`evalview export`.",
        )
    r.at(
        R.NO_ERRORS_RECORDED, (),
        "lerobot-eval records no errored or unattempted episode; selected = attempted = "
        "completed = the episodes recorded.",
    )
    read.findings = r.findings
    return read


def _single_env(doc: dict[str, Any], r: _Reader) -> LeRobotRead:
    r.unknown_keys(doc, _SINGLE_KEYS, ())
    group, _sep, tid = SINGLE_ENV_TASK.partition("/")
    task = TaskRecord(group, tid, ("per_episode",))
    episodes = doc.get("per_episode")
    if not isinstance(episodes, list):
        r.at(R.STRUCTURE, ("per_episode",), "per_episode is not a list of episodes.")
        episodes = []
    seen_ix: dict[int, int] = {}
    seen_seed: dict[int, int] = {}
    success_paths: list[Path] = []
    for i, ep in enumerate(episodes):
        path: Path = ("per_episode", i)
        if not isinstance(ep, dict):
            r.at(R.STRUCTURE, path, "an episode record is not an object.")
            continue
        r.unknown_keys(ep, _EPISODE_KEYS, path)
        ix = ep.get("episode_ix")
        if not isinstance(ix, int) or isinstance(ix, bool):
            r.at(R.STRUCTURE, (*path, "episode_ix"), f"episode_ix is {_fmt(ix)}, not an integer.")
            ix = i
        eid = f"{SINGLE_ENV_TASK}/ep{ix}"
        if ix in seen_ix:
            r.at(
                R.DUPLICATE_EPISODE, (*path, "episode_ix"),
                f"episode_ix {ix} again (first at per_episode[{seen_ix[ix]}]).", eid,
            )
        seen_ix.setdefault(ix, i)
        seed = ep.get("seed")
        if seed is not None and not int64(seed):
            r.at(
                R.STRUCTURE, (*path, "seed"),
                f"seed is {_fmt(seed)}, not an integer (of at most 64 bits) or null.",
            )
            seed = None
        if seed is not None:
            if seed in seen_seed:
                r.at(
                    R.DUPLICATE_SEED, (*path, "seed"),
                    f"seed {seed} again (first at per_episode[{seen_seed[seed]}]).", eid,
                )
            seen_seed.setdefault(seed, i)
        for key in ("success", "sum_reward", "max_reward"):
            if key not in ep:
                r.at(R.STRUCTURE, path, f"the episode has no {key}.", eid)
        task.successes.append(r.success_of(ep.get("success"), (*path, "success"), eid))
        task.sum_rewards.append(
            r.reward_of(ep.get("sum_reward"), (*path, "sum_reward"), eid, "sum_reward")
        )
        task.max_rewards.append(
            r.reward_of(ep.get("max_reward"), (*path, "max_reward"), eid, "max_reward")
        )
        task.seeds.append(seed)
        task.episode_ix.append(ix)
        success_paths.append((*r.prefix, *path, "success"))
    task._locate = partial(_lines_of, r.loc, success_paths)
    agg = doc.get("aggregated")
    recorded = None
    newer = False
    if isinstance(agg, dict):
        r.unknown_keys(agg, _AGGREGATED_KEYS, ("aggregated",))
        r.aggregates(agg, ("aggregated",), [task])
        recorded = finite_number(agg.get("pc_success"))
        newer = "n_success" in agg
    else:
        r.at(R.STRUCTURE, ("aggregated",), "aggregated is not an object.")
    videos = sum(len(v) for k in _VIDEOS if isinstance(v := doc.get(k), list))
    return LeRobotRead(
        "single-env", [task], {"env": [task.name]}, recorded, newer, videos, []
    )


def _multi_task(doc: dict[str, Any], r: _Reader) -> LeRobotRead:
    r.unknown_keys(doc, _MULTI_KEYS, ())
    tasks, videos, newer = _per_task(doc.get("per_task"), r)
    groups: dict[str, list[str]] = {}
    for t in tasks:
        groups.setdefault(t.group, []).append(t.name)
    by_group = _per_group(doc.get("per_group"), r, tasks, groups)
    recorded, overall_newer = _overall(doc.get("overall"), r, tasks)
    return LeRobotRead(
        "multi-task", tasks, groups, recorded, newer or overall_newer, videos, [], by_group
    )


def _per_task(entries: Any, r: _Reader) -> tuple[list[TaskRecord], int, bool]:
    """The tasks of `per_task` (first of each name), the video paths their metrics record, and
    whether any entry has the newer count keys."""
    if not isinstance(entries, list):
        r.at(R.STRUCTURE, ("per_task",), "per_task is not a list of tasks.")
        entries = []
    tasks: list[TaskRecord] = []
    seen: dict[str, int] = {}
    videos = 0
    newer = False
    for i, entry in enumerate(entries):
        path: Path = ("per_task", i)
        task = _task_of(entry, path, r, seen)
        if task is None:
            continue
        seen[task.name] = i
        metrics = entry.get("metrics")
        if isinstance(metrics, dict):
            videos += _read_metrics(task, metrics, path, r)
            newer = newer or any(k in entry for k in _COUNTS)
            r.aggregates(entry, path, [task])
        else:
            what = "missing" if metrics is None else "not an object"
            r.at(R.STRUCTURE, (*path, "metrics"), f"metrics is {what}: no episode read.")
        tasks.append(task)
    return tasks, videos, newer


def _task_of(entry: Any, path: Path, r: _Reader, seen: dict[str, int]) -> TaskRecord | None:
    """The (still empty) task of one per_task entry; None, with a finding, when the entry is not
    an object, has no usable task_group or task_id, or repeats a task already read."""
    if not isinstance(entry, dict):
        r.at(R.STRUCTURE, path, "a per_task entry is not an object.")
        return None
    r.unknown_keys(entry, _TASK_KEYS, path)
    group, tid = entry.get("task_group"), entry.get("task_id")
    if not isinstance(group, str) or not group or "/" in group:
        r.at(R.STRUCTURE, (*path, "task_group"), f"task_group is {_fmt(group)}, not a name.")
        return None
    if not (isinstance(tid, str) or int64(tid)) or str(tid) == "":
        r.at(R.STRUCTURE, (*path, "task_id"), f"task_id is {_fmt(tid)}, not an id.")
        return None
    for key, value in (("task_group", group), ("task_id", str(tid))):
        if len(value) > MAX_NAME:
            r.at(R.STRUCTURE, (*path, key), f"{key} is {_fmt(value)}, {len(value):,} characters: "
                 f"longer than the {MAX_NAME:,} of a name evalview reads; the task is not read.")
            return None
    task = TaskRecord(group, str(tid), path)
    if task.name in seen:
        r.at(
            R.DUPLICATE_TASK, path,
            f"task {task.name} again (first at per_task[{seen[task.name]}]); only the first "
            "is read.",
        )
        return None
    return task


def _read_metrics(task: TaskRecord, metrics: dict[str, Any], path: Path, r: _Reader) -> int:
    """Fill `task`'s episodes from its metrics lists; the number of video paths they record."""
    mpath: Path = (*path, "metrics")
    r.unknown_keys(metrics, _METRICS_KEYS, mpath)
    lists = _metric_lists(metrics, mpath, r)
    n = len(lists["successes"])
    task.successes = r.successes_of(lists["successes"], (*mpath, "successes"), task.name)
    task.sum_rewards = r.rewards_of(lists["sum_rewards"], n, (*mpath, "sum_rewards"), task.name)
    task.max_rewards = r.rewards_of(lists["max_rewards"], n, (*mpath, "max_rewards"), task.name)
    task.episode_ix = list(range(n))
    task.seeds = [None] * n
    task._locate = partial(_element_lines, r.loc, (*r.prefix, *mpath, "successes"), n)
    return sum(len(v) for k in _VIDEOS if isinstance(v := metrics.get(k), list))


def _lines_of(loc: Locator, paths: list[Path]) -> list[int]:
    """The line of each value (0 where none is found): one episode record's success each."""
    return [loc.line(p) or 0 for p in paths]


def _element_lines(loc: Locator, path: Path, n: int) -> list[int]:
    """The line of each of the `n` elements of the list at `path` (a task's successes); the
    list's own line for each when its elements cannot be told apart."""
    lines = loc.element_lines(path)
    return lines if len(lines) == n else [loc.line(path) or 0] * n


def _metric_lists(metrics: dict[str, Any], mpath: Path, r: _Reader) -> dict[str, list[Any]]:
    """successes, sum_rewards and max_rewards (empty where not a list); EV702 when their
    lengths differ (the successes' length is the task's episode count)."""
    lists: dict[str, list[Any]] = {}
    for key in ("successes", "sum_rewards", "max_rewards"):
        value = metrics.get(key)
        if not isinstance(value, list):
            r.at(R.STRUCTURE, (*mpath, key), f"{key} is not a list.")
            value = []
        lists[key] = value
    lengths = {k: len(v) for k, v in lists.items()}
    if len(set(lengths.values())) > 1:
        shown = ", ".join(f"{k} {n}" for k, n in lengths.items())
        r.at(R.LENGTHS, mpath, f"the lists differ in length ({shown}).")
    return lists


def _per_group(
    per_group: Any, r: _Reader, tasks: list[TaskRecord], groups: dict[str, list[str]]
) -> dict[str, float]:
    """Check each recorded group summary against its tasks, and the groups against per_task;
    each group's recorded pc_success (a finite number), for the group's view."""
    recorded: dict[str, float] = {}
    if per_group is None:
        r.at(R.STRUCTURE, ("per_group",), "per_group is missing.")
        return recorded
    if not isinstance(per_group, dict):
        r.at(R.STRUCTURE, ("per_group",), "per_group is not an object.")
        return recorded
    by_group: dict[str, list[TaskRecord]] = {}
    for t in tasks:  # one pass, not one per group: 10,000 groups must not cost 10,000 passes
        by_group.setdefault(t.group, []).append(t)
    for g, summary in per_group.items():
        gpath: Path = ("per_group", g)
        if not isinstance(summary, dict):
            r.at(R.STRUCTURE, gpath, "a group summary is not an object.")
            continue
        r.unknown_keys(summary, _GROUP_KEYS, gpath)
        if g not in groups:
            r.at(R.GROUP_MISMATCH, gpath, f"group {_fmt(g)} has no task in per_task.")
        r.aggregates(summary, gpath, by_group.get(g, []))
        pc = finite_number(summary.get("pc_success"))
        if pc is not None:
            recorded[g] = pc
    for g in groups:
        if g not in per_group:
            r.at(
                R.GROUP_MISMATCH, ("per_group",),
                f"group {g!r} of per_task is missing from per_group.",
            )
    return recorded


def _overall(overall: Any, r: _Reader, tasks: list[TaskRecord]) -> tuple[float | None, bool]:
    """Check `overall` against every task; its recorded pc_success, and whether it has the newer
    count keys."""
    if not isinstance(overall, dict):
        r.at(R.STRUCTURE, ("overall",), "overall is not an object.")
        return None, False
    r.unknown_keys(overall, _OVERALL_KEYS, ("overall",))
    r.aggregates(overall, ("overall",), tasks)
    recorded = finite_number(overall.get("pc_success"))
    return recorded, "n_success" in overall
