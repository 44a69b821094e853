"""Checks of the publication family (to be written)."""
