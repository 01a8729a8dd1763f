"""Dictation text: what Dictate and ``parley transcribe --clean`` do to a transcript before it is
typed, the same steps in both.

- ``options``: ``DictationOptions`` (from the settings, per-application modes) and the bounds
  on what a user may store (vocabulary, rules, prompt);
- ``vocabulary``: whisper's initial prompt made from the user's words, and the near-miss
  correction after transcription (only ever into a word of the list);
- ``fillers``: hesitation sounds per language and immediate repetitions;
- ``replacements``: the user's rules and their check (``check_rules``);
- ``punctuation``: spoken punctuation ("comma", "new line") in English;
- ``added_words``: the check that refuses a clean-up which adds words of its own;
- ``pipeline``: ``process``, the steps in order, timed, and ``DictationResult``;
- ``cleanup``: ``Cleaner``, the clean-up by the loaded chat model under a hard deadline;
- ``words``: the transcript as words with their punctuation, which the steps edit.

Imports the engine's ground modules, ``chat`` (the model the clean-up runs on) and
``backend.cancel``; never Qt, never the settings module (``from_settings`` reads any object
with the fields)."""
