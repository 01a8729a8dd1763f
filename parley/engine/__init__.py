"""Qt-free engines: native bindings, devices, speech, chat, audio and model management.

Nothing in this package imports Qt, so it works from scripts and the command line.
"""
