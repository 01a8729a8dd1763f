"""Text to phonemes with the espeak-ng program, the phonemizer Piper voices were trained with.

espeak-ng is GPL-3.0: Parley runs it as a separate program (Debian: the espeak-ng package),
never links or ships it, so the installers stay free of GPL code; a machine without it has no
natural voice and falls back to the system voice.

``phonemize`` returns one IPA string per clause, each ended by its punctuation (the program
drops it, Piper's voices were trained with it: a comma between clauses, the sentence's own
mark at the end), as Piper's own phonemizer gives them.

A program per text, but started ahead (``start_spare``): espeak-ng spends most of its time
starting (loading its dictionary: about 10 ms on a quiet machine, 50 ms on busy cores, against
1 ms for a phrase), and that time stood before a reply's first sound.  So a spare process is
started before it is needed (the voice starts one when it loads and after each text it
speaks), and waits for its text on its input; ``phonemize`` hands the text to it.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
import unicodedata

from ..errors import VoiceError

ESPEAK = "espeak-ng"
MAX_TEXT_CHARS = 2000  # one sentence; longer text is cut at word boundaries by the caller
TIMEOUT_SECONDS = 10.0
_ENDINGS = ".!?,;:"

_spare_lock = threading.Lock()
_spares: dict[str, subprocess.Popen[str]] = {}  # language -> an espeak-ng waiting for its text


def espeak_missing() -> str | None:
    """None when the espeak-ng program is installed, else what to install."""
    if shutil.which(ESPEAK) is None:
        return "The natural voice needs the espeak-ng program (Debian/Ubuntu: sudo apt install espeak-ng)"
    return None


def clean_text(text: str) -> str:
    """``text`` with control characters replaced by spaces (espeak-ng reads some as commands)."""
    return "".join(" " if unicodedata.category(c)[0] == "C" else c for c in text).strip()


def phonemize(text: str, language: str = "en-us") -> list[str]:
    """The IPA phonemes of ``text`` (one sentence), one string per clause; [] when it has none."""
    text = clean_text(text)[:MAX_TEXT_CHARS]
    if not text:
        return []
    if not language.replace("-", "").isalnum():
        raise VoiceError(f"Not an espeak-ng voice name: {language!r}")
    missing = espeak_missing()
    if missing:
        raise VoiceError(missing)
    with _spare_lock:
        process = _spares.pop(language, None)
    try:
        if process is None or process.poll() is not None:
            process = _start(language)
        stdout, stderr = process.communicate(text, timeout=TIMEOUT_SECONDS)
    except (OSError, subprocess.TimeoutExpired) as e:
        if process is not None:
            process.kill()
            process.wait()
        raise VoiceError(f"espeak-ng failed: {e}") from e
    if process.returncode != 0:
        raise VoiceError(f"espeak-ng failed (exit {process.returncode}): {stderr.strip()[:200]}")
    clauses = [unicodedata.normalize("NFD", line.strip()) for line in stdout.splitlines() if line.strip()]
    if not clauses:
        return []
    final = text.rstrip("\"')]")[-1:]
    final = final if final in _ENDINGS else "."
    return [clause + ("," if i < len(clauses) - 1 else final) for i, clause in enumerate(clauses)]


def start_spare(language: str = "en-us") -> None:
    """Start an espeak-ng for ``language`` that waits for its text, unless one already waits
    (see the module's docstring); a failure is left for ``phonemize`` to report."""
    if not language.replace("-", "").isalnum() or espeak_missing():
        return
    with _spare_lock:
        spare = _spares.get(language)
        if spare is not None and spare.poll() is None:
            return
        try:
            _spares[language] = _start(language)
        except OSError:
            _spares.pop(language, None)


def _start(language: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [ESPEAK, "-q", "--ipa", "-v", language, "--stdin"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        errors="replace",
    )
