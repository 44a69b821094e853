"""model/result_plain.py, the export's check of result.json without pydantic, against the pydantic
`Result` model it stands in front of.

What must hold (the export relies on it): a document the plain check accepts is one
`Result.from_json` accepts, with the very values of its `model_dump()` (types included: 1, 1.0
and True differ), and so the same result.json bytes and the same page. What it refuses goes to
pydantic, so it may only refuse what pydantic refuses too, or the export would lose its speed
(never its checks): the mutations below also show the two refuse the same documents. The field
lists are compared with the models', so a field added to one and not the other fails here.
"""

from __future__ import annotations

import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError
from report_runs import EXAMPLE, hostile_run

from evalview.model import result as models
from evalview.model import result_plain as plain
from evalview.model.result import Result
from evalview.report.builder import validated
from evalview.report.export import document_bytes, export_run, result_bytes
from evalview.report.render import render_html

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_runs"

#: The plain field lists beside the models they mirror.
PAIRS: list[tuple[type[BaseModel], dict[str, Any]]] = [
    (models.Generator, plain.GENERATOR),
    (models.Benchmark, plain.BENCHMARK),
    (models.Policy, plain.POLICY),
    (models.MethodComponent, plain.METHOD_COMPONENT),
    (models.Method, plain.METHOD),
    (models.ProtocolDeclaration, plain.PROTOCOL),
    (models.Denominator, plain.DENOMINATOR),
    (models.Counts, plain.COUNTS),
    (models.Rates, plain.RATES),
    (models.Aggregate, plain.AGGREGATE),
    (models.TaskResult, plain.TASK_RESULT),
    (models.AuditNote, plain.AUDIT_NOTE),
    (models.Episode, plain.EPISODE),
    (models.Redaction, plain.REDACTION),
    (models.Result, {**plain.RESULT, **plain.RESULT_OPTIONAL}),
]


def same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (so 1, 1.0 and True are three values)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b) or (a != a and b != b)


def by_pydantic(text: bytes) -> dict[str, Any] | None:
    try:
        return Result.from_json(text).model_dump()
    except ValidationError:
        return None


def exported_texts(tmp: Path) -> Iterator[tuple[str, bytes]]:
    """result.json of every sample the export accepts, and of the hostile example."""
    inputs = [EXAMPLE, hostile_run(tmp / "hostile")]
    inputs += sorted(p for p in SAMPLES.glob("*") if p.is_dir() and (p / "manifest.json").exists())
    inputs += sorted(SAMPLES.glob("lerobot/*.json")) + sorted(SAMPLES.glob("inspect/*.eval"))
    inputs += sorted(p for p in SAMPLES.glob("lm-eval/*") if p.is_dir())
    for i, src in enumerate(inputs):
        for metrics in ((), ("score", "steps")):
            out = tmp / f"out-{i}-{len(metrics)}"
            try:
                export_run(src, out, bootstrap=200, metrics=metrics)
            except Exception:  # refused, or a file of several reads: not this test's business
                continue
            yield src.name, (out / "result.json").read_bytes()


@pytest.fixture(scope="module")
def texts(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, bytes]]:
    found = list(exported_texts(tmp_path_factory.mktemp("plain")))
    assert len({name for name, _ in found}) >= 5  # closed runs, LeRobot, Inspect, lm-eval
    return found


@pytest.mark.parametrize(("model", "fields"), PAIRS, ids=[m.__name__ for m, _ in PAIRS])
def test_field_lists_are_the_models(model: type[BaseModel], fields: dict[str, Any]) -> None:
    assert list(fields) == list(model.model_fields)
    required = [k for k, f in model.model_fields.items() if f.is_required()]
    assert required == [k for k in fields if k not in plain.RESULT_OPTIONAL]


def test_literals_are_the_models() -> None:
    assert typing.get_args(Result.model_fields["source_format"].annotation) == plain.SOURCE_FORMATS
    assert typing.get_args(models.ErrorCategory) == plain.ERROR_CATEGORIES
    assert plain.SCHEMA_VERSION == models.SCHEMA_VERSION == "evalview.result/v1"


def test_every_export_is_accepted_with_pydantics_values(texts: list[tuple[str, bytes]]) -> None:
    for name, text in texts:
        ours = plain.check(orjson.loads(text))
        model = Result.from_json(text)
        assert ours is not None, name
        assert same(ours, model.model_dump()), name
        assert document_bytes(ours) == result_bytes(model) == text, name
        assert render_html(ours) == render_html(model), name
        assert same(validated(text), ours)


