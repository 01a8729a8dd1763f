"""A stand-in for the engines, for fast tests of the app's flows: ``FakeEngines`` has the shape of
``parley.app.engines.Engines``, with a ``FakeMicrophone`` and a ``FakeClock``.

The flows (``parley.app.flows``) are the thing under test; the engines are not, and the real-parts
app tests (``test_app_*.py``) prove them.  Here nothing is native and every answer comes at once:
- the speech model hears the words that the microphone was told to say (``FakeMicrophone.say``);
- the chat model answers what the test wrote (``FakeChat.answer``), streamed word by word, and a
  held reply (``FakeChat.hold``) streams its words then waits until the test lets it end
  (``release``) or the app stops it;
- the natural voice speaks what it is fed until the test says it has said it all
  (``FakeVoice.finish``), or the app silences it;
- the echo canceller removes nothing, and the speakers do not reach the microphone.
Everything else is the app's own: the window, the worker threads (``tasks.py``), the push-to-talk
and hands-free code, the utterance rules, the reply machine, the store.

How words travel as sound: each text the microphone says is a tone of its own pitch
(``PITCH_STEP_HZ`` apart), with silence around it, loud enough for the app's speech rules
(``speech_region``, the hands-free segmenter); the speech model gives back the text of each pitch
it finds, a tenth of a second at a time, in order.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from parley.app.engines import ChatModelChoice
from parley.engine.audio.vad import EnergyDetector
from parley.engine.errors import Cancelled
from parley.engine.formats import SAMPLE_RATE

LOWEST_PITCH_HZ = 300.0
PITCH_STEP_HZ = 60.0
TONE_LEVEL = 0.1  # -23 dBFS RMS: speech to the app's rules (their floor is -42 dBFS)
FRAME = SAMPLE_RATE // 10  # the speech model names the pitch of each 0.1 s
LEAD_S, TAIL_S = 0.3, 1.0  # silence before and after what is said: the tail ends a hands-free utterance
BLOCK = SAMPLE_RATE // 50  # the hands-free listener's blocks: 20 ms


class FakeClock:
    """Seconds that move only when the test moves them."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


# ---------------------------------------------------------------- words as sound


class Vocabulary:
    """The texts said so far, each with its pitch."""

    def __init__(self) -> None:
        self._pitches: dict[str, float] = {}

    def sound(self, text: str, seconds: float) -> np.ndarray:
        """``text`` said for ``seconds``: its tone (a new text gets the next pitch)."""
        pitch = self._pitches.setdefault(text, LOWEST_PITCH_HZ + PITCH_STEP_HZ * len(self._pitches))
        t = np.arange(int(seconds * SAMPLE_RATE)) / SAMPLE_RATE
        return (TONE_LEVEL * math.sqrt(2) * np.sin(2 * np.pi * pitch * t)).astype(np.float32)

    def hear(self, audio: np.ndarray) -> str:
        """The texts whose tones ``audio`` holds, in order (each once per stretch)."""
        heard: list[str] = []
        texts = {pitch: text for text, pitch in self._pitches.items()}
        for start in range(0, len(audio) - FRAME + 1, FRAME):
            frame = audio[start : start + FRAME]
            if np.sqrt(np.mean(np.square(frame, dtype=np.float64))) < TONE_LEVEL / 4:
                continue
            peak = np.argmax(np.abs(np.fft.rfft(frame))) * SAMPLE_RATE / FRAME
            pitch = min(texts, key=lambda p: abs(p - peak), default=None)
            if pitch is not None and abs(pitch - peak) < PITCH_STEP_HZ / 2:
                if not heard or heard[-1] != texts[pitch]:
                    heard.append(texts[pitch])
        return " ".join(heard)


# ---------------------------------------------------------------- the microphone


@dataclass
class InputDevice:
    name: str


