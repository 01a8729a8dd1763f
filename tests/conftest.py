"""Shared test configuration: headless Qt, and the real native build as a precondition."""

from __future__ import annotations

import os

# Real Qt windows, rendered offscreen unless the caller chose a platform (e.g. xcb under Xvfb).
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
