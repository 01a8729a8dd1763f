"""Speaking: text-to-speech voices, text cut into sentences as a reply streams, and the speaker
that synthesizes them one after another and plays them.

Imports the engine's ground modules, ``audio`` (playback) and two of ``backend``: ``cpu_share``
(generation steps aside for the first words) and ``cpu_load`` (the voice's threads follow the
machine's load, as the models' do); never Qt.
"""
