"""Benchmark-harness results on the command line: `check`, `score` and `compare` of one file.

Only formatting lives here: every number comes from `evalview.harness` (the same objects the app
and the export show). Text output puts the single-seed label beside every number of a
single-seed file, and the measured-not-matched caveat under every table of success rates.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from evalview.cli.output import (
    EXIT_OK,
    EXIT_REFUSED,
    console,
    emit_json,
    error_console,
    escape,
    pct,
)
from evalview.fmt import count, pairs, pct_range, points, ratio, short_number

if TYPE_CHECKING:
    from rich.console import Console

    from evalview.harness.score import ArmRow, HarnessScore
    from evalview.session import HarnessSession

FORMAT = "miniverl-benchmark-result"


def measured_text(key: str, value: float | int | None) -> str:
    from evalview.harness.score import measured_text as text

    return text(key, value)


# ---------------------------------------------------------------------------------------- score

#: score options that mean something only for episode reads.
_EPISODE_ONLY = (("view", "--view"), ("benchmark", "--benchmark"), ("metric", "--metric"),
                 ("allow_off_protocol", "--allow-off-protocol"))


def score(session: HarnessSession, args: argparse.Namespace) -> int:
    from evalview.harness.score import score_harness

    hf = session.file
    path = str(args.path)
    given = [flag for attr, flag in _EPISODE_ONLY if getattr(args, attr, None)]
    if given:
        message = (f"{path}: {', '.join(given)} apply to episode reads; a benchmark-harness "
                   "result has arms and seeds. Drop the option.")
        if args.json:
            emit_json({"path": path, "format": FORMAT, "refused": True, "refusals": [message]})
        else:
            error_console().print(f"[bold red]✗[/] {escape(message)}")
        return EXIT_REFUSED
    findings = session.findings
    if hf.result is None:
        refusals = [f"{f.code} {f.message}" for f in findings if f.severity.value == "error"]
        if args.json:
            emit_json({"path": path, "format": FORMAT, "refused": True, "refusals": refusals,
                       "arms": None, "findings": [f.to_json() for f in findings]})
        else:
            _print_refusals(error_console(), path, refusals, valid=False)
        return EXIT_REFUSED
    card = score_harness(hf.result, findings, allow_errors=args.allow_errors)
    if args.json:
        doc = {"path": path} | card.to_json()
        if card.refused:
            doc["arms"] = None
        emit_json(doc)
        return EXIT_REFUSED if card.refused else EXIT_OK
    if card.refused:
        _print_refusals(error_console(), path, list(card.refusals),
                        hint=not (card.unscorable or args.allow_errors))
        return EXIT_REFUSED
    print_score(console(), card, path)
    return EXIT_OK


def _print_refusals(out: Console, path: str, refusals: list[str], *, valid: bool = True,
                    hint: bool = True) -> None:
    out.print(f"[bold red]✗ {escape(path)}: refused, no score reported.[/]")
    for r in refusals:
        out.print(f"  [bold red]{escape(r)}[/]")
    if valid and hint:
        out.print("  [dim]`evalview check` lists every finding; --allow-errors scores it anyway, "
                  "labelled not publishable.[/]")
    else:
        out.print("  [dim]The file is not a valid BenchmarkResult, so nothing in it can be "
                  "scored; fix the keys above (or restore the original) first.[/]")


def _signed_pt(x: float | None) -> str:
    return points(x)


def _iv(iv: tuple[float, float] | None) -> str:
    return "—" if iv is None else pct_range(*iv)


def print_score(out: Console, card: HarnessScore, path: str) -> None:
    ident = card.identity
    commit = (ident.get("git_commit") or "n/a")[:12]
    out.print(f"[bold]{escape(card.name)}[/]  [dim]{escape(path)}[/]")
    out.print(f"benchmark-harness result, schema {card.schema_version} · miniVERL "
              f"{escape(ident.get('miniverl_version'))} · git {escape(commit)} · "
              f"{escape(_hardware(ident.get('hardware')))}")
    seeds = ", ".join(str(s) for s in card.seeds) or "not recorded"
    out.print(f"budget axis: {escape(card.budget_axis or 'not recorded')} · seeds: {seeds} · "
              f"reference: {escape(card.reference or 'none (no delta quoted)')}")
    for label in card.labels:
        out.print(f"[bold yellow]{escape(label)}[/]")
    out.print()
    for block in (_arm_lines(card), _read_lines(card), _recovery_lines(card),
                  _measured_lines(card)):
        if not block:
            continue
        for line in block:
            out.print(line)
        out.print()
    out.print(f"[italic]{escape(card.caveat)}[/]")
    contrasts = [a for a in card.arms if a.contrast is not None]
    if contrasts:
        out.print()
        out.print(f"[bold]replicate contrast against {escape(card.reference)}[/] "
                  "(per-seed differences; mean and sample SD; a claim needs 3 shared seeds)")
        for row in contrasts:
            c = row.contrast
            assert c is not None
            per_seed = ", ".join(
                f"s{d.seed} {points(d.difference)} "
                f"(eval SE {points(d.eval_se, sign=False, unit='')})"
                for d in c.differences)
            style = "bold" if c.claim else "dim"
            out.print(f"  {escape(row.name)}: {per_seed}; [{style}]{escape(c.statement())} "
                      f"({escape(c.label)})[/]{_label_suffix(row)}")
    counts = {"error": 0, "warning": 0, "info": 0}
    for f in card.findings:
        counts[f.severity.value] += 1
    out.print()
    if counts["error"]:
        verdict = "[bold yellow]not a publishable result[/]"
    elif counts["warning"]:
        verdict = "[bold yellow]publishable with caveats: state them beside the numbers[/]"
    else:
        verdict = "[bold green]publishable result[/]"
    out.print(f"{verdict} · audit: {count(counts['error'], 'error')}, "
              f"{count(counts['warning'], 'warning')}, {counts['info']} info "
              f"(evalview check {escape(path)})")


def _hardware(hw: object) -> str:
    if not isinstance(hw, dict):
        return "hardware not recorded"
    gpu = hw.get("gpu")
    if isinstance(gpu, dict) and gpu.get("available"):
        driver = gpu.get("driver_version")
        return f"{gpu.get('name') or 'a GPU'}, " + (
            f"driver {driver}" if driver else "driver version not recorded"
        )
    return "CPU only (no CUDA device)"


def _label_suffix(row: ArmRow) -> str:
    return "".join(f"  [yellow]{escape(label)}[/]" for label in row.labels)


def _line(cells: list[tuple[str, int]], row: ArmRow | None = None) -> str:
    """Cells padded to their widths (negative: left-aligned), then the row's labels: for a
    single-seed file the label sits beside every number, as the spec requires."""
    parts = []
    for text, width in cells:
        pad = abs(width) - len(text)
        shown = escape(text)
        parts.append(shown + " " * pad if width < 0 else " " * pad + shown)
    return "  ".join(parts).rstrip() + ("" if row is None else _label_suffix(row))


def _name_width(card: HarnessScore) -> int:
    names = [len(a.name) + (len(_REF) if a.is_reference else 0) for a in card.arms]
    return min(30, max([*names, 3]) + 2)


_REF = " (ref.)"


def _arm_lines(card: HarnessScore) -> list[str]:
    w = _name_width(card)
    ref = card.reference or "reference"
    head = [("arm", -w), ("mode", -10), ("seeds", 5), ("steps", 5), ("mean", 7),
            ("min–max", 13), (f"Δ vs {ref}", 9)]
    lines = ["[bold]per arm: success rate over seeds (the harness's table)[/]",
             "[dim]" + _line(head) + "[/]"]
    for row in card.arms:
        name = row.name + (_REF if row.is_reference else "")
        steps = str(row.optimizer_steps) + ("*" if row.steps_vary else "")
        delta = "reference" if row.is_reference else _signed_pt(row.delta_vs_reference)
        lines.append(_line([
            (name, -w), (row.mode, -10), (str(len(row.reads)), 5), (steps, 5), (pct(row.mean), 7),
            (pct_range(row.min, row.max), 13), (delta, 9)], row))
    if any(r.steps_vary for r in card.arms):
        lines.append("[dim]* steps differ between this arm's seeds (the first seed's shown)[/]")
    if card.reference is not None:
        lines.append(f"[dim]{escape(card.reference)} is the shared cold start with no further "
                     "update, by design; deltas are over it, never over zero.[/]")
    return lines


def _read_lines(card: HarnessScore) -> list[str]:
    w = _name_width(card)
    head = [("arm", -w), ("seed", 9), ("solved / rollouts", 17), ("rate", 7), ("Wilson 95 %", 13)]
    lines = ["[bold]per read: solved / rollouts and Wilson 95 % (what the harness leaves out)[/]",
             "[dim]" + _line(head) + "[/]"]
    for row in card.arms:
        for r in row.reads:
            solved = "not a count" if r.solved is None else ratio(r.solved, r.rollouts)
            lines.append(_line([(row.name, -w), (str(r.seed), 9), (solved, 17), (pct(r.rate), 7),
                                (_iv(r.wilson95), 13)], row))
    lines.append("[dim]greedy evaluation, one trajectory per task: rollouts = tasks[/]")
    return lines


def _recovery_lines(card: HarnessScore) -> list[str]:
    """Schema 3 (RecoveryBench): the budget view with its stop and overshoot, the recovery after
    a tool error beside strict success, and the invalidation status. Empty for older files."""
    rec = card.recovery
    if rec is None:
        return []
    w = _name_width(card)
    status = rec.get("invalidation_status")
    valid = isinstance(status, dict) and status.get("valid") is True and not status.get("reasons")
    lines = [
        "[bold]RecoveryBench (schema 3): budget view, stop, overshoot, recovery[/]",
        f"budget view: {escape(str(rec.get('budget_view')))} · stop criterion: "
        f"{escape(pairs(rec.get('stop_criterion')))} · overshoot: "
        f"{escape(pairs(rec.get('overshoot')))}",
        ("invalidation status: " + ("valid, no reasons" if valid
                                    else f"[bold red]{escape(pairs(status))}[/]")
         + f" · preregistration {escape(str(rec.get('preregistration_sha')))} · hypotheses "
         f"{escape(', '.join(map(str, rec.get('hypothesis_ids') or [])) or 'none')} · "
         f"recovery metrics: {escape(pairs(rec.get('recovery_metrics')))}"),
        "[dim]" + _line([("arm", -w), ("strict mean", 11), ("recovery mean", 13),
                         ("max overshoot", 13)]) + "[/]",
    ]
    for row in card.arms:
        over = row.overshoot_max
        lines.append(_line([(row.name, -w), (pct(row.mean), 11),
                            (pct(row.recovery_after_error_mean), 13),
                            ("—" if over is None else short_number(over), 13)], row))
    lines.append("[dim]" + _line([("arm", -w), ("seed", 9), ("strict", 7), ("recovery", 9),
                                  ("stop (kind actual/target)", -32), ("overshoot", 10)]) + "[/]")
    for row in card.arms:
        for r in row.reads:
            if r.recovery is None:
                continue
            stop = r.recovery.stop_criterion or {}
            stop_text = (f"{stop.get('kind')} {short_number(stop.get('actual'))}/"
                         f"{short_number(stop.get('target'))}" if stop else "not recorded")
            over = r.recovery.overshoot_value
            lines.append(_line([
                (row.name, -w), (str(r.seed), 9), (pct(r.recovery.strict_task_success_rate), 7),
                (pct(r.recovery.recovery_after_error_rate), 9), (stop_text, -32),
                ("—" if over is None else short_number(over), 10)], row))
    lines.append("[dim]recovery: recovery_after_error_rate of the arm's recovery_metrics (—: not "
                 "recorded, never zero); overshoot: actual − target on the arm's stop axis[/]")
    return lines


#: The measured quantities in three groups, so each fits a terminal line.
_GROUPS = (
    ("tokens", ("generated_tokens_per_task", "tokens_per_solved_task",
                "selected_training_tokens_total", "teacher_queried_position_ratio")),
    ("cache and memory", ("cache_current_bytes", "cache_bytes_written_total",
                          "cache_compression_ratio", "peak_allocated_bytes",
                          "peak_reserved_bytes")),
    ("time (s)", ("train_seconds", "evaluation_seconds", "wall_seconds")),
)
_SHORT = {
    "generated_tokens_per_task": "gen tok/task", "tokens_per_solved_task": "tok/solved",
    "selected_training_tokens_total": "sel. train tok", "teacher_queried_position_ratio":
    "teacher-q ratio", "cache_current_bytes": "cache now", "cache_bytes_written_total":
    "cache written", "cache_compression_ratio": "compression", "peak_allocated_bytes":
    "peak alloc", "peak_reserved_bytes": "peak reserved", "train_seconds": "train",
    "evaluation_seconds": "evaluation", "wall_seconds": "wall",
}


def _measured_lines(card: HarnessScore) -> list[str]:
    w = _name_width(card)
    lines = ["[bold]measured, not matched (mean over the arm's seeds)[/]"]
    for title, keys in _GROUPS:
        widths = [max(12, len(_SHORT[k])) for k in keys]
        lines.append("[dim]" + _line([(title, -w)] + [(_SHORT[k], wd)
                                                       for k, wd in zip(keys, widths, strict=True)])
                     + "[/]")
        for row in card.arms:
            lines.append(_line([(row.name, -w)] + [
                (measured_text(k, row.measured[k]), wd) for k, wd in zip(keys, widths, strict=True)
            ], row))
    lines.append("[dim]—: null in the file (not measured, or not applicable to the arm: no "
                 "teacher for SFT, no CUDA on a CPU run); never zero[/]")
    return lines


# -------------------------------------------------------------------------------------- compare

def compare(side_a: HarnessSession, side_b: HarnessSession, args: argparse.Namespace) -> int:
    from evalview.harness.audit import SINGLE_SEED_LABEL
    from evalview.harness.compare import compare_harness
    from evalview.harness.score import score_harness

    results = []
    for side, label in ((side_a, args.a), (side_b, args.b)):
        hf = side.file
        if hf.result is None:
            message = (f"{label}: not a valid benchmark-harness result "
                       f"({hf.problems[0].message}); run `evalview check {label}`.")
            return _refuse(message, args.json)
        errors = [f for f in side.findings if f.severity.value == "error"]
        if errors:  # as for episode reads: an inconsistent record is not compared
            first = errors[0]
            message = (f"{label}: the audit finds {len(errors)} error(s) (first: {first.code} "
                       f"{first.message}); an inconsistent result is not compared. Fix them "
                       f"(see `evalview check {label}`).")
            return _refuse(message, args.json)
        results.append((hf.result, score_harness(hf.result, side.findings, allow_errors=True)))
    (res_a, card_a), (res_b, card_b) = results
    # HarnessMismatch is a Refused: `evalview.cli` words it and exits 1
    cmp = compare_harness(res_a, res_b, card_a, card_b, label_a=str(args.a), label_b=str(args.b),
                          allow_mismatch=getattr(args, "allow_mismatch", False))
    if args.json:
        emit_json({"a_path": str(args.a), "b_path": str(args.b)} | cmp.to_json())
        return EXIT_OK
    out = console()
    out.print(f"[bold]A[/] {escape(card_a.name)} [dim]{escape(args.a)}[/]")
    out.print(f"[bold]B[/] {escape(card_b.name)} [dim]{escape(args.b)}[/]")
    for label in cmp.labels:
        out.print(f"[bold yellow]{escape(label)}[/]")
    for f in cmp.findings:
        out.print(f"  [yellow]{f.code}[/] {escape(f.message)}")
    out.print()
    out.print("[bold]per arm: B − A (success rate; reads paired by seed)[/]")
    w = min(28, max([len(x.name) for x in cmp.arms] + [3]) + 2)
    suffix = "" if cmp.matched else "  NOT MATCHED"
    single = SINGLE_SEED_LABEL if card_a.single_seed or card_b.single_seed else ""
    out.print("[dim]" + _line([("arm", -w), ("A mean", 7), ("B mean", 7), ("B − A", 9),
                               ("per-seed B − A (pt)", -22), ("label", -20)]) + "[/]")
    for arm in cmp.arms:
        per_seed = ", ".join(points(d, unit="") for d in arm.differences) or "no shared seed"
        tail = "".join(f"  [yellow]{escape(t)}[/]" for t in (suffix.strip(), single) if t)
        out.print(_line([(arm.name, -w), (pct(arm.mean_a), 7), (pct(arm.mean_b), 7),
                         (_signed_pt(arm.difference), 9), (per_seed, -22), (arm.label, -20)])
                  + tail)
    if cmp.only_a or cmp.only_b:
        out.print(f"arms only in A: {escape(', '.join(cmp.only_a)) or '—'}; "
                  f"only in B: {escape(', '.join(cmp.only_b)) or '—'}")
    out.print(f"[italic]{escape(card_a.caveat)}[/]")
    return EXIT_OK


def _refuse(message: str, as_json: bool) -> int:
    if as_json:
        emit_json({"refused": True, "error": message, "exit_code": EXIT_REFUSED})
    else:
        error_console().print(f"[bold red]✗ refused:[/] {escape(message)}")
    return EXIT_REFUSED
