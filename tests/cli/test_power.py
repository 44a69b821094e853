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


@pytest.mark.parametrize(
    ("argv", "path", "expected"),
    [
        # evaluation-statistics.txt §3: a ten-point gap, lesson 3's repair, the resolvable gaps
        (["--p1", "0.67", "--p2", "0.77"], ("unpaired", "n_per_arm"), 317),
        (["--p1", "0.635", "--p2", "0.956"], ("unpaired", "n_per_arm"), 25),
        (["--p1", "0.68", "--p2", "0.76", "--n", "100"], ("at_n", "min_detectable_gap"), 0.178),
        (["--p1", "0.68", "--p2", "0.76", "--n", "500"], ("at_n", "min_detectable_gap"), 0.080),
        (["--p1", "0.68", "--p2", "0.76", "--n", "1000"], ("at_n", "min_detectable_gap"), 0.056),
        # §1 and the widget: how often an evaluation of n per arm gets each verdict
        (["--p1", "0.68", "--p2", "0.76", "--n", "20"], ("at_n", "exact_power", "wrong_verdict"),
         0.006),
        (["--p1", "0.68", "--p2", "0.76", "--n", "20"], ("at_n", "exact_power", "higher_count"),
         0.652),
        (["--p1", "0.68", "--p2", "0.76", "--n", "100"], ("at_n", "exact_power", "right_verdict"),
         0.242),
        (["--p1", "0.68", "--p2", "0.76", "--n", "200"], ("at_n", "exact_power", "right_verdict"),
         0.431),
        (["--p1", "0.68", "--p2", "0.76", "--n", "1000"],
         ("at_n", "exact_power", "right_verdict"), 0.979),
        # §3: two equal checkpoints, the higher count names the new one in 43.0 %
        (["--p1", "0.72", "--p2", "0.72", "--n", "20"], ("at_n", "exact_power", "higher_count"),
         0.430),
        # §4: the price of 500 and 1,000 trials per checkpoint
        (["--p1", "0.68", "--p2", "0.76", "--n", "500"], ("at_n", "cost", "robot_weeks"), 1.25),
        (["--p1", "0.68", "--p2", "0.76", "--n", "1000"], ("at_n", "cost", "robot_hours"), 100.0),
    ],
)
def test_every_worked_number_of_the_statistics_spec(
    capsys: pytest.CaptureFixture[str], argv: list[str], path: tuple[str, ...], expected: float
) -> None:
    value = _json(capsys, *argv)
    for key in path:
        value = value[key]
    digits = 0 if isinstance(expected, int) else 3
    assert round(value, digits) == expected


def test_a_huge_n_answers_without_the_exact_sum(capsys: pytest.CaptureFixture[str]) -> None:
    # 10⁹ per arm used to allocate the whole binomial grid (gigabytes) and never return.
    doc = _json(capsys, "--p1", "0.5", "--p2", "0.6", "--n", "1000000000")
    assert doc["at_n"]["exact_power"] is None
    assert doc["at_n"]["cost"]["trials"] == 2_000_000_000
    assert 0 < doc["at_n"]["min_detectable_gap"] < 1e-3
    assert main(["power", "--p1", "0.5", "--p2", "0.6", "--n", "1000000000"]) == 0
    assert "not computed above 1,000,000" in capsys.readouterr().out


def test_exact_power_shares_stay_fractions_at_large_n(capsys: pytest.CaptureFixture[str]) -> None:
    # A running sum of log-factorials drifted: at n = 10⁵ the right verdict came out 1 + 2e-9.
    doc = _json(capsys, "--p1", "0.5", "--p2", "0.6", "--n", "100000")
    shares = doc["at_n"]["exact_power"]
    assert all(0.0 <= v <= 1.0 for v in shares.values())
    assert shares["higher_count"] + shares["tie"] + shares["lower_count"] == pytest.approx(1.0)


def test_non_overlap_and_paired_exact_power(capsys: pytest.CaptureFixture[str]) -> None:
    # §3: non-overlap needs 1.66× the z-test's trials; §5: 20 and 100 same-gust pairs.
    doc = _json(capsys, "--p1", "0.68", "--p2", "0.76", "--paired", "--discordant", "0.08",
                "--n", "100")
    assert doc["unpaired"]["non_overlap_n_per_arm"] == 823
    assert round(doc["unpaired"]["non_overlap_n_per_arm"] / doc["unpaired"]["n_per_arm"], 2) \
        == 1.66
    assert round(doc["at_n"]["paired_exact_power"]["right_verdict"], 3) == 0.820
    doc = _json(capsys, "--p1", "0.68", "--p2", "0.76", "--paired", "--discordant", "0.08",
                "--n", "20")
    assert round(doc["at_n"]["paired_exact_power"]["right_verdict"], 3) == 0.004
    assert doc["at_n"]["paired_exact_power"]["wrong_verdict"] == 0.0
    assert _json(capsys, "--p1", "0.68", "--p2", "0.76", "--n", "20")["at_n"][
        "paired_exact_power"] is None  # no --paired, no paired answer
    assert main(["power", "--p1", "0.68", "--p2", "0.76", "--paired", "--discordant", "0.08",
                 "--n", "100"]) == 0
    out = capsys.readouterr().out
    assert "823" in out and "82.0 %" in out and "McNemar" in out


def test_equal_rates_with_paired_and_n_report_the_false_verdicts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = _json(capsys, "--p1", "0.7", "--p2", "0.7", "--paired", "--n", "200")
    pe = doc["at_n"]["paired_exact_power"]
    assert pe["right_verdict"] == pytest.approx(pe["wrong_verdict"])
    assert pe["right_verdict"] + pe["wrong_verdict"] < 0.05
    assert doc["paired"] is None and doc["unpaired"] is None
