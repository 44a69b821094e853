"""LeRobot `lerobot-eval` results (`eval_info.json`): reading, auditing (EV7xx), as `Run`s."""

from evalview.load.lerobot.reader import (
    MAX_LEROBOT_BYTES,
    MAX_LEROBOT_EPISODES,
    load_lerobot,
    load_lerobot_reads,
)

__all__ = ["MAX_LEROBOT_BYTES", "MAX_LEROBOT_EPISODES", "load_lerobot", "load_lerobot_reads"]
