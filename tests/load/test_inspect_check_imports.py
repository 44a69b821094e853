"""`check` of an Inspect log does only what an audit needs: it never builds the episode table
(so never imports numpy, about 0.15 s of a 0.6 s check), as `check` of a closed run does not."""

from __future__ import annotations

import subprocess
import sys

from helpers.paths import SAMPLE_RUNS

PROBE = r"""
import sys
from evalview.cli import main
try:
    main(["check", sys.argv[1], "--json"])
except SystemExit:
    pass
sys.stderr.write("NUMPY=%s\n" % ("numpy" in sys.modules))
"""


def test_check_of_an_inspect_log_never_imports_numpy() -> None:
    log = SAMPLE_RUNS / "inspect" / "os-agent-model-a.eval"
    done = subprocess.run([sys.executable, "-c", PROBE, str(log)], capture_output=True,
                          text=True, check=False)
    assert "NUMPY=False" in done.stderr, done.stderr[-2000:]
    assert '"findings"' in done.stdout  # and it did check the log
