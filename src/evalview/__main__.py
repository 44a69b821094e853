"""`python -m evalview` is the same as the `evalview` command."""

from evalview.cli import main

raise SystemExit(main())
