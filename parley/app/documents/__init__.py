"""The user's document collections in the app (``engine.documents``): indexed on a worker of
their own, the collections each conversation answers from, and the search a reply makes on the
chat thread (``room``).

Imports the engine, ``config``, and of the app only the shared pieces: ``tasks``, ``signals``,
``status``, ``engine_notes``; never a window, a flow or the controller (``tests/test_layout.py``).
"""
