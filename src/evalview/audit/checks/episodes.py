"""Checks of the episodes family (to be written)."""
