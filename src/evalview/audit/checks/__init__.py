"""Importing this package registers every check, family by family (and every rule: the EV7xx
LeRobot rules are made by the reader, `evalview.load.lerobot`, the EV0xx Inspect AI rules by
`evalview.load.inspect_ai`)."""

import evalview.load.inspect_ai.rules  # registers EV0xx
import evalview.load.lerobot.rules  # noqa: F401  (registers EV7xx)
from evalview.audit.checks import (  # noqa: F401
    closure,
    episodes,
    manifest,
    publication,
    summary,
)
