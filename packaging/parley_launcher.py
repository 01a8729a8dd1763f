"""Entry point of the frozen app: the same ``parley`` command as a source install."""

import sys

from parley.cli import main

sys.exit(main())
