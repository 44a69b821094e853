"""Input bounds of the closed-result format: enforced before any data is parsed."""

MAX_EPISODES = 10_000
MAX_BYTES = 128 * 1024 * 1024
