"""Parley on the desktop beyond its own window: one instance per conversation database
(``single_instance``, ``instance_socket``), the tray and start at login (``tray``,
``autostart``), system-wide shortcuts (``shortcuts/``), typing into other apps
(``typing/``, with its modes per application) and which application has the focus where the
desktop says so (``focused_app``, X11); ``keysyms`` (key names and X keysyms) and ``portal`` (the desktop portal's D-Bus
conversations) are what both share.

Never reaches a widget (``app/ui``), not even through another module (``tests/test_layout.py``):
it says what happened through signals and callables, and the controller shows it.  Of the app
it imports only ``signals``, ``take_purpose`` and ``qt_app``; of the engine only its ground
modules (errors, atomic writes, untrusted reads).
"""
