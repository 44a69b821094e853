"""Benchmark-harness results (miniVERL `BenchmarkResult`, schema 1 and 2): arms x seeds.

A neighbouring tool's results JSON, not episodes, so it has its own headless model: `models`
(strict pydantic), `read` (detection by content), `rules` (EV8xx), `audit` (the spec's honesty
rules), `score` (the harness's per-arm table plus Wilson intervals and replicate contrasts).
Never imports Textual. Submodules are imported where used, so registering the rules (which the
closed-run audit does) costs no pydantic model build.
"""
