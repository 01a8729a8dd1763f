"""``parley serve``: the local models behind an OpenAI-compatible HTTP API.

The server runs on its own threads (``parley.server``); this thread loads the models, prints
the address and waits for Ctrl-C or SIGTERM, then stops the server before closing the models.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from contextlib import ExitStack
from types import FrameType

from ..engine.backend.rpc import remote
from ..engine.chat.batch import DEFAULT_MAX_QUEUE, MAX_PARALLEL
from ..engine.chat.model import MIN_REPLY_ROOM
from .devices import add_rpc_option, rpc_endpoints


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve",
        help="serve the local models to other apps (OpenAI-compatible HTTP API)",
        epilog="Listens on 127.0.0.1 unless --host says otherwise; any other address requires --api-key.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1, this computer only)")
    p.add_argument("--port", type=int, default=8080, help="port (default: 8080; 0: any free port)")
    p.add_argument("--model", default="default", help="chat model: default (SmolLM2), a GGUF file, or none")
    p.add_argument(
        "--speech-model", default="default", help="speech model: default (Whisper tiny.en), base, a .bin file, or none"
    )
    p.add_argument(
        "--voice", default="default", help="voice for /v1/audio/speech: default (the read-aloud voice), joe, or none"
    )
    p.add_argument(
        "--embedding-model",
        default=None,
        metavar="NAME|GGUF",
        help="embedding model for /v1/embeddings: all-minilm-l6-v2 (`parley models install all-minilm-l6-v2`) "
        "or a GGUF with pooling (e.g. nomic-embed-text or bge; `parley models` lists those it finds as kind "
        "embedding); default: the chat model's own embeddings, weaker for search",
    )
    p.add_argument("--device", default="auto", help="auto, cpu, or a device name from `parley devices`")
    p.add_argument(
        "--threads",
        type=int,
        default=None,
        help="CPU threads, fixed (default: one per free physical core, up to 8, followed while it runs)",
    )
    p.add_argument("--ctx", type=int, default=4096, help="context length per request in tokens (default: 4096)")
    p.add_argument(
        "--parallel", type=int, default=4, help=f"chat requests decoded together (1-{MAX_PARALLEL}; default: 4)"
    )
    p.add_argument(
        "--queue", type=int, default=DEFAULT_MAX_QUEUE, help="chat requests that may wait; more get 503 (default: 32)"
    )
    p.add_argument("--api-key", default=None, help="require 'Authorization: Bearer KEY' (required off loopback)")
    p.add_argument(
        "--api-key-file", default=None, metavar="FILE", help="read the API key from FILE (keeps it out of `ps`)"
    )
    p.add_argument(
        "--cors-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="let web pages from ORIGIN (e.g. http://localhost:3000) call the API (repeatable; none by default)",
    )
    p.add_argument(
        "--ollama-port",
        type=int,
        nargs="?",
        const=11434,
        default=None,
        metavar="PORT",
        help="also listen on PORT (default 11434, Ollama's own) for apps that look for Ollama only there; "
        "Ollama's API is on --port in any case",
    )
    add_rpc_option(p)


def run(args: argparse.Namespace) -> int:
    from ..engine.chat.model import ChatModel
    from ..engine.errors import InvalidSettingError
    from ..engine.library.choice import chat_model_path
    from ..engine.modelfiles.defaults import speech_model_path
    from ..engine.speech import SpeechModel
    from ..server import ServerOptions, start_server
    from ..server.runner import check_address

    api_key = _api_key(args)
    check_address(args.host, api_key)  # before the models load
    if args.rpc:
        remote.connect(rpc_endpoints(args))
    if args.ctx < 2 * MIN_REPLY_ROOM:
        raise InvalidSettingError(f"the context length must be at least {2 * MIN_REPLY_ROOM} tokens, not {args.ctx}")
    options = ServerOptions(
        host=args.host,
        port=args.port,
        api_key=api_key,
        parallel=args.parallel,
        n_ctx=args.ctx,
        max_queue=args.queue,
        cors_origins=tuple(args.cors_origin),
        ollama_port=args.ollama_port,
    )
    with ExitStack() as models:
        chat = speech = None
        if args.model != "none":
            # The model's own context is never used for serving (the server opens its own,
            # with one sequence per --parallel), so it is made as small as allowed.
            chat = ChatModel(
                chat_model_path(args.model, device=args.device, threads=args.threads),
                device=args.device,
                n_ctx=2 * MIN_REPLY_ROOM,
                threads=args.threads,
            )
            models.callback(chat.close)
        if args.speech_model != "none":
            speech = SpeechModel(speech_model_path(args.speech_model), device=args.device, threads=args.threads)
            models.callback(speech.close)
        for model in (chat, speech):
            if model is not None and model.device.fallback_reason:
                print(f"parley: {model.device.fallback_reason}", file=sys.stderr)
        voice = None
        if args.voice != "none":
            from ..engine.voice.voices import DEFAULT_VOICE, load_voice

            voice = load_voice(DEFAULT_VOICE if args.voice == "default" else args.voice, threads=args.threads)
        embedding = None
        if args.embedding_model:
            from ..engine.chat.embeddings import Embedder
            from ..engine.library.embedding_models import embedding_model_path

            embedding = Embedder(embedding_model_path(args.embedding_model), device=args.device, threads=args.threads)
            models.callback(embedding.close)
        handle = start_server(chat, speech, options, voice=voice, embedding=embedding)
        try:
            served = ", ".join(f"{m.name} on {m.device.device.name}" for m in (chat, speech) if m is not None)
            if embedding is not None:
                served += f", {embedding.name} for embeddings"
            print(f"parley: serving {served} at {handle.address}/v1 (Ctrl-C stops)", file=sys.stderr, flush=True)
            if handle.ollama_address:
                print(f"parley: Ollama's API also at {handle.ollama_address}", file=sys.stderr, flush=True)
            _wait_for_stop()
        finally:
            handle.stop()
    return 0


def _api_key(args: argparse.Namespace) -> str | None:
    from ..engine.errors import InvalidSettingError

    if args.api_key_file:
        try:
            with open(args.api_key_file, encoding="utf-8") as f:
                key = f.read(4096).strip()
        except OSError as exc:
            raise InvalidSettingError(f"cannot read the API key file: {exc}") from None
        if not key:
            raise InvalidSettingError(f"the API key file {args.api_key_file} is empty")
        return key
    if args.api_key is not None and not args.api_key.strip():
        raise InvalidSettingError("the API key must not be empty")
    return args.api_key


def _wait_for_stop() -> None:
    """Until Ctrl-C (KeyboardInterrupt) or SIGTERM."""
    stop = threading.Event()

    def on_term(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_term)
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
