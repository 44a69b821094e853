"""The rules: every finding evalview can make has a stable code, a severity and a doc page.

Codes are grouped by family, like a linter's: EV1xx reading, EV2xx manifest, EV3xx episodes,
EV4xx closure (status and completeness), EV5xx summary, EV6xx publication caveats, EV8xx
benchmark-harness results (defined in `evalview.harness.rules`), EV9xx a reopened result.json
whose recorded numbers disagree with its own episodes, EV0xx Inspect AI eval logs (defined in
`evalview.load.inspect_ai.rules`), EV05x–EV06x lm-evaluation-harness output (a sub-family of
EV0xx: `evalview.load.lm_eval.rules`). A code, once
published, never changes meaning; retired codes are not reused.

This module sits below both the loader and the audit: the loader emits the reading rules (EV1xx,
defined here), the audit's checks define and emit the others (`evalview.audit.registry`).
"""

from __future__ import annotations

from dataclasses import dataclass

from evalview.findings import Finding, Severity

FAMILIES = {
    "0": "inspect ai",
    "1": "reading",
    "2": "manifest",
    "3": "episodes",
    "4": "closure",
    "5": "summary",
    "6": "publication",
    "7": "lerobot",
    "8": "benchmark harness",
    "9": "reopened result",
    # two-digit sub-families, looked up before the one-digit family
    "05": "lm-evaluation-harness",
    "06": "lm-evaluation-harness",
}


@dataclass(frozen=True, slots=True)
class Rule:
    """A registered rule. Call it to make a finding with the rule's code and severity."""

    code: str
    name: str
    severity: Severity
    summary: str

    @property
    def family(self) -> str:
        return FAMILIES.get(self.code[2:4]) or FAMILIES[self.code[2]]

    def __call__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        episode_id: str | None = None,
    ) -> Finding:
        return Finding(self.code, self.severity, message, file, line, episode_id)


RULES: dict[str, Rule] = {}

def rule(code: str, name: str, severity: Severity, summary: str) -> Rule:
    """Register a rule; codes and names must be unique."""
    if code in RULES:
        raise ValueError(f"rule {code} registered twice")
    if any(r.name == name for r in RULES.values()):
        raise ValueError(f"rule name {name} registered twice")
    if len(code) != 5 or not code.startswith("EV") or code[2] not in FAMILIES:
        raise ValueError(f"bad rule code {code}")
    registered = Rule(code, name, severity, summary)
    RULES[code] = registered
    return registered


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO  # noqa: E741

# Reading rules live here because the loader (below the audit) emits them.
FILE_MISSING = rule(
    "EV101", "file-missing", E, "A file the format requires is absent."
)
FILE_UNREADABLE = rule(
    "EV102", "file-unreadable", E, "A file exists but cannot be read (permissions, a directory)."
)
NOT_UTF8 = rule("EV103", "not-utf8", E, "A file is not valid UTF-8 (or starts with a BOM).")
INVALID_JSON = rule(
    "EV104", "invalid-json", E, "A file or line is not valid JSON (syntax error, truncated)."
)
DUPLICATE_KEY = rule(
    "EV105", "duplicate-key", E, "An object repeats a key; JSON readers disagree on which wins."
)
NONFINITE_NUMBER = rule(
    "EV106", "nonfinite-number", E, "NaN, Infinity or an overflowing number, which JSON forbids."
)
NOT_AN_OBJECT = rule(
    "EV107", "not-an-object", E, "A document or JSONL line is valid JSON but not an object."
)
SYMLINK = rule("EV108", "symlink", E, "A source file is a symbolic link; the format rejects them.")
TOO_LARGE = rule(
    "EV109", "too-large", E, "The files to read exceed the 128 MiB bound; episodes not read."
)
TOO_MANY_EPISODES = rule(
    "EV110", "too-many-episodes", E, "More than 10,000 episodes; episodes not read."
)
EMPTY_LINE = rule("EV111", "empty-line", E, "episodes.jsonl has an empty line inside it.")
TOO_DEEP = rule(
    "EV112", "nested-too-deep", E, "A JSON value is nested deeper than 128 levels; not read."
)

PROBLEM_RULES = {
    "not-utf8": NOT_UTF8,
    "invalid-json": INVALID_JSON,
    "duplicate-key": DUPLICATE_KEY,
    "nonfinite-number": NONFINITE_NUMBER,
    "too-deep": TOO_DEEP,
}

# Rules of a reopened result.json (EV9xx): made when the session audits one, by recomputing every
# number it records from the episodes it lists (stats/reaudit.py).
RESULT_NO_EPISODES = rule(
    "EV901", "result-no-episodes", E,
    "A result.json lists no episode, so none of the numbers it records can be checked.",
)
RESULT_COUNT_MISMATCH = rule(
    "EV902", "result-count-mismatch", E,
    "A count recorded in result.json differs from the count of its own episodes.",
)
RESULT_RATE_MISMATCH = rule(
    "EV903", "result-rate-mismatch", E,
    "A rate, the aggregate mean or its SE recorded in result.json differs from its episodes'.",
)
RESULT_INTERVAL_MISMATCH = rule(
    "EV904", "result-interval-mismatch", E,
    "An interval in result.json (Wilson, the aggregate's 95 %, the bootstrap) differs from its "
    "episodes', or its low end is above its high end.",
)
RESULT_TASKS_MISMATCH = rule(
    "EV905", "result-tasks-mismatch", E,
    "The tasks result.json lists differ from the tasks of its episodes.",
)
RESULT_EPISODE_INVALID = rule(
    "EV906", "result-episode-invalid", E,
    "An episode of result.json contradicts itself (a completed case without a boolean success, "
    "an error without its category, an outcome on an unattempted case).",
)
