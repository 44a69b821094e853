"""docs/rules.md documents every registered rule: name, severity, a failing example and the fix."""

from __future__ import annotations

import re

import pytest

# The readers register their rules when they are imported, and the registry imports a reader
# only for its own inputs: import every rule-defining module so RULES is whole here.
import evalview.audit.checks
import evalview.harness.rules
import evalview.load.lm_eval.rules
import evalview.load.task_results  # noqa: F401
from evalview.audit import RULES
from helpers.paths import REPO

DOC = REPO / "docs" / "rules.md"


def _sections() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^### (EV\d{3}) ", text, flags=re.MULTILINE)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def test_no_documented_code_is_unregistered() -> None:
    assert set(_sections()) - set(RULES) == set()


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_is_documented(code: str) -> None:
    sections = _sections()
    assert code in sections, f"{code} has no entry in docs/rules.md"
    body = sections[code]
    rule = RULES[code]
    assert body.startswith(f"{rule.name}\n"), f"{code}: heading must read '### {code} {rule.name}'"
    assert f"*{rule.severity.value}*" in body, f"{code}: severity not stated as {rule.severity}"
    assert "**Failing example:**" in body and "**Fix:**" in body
