"""Where Parley keeps its files, and the user's settings: Qt-free, shared by the app, the
``parley`` command and the engine.

- ``paths``: every folder Parley writes to (config, data, cache, converted models, the runtime
  folder), each with its environment override; it imports nothing of Parley's, and it is the
  only part of ``config`` the engine uses;
- ``settings``: the typed ``Settings``, read from the config folder as an untrusted file (with
  the engine's ground modules) and saved atomically.

Never imports Qt (``tests/test_layout.py`` checks both rules)."""
