"""Inspect AI eval logs (`.eval` zip, `.json`): reading, auditing (EV0xx), as `Run`s."""

from evalview.load.inspect_ai.reader import FORMAT, MAX_SAMPLES, READER, read_log

__all__ = ["FORMAT", "MAX_SAMPLES", "READER", "read_log"]
