"""Audio: files in, microphone capture, the log-mel spectrogram, voice activity and utterances.

Imports only the engine's ground modules (errors, formats)."""
