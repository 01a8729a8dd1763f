"""Conversations: the model of messages and replies, the SQLite store, the book of conversations;
and the dictation history (its own SQLite file beside the conversations', with the same crash
safety: ``database``), what the app keeps of it (``dictation_log``).

Of the engine only its ground modules (errors, formats, untrusted): a reply runs through an
engine slot (``app/engine_slots``).  Of the app only the shared pieces: ``tasks``, ``signals``,
``take_purpose``, ``status``, ``engine_slots``; never a window (not even through another module),
a flow or the controller (``tests/test_layout.py``).  The views follow these.
"""
