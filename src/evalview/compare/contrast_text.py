"""What a contrast says: one wording for `evalview contrast` and the Runs screen's contrast.

Each line is a list of (style, text) segments, the style a rich/Textual style name ("" for
plain); the views only style and escape them, so the two can never word a number differently.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from evalview.fmt import fixed

if TYPE_CHECKING:
    from evalview.compare.contrast import Contrast

Segment = tuple[str, str]
Line = list[Segment]


def contrast_lines(c: Contrast) -> list[Line]:
    """Per-replicate differences (and R), the mean and SD, the claim, labels, off-protocol whys."""
    lines: list[Line] = []
    for rep in c.replicates:
        text = (
            f"replicate {rep.key}: {fixed(rep.difference_points, 2, sign=True)} pt "
            f"(eval SE of this pair {fixed(rep.eval_se_points, 2)})"
        )
        if rep.relative is not None and rep.relative_se is not None:
            text += (
                f"; R = {fixed(rep.relative, 2, sign=True)} % of BC (delta-method SE "
                f"{fixed(rep.relative_se, 2)})"
            )
        line: Line = [("", text)]
        if rep.a.off_protocol or rep.b.off_protocol:
            line += [("", " "), ("bold red", "OFF-PROTOCOL")]
        lines.append(line)
        lines += [[("yellow", f"  {note}")] for note in rep.notes]
    sd = "—" if c.sd_points is None else fixed(c.sd_points, 2)
    mean = fixed(c.mean_points, 2, sign=True)
    lines.append([
        ("bold", c.title),
        ("", f": mean {mean} pt, sample SD {sd}, pairs {c.pairs} [{c.label}]"),
    ])
    if c.relative and c.relative_mean is not None:
        rsd = "—" if c.relative_sd is None else fixed(c.relative_sd, 2)
        rmean = fixed(c.relative_mean, 2, sign=True)
        lines.append([("", f"relative: mean R {rmean} %, sample SD {rsd}")])
    lines.append([("bold" if c.claim else "bold yellow", c.statement())])
    lines += [[("bold red" if label == "OFF-PROTOCOL" else "yellow", label)] for label in c.labels]
    for rep in c.replicates:
        for sr in (rep.a, rep.b):
            lines += [[("red", f"OFF-PROTOCOL {sr.facts.label}:"), ("", f" {reason}")]
                      for reason in sr.off_protocol]
    return lines
