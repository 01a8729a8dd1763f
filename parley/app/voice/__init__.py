"""Parley's voice: reading replies aloud (``read_aloud``: the natural voice or the system's
speech synthesis) and the spoken replies as they stream (``spoken_replies``).

Imports the engine, ``config``, and of the app only the shared pieces: ``tasks``, ``signals``,
``status``, ``engines``, and the user's ``speech`` (what the speakers play goes to hands-free's
echo canceller); never a window (not even through another module), a flow or the controller
(``tests/test_layout.py``).
"""
