"""Colours, fonts and the one style sheet of the application.

The text follows the system's font size (a large-text setting included; never below 10 pt), and
the titles are sized from it.  The colours follow the system's dark and high-contrast settings
(Qt's ``QStyleHints.colorScheme`` and ``accessibility().contrastPreference``, which Qt reads from
the desktop: the freedesktop portal's ``org.freedesktop.appearance`` on Linux), or the user's
choice in Settings (``Settings.appearance``); they change while Parley runs when the system's
do.  The system's high contrast can be read from Qt 6.10 on; the installers that must carry an
older Qt (6.9.3: the .deb for glibc 2.30, Windows for Wine 8.0) follow its dark setting only,
``follows_system_contrast`` says so, and Settings offers High contrast as a choice of its own.
Every colour a widget shows comes from the ``Colours`` in use, through the application's
palette and style sheet, so no widget keeps a colour of its own: a widget that draws with one
(the microphone icon, a code block's frame) draws again on ``QEvent.PaletteChange``.  Each
text colour is at least 4.5:1 against its background (WCAG AA), as tests/app/test_appearance.py
measures on the rendered widgets.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QIcon, QPainter, QPalette, QPen, QPixmap, QStyleHints
from PySide6.QtWidgets import QApplication, QWidget

from ...config.settings import APPEARANCES


@dataclass(frozen=True)
class Colours:
    """One scheme's colours (``#rrggbb``); ``on_x`` is the text drawn on the background ``x``."""

    name: str
    dark: bool
    window: str
    base: str  # text boxes, buttons, a reply's block
    text: str
    muted: str  # hints, footers, the status line
    sidebar: str
    border: str
    selected: str  # the conversation list's selected row
    hover: str
    accent: str  # the primary button, the role label, a text box's focus, links
    accent_hover: str
    on_accent: str
    role: str  # "Parley" above a reply (the accent as text, readable on the window)
    recording: str  # the talk button held, hands-free on (a background)
    on_recording: str
    recording_text: str  # "● Recording", the Stop button's text
    user_bubble: str
    bubble_border: str  # around the user's messages: only high contrast draws one
    code_background: str
    warning_background: str
    warning_border: str
    error: str  # a problem's text
    focus: str  # the keyboard focus's frame
    disabled_text: str
    disabled_background: str
    primary_disabled: str
    on_primary_disabled: str
    level_background: str
    link: str


LIGHT = Colours(
    name="light",
    dark=False,
    window="#f6f7f9",
    base="#ffffff",
    text="#1d2127",
    muted="#5f6672",
    sidebar="#eceef2",
    border="#dfe2e7",
    selected="#d8def0",
    hover="#e2e5ec",
    accent="#3461d1",
    accent_hover="#2a52b8",
    on_accent="#ffffff",
    role="#2f58c0",
    recording="#c62828",
    on_recording="#ffffff",
    recording_text="#b42318",
    user_bubble="#e3ebfd",
    bubble_border="#e3ebfd",
    code_background="#f2f4f7",
    warning_background="#fff4e0",
    warning_border="#f0c58a",
    error="#b42318",
    focus="#1b3a8a",  # dark enough to show on white and on the accent
    disabled_text="#6b7280",
    disabled_background="#f3f4f6",
    primary_disabled="#a9b9e6",
    on_primary_disabled="#1d2127",
    level_background="#e5e7eb",
    link="#2f58c0",
)

DARK = Colours(
    name="dark",
    dark=True,
    window="#1b1d21",
    base="#26292e",
    text="#e8eaed",
    muted="#a9b0ba",
    sidebar="#22252a",
    border="#3a3f46",
    selected="#34405c",
    hover="#2d3137",
    accent="#3b6ad8",
    accent_hover="#2f5fcf",
    on_accent="#ffffff",
    role="#8fb0ff",
    recording="#c62828",
    on_recording="#ffffff",
    recording_text="#ff8a80",
    user_bubble="#253250",
    bubble_border="#253250",
    code_background="#202327",
    warning_background="#3a2f17",
    warning_border="#7a5a1e",
    error="#ff8a80",
    focus="#a8c2ff",  # light enough to show on the window and on the accent
    disabled_text="#8a919b",
    disabled_background="#24272b",
    primary_disabled="#34405c",
    on_primary_disabled="#c9ced6",
    level_background="#3a3f46",
    link="#8fb0ff",
)

