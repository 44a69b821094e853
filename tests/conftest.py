"""Common fixtures: a writable copy of the example closed run, and a small editor for it.

Tests build their faulty runs in code from this conforming example, so each fixture is one visible
mutation away from a run that passes the audit.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from helpers.chromium import RecordingProxy
from helpers.paths import EXAMPLE

#: No per-example deadline: tests never assert timing, and with two workers on a loaded 2-core
#: machine an example that takes 50 ms alone can take 400 ms (Hypothesis then fails it as flaky).
settings.register_profile("evalview", deadline=None)
settings.load_profile("evalview")



@pytest.fixture(autouse=True)
def _own_state_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app remembers the last export directory under XDG_STATE_HOME: each test gets its
    own, so no test reads another's choice (or the developer's)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))


def copy_example(dest: Path) -> Path:
    """Copy the example to `dest` and make the copy writable (it may come read-only)."""
    shutil.copytree(EXAMPLE, dest)
    for root, dirs, files in os.walk(dest):
        for name in dirs + files:
            p = Path(root) / name
            p.chmod(p.stat().st_mode | stat.S_IWUSR)
    dest.chmod(dest.stat().st_mode | stat.S_IWUSR)
    return dest


class RunDir:
    """A closed-run directory under test, with helpers that keep its copies in sync."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def json(self, name: str) -> Any:
        return json.loads((self.path / name).read_text(encoding="utf-8"))

    def write_json(self, name: str, value: Any) -> None:
        (self.path / name).write_text(json.dumps(value, indent=1), encoding="utf-8")

    def edit(self, name: str, fn: Callable[[Any], object]) -> None:
        """Apply `fn` to the parsed document and write it back."""
        doc = self.json(name)
        fn(doc)
        self.write_json(name, doc)

    def records(self) -> list[dict[str, Any]]:
        text = (self.path / "episodes.jsonl").read_text(encoding="utf-8")
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    def write_records(self, records: list[dict[str, Any]], *, sync: bool = True) -> None:
        """Rewrite episodes.jsonl; with `sync`, also one identical result file per record."""
        lines = [json.dumps(r, separators=(",", ":")) for r in records]
        (self.path / "episodes.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        if not sync:
            return
        shutil.rmtree(self.path / "episodes")
        (self.path / "episodes").mkdir()
        used: set[str] = set()
        for i, (rec, line) in enumerate(zip(records, lines, strict=True)):
            name = self.dir_name(rec, i)
            while name in used:
                name += "-dup"
            used.add(name)
            (self.path / "episodes" / name).mkdir()
            (self.path / "episodes" / name / "result.json").write_text(line, encoding="utf-8")

    def edit_record(self, index: int, fn: Callable[[dict[str, Any]], object]) -> None:
        """Change one record in episodes.jsonl and in its result file alike."""
        records = self.records()
        fn(records[index])
        self.write_records(records)

    @staticmethod
    def dir_name(rec: dict[str, Any], index: int) -> str:
        ep = rec.get("episode")
        eid = ep.get("id") if isinstance(ep, dict) else None
        return str(eid).replace("/", "-") if isinstance(eid, str) else f"episode-{index}"

    def result_path(self, episode_id: str) -> Path:
        """The result file whose episode.id is `episode_id`."""
        for p in sorted((self.path / "episodes").glob("*/result.json")):
            if json.loads(p.read_text(encoding="utf-8"))["episode"]["id"] == episode_id:
                return p
        raise KeyError(episode_id)

    def findings(self) -> list[Any]:
        from evalview.audit import audit
        from evalview.load import load_run

        return audit(load_run(self.path))

    def codes(self) -> set[str]:
        return {f.code for f in self.findings()}


@pytest.fixture
def example_run_dir(tmp_path: Path) -> Path:
    """A writable copy of the conforming example run (12 episodes, 4 errored)."""
    return copy_example(tmp_path / "closed-run")


@pytest.fixture
def example_run(example_run_dir: Path) -> RunDir:
    """The same copy, wrapped in a `RunDir` editor."""
    return RunDir(example_run_dir)


@pytest.fixture
def run_dir_type() -> type[RunDir]:
    """The `RunDir` class, for tests (e.g. hypothesis) that build several runs in one test."""
    return RunDir


@pytest.fixture
def proxy() -> Iterator[RecordingProxy]:
    """A recording HTTP proxy for the headless-Chromium tests: every request the page makes."""
    p = RecordingProxy()
    yield p
    p.close()
