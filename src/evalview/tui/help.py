"""The `?` screen: every key, and how to reach a task or an episode from anywhere.

Every `Binding` in the app has an id and its keys appear in a table here (tests/tui check both),
so a new binding without a line of help fails a test instead of staying hidden.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from evalview.tui.tabs import TABS

HELP = """\
# evalview keys

| key | does |
| --- | --- |
| `1`–`{n}` | switch tab: {tabs} |
| `tab` / `shift+tab` | move focus (tables, filters, buttons) |
| `↑` `↓` `k` `j` `PgUp` `PgDn` `Home` `End` | move in a table |
| `←` `→` `h` `l` | scroll a wide table sideways |
| `Enter` | open: a task's episodes, an episode's full record, a finding's record or file |
| `Esc` | back from a record or file; close this help or a dialog |
| `Esc` | in a search box: back to its list (the filter stays) |
| `Backspace` | back from a record or file |
| `ctrl+p` | command palette: type a task or an episode id to jump there, or "export" |
| `e` | export result.json and a standalone index.html (`o` then opens the page) |
| `c` | copy: the episode id, the finding, or the record's JSON (to the clipboard, OSC 52) |
| `a` | score a refused read anyway, errors as non-successes (labelled not publishable) |
| `w` | watch: re-read what is shown when its files change (`--watch` starts with it on) |
| `?` | this help |
| `q` | quit |

## Tasks tab

| key | does |
| --- | --- |
| `s` | sort by the next column (or click a header) |
| `r` | reverse the sort |
| `g` | next task group, for a read that declares groups (LeRobot suites), then all tasks |
| `/` | search task names |

## Samples tab (an Inspect log with epochs, sample metadata or other scorers)

| key | does |
| --- | --- |
| `g` | group by the next sample metadata key (category, subject, ...), then none |
| `s` | sort the samples by the next column (or click a header) |
| `r` | reverse the sort |
| `/` | search sample ids |
| `Enter` | list the sample's epochs (or the group's sample-epochs) in Episodes |

Each sample's successes / epochs with its Wilson 95 %, each group's successes / selected
sample-epochs with its Wilson 95 %, and the other scorers' mean ± SE (left out of every rate and
Wilson interval): the numbers of `evalview score LOG --json --group-by KEY`.

## Episodes tab

| key | does |
| --- | --- |
| `/` | search episodes (id, message, termination reason) |
| `x` | clear the episode filters |
| `c` | copy the highlighted episode's id |
| `s` | sort by the next column (or click a header; again to reverse); empty cells last |
| `r` | reverse the sort (`#` reversed is the run backwards) |

## Findings tab

| key | does |
| --- | --- |
| `/` | search findings (code, rule, place, message) |
| `Enter` | a grouped finding lists all its episodes; others open their record or file |
| `c` | copy the highlighted finding |

## Record view

| key | does |
| --- | --- |
| `/` | find text in the record (`Enter` jumps to the next match) |
| `c` | copy the record's JSON |

## Export dialog (`e`)

| key | does |
| --- | --- |
| `o` | open the written index.html in the browser (once exported) |

## Partial credit tab, and `evalview inputs.json`

Moving in the tasks table lists that task's episodes; moving in the episodes table (`tab` to
reach it, or `Enter` on a task) shows the episode's checkpoints with observed, target and credit.
A PSR checkpoint-inputs file opens the same viewer: split summaries, every row, its checkpoints.

## Runs screen: `evalview DIR`

| key | does |
| --- | --- |
| `Enter` | open the read under the cursor; `Esc` comes back to the same row |
| `s` / `r` | sort by the next key (scan order, verdict, read, mean, successes) / reverse |
| click | a click on the verdict, read, succ / sel or all-T header sorts by it (again: reverse) |
| `v` | verdict filter: all, errors, warnings, clean, unreadable |
| `/` | filter by text (path, policy, benchmark, checkpoint, run id); `Esc` clears it |
| `space` | mark the read A, then B (a third mark replaces the oldest) |
| `c` | compare the two marked reads (`Esc` back) |
| `A` / `B` / `C` | mark a replicate of method A / of method B / a plain-BC read (again: unmark) |
| `x` | contrast A with B (relative to BC if marked) as `evalview contrast`; `Esc` back |

## A file of several named reads (a LeRobot file of `eval_results_400`, `eval_results_800`, ...)

| key | does |
| --- | --- |
| `Enter` | open the highlighted read (as `--read KEY`) |
| `space` | mark the read A, then B (a third mark replaces the oldest) |
| `c` | compare the two marked reads (as `compare --read-a --read-b`); `Esc` back |

## Benchmark-harness result: `evalview RESULT.json`

| key | does |
| --- | --- |
| `1`–`5` | switch tab: 1 Arms, 2 Measured, 3 Controls, 4 Findings, 5 Recovery (schema 3) |
| `e` | export the sanitized result.json and index.html (refused while the audit has errors) |
| `w` | watch: re-read the file when it changes |
| `Esc` | back to the Runs screen, when opened from one |

## Compare screen: `evalview A B`

| key | does |
| --- | --- |
| `↑` `↓` | choose a task: its McNemar table (mid-p, exact, adjusted p) and power line |
| `q` | quit (exit 0 compared, 1 refused, 2 unreadable) |
| `?` | this help, opened at this section (on every screen, `?` opens the keys of that screen) |

The header always shows the audit verdict and `successes / selected`, with attempted and
completed beside it: the headline counts every selected case, errors and unattempted included.
The verdict reads `… auditing` while the audit of a large run finishes after the first paint.

Numbers come from the same core as `evalview score --json`; the app computes nothing of its own.
"""


def help_text() -> str:
    """The help, with the tabs as registered (extensions add tabs)."""
    tabs = ", ".join(
        f"{i} {t.title}" + ("" if t.when is None else " (an Inspect log)")
        for i, t in enumerate(TABS, 1)
    )
    return HELP.format(n=len(TABS), tabs=tabs)


#: The help section of a screen, by the screen's class name: `?` opens the help there, so the
#: keys of the screen a reviewer is on are the first they see (the whole page stays scrollable).
SECTION_OF_SCREEN = {
    "RunsScreen": "Runs screen",
    "ReadPickerScreen": "A file of several named reads",
    "HarnessScreen": "Benchmark-harness result",
    "CompareScreen": "Compare screen",
    "RecordScreen": "Record view",
    "FileScreen": "Record view",
    "CheckpointInputsScreen": "Partial credit tab",
    "RunsCompare": "Compare screen",
    "ReadsCompare": "Compare screen",
    "FolderCompareScreen": "Compare screen",
    "ReadsCompareScreen": "Compare screen",
}


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark", "dismiss", "Close", id="help.close"),
    ]

    def __init__(self, section: str | None = None) -> None:
        super().__init__()
        #: The heading (its start) scrolled to the top once the page is laid out.
        self.section = section

    @classmethod
    def for_screen(cls, screen: object) -> HelpScreen:
        return cls(SECTION_OF_SCREEN.get(type(screen).__name__))

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Markdown(help_text())

    def on_markdown_table_of_contents_updated(
        self, event: Markdown.TableOfContentsUpdated
    ) -> None:
        if self.section is None:
            return
        for _, title, header_id in event.table_of_contents:
            if header_id is not None and title.startswith(self.section):
                header = self.query_one(f"#{header_id}")
                self.call_after_refresh(header.scroll_visible, top=True, animate=False)
                return
