"""Measure the export's changed steps in one process, at another revision and at this tree.

Issue 15 sped up three in-process steps of `evalview export` on the 10,000-episode run: the
scrub-and-leak walk, the seed bootstrap (50 tasks x 200 cases, B = 10,000) and the page. Whole
processes (bench_commands.py) vary too much between minutes to show a 0.1 s step, so this runs
each step's old code (the modules of git revision REV, loaded from an extracted copy) and new
code alternately in one process, checks that both give the same output, and prints the medians
of CPU time (`time.process_time`).

    python bench/bench_export_steps.py --before 9dbfc6c --repeat 7
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from bench_check import DEFAULT_RUN
from bench_commands import checkout_src
from evalview.report import render
from evalview.report.builder import build_document, build_result
from evalview.report.leaks import find_leaks, scrub_and_find_leaks
from evalview.report.sanitize import Scrubber
from evalview.session import EXPORT_SCORING, open_run, score_session
from evalview.stats import bootstrap
from userenv import as_a_user


def load(name: str, path: Path) -> ModuleType:
    """A module of the old tree by file, beside (not instead of) the installed one."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    as_a_user()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", nargs="?", type=Path, default=DEFAULT_RUN)
    parser.add_argument("--before", metavar="REV", required=True)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    gc.disable()  # as the export runs
    session = open_run(args.run)
    card = score_session(session, replace(EXPORT_SCORING, bootstrap=0))
    document = build_document(session.run, card, session.findings, metrics=("score",))
    result = build_result(session.run, card, session.findings, metrics=("score",))
    outcomes = list(card.task_outcomes)
    with tempfile.TemporaryDirectory() as tmp:
        old_src = checkout_src(args.before, Path(tmp)) / "evalview"
        old_bootstrap = load("old_bootstrap", old_src / "stats" / "bootstrap.py")
        page = (old_src / "report" / "templates" / "index.html.j2").read_text(encoding="utf-8")
    old_template = render.ENV.from_string(page)

    def two_walks() -> Any:
        scrubber = Scrubber()
        clean = scrubber.scrub_tree(document)
        return clean, find_leaks(clean), scrubber.redactions

    def one_walk() -> Any:
        scrubber = Scrubber()
        clean, leaks = scrub_and_find_leaks(document, scrubber)
        return clean, leaks, scrubber.redactions

    grid = f"{len(outcomes)} x {len(outcomes[0])}"
    steps: list[tuple[str, Callable[[], Any], Callable[[], Any]]] = [
        ("scrub + leaks (two walks -> one)", two_walks, one_walk),
        (
            f"bootstrap {grid}, B = 10,000",
            lambda: old_bootstrap.bootstrap_distribution(outcomes),
            lambda: bootstrap.bootstrap_distribution(outcomes),
        ),
        (
            "render_html (template rows -> episode_rows)",
            lambda: old_template.render(r=result, plot=render.plot(result), csp=render.CSP),
            lambda: render.render_html(result),
        ),
    ]
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.repeat):
        for name, old, new in steps:
            outs = []
            for which, fn in (("before", old), ("after", new)):
                start = time.process_time()
                outs.append(fn())
                times.setdefault((name, which), []).append(time.process_time() - start)
            same = (
                np.array_equal(outs[0], outs[1])
                if isinstance(outs[0], np.ndarray)
                else outs[0] == outs[1]
            )
            if not same:
                raise SystemExit(f"{name}: the old and new code disagree")
    for name, _old, _new in steps:
        before = statistics.median(times[name, "before"])
        after = statistics.median(times[name, "after"])
        print(f"{name:45s} {before:.3f} -> {after:.3f} s CPU (median of {args.repeat}; "
              f"saved {before - after:.3f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
