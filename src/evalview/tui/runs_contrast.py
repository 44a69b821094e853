"""Contrasting the replicate reads marked A, B (and BC) on the Runs screen, as `evalview contrast`.

Each marked read is paired by its training replicate (its fine-tune seed, the Runs screen's `ft`
column); the arithmetic and every refusal are `evalview.compare.contrast`'s, run in a worker.
A refusal is shown in the app's words; Escape goes back to the Runs screen with the marks kept.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static

from evalview.tui.safe import clean
from evalview.tui.safe import esc as escape

if TYPE_CHECKING:
    from evalview.compare.contrast import Contrast

#: One side's reads: (replicate KEY, path), as `--a KEY=PATH...`.
Side = list[tuple[str, Path]]


def contrast_text(c: Contrast) -> Text:
    """The lines `evalview contrast` prints, as a Text (run data is never read as markup)."""
    from evalview.compare.contrast_text import contrast_lines

    return Text("\n").join(
        Text.assemble(*((clean(text), style) for style, text in line)) for line in contrast_lines(c)
    )


class ContrastScreen(Screen[None]):
    """`Contrasting A with B…`, then the contrast (or why there is none)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "app.pop_screen", "Back to runs", id="runs-contrast.back"),
        # After a refusal, what `evalview contrast --allow-errors` / `--allow-off-protocol` do:
        # the contrast is worked out again and labelled (not publishable / OFF-PROTOCOL).
        Binding("a", "allow('errors')", "Allow errors", id="runs-contrast.allow-errors"),
        Binding("o", "allow('off_protocol')", "Allow off-protocol", id="runs-contrast.allow-off"),
    ]

    class Done(Message):
        def __init__(self, contrast: Contrast | None, problem: str | None) -> None:
            super().__init__()
            self.contrast = contrast
            self.problem = problem

    def __init__(self, a: Side, b: Side, bc: Side) -> None:
        super().__init__(id="runs-contrast")
        self.a, self.b, self.bc = a, b, bc
        #: `--allow-errors` and `--allow-off-protocol`, set by `a` and `o` after a refusal.
        self.allow_errors = False
        self.allow_off_protocol = False
        #: The last refusal's words, None after a contrast. A key is offered only when they name
        #: its flag (the refusals are the command's own, which say which flag would pass).
        self.refusal: str | None = None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "allow":
            what = str(parameters[0]) if parameters else ""
            flag = "--allow-" + what.replace("_", "-")
            return (
                self.refusal is not None
                and flag in self.refusal
                and not getattr(self, f"allow_{what}", True)
            )
        return True

    def action_allow(self, what: str) -> None:
        """Work the contrast out again with `--allow-errors` or `--allow-off-protocol`."""
        setattr(self, f"allow_{what}", True)
        self.refusal = None
        self.refresh_bindings()
        self.query_one("#contrast-command", Static).update(f"[dim]$ {escape(self.command())}[/]\n")
        self.query_one("#contrast-body", Static).update(self._working())
        self._work()

    def command(self) -> str:
        """The `evalview contrast` command line that gives the same answer."""
        words = ["evalview", "contrast"]
        for flag, side in (("--a", self.a), ("--b", self.b), ("--bc", self.bc)):
            if side:
                words += [
                    *(["--relative"] if flag == "--bc" else []),
                    flag,
                    *(f"{key}={path}" for key, path in side),
                ]
        words += ["--allow-errors"] * self.allow_errors
        words += ["--allow-off-protocol"] * self.allow_off_protocol
        return shlex.join(words)

    def _working(self) -> str:
        what = "relative contrast" if self.bc else "contrast"
        return (
            f"Working out the {what} of {len(self.a)} A and {len(self.b)} B reads"
            + (f" against {len(self.bc)} BC reads" if self.bc else "")
            + "…"
        )

    def compose(self) -> ComposeResult:
        # A title line on the panel background, as the compare screen's: what is contrasted.
        sides = " · ".join(
            f"{name} {len(side)} read{'s' * (len(side) != 1)}"
            for name, side in (("A", self.a), ("B", self.b), ("BC", self.bc))
            if side
        )
        yield Static(
            f"[b]Contrast[/] across training replicates · {sides} · [dim]Esc back to runs[/]",
            id="contrast-title",
        )
        with VerticalScroll():
            yield Static(f"[dim]$ {escape(self.command())}[/]\n", id="contrast-command")
            yield Static(self._working(), id="contrast-body")
        yield Footer()

    def on_mount(self) -> None:
        self._work()

    @work(thread=True, exclusive=True, group="runs-contrast")
    def _work(self) -> None:
        from evalview.errors import InputError, Refused
        from evalview.model.address import Address
        from evalview.session import contrast_addresses

        def side(items: Sequence[tuple[str, Path]]) -> list[tuple[str, Address]]:
            return [(key, Address.of(path)) for key, path in items]

        try:
            result = contrast_addresses(
                side(self.a),
                side(self.b),
                bc=side(self.bc) or None,
                relative=bool(self.bc),
                allow_errors=self.allow_errors,
                allow_off_protocol=self.allow_off_protocol,
            )
        except (InputError, Refused) as exc:
            self.post_message(self.Done(None, str(exc)))
        else:
            self.post_message(self.Done(result, None))

    def on_contrast_screen_done(self, message: Done) -> None:
        body = self.query_one("#contrast-body", Static)
        if message.contrast is not None:
            body.update(
                Text.assemble(
                    contrast_text(message.contrast),
                    ("\n\nEscape goes back to the runs (the marks are kept).", "dim"),
                )
            )
        else:
            self.refusal = message.problem or ""
            self.refresh_bindings()
            offered = [
                text
                for what, text in (
                    ("errors", "a scores errored rollouts as non-successes"),
                    ("off_protocol", "o contrasts the off-protocol reads"),
                )
                if self.check_action("allow", (what,))
            ]
            keys = ""
            if offered:
                keys = f" Or (labelled, as the command's --allow flags do): {'; '.join(offered)}."
            body.update(
                "[bold red]✗ No contrast of these reads[/]\n\n"
                f"{escape(message.problem or '')}\n\n"
                "[dim]Escape goes back to the runs (the marks are kept); change the A, B or BC "
                f"marks with A, B, C.{keys}[/]"
            )
