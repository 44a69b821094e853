"""Golden outputs: the JSON commands and the exported result.json on the sample runs, byte for byte.

The expected files under `tests/golden/expected/` were generated from the code before the
session/reader refactor (issue 11); a refactor that changes any byte of any of them fails here.
Regenerate only for an intended change of output: `EVALVIEW_GOLDEN_UPDATE=1 pytest tests/golden`
(and say why in the commit).

Normalised, explicitly and nowhere else: the temporary directory the candidate read and the
exports are written to (`<tmp>`), and result.json's `generator.version` (the package version,
which a release changes on purpose).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from evalview.cli import main
from evalview.samples.candidate import generate_candidate_read
from helpers.paths import REPO

EXPECTED = REPO / "tests" / "golden" / "expected"
UPDATE = os.environ.get("EVALVIEW_GOLDEN_UPDATE") == "1"

ROBO = "sample_runs/robobench-24x50"
FAIL_FAST = "sample_runs/fail-fast"
FAULTY = "sample_runs/faulty"
PSR_INPUTS = "sample_runs/psr/checkpoint-inputs.json"
BARE = "sample_runs/psr/bare-targets.json"
CATALOG = "sample_runs/psr/catalog.json"
LEROBOT = "sample_runs/lerobot"
HARNESS = "sample_runs/harness/"
TASK_RESULTS = "tests/fixtures/miniverl-recoverybench/recoverybench-v1-task-results.jsonl"
EQ = "equal_optimizer_updates"

#: name -> argv; `{tmp}` is the per-session temporary directory (holding `candidate/` and
#: `export-robo/result.json`).
CASES: dict[str, list[str]] = {
    "check-robobench": ["check", ROBO, "--json"],
    "check-fail-fast": ["check", FAIL_FAST, "--json"],
    "check-faulty": ["check", FAULTY, "--json"],
    "check-faulty-strict": ["check", FAULTY, "--json", "--strict"],
    "check-psr-inputs": ["check", PSR_INPUTS, "--json"],
    "check-result-json": ["check", "{tmp}/export-robo/result.json", "--json"],
    "score-robobench": ["score", ROBO, "--json"],
    "score-robobench-allow": ["score", ROBO, "--json", "--allow-errors"],
    "score-robobench-allow-b0": ["score", ROBO, "--json", "--allow-errors", "--bootstrap", "0"],
    "score-robobench-metric": ["score", ROBO, "--json", "--allow-errors", "--bootstrap", "50",
                               "--metric", "score"],
    "score-fail-fast": ["score", FAIL_FAST, "--json"],
    "score-fail-fast-allow": ["score", FAIL_FAST, "--json", "--allow-errors", "--bootstrap", "99"],
    "score-faulty": ["score", FAULTY, "--json", "--bootstrap", "0"],
    "score-faulty-allow": ["score", FAULTY, "--json", "--allow-errors", "--bootstrap", "0"],
    "score-result-json": ["score", "{tmp}/export-robo/result.json", "--json"],
    "score-result-json-allow": ["score", "{tmp}/export-robo/result.json", "--json",
                                "--allow-errors"],
    "score-missing": ["score", "sample_runs/no-such-run", "--json"],
    "psr-inputs-refused": ["psr", PSR_INPUTS, "--json"],
    "psr-inputs": ["psr", PSR_INPUTS, "--json", "--bare-targets", BARE],
    "psr-inputs-catalog": ["psr", PSR_INPUTS, "--json", "--bare-targets", BARE, "--catalog",
                           CATALOG],
    "psr-robobench": ["psr", ROBO, "--json"],
    "psr-faulty": ["psr", FAULTY, "--json"],
    "psr-result-json": ["psr", "{tmp}/export-robo/result.json", "--json"],
    "compare-robobench-candidate": ["compare", ROBO, "{tmp}/candidate", "--json"],
    "compare-robobench-self": ["compare", ROBO, ROBO, "--json"],
    "compare-robobench-fail-fast": ["compare", ROBO, FAIL_FAST, "--json"],
    "compare-result-json": ["compare", "{tmp}/export-robo/result.json", "{tmp}/candidate",
                            "--json"],
    # issue 10: a read with errored rollouts is compared only with --allow-errors (the four
    # above are refused since; these keep the numbers under test)
    "compare-robobench-candidate-allow": ["compare", ROBO, "{tmp}/candidate", "--json",
                                          "--allow-errors"],
    "compare-result-json-allow": ["compare", "{tmp}/export-robo/result.json", "{tmp}/candidate",
                                  "--json", "--allow-errors"],
    "contrast-one-replicate": ["contrast", "--a", f"1={ROBO}", "--b", "1={tmp}/candidate",
                               "--json"],
    "contrast-one-replicate-allow": ["contrast", "--a", f"1={ROBO}", "--b", "1={tmp}/candidate",
                                     "--json", "--allow-errors"],
    "contrast-relative-allow": ["contrast", "--a", f"1={ROBO}", "--b", "1={tmp}/candidate",
                                "--relative", "--bc", "1={tmp}/candidate", "--json",
                                "--allow-errors"],
    # LeRobot eval_info.json (issue 12): added with the reader, not from the pre-refactor code.
    "check-lerobot-20k": ["check", f"{LEROBOT}/smolvla-libero-20k.json", "--json"],
    "check-lerobot-two-reads": ["check", f"{LEROBOT}/libero10-two-reads.json", "--json"],
    "score-lerobot-40k": ["score", f"{LEROBOT}/smolvla-libero-40k.json", "--json",
                          "--bootstrap", "200"],
    "score-lerobot-two-reads": ["score", f"{LEROBOT}/libero10-two-reads.json", "--json",
                                "--bootstrap", "0"],
    "score-lerobot-single-env": ["score", f"{LEROBOT}/pusht-single-env.json", "--json",
                                 "--bootstrap", "0"],
    "compare-lerobot-20k-40k": ["compare", f"{LEROBOT}/smolvla-libero-20k.json",
                                f"{LEROBOT}/smolvla-libero-40k.json", "--json"],
    # RecoveryBench task-level results, the published file (issue 21, part B)
    "check-task-results-fresh": ["check", TASK_RESULTS, "--json",
                                 "--read", f"{EQ}/strict-opd-fresh"],
    "score-task-results-fresh": ["score", TASK_RESULTS, "--json", "--bootstrap", "0",
                                 "--read", f"{EQ}/strict-opd-fresh"],
    "compare-task-results-recovery": [
        "compare", TASK_RESULTS, TASK_RESULTS, "--json",
        "--read-a", f"{EQ}/offline-kd-frozen-student/recovered_after_tool_error",
        "--read-b", f"{EQ}/strict-opd-fresh/recovered_after_tool_error",
    ],
    # benchmark-harness results (issue 14)
    "check-harness-shipped": ["check", HARNESS + "cpu-toy-calc-equal-update-v2.json", "--json"],
    "check-harness-v1": ["check", HARNESS + "cpu-toy-calc-equal-update-v1.json", "--json"],
    "check-harness-undeclared": ["check", HARNESS + "gpu-calc-hard-undeclared-difference.json",
                                 "--json"],
    "score-harness-shipped": ["score", HARNESS + "cpu-toy-calc-equal-update-v2.json", "--json"],
    "score-harness-single-seed": ["score", HARNESS + "gpu-calc-hard-single-seed.json", "--json"],
    "score-harness-3seeds": ["score", HARNESS + "gpu-calc-hard-equal-update-3seeds.json",
                             "--json"],
    "compare-harness-unmatched": ["compare", HARNESS + "gpu-calc-hard-equal-update-3seeds.json",
                                  HARNESS + "gpu-calc-hard-single-seed.json", "--json"],
    "compare-harness-allow": ["compare", HARNESS + "gpu-calc-hard-equal-update-3seeds.json",
                              HARNESS + "gpu-calc-hard-single-seed.json", "--json",
                              "--allow-mismatch"],
}

#: name -> source of `evalview export`; its result.json (or its refusal) is the golden output.
EXPORTS: dict[str, str] = {
    "export-robo": ROBO,
    "export-fail-fast": FAIL_FAST,
    "export-faulty": FAULTY,
    "export-harness-single-seed": HARNESS + "gpu-calc-hard-single-seed.json",
    "export-harness-undeclared": HARNESS + "gpu-calc-hard-undeclared-difference.json",
}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The repository as the working directory (relative sample paths in every output), the
    candidate read and the robobench export in a temporary directory."""
    tmp = tmp_path_factory.mktemp("golden")
    old = Path.cwd()
    os.chdir(REPO)
    try:
        generate_candidate_read(tmp / "candidate")
        assert main(["export", ROBO, "--output-dir", str(tmp / "export-robo")]) == 0
        yield tmp
    finally:
        os.chdir(old)


