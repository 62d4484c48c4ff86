"""``python -m bot`` is the same as the ``tetrad`` command."""

import sys

from bot.cli import main

# Guarded: the AI's worker processes start with "spawn" and import the main module again.
if __name__ == "__main__":
    sys.exit(main())
