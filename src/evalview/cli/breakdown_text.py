"""The breakdowns of `evalview score` as text: by a grouping, per repeated sample, other scorers.

Only formatting; the numbers are `evalview.stats.breakdown`'s, as `score --json` prints them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.table import Table

from evalview.cli.output import escape, pct
from evalview.fmt import pct_range, ratio

if TYPE_CHECKING:
    from rich.console import Console

    from evalview.stats import Scorecard
    from evalview.stats.breakdown import Breakdown


def print_breakdowns(out: Console, card: Scorecard) -> None:
    """Other scorers, the per-sample summary and the table by group, when the card has them."""
    for o in card.other_scorers:
        out.print(f"other scorer [bold]{escape(o.name)}[/]: {escape(o.words())}")
    if card.samples is not None:
        print_samples(out, card.samples)
    if card.groups is not None:
        out.print()
        out.print(group_table(card.groups))


def print_samples(out: Console, b: Breakdown) -> None:
    """How the samples' epochs agree (the per-sample Wilson intervals are in --json)."""
    rows = b.rows
    every = sum(1 for t in rows if t.selected and t.successes == t.selected)
    none = sum(1 for t in rows if t.successes == 0)
    sizes = sorted({t.selected for t in rows})
    epochs = str(sizes[0]) if len(sizes) == 1 else f"{sizes[0]}-{sizes[-1]}"
    out.print(
        f"per sample ({epochs} epochs each): {len(rows):,} samples, every epoch a success in "
        f"{every:,}, none in {none:,}, mixed in {len(rows) - every - none:,} "
        "[dim](each sample's rate and Wilson 95 % over its epochs: score --json `samples`)[/]"
    )


def group_table(b: Breakdown) -> Table:
    """Each group's successes / selected, rate and Wilson 95 %."""
    table = Table(
        title=f"by {escape(b.key)} ({escape(b.means)}): rate and Wilson 95 % over selected cases",
        title_justify="left",
    )
    table.add_column(escape(b.key), overflow="fold", min_width=min(16, max(
        (len(t.task) for t in b.rows), default=4)))
    for name in ("succ/sel", "rate", "Wilson 95 %", "errors"):
        table.add_column(name, justify="right", no_wrap=True)
    for t in b.rows:
        table.add_row(escape(t.task), ratio(t.successes, t.selected), pct(t.rate),
                      pct_range(*t.wilson95), str(t.errors))
    return table
