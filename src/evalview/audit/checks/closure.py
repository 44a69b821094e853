"""Checks of the closure family (to be written)."""
