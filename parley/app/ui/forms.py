"""What every page of fields shares: each field named by its label for a screen reader, and a
page that scrolls rather than squeezing its words when the text is large."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QFormLayout, QFrame, QLabel, QLineEdit, QScrollArea, QWidget


def name_fields(form: QFormLayout) -> None:
    """Give each field of ``form`` its label's words as its accessible name, and the parts a
    screen reader meets inside it (a drop-down's list, a key field's text box) the same: Qt
    names a drop-down by its current choice, and a key sequence field's box not at all."""
    for row in range(form.rowCount()):
        label, field = (
            form.itemAt(row, role) for role in (QFormLayout.ItemRole.LabelRole, QFormLayout.ItemRole.FieldRole)
        )
        label_widget = label.widget() if label is not None else None
        widget = field.widget() if field is not None else None
        if not isinstance(label_widget, QLabel) or widget is None or not label_widget.text():
            continue
        name = label_widget.text().replace("&", "").rstrip(":： ")
        if not widget.accessibleName():
            widget.setAccessibleName(name)
        if isinstance(widget, QComboBox):
            widget.view().setAccessibleName(name)
        for inner in widget.findChildren(QLineEdit):
            inner.setAccessibleName(name)


def scrolling(page: QWidget) -> QScrollArea:
    """``page`` in a frameless scroll area: with large text a page may be taller (or wider) than
    the screen, and scrolls rather than squeezing its words."""
    area = QScrollArea(frameShape=QFrame.Shape.NoFrame, widgetResizable=True)
    area.setWidget(page)
    return area
