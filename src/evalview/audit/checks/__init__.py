"""Importing this package registers every check, family by family (and the EV8xx harness rules,
which `evalview.harness.audit` runs on harness results rather than on closed runs)."""

from evalview.audit.checks import (  # noqa: F401
    closure,
    episodes,
    manifest,
    publication,
    summary,
)
from evalview.harness import rules as _harness_rules  # noqa: F401
