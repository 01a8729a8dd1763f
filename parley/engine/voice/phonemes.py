"""Text to phonemes with the espeak-ng program, the phonemizer Piper voices were trained with.

espeak-ng is GPL-3.0: Parley runs it as a separate program (Debian: the espeak-ng package),
never links or ships it, so the installers stay free of GPL code; a machine without it has no
natural voice and falls back to the system voice.

``phonemize`` returns one IPA string per clause, each ended by its punctuation (the program
drops it, Piper's voices were trained with it: a comma between clauses, the sentence's own
mark at the end), as Piper's own phonemizer gives them.
"""

from __future__ import annotations

import shutil
import subprocess
import unicodedata

from ..errors import VoiceError

ESPEAK = "espeak-ng"
MAX_TEXT_CHARS = 2000  # one sentence; longer text is cut at word boundaries by the caller
TIMEOUT_SECONDS = 10.0
_ENDINGS = ".!?,;:"


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
    try:
        done = subprocess.run(
            [ESPEAK, "-q", "--ipa", "-v", language, "--stdin"],
            input=text,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        raise VoiceError(f"espeak-ng failed: {e}") from e
    if done.returncode != 0:
        raise VoiceError(f"espeak-ng failed (exit {done.returncode}): {done.stderr.strip()[:200]}")
    clauses = [unicodedata.normalize("NFD", line.strip()) for line in done.stdout.splitlines() if line.strip()]
    if not clauses:
        return []
    final = text.rstrip("\"')]")[-1:]
    final = final if final in _ENDINGS else "."
    return [clause + ("," if i < len(clauses) - 1 else final) for i, clause in enumerate(clauses)]
