"""``python -m banditsolve``: the command line."""

import sys

from banditsolve.cli import main

sys.exit(main())
