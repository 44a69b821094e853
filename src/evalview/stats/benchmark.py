"""The optional benchmark declaration (`--benchmark FILE`): what a full read of the benchmark is.

A run only knows the cases its driver selected; the declaration says which cases the benchmark
declares, so a partial read scores as the full read with the missing cases failed (and listed),
development reads are told apart from test reads, subsets are appendix views, and a run of another
benchmark version is refused. The JSON is documented in docs/formats.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np

from evalview.load.errors import InputError
from evalview.load.input_path import read_input_file
from evalview.load.safe_json import parse_strict
from evalview.model.run import UNATTEMPTED, EpisodeTable, Run, build_table, take_rows

SCHEMA_VERSION = "evalview.benchmark/v1"
#: A declaration is a small file; anything larger is not one.
MAX_DECLARATION_BYTES = 8 * 2**20
_SHA256 = re.compile(r"^[0-9a-f]{64}$")

SeedSet = Literal["test", "development"]


@dataclass(frozen=True, slots=True)
class DeclaredTask:
    name: str
    test_seeds: tuple[int, ...]


@dataclass(frozen=True)
class BenchmarkDeclaration:
    """A benchmark version: its tasks with their test seeds, the development seeds, the subsets."""

    name: str
    version: str
    version_sha256: str
    tasks: tuple[DeclaredTask, ...]
    dev_seeds: tuple[int, ...] = ()
    subsets: dict[str, tuple[str, ...]] = field(default_factory=dict)
    source: str = "<declaration>"

    @property
    def task_names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.tasks)


def load_benchmark(path: str | Path) -> BenchmarkDeclaration:
    """Read and validate a declaration file. Raises InputError (exit 2) saying what to fix."""
    p = Path(path)
    raw = read_input_file(p, "benchmark declaration", MAX_DECLARATION_BYTES)
    value, problem = parse_strict(raw)
    if problem is not None:
        at = f":{problem.line}" if problem.line else ""
        raise InputError(f"{p}{at}: {problem.detail}; fix the benchmark declaration.")
    return parse_benchmark(value, source=str(p))


def parse_benchmark(data: Any, *, source: str = "<declaration>") -> BenchmarkDeclaration:
    """Validate the parsed JSON of a declaration (see docs/formats.md)."""

    def bad(msg: str) -> InputError:
        return InputError(f"{source}: {msg} (see docs/formats.md, benchmark declaration).")

    if not isinstance(data, dict):
        raise bad("a benchmark declaration is a JSON object")
    if data.get("schema_version") != SCHEMA_VERSION:
        raise bad(f'"schema_version" must be "{SCHEMA_VERSION}"')
    for key in ("name", "version"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise bad(f'"{key}" must be a nonempty string')
    digest = data.get("version_sha256")
    if not isinstance(digest, str) or not _SHA256.match(digest):
        raise bad('"version_sha256" must be 64 lowercase hex digits')
    raw_tasks = data.get("tasks")
    if not isinstance(raw_tasks, list) or not raw_tasks:
        raise bad('"tasks" must be a nonempty list of {"name", "test_seeds"}')
    tasks: list[DeclaredTask] = []
    seen: set[str] = set()
    for i, item in enumerate(raw_tasks):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"]:
            raise bad(f"tasks[{i}] needs a nonempty string \"name\"")
        name = item["name"]
        if name in seen:
            raise bad(f"task {name!r} is declared twice")
        seen.add(name)
        seeds = _seeds(item.get("test_seeds"), f"tasks[{i}].test_seeds", bad)
        if not seeds:
            raise bad(f"task {name!r} declares no test seeds")
        tasks.append(DeclaredTask(name, seeds))
    dev = _seeds(data.get("dev_seeds", []), "dev_seeds", bad)
    for t in tasks:
        overlap = sorted(set(dev) & set(t.test_seeds))
        if overlap:
            raise bad(f"dev_seeds overlap the test seeds of {t.name!r} ({overlap[:5]})")
    raw_subsets = data.get("subsets", {})
    if not isinstance(raw_subsets, dict):
        raise bad('"subsets" must be an object of name -> list of task names')
    subsets: dict[str, tuple[str, ...]] = {}
    for name, members in raw_subsets.items():
        if not isinstance(members, list) or not members or not all(
            isinstance(m, str) for m in members
        ):
            raise bad(f"subset {name!r} must be a nonempty list of task names")
        unknown = [m for m in members if m not in seen]
        if unknown:
            raise bad(f"subset {name!r} names undeclared tasks {unknown[:5]}")
        if len(set(members)) != len(members):
            raise bad(f"subset {name!r} names a task twice")
        subsets[name] = tuple(members)
    return BenchmarkDeclaration(
        name=data["name"],
        version=data["version"],
        version_sha256=digest,
        tasks=tuple(tasks),
        dev_seeds=dev,
        subsets=subsets,
        source=source,
    )


def _seeds(value: Any, where: str, bad: Any) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(s, int) and not isinstance(s, bool) for s in value
    ):
        raise bad(f'"{where}" must be a list of integers')
    if len(set(value)) != len(value):
        raise bad(f'"{where}" repeats a seed')
    return tuple(value)


def version_problem(run: Run, decl: BenchmarkDeclaration) -> str | None:
    """Why the run is not a read of this benchmark version, or None when it is."""
    ident = run.identity
    if ident.benchmark_name is not None and ident.benchmark_name != decl.name:
        return (
            f"the run names benchmark {ident.benchmark_name!r}, the declaration {decl.source} "
            f"declares {decl.name!r}"
        )
    if ident.benchmark_version is None:
        return (
            f"the run names no benchmark version (manifest.json benchmark.version), so it cannot "
            f"be scored as version {decl.version!r}"
        )
    if ident.benchmark_version != decl.version:
        return (
            f"the run names benchmark version {ident.benchmark_version!r}, the declaration "
            f"{decl.source} is version {decl.version!r}; score it with its own version's "
            "declaration"
        )
    bench = (run.manifest or {}).get("benchmark")
    digest = bench.get("version_sha256") if isinstance(bench, dict) else None
    if isinstance(digest, str) and digest != decl.version_sha256:
        return (
            f"the run's benchmark.version_sha256 {digest[:12]}… differs from the declaration's "
            f"{decl.version_sha256[:12]}…: another release of version {decl.version!r}"
        )
    return None


def version_unverified(run: Run, decl: BenchmarkDeclaration) -> str | None:
    """Why the run cannot be shown to be the declaration's release (it records no
    benchmark.version_sha256, and a version is identified by its sha256), or None."""
    bench = (run.manifest or {}).get("benchmark")
    digest = bench.get("version_sha256") if isinstance(bench, dict) else None
    if isinstance(digest, str):
        return None
    return (
        f"benchmark version unverified: the run records no benchmark.version_sha256, so it "
        f"cannot be shown to be release {decl.version_sha256[:12]}… of version "
        f"{decl.version!r} ({decl.source}); record the sha256 in manifest.json"
    )


@dataclass(frozen=True)
class DeclaredCases:
    """The cases to score under a declaration, or why the run does not fit it."""

    cases: EpisodeTable
    tasks: tuple[str, ...]
    seed_set: SeedSet
    missing: tuple[str, ...]
    problem: str | None = None


def declared_cases(run: Run, decl: BenchmarkDeclaration) -> DeclaredCases:
    """Every declared (task, seed) of the run's seed set, in declared order; missing: unattempted.

    The seed set is the development set when every selected case of the run uses a development
    seed, else the test set; a run mixing both, or selecting cases the benchmark does not declare,
    is reported as a problem (the caller refuses it).
    """
    sched = run.scheduled()
    tests = {t.name: set(t.test_seeds) for t in decl.tasks}
    dev = set(decl.dev_seeds)
    pairs = [(str(t), int(s)) for t, s in zip(sched.task, sched.seed, strict=True)]
    is_dev = [s in dev and t in tests for t, s in pairs]
    is_test = [t in tests and s in tests[t] for t, s in pairs]
    undeclared = [
        str(sched.ids[i]) for i in range(len(pairs)) if not (is_dev[i] or is_test[i])
    ]
    seed_set: SeedSet = "development" if pairs and all(is_dev) else "test"
    problem = None
    if undeclared:
        problem = (
            f"{len(undeclared)} selected case(s) are not declared by {decl.name} {decl.version} "
            f"(first: {', '.join(undeclared[:5])}); score the run without --benchmark or with "
            "the declaration of the benchmark it ran"
        )
    elif any(is_dev) and not all(is_dev):
        problem = (
            "the run mixes development and test seeds; score development reads and test reads "
            "separately"
        )
    first: dict[tuple[str, int], int] = {}
    for i, key in enumerate(pairs):
        first.setdefault(key, i)
    index: list[int] = []
    missing_rows: list[dict[str, Any]] = []
    for task in decl.tasks:
        seeds = decl.dev_seeds if seed_set == "development" else task.test_seeds
        for seed in seeds:
            found = first.get((task.name, seed))
            if found is None:
                index.append(len(pairs) + len(missing_rows))
                missing_rows.append(
                    {
                        "id": f"{task.name}/seed{seed}",
                        "task": task.name,
                        "seed": seed,
                        "status": UNATTEMPTED,
                        "in_schedule": True,
                    }
                )
            else:
                index.append(found)
    extra = build_table(missing_rows)
    both = EpisodeTable(
        **{
            name: np.concatenate([getattr(sched, name), getattr(extra, name)])
            for name in EpisodeTable.__dataclass_fields__
        }
    )
    cases = take_rows(both, np.asarray(index, dtype=np.intp))
    return DeclaredCases(
        cases=cases,
        tasks=decl.task_names,
        seed_set=seed_set,
        missing=tuple(str(r["id"]) for r in missing_rows),
        problem=problem,
    )
