"""Comparing reads: paired tests of two reads, replicate contrasts, and power (issue 7).

Headless: nothing here imports Textual. The CLI (`compare`, `contrast`, `power`) and the TUI's
compare screen only format what these modules compute.
"""
