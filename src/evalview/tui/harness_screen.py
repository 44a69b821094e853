"""The screen of a benchmark-harness result: Arms, Measured, Controls and Findings tabs (and,
for a schema-3 RecoveryBench result, Recovery: budget view, stop, overshoot, recovery metrics).

A harness result is arms x seeds, not episodes, so it gets its own screen in the one app (the
same loading, `?` help, `e` export, watch and Runs screen as every read) over the headless
`evalview.harness` objects (the same numbers `score --json` prints). The Arms tab draws every arm's
min-max range over seeds and every read's Wilson 95 % interval on one 0-100 % scale; the header
keeps the audit verdict and, for a single-seed file, the label that goes beside every number.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static, TabbedContent, TabPane

from evalview.findings import Finding
from evalview.fmt import pairs, pct_range, points, ratio, short_number
from evalview.harness.score import MEASURED, HarnessScore, measured_text
from evalview.model.harness_file import HarnessFile
from evalview.session import HarnessSession
from evalview.tui.bars import interval_bar
from evalview.tui.fmt import SEVERITY_MARK, SEVERITY_STYLE, pct
from evalview.tui.safe import clean, esc, plain

BAR_WIDTH = 21
TABS = (("arms", "Arms"), ("measured", "Measured"), ("controls", "Controls"),
        ("findings", "Findings"))


def _pt(x: float | None) -> str:
    return points(x)


def _range(lo: float | None, hi: float | None) -> str:
    return pct_range(lo, hi)


class HarnessScreen(Screen[None]):
    """`HarnessScreen(session)`: scored in the loading worker (`harness_card`), so no frame waits
    on I/O; quit, help, export and watch are the app's own keys, as on a run."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(i), f"tab('{key}')", name, id=f"harness.tab.{key}")
          for i, (key, name) in enumerate(TABS, start=1)),
        # Only a schema-3 file has the tab; hidden from the footer so older files' stays as is.
        Binding("5", "tab('recovery')", "Recovery", show=False, id="harness.tab.recovery"),
    ]

    def __init__(self, session: HarnessSession, card: HarnessScore | None = None) -> None:
        super().__init__(id="harness")
        self.session = session
        self.hf: HarnessFile = session.file
        self.card = card if card is not None else harness_card(session)
        self.findings: list[Finding] = session.findings
        #: The 80-column Arms table (no bars, short headers); set from the terminal's width.
        self.narrow = False

    # ----------------------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        # The run header's shape: the file's identity with the verdict boxed on its right, then
        # the harness's own lines (budget axis, seeds, reference, labels, refusal).
        kind, verdict = self.session.verdict
        with Vertical(id="harness-header"):
            with Horizontal(id="header-top"):
                yield Static(self._identity_text(), id="identity")
                yield Static(verdict, id="verdict", classes=f"verdict-{kind}")
            yield Static(self._header_text(), id="harness-details")
        with TabbedContent(id="harness-tabs"):
            with TabPane("1 Arms", id="arms"), Vertical():
                yield Static(self._arms_title(), id="arms-title", classes="pane-title")
                yield DataTable(id="arms-table", cursor_type="row", zebra_stripes=True)
                yield Static(self._contrasts_text(), id="arms-contrasts")
            with TabPane("2 Measured", id="measured"), Vertical():
                yield Static(self._caveat(), id="measured-caveat", classes="pane-title")
                yield DataTable(id="measured-table", cursor_type="row", zebra_stripes=True)
            with TabPane("3 Controls", id="controls"):
                yield VerticalScroll(Static(self._controls_text(), id="controls-text"))
            with TabPane("4 Findings", id="findings"):
                yield DataTable(id="findings-table", cursor_type="row", zebra_stripes=True)
            if self.card is not None and self.card.recovery is not None:
                with TabPane("5 Recovery", id="recovery"), Vertical():
                    yield Static(self._recovery_text(), id="recovery-text",
                                 classes="pane-title")
                    yield DataTable(id="recovery-table", cursor_type="row", zebra_stripes=True)
        yield Footer()

    #: Narrower than this, the Arms table drops its bars and shortens its labels (NARROW_ARMS).
    BAR_MIN_WIDTH = 110

    def on_mount(self) -> None:
        self.narrow = self.app.size.width < self.BAR_MIN_WIDTH
        self.query_one("#arms-title", Static).update(self._arms_title())
        self._fill_arms()

    def on_resize(self) -> None:
        narrow = self.app.size.width < self.BAR_MIN_WIDTH
        if narrow != self.narrow:
            self.narrow = narrow
            self.query_one("#arms-title", Static).update(self._arms_title())
            self.query_one("#arms-table", DataTable).clear(columns=True)
            self._fill_arms()
        self._fill_measured()
        self._fill_findings()
        self._fill_recovery()

    def action_tab(self, key: str) -> None:
        if key == "recovery" and not self.query("#recovery"):
            self.notify("Recovery: only a schema-3 (RecoveryBench) result has a budget view, "
                        "stop criterion, overshoot and recovery metrics.")
            return
        self.query_one(TabbedContent).active = key
        table = {"arms": "#arms-table", "measured": "#measured-table",
                 "findings": "#findings-table", "recovery": "#recovery-table"}.get(key)
        if table:
            self.query_one(table, DataTable).focus()

    # ----------------------------------------------------------------------------- header
    def _identity_text(self) -> Text:
        res = self.hf.result
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(clean(res.name if res is not None else self.hf.name), style="bold")
        text.append("  benchmark-harness result", style="dim")
        return text

    def _header_text(self) -> str:
        """The lines under the identity; the verdict is beside it (the one verdict function
        every read's header uses: `session.verdict`)."""
        lines: list[str] = []
        card = self.card
        if card is not None:
            seeds = ", ".join(str(s) for s in card.seeds) or "not recorded"
            ref = esc(card.reference or "none: no delta quoted")
            lines.append(f"budget axis {esc(card.budget_axis or 'not recorded')} · seeds {seeds} "
                         f"· reference {ref}")
            if card.recovery is not None:
                lines.append(self._recovery_line(card))
            lines += [f"[bold yellow]{esc(label)}[/]" for label in card.labels]
            if card.refused:
                lines.append("[bold red]refused: audit errors (Findings, 4); the numbers below are "
                             "shown for review only, not publishable[/]")
        else:
            lines.append("[bold red]not a valid BenchmarkResult: see Findings (4)[/]")
        return "\n".join(lines)

    @staticmethod
    def _recovery_line(card: HarnessScore) -> str:
        """Schema 3: the budget view, its maximum overshoot and the invalidation status stay in
        the header, beside every number (the overshoot is part of the budget)."""
        rec = card.recovery or {}
        over = rec.get("overshoot") or {}
        status = rec.get("invalidation_status")
        valid = not card.invalidated and not (status or {}).get("reasons")
        state = ("[green]valid[/]" if valid
                 else f"[bold red]invalidated {esc(status)}[/]")
        maximum = esc(short_number(over.get("maximum", "—")))
        return (f"budget view {esc(rec.get('budget_view') or 'not recorded')} · max overshoot "
                f"{maximum} {esc(over.get('axis', ''))} · {state} · Recovery (5)")

    def _recovery_text(self) -> str:
        card = self.card
        if card is None or card.recovery is None:
            return ""
        rec = card.recovery
        return "\n".join([
            f"[bold]budget view[/] {esc(rec.get('budget_view'))} · [bold]stop criterion[/] "
            f"{esc(pairs(rec.get('stop_criterion')))} · [bold]overshoot[/] "
            f"{esc(pairs(rec.get('overshoot')))}",
            f"[bold]invalidation status[/] {esc(pairs(rec.get('invalidation_status')))} · "
            f"[bold]preregistration[/] {esc(rec.get('preregistration_sha'))} · "
            f"[bold]hypotheses[/] {esc(', '.join(map(str, rec.get('hypothesis_ids') or [])))}",
            f"[bold]recovery metrics[/] {esc(pairs(rec.get('recovery_metrics')))} · recovery: "
            "recovery_after_error_rate (—: not recorded, never zero); overshoot: actual − target",
        ])

    def _arms_title(self) -> str:
        ref = self.card.reference if self.card is not None else None
        against = f"Δ over {esc(ref)} (never over zero)" if ref else "no reference row: no Δ"
        if self.narrow:
            return (f"arms: mean over seeds, Δ, range = min–max over seeds; a seed's row: "
                    f"solved / n and its Wilson 95 % · {against}")
        return ("arms: mean, min–max over seeds (bar) and every read's Wilson 95 % (bar), one "
                f"0–100 % scale · {against}")

    def _contrasts_text(self) -> str:
        card = self.card
        if card is None or card.reference is None:
            return ""
        lines = [f"[bold]replicate contrast against {esc(card.reference)}[/] (paired by seed; a "
                 "claim needs 3 shared seeds)"]
        for row in card.arms:
            c = row.contrast
            if c is None:
                continue
            style = "bold" if c.claim else "dim"
            label = "".join(f"  [yellow]{esc(x)}[/]" for x in row.labels)
            lines.append(f"  {esc(row.name)}: [{style}]{esc(c.statement())} ({esc(c.label)})[/]"
                         + label)
        return "\n".join(lines)

    def _caveat(self) -> str:
        return "" if self.card is None else f"[italic]{esc(self.card.caveat)}[/]"

    # ----------------------------------------------------------------------------- tables
    def _fill_arms(self) -> None:
        """Arms and their seeds. Below 110 columns the bars go (the numbers stay, Δ first) and
        the headers shorten, so an 80-column terminal shows every number without scrolling."""
        table = self.query_one("#arms-table", DataTable)
        card = self.card
        single = card is not None and card.single_seed
        narrow = self.narrow
        bar = "0 %" + " " * (BAR_WIDTH - 8) + "100 %"
        columns = (
            ["arm / seed", "steps", "solved", "rate", "Δ", "range"] if narrow
            else ["arm / seed", "steps", "solved / n", "rate", "min–max · Wilson", bar, "Δ"]
        )
        if single:
            columns.append("label")
        for label in columns:
            table.add_column(label, key=label)
        if card is None:
            return
        for row in card.arms:
            delta = "reference" if row.is_reference else _pt(row.delta_vs_reference)
            cells = {
                "arm": Text.assemble((row.name, "bold"),
                                     (" (ref.)" if row.is_reference else "", "dim")),
                "steps": Text(str(row.optimizer_steps), justify="right"),
                "solved": Text(f"{len(row.reads)} seed{'s' * (len(row.reads) != 1)}",
                               justify="right"),
                "rate": Text(pct(row.mean), justify="right", style="bold"),
                "range": Text(_range(row.min, row.max), justify="right"),
                "bar": (Text("") if row.min is None or row.max is None  # no mean: no bar
                        else interval_bar(row.min, row.max, row.mean, BAR_WIDTH)),
                "delta": Text(delta, justify="right"),
                "label": Text(", ".join(row.labels), style="yellow"),
            }
            table.add_row(*self._arm_cells(cells, narrow, single), key=f"arm:{row.name}")
            for r in row.reads:
                wilson = r.wilson95
                cells = {
                    "arm": Text(f"  s{r.seed}", style="dim"),
                    "steps": Text(str(r.optimizer_steps), justify="right", style="dim"),
                    "solved": Text("not a count" if r.solved is None
                                   else ratio(r.solved, r.rollouts), justify="right"),
                    "rate": Text(pct(r.rate), justify="right"),
                    "range": Text("—" if wilson is None else _range(*wilson), justify="right"),
                    "bar": (Text("") if wilson is None
                            else interval_bar(wilson[0], wilson[1], r.rate, BAR_WIDTH)),
                    "delta": Text(""),
                    "label": Text(", ".join(r.labels), style="yellow"),
                }
                table.add_row(*self._arm_cells(cells, narrow, single),
                              key=f"read:{row.name}:{r.seed}")

    @staticmethod
    def _arm_cells(cells: dict[str, Text], narrow: bool, single: bool) -> list[Text]:
        order = (["arm", "steps", "solved", "rate", "delta", "range"] if narrow
                 else ["arm", "steps", "solved", "rate", "range", "bar", "delta"])
        return [cells[k] for k in order] + ([cells["label"]] if single else [])

    def _fill_measured(self) -> None:
        table = self.query_one("#measured-table", DataTable)
        card = self.card
        table.add_column("arm", key="arm")
        for key, label, _unit in MEASURED:
            table.add_column(label, key=key)
        if card is not None and card.single_seed:
            table.add_column("label", key="label")
        if card is None:
            return
        for row in card.arms:
            cells: list[Text] = [plain(row.name)]
            cells += [Text(measured_text(k, row.measured[k]), justify="right")
                      for k, _l, _u in MEASURED]
            if card.single_seed:
                cells.append(Text(", ".join(row.labels), style="yellow"))
            table.add_row(*cells, key=row.name)

    def _fill_recovery(self) -> None:
        if not self.query("#recovery-table") or self.card is None:
            return
        table = self.query_one("#recovery-table", DataTable)
        for label in ("arm / seed", "strict", "recovery", "stop (kind actual/target)",
                      "overshoot"):
            table.add_column(label, key=label)
        for row in self.card.arms:
            over = row.overshoot_max
            table.add_row(
                Text(row.name, style="bold"), Text(pct(row.mean), justify="right", style="bold"),
                Text(pct(row.recovery_after_error_mean), justify="right", style="bold"),
                Text("mean over seeds", style="dim"),
                Text("—" if over is None else f"max {short_number(over)}", justify="right"),
                key=f"arm:{row.name}")
            for r in row.reads:
                rec = r.recovery
                if rec is None:
                    continue
                stop = rec.stop_criterion or {}
                over = rec.overshoot_value
                table.add_row(
                    Text(f"  s{r.seed}", style="dim"),
                    Text(pct(rec.strict_task_success_rate), justify="right"),
                    Text(pct(rec.recovery_after_error_rate), justify="right"),
                    plain(f"{stop.get('kind')} {short_number(stop.get('actual'))}/"
                          f"{short_number(stop.get('target'))}" if stop else "not recorded"),
                    Text("—" if over is None else short_number(over), justify="right"),
                    key=f"read:{row.name}:{r.seed}")

    def _fill_findings(self) -> None:
        from evalview.audit import RULES

        table = self.query_one("#findings-table", DataTable)
        for label in ("severity", "code", "rule", "where", "message"):
            table.add_column(label, key=label)
        for i, f in enumerate(self.findings):
            sev = f.severity.value
            where = f.location
            table.add_row(
                Text(f"{SEVERITY_MARK[sev]} {sev}", style=SEVERITY_STYLE[sev]),
                Text(f.code),
                Text(RULES[f.code].name if f.code in RULES else ""),
                plain(where),
                plain(f.message),
                key=str(i),
            )

    def _controls_text(self) -> str:
        card = self.card
        if card is None:
            return "The file is not a valid BenchmarkResult; its controls are not shown."
        c = card.controls
        allowed = c.get("allowed_differences")
        lines = [
            f"[bold]budget axis[/]  {esc(c.get('budget_axis') or 'not recorded')}"
            + ("  (equal optimizer updates, not equal compute)"
               if c.get("budget_axis") == "optimizer_steps" else ""),
            f"[bold]shared cold start[/]  {esc(c.get('cold_start_cycles'))} cycles"
            if c.get("cold_start_cycles") is not None else "[bold]shared cold start[/]  n/a",
            "[bold]allowed differences[/]  " + (
                "[yellow]not recorded[/]" if allowed is None
                else (", ".join(esc(p) for p in allowed) or "none")),
            "",
            "[bold]each arm's declared differences from the common config[/]",
        ]
        from evalview.harness.audit import path_allowed

        for name, rows in c.get("declared_differences", {}).items():
            lines.append(f"  [bold]{esc(name)}[/]")
            if not rows:
                lines.append("    none (the common config)")
            for r in rows:
                path = str(r.get("path"))
                undeclared = allowed is not None and not path_allowed(path, allowed)
                mark = "  [bold red]✗ not in allowed_differences[/]" if undeclared else ""
                lines.append(f"    {esc(path)}: {esc(r.get('common'))} → "
                             f"{esc(r.get('arm'))}{mark}")
        return "\n".join(lines)


def harness_card(session: HarnessSession) -> HarnessScore | None:
    """The opened harness result's score as the screen shows it: even with audit errors (for
    review), with the refusal in the header; None for a file that does not validate."""
    from evalview.harness.score import score_harness

    hf, findings = session.file, session.findings
    if hf.result is None:
        return None
    card = score_harness(hf.result, findings, allow_errors=True)
    if any(f.severity.value == "error" for f in findings):
        card = _with_refusal(card, findings)
    return card


def _with_refusal(card: HarnessScore, findings: list[Finding]) -> HarnessScore:
    from dataclasses import replace

    errors = tuple(f"{f.code} {f.message}" for f in findings if f.severity.value == "error")
    labels = tuple(lbl for lbl in card.labels if not lbl.startswith("not a publishable"))
    return replace(card, refusals=errors, labels=labels)
