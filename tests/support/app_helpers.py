"""Real parts for the application tests: engines, model files, a microphone, the window.

Every test drives the real ``Controller`` and ``MainWindow`` on ``LocalEngines``, i.e. the real
whisper.cpp and llama.cpp engines on the shared native build:
- speech: the default Whisper tiny.en (converted once and cached);
- chat: the default SmolLM2-135M where the words of a reply matter, else a tiny random-weight
  llama (``tiny_chat_model``) that streams hundreds of tokens a second and never ends a reply
  by itself before the reply limit: ideal for stop, close and switch;
- microphone: PortAudio's ``pulse`` device recording a PulseAudio virtual microphone that the
  test plays espeak-ng speech into (``tests/support/pulse.py``, ``tests/support/speech.py``).

Test modules import the fixtures they use from here (pytest finds fixtures imported into a
test module).
"""

from __future__ import annotations

import contextlib
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import soundfile

from parley.app.controller import Controller
from parley.app.conversations.store import Store
from parley.app.engines import LocalEngines
from parley.app.ui import theme
from parley.app.ui.main_window import MainWindow
from parley.app.voice.read_aloud import ReadAloud
from parley.config.settings import Settings
from tests.support.pulse import VirtualMicrophone, finish
from tests.support.requirements import require
from tests.support.speech import espeak_available, synthesize
from tests.support.tinymodels import write_tiny_llama_gguf

TINY_CONTEXT = 8192  # tokens: room for several seconds of endless reply
LOAD_TIMEOUT_MS = 120_000  # first use converts the speech model; later loads take < 1 s
REPLY_TIMEOUT_MS = 120_000  # only reached if something hangs
QUESTION = "How far away is the moon from the earth?"  # whisper tiny.en hears it word for word


def write_tiny_chat_model(path: Path, seed: int = 0, n_vocab: int = 2048) -> Path:
    """A random-weight llama GGUF with a 2048-token GPT-2 vocabulary, fast to sample, with room
    for several seconds of reply, that never ends a reply by itself (see ``never_ends``)."""
    return write_tiny_llama_gguf(
        path, n_vocab=n_vocab, n_ctx=TINY_CONTEXT, seed=seed, name=f"tiny-llama-{seed}", never_ends=True
    )


def tiny_settings(chat_model: Path, **overrides: Any) -> dict[str, Any]:
    """Settings for the tiny model: replies that go on until stopped (or ``max_tokens``).  One
    thread: a model this small gains nothing from two, and two threads that spin-wait for each
    other slow down a hundredfold when other processes keep the cores busy."""
    values: dict[str, Any] = dict(
        chat_model=str(chat_model), context_length=TINY_CONTEXT, max_tokens=TINY_CONTEXT, threads=1
    )
    values.update(overrides)
    return values


@pytest.fixture(scope="session")
def tiny_chat_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_chat_model(tmp_path_factory.mktemp("models") / "tiny-llama.gguf")


@pytest.fixture(scope="session")
def question_clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``QUESTION`` spoken by espeak-ng (16 kHz mono), with silence around it as a speaker leaves:
    the trailing silence also covers the capture latency after the player has finished."""
    return spoken_clip(tmp_path_factory.mktemp("speech") / "question.wav", QUESTION)


REMIND = ("Can you remind me to", "call the dentist on Friday?")  # a request with a pause to think


@pytest.fixture(scope="session")
def paused_request(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``REMIND``'s two parts by espeak-ng, 1.3 s to think between them, then 2.5 s of silence:
    hands-free's fixed pause (0.8 s) ends the turn in the pause, every time."""
    folder = tmp_path_factory.mktemp("paused")
    head, tail = (read_clip(spoken_clip(folder / f"{i}.wav", text, pad_s=0.0)) for i, text in enumerate(REMIND))
    silence = [np.zeros(int(s * 16000), dtype=np.float32) for s in (0.5, 1.3, 2.5)]
    path = folder / "paused.wav"
    soundfile.write(path, np.concatenate([silence[0], head, silence[1], tail, silence[2]]), 16000)
    return path


def spoken_clip(path: Path, text: str, rate_wpm: int = 130, pad_s: float = 0.4) -> Path:
    require(espeak_available(), "espeak-ng is not installed")
    synthesize(text, path, voice="en-us", rate_wpm=rate_wpm)
    speech, rate = soundfile.read(path, dtype="float32")
    silence = np.zeros(int(pad_s * rate), dtype=np.float32)
    soundfile.write(path, np.concatenate([silence, speech, silence]), rate)
    return path


