"""The wake words Parley knows.

Four are heard by microWakeWord models (Kevin Ahrendt's, Apache-2.0) that the pymicro-wakeword
package carries: its wheel is pinned like every dependency, and each model file is checked
against the hash below before it is loaded, so a file truncated or replaced after the install is
refused with a message, never handed to TensorFlow Lite.  The cutoff and window are the models'
own (their JSON configs); the threshold Parley uses is measured (``bench/bench_wake.py``: the
lowest of those tried at which no false wake came in its two hours without the word, nor from
Parley's own voice saying it): lower than the cutoff where that costs no false wake, because
it halves the words missed in noise.  Below the threshold, down to ``SECOND_LOOK``, the
transcript decides.  The package is found with ``importlib.util.find_spec`` and never
imported here: ``detector`` imports it when a model is loaded.

"Parley" has no trained model: it is heard in the transcript hands-free makes of each
utterance anyway (``phrase``), so it costs a transcription of everything said near the
microphone while waiting, where a model word costs a few milliseconds a second.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
from pathlib import Path

from ..errors import UntrustedFileError, WakeWordError
from ..untrusted import read_bytes

PACKAGE = "pymicro_wakeword"
SECOND_LOOK = 0.1
"""Every model word's floor: an utterance in which the word scored past it, but not past the
threshold, wakes Parley when its transcript begins with the phrase too.  Measured
(``bench/bench_wake.py``, 2026-12-07): no false wake in the two hours at 0.1 with that second
look, where the detector alone woke 0.5 to 33.5 times an hour at 0.1; missed at 0 dB SNR Hey
Jarvis 24% (32% without), Hey Mycroft 53% (68%), Alexa 52% (64%), Okay Nabu 77% (81%: whisper
writes it "Okay, now", which is not taken for it)."""
MAX_MODEL_BYTES = 1 << 20  # the models are 50-80 kB


@dataclasses.dataclass(frozen=True)
class WakeWord:
    id: str  # what settings and ``parley wake --word`` name it by
    phrase: str  # as it is said and shown
    model: str = ""  # the model file in the package's ``models`` folder; "" for a transcript word
    sha256: str = ""
    cutoff: float = 0.0  # the model's own: the mean probability above which its author hears it
    window: int = 0  # how many of the model's outputs (30 ms apart) that mean is over
    threshold: float = 0.0  # Parley's, measured (see the module)
    floor: float = 0.0  # a score past it (not past the threshold) wakes Parley with the phrase in the transcript

    @property
    def heard_in_transcript(self) -> bool:
        return not self.model


WAKE_WORDS = (
    WakeWord(
        "hey_jarvis",
        "Hey Jarvis",
        "hey_jarvis.tflite",
        "21a7976add39ee24ec96c63d96b7aaa18e24d1d9824b963e451da8feb4b78b77",
        0.97,
        5,
        0.5,
        SECOND_LOOK,
    ),
    WakeWord(
        "okay_nabu",
        "Okay Nabu",
        "okay_nabu.tflite",
        "d89128c4d16a72de429119fb2254ce46649553c2a24f5dd840175c80d7b9d094",
        0.85,
        5,
        0.85,
        SECOND_LOOK,
    ),
    WakeWord(
        "hey_mycroft",
        "Hey Mycroft",
        "hey_mycroft.tflite",
        "c2a9b6ed51182db72e014781d5a4ece1929dc232a40b5b4be384f0295f0e1571",
        0.95,
        5,
        0.95,
        SECOND_LOOK,
    ),
    WakeWord(
        "alexa",
        "Alexa",
        "alexa.tflite",
        "9011a8155b04de858c48038529235cbc0e42e9fca05a55bf588cb80a653a723b",
        0.9,
        5,
        0.8,
        SECOND_LOOK,
    ),
    WakeWord("parley", "Parley"),
)
DEFAULT_WAKE_WORD = "hey_jarvis"


def find_word(word_id: str) -> WakeWord:
    """The wake word named ``word_id``; ``WakeWordError`` naming those there are otherwise."""
    for word in WAKE_WORDS:
        if word.id == word_id:
            return word
    raise WakeWordError(f"There is no wake word {word_id!r}; there are: {', '.join(w.id for w in WAKE_WORDS)}")


def package_folder() -> Path | None:
    """pymicro-wakeword's folder, when it is installed."""
    spec = importlib.util.find_spec(PACKAGE)
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    return Path(folders[0]) if folders else None


def model_bytes(word: WakeWord) -> bytes:
    """The word's model, read and checked against its hash; ``WakeWordError`` saying what is
    wrong (not installed, missing, not a file, changed) otherwise."""
    if word.heard_in_transcript:
        raise WakeWordError(f"{word.phrase!r} is heard in the transcript; it has no model")
    folder = package_folder()
    if folder is None:
        raise WakeWordError(f"The wake word {word.phrase!r} needs the pymicro-wakeword package, which is not installed")
    path = folder / "models" / word.model
    try:
        data = read_bytes(path, MAX_MODEL_BYTES)
    except UntrustedFileError as exc:
        raise WakeWordError(f"The wake word model for {word.phrase!r} cannot be read: {exc}") from None
    if hashlib.sha256(data).hexdigest() != word.sha256:
        raise WakeWordError(
            f"The wake word model {path} is not the one Parley was built with (its checksum differs: "
            "damaged or replaced); reinstall pymicro-wakeword"
        )
    return data


def library_path() -> Path:
    """TensorFlow Lite's C library, as pymicro-wakeword ships it."""
    folder = package_folder()
    found = sorted((folder / "lib").glob("*tensorflowlite_c.*")) if folder is not None else []
    if not found:
        raise WakeWordError("pymicro-wakeword is installed without its TensorFlow Lite library; reinstall it")
    return found[0]