HIGH_CONTRAST_DARK = Colours(
    name="high-contrast-dark",
    dark=True,
    window="#000000",
    base="#000000",
    text="#ffffff",
    muted="#ffffff",
    sidebar="#000000",
    border="#ffffff",
    selected="#1a3a80",
    hover="#202020",
    accent="#ffff00",
    accent_hover="#ffff66",
    on_accent="#000000",
    role="#ffff00",
    recording="#ffff00",
    on_recording="#000000",
    recording_text="#ffff00",
    user_bubble="#000000",
    bubble_border="#ffffff",
    code_background="#000000",
    warning_background="#000000",
    warning_border="#ffff00",
    error="#ffff00",
    focus="#00ffff",
    disabled_text="#c0c0c0",
    disabled_background="#000000",
    primary_disabled="#000000",
    on_primary_disabled="#c0c0c0",
    level_background="#404040",
    link="#00ffff",
)

HIGH_CONTRAST_LIGHT = Colours(
    name="high-contrast-light",
    dark=False,
    window="#ffffff",
    base="#ffffff",
    text="#000000",
    muted="#000000",
    sidebar="#ffffff",
    border="#000000",
    selected="#c8d8ff",
    hover="#e8e8e8",
    accent="#00207a",
    accent_hover="#00309f",
    on_accent="#ffffff",
    role="#00207a",
    recording="#8b0000",
    on_recording="#ffffff",
    recording_text="#8b0000",
    user_bubble="#ffffff",
    bubble_border="#000000",
    code_background="#ffffff",
    warning_background="#ffffff",
    warning_border="#000000",
    error="#8b0000",
    focus="#000000",
    disabled_text="#404040",
    disabled_background="#ffffff",
    primary_disabled="#ffffff",
    on_primary_disabled="#404040",
    level_background="#c0c0c0",
    link="#00207a",
)

SCHEMES = (LIGHT, DARK, HIGH_CONTRAST_LIGHT, HIGH_CONTRAST_DARK)

_in_use = LIGHT
_appearance = "system"
_following: QApplication | None = None  # the application whose system settings are followed


def colours() -> Colours:
    """The colours in use now."""
    return _in_use


def scheme_for(appearance: str, system_dark: bool, system_high_contrast: bool) -> Colours:
    """The colours for the user's ``appearance`` (``APPEARANCES``) on a system that prefers dark
    and/or high contrast.  An explicit light or dark keeps the system's high contrast."""
    dark = {"light": False, "dark": True}.get(appearance, system_dark)
    if appearance == "high-contrast" or system_high_contrast:
        return HIGH_CONTRAST_DARK if dark else HIGH_CONTRAST_LIGHT
    return DARK if dark else LIGHT


def _accessibility_hints(hints: QStyleHints) -> QObject | None:
    """Qt's ``QAccessibilityHints`` of ``hints`` (Qt 6.10 and later), None on an older Qt; valid
    while the caller holds ``hints`` (PySide drops it with the wrapper it came from).  Its names
    are reached as strings: tests/app/test_oldest_qt.py refuses any Qt name newer than the
    oldest shipped PySide6 written as an attribute or an import."""
    accessibility = getattr(hints, "accessibility", None)
    return accessibility() if accessibility is not None else None


def follows_system_contrast(app: QApplication) -> bool:
    """Whether this Qt can read the system's high-contrast setting (6.10 and later)."""
    hints = app.styleHints()
    return _accessibility_hints(hints) is not None


def system_high_contrast(app: QApplication) -> bool:
    """Whether the system asks for high contrast now; False where Qt cannot tell."""
    hints = app.styleHints()
    accessibility = _accessibility_hints(hints)
    preference = getattr(Qt, "ContrastPreference", None)
    if accessibility is None or preference is None:
        return False
    return bool(getattr(accessibility, "contrastPreference")() == getattr(preference, "HighContrast"))  # noqa: B009


def system_scheme(app: QApplication, appearance: str) -> Colours:
    """``scheme_for`` with what the system says now (Qt's style hints)."""
    dark = app.styleHints().colorScheme() == Qt.ColorScheme.Dark
    return scheme_for(appearance, dark, system_high_contrast(app))


