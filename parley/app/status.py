"""What the window says about the app's state: the status bar, the notice bar, the labels.

- ``announce``: something the user must see once (a GPU that fell back to the CPU): shown once
  per session however often it happens, and routine notes do not replace it while it shows;
- ``note``: a routine note ("Speech model ready") that waits for an announcement to end;
- ``say``: a direct answer to what the user just did ("That clip was too short");
- ``notice``: a problem that needs more than a status line, in the notice bar;
- ``tell``: words for a screen reader only (what was heard, which the window shows as a message).

Everything it says is logged too (``parley.status``): what a user saw is in the log they send.
What the user must hear (announcements, answers, notices) is told to screen readers as well
(the window's ``announce``); routine notes are not, so a reader is not kept talking.

It also keeps the permanent labels: the models, the device (with "(fallback)"), and the speed of
the last reply and transcription.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QLocale, QObject

from .engine_slots import ChatSlot, EngineSlot

log = logging.getLogger("parley.status")

ANNOUNCE_MS = 15_000
NOTE_MS = 8000


def chat_label(model: Any) -> str:
    """What the status bar calls a chat model: its file name says more to a user than the name in
    its metadata (SmolLM2-135M-Instruct.Q4_1 rather than "Smollm2 135M 8k Lc100K Mix1 Ep2")."""
    path = getattr(model, "path", None)
    return Path(path).stem if path else model.name


class StatusSurface(Protocol):
    """Where the status is shown (the main window): the status bar, the notice bar, the labels,
    what the input bar offers and the hint above it."""

    def show_status(self, text: str, timeout_ms: int = ...) -> None: ...
    def announce(self, text: str, urgent: bool = ...) -> None: ...
    def show_notice(self, text: str) -> None: ...
    def set_models_text(self, text: str, tooltip: str = "") -> None: ...
    def set_device_text(self, text: str, tooltip: str = "") -> None: ...
    def set_stats_text(self, text: str, tooltip: str = "") -> None: ...
    def set_talk_available(self, available: bool, reason: str = "") -> None: ...
    def set_send_available(self, available: bool, reason: str = "") -> None: ...
    def set_hint(self, text: str) -> None: ...


class StatusPresenter(QObject):
    """Shows the state of both engines (their slots) and what the app says; the controller
    connects the engine host's signals to ``loading``, ``speech_ready``, ``chat_ready``,
    ``load_failed``, ``remote_problem`` and ``show_models``."""

    def __init__(
        self, window: StatusSurface, speech: EngineSlot, chat: ChatSlot, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.window = window
        self.speech = speech
        self.chat = chat
        self.last_reply_tps: float | None = None
        self.last_clip_s: float | None = None
        self._announced: set[str] = set()
        self._sticky_until = 0.0  # an announcement holds the status bar until then

    # ------------------------------------------------------------------ messages

    def announce(self, text: str, timeout_ms: int = ANNOUNCE_MS) -> None:
        log.info("announced: %s", text)
        if text not in self._announced:
            self._announced.add(text)
            self.window.show_status(text, timeout_ms)
            self.window.announce(text)
            self._sticky_until = time.monotonic() + timeout_ms / 1000

    def note(self, text: str, timeout_ms: int = NOTE_MS) -> None:
        log.info("noted: %s", text)
        if time.monotonic() >= self._sticky_until:
            self.window.show_status(text, timeout_ms)

    def say(self, text: str, timeout_ms: int = NOTE_MS) -> None:
        log.info("said: %s", text)
        self.window.show_status(text, timeout_ms)
        self.window.announce(text)

    def tell(self, text: str) -> None:
        """Something only a screen reader needs said (what the status bar shows another way)."""
        log.info("told: %s", text)
        self.window.announce(text)

    def notice(self, text: str) -> None:
        log.info("notice: %s", text)
        self.window.show_notice(text)

    # ------------------------------------------------------------------ engines

    def loading(self, role: str, fraction: float | None) -> None:
        if role == "speech":
            self.note(
                self.tr("Loading the speech model…")
                if fraction is None
                else self.tr("Preparing the speech model (first use only)… {percent}").format(
                    percent=f"{fraction:.0%}"
                ),
                0,
            )

    def speech_ready(self, model: Any) -> None:
        self.note(self.tr("Speech model ready: {model}").format(model=model.name))
        self._announce_fallback(self.speech, model)

    def chat_ready(self, model: Any) -> None:
        self.note(self.tr("Chat model ready: {model}").format(model=chat_label(model)))
        if not getattr(model, "has_template", True):
            self.announce(
                self.tr("{model} has no chat template; a generic prompt format is used.").format(
                    model=chat_label(model)
                )
            )
        self._announce_fallback(self.chat, model)

    def _announce_fallback(self, slot: EngineSlot, model: Any) -> None:
        """The engines fall back to the CPU themselves when a GPU refuses a model; say so once
        (a lost remote server has been said already)."""
        if model.device.fallback_reason and slot.lost is None:
            self.announce(model.device.fallback_reason)

    def remote_problem(self, problem: str) -> None:
        self.announce(self.tr("Remote compute: {problem}; models run on this machine instead.").format(problem=problem))

    def load_failed(self, role: str, problem: str) -> None:
        if role == "speech":
            self.say(problem)
            self.notice(
                self.tr("{problem} Typed chat still works; choose another model in Settings.").format(problem=problem)
            )
        else:
            self.notice(self.tr("{problem} Choose another model in Settings.").format(problem=problem))

    # ------------------------------------------------------------------ labels

    def show_models(self) -> None:
        chat, speech = self.chat.model, self.speech.model
        chat_problem, speech_problem = self.chat.problem, self.speech.problem
        fraction = self.chat.load_fraction
        loading_chat = (
            self.tr("Loading chat model…")
            if fraction is None
            else self.tr("Loading chat model… {percent}").format(percent=f"{fraction:.0%}")
        )
        names = [
            chat_label(chat) if chat else (self.tr("Chat model unavailable") if chat_problem else loading_chat),
            speech.name
            if speech
            else (self.tr("Speech model unavailable") if speech_problem else self.tr("Loading speech model…")),
        ]
        details = [
            self.tr("Chat: {model} ({path})").format(model=chat.name, path=chat.path) if chat else None,
            self.tr("Speech: {model} ({path})").format(model=speech.name, path=speech.path) if speech else None,
        ]
        self.window.set_models_text(
            " · ".join(names), "\n".join(filter(None, [*details, chat_problem, speech_problem]))
        )
        choices = {role: m.device for role, m in ((self.tr("Chat"), chat), (self.tr("Speech"), speech)) if m}
        if choices:
            devices = {role: c.device.name for role, c in choices.items()}
            text = (
                next(iter(devices.values()))
                if len(set(devices.values())) == 1
                else " · ".join(f"{role} {name}" for role, name in devices.items())
            )
            reasons = list(dict.fromkeys(filter(None, (self.speech.fallback, self.chat.fallback))))
            tooltip = "\n".join([*(f"{role}: {c.device.description}" for role, c in choices.items()), *reasons])
            said = self.tr("Device: {device} (fallback)") if reasons else self.tr("Device: {device}")
            self.window.set_device_text(said.format(device=text), tooltip)
        elif chat_problem and speech_problem:
            self.window.set_device_text(self.tr("Device: none"))

    def show_reply_speed(self, tokens_per_second: float) -> None:
        self.last_reply_tps = tokens_per_second
        self._show_stats()

    def show_clip_time(self, seconds: float) -> None:
        self.last_clip_s = seconds
        self._show_stats()

    def _show_stats(self) -> None:
        stats = []
        if self.last_reply_tps is not None:
            stats.append(self.tr("Reply {speed} tok/s").format(speed=QLocale().toString(self.last_reply_tps, "f", 1)))
        if self.last_clip_s is not None:
            stats.append(self.tr("Clip {seconds} s").format(seconds=QLocale().toString(self.last_clip_s, "f", 2)))
        self.window.set_stats_text(
            " · ".join(stats), self.tr("Generation speed of the last reply · transcription time of the last recording")
        )

    def show_availability(
        self, talk_problem: str | None, chat_problem: str | None, shortcut: str, hands_free: bool = False
    ) -> None:
        window = self.window
        window.set_talk_available(talk_problem is None, talk_problem or "")
        window.set_send_available(chat_problem is None, chat_problem or "")
        if hands_free:
            window.set_hint(
                self.tr("Listening hands-free: just speak; a pause sends it. {keys} stops listening.").format(
                    keys=shortcut
                )
            )
        elif talk_problem is None:
            window.set_hint(
                self.tr("Hold {keys} (or Space outside the text box) and speak, or type a message below.").format(
                    keys=shortcut
                )
            )
        else:
            window.set_hint(self.tr("Type a message below."))