class FakeMicrophone:
    """The one microphone: what it is told to ``say`` goes to the take being recorded and to the
    hands-free listener, if they are open."""

    name = "Fake microphone"

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        self.recorder: FakeRecorder | None = None
        self.listener: FakeListener | None = None
        self.unplugged = False  # opening it fails

    def say(self, text: str, seconds: float = 0.6, *, pause: bool = True) -> None:
        """``text`` spoken for ``seconds``, after a moment of silence; ``pause``: and the silence
        after it that ends a hands-free utterance."""
        tail = self._silence(TAIL_S if pause else 0.0)
        self.play(np.concatenate([self._silence(LEAD_S), self.vocabulary.sound(text, seconds), tail]))

    def stay_silent(self, seconds: float) -> None:
        self.play(self._silence(seconds))

    def play(self, audio: np.ndarray) -> None:
        if self.recorder is not None:
            self.recorder.add(audio)
        if self.listener is not None:
            self.listener.add(audio)

    def fail(self, problem: str = "the device was unplugged") -> None:
        """It stops delivering audio: what is open reports the error."""
        for stream in (self.recorder, self.listener):
            if stream is not None:
                stream.on_error(OSError(problem))

    @staticmethod
    def _silence(seconds: float) -> np.ndarray:
        return np.zeros(int(seconds * SAMPLE_RATE), dtype=np.float32)


class FakeRecorder:
    """A push-to-talk take (``Engines.recorder``)."""

    def __init__(
        self,
        microphone: FakeMicrophone,
        on_level: Callable[[float], None],
        on_error: Callable[[BaseException], None],
        on_limit: Callable[[], None],
        max_seconds: float,
    ) -> None:
        self.microphone, self.on_level, self.on_error, self.on_limit = microphone, on_level, on_error, on_limit
        self.max_samples = int(max_seconds * SAMPLE_RATE)
        self.is_recording = False
        self.first_sample_at: float | None = None
        self._chunks: list[np.ndarray] = []

    def start(self) -> None:
        if self.microphone.unplugged:
            raise OSError("the fake microphone is unplugged")
        self.is_recording = True
        self.first_sample_at = time.monotonic()
        self.microphone.recorder = self

    def add(self, audio: np.ndarray) -> None:
        room = self.max_samples - len(self.snapshot())
        self._chunks.append(audio[:room])
        if len(audio):
            self.on_level(20 * math.log10(max(1e-9, float(np.sqrt(np.mean(np.square(audio)))))))
        if room <= len(audio):
            self.on_limit()

    def snapshot(self) -> np.ndarray:
        return np.concatenate(self._chunks) if self._chunks else np.zeros(0, dtype=np.float32)

    @property
    def elapsed(self) -> float:
        return len(self.snapshot()) / SAMPLE_RATE

    def stop(self) -> np.ndarray:
        self.cancel()
        return self.snapshot()

    def cancel(self) -> None:
        self.is_recording = False
        if self.microphone.recorder is self:
            self.microphone.recorder = None


class FakeListener:
    """The microphone kept open for hands-free (``Engines.listener``): what is said reaches
    ``on_audio`` in 20 ms blocks, on the test's thread."""

    def __init__(
        self,
        microphone: FakeMicrophone,
        on_audio: Callable[[Any], None],
        on_level: Callable[[float], None],
        on_error: Callable[[BaseException], None],
    ) -> None:
        self.microphone, self.on_audio, self.on_level, self.on_error = microphone, on_audio, on_level, on_error

    def start(self) -> None:
        if self.microphone.unplugged:
            raise OSError("the fake microphone is unplugged")
        self.microphone.listener = self

    def add(self, audio: np.ndarray) -> None:
        for start in range(0, len(audio), BLOCK):
            if self.microphone.listener is not self:
                return  # stopped meanwhile
            self.on_audio(audio[start : start + BLOCK])

    def stop(self) -> None:
        if self.microphone.listener is self:
            self.microphone.listener = None


class FakeEchoCanceller:
    """Removes nothing: in the fake room the speakers do not reach the microphone."""

    restarts = 0
    reference_level = -math.inf  # nothing played reaches the microphone

    def reference(self, block: Any, rate: int) -> None:
        pass

    def process(self, block: np.ndarray) -> np.ndarray:
        self.heard, self.played = block, np.zeros_like(block)  # what hands-free checks an utterance on
        return block

    def reset(self) -> None:
        pass

    def output_interrupted(self) -> None:
        pass


# ---------------------------------------------------------------- the models


@dataclass
class FakeDevice:
    name: str = "CPU"
    description: str = "the fake engines' device"
    remote: str | None = None


