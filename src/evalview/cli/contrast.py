"""`evalview contrast --a KEY=PATH... --b KEY=PATH... [--relative --bc KEY=PATH...]`.

Only formatting and argument parsing live here; the arithmetic and every refusal are
`evalview.compare.contrast`.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from evalview.cli.output import EXIT_OK, console, emit_json, escape, fail_unreadable

if TYPE_CHECKING:
    from evalview.compare.contrast import Contrast

HELP = "contrast two methods across training replicates (reporting rules), optionally relative"
DESCRIPTION = """\
Contrast method A with method B across training replicates, as the reporting rules say. Each read
is given as KEY=PATH, KEY being its training replicate: the pretraining seed, or the fine-tune
seed for a run without pretraining; one read of a file of named reads is KEY=PATH [READ] (quoted).
Reads with the same KEY on the two sides are a pair.

For each replicate: the difference of the two reads' all-T rates in percentage points, with the
pair's eval SE sqrt(se_a² + se_b²) from the reads' binomial SEs. Then the mean and the sample SD
of the differences. Fewer than 3 pairs is labelled "descriptive, n_seeds=k" and makes no claim.
A fine-tune seed that differs inside a pair is recorded (manifest policy.fine_tune_seed or
method.configuration.fine_tune_seed).

--relative --bc KEY=PATH...: R = 100 (SR_A − SR_B)/SR_BC per replicate, with the delta-method SE
including the BC read's own error; a side that is the BC read itself (the same files) has
covariance se_BC² with it.

Refused: mixed benchmark versions, mixed seed sets (test vs development), reads that select
different tasks (their all-T rates would average different tasks), off-protocol reads
(a declared off_protocol/deviations mark, or execution constants unlike the other reads') unless
--allow-off-protocol (then labelled OFF-PROTOCOL), the same checkpoint or KEY twice on one side,
a KEY on one side only, and reads `evalview score` refuses (errored rollouts, audit errors)
unless --allow-errors (then labelled not publishable).
"""
EPILOG = """\
exit codes:
  0  contrasted (a descriptive contrast too)
  1  refused (see above), the message naming the read and what to do
  2  a read could not be read, or a malformed KEY=PATH

examples:
  evalview contrast --a 42=runs/a42 43=runs/a43 44=runs/a44 --b 42=runs/b42 43=runs/b43 44=runs/b44
  evalview contrast --a 42=runs/a42 43=runs/a43 44=runs/a44 --b 42=runs/bc42 43=runs/bc43 \\
      44=runs/bc44 --relative --bc 42=runs/bc42 43=runs/bc43 44=runs/bc44
  evalview contrast --a 1=runs/a1 --b 1=runs/b1 --json | jq .label   # "descriptive, n_seeds=1"
  evalview contrast --a '1234=t.jsonl [view/arm-a/seed1234]' --b '1234=t.jsonl [view/b/seed1234]'
"""


def _key_path(text: str) -> tuple[str, str, str | None]:
    """KEY=PATH, or KEY=PATH [READ] for one read of a file of named reads (as every door labels
    it): the replicate, the path and the read."""
    key, sep, path = text.partition("=")
    read = None
    if path.endswith("]") and " [" in path:
        path, _, read = path[:-1].rpartition(" [")
    if not sep or not key.strip() or not path or read == "":
        raise argparse.ArgumentTypeError(
            f"{text!r} is not KEY=PATH or KEY=PATH [READ]; write the training replicate and the "
            "read, e.g. 42=runs/a42"
        )
    return key.strip(), path, read


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--a", type=_key_path, nargs="+", action="extend", required=True,
                   metavar="KEY=PATH", help="method A's read of each training replicate")
    p.add_argument("--b", type=_key_path, nargs="+", action="extend", required=True,
                   metavar="KEY=PATH", help="method B's read of each training replicate")
    p.add_argument("--relative", action="store_true",
                   help="report R = 100 (SR_A − SR_B)/SR_BC per replicate (needs --bc)")
    p.add_argument("--bc", type=_key_path, nargs="+", action="extend", metavar="KEY=PATH",
                   help="the plain-BC read of each replicate, for --relative")
    p.add_argument("--allow-off-protocol", action="store_true",
                   help="contrast off-protocol reads too, each labelled OFF-PROTOCOL")
    p.add_argument("--allow-errors", action="store_true",
                   help="score reads with errored rollouts (as non-successes); not publishable")
    p.add_argument("--json", action="store_true", help="write one JSON document to stdout")


def run(args: argparse.Namespace) -> int:
    from evalview.model.address import Address
    from evalview.session import contrast_addresses

    if args.relative != bool(args.bc):
        message = (
            "--relative needs --bc KEY=PATH for every replicate"
            if args.relative else "--bc is only used with --relative; add --relative"
        )
        return fail_unreadable(message, as_json=args.json)

    def side(name: str) -> list[tuple[str, Address]]:
        return [(key, Address.of(path, read)) for key, path, read in getattr(args, name) or []]

    result = contrast_addresses(
        side("a"), side("b"), bc=side("bc") or None, relative=args.relative,
        allow_off_protocol=args.allow_off_protocol, allow_errors=args.allow_errors,
    )
    if args.json:
        emit_json(result.to_json())
    else:
        show(result)
    return EXIT_OK


def show(c: Contrast) -> None:
    from evalview.compare.contrast_text import contrast_lines

    out = console()
    for line in contrast_lines(c):
        out.print("".join(f"[{style}]{escape(text)}[/]" if style else escape(text)
                          for style, text in line))
