"""Where the sample run that `evalview` opens with no PATH lives.

From a checkout it is the committed `sample_runs/robobench-24x50`. An installed package has no
sample_runs/, so the run is generated once (deterministically, about 2.5 MB) into the user cache,
`$XDG_CACHE_HOME/evalview/` (default `~/.cache/evalview/`), in a directory named after the
generator version so a newer generator never reuses stale files.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from evalview.samples.runs import BUNDLED, SAMPLES, write_sample_runs

#: Bump when the generator's output changes, so cached copies are regenerated.
GENERATOR_VERSION = "1"


def checkout_sample_runs() -> Path:
    """`sample_runs/` of the source checkout this package was imported from (may not exist)."""
    return Path(__file__).resolve().parents[3] / "sample_runs"


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "evalview" / f"samples-v{GENERATOR_VERSION}"


def bundled_sample_path() -> Path:
    """The 24-task x 50-seed sample run: the checkout's copy, else a cached generated copy."""
    checkout = checkout_sample_runs() / BUNDLED
    if (checkout / "manifest.json").is_file():
        return checkout
    cached = cache_root() / BUNDLED
    if (cached / "summary.json").is_file():
        return cached
    cache_root().mkdir(parents=True, exist_ok=True)
    # Generate beside the target and rename, so a reader never sees a half-written run and two
    # processes starting at once both end up with a complete copy.
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=cache_root()))
    try:
        write_sample_runs(staging, names=(SAMPLES[0].name,))
        try:
            os.rename(staging / BUNDLED, cached)
        except OSError:
            if not (cached / "summary.json").is_file():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return cached
