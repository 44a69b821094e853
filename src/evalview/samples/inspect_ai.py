"""Inspect AI eval log samples (`sample_runs/inspect/`): an agent task, two models, both formats.

Realistic, synthetic and deterministic (seeded `random.Random`, fixed timestamps, fixed zip
dates): a 200-sample, 3-epoch agent task (`os_agent`: a shell tool in a sandbox, scored by
`includes`), run by two models on the same samples, each written as Inspect writes a log, as a
`.eval` zip (start.json, the sample members in completion order, journal summaries per flush,
summaries.json, reductions.json, header.json) and as a `.json` document. Some samples error (a
sandbox or API failure: `error` with a traceback, no score), some hit the message or token limit
(scored, mostly incorrect); every metric and count in `results` is computed as Inspect computes it
(the implicit mean reducer over epochs, accuracy and stderr over the samples scored, errored ones
left out). The two models' outcomes share each sample's difficulty, so they are correlated the way
paired evaluations are.

`write_zip` is a small zip writer (deflate, or zstd as current Inspect writes): the tests build
hostile logs with it too. No numpy: the arithmetic is the few lines Inspect's metrics are.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

INSPECT_DIR = "inspect"
TASK = "os_agent"
SAMPLES = 200
EPOCHS = 3
#: (file stem, model, ability, eval id, run id): the two models of the sample.
MODELS = (
    ("os-agent-model-a", "mockllm/agent-a", 0.15, "Cq3xWdV8nYh2Lk5Rt7Pm9s", "a1RunK2m"),
    ("os-agent-model-b", "mockllm/agent-b", 0.55, "Fz6bNp4Qw8Hj3Td5Xv2Ly7", "b2RunZ9x"),
)
CATEGORIES = ("files", "processes", "networking", "permissions", "packages")
MESSAGE_LIMIT = 30
TOKEN_LIMIT = 60_000
#: A fixed zip date (the generator never reads the clock).
ZIP_DATE = (2026, 1, 15, 10, 0, 0)

FILES = {
    "os-agent-model-a.eval": "model A, `.eval` (zip, deflate): 200 samples × 3 epochs, errored "
    "and limit-hit samples",
    "os-agent-model-b.eval": "model B on the same 200 samples × 3 epochs, `.eval`",
}


# -- a zip writer (deflate or zstd), as small as Inspect's logs need ------------------------


def _dos_time(date: tuple[int, int, int, int, int, int]) -> tuple[int, int]:
    y, mo, d, h, mi, s = date
    return (h << 11) | (mi << 5) | (s // 2), ((y - 1980) << 9) | (mo << 5) | d


def write_zip(
    path: Path, members: Sequence[tuple[str, bytes]], *, zstd: bool = False,
    date: tuple[int, int, int, int, int, int] = ZIP_DATE,
) -> None:
    """A zip of `members` in order (a name may repeat, as a re-logged sample does), deflate or
    zstd (method 93), byte-identical for identical input."""
    if zstd:
        import zstandard

        cctx = zstandard.ZstdCompressor(level=3, write_checksum=False, write_content_size=True)
    tm, dt = _dos_time(date)
    body = bytearray()
    central = bytearray()
    for name, data in members:
        raw_name = name.encode("utf-8")
        if zstd:
            packed, method = cctx.compress(data), 93
        else:
            comp = zlib.compressobj(6, zlib.DEFLATED, -15)
            packed, method = comp.compress(data) + comp.flush(), 8
        crc = zlib.crc32(data)
        offset = len(body)
        body += struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 63 if zstd else 20, 0x800, method,
                            tm, dt, crc, len(packed), len(data), len(raw_name), 0)
        body += raw_name + packed
        central += struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 0x0300 | 63,
                               63 if zstd else 20, 0x800, method, tm, dt, crc, len(packed),
                               len(data), len(raw_name), 0, 0, 0, 0, 0o100644 << 16, offset)
        central += raw_name
    end = struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(members), len(members),
                      len(central), len(body), 0)
    path.write_bytes(bytes(body + central + end))


def dumps(value: Any, indent: int | None = None) -> bytes:
    """JSON as Inspect writes it (NaN as the bare token, as pydantic's constants mode does)."""
    return json.dumps(value, indent=indent, ensure_ascii=False).encode("utf-8")


# -- the task and its samples --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TaskSample:
    id: int
    category: str
    difficulty: float
    question: str
    answer: str


def task_samples(n: int = SAMPLES, seed: int = 26) -> list[TaskSample]:
    rng = random.Random(seed)
    out = []
    for i in range(1, n + 1):
        category = CATEGORIES[(i - 1) % len(CATEGORIES)]
        answer = f"{rng.randrange(10**5, 10**6)}"
        out.append(TaskSample(
            id=i, category=category, difficulty=rng.gauss(0.0, 1.2),
            question=f"Read /srv/t{i:03d}/value ({category}).",
            answer=answer,
        ))
    return out


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


@dataclass
class Outcome:
    """One sample-epoch of one model: scored C or I, or errored, perhaps after a limit."""

    sample: TaskSample
    epoch: int
    value: str | None  # "C", "I", or None (errored: no score)
    error: str | None
    limit: str | None
    messages: int
    tokens: int


_ERRORS = (
    ("RuntimeError", "sandbox exec failed: container exited with code 137"),
    ("TimeoutError", "model API call timed out after 120 s"),
    ("ConnectionError", "connection reset by peer while reading the model response"),
)


def outcomes(samples: list[TaskSample], ability: float, seed: int) -> list[Outcome]:
    """Every sample-epoch of one model. Errors and limits are rarer for the abler model."""
    rng = random.Random(seed)
    out = []
    for s in samples:
        for epoch in range(1, EPOCHS + 1):
            p = _sigmoid(ability - s.difficulty + rng.gauss(0.0, 0.6))
            roll = rng.random()
            messages = rng.randrange(6, 24)
            tokens = rng.randrange(4_000, 40_000)
            if roll < 0.035:
                kind, _msg = _ERRORS[rng.randrange(len(_ERRORS))]
                out.append(Outcome(s, epoch, None, kind, None, messages, tokens))
            elif roll < 0.085:
                limit = "message" if rng.random() < 0.6 else "token"
                value = "C" if rng.random() < 0.15 else "I"
                m = MESSAGE_LIMIT if limit == "message" else messages
                t = TOKEN_LIMIT if limit == "token" else tokens
                out.append(Outcome(s, epoch, value, None, limit, m, t))
            else:
                value = "C" if rng.random() < p else "I"
                out.append(Outcome(s, epoch, value, None, None, messages, tokens))
    return out


def _uuid(rng: random.Random) -> str:
    alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    return "".join(rng.choice(alphabet) for _ in range(22))


def sample_doc(o: Outcome, model: str, rng: random.Random) -> dict[str, Any]:
    """One EvalSample as Inspect writes it (a short transcript: the tool call and its result)."""
    s = o.sample
    said = s.answer if o.value == "C" else f"{int(s.answer) + 7}"
    call_id = f"call_{_uuid(rng)[:10]}"
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": s.question},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": call_id, "function": "bash", "arguments": {"cmd": f"cat /srv/t{s.id:03d}"}}]},
        {"role": "tool", "content": said, "tool_call_id": call_id},
    ]
    answer = said
    if o.error is None:
        messages.append({"role": "assistant", "content": answer})
    usage = {"input_tokens": o.tokens - 300, "output_tokens": 300, "total_tokens": o.tokens}
    doc: dict[str, Any] = {
        "id": s.id,
        "epoch": o.epoch,
        "input": s.question,
        "target": s.answer,
        "messages": messages,
        "output": {"model": model.split("/", 1)[1], "choices": [] if o.error else [
            {"message": messages[-1], "stop_reason": "stop"}]},
        "metadata": {"category": s.category,
                     "difficulty": "hard" if s.difficulty > 0.8 else "easy"
                     if s.difficulty < -0.8 else "medium"},
        "model_usage": {model: usage},
        "total_time": round(5 + o.messages * 1.7, 1),
        "uuid": _uuid(rng),
    }
    if o.value is not None:
        doc["scores"] = {"includes": {"value": o.value, "answer": answer}}
    if o.limit is not None:
        doc["limit"] = {"type": o.limit,
                        "limit": MESSAGE_LIMIT if o.limit == "message" else TOKEN_LIMIT}
    if o.error is not None:
        kind = o.error
        message = dict(_ERRORS)[kind]
        trace = f"Traceback (most recent call last):\n  ...\n{kind}: {message}\n"
        doc["error"] = {"message": f"{kind}('{message}')", "traceback": trace,
                        "traceback_ansi": trace}
    return doc


