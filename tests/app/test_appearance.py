"""Dark and high contrast: in each scheme every word the windows draw is readable.

Each scheme (``theme.SCHEMES``: light, dark, and high contrast on a light and on a dark system)
is put on the real app as ``theme.apply_theme`` does when the system or Settings > Desktop >
Appearance asks for it; every window is opened (a conversation with a code block, a notice, the
talk button held, Settings with a problem shown, quick-ask, the tray menu, the dictation
history), painted, and each label, button, text box, tab, list or tree row and menu item is
measured where it is drawn: its background is the commonest colour there, its text the drawn
colour farthest from that, and their contrast (WCAG 2's ratio of relative luminances) must be at
least 4.5:1.  Disabled buttons are left out, as WCAG leaves them.  Which scheme the system's settings
pick (``theme.scheme_for``) is checked against each combination, and the real window follows a
desktop's setting through the freedesktop portal (Xvfb, a private session bus,
``tests/support/fake_portal.py``) as it changes.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QImage
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QLabel,
    QLineEdit,
    QListWidget,
    QMenu,
    QTabBar,
    QTreeWidget,
    QWidget,
)

from parley.app.ui import theme
from tests.app.test_large_text import laid_out
from tests.app.test_portal_shortcuts import Portal, bus  # noqa: F401 - a fixture
from tests.app.test_translations import open_every_window
from tests.support import x11
from tests.support.app_helpers import kept_look, make_controller, tiny_chat_model, tiny_settings  # noqa: F401
from tests.support.lines import LineReader
from tests.support.requirements import require

REPO = Path(__file__).resolve().parents[2]

AA = 4.5  # WCAG 2 AA, normal text
CODE_REPLY = "Here:\n\n```python\nprint('hi')\n```\n\nand `inline` code."


def luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG 2's relative luminance of sRGB colours (the last axis: red, green, blue, 0-255)."""
    c = rgb.astype(np.float64) / 255.0
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return linear @ np.array([0.2126, 0.7152, 0.0722])


