"""Audio: files in, microphone capture, the log-mel spectrogram, voice activity, utterances and
their end (``turn_end``: Smart Turn on ONNX Runtime).

Imports the engine's ground modules (errors, formats); the neural voice detector (``silero``)
also backend/, modelfiles/ and handles/ (whisper.cpp's VAD context)."""