@dataclass
class FakeDeviceChoice:
    device: FakeDevice = field(default_factory=FakeDevice)
    requested: str = "auto"
    fallback_reason: str | None = None
    note: str = ""


@dataclass
class Segment:
    text: str


@dataclass
class Transcript:
    text: str
    audio_seconds: float
    elapsed: float = 0.01
    language: str = "en"

    @property
    def segments(self) -> list[Segment]:
        return [Segment(self.text)]


class FakeSpeechModel:
    name = "fake whisper"
    multilingual = False

    def __init__(self, vocabulary: Vocabulary, path: Path) -> None:
        self.vocabulary, self.path = vocabulary, path
        self.device = FakeDeviceChoice()
        self.prompts: list[str | None] = []  # whisper's initial prompt of each transcription

    def transcribe(
        self, audio: np.ndarray, language: str | None = None, cancel: Any = None, initial_prompt: str | None = None
    ) -> Transcript:
        self.prompts.append(initial_prompt)
        if cancel is not None and cancel.cancelled:
            raise Cancelled("the transcription was cancelled")
        return Transcript(self.vocabulary.hear(np.asarray(audio)), len(audio) / SAMPLE_RATE)

    def close(self) -> None:
        pass


@dataclass
class ReplyResult:
    text: str
    finish: str  # "eog", or "cancelled"
    stats: Any = None


class FakeChat:
    """What the fake chat model answers, and when it ends its replies."""

    def __init__(self) -> None:
        self.answer: Callable[[str], str] = lambda text: f"You said: {text}"
        self.asked: list[str] = []  # the user messages it replied to, in order
        self.heard_ahead: list[str] = []  # the words each read-ahead was given ("" : the conversation only)
        self.cleaner = FakeCleaner()  # the clean-up of dictations
        self._free = threading.Event()
        self._free.set()

    def hold(self) -> None:
        """From now on a reply streams its words and then waits (it is still being written)
        until ``release`` or until the app stops it."""
        self._free.clear()

    def release(self) -> None:
        """Replies held (and those to come) end."""
        self._free.set()

    def stream(self, text: str, on_text: Callable[[str], None], cancel: Any) -> ReplyResult:
        """On the chat thread: ``text``, word by word, then the wait of a held reply."""
        written = ""
        for piece in re.findall(r"\S+\s*", text):
            if cancel.cancelled:
                return ReplyResult(written, "cancelled")
            on_text(piece)
            written += piece
        while not cancel.cancelled and not self._free.wait(0.01):
            pass
        return ReplyResult(written, "cancelled" if cancel.cancelled else "eog")  # a stop wins, as in the engine


class FakeCleaner:
    """The chat model's clean-up of a dictation (``engine.dictation.cleanup.Cleaner``'s shape):
    ``answer(text)`` is its outcome; ``hold()`` makes it wait (on the chat thread) until
    ``release()``, as a clean-up that is too slow or queued behind other work."""

    def __init__(self) -> None:
        from parley.engine.dictation.pipeline import CleanupOutcome

        self.answer: Callable[[str], Any] = lambda text: CleanupOutcome("used", text.capitalize().rstrip(".") + ".")
        self.prepared = 0  # clean-up prompts evaluated ahead, at a key press
        self.cleaned: list[str] = []  # the texts it was given, in order
        self.threads: set[str] = set()  # the threads it ran on
        self._free = threading.Event()
        self._free.set()

    def hold(self) -> None:
        self._free.clear()

    def release(self) -> None:
        self._free.set()

    def prepare(self, options: Any, cancel: Any = None) -> None:
        self.threads.add(threading.current_thread().name)
        self.prepared += 1

    def clean(self, text: str, options: Any) -> Any:
        self.threads.add(threading.current_thread().name)
        self.cleaned.append(text)
        self._free.wait(30)
        return self.answer(text)


class FakeChatModel:
    name = "fake chat"
    has_template = True

    def __init__(self, path: Path) -> None:
        self.path = path
        self.device = FakeDeviceChoice()

    def tokenize(self, text: str) -> list[str]:
        return text.split()

    def close(self) -> None:
        pass


