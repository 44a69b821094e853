"""Checks of the summary family (to be written)."""