def read_clip(path: Path) -> np.ndarray:
    audio, _ = soundfile.read(path, dtype="float32")
    return audio


def broken_chat_config(tmp_path: Path) -> Path:
    """A config folder whose settings name a chat model that cannot be loaded (a GGUF header
    and zeros), for self-tests that must fail with the reason."""
    config = tmp_path / "config"
    config.mkdir()
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF" + b"\0" * 100)
    (config / "settings.json").write_text(json.dumps({"chat_model": str(broken)}))
    return config


def make_controller(
    qtbot: Any, tmp_path: Path, *, wait_ready: bool = True, read_aloud: Any = None, engines: Any = None, **settings: Any
) -> Controller:
    """A real MainWindow and Controller on the real engines, started as the app starts them.

    ``settings`` are ``Settings`` fields (pass ``chat_model``; ``tiny_settings`` helps).  The
    first-start page is taken as dismissed unless ``first_start_done=False`` is passed (its own
    tests).  The store and settings file live in ``tmp_path``.  Replies are read aloud by ``read_aloud()``,
    by default a system voice that cannot speak; ``"from settings"``: the voice the settings
    name, as in the app (the natural voice by default).
    """
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    controller = Controller(
        window,
        engines or LocalEngines(),
        Settings(**{"first_start_done": True, **settings}),
        Store(tmp_path / "conversations.sqlite3"),
        settings_path=tmp_path / "settings.json",
        # Default: no text-to-speech engine, the common case on a test machine.
        read_aloud=None if read_aloud == "from settings" else read_aloud or (lambda: ReadAloud("no-such-engine")),
    )
    controller.start()
    if wait_ready:
        wait_idle(qtbot, controller, LOAD_TIMEOUT_MS)
    return controller


def idle(controller: Controller) -> bool:
    return controller.idle


def wait_idle(qtbot: Any, controller: Controller, timeout: int = REPLY_TIMEOUT_MS) -> None:
    qtbot.waitUntil(lambda: idle(controller), timeout=timeout)


def stored(controller: Controller) -> list[tuple[str, str, bool]]:
    """(role, content, complete) of the open conversation's messages, as the database has them."""
    return [
        (m.role, m.content, m.complete)
        for m in controller.book.store.load_conversation(controller.book.current.id).messages
    ]


def status(controller: Controller) -> str:
    return controller.window.statusBar().currentMessage()


def start_endless_reply(qtbot: Any, controller: Controller, text: str = "Tell me a long story") -> Any:
    """Send ``text`` to the tiny model and wait until its reply is streaming into the window."""
    assert controller.replies.send(text)
    widget = controller.window.conversation_view.messages[-1]
    qtbot.waitUntil(lambda: len(controller.replies.text) >= 20, timeout=REPLY_TIMEOUT_MS)
    qtbot.waitUntil(lambda: len(widget.text) >= 20, timeout=REPLY_TIMEOUT_MS)  # rendered
    return widget


def play(qtbot: Any, mic: VirtualMicrophone, clip: Path) -> None:
    """Play ``clip`` into the virtual microphone, keeping the Qt event loop running meanwhile."""
    player = mic.play(clip, wait=False)
    qtbot.waitUntil(lambda: player.poll() is not None, timeout=60_000)
    finish(player, timeout=5)


def speak(qtbot: Any, controller: Controller, mic: VirtualMicrophone, clip: Path) -> None:
    """Hold push-to-talk while ``clip`` plays into the microphone, then let go."""
    controller.spoken_turn.pressed()
    assert controller.talk.recorder is not None, status(controller)
    play(qtbot, mic, clip)
    controller.spoken_turn.released()


def run_python(code: str, env: dict[str, str], timeout: float = 300) -> subprocess.CompletedProcess:
    import os
    import sys

    repo = Path(__file__).resolve().parents[2]
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=repo,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@contextlib.contextmanager
def kept_look(app: Any) -> Iterator[None]:
    """The application's style, palette, font and style sheet (``theme.apply_theme`` changes
    them, for the whole test session) put back as they were afterwards, the theme at "system"."""
    saved = (app.style().name(), app.palette(), app.font(), app.styleSheet())
    try:
        yield
    finally:
        theme.apply_theme(app, "system")
        style, palette, font, sheet = saved
        app.setStyleSheet(sheet)
        app.setStyle(style)
        app.setPalette(palette)
        app.setFont(font)
