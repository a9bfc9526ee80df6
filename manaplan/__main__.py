"""``python -m manaplan``: the same command line as ``manaplan``."""

import sys

from .cli import main

sys.exit(main())