def summary_doc(doc: dict[str, Any]) -> dict[str, Any]:
    """EvalSampleSummary of a sample (what summaries.json lists)."""
    out: dict[str, Any] = {
        "id": doc["id"], "epoch": doc["epoch"], "input": doc["input"], "target": doc["target"],
        "metadata": doc["metadata"],
    }
    if "scores" in doc:
        out["scores"] = doc["scores"]
    out |= {"total_time": doc["total_time"], "uuid": doc["uuid"]}
    if "error" in doc:
        out["error"] = doc["error"]["message"]
    if "limit" in doc:
        out["limit"] = doc["limit"]["type"]
    out |= {"completed": True, "message_count": len(doc["messages"])}
    return out


def results_of(outs: list[Outcome]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """`results` and `reductions` as Inspect computes them: each sample's epochs reduced by the
    mean (of value_to_float: C 1, I 0), accuracy = their mean and stderr = their SD (ddof 1) over
    sqrt(n), over the samples scored; an errored sample-epoch has no score and is left out."""
    by_sample: dict[int, list[float]] = {}
    for o in outs:
        if o.value is not None:
            by_sample.setdefault(o.sample.id, []).append(1.0 if o.value == "C" else 0.0)
    reduced = {sid: statistics.mean(v) for sid, v in by_sample.items()}
    values = list(reduced.values())
    n = len(values)
    accuracy = sum(values) / n
    stderr = statistics.stdev(values) / math.sqrt(n)
    total = len(outs)
    completed = sum(1 for o in outs if o.error is None)
    results = {
        "total_samples": total,
        "completed_samples": completed,
        "scores": [{
            "name": "includes", "scorer": "includes", "scored_samples": n,
            "unscored_samples": 0, "params": {},
            "metrics": {
                "accuracy": {"name": "accuracy", "value": accuracy, "params": {}},
                "stderr": {"name": "stderr", "value": stderr, "params": {}},
            },
        }],
    }
    reductions = [{"scorer": "includes", "samples": [
        {"value": v, "sample_id": sid} for sid, v in reduced.items()]}]
    return results, reductions


def header_doc(model: str, eval_id: str, run_id: str, samples: list[TaskSample],
               results: dict[str, Any] | None, status: str = "success") -> dict[str, Any]:
    model_usage = {model: {"input_tokens": 1_840_211, "output_tokens": 180_000,
                           "total_tokens": 2_020_211}}
    return {
        "version": 2,
        "status": status,
        "eval": {
            "eval_id": eval_id,
            "run_id": run_id,
            "created": "2026-01-15T10:00:00+00:00",
            "task": TASK,
            "task_id": "P4sWm8Kq2Nv6Xt3Zb9Hd5r",
            "task_version": 1,
            "task_file": "tasks/os_agent.py",
            "task_attribs": {},
            "task_args": {},
            "solver": "react",
            "solver_args": {"tools": ["bash"]},
            "dataset": {"name": "os_agent", "location": "tasks/os_agent.jsonl",
                        "samples": len(samples), "sample_ids": [s.id for s in samples],
                        "shuffled": False},
            "sandbox": {"type": "docker", "config": "compose.yaml"},
            "model": model,
            "model_generate_config": {"max_tokens": 2048, "temperature": 0.7},
            "model_base_url": "http://10.1.2.3:8000/v1",
            "model_args": {"organization": "example-lab", "timeout": 120},
            "config": {"epochs": EPOCHS, "fail_on_error": False, "message_limit": MESSAGE_LIMIT,
                       "token_limit": TOKEN_LIMIT, "sandbox_cleanup": True,
                       "log_samples": True, "log_realtime": True, "log_images": True},
            "revision": {"type": "git", "origin": "https://example.org/lab/agent-evals.git",
                         "commit": "3f2c9ab"},
            "packages": {"inspect_ai": "0.3.140"},
            "scorers": [{"name": "includes", "options": {}, "metrics": [
                {"name": "inspect_ai/accuracy", "options": {}},
                {"name": "inspect_ai/stderr", "options": {}}], "metadata": {}}],
        },
        "plan": {"name": "plan", "steps": [{"solver": "react", "params": {"tools": ["bash"]}}],
                 "config": {"max_connections": 10}},
        **({"results": results} if results is not None else {}),
        "stats": {"started_at": "2026-01-15T10:00:00+00:00",
                  "completed_at": "2026-01-15T11:42:17+00:00", "model_usage": model_usage},
    }


@dataclass(frozen=True)
class InspectLog:
    """One model's log, ready to write in either format."""

    header: dict[str, Any]
    samples: list[dict[str, Any]]  # in completion order
    reductions: list[dict[str, Any]] | None


def build_log(stem: str, model: str, ability: float, eval_id: str, run_id: str) -> InspectLog:
    samples = task_samples()
    outs = outcomes(samples, ability, seed=hash_seed(stem))
    rng = random.Random(hash_seed(stem) + 1)
    docs = [sample_doc(o, model, rng) for o in outs]
    rng.shuffle(docs)  # completion order: samples run concurrently
    results, reductions = results_of(outs)
    return InspectLog(header_doc(model, eval_id, run_id, samples, results), docs, reductions)


def hash_seed(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


def eval_members(log: InspectLog, *, flush_every: int = 100) -> list[tuple[str, bytes]]:
    """The members of the .eval, in the order Inspect's ZipLogFile writes them."""
    start = {k: log.header[k] for k in ("version", "eval", "plan")}
    members = [("_journal/start.json", dumps(start))]
    for i in range(0, len(log.samples), flush_every):
        batch = log.samples[i : i + flush_every]
        for doc in batch:
            members.append((f"samples/{doc['id']}_epoch_{doc['epoch']}.json", dumps(doc)))
        members.append((f"_journal/summaries/{i // flush_every + 1}.json",
                        dumps([summary_doc(d) for d in batch])))
    members.append(("summaries.json", dumps([summary_doc(d) for d in log.samples])))
    if log.reductions is not None:
        members.append(("reductions.json", dumps(log.reductions)))
    members.append(("header.json", dumps(log.header, indent=2)))
    return members


def write_eval(log: InspectLog, path: Path, *, zstd: bool = False) -> Path:
    write_zip(path, eval_members(log), zstd=zstd)
    return path


def json_document(log: InspectLog) -> dict[str, Any]:
    """The .json log: the header's keys, then the samples (sorted as Inspect sorts them: by
    epoch, then id) and the reductions."""
    ordered = sorted(log.samples, key=lambda d: (d["epoch"], str(d["id"]).zfill(20)))
    doc = dict(log.header)
    doc["samples"] = ordered
    if log.reductions is not None:
        doc["reductions"] = log.reductions
    return doc


def write_json(log: InspectLog, path: Path) -> Path:
    path.write_bytes(dumps(json_document(log), indent=2))
    return path


def write_inspect_samples(out_dir: Path, formats: tuple[str, ...] = ("eval",)) -> list[Path]:
    """Both models' logs under `out_dir` (made if absent), in `formats` ("eval", "json").

    sample_runs/ holds the `.eval` files only: the `.json` twins (the same logs, 0.9 MB each
    with Inspect's indent) are written on demand (`python -m evalview.samples DIR --inspect`)
    and by the tests, to keep the committed samples small."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for stem, model, ability, eval_id, run_id in MODELS:
        log = build_log(stem, model, ability, eval_id, run_id)
        if "eval" in formats:
            written.append(write_eval(log, out_dir / f"{stem}.eval"))
        if "json" in formats:
            written.append(write_json(log, out_dir / f"{stem}.json"))
    return written


def readme_section() -> list[str]:
    lines = [
        f"## `{INSPECT_DIR}/`",
        "",
        f"Inspect AI eval logs (see `docs/inspect.md`): an agent task ({TASK}: a bash tool in a "
        f"sandbox, scored by `includes`), {SAMPLES} samples × {EPOCHS} epochs, two models on the "
        "same samples, each log in both of Inspect's formats. Some samples error (pending a "
        "re-run), some hit the message or token limit. The data is synthetic.",
        "",
        "| file | what it is |",
        "| --- | --- |",
    ]
    lines += [f"| {name} | {what} |" for name, what in FILES.items()]
    lines += [
        "",
        "The same two logs as `.json` documents (0.9 MB each, so not committed): "
        "`python -m evalview.samples DIR --inspect` writes all four into DIR.",
        "",
        "```sh",
        f"evalview check sample_runs/{INSPECT_DIR}/",
        f"evalview score sample_runs/{INSPECT_DIR}/os-agent-model-a.eval --allow-errors",
        f"evalview compare sample_runs/{INSPECT_DIR}/os-agent-model-a.eval "
        f"sample_runs/{INSPECT_DIR}/os-agent-model-b.eval --allow-errors",
        "```",
        "",
    ]
    return lines
