"""The native handles: one class per llama.cpp or whisper.cpp object, each owning exactly one
handle and freeing it once (llama model, context, batch, sampler chain and CPU threadpool;
whisper context and state; the voice activity context).

The engines (``chat``, ``speech``, ``audio.silero``) compose these; a llama.cpp or whisper.cpp
upgrade changes this folder, not them.  ``owner`` holds the one implementation of close,
``with`` and ``__del__`` that every owner and engine uses.

Imports backend/ (the cffi loader, devices, cancel), modelfiles/ (the checked-file records the
loaders take) and the ground modules."""