class FakeChatSession:
    def __init__(self, chat: FakeChat, history: list[tuple[str, str]]) -> None:
        self.chat, self.history = chat, list(history)

    def prefill(self, cancel: Any = None, message_start: str = "", whole: bool = False) -> int:
        self.chat.heard_ahead.append(message_start)
        words = message_start.split()
        return sum(len(content.split()) for _role, content in self.history) + len(words if whole else words[:-1])

    def reply(self, user_text: str, _params: Any, on_text: Callable[[str], None], cancel: Any) -> ReplyResult:
        self.chat.asked.append(user_text)
        self.history.append(("user", user_text))
        return self._answer(self.chat.answer(user_text), on_text, cancel)

    def regenerate(self, _params: Any, on_text: Callable[[str], None], cancel: Any) -> ReplyResult:
        if self.history and self.history[-1][0] == "assistant":
            self.history.pop()
        return self._answer(self.chat.answer(self.history[-1][1] if self.history else ""), on_text, cancel)

    def continue_reply(self, _params: Any, on_text: Callable[[str], None], cancel: Any) -> ReplyResult:
        before = self.history.pop()[1] if self.history and self.history[-1][0] == "assistant" else ""
        result = self.chat.stream(" and so on.", on_text, cancel)
        result.text = before + result.text
        self.history.append(("assistant", result.text))
        return result

    def _answer(self, text: str, on_text: Callable[[str], None], cancel: Any) -> ReplyResult:
        result = self.chat.stream(text, on_text, cancel)
        self.history.append(("assistant", result.text))
        return result


class FakeCancelToken:
    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()


# ---------------------------------------------------------------- the voice


class FakeVoice:
    """The natural voice's speaker (``Engines.speaker``): it speaks from the first piece it is
    fed until ``finish`` (all said) or ``stop``; ``paused`` while it holds what is left to say."""

    def __init__(self, on_speaking: Callable[[bool], None], on_first_audio: Callable[[], None] | None) -> None:
        self._on_speaking, self._on_first_audio = on_speaking, on_first_audio
        self.speaking = False
        self.paused = False
        self.said = ""  # fed since the last ``begin``

    def preload(self) -> None:
        pass

    def begin(self) -> None:
        self.said = ""

    def feed(self, piece: str) -> None:
        self.said += piece
        if not self.speaking:
            self.speaking = True
            self._on_speaking(True)
            if self._on_first_audio is not None:
                self._on_first_audio()

    def say(self, text: str) -> None:
        self.begin()
        self.feed(text)

    def end(self) -> None:
        """The reply is complete: it goes on speaking what it was fed (until ``finish``)."""

    def pause(self, paused: bool) -> None:
        self.paused = paused

    def hold_device(self, _held: bool) -> None:
        pass

    def stop(self) -> None:
        self.paused = False
        self._silent()

    def close(self) -> None:
        self._silent()

    def finish(self) -> None:
        """It has said all it was fed."""
        self._silent()

    def _silent(self) -> None:
        if self.speaking:
            self.speaking = False
            self._on_speaking(False)


# ---------------------------------------------------------------- the engines


