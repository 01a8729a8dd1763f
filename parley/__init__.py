"""Parley: a local, private voice and chat assistant (whisper.cpp + llama.cpp on one ggml)."""

__version__ = "0.1.0"
