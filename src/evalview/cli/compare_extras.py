"""`evalview compare`'s parts for some reads only: groups, graded tasks, the sample level.

Only formatting; the numbers are `evalview.compare.paired` and `evalview.compare.resampled`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich import box
from rich.table import Table

from evalview.cli.output import console, escape, pct
from evalview.fmt import points

if TYPE_CHECKING:
    from evalview.compare.paired import Comparison, PairedCounts


def _p(t: PairedCounts, p: float) -> str:
    if not t.pairs:
        return "—"
    return f"{p:.3g}" if p >= 0.001 else f"{p:.1e}"


def show_extras(c: Comparison) -> None:
    """The table by group (`--group-by`), each graded task's bootstrap, the sample level."""
    out = console()
    if c.group_key is not None and c.groups:
        table = Table(
            title=f"by {c.group_key}: pairs, rates, B − A, McNemar mid-p and the mid-p adjusted "
            f"for the {len(c.groups)} groups (Holm; Benjamini–Hochberg)",
            title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
        )
        table.add_column(escape(c.group_key), overflow="fold",
                         min_width=min(16, max(len(g.task) for g in c.groups)))
        for name in ("pairs", "A", "B", "B − A pt", "mid-p", "Holm", "BH"):
            table.add_column(name, justify="right", no_wrap=True)
        for g in c.groups:
            adj = g.adjusted
            table.add_row(
                escape(g.task), str(g.pairs), pct(g.rate_a), pct(g.rate_b),
                points(g.difference, unit=""), _p(g, g.mcnemar_midp),
                "—" if adj is None else _p(g, adj.holm),
                "—" if adj is None else _p(g, adj.benjamini_hochberg),
            )
        out.print(table)
        for g in c.groups:
            if g.verdict.code in ("a_better", "b_better"):
                out.print(f"  {escape(c.group_key)} {escape(g.task)}: {escape(g.verdict.text)}")
    for gp in c.graded:
        metric = f" {gp.metric}" if gp.metric else ""
        out.print(
            f"[bold]graded[/] {escape(gp.task)}{escape(metric)} (not 0/1 per document): mean A "
            f"{gp.mean_a:.4g}, B {gp.mean_b:.4g}; {escape(gp.text)}. [dim]A paired bootstrap "
            "over the documents, not McNemar: the metric has no success per document.[/]"
        )
    if c.sample_level is not None:
        out.print(f"[bold]sample level[/]: {escape(c.sample_level.text)}")
