"""Importing this package registers every check, family by family (and every rule: the EV7xx
LeRobot rules are made by the reader, `evalview.load.lerobot`, the EV0xx Inspect AI rules by
`evalview.load.inspect_ai`, EV05x-EV06x by `evalview.load.lm_eval`: their rule modules are
imported here, not their readers, which the registry imports only for their own inputs)."""

import evalview.load.inspect_ai.rules  # registers EV0xx
import evalview.load.lerobot.rules
import evalview.load.lm_eval.rules  # registers EV05x-EV06x
from evalview.audit.checks import (  # noqa: F401
    closure,
    episodes,
    manifest,
    publication,
    summary,
)
