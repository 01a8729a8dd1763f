"""Constants of the formats Parley reads, in one place: model file magic numbers, the audio
rate whisper takes and the roles of chat messages.  Imported by the validators, the converters
and the app (it imports nothing, so the app can use it without loading the engines)."""

from __future__ import annotations

GGUF_MAGIC = b"GGUF"
"""llama.cpp's GGUF model files (``u32`` 0x46554747, little-endian)."""

GGML_MAGIC = b"lmgg"
"""Legacy ggml files: whisper.cpp models and ggml's GPT-2 example (``u32`` 0x67676d6c)."""

GGML_MAGIC_U32 = int.from_bytes(GGML_MAGIC, "little")

GGMF_MAGIC = b"fmgg"
"""Legacy llama.cpp GGMF files (before GGJT and GGUF)."""

GGJT_MAGIC = b"tjgg"
"""Legacy llama.cpp GGJT files (before GGUF)."""

SAMPLE_RATE = 16000
"""The rate whisper.cpp takes audio at (mono float32)."""

ROLES = ("system", "user", "assistant")
"""The roles of chat messages, in prompts and in stored conversations."""
