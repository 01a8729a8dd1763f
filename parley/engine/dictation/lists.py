"""A vocabulary or a set of replacement rules read from a text file (``parley transcribe
--vocabulary FILE --rules FILE``, an import in Settings).

The files are the user's but read as untrusted all the same: a regular file of at most
``MAX_LIST_BYTES``, UTF-8.  One entry a line; blank lines and lines starting with "#" are
skipped.  A rule is ``spoken => written``; "\\n" in the written text is a line break.  What the
lists hold is bounded where it is used (``options.DictationOptions.bounded``), not here.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import UntrustedFileError
from ..untrusted import read_bytes

MAX_LIST_BYTES = 1 << 20
RULE_ARROW = "=>"


def _lines(path: str | Path) -> list[str]:
    data = read_bytes(path, MAX_LIST_BYTES)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UntrustedFileError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def read_vocabulary(path: str | Path) -> list[str]:
    return _lines(path)


def read_rules(path: str | Path) -> list[list[str]]:
    rules = []
    for number, line in enumerate(_lines(path), 1):
        spoken, arrow, written = line.partition(RULE_ARROW)
        if not arrow:
            raise UntrustedFileError(
                f"{path}: rule {number} has no '{RULE_ARROW}' (write: spoken words {RULE_ARROW} text)"
            )
        rules.append([spoken.strip(), written.strip().replace("\\n", "\n")])
    return rules
