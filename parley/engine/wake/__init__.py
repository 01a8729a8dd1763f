"""Waking on a word: hands-free takes only what begins with it.

- ``words``: the words Parley knows, each heard by a microWakeWord model (pymicro-wakeword's,
  Apache-2.0, pinned by hash) or, for "Parley" itself, found at the start of the transcript;
- ``detector``: a model word heard in a 16 kHz stream, each detection with its time and score;
- ``phrase``: the wake phrase found at the start of a transcript, and the question after it.

Imports only the ground modules.
"""
