"""The user's speech: the microphones, push-to-talk, hands-free listening, the shortcuts that
start a take from anywhere, transcription jobs, and telling Parley's own voice heard back
(``echo_words``) from the user's words.

Imports the engine, ``config``, and of the app only the shared pieces: ``tasks``, ``signals``,
``take_purpose``, ``status``, ``engine_slots``, ``engines`` and the desktop's ``shortcuts``;
never a window (not even through another module), a flow or the controller
(``tests/test_layout.py``).
"""
