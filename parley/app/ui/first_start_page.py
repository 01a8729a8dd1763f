"""The first-start page, shown in the main window in place of the conversation: what runs now,
this machine, and the models recommended for it, each a click away.

The page only shows things and says what the user asked for through its signals; the work
(looking at the machine, measuring, downloading) is ``FirstStart``'s (``app/first_start.py``).
Each recommended model is a card: name, what it is good at, download size, memory needed, the
tokens per second expected here and the licence, and one button: Download and use, Pause while it
downloads, Resume for a download stopped earlier (also after a restart), Use for a model already
here.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ...engine.library import Progress
from ...engine.library.builtin import BuiltinModel
from ...engine.library.recommend import Machine, Recommendation
from ..signals import emit
from .announcements import announce
from .i18n import duration, number, percent, size, translate

COLUMN_MAX_WIDTH = 760  # at 10 pt
COLUMN_MAX_CHARS = 95  # and as many average characters, with larger text


@dataclass
class Card:
    """The widgets of one recommended model."""

    rec: Recommendation
    frame: QFrame
    details: QLabel
    state: QLabel
    progress: QProgressBar
    button: QPushButton
    action: str = "download"  # what the button does: "download", "pause", "resume", "use", "none"


class FirstStartPage(QScrollArea):
    """``download_requested(entry)``: fetch and use it; ``pause_requested()``: stop the running
    download (its part is kept); ``use_requested(entry)``: switch to a model already here;
    ``dismissed()``: back to the conversation, for good."""

    download_requested = Signal(object)
    pause_requested = Signal()
    use_requested = Signal(object)
    dismissed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ConversationView")  # the conversation's background and frame
        self.setAccessibleName(self.tr("Welcome to Parley"))
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.cards: dict[str, Card] = {}
        canvas = QWidget(objectName="ConversationCanvas")
        column = QWidget()
        column.setMaximumWidth(max(COLUMN_MAX_WIDTH, COLUMN_MAX_CHARS * self.fontMetrics().averageCharWidth()))
        centred = QHBoxLayout(canvas)
        centred.setContentsMargins(24, 18, 24, 18)
        centred.addWidget(column)
        self._layout = QVBoxLayout(column)
        self._layout.setSpacing(10)
        self.setWidget(canvas)

        title = QLabel(self.tr("Welcome to Parley"), objectName="EmptyTitle")
        self.notice = QLabel(wordWrap=True, objectName="Notice")
        self.notice.setContentsMargins(10, 8, 10, 8)
        self.notice.hide()
        self.starters, self._starters = self._section(self.tr("Runs now, offline"))
        self.machine, self._machine = self._section(self.tr("This computer"))
        self.speed = QLabel(self.tr("Speed: measuring with the starter model (a few seconds)…"), wordWrap=True)
        self._machine.addWidget(self.speed)
        self.chat_section, self._chat = self._section(self.tr("Recommended chat models for this computer"))
        self.speech_section, self._speech = self._section(self.tr("Recommended speech model"))
        self.chat_hint = QLabel(self.tr("Looking at this computer…"), wordWrap=True, objectName="Hint")
        self._chat.addWidget(self.chat_hint)
        self.dismiss_button = QPushButton(self.tr("Start with the starter models"), objectName="PrimaryButton")
        self.dismiss_button.clicked.connect(lambda: emit(self.dismissed))
        footer = QHBoxLayout()
        footer.addWidget(
            QLabel(
                self.tr(
                    "Everything is also in File > Settings > Model library, with more models; "
                    "Models > Recommended for this computer brings this page back."
                ),
                wordWrap=True,
                objectName="Hint",
            ),
            1,
        )
        footer.addWidget(self.dismiss_button)
        self._layout.addWidget(title)
        self._layout.addWidget(self.notice)
        for section in (self.starters, self.machine, self.chat_section, self.speech_section):
            self._layout.addWidget(section)
        self._layout.addLayout(footer)
        self._layout.addStretch(1)

    def _section(self, title: str) -> tuple[QFrame, QVBoxLayout]:
        frame = QFrame(objectName="AssistantBlock")
        frame.setAccessibleName(title)
        layout = QVBoxLayout(frame)
        layout.setContentsMargins(14, 10, 14, 12)
        layout.setSpacing(4)
        layout.addWidget(QLabel(title, objectName="RoleLabel"))
        return frame, layout

    # ------------------------------------------------------------------ what FirstStart shows

    def say(self, text: str) -> None:
        """A line above everything (the network is unreachable, a download failed)."""
        self.notice.setText(text)
        self.notice.setVisible(bool(text))
        announce(self, text, urgent=True)

    def show_starters(self, models: list[BuiltinModel]) -> None:
        layout = self._starters
        for m in models:
            if m.kind not in ("chat", "speech"):
                continue
            if m.installed:
                kind = self.tr("speech") if m.kind == "speech" else self.tr("chat")
                text = f"<b>{m.name}</b> ({kind}, {size(m.size)}): {m.role}" + (f"; {m.limits}." if m.limits else ".")
            else:
                text = self.tr("<b>{model}</b> is not installed: <code>{command}</code> installs it.").format(
                    model=m.name, command=m.install
                )
            layout.addWidget(QLabel(text, wordWrap=True))
        packs = any(m.kind == "chat" and m.installed and "model pack" in m.role for m in models)
        hint = (
            self.tr(
                "They need no network and start at once; Parley uses the most capable of them that "
                "keeps up with speech here."
            )
            if packs
            else self.tr("They need no network and start at once; a recommended model below answers far better.")
        )
        layout.addWidget(QLabel(hint, wordWrap=True, objectName="Hint"))

    def machine_lines(self, machine: Machine) -> list[str]:
        """What the page says about this computer, one line each."""
        memory = size(machine.memory_total) if machine.memory_total else self.tr("unknown")
        if machine.memory_free:
            memory = self.tr("{total} ({free} free now)").format(total=memory, free=size(machine.memory_free))
        gpu = (
            self.tr("{gpu} ({free} free)").format(gpu=machine.gpu, free=size(machine.gpu_memory))
            if machine.gpu and machine.gpu_memory
            else machine.gpu
        )
        cpu = self.tr("%Ln core(s)", "", machine.cores)
        if machine.cpu_variant:
            cpu = self.tr("{cores}, ggml's {variant} build").format(cores=cpu, variant=machine.cpu_variant)
        return [
            self.tr("Memory: {memory}").format(memory=memory),
            self.tr("GPU: {gpu}").format(gpu=gpu or self.tr("none that Parley can use")),
            self.tr("Processor: {cpu}").format(cpu=cpu),
        ]

    def card_details(self, rec: Recommendation) -> str:
        """Download size · memory needed · speed here · when a spoken reply starts · licence."""
        speed = (
            self.tr("about {speed} tokens/s here").format(speed=number(rec.tokens_per_s, 0))
            if rec.tokens_per_s
            else None
        )
        if speed and rec.keeps_pace is False:
            speed = self.tr("{speed} (slower than speech)").format(speed=speed)
        if rec.entry.kind == "chat" and speed is None:
            speed = self.tr("speed here: measuring…")
        parts = [
            self.tr("{size} download").format(size=size(rec.entry.size)),
            self.tr("needs about {size} of {where}").format(size=size(rec.fit.needed), where=rec.fit.where),
        ]
        return " · ".join([*parts, *([speed] if speed else []), *self.speaking_details(rec), rec.entry.licence])

    def speaking_details(self, rec: Recommendation) -> list[str]:
        """When a spoken reply would start here, the thinking step in it, and whether that rests
        on an estimate rather than a model measured here."""
        if rec.first_sound_s is None:
            return []
        seconds = number(rec.first_sound_s, 1)
        said = (
            self.tr("first word spoken about {seconds} s after you let go").format(seconds=seconds)
            if rec.quick_to_speak
            else self.tr("slow to speak: the first word about {seconds} s after you let go").format(seconds=seconds)
        )
        out = [said]
        if rec.thinking_s is not None:
            out.append(self.tr("it thinks first (about {seconds} s of it)").format(seconds=number(rec.thinking_s, 0)))
        if rec.estimated:
            out.append(self.tr("estimated, not measured here"))
        return out

    def show_machine(self, machine: Machine) -> None:
        for line in self.machine_lines(machine):
            self._machine.insertWidget(self._machine.count() - 1, QLabel(line, wordWrap=True))

    def show_speed(self, text: str) -> None:
        self.speed.setText(text)

    def show_recommendations(self, chat: list[Recommendation], speech: list[Recommendation], note: str) -> None:
        """Cards for the models (made once, their details refreshed after), and ``note`` under
        the chat models (why these, or that only the starter fits)."""
        self.chat_hint.setText(note)
        shown = {rec.entry.id for rec in [*chat, *speech]}
        for old in self.cards.values():
            old.frame.setVisible(old.rec.entry.id in shown)
        for layout, recs in ((self._chat, chat), (self._speech, speech)):
            for rec in recs:  # in this order, after those already there (re-added: moved to the end)
                card = self.cards.get(rec.entry.id) or self._card(rec)
                self.cards[rec.entry.id] = card
                card.rec = rec
                card.details.setText(self.card_details(rec))
                card.button.setAccessibleDescription(rec.entry.name)
                layout.removeWidget(card.frame)
                layout.addWidget(card.frame)
        self.speech_section.setVisible(bool(speech))

    def _card(self, rec: Recommendation) -> Card:
        frame = QFrame()
        layout = QVBoxLayout(frame)
        layout.setContentsMargins(0, 8, 0, 4)
        layout.setSpacing(2)
        top = QHBoxLayout()
        name = QLabel(f"<b>{rec.entry.name}</b>", wordWrap=True)
        button = QPushButton(self.tr("Download and use"))
        button.setAccessibleDescription(rec.entry.name)
        frame.setAccessibleName(rec.entry.name)
        top.addWidget(name, 1)
        top.addWidget(button)
        details = QLabel(wordWrap=True, objectName="Hint")
        note = QLabel(rec.entry.note, wordWrap=True)
        state = QLabel(wordWrap=True, objectName="Hint")
        state.hide()
        progress = QProgressBar(maximum=1000, textVisible=False)
        progress.setAccessibleName(self.tr("Download progress"))
        progress.setMaximumHeight(8)
        progress.hide()
        for widget in (note, details, progress, state):
            layout.addWidget(widget)
        layout.insertLayout(0, top)
        card = Card(rec, frame, details, state, progress, button)
        button.clicked.connect(lambda: self._clicked(card))
        return card

    def _clicked(self, card: Card) -> None:
        if card.action in ("download", "resume"):
            emit(self.download_requested, card.rec.entry)
        elif card.action == "pause":
            emit(self.pause_requested)
        elif card.action == "use":
            emit(self.use_requested, card.rec.entry)

    def set_card(self, model_id: str, action: str, state: str = "", fraction: float | None = None) -> None:
        """One card's button (``action``: download, pause, resume, use, none), the line under it
        and its progress bar (None hides it)."""
        card = self.cards.get(model_id)
        if card is None:
            return
        card.action = action
        labels = {
            "download": self.tr("Download and use"),
            "pause": self.tr("Pause"),
            "resume": self.tr("Resume"),
            "use": self.tr("Use"),
            "none": "",
        }
        card.button.setText(labels[action])
        card.button.setVisible(action != "none")
        if state and state != card.state.text() and fraction is None:  # not each step of a download
            announce(self, f"{card.rec.entry.name}: {state}")
        card.state.setText(state)
        card.state.setVisible(bool(state))
        card.progress.setVisible(fraction is not None)
        if fraction is not None:
            card.progress.setValue(int(fraction * 1000))

    def enable_downloads(self, enabled: bool) -> None:
        """Only one download at a time: the other cards' Download buttons wait."""
        for card in self.cards.values():
            if card.action in ("download", "resume"):
                card.button.setEnabled(enabled)


def progress_line(p: Progress) -> str:
    """What a card says while its file downloads."""
    if p.stage == "checking":
        return translate("FirstStartPage", "Checking the part already downloaded… {percent}").format(
            percent=percent(p.fraction)
        )
    line = translate("FirstStartPage", "{percent}: {done} of {total}, {speed} MB/s").format(
        percent=percent(p.fraction), done=size(p.done), total=size(p.total), speed=number(p.speed / 1e6)
    )
    if p.eta is not None:
        line = translate("FirstStartPage", "{progress}, {time} left").format(progress=line, time=duration(p.eta))
    return line
