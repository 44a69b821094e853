"""`evalview power`: the spec's numbers through the command, JSON shape, bad arguments (exit 2)."""

from __future__ import annotations

import json

import pytest

from evalview.cli import main


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:  # type: ignore[type-arg]
    assert main(["power", *argv, "--json"]) == 0
    out = capsys.readouterr().out
    return json.loads(out)


def test_spec_pair_json(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(capsys, "--p1", "0.68", "--p2", "0.76", "--n", "20", "--paired")
    assert doc["unpaired"]["n_per_arm"] == 495
    assert doc["unpaired"]["cost"] == {"trials": 990, "robot_hours": 49.5,
                                       "robot_weeks": pytest.approx(1.2375)}
    assert doc["paired"]["n_pairs"] == 497
    assert doc["paired"]["discordant"] == pytest.approx(0.4064)
    assert round(doc["at_n"]["min_detectable_gap"], 3) == 0.398
    assert round(doc["at_n"]["exact_power"]["right_verdict"], 3) == 0.084
    assert 0 <= doc["gap"] <= 1 and doc["pbar"] == pytest.approx(0.72)


def test_percent_input_and_discordance(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(capsys, "--p1", "68%", "--p2", "76%", "--paired", "--discordant", "0.08")
    assert doc["paired"]["n_pairs"] == 96
    assert doc["paired"]["discordant_source"] == "--discordant"
    doc = _json(capsys, "--p1", "0.68", "--p2", "0.76", "--n", "500",
                "--minutes-per-trial", "1.7")
    assert round(doc["at_n"]["cost"]["robot_hours"], 1) == 28.3
    assert round(doc["at_n"]["exact_power"]["right_verdict"], 3) == 0.806


def test_text_output_shows_percent(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["power", "--p1", "0.68", "--p2", "0.76", "--n", "495"]) == 0
    out = capsys.readouterr().out
    assert "495" in out and "49.5 robot-hours" in out
    assert "80.2 %" in out and "68.0 %" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--p1", "68", "--p2", "0.7"], "did you mean 68%"),
        (["--p1", "abc", "--p2", "0.7"], "not a rate"),
        (["--p1", "0.5", "--p2", "0.5"], "equal"),
        (["--p1", "0.6", "--p2", "0.7", "--n", "0"], "must be positive"),
        (["--p1", "0.6", "--p2", "0.7", "--alpha", "1"], "strictly between"),
        (["--p1", "0.6", "--p2", "0.7", "--minutes-per-trial", "-3"], "positive"),
        (["--p1", "0.6", "--p2", "0.7", "--discordant", "0.2"], "only applies with --paired"),
        (["--p1", "0.6", "--p2", "0.9", "--paired", "--discordant", "0.1"], "discordant"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exc:
        code = main(["power", *argv])
        raise SystemExit(code)
    assert exc.value.code == 2
    captured = capsys.readouterr()
    assert message in " ".join((captured.err + captured.out).split())
    assert "Traceback" not in captured.err


def test_json_error_is_one_document(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["power", "--p1", "0.5", "--p2", "0.5", "--json"]) == 2
    doc = json.loads(capsys.readouterr().out)
    assert doc["exit_code"] == 2 and "equal" in doc["error"]
