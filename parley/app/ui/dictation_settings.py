"""Settings > Dictation: what is done to a dictation before it is typed, its history, and the
modes per application.

Widgets only: what needs the engine (how much of the vocabulary whisper's prompt holds, the
modes and what they do, the spoken commands) comes in a ``DictationHelp`` made by the settings
flow, in the interface's words; the replacement rules are checked by the dialog's ``validate``
when the settings are saved.  Every field has a name a screen reader says (its label's words,
or its own text) and an Alt+letter that no other field of the page uses; Tab goes through the
fields in the order they are shown, and leaves a table or a text box rather than moving inside
it (the arrow keys move between a table's cells).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...config.settings import Settings
from ..signals import emit
from . import theme
from .forms import name_fields


@dataclass(frozen=True)
class DictationHelp:
    """What the Dictation tab tells, from the engine (the settings flow makes it, translated)."""

    # The note under the vocabulary: its bounds, what whisper's prompt holds (None: the count).
    vocabulary_note: Callable[[list[str]], str] | None = None
    modes: list[tuple[str, str]] = field(default_factory=lambda: [("default", "")])  # (mode, what it does)
    spoken_commands: str = ""  # the spoken punctuation commands, in words
    default_prompt: str = ""  # the clean-up prompt's default, for Reset
    app_modes_problem: str | None = None  # why the modes per application cannot work in this session
    warnings: list[str] = field(default_factory=list)  # what the engine left out of the stored values


# A table's cell is edited as it is typed into, with F2, or with a click on the selected cell.
_EDIT_TRIGGERS = (
    QAbstractItemView.EditTrigger.DoubleClicked
    | QAbstractItemView.EditTrigger.SelectedClicked
    | QAbstractItemView.EditTrigger.EditKeyPressed
    | QAbstractItemView.EditTrigger.AnyKeyPressed
)


class ModeChoice(QStyledItemDelegate):
    """The Mode column: each cell shows its mode (a screen reader says it, and what it does),
    and is edited with a drop-down of the modes.  A drop-down per row would be a Tab stop per
    row; the cells are reached with the arrow keys, as the class names are."""

    def __init__(self, modes: list[tuple[str, str]], parent: QWidget) -> None:
        super().__init__(parent)
        self.modes = modes

    def set_mode(self, model: QAbstractItemModel, index: QModelIndex | QPersistentModelIndex, mode: str) -> None:
        what = dict(self.modes).get(mode, "")
        model.setData(index, mode)
        for role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleDescriptionRole):
            model.setData(index, what or None, role)

    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QWidget:
        choice = QComboBox(parent)
        choice.setAccessibleName(self.tr("Mode"))
        for value, what in self.modes:
            choice.addItem(value, value)
            choice.setItemData(choice.count() - 1, what or None, Qt.ItemDataRole.ToolTipRole)
        current = str(index.data())
        if choice.findData(current) < 0:
            choice.addItem(current, current)
        choice.activated.connect(lambda _index: emit(self.commitData, choice))
        return choice

    def setEditorData(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:
        if isinstance(editor, QComboBox):
            editor.setCurrentIndex(max(0, editor.findData(str(index.data()))))

    def setModelData(
        self, editor: QWidget, model: QAbstractItemModel, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        if isinstance(editor, QComboBox):
            self.set_mode(model, index, editor.currentData())


class DictationPage(QWidget):
    def __init__(self, s: Settings, told: DictationHelp, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.help = told
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 16)
        layout.setSpacing(12)
        layout.addWidget(self._words_group(s))
        layout.addWidget(self._rules_group(s))
        layout.addWidget(self._cleanup_group(s))
        layout.addWidget(self._history_group(s))
        layout.addWidget(self._apps_group(s))
        layout.addStretch(1)
        self._set_tab_order()

    # ------------------------------------------------------------------ the groups

    def _words_group(self, s: Settings) -> QGroupBox:
        group = QGroupBox(self.tr("Your words"))
        self.vocabulary = QPlainTextEdit("\n".join(s.dictation_vocabulary))
        self.vocabulary.setPlaceholderText(self.tr("One name, product or term per line, e.g.\nSiobhan\nKubernetes"))
        self.vocabulary.setTabChangesFocus(True)
        self.vocabulary.setMaximumHeight(110)
        self.vocabulary_note = QLabel(objectName="Hint", wordWrap=True)
        self.vocabulary.textChanged.connect(self._show_vocabulary_note)
        self.threshold = QDoubleSpinBox(
            minimum=0.5, maximum=1.0, singleStep=0.05, decimals=2, value=s.dictation_vocabulary_threshold
        )
        self.threshold.setToolTip(
            self.tr(
                "How alike a heard word must be to one of yours to be written as yours: lower corrects "
                "more, and more often wrongly; 1.00 fixes only the case of exact matches."
            )
        )
        form = QFormLayout(group)
        form.addRow(self.tr("&Words and names:"), self.vocabulary)
        form.addRow("", self.vocabulary_note)
        form.addRow(self.tr("Correct &near misses from:"), self.threshold)
        name_fields(form)
        self._show_vocabulary_note()
        return group

    def _rules_group(self, s: Settings) -> QGroupBox:
        group = QGroupBox(self.tr("Replacements and punctuation"))
        self.rules = QTableWidget(0, 2)
        self.rules.setHorizontalHeaderLabels([self.tr("When you say"), self.tr("Type")])
        self.rules.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.rules.verticalHeader().hide()
        self.rules.setMaximumHeight(120)
        self.rules.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.rules.setTabKeyNavigation(False)  # Tab leaves the table; the arrows move in it
        self.rules.setEditTriggers(_EDIT_TRIGGERS)
        for spoken, written in s.dictation_replacements:
            self.add_rule(spoken, written)
        rules_label = QLabel(self.tr("Rep&lacement rules:"))
        rules_label.setBuddy(self.rules)
        self.rules.setAccessibleName(self.tr("Replacement rules"))
        self.add_rule_button = QPushButton(self.tr("&Add rule"))
        self.add_rule_button.setAccessibleDescription(self.tr("Add a rule and type what you say"))
        self.remove_rule_button = QPushButton(self.tr("Re&move rule"))
        self.remove_rule_button.setAccessibleDescription(self.tr("Remove the selected rule"))
        self.add_rule_button.clicked.connect(lambda: self._edit_new_rule())
        self.remove_rule_button.clicked.connect(self._remove_rule)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.add_rule_button)
        buttons.addWidget(self.remove_rule_button)
        rules_hint = QLabel(
            self.tr(
                "E.g. “parley dot com” → parley.com, “my address” → your address. Rules that would "
                "loop or grow without end are refused when you save."
            ),
            objectName="Hint",
            wordWrap=True,
        )
        self.rules.setAccessibleDescription(rules_hint.text())
        self.spoken_punctuation = QCheckBox(self.tr("Spoken &punctuation (English)"))
        self.spoken_punctuation.setChecked(s.dictation_spoken_punctuation)
        self.spoken_commands = QLabel(self.help.spoken_commands, objectName="Hint", wordWrap=True)
        self.spoken_punctuation.setAccessibleDescription(self.help.spoken_commands)
        self.remove_fillers = QCheckBox(self.tr("Remove &filler words and say a repeated word once"))
        self.remove_fillers.setChecked(s.dictation_remove_fillers)
        self.remove_fillers.setToolTip(self.tr("“um”, “uh”, “er” and their likes go; “I I think” is typed “I think”."))
        layout = QVBoxLayout(group)
        layout.addWidget(rules_label)
        layout.addWidget(self.rules)
        layout.addLayout(buttons)
        layout.addWidget(rules_hint)
        layout.addWidget(self.spoken_punctuation)
        layout.addWidget(self.spoken_commands)
        layout.addWidget(self.remove_fillers)
        return group

    def _cleanup_group(self, s: Settings) -> QGroupBox:
        group = QGroupBox(self.tr("Clean-up by the chat model"))
        self.cleanup = QCheckBox(self.tr("&Clean up each dictation with the loaded chat model"))
        self.cleanup.setChecked(s.dictation_cleanup)
        self.cleanup.setToolTip(
            self.tr(
                "Grammar, punctuation and capitals fixed and false starts dropped, on this computer. "
                "An answer that adds words you did not say is refused."
            )
        )
        self.cleanup_prompt = QPlainTextEdit(s.dictation_cleanup_prompt)
        self.cleanup_prompt.setTabChangesFocus(True)
        self.cleanup_prompt.setMaximumHeight(90)
        self.cleanup_prompt.setAccessibleDescription(self.tr("What the chat model is told to do with a dictation"))
        self.reset_prompt = QPushButton(self.tr("R&eset to default"))
        self.reset_prompt.setAccessibleDescription(self.tr("Put the default clean-up prompt back"))
        self.reset_prompt.clicked.connect(lambda: self.cleanup_prompt.setPlainText(self.help.default_prompt))
        self.reset_prompt.setEnabled(bool(self.help.default_prompt))
        self.cleanup_timeout = QDoubleSpinBox(
            minimum=0.5, maximum=30.0, singleStep=0.5, decimals=1, value=s.dictation_cleanup_timeout_s
        )
        self.cleanup_timeout.setSuffix(self.tr(" s"))
        hint = QLabel(
            self.tr(
                "If the clean-up takes longer, or adds words, the text is typed without it and the status "
                "line says why. The shortcut “Dictate, cleaned” (Settings > Voice) cleans up whatever this says."
            ),
            objectName="Hint",
            wordWrap=True,
        )
        self.cleanup_timeout.setAccessibleDescription(hint.text())
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.reset_prompt)
        form = QFormLayout(group)
        form.addRow("", self.cleanup)
        form.addRow(self.tr("P&rompt:"), self.cleanup_prompt)
        form.addRow("", row)
        form.addRow(self.tr("&Time limit:"), self.cleanup_timeout)
        form.addRow("", hint)
        name_fields(form)
        return group

    def _history_group(self, s: Settings) -> QGroupBox:
        group = QGroupBox(self.tr("History"))
        self.history_days = QSpinBox(minimum=0, maximum=3650, value=s.dictation_history_days)
        self.history_days.setSpecialValueText(self.tr("Keep none"))
        self.history_days.valueChanged.connect(self._show_days)
        self._show_days(self.history_days.value())
        hint = QLabel(
            self.tr("What was heard and what was typed, with copy and type again: File > Dictation history."),
            objectName="Hint",
            wordWrap=True,
        )
        self.history_days.setAccessibleDescription(hint.text())
        form = QFormLayout(group)
        form.addRow(self.tr("&Keep dictations for:"), self.history_days)
        form.addRow("", hint)
        name_fields(form)
        return group

    def _apps_group(self, s: Settings) -> QGroupBox:
        group = QGroupBox(self.tr("Per application (X11)"))
        self.app_modes = QTableWidget(0, 2)
        self.app_modes.setHorizontalHeaderLabels([self.tr("Window class"), self.tr("Mode")])
        self.app_modes.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.app_modes.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.app_modes.verticalHeader().hide()
        self.app_modes.setMaximumHeight(150)
        self.app_modes.setTabKeyNavigation(False)
        self.app_modes.setEditTriggers(_EDIT_TRIGGERS)
        self._modes = ModeChoice(self.help.modes, self.app_modes)
        self.app_modes.setItemDelegateForColumn(1, self._modes)
        for name, mode in s.dictation_app_modes.items():
            self.add_app(name, mode)
        apps_label = QLabel(self.tr("Window cla&sses and their modes:"))
        apps_label.setBuddy(self.app_modes)
        self.app_modes.setAccessibleName(self.tr("Modes per application"))
        self.add_app_button = QPushButton(self.tr("A&dd application"))
        self.add_app_button.setAccessibleDescription(self.tr("Add a window class and choose its mode"))
        self.remove_app_button = QPushButton(self.tr("Remo&ve application"))
        self.remove_app_button.setAccessibleDescription(self.tr("Remove the selected window class"))
        self.add_app_button.clicked.connect(lambda: self._edit_new_app())
        self.remove_app_button.clicked.connect(self._remove_app)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.add_app_button)
        buttons.addWidget(self.remove_app_button)
        modes = self.tr("; ").join(
            self.tr("{mode}: {what}").format(mode=name, what=what) if what else name for name, what in self.help.modes
        )
        hint = QLabel(
            self.tr(
                "The class is the window's WM_CLASS (xprop WM_CLASS shows it), in lower case. Modes: {modes}."
            ).format(modes=modes),
            objectName="Hint",
            wordWrap=True,
        )
        self.app_modes.setAccessibleDescription(hint.text())
        self.app_modes_problem = QLabel(self.help.app_modes_problem or "", wordWrap=True)
        theme.mark_problem(self.app_modes_problem)
        self.app_modes_problem.setVisible(bool(self.help.app_modes_problem))
        layout = QVBoxLayout(group)
        layout.addWidget(self.app_modes_problem)
        layout.addWidget(apps_label)
        layout.addWidget(self.app_modes)
        layout.addLayout(buttons)
        layout.addWidget(hint)
        return group

    def _set_tab_order(self) -> None:
        """Tab goes through the fields as they are shown, top to bottom."""
        chain = [
            self.vocabulary,
            self.threshold,
            self.rules,
            self.add_rule_button,
            self.remove_rule_button,
            self.spoken_punctuation,
            self.remove_fillers,
            self.cleanup,
            self.cleanup_prompt,
            self.reset_prompt,
            self.cleanup_timeout,
            self.history_days,
            self.app_modes,
            self.add_app_button,
            self.remove_app_button,
        ]
        for before, after in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(before, after)

    # ------------------------------------------------------------------ rows

    def add_rule(self, spoken: str = "", written: str = "") -> int:
        row = self.rules.rowCount()
        self.rules.insertRow(row)
        self.rules.setItem(row, 0, QTableWidgetItem(spoken))
        self.rules.setItem(row, 1, QTableWidgetItem(written))
        return row

    def add_app(self, name: str = "", mode: str = "terminal") -> int:
        row = self.app_modes.rowCount()
        self.app_modes.insertRow(row)
        self.app_modes.setItem(row, 0, QTableWidgetItem(name))
        self.app_modes.setItem(row, 1, QTableWidgetItem())
        self._modes.set_mode(self.app_modes.model(), self.app_modes.model().index(row, 1), mode)
        return row

    def _edit_new_rule(self) -> None:
        row = self.add_rule()
        self.rules.setCurrentCell(row, 0)
        self.rules.edit(self.rules.currentIndex())

    def _remove_rule(self) -> None:
        if self.rules.currentRow() >= 0:
            self.rules.removeRow(self.rules.currentRow())

    def _edit_new_app(self) -> None:
        row = self.add_app()
        self.app_modes.setCurrentCell(row, 0)
        self.app_modes.edit(self.app_modes.currentIndex())

    def _remove_app(self) -> None:
        if self.app_modes.currentRow() >= 0:
            self.app_modes.removeRow(self.app_modes.currentRow())

    def _show_vocabulary_note(self) -> None:
        entries = self.vocabulary_entries()
        count = len(entries)
        note = self.help.vocabulary_note(entries) if self.help.vocabulary_note else self.tr("%Ln entry(s).", "", count)
        self.vocabulary_note.setText(" ".join([note, *self.help.warnings]).strip())
        self.vocabulary.setAccessibleDescription(self.vocabulary_note.text())

    def _show_days(self, days: int) -> None:
        """The unit after the number, in the plural form the number takes."""
        self.history_days.setSuffix(self.tr(" day(s)", "", days))

    # ------------------------------------------------------------------ the values

    def vocabulary_entries(self) -> list[str]:
        return [line.strip() for line in self.vocabulary.toPlainText().splitlines() if line.strip()]

    def replacement_rules(self) -> list[list[str]]:
        """The rules as entered; a row with both sides empty is none."""
        rules = []
        for row in range(self.rules.rowCount()):
            spoken, written = (self._text(self.rules, row, column) for column in (0, 1))
            if spoken.strip() or written.strip():
                rules.append([spoken.strip(), written])
        return rules

    def app_mode_table(self) -> dict[str, str]:
        table: dict[str, str] = {}
        for row in range(self.app_modes.rowCount()):
            name = self._text(self.app_modes, row, 0).strip().lower()
            if name:
                table[name] = self._text(self.app_modes, row, 1)
        return table

    def apply_to(self, s: Settings) -> None:
        s.dictation_vocabulary = self.vocabulary_entries()
        s.dictation_vocabulary_threshold = round(self.threshold.value(), 2)
        s.dictation_replacements = self.replacement_rules()
        s.dictation_spoken_punctuation = self.spoken_punctuation.isChecked()
        s.dictation_remove_fillers = self.remove_fillers.isChecked()
        s.dictation_cleanup = self.cleanup.isChecked()
        s.dictation_cleanup_prompt = self.cleanup_prompt.toPlainText().strip() or self.help.default_prompt
        s.dictation_cleanup_timeout_s = round(self.cleanup_timeout.value(), 1)
        s.dictation_history_days = self.history_days.value()
        s.dictation_app_modes = self.app_mode_table()

    @staticmethod
    def _text(table: QTableWidget, row: int, column: int) -> str:
        item = table.item(row, column)
        return item.text() if item is not None else ""