def _normalise(data: bytes, tmp: Path) -> bytes:
    return data.replace(str(tmp).encode(), b"<tmp>")


def _compare(name: str, actual: bytes) -> None:
    path = EXPECTED / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(actual)
    assert path.is_file(), f"{path} is missing: generate it with EVALVIEW_GOLDEN_UPDATE=1"
    expected = path.read_bytes()
    assert actual == expected, f"{name} differs from {path}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_json_command_is_unchanged(
    name: str, workdir: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    argv = [a.replace("{tmp}", str(workdir)) for a in CASES[name]]
    code = main(argv)
    out = capsysbinary.readouterr().out
    assert out.endswith(b"\n")
    orjson.loads(out)  # one JSON document, nothing else on stdout
    document = f"exit {code}\n".encode() + _normalise(out, workdir)
    _compare(f"{name}.txt", document)


@pytest.mark.parametrize("name", sorted(EXPORTS))
def test_exported_result_json_is_unchanged(
    name: str, workdir: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    dest = workdir / f"golden-{name}"
    code = main(["export", EXPORTS[name], "--output-dir", str(dest)])
    capsysbinary.readouterr()
    result = dest / "result.json"
    if code != 0:
        assert not dest.exists(), "a refused export writes nothing"
        _compare(f"{name}.result.json", f"exit {code}\n".encode())
        return
    value = orjson.loads(result.read_bytes())
    assert value["generator"]["name"] == "evalview"
    version = value["generator"]["version"]
    assert isinstance(version, str) and version
    normalised = result.read_bytes().replace(
        f'"version": "{version}"'.encode(), b'"version": "<version>"', 1
    )
    # `generator` precedes every other "version" key in result.json, so the one replacement
    # above is the generator's; checked rather than assumed:
    assert orjson.loads(normalised)["generator"]["version"] == "<version>"
    _compare(f"{name}.result.json", f"exit {code}\n".encode() + _normalise(normalised, workdir))
