"""Benchmark-harness results (miniVERL `BenchmarkResult`, schema 1 and 2): arms x seeds.

A neighbouring tool's results JSON, not episodes, so it has its own headless pieces: the strict
pydantic models (`evalview.model.harness`, the schema, which words its errors) and their
plain-Python check (`evalview.model.harness_plain`, what is read), the reader that detects the
file by content (`evalview.load.harness_result`), and here the rules (EV8xx), the audit of the
spec's honesty rules, the score (the harness's per-arm table plus Wilson intervals and
replicate contrasts) and the comparison of two results. The export lives with the other
exports (`evalview.report`). Never imports Textual. Submodules are imported where used.
"""
