"""Speaking: text-to-speech voices, text cut into sentences as a reply streams, and the speaker
that synthesizes them one after another and plays them.

Imports the engine's ground modules and ``audio`` (playback); never Qt.
"""
