"""``parley --self-test``: the real window and engines, one spoken question, one reply, timed.

For installers and bug reports: it opens the window (any Qt platform; ``offscreen`` is chosen
when there is no display), loads the configured models on the configured device, transcribes
the question shipped in ``parley/resources/selftest/`` through the app's own transcription
path, checks the words against the expected text, lets the app send it and stream one reply,
and prints the time of each stage and the device used.  Exit status 0 when every stage passed,
1 (with the reason on stderr) when one failed, 2 when the app could not start at all.

Nothing is written: settings are read but not saved, and the conversation is kept in memory.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, QTimer, qVersion
from PySide6.QtWidgets import QApplication

from ..bootstrap import create_app, start_controller, user_settings
from ..controller import Controller
from ..conversations.store import Store
from . import report as selftest_report

MAX_WER = 0.35  # the clip is clean synthetic speech; tiny.en gets it word for word
REPLY_TOKENS = 48  # enough to see streaming, short enough for a slow CPU
DEADLINE_S = 600.0  # the whole test, first-use model preparation included


def process_age() -> float | None:
    """Seconds since this process started (Linux), for start-up times that include imports."""
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22: start time, in ticks
        return time.clock_gettime(time.CLOCK_BOOTTIME) - started
    except (OSError, ValueError, IndexError, AttributeError):
        return None


class _FirstPaint(QObject):
    """Calls back once, when ``widget`` is first painted (it is then really on screen)."""

    def __init__(self, widget: QObject, callback: Callable[[], None]) -> None:
        super().__init__(widget)
        self._callback: Callable[[], None] | None = callback
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and self._callback is not None:
            callback, self._callback = self._callback, None
            QTimer.singleShot(0, callback)
        return False


def expected_question() -> tuple[Any, str]:
    """The shipped clip (16 kHz mono float32) and the words spoken in it."""
    from parley.engine.audio.files import load_audio

    folder = resources.files("parley").joinpath("resources/selftest")
    with resources.as_file(folder.joinpath("question.wav")) as path:
        audio = load_audio(path)
    return audio, folder.joinpath("question.txt").read_text("utf-8").strip()


class SelfTest(QObject):
    """Drives the controller through the stages and records what each took."""

    def __init__(self, app: QApplication, window: Any, started: float, startup_offset: float) -> None:
        super().__init__()
        self.app, self.window = app, window
        self.started = started  # perf_counter() when run_self_test began
        self.startup_offset = startup_offset  # seconds the process ran before that
        self.code: int | None = None
        self.reason = ""
        self.lines: list[str] = []
        self.controller: Controller | None = None
        self._stage = "the window to be shown"
        self._ready: set[str] = set()
        self._t: dict[str, float] = {}
        self._pieces = 0
        self._first_piece: float | None = None
        self._transcript = ""

    # ------------------------------------------------------------------ output

    def line(self, stage: str, seconds: float | None, detail: str = "") -> None:
        took = f"{seconds:7.2f} s" if seconds is not None else "      —  "
        text = f"  {stage:<20}{took}   {detail}".rstrip()
        self.lines.append(text)
        print(text, flush=True)

    def fail(self, reason: str) -> None:
        """Printed once the event loop has ended: PortAudio's device scan (on the speech thread)
        points the process's stderr at /dev/null while it runs, and a line printed meanwhile is lost."""
        if self.code is not None:
            return
        self.code = 1
        self.reason = f"self-test FAILED while waiting for {self._stage}: {reason}"
        self.finish()

    def finish(self) -> None:
        if self.code is None:
            self.code = 0
        assert self.controller is not None
        mics = self.controller.microphones.names
        self.line(
            "microphones",
            None,
            "still looking"
            if mics is None
            else ", ".join(mics) or "none found (push-to-talk needs one; typed chat works without)",
        )
        self.window.close()  # the controller stops the engines
        self.app.quit()

    # ------------------------------------------------------------------ stages

    def window_shown(self) -> None:
        now = time.perf_counter()
        since = now - self.started + self.startup_offset
        self.line(
            "window visible",
            since,
            f"Qt {qVersion()} on {QApplication.platformName()}, "
            f"{'since the process started' if self.startup_offset else 'since start'}",
        )
        self._t["models"] = now
        self._stage = "the models to load"

    def attach(self, controller: Controller) -> None:
        self.controller = controller
        controller.speech_ready.connect(lambda model: self._model_ready("speech", model))
        controller.chat_ready.connect(lambda model: self._model_ready("chat", model))
        controller.load_failed.connect(lambda _role, message: self.fail(message))
        controller.transcribed.connect(self._transcribed)
        controller.reply_started.connect(self._reply_started)
        controller.reply_progress.connect(self._reply_piece)
        controller.reply_finished.connect(self._reply_finished)

    def _model_ready(self, role: str, model: Any) -> None:
        assert self.controller is not None
        seconds = (self.controller.speech if role == "speech" else self.controller.chat).load_seconds
        where = model.device.device
        name = Path(model.path).name if role == "chat" else model.name
        self.line(f"{role} model load", seconds, f"{name} on {where.name} ({where.description})")
        self._ready.add(role)
        if self._ready != {"speech", "chat"}:
            return
        if self._t.get("choice") is None:  # first: the chat model Parley would choose here
            self._stage = "the model choice"
            self._t["choice"] = time.perf_counter()
            chooser = self.controller.model_choice
            chooser.settled.connect(self._choice_settled)
            chooser.settle()
        elif role == "chat":  # the chosen model, loaded after the choice
            QTimer.singleShot(0, self._transcribe)

    def _choice_settled(self, reloading: bool) -> None:
        assert self.controller is not None
        choice = self.controller.model_choice.choice
        detail = f"{choice.chosen}: {choice.reason}" if choice is not None else "the model the settings name"
        self.line("model choice", time.perf_counter() - self._t["choice"], detail)
        if not reloading:
            QTimer.singleShot(0, self._transcribe)

    def _transcribe(self) -> None:
        assert self.controller is not None
        self._stage = "the transcription"
        try:
            self._audio, self._expected = expected_question()
        except Exception as exc:  # noqa: BLE001
            self.fail(f"the self-test clip could not be read: {exc}")
            return
        self._t["transcribe"] = time.perf_counter()
        if not self.controller.spoken_turn.recorded(self._audio):
            self.fail("the app did not accept the clip for transcription")

    def _transcribed(self, text: str) -> None:
        from parley.engine.textmetrics import word_error_rate

        assert self.controller is not None
        seconds = time.perf_counter() - self._t["transcribe"]
        wer = word_error_rate(self._expected, text)
        engine = self.controller.status.last_clip_s
        self.line(
            "transcription",
            seconds,
            f"“{text}” (WER {wer:.2f}; whisper {engine or 0:.2f} s for {len(self._audio) / 16000:.1f} s of audio)",
        )
        if not text:
            notice = self.window.notice.label.text() if self.window.notice.isVisible() else ""
            self.fail(notice or "nothing was recognised in the clip")
        elif wer > MAX_WER:
            self.fail(f"the transcript “{text}” is too far from “{self._expected}” (WER {wer:.2f} > {MAX_WER})")
        else:
            self._stage = "the reply"

    def _reply_started(self) -> None:
        self._t["reply"] = time.perf_counter()

    def _reply_piece(self, _piece: str) -> None:
        self._pieces += 1
        if self._first_piece is None:
            self._first_piece = time.perf_counter()
            self.line("first token", self._first_piece - self._t["reply"])

    def _reply_finished(self, text: str, finish: str) -> None:
        assert self.controller is not None
        seconds = time.perf_counter() - self._t["reply"]
        messages = self.controller.book.current.messages
        stats = messages[-1].stats if messages and messages[-1].role == "assistant" else None
        tokens = (stats or {}).get("generated_tokens")
        speed = (stats or {}).get("gen_tps")
        detail = f"{tokens} tokens, {speed} tok/s, " if tokens is not None else ""
        preview = " ".join(text.split())
        preview = preview if len(preview) <= 60 else preview[:59] + "…"
        self.line("full reply", seconds, f"{detail}finish {finish}: “{preview}”")
        choice_lines = []
        for role, model in (("speech", self.controller.speech.model), ("chat", self.controller.chat.model)):
            choice = model.device
            choice_lines.append(
                f"{role} {choice.device.name} ({choice.device.description})"
                + (f" — fallback: {choice.fallback_reason}" if choice.fallback_reason else "")
            )
        self.line("device", None, "; ".join(choice_lines))
        if finish == "error" or finish == "cancelled":
            self.fail(f"the reply ended with {finish}")
        elif not text.strip():
            self.fail("the reply was empty")
        elif self._pieces < 2:
            self.fail(f"the reply arrived in {self._pieces} piece(s), not streamed")
        else:
            self.finish()

    def timed_out(self) -> None:
        self.fail(f"nothing happened within {DEADLINE_S:.0f} s")


