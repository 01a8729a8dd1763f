"""``parley`` with no command: the desktop application (``--self-test`` runs the self-test)."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Sequence

from .bootstrap import create_app, create_window, start_controller


def run_app(argv: Sequence[str]) -> int:
    if "--self-test" in argv[1:]:
        from .selftest import run_self_test
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
        return run_self_test(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    app = create_app(argv)
    window = create_window()
    controller = start_controller(window)
    code = app.exec()
    if controller.stopped_cleanly is False:
        # An engine thread is still inside a native call (e.g. a model that was still
        # loading); the conversation is saved, so leave now rather than wait for it.
        logging.shutdown()
        os._exit(code)
    return code


if __name__ == "__main__":
    sys.exit(run_app(sys.argv))
