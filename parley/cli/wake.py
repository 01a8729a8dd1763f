"""``parley wake [--word WORD] FILE...``: where a wake word is heard in audio files.

One line per detection: its time in seconds in the file, the word, and the score (the model's
mean probability; 1 for "parley", which is found in the transcript of each utterance, as
hands-free finds it, so that word needs the speech model and takes a transcription per
utterance).  For tests, and for tuning ``--threshold``.  ``--list`` names the words.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..engine.audio.files import load_audio
from ..engine.errors import ParleyError, WakeWordError
from ..engine.formats import SAMPLE_RATE
from ..engine.wake.words import DEFAULT_WAKE_WORD, WAKE_WORDS, WakeWord, find_word, package_folder
from .transcribe import readable_audio

BLOCK = 1600  # 100 ms, as hands-free's listener hands them on
END_SILENCE_S = 0.8  # the pause that ends an utterance (hands-free's fixed one)
EXIT_FAILED = 1  # a file could not be read

EPILOG = (
    f"Exit status: 0 when every file was read (with or without a detection), {EXIT_FAILED} when a "
    "file could not be read, 2 for an unknown word or a threshold outside (0, 1)."
)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("wake", help="find a wake word in audio files (WAV, FLAC, OGG, MP3)", epilog=EPILOG)
    p.add_argument("files", nargs="*", metavar="FILE")
    p.add_argument("--word", default=DEFAULT_WAKE_WORD, help=f"the wake word (default {DEFAULT_WAKE_WORD}; --list)")
    p.add_argument(
        "--threshold", type=float, default=None, help="how sure, between 0 and 1 (default: Parley's for the word)"
    )
    p.add_argument("--list", action="store_true", help="name the wake words and exit")


def run(args: argparse.Namespace) -> int:
    if args.list:
        installed = package_folder() is not None
        for word in WAKE_WORDS:
            how = "heard in the transcript" if word.heard_in_transcript else "model"
            missing = "" if installed or word.heard_in_transcript else ", not installed (pymicro-wakeword)"
            print(f"{word.id}\t{word.phrase}\t({how}{missing})")
        return 0
    if not args.files:
        raise ParleyError("name at least one audio file (or --list)")
    word = find_word(args.word)
    from ..engine.wake.detector import check_threshold

    check_threshold(args.threshold)
    if word.heard_in_transcript and args.threshold is not None:
        raise WakeWordError(f"{word.phrase!r} is found in the transcript: it has no threshold")
    readable = readable_audio(args.files)  # a bad file is said before any model loads
    failures = len(args.files) - len(readable)
    find = _in_transcripts if word.heard_in_transcript else _by_model
    for path in readable:
        try:
            audio = load_audio(path)
        except ParleyError as exc:
            print(f"parley: {exc}", file=sys.stderr)
            failures += 1
            continue
        if len(args.files) > 1:
            print(f"# {path}")
        for seconds, score in find(word, audio, args.threshold):
            print(f"{seconds:.2f} {word.id} {score:.3f}", flush=True)
    return EXIT_FAILED if failures else 0


def _by_model(word: WakeWord, audio: np.ndarray, threshold: float | None) -> Iterator[tuple[float, float]]:
    from ..engine.wake.detector import WakeDetector

    detector = WakeDetector(word, threshold)
    try:
        for start in range(0, len(audio), BLOCK):
            for found in detector.push(audio[start : start + BLOCK]):
                yield found.seconds, found.score
    finally:
        detector.close()


def _in_transcripts(_word: WakeWord, audio: np.ndarray, _threshold: float | None) -> Iterator[tuple[float, float]]:
    """Each utterance (hands-free's segmenter, with its speech detector and fixed pause) that
    begins with "Parley", in its transcript or in its first word said apart and transcribed alone
    (``wake.name_apart``); the time is about where the utterance begins (its pre-roll in)."""
    from ..engine.audio.vad import MARGIN_SECONDS, UtteranceSegmenter
    from ..engine.modelfiles.defaults import speech_model_path
    from ..engine.speech import SpeechModel, transcribe_speech
    from ..engine.wake.name_apart import question_by_name
    from ..engine.wake.phrase import transcript_prompt

    prompt = transcript_prompt()  # as the app's: whisper then writes the name right
    segmenter = UtteranceSegmenter(_speech_detector(), end_silence_seconds=END_SILENCE_S)
    quiet_after = END_SILENCE_S - MARGIN_SECONDS  # heard after the utterance before it ended
    with SpeechModel(speech_model_path("default")) as model:

        def transcribed(audio: np.ndarray) -> str:
            spoken = transcribe_speech(model, audio, initial_prompt=prompt)
            return "" if spoken is None else spoken.text

        pushed = 0
        for start in range(0, len(audio) + BLOCK, BLOCK):
            block = audio[start : start + BLOCK]
            pushed += len(block)
            ended = segmenter.push(block) if len(block) else [u for u in [segmenter.flush()] if u is not None]
            for utterance in ended:
                if question_by_name(transcribed, utterance) is not None:
                    yield max(0.0, (pushed - len(utterance)) / SAMPLE_RATE - quiet_after), 1.0


def _speech_detector() -> Any:
    """Silero's neural detector, as hands-free uses by default; loudness where it cannot load."""
    from ..engine.audio.vad import EnergyDetector

    try:
        from ..engine.audio.silero import NeuralDetector, SileroVAD

        return NeuralDetector(SileroVAD.default())
    except ParleyError as exc:
        print(f"parley: the neural speech detector could not load ({exc}); listening by loudness", file=sys.stderr)
        return EnergyDetector()
