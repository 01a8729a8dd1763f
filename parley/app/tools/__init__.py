"""The tools a reply may call, as the app runs them (``engine.tools``): the built-in ones, the
clipboard (read on the UI thread, ``clipboard``), the MCP servers of ``mcp.json`` on the hub's
own thread, and the timers and reminders, which ring while Parley runs, the window closed to
the tray included (``room``).

Imports the engine, ``config``, and of the app only the shared pieces: ``tasks``, ``signals``,
``status``; never a window (not even through another module), a flow or the controller
(``tests/test_layout.py``).
"""
