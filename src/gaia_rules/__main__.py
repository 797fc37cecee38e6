"""``python -m gaia_rules``: the ``gaia-rules`` command (see :mod:`gaia_rules.cli`)."""

from __future__ import annotations

import sys

from gaia_rules.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
