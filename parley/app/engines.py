"""The application's one doorway to the engines: models, microphones and compute devices.

The app never builds an engine object itself: it is handed an ``Engines`` object, and each part
gets the narrow piece it needs (the recorder or listener factory, an engine's slot).
``LocalEngines`` is the real one and imports ``parley.engine`` lazily, so the window opens
(and can explain what is wrong) even when the native libraries or PortAudio are missing; tests
hand the controller another object of the same shape.  A caller that already holds loaded engine
objects can subclass ``LocalEngines`` and return them from ``load_speech``/``load_chat``.

What does not go through the doorway, on purpose: the engine's plain-Python rules that hold no
native library, device or model (``formats``, the utterance rules in ``audio.utterance`` and the
utterance segmenter in ``audio.vad``, numpy only).  Those are algorithms the app applies to
audio it already holds; the app imports them like any library.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from parley.engine.formats import GGML_MAGIC, GGUF_MAGIC

from ..config.settings import BASE_SPEECH_MODEL, DEFAULT_MODEL, Settings

# The warm-up after a load (``warm_chat``, ``warm_speech``).
WARM_CHAT_TEXT = "Hello"
WARM_TOKENS = 2
WARM_SPEECH_S = 3.0

# Engines.recorder / Engines.listener, as the parts that open the microphone receive them.
RecorderFactory = Callable[
    [str | None, Callable[[float], None], Callable[[BaseException], None], Callable[[], None], float], Any
]
ListenerFactory = Callable[
    [str | None, Callable[[Any], None], Callable[[float], None], Callable[[BaseException], None]], Any
]


@dataclass(frozen=True)
class ChatModelChoice:
    """What the chat model setting "default" means on this machine (``library.choice``)."""

    chosen: str  # the name of the model Parley uses
    reason: str  # why, in a sentence
    unmeasured: list[str]  # models that may be chosen once measured here (ids)
    builtin: list[tuple[str, str, bool]]  # (setting, name, is a pack) of each built-in model installed


class Engines(Protocol):
    """What the controller needs from the engines.

    Called in worker jobs (``tasks.py``): ``speech_model_path``, ``resolve_chat_model``,
    ``chat_choice``, ``measure_chat_model`` (seconds: a model is loaded and timed),
    ``load_speech``, ``load_chat``, ``chat_session``, ``reset_session``, ``sampling``,
    ``cancel_token``, ``input_devices``, ``fit_warning`` and ``connect_remote`` (a handshake of up
    to 3 s per server), and every method of the objects they return.  Called on the UI thread:
    ``recorder`` and ``listener`` (their methods are thread-safe),
    ``compute_devices``, ``check_model_file``, ``embedding_models`` and ``check_embedding_model``
    (quick: a device list, a file header, where a package is).  ``load_embedding`` runs on the
    local server's thread (a first use converts the catalog's model, a second or two).
    ``check_server`` (a handshake of up to 3 s) runs on a thread of the settings dialog's own.
    ``speech_detector`` runs on the hands-free listener's thread, which then uses what it returns.
    Histories are ``(role, content)`` pairs, oldest first.
    """

    def speech_model_path(self, setting: str, progress: Callable[[float], None], cancel: Any) -> Path: ...
    def resolve_chat_model(self, setting: str, device: str, threads: int | None) -> tuple[Path, str | None]: ...
    def chat_choice(self, device: str, threads: int | None) -> ChatModelChoice: ...
    def measure_chat_model(
        self, model_id: str, device: str, threads: int | None, cancel: Any, busy: bool = False
    ) -> None: ...
    def is_builtin_chat_model(self, setting: str) -> bool: ...
    def load_speech(self, path: Path, device: str, threads: int | None) -> Any: ...
    def load_chat(
        self, path: Path, device: str, n_ctx: int, threads: int | None, progress: Callable[[float], bool] | None = None
    ) -> Any: ...
    def chat_session(self, model: Any, system_prompt: str, history: list[tuple[str, str]]) -> Any: ...
    def warm_chat(self, session: Any, system_prompt: str, cancel: Any) -> None: ...
    def warm_speech(self, model: Any, cancel: Any) -> None: ...
    def reset_session(self, session: Any, system_prompt: str, history: list[tuple[str, str]]) -> None: ...
    def run_turn(
        self,
        session: Any,
        toolbox: Any,
        user_text: str,
        params: Any,
        *,
        ask: Callable[[Any], bool],
        on_text: Callable[[str], None],
        on_step: Callable[[Any], None],
        allowed: Collection[str],
        cancel: Any,
    ) -> Any: ...
    def cleaner(self, model: Any) -> Any: ...
    def sampling(self, settings: Settings) -> Any: ...
    def cancel_token(self) -> Any: ...
    def input_devices(self) -> list[Any]: ...
    def recorder(
        self,
        microphone: str | None,
        on_level: Callable[[float], None],
        on_error: Callable[[BaseException], None],
        on_limit: Callable[[], None],
        max_seconds: float,
    ) -> Any: ...
    def listener(
        self,
        microphone: str | None,
        on_audio: Callable[[Any], None],
        on_level: Callable[[float], None],
        on_error: Callable[[BaseException], None],
    ) -> Any: ...
    def compute_devices(self) -> list[str]: ...
    def speech_detector(self, kind: str) -> Any: ...

    def turn_judge(self, kind: str) -> Any: ...

    def wake_detector(self, word: str, threshold: float | None) -> Any: ...

    def wake_words(self) -> list[tuple[str, str, bool]]: ...
    def natural_voices(self) -> list[tuple[str, str]]: ...
    def natural_voice_problem(self) -> str | None: ...
    def speaker(
        self,
        voice: str,
        threads: int | None,
        on_speaking: Callable[[bool], None],
        on_error: Callable[[BaseException], None],
        on_played: Callable[[Any, int], None] | None,
        on_first_audio: Callable[[], None] | None = None,
        on_underflow: Callable[[], None] | None = None,
    ) -> Any: ...
    def echo_canceller(self) -> Any: ...
    def chime(self, on_error: Callable[[BaseException], None], cue: str = "") -> Any: ...
    def fit_warning(self, path: Path, kind: str, n_ctx: int, device: str) -> str | None: ...
    def connect_remote(self, endpoints: list[str], on_lost: Callable[[str, str], None]) -> str | None: ...
    def check_server(self, endpoint: str) -> str | None: ...
    def check_model_file(self, kind: str, path: str) -> str | None: ...
    def embedding_models(self) -> list[tuple[str, str, int, bool]]: ...
    def check_embedding_model(self, setting: str) -> str | None: ...
    def load_embedding(self, setting: str, device: str, threads: int | None) -> Any: ...


class LocalEngines:
    """``Engines`` backed by the real whisper.cpp / llama.cpp engines in ``parley.engine``."""

    def speech_model_path(self, setting: str, progress: Callable[[float], None], cancel: Any = None) -> Path:
        """The whisper.cpp file for ``setting``: "default" and "base" are converted on first use
        (``progress`` gets the fraction done; ``cancel.cancelled`` stops the conversion)."""
        from parley.engine.modelfiles.defaults import speech_model_path

        return speech_model_path(
            setting if setting in (DEFAULT_MODEL, BASE_SPEECH_MODEL) else str(Path(setting)),
            progress=progress,
            cancel=cancel,
        )

    def resolve_chat_model(self, setting: str, device: str, threads: int | None) -> tuple[Path, str | None]:
        """The GGUF for ``setting`` and a notice for the user (or None).  "default" is Parley's
        choice for this machine, "starter" and "pack:ID" the built-in models (a pack joined and
        checked on first use; one that cannot be used gives way to the starter, and the notice
        says so); a legacy ggml GPT-2 file is converted once and cached."""
        from parley.engine.library.choice import is_builtin, resolve
        from parley.engine.modelfiles.defaults import chat_model_file

        if is_builtin(setting):
            resolved = resolve(setting, device=device, threads=threads)
            return resolved.path, resolved.notice
        return chat_model_file(setting), None

    def chat_choice(self, device: str, threads: int | None) -> ChatModelChoice:
        """What "default" means on this machine now, and the built-in models to offer."""
        from parley.engine.library.choice import PACK_SETTING_PREFIX, STARTER_SETTING, candidates, choose

        picked = choose(device=device, threads=threads)
        builtin = [
            (STARTER_SETTING if c.pack is None else PACK_SETTING_PREFIX + c.id, c.name, c.pack is not None)
            for c in candidates()
        ]
        chosen = picked.candidate.name if picked.candidate is not None else "SmolLM2 135M (starter)"
        return ChatModelChoice(chosen, picked.reason, [c.id for c in picked.unmeasured], builtin)

    def is_builtin_chat_model(self, setting: str) -> bool:
        """Whether the chat model setting names a built-in model ("starter", "pack:ID"), not a file."""
        from parley.engine.library.choice import is_builtin

        return setting != DEFAULT_MODEL and is_builtin(setting)

    def measure_chat_model(
        self, model_id: str, device: str, threads: int | None, cancel: Any, busy: bool = False
    ) -> None:
        """Time one built-in model on this machine (a few seconds) and remember the figures
        (``busy``: other programs kept the processor busy meanwhile, ``choice.measure``)."""
        from parley.engine.library.choice import candidates, measure

        found = next((c for c in candidates() if c.id == model_id), None)
        if found is not None:
            measure(found, device=device, threads=threads, cancel=cancel, busy=busy)

    def load_speech(self, path: Path, device: str, threads: int | None) -> Any:
        from parley.engine.speech import SpeechModel

        return SpeechModel(path, device=device, threads=threads)

    def load_chat(
        self, path: Path, device: str, n_ctx: int, threads: int | None, progress: Callable[[float], bool] | None = None
    ) -> Any:
        """``progress(fraction)`` while the weights load; returning False cancels the load."""
        from parley.engine.chat.model import ChatModel

        return ChatModel(path, device=device, n_ctx=n_ctx, threads=threads, progress=progress)

    def chat_session(self, model: Any, system_prompt: str, history: list[tuple[str, str]]) -> Any:
        from parley.engine.chat.model import ChatSession

        return ChatSession(model, system_prompt=system_prompt, history=self._messages(history))

    def reset_session(self, session: Any, system_prompt: str, history: list[tuple[str, str]]) -> None:
        session.reset(system_prompt=system_prompt, history=self._messages(history))

    def run_turn(
        self,
        session: Any,
        toolbox: Any,
        user_text: str,
        params: Any,
        *,
        ask: Callable[[Any], bool],
        on_text: Callable[[str], None],
        on_step: Callable[[Any], None],
        allowed: Collection[str],
        cancel: Any,
    ) -> Any:
        """A turn with ``toolbox``'s tools (``engine.tools.turn.run_turn``): its ``TurnResult``."""
        from parley.engine.tools.turn import run_turn

        return run_turn(
            session,
            toolbox,
            user_text,
            params,
            ask=ask,
            on_text=on_text,
            on_step=on_step,
            allowed=allowed,
            cancel=cancel,
        )

    def cleaner(self, model: Any) -> Any:
        """A dictation's clean-up by the loaded chat ``model`` (use it on the chat engine's thread)."""
        from parley.engine.dictation.cleanup import Cleaner

        return Cleaner(model)

    def warm_chat(self, session: Any, system_prompt: str, cancel: Any) -> None:
        """A throw-away turn of ``WARM_TOKENS`` (a greeting), then the session as it was: the
        first question after a load then costs what the next ones cost (the first decode pays
        one-off costs: compute buffers, the sampler, the threads' first work).  The cached tokens
        of the system prompt stay and are reused."""
        from parley.engine.chat.model import SamplingParams

        session.reply(WARM_CHAT_TEXT, SamplingParams(temperature=0, max_tokens=WARM_TOKENS), cancel=cancel)
        session.reset(system_prompt=system_prompt)

    def warm_speech(self, model: Any, cancel: Any) -> None:
        """A throw-away transcription of ``WARM_SPEECH_S`` of faint noise, the length of a short
        spoken question (whisper sizes its encoder to the clip), for the same reason."""
        import numpy as np

        noise = np.random.default_rng(0).normal(0.0, 0.003, int(WARM_SPEECH_S * 16000)).astype(np.float32)
        model.transcribe(noise, cancel=cancel)

    def sampling(self, settings: Settings) -> Any:
        from parley.engine.chat.model import SamplingParams

        return SamplingParams(
            temperature=settings.temperature, top_k=settings.top_k, top_p=settings.top_p, max_tokens=settings.max_tokens
        )

    def cancel_token(self) -> Any:
        from parley.engine.backend.cancel import CancelToken

        return CancelToken()

    def input_devices(self) -> list[Any]:
        """The microphones there are now: PortAudio scans again, so one plugged in (or a sound
        server started) since the last look is found.  Skipped by the engine while recording."""
        from parley.engine.audio.capture import list_input_devices

        return list_input_devices(refresh=True)

    def recorder(
        self,
        microphone: str | None,
        on_level: Callable[[float], None],
        on_error: Callable[[BaseException], None],
        on_limit: Callable[[], None],
        max_seconds: float,
    ) -> Any:
        from parley.engine.audio.capture import Recorder

        return Recorder(microphone, max_seconds=max_seconds, on_level=on_level, on_error=on_error, on_limit=on_limit)

    def listener(
        self,
        microphone: str | None,
        on_audio: Callable[[Any], None],
        on_level: Callable[[float], None],
        on_error: Callable[[BaseException], None],
    ) -> Any:
        """The microphone kept open (hands-free): 16 kHz blocks to ``on_audio`` on its thread."""
        from parley.engine.audio.capture import Listener

        return Listener(microphone, on_audio=on_audio, on_level=on_level, on_error=on_error)

    def speech_detector(self, kind: str) -> Any:
        """What tells speech from noise in hands-free listening (``audio.vad.SpeechDetector``):
        ``neural`` (Silero VAD on ggml) or ``energy``.  Called on the listener's thread, where the
        detector is then used; a neural detector that cannot load raises, and the caller falls back."""
        from parley.engine.audio.vad import EnergyDetector

        if kind != "neural":
            return EnergyDetector()
        from parley.engine.audio.silero import NeuralDetector, SileroVAD

        return NeuralDetector(SileroVAD.default())

    def turn_judge(self, kind: str) -> Any:
        """What ends a hands-free turn (``audio.vad.TurnJudge``): ``model``, Smart Turn v3.2 on
        ONNX Runtime, or None for the fixed pause.  Called on the listener's thread, like
        ``speech_detector``; a model that cannot load raises, and the caller falls back."""
        if kind != "model":
            return None
        from parley.engine.audio.turn_end import SmartTurn
        from parley.engine.modelfiles.defaults import default_turn_model_path

        return SmartTurn(default_turn_model_path())

    def wake_detector(self, word: str, threshold: float | None) -> Any:
        """What hears the wake word in hands-free listening (``wake.detector.WakeDetector``), or
        None where no model does (no word, or "parley", found in the transcript).  Called on the
        listener's thread, like ``speech_detector``; a model that cannot load raises."""
        if not word:
            return None
        from parley.engine.wake.detector import WakeDetector
        from parley.engine.wake.words import find_word

        found = find_word(word)
        return None if found.heard_in_transcript else WakeDetector(found, threshold)

    def wake_words(self) -> list[tuple[str, str, bool]]:
        """(setting, phrase, installed) of the wake words a model hears, for Settings."""
        from parley.engine.wake.words import WAKE_WORDS, package_folder

        installed = package_folder() is not None
        return [(w.id, w.phrase, installed) for w in WAKE_WORDS if not w.heard_in_transcript]

    def natural_voices(self) -> list[tuple[str, str]]:
        """(id, name) of the natural voices installed."""
        from parley.engine.voice.voices import voices

        return [(v.id, v.name) for v in voices()]

    def natural_voice_problem(self) -> str | None:
        """Why no natural voice can speak here (None: one can)."""
        from parley.engine.voice.voices import unavailable

        return unavailable()

    def speaker(
        self,
        voice: str,
        threads: int | None,
        on_speaking: Callable[[bool], None],
        on_error: Callable[[BaseException], None],
        on_played: Callable[[Any, int], None] | None,
        on_first_audio: Callable[[], None] | None = None,
        on_underflow: Callable[[], None] | None = None,
    ) -> Any:
        """A ``Speaker`` for the natural voice ``voice`` ("default": the default natural voice);
        it loads the voice on its own thread."""
        from functools import partial

        from parley.engine.voice.speaker import Speaker
        from parley.engine.voice.voices import DEFAULT_VOICE, load_voice

        return Speaker(
            partial(load_voice, DEFAULT_VOICE if voice == DEFAULT_MODEL else voice, threads=threads),
            on_speaking=on_speaking,
            on_error=on_error,
            on_played=on_played,
            on_underflow=on_underflow,
            on_first_audio=on_first_audio,
        )

    def chime(self, on_error: Callable[[BaseException], None], cue: str = "") -> Any:
        """Play Parley's chime (``engine.audio.chime``), or its short ``cue`` ("listening" or
        "waiting"), on the default output; the ``Player``, which closes the device once it has
        played it.  A device that cannot be used goes to ``on_error`` (on the player's thread)."""
        from parley.engine.audio import chime
        from parley.engine.audio.playback import Player

        player = Player(chime.SAMPLE_RATE, on_error=on_error)
        player.play(chime.cue(cue == "listening") if cue else chime.chime(chime.SAMPLE_RATE, repeats=2))
        player.finish()
        return player

    def echo_canceller(self) -> Any:
        """An ``EchoCanceller`` for the microphone (WebRTC's AEC3), or None when pywebrtc-audio is
        not installed."""
        from parley.engine.audio import echo

        return None if echo.available() else echo.EchoCanceller()

    def compute_devices(self) -> list[str]:
        """Device names for the settings dialog; empty when the native build is unusable."""
        try:
            from parley.engine.backend.devices import list_devices

            return [d.name for d in list_devices()]
        except Exception:  # noqa: BLE001 - the dialog then offers "auto" and "cpu" only
            return []

    def connect_remote(self, endpoints: list[str], on_lost: Callable[[str, str], None]) -> str | None:
        """Register the devices of the ``parley rpc-server`` endpoints (checked first, 3 s at most
        each); ``on_lost(endpoint, reason)`` is called on another thread when one goes away.
        Returns why a server cannot be used (the others are connected), or None."""
        from parley.engine.backend.rpc import remote
        from parley.engine.errors import RemoteError

        if not endpoints:
            return None
        remote.on_lost(on_lost)
        problems = []
        for endpoint in endpoints:
            try:
                remote.connect([endpoint])
            except RemoteError as exc:
                problems.append(str(exc))
        return "; ".join(problems) or None

    def check_server(self, endpoint: str) -> str | None:
        """Whether a remote compute server answers (for the settings dialog's Add)."""
        from parley.engine.backend.rpc import remote
        from parley.engine.errors import RemoteError

        try:
            remote.check_server(endpoint)
        except RemoteError as exc:
            return str(exc)
        return None

    def fit_warning(self, path: Path, kind: str, n_ctx: int, device: str) -> str | None:
        """Whether ``path`` may not fit in this machine's memory (or the device's), with the
        figures; None when it should fit, or when the file cannot be read (loading says why)."""
        from parley.engine.errors import ParleyError
        from parley.engine.library import fit_warning

        try:
            return fit_warning(path, kind=kind, n_ctx=n_ctx, device=device)
        except (ParleyError, OSError):
            return None

    def check_model_file(self, kind: str, path: str) -> str | None:
        """The engines' own header checks (quick: tensor data is not read) before the settings
        dialog accepts a model file; None if it may load."""
        if kind == "speech" and path == BASE_SPEECH_MODEL:
            try:
                from parley.engine.errors import ModelFileError
                from parley.engine.modelfiles.defaults import base_speech_sources

                base_speech_sources()
            except ModelFileError as exc:
                return exc.problem
            return None
        problem = model_file_problem(kind, path)
        if problem is not None:
            return problem
        try:
            from parley.engine.errors import ModelFileError
            from parley.engine.modelfiles.defaults import check_chat_model
            from parley.engine.modelfiles.whisper_file import check_whisper_ggml
        except Exception:  # noqa: BLE001 - without the engines, the magic check above is all there is
            return None
        try:
            (check_whisper_ggml if kind == "speech" else check_chat_model)(path)
        except ModelFileError as exc:
            return exc.problem
        return None

    def embedding_models(self) -> list[tuple[str, str, int, bool]]:
        """(setting, name, dimensions, installed) of each of the catalog's embedding models, for
        the local server's /v1/embeddings (Settings > Desktop)."""
        from parley.engine.library.embedding_models import MODELS, is_installed

        return [(m.id, m.name, m.dimensions, is_installed(m)) for m in MODELS]

    def check_embedding_model(self, setting: str) -> str | None:
        """Why the embedding model ``setting`` (a catalog id or a GGUF's path) cannot be used, or
        None if it may load (a header check; a catalog model is converted when first served)."""
        from parley.engine.errors import ModelFileError
        from parley.engine.library.embedding_models import find_embedding_model, is_installed
        from parley.engine.modelfiles.gguf_file import check_gguf

        model = find_embedding_model(setting)
        if model is not None:
            return None if is_installed(model) else f"not installed: `parley models install {model.id}` installs it"
        problem = model_file_problem("chat", setting)  # an embedding model is a GGUF too
        if problem is not None:
            return problem
        try:
            check_gguf(Path(setting))
        except ModelFileError as exc:
            return exc.problem
        return None

    def load_embedding(self, setting: str, device: str, threads: int | None) -> Any:
        """The embedding model ``setting`` loaded (a catalog model is converted on first use);
        the caller closes it."""
        from parley.engine.chat.embeddings import Embedder
        from parley.engine.library.embedding_models import embedding_model_path

        return Embedder(embedding_model_path(setting), device=device, threads=threads)

    @staticmethod
    def _messages(history: list[tuple[str, str]]) -> list[Any]:
        from parley.engine.chat.model import Message

        return [Message(role, content) for role, content in history]


def model_file_problem(kind: str, path: str) -> str | None:
    """Why ``path`` cannot be a ``kind`` ("speech" or "chat") model file, or None if it may be."""
    file = Path(path)
    if not file.exists():
        return "the file does not exist"
    if not file.is_file():
        return "this is a folder, not a model file"
    try:
        with open(file, "rb") as f:
            magic = f.read(4)
    except OSError as exc:
        return f"the file cannot be read ({exc.strerror or exc})"
    allowed = (GGML_MAGIC,) if kind == "speech" else (GGUF_MAGIC, GGML_MAGIC)  # chat: GGUF or legacy GPT-2
    if magic not in allowed:
        wanted = "a whisper.cpp model (.bin)" if kind == "speech" else "a GGUF model (.gguf) or a ggml GPT-2 model"
        return f"this is not {wanted}"
    return None
