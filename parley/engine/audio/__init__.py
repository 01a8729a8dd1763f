"""Audio: files in, microphone capture, the log-mel spectrogram, voice activity and utterances.

Imports the engine's ground modules (errors, formats); the neural voice detector (``silero``)
also backend/, modelfiles/ and handles/ (whisper.cpp's VAD context)."""