def run_self_test(argv: Sequence[str], servers: Sequence[str] = ()) -> int:
    """``servers``: remote compute servers to use (``--rpc``), besides the settings' own."""
    started = time.perf_counter()
    age = process_age()
    try:
        argv, report_path = selftest_report.json_option(argv)  # --json FILE: also write a report
    except ValueError as exc:
        print(f"self-test: {exc}", file=sys.stderr)
        return 2
    if (
        sys.platform.startswith("linux")
        and not os.environ.get("QT_QPA_PLATFORM")
        and not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY")
    ):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"  # no display: the window is drawn off screen
    from ..ui.main_window import MainWindow

    print("parley self-test", flush=True)

    def platform_failed(message: str) -> None:  # before the process ends (qt_platform)
        selftest_report.write_report(report_path, None, 2, message)

    try:
        app = create_app([a for a in argv if a != "--self-test"], on_platform_failure=platform_failed)
    except Exception as exc:  # noqa: BLE001
        print(f"self-test FAILED: Qt could not start: {exc}", file=sys.stderr)
        selftest_report.write_report(report_path, None, 2, f"Qt could not start: {exc}")
        return 2
    loaded = user_settings()
    for warning in loaded.warnings:
        print(f"  note: {warning}", flush=True)
    settings = loaded.settings.copy()
    settings.max_tokens = min(settings.max_tokens, REPLY_TOKENS)
    settings.read_replies_aloud = False
    settings.hands_free = False
    settings.tools_enabled = False  # the user's MCP servers are not started to check an installation
    settings.send_on_release = True
    settings.first_start_done = True  # no first-start page: it would measure the starter meanwhile
    window = MainWindow()
    test = SelfTest(app, window, started, age or 0.0)
    _FirstPaint(window, test.window_shown)
    window.show()
    controller = start_controller(window, settings=settings, store=Store(":memory:"), session_servers=list(servers))
    test.attach(controller)
    deadline = QTimer(singleShot=True, interval=int(DEADLINE_S * 1000))
    deadline.timeout.connect(test.timed_out)
    deadline.start()
    app.exec()
    deadline.stop()
    if test.code is None:
        test.code, test.reason = 1, "self-test FAILED: the window was closed before the test ended"
    if test.code == 0:
        print("self-test passed", flush=True)
    else:
        print(test.reason, file=sys.stderr, flush=True)
    selftest_report.write_report(report_path, test, test.code, test.reason)
    if controller.stopped_cleanly is False:
        sys.stdout.flush()
        os._exit(test.code)
    return test.code
