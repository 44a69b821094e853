"""Small Inspect AI logs built in code, as Inspect writes them (the sample generator's pieces),
for the reader's tests: a log of N samples x E epochs whose outcomes the test chooses."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evalview.samples import inspect_ai as G


def small_log(
    values: list[list[str | None]],
    *,
    errors: dict[tuple[int, int], str] | None = None,
    limits: dict[tuple[int, int], str] | None = None,
) -> G.InspectLog:
    """values[i][e]: sample i+1's value at epoch e+1 ("C", "I", or None: errored). `errors`
    names the exception of an errored (sample, epoch); `limits` the limit a sample hit."""
    n, epochs = len(values), len(values[0])
    samples = G.task_samples(n)
    outs = []
    for s, row in zip(samples, values, strict=True):
        for e, v in enumerate(row, 1):
            err = (errors or {}).get((s.id, e), "RuntimeError") if v is None else None
            outs.append(G.Outcome(s, e, v, err, (limits or {}).get((s.id, e)), 8, 9000))
    rng = random.Random(1)
    docs = [G.sample_doc(o, "mockllm/test", rng) for o in outs]
    results, reductions = G.results_of(outs)
    header = G.header_doc("mockllm/test", "EvalIdTest0000000000000", "RunTest0", samples, results)
    header["eval"]["config"]["epochs"] = epochs
    return G.InspectLog(header, docs, reductions)


def edited(log: G.InspectLog, edit: Callable[[G.InspectLog], None]) -> G.InspectLog:
    """A deep copy of `log` with `edit` applied (the header, samples and reductions)."""
    copied = G.InspectLog(copy.deepcopy(log.header), copy.deepcopy(log.samples),
                          copy.deepcopy(log.reductions))
    edit(copied)
    return copied


def write(log: G.InspectLog, path: Path, fmt: str = "eval", *, zstd: bool = False) -> Path:
    """The log at `path` as a .eval (deflate or zstd) or a .json."""
    if fmt == "eval":
        return G.write_eval(log, path, zstd=zstd)
    return G.write_json(log, path)


def metric(log: G.InspectLog, name: str = "accuracy") -> dict[str, Any]:
    metrics: dict[str, Any] = log.header["results"]["scores"][0]["metrics"]
    return metrics[name]  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Done:
    code: int
    stdout: str
    stderr: str

    @property
    def json(self) -> Any:
        return json.loads(self.stdout)

    @property
    def text(self) -> str:
        return " ".join(f"{self.stdout}\n{self.stderr}".split())


def run_cli(args: list[Any]) -> Done:
    """`evalview ARGS` in this process, stdout and stderr captured."""
    from evalview.cli import main

    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
        out.flush()
    assert isinstance(out.buffer, io.BytesIO)
    return Done(code, out.buffer.getvalue().decode("utf-8"), err.getvalue())
