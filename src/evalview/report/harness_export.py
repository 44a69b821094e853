"""`evalview export` of a harness result: a sanitized result.json and a script-free index.html.

What is published: the score (the per-arm table, every read's Wilson interval, the replicate
contrasts), the controls, the findings and the harness's own caveats (the measured-not-matched
paragraph, the single-seed label). What is not: run directories (reduced to their names, as the
harness's publisher does), absolute paths, host names and user names: hardware is copied from an
allowlist (GPU name, VRAM, capability, driver, device count; OS name, release, architecture; CPU
count) and every string passes the export's scrubber, which also knows the user and host names
this file itself leaks. The source file is never written to (the destination must lie outside
its folder), and a file with audit errors is refused, as a closed run is.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

import orjson

from evalview import __version__
from evalview.findings import Finding, Severity
from evalview.harness.audit import HOME_USER, IDENTITY_KEYS
from evalview.harness.score import HarnessScore, score_harness
from evalview.load.harness_result import EXPORTED_FORMAT
from evalview.model.harness_file import HarnessFile
from evalview.model.harness_plain import BenchmarkResult
from evalview.report.destination import AuditRefused, check_destination, write_new_directory
from evalview.report.leaks import Leak, scrub_and_find_leaks
from evalview.report.sanitize import Scrubber, local_user_names
from evalview.session import HarnessSession

FORMAT = EXPORTED_FORMAT
RESULT_JSON = "result.json"
INDEX_HTML = "index.html"

_GPU_KEYS = ("available", "name", "total_memory_gib", "capability", "driver_version",
             "device_count")
_OS_KEYS = ("system", "name", "release", "machine")


@dataclass
class HarnessExported:
    destination: Path
    document: dict[str, Any]
    files: list[Path]
    redactions: int


def sanitize_hardware(hw: dict[str, Any]) -> dict[str, Any]:
    """The harness publisher's allowlist: nothing else from the environment record survives."""
    out: dict[str, Any] = {}
    gpu = hw.get("gpu")
    if isinstance(gpu, dict):
        out["gpu"] = {k: gpu[k] for k in _GPU_KEYS if k in gpu}
    os_ = hw.get("os")
    if isinstance(os_, dict):
        out["os"] = {k: os_[k] for k in _OS_KEYS if k in os_}
    elif isinstance(os_, str):
        out["os"] = os_
    if "cpu_count" in hw:
        out["cpu_count"] = hw["cpu_count"]
    return out


def _dir_name(value: str) -> str:
    """run_dir reduced to its last component, as `export-benchmark` does."""
    cleaned = value.replace("\\", "/")
    return PurePosixPath(cleaned).name or PureWindowsPath(value).name or value


def leaked_names(raw: Any) -> tuple[str, ...]:
    """User names (from home-directory paths) and host/user values this file carries."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if str(k).lower() in IDENTITY_KEYS and isinstance(v, str) and len(v) >= 3:
                    found.add(v)
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str):
            found.update(m.group(1) for m in HOME_USER.finditer(value) if len(m.group(1)) >= 3)

    walk(raw)
    return tuple(found)


def build_document(
    hf: HarnessFile, card: HarnessScore, scrubber: Scrubber, *, redact: bool = False
) -> dict[str, Any]:
    """The published result: every string scrubbed and matched against the credential shapes in
    the one pass the episode export takes (report/leaks.py), run directories reduced to names.

    Raises AuditRefused (EV606 at each value's key in the file) when a published string looks
    like a credential or a machine detail, unless `redact`: then each is replaced and listed in
    `redacted`, as for an episode read."""
    res = hf.result
    assert res is not None
    score = card.to_json()
    score["identity"]["hardware"] = sanitize_hardware(res.hardware)
    doc: dict[str, Any] = {
        "format": FORMAT,
        "generator": {"name": "evalview", "version": __version__},
        "source": {
            "format": "miniverl-benchmark-result",
            "file": hf.name,
            "schema_version": res.schema_version,
            "sha256": hashlib.sha256(hf.text.encode("utf-8")).hexdigest(),
        },
        "invocation": res.invocation,
        "run_dirs": {a.key: _dir_name(a.run_dir) for a in res.arms},
    } | {k: v for k, v in score.items() if k not in ("format", "refused", "refusals")}
    published, leaks = scrub_and_find_leaks(doc, scrubber, redact=redact)
    if leaks and not redact:
        raise AuditRefused(
            f"{hf.path}: {len(leaks)} published field value(s) look like credentials or "
            "machine details (API keys, tokens, e-mail addresses, host names, private IP "
            "addresses, stack traces); nothing was written. Remove them from the result, or "
            "pass --redact to publish them replaced (result.json and the page then list each "
            "one).",
            [_leak_finding(hf, leak) for leak in leaks],
        )
    if leaks:
        published["redacted"] = [leak.to_json() for leak in leaks]
    return published


def _leak_finding(hf: HarnessFile, leak: Leak) -> Finding:
    """EV606 at the line of the leaking key in the harness file (its field's name)."""
    from evalview.audit.checks.publication import CREDENTIAL_PUBLISHED

    article = "an" if leak.kind[0] in "AEIaei" else "a"
    return CREDENTIAL_PUBLISHED(
        f"result.json {leak.path}: the field `{leak.field}` holds a value shaped like "
        f"{article} {leak.kind}; it would be published. Remove it from the result, or export "
        "with --redact to publish it replaced.",
        file=hf.name, line=hf.key_line(leak.field) if leak.field != "key" else None,
    )


def _scrubber(hf: HarnessFile, given: Scrubber | None) -> Scrubber:
    if given is not None:
        return given
    names = set(local_user_names()) | set(leaked_names(hf.raw))
    return Scrubber(user_names=tuple(sorted(names, key=lambda n: (-len(n), n))))


def result_bytes(doc: dict[str, Any]) -> bytes:
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n"


def export_harness(
    session: HarnessSession, output_dir: str | Path, *, scrubber: Scrubber | None = None,
    redact: bool = False,
) -> HarnessExported:
    """Export the opened harness result into the new directory `output_dir`.

    Raises Refused (exit 1, nothing written): the destination exists or lies beside the source,
    or the audit found errors.
    """
    from evalview.report.harness_render import render_html

    src, dest = session.path, Path(output_dir)
    check_destination(src, dest)
    hf = session.file
    findings = session.findings
    errors = [f for f in findings if f.severity is Severity.ERROR]
    if errors or hf.result is None:
        raise AuditRefused(
            f"{src}: the audit finds {len(errors)} error(s); an inconsistent result is not "
            "exported. Fix them (see `evalview check`) and export again.", errors)
    res: BenchmarkResult = hf.result
    card = score_harness(res, findings)
    scrub = _scrubber(hf, scrubber)
    doc = build_document(hf, card, scrub, redact=redact)
    payload = {RESULT_JSON: result_bytes(doc), INDEX_HTML: render_html(doc).encode("utf-8")}
    written = write_new_directory(dest, payload)
    return HarnessExported(dest, doc, written, scrub.redactions)


_ID = re.compile(r"[^a-z0-9-]+")


def anchor(name: str) -> str:
    """An HTML id for an arm name."""
    return "arm-" + _ID.sub("-", name.lower()).strip("-")
