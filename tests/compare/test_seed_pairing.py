"""Pairing that assumes what the files do not record is said (issue 22).

Two LeRobot multi-task files are paired by (task, episode index); lerobot-eval seeds its episodes
from --seed and these files record none, so the pairing assumes both evaluations used one start
seed. Where seeds are recorded (single-environment files) pairs are checked equal, as before.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalview.cli import main
from helpers.lerobot_files import multi_task_doc, single_env_doc, write

ASSUMES = "paired by episode id (task and index) alone, which assumes both reads ran each one"


def _compare(capsys: pytest.CaptureFixture[str], a: Path, b: Path) -> tuple[int, dict, str]:
    code = main(["compare", str(a), str(b), "--json"])
    doc = json.loads(capsys.readouterr().out) if code == 0 else {}
    main(["compare", str(a), str(b)])
    return code, doc, capsys.readouterr().out


def test_unseeded_files_say_the_pairing_assumes_one_start_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = write(tmp_path / "a.json", multi_task_doc(episodes=6))
    b = write(tmp_path / "b.json", multi_task_doc(episodes=6, seed=4, shift=0.1))
    code, doc, text = _compare(capsys, a, b)
    assert code == 0
    assert doc["pairing_seeds"] == {"episodes": 24, "seeds_checked": 0, "by_episode_id_only": 24,
                                    "a_records": 0, "b_records": 0}
    note = next(n for n in doc["notes"] if ASSUMES in n)
    assert note.startswith("neither read records a seed") and "--seed" in note
    assert ASSUMES in " ".join(text.split())


def test_seeded_files_are_checked_and_carry_no_caveat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = write(tmp_path / "a.json", single_env_doc(seed=5))
    b = write(tmp_path / "b.json", single_env_doc(seed=5))
    code, doc, _ = _compare(capsys, a, b)
    assert code == 0
    seeds = doc["pairing_seeds"]
    assert seeds["seeds_checked"] == seeds["episodes"] > 0 and seeds["by_episode_id_only"] == 0
    assert not [n for n in doc["notes"] if ASSUMES in n]


def test_a_seed_recorded_on_one_side_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc_b = single_env_doc(seed=5)
    for ep in doc_b["per_episode"]:
        ep.pop("seed", None)
    a = write(tmp_path / "a.json", single_env_doc(seed=5))
    b = write(tmp_path / "b.json", doc_b)
    code, doc, _ = _compare(capsys, a, b)
    assert code == 0
    assert doc["pairing_seeds"]["b_records"] == 0 < doc["pairing_seeds"]["a_records"]
    assert any(n.startswith("B records no seed") for n in doc["notes"])
