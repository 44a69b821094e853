"""LeRobot `lerobot-eval` results (`eval_info.json`): reading, auditing (EV7xx), as `Run`s."""

from evalview.load.lerobot.reader import (
    FORMAT,
    MAX_LEROBOT_BYTES,
    MAX_LEROBOT_EPISODES,
    READER,
    load_lerobot_reads,
)

__all__ = ["FORMAT", "MAX_LEROBOT_BYTES", "MAX_LEROBOT_EPISODES", "READER", "load_lerobot_reads"]
