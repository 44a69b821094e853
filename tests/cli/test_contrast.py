"""`evalview contrast`: the reporting rules' printout, JSON units, refusals and bad arguments."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalview.cli import main
from helpers.closed_runs import outcomes_for, write_run


def _reads(tmp_path: Path, keys: tuple[str, ...] = ("42", "43", "44")) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {"a": [], "b": []}
    for i, key in enumerate(keys):
        for side, shift in (("a", 0), ("b", -3)):
            name = f"{side}{key}"
            write_run(tmp_path / name,
                      outcomes_for({"t1": (30 + i + shift, 50), "t2": (20 - i + shift, 50)}),
                      manifest={"run_id": name, "policy": {"version": name}})
            out[side].append(f"{key}={tmp_path / name}")
    return out


def test_printout_as_the_reporting_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    r = _reads(tmp_path)
    assert main(["contrast", "--a", *r["a"], "--b", *r["b"]]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "replicate 42: +6.00 pt (eval SE of this pair" in out
    assert "a42+a43+a44 - b42+b43+b44: mean +6.00 pt, sample SD 0.00, pairs 3" in out
    assert "[paired, n_seeds=3]" in out


def test_json_descriptive(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = _reads(tmp_path, ("1", "2"))
    assert main(["contrast", "--a", *r["a"], "--b", *r["b"], "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["label"] == "descriptive, n_seeds=2" and doc["claim"] is False
    assert doc["mean_points"] == pytest.approx(6.0)
    rep = doc["replicates"][0]
    assert 0 <= rep["a"]["mean"] <= 1 and 0 <= rep["a"]["se"] <= 1


def test_relative_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = _reads(tmp_path)
    argv = ["contrast", "--a", *r["a"], "--b", *r["b"], "--relative", "--bc", *r["b"], "--json"]
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    rep = doc["replicates"][0]
    mb = rep["b"]["mean"]
    assert rep["relative"] == pytest.approx(100 * (rep["a"]["mean"] - mb) / mb)
    assert rep["relative_se"] > 0 and doc["relative"] is True


def test_refusals_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = _reads(tmp_path)
    assert main(["contrast", "--a", *r["a"], "--b", *r["b"][:2]]) == 1
    assert "one side only" in " ".join(capsys.readouterr().err.split())
    off = write_run(tmp_path / "off", outcomes_for({"t1": (5, 10), "t2": (3, 10)}),
                    manifest={"off_protocol": True, "policy": {"version": "off"}})
    argv = ["contrast", "--a", f"42={off}", "--b", r["b"][0]]
    assert main(argv) == 1
    capsys.readouterr()
    assert main([*argv, "--allow-off-protocol"]) == 0
    assert "OFF-PROTOCOL" in capsys.readouterr().out


def test_bad_arguments_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = _reads(tmp_path, ("1",))
    assert main(["contrast", "--a", *r["a"], "--b", *r["b"], "--relative"]) == 2
    assert "--relative needs --bc" in capsys.readouterr().err
    assert main(["contrast", "--a", "1=" + str(tmp_path / "nope"), "--b", *r["b"]]) == 2
    with pytest.raises(SystemExit) as exc:
        main(["contrast", "--a", "no-key", "--b", *r["b"]])
    assert exc.value.code == 2
    assert "is not KEY=PATH" in capsys.readouterr().err