def contrast(a: str, b: str) -> float:
    """WCAG 2's contrast ratio of two ``#rrggbb`` colours."""
    la, lb = (float(luminance(np.array([int(h[i : i + 2], 16) for i in (1, 3, 5)]))) for h in (a, b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def pixels(window: QWidget) -> np.ndarray:
    """The window as drawn: height x width x RGB."""
    image = window.grab().toImage().convertToFormat(QImage.Format.Format_RGB888)
    width, height = image.width(), image.height()
    rows = np.frombuffer(image.constBits(), dtype=np.uint8).reshape(height, image.bytesPerLine())
    return rows[:, : width * 3].reshape(height, width, 3).copy()


def drawn_contrast(area: np.ndarray) -> tuple[float, str, str]:
    """The contrast of the text drawn in ``area`` with its background: the background is the
    commonest colour, the text the colour farthest from it in luminance (the core of a glyph)."""
    flat = area.reshape(-1, 3)
    colours, counts = np.unique(flat, axis=0, return_counts=True)
    background = colours[counts.argmax()]
    lum = luminance(colours)
    back = float(luminance(background))
    ratios = (np.maximum(lum, back) + 0.05) / (np.minimum(lum, back) + 0.05)
    text = colours[ratios.argmax()]
    return float(ratios.max()), _hex(background), _hex(text)


def _hex(rgb: np.ndarray) -> str:
    return "#" + "".join(f"{int(v):02x}" for v in rgb)


def text_areas(window: QWidget) -> Iterator[tuple[str, QWidget, QRect]]:
    """Each piece of text ``window`` shows: (what it says, the widget, where it is drawn in it)."""
    for widget in [window, *window.findChildren(QWidget)]:
        if not widget.isVisible() or widget.window() is not window or widget.visibleRegion().isEmpty():
            continue
        inner = widget.rect().adjusted(3, 3, -3, -3)  # inside a frame or a focus border
        if isinstance(widget, QLabel) and widget.text().strip() and widget.pixmap().isNull():
            yield widget.text(), widget, widget.contentsRect()
        elif isinstance(widget, QAbstractButton) and widget.text().strip() and widget.isEnabled():
            yield widget.text(), widget, inner
        elif isinstance(widget, QLineEdit) and (widget.text() or widget.placeholderText()):
            yield widget.text() or widget.placeholderText(), widget, inner
        elif isinstance(widget, QTabBar):
            for index in range(widget.count()):
                yield widget.tabText(index), widget, widget.tabRect(index).adjusted(3, 3, -3, -3)
        elif isinstance(widget, QListWidget):
            for row in range(widget.count()):
                item = widget.item(row)
                box = widget.visualItemRect(item).adjusted(2, 2, -2, -2)
                box.translate(widget.viewport().pos())
                yield item.text(), widget, box.intersected(widget.viewport().geometry())
        elif isinstance(widget, QTreeWidget):
            items = [widget.topLevelItem(i) for i in range(widget.topLevelItemCount())]
            items += [top.child(c) for top in items for c in range(top.childCount())]
            for item in items:
                box = widget.visualItemRect(item).adjusted(2, 2, -2, -2)
                box.setWidth(min(box.width(), widget.columnWidth(0) - 4))  # the first column: the name
                box.translate(widget.viewport().pos())
                yield item.text(0), widget, box.intersected(widget.viewport().geometry())  # not under a scroll bar
        elif isinstance(widget, QMenu):
            for action in widget.actions():
                if action.text() and action.isEnabled():
                    yield action.text(), widget, widget.actionGeometry(action).adjusted(2, 2, -2, -2)


def unreadable(window: QWidget) -> tuple[list[str], float]:
    """The pieces of text in ``window`` below 4.5:1, and the lowest ratio found."""
    image = pixels(window)
    problems, lowest = [], float("inf")
    for text, widget, box in text_areas(window):
        origin = widget.mapTo(window, QPoint(0, 0)) if widget is not window else QPoint(0, 0)
        shown = widget.visibleRegion().boundingRect().intersected(box).translated(origin)
        shown = shown.intersected(QRect(0, 0, image.shape[1], image.shape[0]))
        if shown.width() < 4 or shown.height() < 4:
            continue
        area = image[shown.top() : shown.bottom() + 1, shown.left() : shown.right() + 1]
        ratio, background, colour = drawn_contrast(area)
        if ratio == 1.0:
            continue  # nothing drawn there (a label scrolled out of sight)
        lowest = min(lowest, ratio)
        if ratio < AA:
            problems.append(f"{type(widget).__name__} {text!r}: {colour} on {background} is {ratio:.2f}:1")
    return problems, lowest


@pytest.fixture
def scheme(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[theme.Colours]:
    """The app's look in the scheme ``request.param`` names, put back afterwards."""
    wanted = next(s for s in theme.SCHEMES if s.name == request.param)
    with kept_look(qapp):
        theme.apply_colours(qapp, wanted)  # as apply_theme does on a system that asks for it
        yield wanted


@pytest.mark.parametrize("scheme", [s.name for s in theme.SCHEMES], indirect=True)
def test_every_word_is_readable_in_each_scheme(qtbot, scheme, tmp_path, tiny_chat_model) -> None:
    app = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=4))
    app.window.resize(1200, 800)
    windows = open_every_window(qtbot, app)
    app.first_start.dismiss()
    app.window.conversation_view.add_message("assistant", CODE_REPLY)
    app.window.input_bar.set_recording(True)
    dialog: Any = windows["settings"]
    dialog.error_label.setText("A problem")
    dialog.error_label.show()
    problems: list[str] = []
    lowest: dict[str, float] = {}
    for index in range(dialog.tabs.count()):
        dialog.tabs.setCurrentIndex(index)
        laid_out(qtbot, dialog)
        found, lowest[f"settings {index}"] = unreadable(dialog)
        problems += [f"settings page {dialog.tabs.tabText(index)}: {p}" for p in found]
    dialog.reject()  # closed, as a user closes it: its model library stops looking for models
    for name in ("main window", "quick-ask", "dictation history", "tray menu"):
        laid_out(qtbot, windows[name])
        found, lowest[name] = unreadable(windows[name])
        problems += [f"{name}: {p}" for p in found]
    print(f"{scheme.name}: lowest contrast {min(lowest.values()):.2f}:1 ({min(lowest, key=lowest.__getitem__)})")
    assert not problems, "\n".join(sorted(set(problems)))


def test_a_new_scheme_reaches_the_widgets_that_draw_their_own_colours(qtbot, tmp_path, tiny_chat_model) -> None:
    """The microphone icon and a code block are drawn with the scheme's colours, also when the
    scheme changes while they are shown (the system turning dark)."""
    qapp = QApplication.instance()
    app = make_controller(qtbot, tmp_path, **tiny_settings(tiny_chat_model, max_tokens=4))
    view = app.window.conversation_view
    view.add_message("assistant", CODE_REPLY)
    with kept_look(qapp):
        theme.apply_theme(qapp, "light")
        before = app.window.input_bar.talk_button.icon().pixmap(18).toImage()
        theme.apply_theme(qapp, "dark")
        after = app.window.input_bar.talk_button.icon().pixmap(18).toImage()
        assert before != after
        inked = [after.pixelColor(x, y) for x in range(after.width()) for y in range(after.height())]
        assert {c.name() for c in inked if c.alpha() == 255} == {theme.DARK.text}
        frames = [f.frameFormat().background().color().name() for f in _frames(view)]
        assert frames and set(frames) == {theme.DARK.code_background}


def _frames(view: QWidget) -> list[Any]:
    from parley.app.ui.conversation_view import MarkdownView

    frames = []
    for text in view.findChildren(MarkdownView):
        frames += [f for f in text.document().rootFrame().childFrames()]
    return frames


@pytest.mark.parametrize(
    ("appearance", "dark", "high_contrast", "expected"),
    [
        ("system", False, False, theme.LIGHT),
        ("system", True, False, theme.DARK),
        ("system", False, True, theme.HIGH_CONTRAST_LIGHT),
        ("system", True, True, theme.HIGH_CONTRAST_DARK),
        ("light", True, False, theme.LIGHT),
        ("dark", False, False, theme.DARK),
        ("dark", False, True, theme.HIGH_CONTRAST_DARK),
        ("high-contrast", False, False, theme.HIGH_CONTRAST_LIGHT),
        ("high-contrast", True, False, theme.HIGH_CONTRAST_DARK),
    ],
)
def test_the_system_and_the_setting_pick_the_scheme(appearance, dark, high_contrast, expected) -> None:
    assert theme.scheme_for(appearance, dark, high_contrast) == expected


@pytest.mark.parametrize("scheme", theme.SCHEMES, ids=lambda s: s.name)
def test_the_schemes_own_text_colours_are_readable(scheme: theme.Colours) -> None:
    """Each text colour against each background it is drawn on, as the style sheet pairs them."""
    pairs = [
        ("text", "window"), ("text", "base"), ("text", "sidebar"), ("text", "selected"), ("text", "hover"),
        ("text", "user_bubble"), ("text", "code_background"), ("text", "warning_background"),
        ("muted", "window"), ("muted", "sidebar"), ("muted", "base"), ("role", "base"), ("link", "base"),
        ("on_accent", "accent"), ("on_accent", "accent_hover"), ("on_recording", "recording"),
        ("recording_text", "base"), ("recording_text", "window"), ("error", "window"), ("error", "base"),
    ]  # fmt: skip
    low = {f"{a} on {b}": round(contrast(getattr(scheme, a), getattr(scheme, b)), 2) for a, b in pairs}
    assert {k: v for k, v in low.items() if v < AA} == {}


@pytest.mark.x11
def test_the_window_follows_the_desktops_setting_through_the_portal(bus: str) -> None:
    """On an X server with a desktop portal (GNOME's settings, as its portal backend gives them:
    ``org.freedesktop.appearance``), the real main window starts dark when the desktop is dark,
    and turns light, then high contrast, while it runs, as the user switches them; Qt reads the
    portal (its GNOME platform theme) and ``theme.apply_theme`` follows Qt's style hints."""
    require(not x11.missing_tools(), f"not installed: {', '.join(x11.missing_tools())}")
    portal = Portal(bus, "--dark")
    try:
        with x11.xvfb("1024x768x24") as display:
            env = dict(
                os.environ,
                DBUS_SESSION_BUS_ADDRESS=bus,
                DISPLAY=display,
                QT_QPA_PLATFORM="xcb",
                QT_QPA_PLATFORMTHEME="gnome",
                PYTHONPATH=str(REPO),
            )
            child = subprocess.Popen(
                [sys.executable, "-m", "tests.support.appearance_child"],
                env=env,
                cwd=REPO,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
            )
            try:
                lines = LineReader(child.stdout)  # type: ignore[arg-type]

                def now_shows(scheme: theme.Colours) -> None:
                    said = ""
                    while said != f"scheme {scheme.name} {scheme.sidebar}":
                        said = lines.next(60).strip()
                        assert said, "the window's process ended"

                now_shows(theme.DARK)
                portal.key("appearance color-scheme 2")  # the user picks light
                now_shows(theme.LIGHT)
                portal.key("appearance contrast 1")  # then high contrast
                now_shows(theme.HIGH_CONTRAST_LIGHT)
            finally:
                child.kill()
                child.wait()
    finally:
        portal.stop()