def style_sheet(body_pt: float, c: Colours | None = None) -> str:
    """The style sheet for text of ``body_pt`` points in the colours ``c`` (those in use): the
    titles grow with the system's font size (a large-text setting), as the body does."""
    c = c or _in_use
    title, heading = f"{body_pt * 1.7:.1f}", f"{body_pt * 1.5:.1f}"
    return f"""
QMainWindow, QDialog {{ background: {c.window}; }}
QWidget {{ color: {c.text}; }}
#Sidebar {{ background: {c.sidebar}; border-right: 1px solid {c.border}; }}
#Sidebar QListWidget {{ background: transparent; border: none; outline: none; }}
#Sidebar QListWidget::item {{ padding: 7px 8px; border-radius: 6px; margin: 1px 0; }}
#Sidebar QListWidget::item:selected {{ background: {c.selected}; color: {c.text}; }}
#Sidebar QListWidget::item:hover:!selected {{ background: {c.hover}; }}
QLineEdit, QPlainTextEdit {{
    background: {c.base}; border: 1px solid {c.border}; border-radius: 6px; padding: 4px 6px;
    selection-background-color: {c.accent}; selection-color: {c.on_accent};
    placeholder-text-color: {c.muted};
}}
QLineEdit:focus, QPlainTextEdit:focus {{ border-color: {c.accent}; }}
QSpinBox, QDoubleSpinBox, QComboBox {{ min-height: 24px; }}
#InputBar {{ background: {c.window}; border-top: 1px solid {c.border}; }}
#MessageEdit {{ padding: 6px 8px; border-radius: 10px; }}
QPushButton {{
    background: {c.base}; border: 1px solid {c.border}; border-radius: 6px; padding: 5px 12px;
}}
QPushButton:hover {{ background: {c.hover}; }}
QPushButton:disabled {{ color: {c.disabled_text}; background: {c.disabled_background}; }}
QPushButton#PrimaryButton {{
    background: {c.accent}; color: {c.on_accent}; border-color: {c.accent}; font-weight: 600;
}}
QPushButton#PrimaryButton:hover {{ background: {c.accent_hover}; }}
QPushButton#PrimaryButton:disabled {{
    background: {c.primary_disabled}; color: {c.on_primary_disabled}; border-color: {c.border};
}}
QPushButton#StopButton {{
    background: {c.base}; color: {c.recording_text}; border-color: {c.recording_text}; font-weight: 600;
}}
QPushButton#TalkButton {{ font-weight: 600; }}
QPushButton#TalkButton[recording="true"] {{
    background: {c.recording}; color: {c.on_recording}; border-color: {c.recording};
}}
QPushButton#HandsFreeButton:checked {{
    background: {c.recording}; color: {c.on_recording}; border-color: {c.recording};
}}
QLabel#LiveTranscript {{ color: {c.muted}; font-style: italic; padding: 0 2px; }}
QLabel#RecordingLabel {{ color: {c.recording_text}; font-weight: 600; }}
QLabel[problem="true"] {{ color: {c.error}; }}
QToolButton#MessageAction {{
    border: none; border-radius: 4px; padding: 2px 6px; color: {c.muted}; background: transparent;
}}
QToolButton#MessageAction:hover {{ background: {c.hover}; color: {c.text}; }}
QTextBrowser#MessageText {{ background: transparent; border: none; }}
QFrame#UserBubble {{ background: {c.user_bubble}; border: 1px solid {c.bubble_border}; border-radius: 14px; }}
QFrame#AssistantBlock {{ background: {c.base}; border: 1px solid {c.border}; border-radius: 12px; }}
QLabel#RoleLabel {{ font-weight: 600; color: {c.role}; }}
QLabel#MessageFooter, QLabel#Hint {{ color: {c.muted}; }}
QLabel#EmptyTitle {{ font-size: {title}pt; font-weight: 600; color: {c.text}; }}
QLabel#SidebarTitle {{ font-size: {heading}pt; font-weight: 700; }}
QFrame#Notice {{
    background: {c.warning_background}; border: 1px solid {c.warning_border}; border-radius: 8px;
}}
QScrollArea#ConversationView, QWidget#ConversationCanvas {{ background: {c.window}; border: none; }}
QProgressBar#LevelMeter {{ background: {c.level_background}; border: none; border-radius: 3px; }}
QProgressBar#LevelMeter::chunk {{ background: {c.recording}; border-radius: 3px; }}
QStatusBar {{ background: {c.sidebar}; border-top: 1px solid {c.border}; color: {c.muted}; }}
QStatusBar QLabel {{ color: {c.muted}; padding: 0 6px; }}
QPushButton:focus, QToolButton#MessageAction:focus {{ border: 2px solid {c.focus}; }}
QPushButton#PrimaryButton:focus, QPushButton#TalkButton[recording="true"]:focus,
QPushButton#HandsFreeButton:checked:focus {{ border: 2px solid {c.focus}; }}
QTextBrowser#MessageText:focus {{ border: 2px solid {c.focus}; border-radius: 4px; }}
#Sidebar QListWidget:focus {{ border: 2px solid {c.focus}; border-radius: 6px; }}
QLineEdit:focus, QPlainTextEdit:focus {{ border: 2px solid {c.focus}; }}
"""


