"""The main window in the system's appearance, for tests/app/test_appearance.py: run on an X
server with a desktop portal on the session bus, it prints ``scheme NAME COLOUR`` (the scheme
in use, the colour the window's sidebar is drawn in) at the start and after each change of the
system's dark or high-contrast setting, as Qt reads them from the portal.

    python -m tests.support.appearance_child [APPEARANCE]      (default: system)
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from parley.app.ui import theme
from parley.app.ui.main_window import MainWindow


def main() -> None:
    app = QApplication(sys.argv[:1])
    theme.apply_theme(app, sys.argv[1] if len(sys.argv) > 1 else "system")
    window = MainWindow()
    window.resize(800, 600)
    window.show()

    def report() -> None:
        drawn = window.grab().toImage().pixelColor(4, window.height() // 2).name()
        print(f"scheme {theme.colours().name} {drawn}", flush=True)

    hints = app.styleHints()
    accessibility = hints.accessibility()
    for changed in (hints.colorSchemeChanged, accessibility.contrastPreferenceChanged):
        changed.connect(lambda _value: QTimer.singleShot(100, report))  # once the window is drawn again
    QTimer.singleShot(500, report)
    app.exec()


if __name__ == "__main__":
    main()
