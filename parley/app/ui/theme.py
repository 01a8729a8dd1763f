"""Colours, fonts and the one style sheet of the application.

The text follows the system's font size (a large-text setting included; never below 10 pt), and
the titles are sized from it.  The keyboard focus is drawn in a dark frame (``FOCUS``).
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QIcon, QPainter, QPalette, QPen, QPixmap
from PySide6.QtWidgets import QApplication

ACCENT = "#3461d1"
ACCENT_HOVER = "#2a52b8"
TEXT = "#1d2127"
MUTED = "#6b7280"
WINDOW = "#f6f7f9"
SIDEBAR = "#eceef2"
BORDER = "#dfe2e7"
USER_BUBBLE = "#e3ebfd"
ASSISTANT_BLOCK = "#ffffff"
CODE_BACKGROUND = "#f2f4f7"
RECORDING = "#d93a3a"
WARNING_BACKGROUND = "#fff4e0"
WARNING_BORDER = "#f0c58a"
FOCUS = "#1b3a8a"  # the keyboard focus's frame: dark enough to show on white and on the accent

STYLE_SHEET = f"""
QMainWindow, QDialog {{ background: {WINDOW}; }}
QWidget {{ color: {TEXT}; }}
#Sidebar {{ background: {SIDEBAR}; border-right: 1px solid {BORDER}; }}
#Sidebar QListWidget {{ background: transparent; border: none; outline: none; }}
#Sidebar QListWidget::item {{ padding: 7px 8px; border-radius: 6px; margin: 1px 0; }}
#Sidebar QListWidget::item:selected {{ background: #d8def0; color: {TEXT}; }}
#Sidebar QListWidget::item:hover:!selected {{ background: #e2e5ec; }}
QLineEdit, QPlainTextEdit {{
    background: white; border: 1px solid {BORDER}; border-radius: 6px; padding: 4px 6px;
    selection-background-color: {ACCENT};
}}
QLineEdit:focus, QPlainTextEdit:focus {{ border-color: {ACCENT}; }}
QSpinBox, QDoubleSpinBox, QComboBox {{ min-height: 24px; }}
#InputBar {{ background: {WINDOW}; border-top: 1px solid {BORDER}; }}
#MessageEdit {{ padding: 6px 8px; border-radius: 10px; }}
QPushButton {{
    background: white; border: 1px solid {BORDER}; border-radius: 6px; padding: 5px 12px;
}}
QPushButton:hover {{ background: #f0f2f6; }}
QPushButton:disabled {{ color: #a3a8b1; background: #f3f4f6; }}
QPushButton#PrimaryButton {{ background: {ACCENT}; color: white; border-color: {ACCENT}; font-weight: 600; }}
QPushButton#PrimaryButton:hover {{ background: {ACCENT_HOVER}; }}
QPushButton#PrimaryButton:disabled {{ background: #a9b9e6; border-color: #a9b9e6; }}
QPushButton#StopButton {{ background: white; color: {RECORDING}; border-color: {RECORDING}; font-weight: 600; }}
QPushButton#TalkButton {{ font-weight: 600; }}
QPushButton#TalkButton[recording="true"] {{ background: {RECORDING}; color: white; border-color: {RECORDING}; }}
QPushButton#HandsFreeButton:checked {{ background: {RECORDING}; color: white; border-color: {RECORDING}; }}
QLabel#LiveTranscript {{ color: {MUTED}; font-style: italic; padding: 0 2px; }}
QToolButton#MessageAction {{
    border: none; border-radius: 4px; padding: 2px 6px; color: {MUTED}; background: transparent;
}}
QToolButton#MessageAction:hover {{ background: rgba(0, 0, 0, 0.06); color: {TEXT}; }}
QTextBrowser#MessageText {{ background: transparent; border: none; }}
QFrame#UserBubble {{ background: {USER_BUBBLE}; border-radius: 14px; }}
QFrame#AssistantBlock {{ background: {ASSISTANT_BLOCK}; border: 1px solid {BORDER}; border-radius: 12px; }}
QLabel#RoleLabel {{ font-weight: 600; color: {ACCENT}; }}
QLabel#MessageFooter, QLabel#Hint {{ color: {MUTED}; }}
QLabel#EmptyTitle {{ font-size: {{title}}pt; font-weight: 600; color: {TEXT}; }}
QLabel#SidebarTitle {{ font-size: {{heading}}pt; font-weight: 700; }}
QFrame#Notice {{ background: {WARNING_BACKGROUND}; border: 1px solid {WARNING_BORDER}; border-radius: 8px; }}
QScrollArea#ConversationView, QWidget#ConversationCanvas {{ background: {WINDOW}; border: none; }}
QProgressBar#LevelMeter {{ background: #e5e7eb; border: none; border-radius: 3px; }}
QProgressBar#LevelMeter::chunk {{ background: {RECORDING}; border-radius: 3px; }}
QStatusBar {{ background: {SIDEBAR}; border-top: 1px solid {BORDER}; color: {MUTED}; }}
QStatusBar QLabel {{ color: {MUTED}; padding: 0 6px; }}
QPushButton:focus, QToolButton#MessageAction:focus {{ border: 2px solid {FOCUS}; }}
QPushButton#PrimaryButton:focus, QPushButton#TalkButton[recording="true"]:focus,
QPushButton#HandsFreeButton:checked:focus {{ border: 2px solid {FOCUS}; }}
QTextBrowser#MessageText:focus {{ border: 2px solid {FOCUS}; border-radius: 4px; }}
#Sidebar QListWidget:focus {{ border: 2px solid {FOCUS}; border-radius: 6px; }}
QLineEdit:focus, QPlainTextEdit:focus {{ border: 2px solid {FOCUS}; }}
"""


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


def apply_theme(app: QApplication) -> None:
    """A light Fusion look, identical on every platform, with a slightly larger base font."""
    app.setStyle("Fusion")
    palette = app.palette()
    for role, colour in (
        (QPalette.ColorRole.Window, WINDOW),
        (QPalette.ColorRole.Base, "#ffffff"),
        (QPalette.ColorRole.Text, TEXT),
        (QPalette.ColorRole.WindowText, TEXT),
        (QPalette.ColorRole.ButtonText, TEXT),
        (QPalette.ColorRole.Button, "#ffffff"),
        (QPalette.ColorRole.Highlight, ACCENT),
        (QPalette.ColorRole.Link, ACCENT),
        (QPalette.ColorRole.PlaceholderText, MUTED),
    ):
        palette.setColor(role, QColor(colour))
    app.setPalette(palette)
    font = app.font()
    font.setPointSizeF(max(font.pointSizeF(), 10.0))
    app.setFont(font)
    app.setStyleSheet(style_sheet(font.pointSizeF()))


def style_sheet(body_pt: float) -> str:
    """The style sheet for text of ``body_pt`` points: the titles grow with the system's font
    size (a large-text setting), as the body does."""
    return STYLE_SHEET.replace("{title}", f"{body_pt * 1.7:.1f}").replace("{heading}", f"{body_pt * 1.5:.1f}")
