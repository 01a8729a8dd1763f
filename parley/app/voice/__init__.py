"""Voice in and out: push-to-talk, hands-free, transcription jobs, microphones, reading aloud.

Imports the engine, ``config``, and of the app only the shared pieces: ``tasks``, ``signals``,
``take_purpose``, ``status``, ``engine_slots``, ``engines`` and the desktop's ``shortcuts``;
never a window (not even through another module), a flow or the controller
(``tests/test_layout.py``).
"""
