"""Widgets and windows; no engine calls and no background work here.

What a widget needs done (a look for models, a server check) it asks of a callable or an object
the app hands it, and the answer comes back on the UI thread.  Checked by
``tests/test_layout.py``: of the app, ``ui`` imports only itself, ``signals``, ``qt_app``,
``config`` and the conversation model it shows; of the engine only plain records, constants and
the wording of sizes, times and server addresses (nothing that runs); no thread, no ctypes or cffi.
"""
