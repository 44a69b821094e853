"""`evalview check` on a 40-task × 500-episode LeRobot eval_info.json (20,000 episodes), < 1 s.

Writes bench/out/lerobot-40x500.json (4 LIBERO-style suites × 10 tasks × 500 episodes, newer keys,
json.dump indent=2 as lerobot-eval writes it), then times `evalview check FILE --json` as a whole
process (the budget) and, in-process, each phase: parse, locate, read + audit, score.

    python bench/bench_lerobot.py [--repeat 7] [--write-docs]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from evalview.samples.lerobot import SUITES, multi_task_info
from userenv import as_a_user

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out" / "lerobot-40x500.json"
BUDGET_S = 1.0
EPISODES = 500
DOC = ROOT / "docs" / "performance.md"
SECTION = "## lerobot check"


def generate(path: Path = OUT) -> Path:
    rng = random.Random(40500)
    rates = {(s, t): rng.uniform(0.2, 0.98) for s in SUITES for t in range(10)}
    difficulty = {k: [rng.random() for _ in range(EPISODES)] for k in rates}
    doc = multi_task_info(rates, difficulty, run_dir="/home/me/outputs/eval/big",
                          newer_keys=True, rng=rng)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return path


def _evalview() -> str:
    exe = Path(sys.executable).parent / "evalview"
    return str(exe) if exe.exists() else "evalview"


def whole_process(path: Path, repeat: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU (user + sys of the child) seconds of each run of the command."""
    cmd = [_evalview(), "check", str(path), "--json"]
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=False)  # warm caches
    wall, cpu = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, check=False)
        wall.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode != 0:
            raise SystemExit(f"check exited {done.returncode}")
    return wall, cpu


def _imports_clean(path: Path) -> bool:
    """The check imports neither numpy nor Textual (-X importtime, as bench_check does)."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "evalview", "check", str(path), "--json"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False,
    )
    names = {line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines()}
    return not names & {"numpy", "textual"}


def phases(path: Path, repeat: int) -> dict[str, float]:
    from evalview.audit import audit
    from evalview.load.lerobot.locate import Locator
    from evalview.load.lerobot.reader import load_lerobot_reads, parse_lerobot_json
    from evalview.stats import score_run

    raw = path.read_bytes()
    out: dict[str, list[float]] = {"parse": [], "locate": [], "read+audit": [], "score (B=0)": []}
    for _ in range(repeat):
        t = time.perf_counter()
        parse_lerobot_json(path, raw)
        out["parse"].append(time.perf_counter() - t)
        t = time.perf_counter()
        Locator(raw)
        out["locate"].append(time.perf_counter() - t)
        t = time.perf_counter()
        reads = load_lerobot_reads(path, raw)
        assert reads is not None
        run = reads[0][1]
        findings = audit(run)
        out["read+audit"].append(time.perf_counter() - t)
        t = time.perf_counter()
        score_run(run, bootstrap=0, findings=findings)
        out["score (B=0)"].append(time.perf_counter() - t)
    return {k: statistics.median(v) for k, v in out.items()}


def main() -> int:
    as_a_user()
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--write-docs", action="store_true")
    args = ap.parse_args()
    path = generate()
    size = path.stat().st_size
    load = os.getloadavg()
    wall, cpu = whole_process(path, args.repeat)
    ph = phases(path, args.repeat)
    med = statistics.median(wall)
    cpu_med = statistics.median(cpu)
    rows = [
        ("file", f"40 tasks × 500 episodes = 20,000 episodes, {size / 2**20:.1f} MiB"),
        ("`evalview check FILE --json`, whole process, wall clock (median)",
         f"{med:.3f} s (min {min(wall):.3f}, max {max(wall):.3f})"),
        ("the same, CPU time user + sys (median; steadier on a shared machine)",
         f"{cpu_med:.3f} s (min {min(cpu):.3f}, max {max(cpu):.3f})"),
        ("budget < 1 s (wall clock, median)", "pass" if med < BUDGET_S else
         f"FAIL at load average {load[0]:.1f} on {os.cpu_count()} cores"),
        ("budget < 1 s (CPU time, median)", "pass" if cpu_med < BUDGET_S else "FAIL"),
        ("numpy or textual imported by check", "no" if _imports_clean(path) else "YES"),
        *((f"in-process {k} (median)", f"{v:.3f} s") for k, v in ph.items()),
    ]
    text = "\n".join(f"| {a} | {b} |" for a, b in rows)
    print(text)
    if args.write_docs:
        body = (
            f"{SECTION}\n\nBudget (issue 12): a 40-task × 500-episode LeRobot eval_info.json "
            "(20,000 episodes) is checked in under 1 s. Measured with "
            f"`python bench/bench_lerobot.py` ({args.repeat} repeats after a warm-up; "
            f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, load average "
            f"{load[0]:.2f} at start, Python {sys.version.split()[0]}):\n\n"
            "| measure | result |\n| --- | --- |\n" + text + "\n"
        )
        doc = DOC.read_text(encoding="utf-8")
        if SECTION in doc:
            head, _sep, rest = doc.partition(SECTION)
            nxt = rest.find("\n## ")
            doc = head + body + (rest[nxt + 1 :] if nxt >= 0 else "")
        else:
            doc = doc.rstrip("\n") + "\n\n" + body
        DOC.write_text(doc, encoding="utf-8")
    return 0 if cpu_med < BUDGET_S else 1


if __name__ == "__main__":
    raise SystemExit(main())