class FakeEngines:
    """``Engines`` for the flows' tests.  ``chat_problem``: the chat model fails to load, with it."""

    def __init__(self, chat_problem: str | None = None) -> None:
        self.vocabulary = Vocabulary()
        self.microphone = FakeMicrophone(self.vocabulary)
        self.chat = FakeChat()
        self.chat_problem = chat_problem
        self.voice: FakeVoice | None = None  # the speaker made last

    def speech_model_path(self, setting: str, progress: Callable[[float], None], cancel: Any = None) -> Path:
        return Path("fake-whisper.bin")

    def resolve_chat_model(self, setting: str, device: str, threads: int | None) -> tuple[Path, str | None]:
        return Path("fake-chat.gguf"), None

    def chat_choice(self, device: str, threads: int | None) -> ChatModelChoice:
        return ChatModelChoice("Fake chat", "the only chat model installed", [], [("starter", "Fake chat", False)])

    def measure_chat_model(
        self, model_id: str, device: str, threads: int | None, cancel: Any, busy: bool = False
    ) -> None:
        raise AssertionError("nothing is left to measure")

    def is_builtin_chat_model(self, setting: str) -> bool:
        return setting == "starter"

    def load_speech(self, path: Path, device: str, threads: int | None) -> FakeSpeechModel:
        return FakeSpeechModel(self.vocabulary, path)

    def load_chat(
        self, path: Path, device: str, n_ctx: int, threads: int | None, progress: Callable[[float], bool] | None = None
    ) -> FakeChatModel:
        if self.chat_problem is not None:
            raise OSError(self.chat_problem)
        return FakeChatModel(path)

    def chat_session(self, model: Any, system_prompt: str, history: list[tuple[str, str]]) -> FakeChatSession:
        return FakeChatSession(self.chat, history)

    def reset_session(self, session: Any, system_prompt: str, history: list[tuple[str, str]]) -> None:
        session.history = list(history)

    def run_turn(self, session: Any, toolbox: Any, user_text: str, params: Any, **how: Any) -> Any:
        """The fake model calls no tool: a turn is its plain reply (turns with tools run the real
        model: tests/engine/test_tool_turn.py, tests/app/test_app_tools.py)."""
        return session.reply(user_text, params, how["on_text"], how["cancel"])

    def cleaner(self, model: Any) -> FakeCleaner:
        return self.chat.cleaner

    def warm_chat(self, session: Any, system_prompt: str, cancel: Any) -> None:
        """The fake models have no first-run costs to pay (the real warm-up: LocalEngines)."""

    def warm_speech(self, model: Any, cancel: Any) -> None:
        """As ``warm_chat``."""

    def sampling(self, settings: Any) -> Any:
        return settings

    def cancel_token(self) -> FakeCancelToken:
        return FakeCancelToken()

    def input_devices(self) -> list[InputDevice]:
        return [InputDevice(self.microphone.name)]

    def recorder(
        self,
        microphone: str | None,
        on_level: Callable[[float], None],
        on_error: Callable[[BaseException], None],
        on_limit: Callable[[], None],
        max_seconds: float,
    ) -> FakeRecorder:
        return FakeRecorder(self.microphone, on_level, on_error, on_limit, max_seconds)

    def listener(
        self,
        microphone: str | None,
        on_audio: Callable[[Any], None],
        on_level: Callable[[float], None],
        on_error: Callable[[BaseException], None],
    ) -> FakeListener:
        return FakeListener(self.microphone, on_audio, on_level, on_error)

    def compute_devices(self) -> list[str]:
        return ["CPU"]

    def speech_detector(self, kind: str) -> EnergyDetector:
        return EnergyDetector()  # the loudness detector: the tones are loud, the silence is not

    def turn_judge(self, kind: str) -> None:
        return None  # the fixed pause: tones are no speech for a turn-end model to hear

    def natural_voices(self) -> list[tuple[str, str]]:
        return [("fake", "Fake voice")]

    def natural_voice_problem(self) -> str | None:
        return None

    def speaker(
        self,
        voice: str,
        threads: int | None,
        on_speaking: Callable[[bool], None],
        on_error: Callable[[BaseException], None],
        on_played: Callable[[Any, int], None] | None,
        on_first_audio: Callable[[], None] | None = None,
        on_underflow: Callable[[], None] | None = None,
    ) -> FakeVoice:
        self.voice = FakeVoice(on_speaking, on_first_audio)
        return self.voice

    def echo_canceller(self) -> FakeEchoCanceller:
        return FakeEchoCanceller()

    def fit_warning(self, path: Path, kind: str, n_ctx: int, device: str) -> str | None:
        return None

    def connect_remote(self, endpoints: list[str], on_lost: Callable[[str, str], None]) -> str | None:
        return None

    def check_server(self, endpoint: str) -> str | None:
        return None

    def check_model_file(self, kind: str, path: str) -> str | None:
        return None

    def embedding_models(self) -> list[tuple[str, str, int, bool]]:
        return []  # the local server's embeddings come from the chat model

    def wake_words(self) -> list[tuple[str, str, bool]]:
        return []  # no model hears a wake word here: "Parley" (the transcript) is the only one

    def wake_detector(self, word: str, threshold: float | None) -> Any:
        return None

    def check_embedding_model(self, setting: str) -> str | None:
        return f"{setting} is not an embedding model these engines have"

    def load_embedding(self, setting: str, device: str, threads: int | None) -> Any:
        raise AssertionError("these engines load no embedding model")
