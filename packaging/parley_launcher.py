"""Entry point of the frozen app: the same ``parley`` command as a source install.

A child process started with multiprocessing's "spawn" (the document reader,
``parley.engine.documents.reader_process``) is this same executable run again with
multiprocessing's own arguments: ``freeze_support()`` runs that child's work and exits, so it
comes first, before the CLI (and Qt) is imported.
"""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()

    from parley.cli import main

    sys.exit(main())
