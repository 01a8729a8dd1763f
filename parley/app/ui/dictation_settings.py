"""Settings > Dictation: what is done to a dictation before it is typed, its history, and the
modes per application.

Widgets only: what needs the engine (how much of the vocabulary whisper's prompt holds, the
modes and what they do, the spoken commands) comes in a ``DictationHelp`` made by the settings
flow; the replacement rules are checked by the dialog's ``validate`` when the settings are saved.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

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
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...config.settings import Settings


def _entries_note(entries: list[str]) -> str:
    return f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'}."


@dataclass(frozen=True)
class DictationHelp:
    """What the Dictation tab tells, from the engine (the settings flow makes it)."""

    vocabulary_note: Callable[[list[str]], str] = _entries_note  # the list's bounds and what whisper's prompt holds
    modes: list[tuple[str, str]] = field(default_factory=lambda: [("default", "the settings as they are")])
    spoken_commands: str = ""  # the spoken punctuation commands, in words
    default_prompt: str = ""  # the clean-up prompt's default, for Reset
    app_modes_problem: str | None = None  # why the modes per application cannot work in this session
    warnings: list[str] = field(default_factory=list)  # what the engine left out of the stored values


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

    # ------------------------------------------------------------------ the groups

    def _words_group(self, s: Settings) -> QGroupBox:
        group = QGroupBox("Your words")
        self.vocabulary = QPlainTextEdit("\n".join(s.dictation_vocabulary))
        self.vocabulary.setPlaceholderText("One name, product or term per line, e.g.\nSiobhan\nKubernetes")
        self.vocabulary.setMaximumHeight(110)
        self.vocabulary_note = QLabel(objectName="Hint", wordWrap=True)
        self.vocabulary.textChanged.connect(self._show_vocabulary_note)
        self.threshold = QDoubleSpinBox(
            minimum=0.5, maximum=1.0, singleStep=0.05, decimals=2, value=s.dictation_vocabulary_threshold
        )
        self.threshold.setToolTip(
            "How alike a heard word must be to one of yours to be written as yours: lower corrects "
            "more, and more often wrongly; 1.00 fixes only the case of exact matches."
        )
        form = QFormLayout(group)
        form.addRow(self.vocabulary)
        form.addRow(self.vocabulary_note)
        form.addRow("Correct near misses from:", self.threshold)
        self._show_vocabulary_note()
        return group

    def _rules_group(self, s: Settings) -> QGroupBox:
        group = QGroupBox("Replacements and punctuation")
        self.rules = QTableWidget(0, 2)
        self.rules.setHorizontalHeaderLabels(["When you say", "Type"])
        self.rules.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.rules.verticalHeader().hide()
        self.rules.setMaximumHeight(120)
        self.rules.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        for spoken, written in s.dictation_replacements:
            self.add_rule(spoken, written)
        add, remove = QPushButton("Add"), QPushButton("Remove")
        add.clicked.connect(lambda: self._edit_new_rule())
        remove.clicked.connect(self._remove_rule)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(add)
        buttons.addWidget(remove)
        rules_hint = QLabel(
            "E.g. “parley dot com” → parley.com, “my address” → your address. Rules that would "
            "loop or grow without end are refused when you save.",
            objectName="Hint",
            wordWrap=True,
        )
        self.spoken_punctuation = QCheckBox("Spoken punctuation (English)")
        self.spoken_punctuation.setChecked(s.dictation_spoken_punctuation)
        self.spoken_commands = QLabel(self.help.spoken_commands, objectName="Hint", wordWrap=True)
        self.remove_fillers = QCheckBox("Remove filler words and say a repeated word once")
        self.remove_fillers.setChecked(s.dictation_remove_fillers)
        self.remove_fillers.setToolTip("“um”, “uh”, “er” and their likes go; “I I think” is typed “I think”.")
        layout = QVBoxLayout(group)
        layout.addWidget(self.rules)
        layout.addLayout(buttons)
        layout.addWidget(rules_hint)
        layout.addWidget(self.spoken_punctuation)
        layout.addWidget(self.spoken_commands)
        layout.addWidget(self.remove_fillers)
        return group

    def _cleanup_group(self, s: Settings) -> QGroupBox:
        group = QGroupBox("Clean-up by the chat model")
        self.cleanup = QCheckBox("Clean up each dictation with the loaded chat model")
        self.cleanup.setChecked(s.dictation_cleanup)
        self.cleanup.setToolTip(
            "Grammar, punctuation and capitals fixed and false starts dropped, on this computer. "
            "An answer that adds words you did not say is refused."
        )
        self.cleanup_prompt = QPlainTextEdit(s.dictation_cleanup_prompt)
        self.cleanup_prompt.setMaximumHeight(90)
        reset = QPushButton("Reset to default")
        reset.clicked.connect(lambda: self.cleanup_prompt.setPlainText(self.help.default_prompt))
        reset.setEnabled(bool(self.help.default_prompt))
        self.cleanup_timeout = QDoubleSpinBox(
            minimum=0.5, maximum=30.0, singleStep=0.5, decimals=1, value=s.dictation_cleanup_timeout_s, suffix=" s"
        )
        hint = QLabel(
            "If the clean-up takes longer, or adds words, the text is typed without it and the status "
            "line says why. The shortcut “Dictate, cleaned” (Settings > Voice) cleans up whatever this says.",
            objectName="Hint",
            wordWrap=True,
        )
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(reset)
        form = QFormLayout(group)
        form.addRow(self.cleanup)
        form.addRow("Prompt:", self.cleanup_prompt)
        form.addRow("", row)
        form.addRow("Time limit:", self.cleanup_timeout)
        form.addRow(hint)
        return group

    def _history_group(self, s: Settings) -> QGroupBox:
        group = QGroupBox("History")
        self.history_days = QSpinBox(minimum=0, maximum=3650, value=s.dictation_history_days, suffix=" days")
        self.history_days.setSpecialValueText("Keep none")
        form = QFormLayout(group)
        form.addRow("Keep dictations for:", self.history_days)
        form.addRow(
            QLabel(
                "What was heard and what was typed, with copy and type again: File > Dictation history.",
                objectName="Hint",
                wordWrap=True,
            )
        )
        return group

    def _apps_group(self, s: Settings) -> QGroupBox:
        group = QGroupBox("Per application (X11)")
        self.app_modes = QTableWidget(0, 2)
        self.app_modes.setHorizontalHeaderLabels(["Window class", "Mode"])
        self.app_modes.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.app_modes.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.app_modes.verticalHeader().hide()
        self.app_modes.setMaximumHeight(150)
        for name, mode in s.dictation_app_modes.items():
            self.add_app(name, mode)
        add, remove = QPushButton("Add"), QPushButton("Remove")
        add.clicked.connect(lambda: self._edit_new_app())
        remove.clicked.connect(self._remove_app)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(add)
        buttons.addWidget(remove)
        modes = "; ".join(f"{name}: {what}" for name, what in self.help.modes)
        hint = QLabel(
            f"The class is the window's WM_CLASS (xprop WM_CLASS shows it), in lower case. Modes: {modes}.",
            objectName="Hint",
            wordWrap=True,
        )
        self.app_modes_problem = QLabel(self.help.app_modes_problem or "", wordWrap=True)
        self.app_modes_problem.setStyleSheet("color: #b42318;")
        self.app_modes_problem.setVisible(bool(self.help.app_modes_problem))
        layout = QVBoxLayout(group)
        layout.addWidget(self.app_modes_problem)
        layout.addWidget(self.app_modes)
        layout.addLayout(buttons)
        layout.addWidget(hint)
        return group

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
        choice = QComboBox()
        for value, _what in self.help.modes:
            choice.addItem(value, value)
        if choice.findData(mode) < 0:
            choice.addItem(mode, mode)
        choice.setCurrentIndex(choice.findData(mode))
        self.app_modes.setCellWidget(row, 1, choice)
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
        note = self.help.vocabulary_note(self.vocabulary_entries())
        self.vocabulary_note.setText(" ".join([note, *self.help.warnings]).strip())

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
            choice = self.app_modes.cellWidget(row, 1)
            if name and isinstance(choice, QComboBox):
                table[name] = choice.currentData()
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
