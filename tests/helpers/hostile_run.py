"""Build a copy of the example run whose every free-text field is hostile to a terminal UI.

Each value carries Textual/Rich markup (`[bold]`, `[/]`, `[link=...]`, `[@click=app.quit]`, an
escaped and a lone bracket), HTML, an ANSI escape, control characters, a right-to-left override,
wide CJK characters and an emoji, plus a plain tag (`TASKA`, `POLICY`, ...) so a test can find
its field on screen. The run stays a consistent closed run: the manifest schedule, every
episodes.jsonl line, its result.json and the summary are rewritten together.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from helpers.paths import EXAMPLE

#: What must show literally wherever a hostile value is shown (markup is not interpreted).
MARKUP = "[bold]{tag}[/] [/] [link=https://evil.example]L[/link] [@click=app.quit]Q[/] \\[ ["
#: What must be neutralised (never reach the terminal as is).
CONTROL = "\x1b[31mRED\x1b[0m \x07\x08\x0b\x7f\x9b \u202eRTL"
#: What must survive as is.
WIDE = "<script>x</script> 漢字🤖"


def hostile(tag: str) -> str:
    """A hostile value carrying `tag`; one line (ids and names)."""
    return f"{MARKUP.format(tag=tag)} {CONTROL} {WIDE}"


def visible(tag: str) -> str:
    """The part of `hostile(tag)` that must appear literally on screen."""
    return f"[bold]{tag}[/] [/] [link=https://evil.example]L[/link]"


TASKS = {
    "task-00": hostile("TASKA"),
    "task-01": hostile("TASKB"),
    "task-02": "t\n" + hostile("TASKC"),
}
RUN_ID = hostile("RUNID")
POLICY = hostile("POLICY")
ERROR_TYPE = hostile("ERRTYPE")
TERMINATION = hostile("TERMREASON")
METRIC_KEY = hostile("METRICKEY")
#: A verifier message of over 5,000 characters, with newlines and tabs.
MESSAGE = hostile("VERIFIER") + "\n\tsecond line " + "x" * 5000 + " [/]END"
LONG_EPISODE = "E" * 5000


def episode_id(old: str) -> str:
    """The hostile id replacing an example id like `task-01/seed1002`."""
    task, _, seed = old.partition("/")
    if old == "task-02/seed1003":
        return LONG_EPISODE
    return f"{TASKS[task]}/{seed} {hostile('EPISODE')}"


def _record(rec: dict[str, Any]) -> dict[str, Any]:
    old = rec["episode"]["id"]
    rec["episode"]["id"] = episode_id(old)
    rec["episode"]["task"] = TASKS[rec["episode"]["task"]]
    rec["episode"]["instruction"] = hostile("INSTRUCTION")
    if rec.get("error"):
        rec["error"]["type"] = ERROR_TYPE
        rec["error"]["message"] = MESSAGE
    if rec.get("termination_reason") and rec["status"] == "completed":
        rec["termination_reason"] = TERMINATION
    if isinstance(rec.get("metrics"), dict) and rec["metrics"]:
        rec["metrics"]["message"] = MESSAGE
        rec["metrics"][METRIC_KEY] = 1
    return rec


def write_hostile_run(root: Path) -> Path:
    """Copy the example to `root` (created) with hostile ids, names and messages."""
    shutil.copytree(EXAMPLE, root)
    man = json.loads((root / "manifest.json").read_text())
    man["run_id"] = RUN_ID
    man["policy"]["name"] = POLICY
    man["protocol"]["episode_ids"] = [episode_id(e) for e in man["protocol"]["episode_ids"]]
    (root / "manifest.json").write_text(json.dumps(man, indent=1))
    lines = [
        json.dumps(_record(json.loads(line)), separators=(",", ":"))
        for line in (root / "episodes.jsonl").read_text().splitlines()
        if line.strip()
    ]
    (root / "episodes.jsonl").write_text("".join(line + "\n" for line in lines))
    shutil.rmtree(root / "episodes")
    for i, line in enumerate(lines):
        d = root / "episodes" / f"ep-{i:03d}"
        d.mkdir(parents=True)
        (d / "result.json").write_text(line)
    summary = json.loads((root / "summary.json").read_text())
    summary.update(run_id=RUN_ID, policy=POLICY)
    (root / "summary.json").write_text(json.dumps(summary, indent=1))
    return root
