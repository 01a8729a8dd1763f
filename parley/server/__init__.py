"""An OpenAI-compatible HTTP server on Parley's engines (``parley serve``; the app embeds it).

Qt-free.  Imports ``parley.engine`` and the HTTP stack (Starlette on uvicorn); nothing in
``parley.app``.  ``start_server`` takes models that are already loaded, so the app can serve
the ones it holds without a second copy, and returns a handle with the address, whether a
request is running, and ``stop()``.

Modules: ``runner`` (start and stop, the threads), ``app`` (the routes), ``guard`` (host, key,
size and activity checks before any route), ``chat_api`` and ``chat_request`` (chat
completions), ``audio_api`` (transcriptions), ``voice_api`` (Parley's voice, on OpenAI's
``/v1/audio/speech`` route), ``model_worker`` (one request at a time on a model), ``api_errors``
(the API's error shape), ``limits`` (every bound on what a client may send), ``replies`` (one
reply on the batch engine, for every generating route), ``completions_api`` (legacy text
completions, fill-in-the-middle), ``embeddings_api`` and ``embedder_slot`` (embeddings),
``ollama_api`` (Ollama's API on the same port).
"""

from __future__ import annotations

from .runner import ServerHandle, ServerOptions, start_server

__all__ = ["ServerHandle", "ServerOptions", "start_server"]
