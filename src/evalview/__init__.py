"""evalview: audit, score and publish evaluation runs of robot and AI policies."""

__version__ = "0.1.0"