def palette(c: Colours) -> QPalette:
    """A whole palette for ``c``: Qt derives the shades it draws frames and disabled text with
    from the button and window colours; the roles the app's text uses are set outright."""
    result = QPalette(QColor(c.base), QColor(c.window))
    for role, colour in (
        (QPalette.ColorRole.Window, c.window),
        (QPalette.ColorRole.Base, c.base),
        (QPalette.ColorRole.AlternateBase, c.sidebar),
        (QPalette.ColorRole.Text, c.text),
        (QPalette.ColorRole.WindowText, c.text),
        (QPalette.ColorRole.ButtonText, c.text),
        (QPalette.ColorRole.Button, c.base),
        (QPalette.ColorRole.Highlight, c.accent),
        (QPalette.ColorRole.HighlightedText, c.on_accent),
        (QPalette.ColorRole.Link, c.link),
        (QPalette.ColorRole.LinkVisited, c.link),
        (QPalette.ColorRole.PlaceholderText, c.muted),
        (QPalette.ColorRole.ToolTipBase, c.base),
        (QPalette.ColorRole.ToolTipText, c.text),
        (QPalette.ColorRole.BrightText, c.error),
        (QPalette.ColorRole.Accent, c.accent),
    ):
        result.setColor(role, QColor(colour))
    result.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor(c.disabled_text))
    result.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText, QColor(c.disabled_text))
    result.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor(c.disabled_text))
    return result


def apply_theme(app: QApplication, appearance: str | None = None) -> Colours:
    """The colours of ``appearance`` (one of ``APPEARANCES``; None: the one last given, at first
    "system") on the system as it is now (``apply_colours``).  From then on, a change of the
    system's dark or high-contrast setting applies them again.  Returns the colours now in use."""
    global _appearance, _following
    _appearance = appearance if appearance in APPEARANCES else _appearance
    apply_colours(app, system_scheme(app, _appearance))
    if _following is not app:
        _following = app
        hints = app.styleHints()
        hints.colorSchemeChanged.connect(lambda _scheme: _system_changed(app))
        accessibility = _accessibility_hints(hints)
        if accessibility is not None:
            changed = getattr(accessibility, "contrastPreferenceChanged")  # noqa: B009  (Qt 6.10)
            changed.connect(lambda _preference: _system_changed(app))
    return _in_use


def apply_colours(app: QApplication, c: Colours) -> None:
    """The Fusion look, identical on every platform, in the colours ``c``, with the system's
    font size (never below 10 pt)."""
    global _in_use
    _in_use = c
    app.setStyle("Fusion")
    app.setPalette(palette(c))
    font = app.font()
    font.setPointSizeF(max(font.pointSizeF(), 10.0))
    app.setFont(font)
    app.setStyleSheet(style_sheet(font.pointSizeF()))


def _system_changed(app: QApplication) -> None:
    if system_scheme(app, _appearance) != _in_use:
        apply_theme(app)


def mark_problem(label: QWidget, problem: bool = True) -> None:
    """Show ``label``'s text as a problem (the scheme's error colour) or as plain text."""
    label.setProperty("problem", problem)
    label.style().unpolish(label)
    label.style().polish(label)


def monospace_font() -> QFont:
    """The system's fixed-pitch font at the size of the text around it (its own default is smaller)."""
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font.setStyleHint(QFont.StyleHint.Monospace)
    body = QApplication.font().pointSizeF()
    if body > 0:
        font.setPointSizeF(body * 0.95)
    return font


def microphone_icon(colour: str, size: int = 18) -> QIcon:
    """A drawn microphone, so the button needs no icon theme or emoji font."""
    scale = 2  # drawn at twice the size: crisp on HiDPI screens
    pixmap = QPixmap(size * scale, size * scale)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.scale(size * scale / 20, size * scale / 20)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(colour))
    painter.drawRoundedRect(QRectF(7, 1.5, 6, 11), 3, 3)
    pen = QPen(QColor(colour), 1.6, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawArc(QRectF(4, 3.5, 12, 12), 180 * 16, 180 * 16)
    painter.drawLine(10, 15, 10, 18)
    painter.drawLine(7, 18, 13, 18)
    painter.end()
    pixmap.setDevicePixelRatio(scale)
    return QIcon(pixmap)
