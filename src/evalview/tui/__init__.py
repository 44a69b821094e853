"""The evalview terminal app (the only package that imports Textual).

It displays the headless core's objects and computes nothing of its own. Extension points:

- `tabs.TABS`: one `Tab(id, title, make)` per tab, in order (number keys follow it); a new view
  (partial credit, ...) appends an entry instead of editing the screens.
- `messages.ShowEpisodes(EpisodeFilter)`: any pane can ask for the Episodes tab, narrowed.
- `run_screen.RunScreen.open_record(row)` and `EvalViewApp.show_tab / show_task / show_episode`:
  what the command palette (`commands.JumpProvider`) and other screens call to navigate.
- `EvalViewApp.COMMANDS` and `EvalViewApp.BINDINGS` (each binding has an id) for app-wide actions
  such as export.
"""
