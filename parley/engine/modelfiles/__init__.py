"""Model files: GGUF and whisper.cpp checks before native code sees a file, the converters
(CTranslate2 Whisper and legacy GPT-2 to the formats the engines load), the default models.

Imports the engine's ground modules, ``audio`` (mel filters for the converter) and ``backend``
(cancel); never the engines above it (``chat``, ``speech``, ``library``)."""