#: Values put in place of every node of a valid document: every JSON type, the edges of counts
#: and fractions, integers in float fields, each literal of the schema, short and long arrays.
REPLACEMENTS: list[Any] = [
    None, True, False, 0, 1, -1, 2, 0.0, -0.0, 0.5, 1.0, 1.5, -0.5, 1e300, 2**53, 2**53 + 1,
    -(2**63), 2**64 - 1, "", "x", "0.5", "evalview", "policy", "selected", "warning",
    "completed", plain.SCHEMA_VERSION, plain.SOURCE_FORMAT, "lm-eval/results", [], [0.1],
    [0.1, 0.2], [0, 1], [0.2, 1.5], [True, 0.5], [0.1, 0.2, 0.3], ["x"], [None], {}, {"a": 1},
    {"policy": 1}, {"policy": -1}, {"nope": 1}, {"policy": 1.0}, {"id": "x"},
]


def paths(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:2]):  # the first two items stand for the rest
            yield from paths(v, (*at, i))


def put(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    out = orjson.loads(orjson.dumps(doc))
    node = out
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return out


def mutations(doc: dict[str, Any]) -> Iterator[Any]:
    yield doc
    yield {**doc, "redacted": None}
    yield {**doc, "redacted": [{"path": "$.run_id", "field": "run_id", "kind": "API key"}]}
    yield {**doc, "redacted": [{"path": "$.run_id", "field": "run_id"}]}
    for path in paths(doc):
        if not path:
            continue
        for value in REPLACEMENTS:
            yield put(doc, path, value)
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        if isinstance(parent, dict):  # the key missing, and an extra key beside it
            removed = orjson.loads(orjson.dumps(doc))
            node = removed
            for step in path[:-1]:
                node = node[step]
            del node[path[-1]]
            yield removed
            yield put(doc, (*path[:-1], "extra_key"), None)
        else:  # a list one shorter and one longer
            yield put(doc, path[:-1], parent[:-1])
            yield put(doc, path[:-1], [*parent, parent[-1]])


def small(text: bytes) -> dict[str, Any]:
    """A valid document with few episodes, tasks and warnings (the mutations stay quick)."""
    doc: dict[str, Any] = orjson.loads(text)
    for key in ("episodes", "tasks", "audit_warnings"):
        doc[key] = doc[key][:4]
    return doc


def agree(doc: Any) -> None:
    text = orjson.dumps(doc)
    ours = plain.check(orjson.loads(text))
    theirs = by_pydantic(text)
    if ours is not None:  # what the export relies on
        assert theirs is not None and same(ours, theirs), doc
        assert document_bytes(ours) == result_bytes(Result.from_json(text))
    else:  # refused here: refused by pydantic too, unless a big integer in a float field
        assert theirs is None or _holds_an_inexact_integer(doc), doc


def _holds_an_inexact_integer(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_holds_an_inexact_integer(v) for v in value.values())
    if isinstance(value, list):
        return any(_holds_an_inexact_integer(v) for v in value)
    return type(value) is int and abs(value) > 2**53


def test_mutations_of_every_field_are_judged_as_pydantic_judges(
    texts: list[tuple[str, bytes]],
) -> None:
    count = 0
    one_each: dict[str, dict[str, Any]] = {}  # each format's document, with metrics if any
    for _name, text in texts:
        doc = small(text)
        if doc["metrics_selected"] or doc["source_format"] not in one_each:
            one_each[doc["source_format"]] = doc
    assert len(one_each) >= 4
    for doc in one_each.values():
        for mutated in mutations(doc):
            agree(mutated)
            count += 1
    assert count > 20_000


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=4)
    | st.sampled_from(REPLACEMENTS[16:]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                 max_size=3),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_values_anywhere(data: st.DataObject, texts: list[tuple[str, bytes]]) -> None:
    doc = small(data.draw(st.sampled_from(texts))[1])
    all_paths = [p for p in paths(doc) if p]
    path = data.draw(st.sampled_from(all_paths))
    agree(put(doc, path, data.draw(JSON)))


def test_what_the_plain_check_refuses_is_worded_by_pydantic(
    texts: list[tuple[str, bytes]],
) -> None:
    doc = small(texts[0][1])
    doc["counts"]["selected"] = -1
    with pytest.raises(ValidationError, match=r"counts\.selected"):
        validated(orjson.dumps(doc))
    with pytest.raises(ValidationError):
        validated(b"{not json")


def test_an_export_builds_no_pydantic_model(tmp_path: Path) -> None:
    """The point of the plain check: a fresh process exports without importing pydantic."""
    import subprocess

    code = (
        "import sys\n"
        "from evalview.report.export import export_run\n"
        f"done = export_run({str(EXAMPLE)!r}, {str(tmp_path / 'out')!r}, bootstrap=50)\n"
        "assert 'pydantic' not in sys.modules, sorted(m for m in sys.modules if 'pydantic' in m)\n"
        "assert done.result.counts.selected == done.document['counts']['selected']\n"
        "assert 'pydantic' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
