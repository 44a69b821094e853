"""The import contract of pyproject.toml holds (as `.ci/run` checks with `lint-imports`)."""

from __future__ import annotations

import shutil
import subprocess

from helpers.paths import REPO


def test_layers_import_downward_and_the_core_never_imports_the_views() -> None:
    exe = shutil.which("lint-imports")
    assert exe, "import-linter is in the test extra: pip install -e '.[test]'"
    done = subprocess.run(
        [exe, "--no-cache"], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 kept, 0 broken" in done.stdout
