"""The settings in use: the dialog that edits them, their validation, and applying them.

``apply`` saves the new settings and emits ``changed(old, new)``; each part of the app reacts to
the fields it depends on (the engines reload only when their own settings changed).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QLocale, QObject, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QWidget

from parley.engine.dictation import options as dictation, punctuation, replacements, vocabulary

from ..config.settings import DEFAULT_MODEL, Settings, save_settings
from .desktop.keysyms import parse_shortcut
from .desktop.typing.typist import app_modes_problem
from .engines import ChatModelChoice, Engines
from .signals import emit
from .status import StatusPresenter
from .tasks import call_in_background
from .ui.dictation_settings import DictationHelp
from .ui.i18n import translate

if TYPE_CHECKING:
    from .ui.settings_dialog import SettingsDialog  # imported when first opened: not needed to start
    from .ui.tools_page import ToolsWork

ServerAnswer = Callable[[str | None], None]


def checked_in_background(check: Callable[[str], str | None]) -> Callable[[str, ServerAnswer], None]:
    """The settings dialog's server check: ``check(endpoint)`` (a handshake of up to 3 s: None
    when the server answers, else the message) run in the background, its answer (any failure
    as its message) given back on the UI thread."""

    def start(endpoint: str, answer: ServerAnswer) -> None:
        def said(result: str | BaseException | None) -> None:
            answer(str(result) or type(result).__name__ if isinstance(result, BaseException) else result)

        call_in_background(lambda: check(endpoint), said, "parley-server-check")

    return start


class SettingsFlow(QObject):
    changed = Signal(object, object)  # old, new
    recommendations_requested = Signal()  # the Model library's "Recommended for this computer"

    def __init__(
        self,
        settings: Settings,
        engines: Engines,
        status: StatusPresenter,
        *,
        path: Path | None = None,
        parent: QObject | None = None,
    ) -> None:
        """``path``: where ``apply`` saves (None: the user's config folder)."""
        super().__init__(parent)
        self.value = settings
        self.engines = engines
        self.status = status
        self.path = path
        self.dialog: SettingsDialog | None = None  # the settings dialog while it is open
        self._closed_dialog: SettingsDialog | None = None

    def open_dialog(
        self,
        parent: QWidget,
        microphones: list[str],
        read_aloud_problem: str | None,
        check_server: Callable[[str], str | None] | None = None,
        voices: list[tuple[str, str]] | None = None,
        shortcut_problems: list[str] | None = None,
        devices_in_use: list[str] | None = None,
        chat_choice: ChatModelChoice | None = None,
        tools: ToolsWork | None = None,
    ) -> None:
        """``chat_choice``: what "Parley's choice" of chat model means here, and the built-in
        models (None: looked up now); ``voices``: (setting, name) of the read-aloud voices to
        offer; ``shortcut_problems``: why system-wide shortcuts do not work now;
        ``devices_in_use``: where each loaded model runs and why."""
        from .model_library import ModelLibrary  # the dialog and the library: not needed to start
        from .ui.settings_dialog import SettingsDialog

        if chat_choice is None:
            chat_choice = self.engines.chat_choice(self.value.device, self.value.threads or None)
        dialog = SettingsDialog(
            self.value,
            validate=self.validate,
            compute_devices=self.engines.compute_devices(),
            microphones=microphones,
            read_aloud_problem=read_aloud_problem,
            models=ModelLibrary(),
            parent=parent,
            check_server=checked_in_background(check_server) if check_server is not None else None,
            voices=voices,
            shortcut_problems=shortcut_problems,
            devices_in_use=devices_in_use,
            chat_builtin=chat_choice.builtin,
            chat_choice=(chat_choice.chosen, chat_choice.reason),
            dictation=dictation_help(self.value),
            embedding_models=self.engines.embedding_models(),
            tools=tools,
            wake_words=self.engines.wake_words(),
        )
        # Modal to the window but without an event loop of its own (``open``, not ``exec``): the
        # app keeps running as before while it is open, and its outcome comes as ``finished``.
        # The dialog closed before this one goes now (the last stays readable until the next).
        if self._closed_dialog is not None:
            self._closed_dialog.deleteLater()
            self._closed_dialog = None
        dialog.finished.connect(lambda result: self._closed(dialog, result))
        self.dialog = dialog
        dialog.open()

    def _closed(self, dialog: SettingsDialog, result: int) -> None:
        self.dialog, self._closed_dialog = None, dialog
        if result and dialog.result_settings is not None:
            self.apply(dialog.result_settings)
        if dialog.wants_recommendations:
            emit(self.recommendations_requested)

    def validate(self, settings: Settings) -> str | None:
        """The problem that keeps ``settings`` from being used, for the settings dialog."""
        for kind, path in (("speech", settings.speech_model), ("chat", settings.chat_model)):
            if path != DEFAULT_MODEL and not (kind == "chat" and self.engines.is_builtin_chat_model(path)):
                problem = self.engines.check_model_file(kind, path)
                if problem:
                    return f"The {kind} model {path} cannot be used: {problem}."
        embedding = settings.serve_embedding_model
        if embedding and embedding != self.value.serve_embedding_model:  # one chosen before stays listed
            problem = self.engines.check_embedding_model(embedding)
            if problem:
                return f"The embedding model {embedding} cannot be used: {problem}."
        if QKeySequence(settings.ptt_shortcut).isEmpty():
            return f"“{settings.ptt_shortcut}” is not a key combination."
        anywhere = [
            t for t in (settings.dictate_shortcut, settings.dictate_cleaned_shortcut, settings.ask_shortcut) if t
        ]
        for text in anywhere:
            try:
                parse_shortcut(text)
            except ValueError as exc:
                return f"{exc}."
        if len(set(anywhere)) < len(anywhere) or settings.ptt_shortcut in anywhere:
            return "Dictate, Dictate cleaned, Ask Parley and the push-to-talk key need different shortcuts."
        problems = replacements.check_rules(settings.dictation_replacements)
        if problems:
            more = f" ({len(problems) - 1} more: {' '.join(problems[1:3])})" if len(problems) > 1 else ""
            return f"The replacement rules cannot be saved: {problems[0]}{more}"
        return None

    def apply(self, new: Settings) -> None:
        """Use and save ``new``; a save that fails is said, and the settings apply until Parley closes."""
        old, self.value = self.value, new
        try:
            save_settings(new, self.path)
        except OSError as exc:
            self.status.notice(f"The settings could not be saved ({exc}); they apply until Parley closes.")
        emit(self.changed, old, new)

    def update(self, change: Callable[[Settings], None]) -> None:
        """Apply a copy of the settings changed by ``change`` (e.g. a toggle in the window)."""
        new = self.value.copy()
        change(new)
        self.apply(new)


# What each mode of the modes per application does (``options.MODES``), as Settings > Dictation
# tells it.
MODE_WORDS = {
    "default": QT_TRANSLATE_NOOP("DictationPage", "the settings as they are"),
    "plain": QT_TRANSLATE_NOOP("DictationPage", "no clean-up by the chat model"),
    "cleaned": QT_TRANSLATE_NOOP("DictationPage", "clean-up by the chat model, whatever the setting"),
    "terminal": QT_TRANSLATE_NOOP(
        "DictationPage",
        "no clean-up by the chat model (the app also types no trailing space and pastes with Ctrl+Shift+V)",
    ),
    "terminal-keys": QT_TRANSLATE_NOOP(
        "DictationPage",
        "no clean-up by the chat model (the app also types the words as keys, no trailing space, "
        "line breaks as spaces: for terminals where Ctrl+Shift+V does not paste)",
    ),
    "raw": QT_TRANSLATE_NOOP(
        "DictationPage", "exactly what whisper heard: no correction, rules, spoken punctuation or filler removal"
    ),
}


def dictation_help(settings: Settings) -> DictationHelp:
    """What Settings > Dictation tells from the engine and the desktop, in the interface's words
    (the engine's own notes, of the vocabulary and the rules, are in English)."""
    return DictationHelp(
        vocabulary_note=VocabularyNote(),
        modes=[(mode, translate("DictationPage", str(MODE_WORDS[mode]))) for mode in dictation.MODES],
        spoken_commands=spoken_commands(),
        default_prompt=dictation.DEFAULT_CLEANUP_PROMPT,
        app_modes_problem=app_modes_problem(),
        warnings=replacements.usable_rules(settings.dictation_replacements)[1],
    )


class VocabularyNote(QObject):
    """The note under the vocabulary: its bounds, and how much of it whisper's prompt holds
    (a QObject for ``self.tr``: the one call in which lupdate finds a plural form)."""

    def __call__(self, entries: list[str]) -> str:
        kept, problems = vocabulary.bound(entries)
        if not kept:
            return self.tr(
                "Each word or name here biases the speech model toward its spelling, and near misses "
                "of it are corrected after the transcription."
            )
        held, count = vocabulary.prompt_coverage(kept), len(kept)
        locale = QLocale()
        counted = self.tr("%Ln entry(s)", "", count)
        if held == count:
            said = self.tr("{entries}, all in the speech model's prompt.").format(entries=counted)
        else:
            said = self.tr(
                "{entries}; the speech model's prompt holds {held} of them (about {characters} characters), "
                "and all are used to correct near misses."
            ).format(
                entries=counted, held=locale.toString(held), characters=locale.toString(vocabulary.PROMPT_MAX_BYTES)
            )
        limits = self.tr("At most {entries} entries of up to {characters} characters and {words} words.").format(
            entries=locale.toString(vocabulary.MAX_ENTRIES),
            characters=locale.toString(vocabulary.MAX_ENTRY_CHARS),
            words=locale.toString(vocabulary.MAX_ENTRY_WORDS),
        )
        return " ".join([said, *problems, limits])


def spoken_commands() -> str:
    """The spoken punctuation commands (English words), in the interface's words."""
    names = {
        "\n": translate("DictationPage", "a line break"),
        "\n\n": translate("DictationPage", "a new paragraph"),
    }
    spoken: dict[str, list[str]] = {}
    for words, mark in punctuation.COMMANDS.items():
        spoken.setdefault(mark, []).append(translate("DictationPage", "“{words}”").format(words=" ".join(words)))
    said = translate("DictationPage", "; ").join(
        translate("DictationPage", "{commands} for {mark}").format(
            commands=translate("DictationPage", " or ").join(ways), mark=names.get(mark, mark)
        )
        for mark, ways in spoken.items()
    )
    return translate("DictationPage", "Say {commands}. “A period of”, “the colon” and their likes stay words.").format(
        commands=said
    )
