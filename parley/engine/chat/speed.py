"""How fast a chat model runs on this machine, measured the way a voice turn uses it.

A spoken turn has two costs a person hears: the time from the end of their question to the
reply's first token, and the pace of the tokens after it (the voice must not catch up with the
text).  By the time the user stops speaking Parley has already read the conversation so far
(``ChatSession.prefill``), so the first token costs only the question's own tokens and one
step.  ``measure_speed`` reproduces exactly that on a short, fixed conversation:

1. the conversation's prefix (system prompt and two turns) is read from scratch: prompt speed;
2. a warm-up reply of a few tokens (a first decode pays one-off costs: graph allocation, and
   on a GPU kernel compilation);
3. a spoken-length question is asked with that prefix read: the time to its first token, and
   the generation speed over ``GEN_TOKENS`` greedy tokens.

It takes a few seconds per model (about 10 s for a 1.5B model on 2 cores).
``predict_speed`` scales a measurement to a model of another size on the same machine: token
generation is bound by memory bandwidth and prompt reading by arithmetic, both roughly in
proportion to the weights' bytes, which is good enough to say "about 12 tokens/s here".
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from ..backend.cancel import CancelToken
from ..errors import Cancelled
from .model import ChatModel, ChatSession, Message, SamplingParams

GEN_TOKENS = 32
WARMUP_TOKENS = 4
MEASURE_CTX = 1024

# A short conversation that a voice assistant really has; the question comes last.
_SYSTEM = "You are Parley, a voice assistant. Answer in one or two short spoken sentences."
_HISTORY = (
    Message("user", "What's the weather usually like in Lisbon in April?"),
    Message("assistant", "Mild and fairly sunny, around eighteen degrees, with the odd shower."),
    Message("user", "And how long is the flight there from London?"),
    Message("assistant", "About two hours and forty minutes."),
)
_QUESTION = "Give me three things to see there in one afternoon."
_WARMUP = "Thanks."


@dataclasses.dataclass(frozen=True)
class ModelSpeed:
    path: str
    file_size: int  # bytes of the model file
    device: str  # the device it ran on, e.g. "CPU"
    threads: int
    prompt_tps: float  # prompt tokens per second, read from scratch
    gen_tps: float  # generated tokens per second, greedy
    turn_first_token_s: float  # a question's first token, the conversation's prefix already read
    prefix_tokens: int  # how long that prefix was
    question_tokens: int  # tokens read for the question itself


def measure_speed(
    path: str | Path,
    *,
    device: str = "auto",
    threads: int | None = None,
    cancel: CancelToken | None = None,
) -> ModelSpeed:
    """Load ``path`` and time one voice-like turn on it (see the module docstring).
    ``cancel`` stops it between steps and inside llama.cpp's work (``Cancelled``)."""
    cancel = cancel or CancelToken()
    path = Path(path)
    with ChatModel(path, device=device, n_ctx=MEASURE_CTX, threads=threads) as model:
        session = ChatSession(model, _SYSTEM, list(_HISTORY))
        started = time.perf_counter()
        prefix_tokens = session.prefill(cancel)
        prompt_seconds = time.perf_counter() - started
        _check(cancel)
        session.reply(_WARMUP, SamplingParams(temperature=0, max_tokens=WARMUP_TOKENS), cancel=cancel)
        _check(cancel)
        # Back to the measured conversation: the warm-up turn goes, its prefix is read again.
        session.reset(_SYSTEM, list(_HISTORY))
        session.prefill(cancel)
        _check(cancel)
        reply = session.reply(_QUESTION, SamplingParams(temperature=0, max_tokens=GEN_TOKENS), cancel=cancel)
        _check(cancel)
        stats = reply.stats
        return ModelSpeed(
            path=str(path),
            file_size=path.stat().st_size,
            device=model.device.device.name,
            threads=model.threads,
            prompt_tps=prefix_tokens / prompt_seconds if prompt_seconds > 0 and prefix_tokens else 0.0,
            gen_tps=stats.gen_tps,
            turn_first_token_s=stats.time_to_first_token,
            prefix_tokens=prefix_tokens,
            question_tokens=stats.prompt_tokens,
        )


def _check(cancel: CancelToken) -> None:
    if cancel.cancelled:
        raise Cancelled("measuring the chat model was cancelled")


def predict_speed(measured: ModelSpeed, weights_bytes: int) -> tuple[float, float]:
    """(prompt tokens/s, generated tokens/s) expected for a model of ``weights_bytes`` on the
    machine and device of ``measured``: both scaled by the ratio of the weights' sizes."""
    if weights_bytes <= 0 or measured.file_size <= 0:
        return 0.0, 0.0
    ratio = measured.file_size / weights_bytes
    return measured.prompt_tps * ratio, measured.gen_tps * ratio
