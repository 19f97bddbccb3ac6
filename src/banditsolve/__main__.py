import sys

from banditsolve.cli import main

sys.exit(main())
