"""`evalview psr`: exit codes, one JSON document, OUTPUT written, inputs never touched."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from evalview.cli import main
from helpers.paths import EXAMPLE, SAMPLE_RUNS

SAMPLES = SAMPLE_RUNS / "psr"

WORKED = {
    "example-model": [
        {
            "stage": "main",
            "task": "task_01_magic_staff",
            "success": False,
            "message": "Logs: 3/5, Kills: 0/3, All alive: True",
            "CCE": 0.0,
            "rounds": 30,
            "chats": 8,
        },
        {
            "stage": "main",
            "task": "task_02_stone_pickaxe",
            "success": True,
            "message": "Stone: 3/3, Pickaxe crafted: True",
            "CCE": 0.6667,
            "rounds": 12,
            "chats": 5,
        },
    ]
}


def write(tmp_path: Path, value: Any, name: str = "checkpoint-inputs.json") -> Path:
    p = tmp_path / name
    p.write_text(value if isinstance(value, str) else json.dumps(value, indent=2))
    return p


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main(["psr", *argv, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out)  # exactly one JSON document, or this raises


def digest(path: Path) -> dict[str, str]:
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


def test_worked_example_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = run_json(capsys, str(write(tmp_path, WORKED)))
    assert code == 0
    assert doc["method"] == "checkpoint_fraction_v1"
    assert doc["historical_implementation_reproduced"] is False
    model = doc["models"][0]
    assert model["model"] == "example-model"
    assert round(model["tasks"][0]["psr"], 4) == 0.5333
    main_split = model["summaries"]["main"]
    assert round(main_split["PSR"], 4) == 0.7667 and main_split["SR"] == 0.5
    assert main_split["final"] is False and main_split["expected"] is None


def test_worked_example_text_shows_percent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["psr", str(write(tmp_path, WORKED)), "--per-task"]) == 0
    out = capsys.readouterr().out
    assert "reconstructed PSR" in out
    assert "76.67 %" in out and "50.00 %" in out and "53.33 %" in out


def test_output_is_written_and_input_is_byte_identical(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inp = write(tmp_path, WORKED)
    before, mtime = inp.read_bytes(), inp.stat().st_mtime_ns
    out = tmp_path / "psr-results.json"
    assert main(["psr", str(inp), str(out)]) == 0
    assert inp.read_bytes() == before and inp.stat().st_mtime_ns == mtime
    report = json.loads(out.read_text())
    assert report["label"] == "reconstructed PSR"
    assert report["models"][0]["tasks"][0]["checkpoints"][1] == {
        "label": "Kills",
        "kind": "quantity",
        "observed": 0,
        "target": 3,
        "target_source": "message",
        "credit": 0.0,
    }
    assert "written to" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "checkpoint-inputs.json",
        "psr-results.json",
    ]


def test_output_equal_to_input_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inp = write(tmp_path, WORKED)
    before = inp.read_bytes()
    via_dotdot = tmp_path / "sub" / ".." / inp.name
    (tmp_path / "sub").mkdir()
    for target in (inp, via_dotdot):
        code, doc = run_json(capsys, str(inp), str(target))
        assert code == 1 and doc["exit_code"] == 1 and "never writes" in doc["error"]
    assert inp.read_bytes() == before


def test_output_onto_a_side_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bare = write(tmp_path, {"targets": {"Planks": 16}}, "bare.json")
    before = bare.read_bytes()
    code, _ = run_json(capsys, str(write(tmp_path, WORKED)), str(bare), "--bare-targets", str(bare))
    assert code == 1 and bare.read_bytes() == before


def test_output_inside_the_run_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    before = digest(EXAMPLE)
    for name in ("psr.json", "episodes/psr.json", "manifest.json"):
        target = EXAMPLE / name
        code, doc = run_json(capsys, str(EXAMPLE), str(target))
        assert code == 1 and "never writes" in doc["error"]
    assert digest(EXAMPLE) == before


def test_closed_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = digest(EXAMPLE)
    out = tmp_path / "run-psr.json"
    code, doc = run_json(capsys, str(EXAMPLE), str(out))
    assert code == 0 and digest(EXAMPLE) == before
    assert doc["input"]["kind"] == "closed-run" and doc["model"] == "pi-test"
    assert doc["summary"]["final"] is False
    assert [t["task"] for t in doc["tasks"]] == ["task-00", "task-01", "task-02"]
    assert doc["tasks"][2]["PSR"] == 1.0
    assert json.loads(out.read_text()) == doc


def test_closed_run_text(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "160")
    assert main(["psr", str(EXAMPLE), "--per-task"]) == 0
    out = capsys.readouterr().out
    assert "infrastructure error" in out and "partial" in out
    assert "86.67 %" in out  # task-00/seed1001: Logs 3/5, Kills 3/3, All alive True


def test_closed_run_message_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = run_json(capsys, str(EXAMPLE), "--message-key", "verdict")
    assert code == 1 and "--message-key" in doc["error"] and "episodes.jsonl:1" in doc["error"]


@pytest.mark.parametrize(
    ("rows", "args", "match"),
    [
        ([("task_a", False, "Planks: 14")], [], "--bare-targets"),
        ([("task_a", False, "Logs: 3/0")], [], "nonpositive target"),
        ([("task_a", False, "Logs = 3")], [], "cannot read the checkpoint"),
        ([("task_a", True, "D: True"), ("task_a", False, "D: False")], [], "appears twice"),
        ([("task_z", True, "D: True")], ["--catalog"], "not in the task catalog"),
    ],
)
def test_refusals_exit_1(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    rows: list[tuple[str, bool, str]],
    args: list[str],
    match: str,
) -> None:
    doc = {
        "m": [
            {
                "stage": "main",
                "task": t,
                "success": s,
                "message": m,
                "CCE": 0.0,
                "rounds": 1,
                "chats": 1,
            }
            for t, s, m in rows
        ]
    }
    if args == ["--catalog"]:
        args = ["--catalog", str(write(tmp_path, {"main": ["task_a"]}, "catalog.json"))]
    out = tmp_path / "out.json"
    code, err = run_json(capsys, str(write(tmp_path, doc)), str(out), *args)
    assert code == 1 and match in err["error"]
    assert not out.exists()  # nothing half-written on refusal


def test_refusal_text_goes_to_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = {"m": [{**WORKED["example-model"][0], "message": "Planks: 14"}]}
    assert main(["psr", str(write(tmp_path, bad))]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "refused" in captured.err and "task_01_magic_staff" in captured.err


@pytest.mark.parametrize(
    "text",
    [
        '{"m": [{"task": "a", "task": "b"}]}',  # duplicate key
        json.dumps(WORKED).replace('"CCE": 0.0', '"CCE": NaN'),
        '{"m": [',
    ],
)
def test_unreadable_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    code, doc = run_json(capsys, str(write(tmp_path, text)))
    assert code == 2 and doc["exit_code"] == 2 and "checkpoint-inputs.json" in doc["error"]


def test_missing_input_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = run_json(capsys, str(tmp_path / "nope.json"))
    assert code == 2 and "no such file" in doc["error"]


def test_missing_bare_targets_file_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = run_json(
        capsys, str(write(tmp_path, WORKED)), "--bare-targets", str(tmp_path / "nope.json")
    )
    assert code == 2


def test_options_that_do_not_apply_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, doc = run_json(capsys, str(write(tmp_path, WORKED)), "--message-key", "verdict")
    assert code == 1 and "closed runs" in doc["error"]
    catalog = write(tmp_path, {"main": ["task-00"]}, "catalog.json")
    code, doc = run_json(capsys, str(EXAMPLE), "--catalog", str(catalog))
    assert code == 1 and "checkpoint-inputs" in doc["error"]


def test_upper_bound_labels_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    row = {**WORKED["example-model"][0], "message": "Rounds: 30/25, Steps: 90/100"}
    inp = write(tmp_path, {"m": [row]})
    _, default = run_json(capsys, str(inp))
    assert [c["credit"] for c in default["models"][0]["tasks"][0]["checkpoints"]] == [0.0, 0.9]
    _, custom = run_json(capsys, str(inp), "--upper-bound-labels", "Steps")
    assert [c["credit"] for c in custom["models"][0]["tasks"][0]["checkpoints"]] == [1.0, 1.0]
    assert custom["options"]["upper_bound_labels"] == ["steps"]


def test_sample_inputs(capsys: pytest.CaptureFixture[str]) -> None:
    inp = SAMPLES / "checkpoint-inputs.json"
    code, _ = run_json(capsys, str(inp))
    assert code == 1  # task_04_shelter prints a bare `Planks: 14`
    code, doc = run_json(
        capsys,
        str(inp),
        "--bare-targets",
        str(SAMPLES / "bare-targets.json"),
        "--catalog",
        str(SAMPLES / "catalog.json"),
    )
    assert code == 0
    a = doc["models"][0]
    assert a["summaries"]["main"]["final"] is True
    assert a["summaries"]["augmented_v1"]["missing_tasks"] == ["task_04_shelter_v1"]
    shelter = next(t for t in a["tasks"] if t["task"] == "task_04_shelter")
    assert shelter["checkpoints"][0]["target"] == 16
    assert shelter["checkpoints"][0]["target_source"] == "bare-targets"


def test_psr_never_imports_textual(tmp_path: Path) -> None:
    import subprocess
    import sys

    inp = write(tmp_path, WORKED)
    code = (
        "import sys\n"
        "from evalview.cli import main\n"
        f"rc = main(['psr', {str(inp)!r}, {str(tmp_path / 'out.json')!r}, '--json'])\n"
        "assert rc == 0, rc\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'textual']\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["method"] == "checkpoint_fraction_v1"
    assert (tmp_path / "out.json").is_file()


@pytest.mark.parametrize(
    ("rows", "named"),
    [
        ([{"stage": "main"}], "`task`"),  # no row carried `message`: once taken for a results JSON
        ([1], "expected an object"),
    ],
)
def test_a_checkpoint_inputs_file_with_a_bad_row_names_the_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rows: list[Any], named: str
) -> None:
    code, doc = run_json(capsys, str(write(tmp_path, {"model-x": rows})))
    assert code == 1
    assert "model 'model-x', row 1" in doc["error"] and named in doc["error"]
    assert "neither a closed run nor" not in doc["error"]


def test_hostile_names_are_printed_not_interpreted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    row = {**WORKED["example-model"][0], "task": "[bold]t[/]<script>x</script>",
           "message": "[red]Logs[/]: 3/5, Kills: 0/3, All alive: True"}
    assert main(["psr", str(write(tmp_path, {"[blink]m[/]": [row]})), "--per-task"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "[blink]m[/]" in out and "[red]Logs[/]" in out
    assert "[bold]t[/]<script>x</script>" in out.replace(" ", "")


def test_pending_cce_is_reported_not_zeroed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    failed, done = WORKED["example-model"]
    waiting = {**done, "task": "task_03_iron_sword", "CCE": None}
    pending = {"example-model": [failed, done, waiting]}
    code, doc = run_json(capsys, str(write(tmp_path, pending)))
    assert code == 0
    main_split = doc["models"][0]["summaries"]["main"]
    # The mean of the two saved values; a pending score taken as 0 would give 0.6667 / 3.
    assert main_split["CCE"] == pytest.approx(0.6667 / 2)
    assert main_split["cce_scored"] == 2
    assert main_split["cce_pending_tasks"] == ["task_03_iron_sword"]
    assert main_split["SR"] == pytest.approx(2 / 3)  # pending is not a model failure
    assert doc["models"][0]["tasks"][2]["CCE"] is None
    assert main(["psr", str(write(tmp_path, pending))]) == 0
    text = capsys.readouterr().out
    assert "CCE pending" in text and "task_03_iron_sword" in text
