"""Checks of the manifest family (to be written)."""
