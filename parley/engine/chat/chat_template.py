"""A model's own chat template (the GGUF's ``tokenizer.chat_template``, Jinja) rendered safely.

llama.cpp's ``llama_chat_apply_template`` runs no Jinja: it recognises the common templates by
their markers and writes plain conversations only, so tools and tool results, which each model
family lays out its own way, need the template itself, as Hugging Face's ``apply_chat_template``
renders it.  A template comes inside a model file from the internet: it is untrusted input (a
template that reaches Python's objects through ``__class__`` has been a remote-code CVE in GGUF
runners).  It runs here in jinja2's ``ImmutableSandboxedEnvironment`` (no attribute starting with
``_``, no method that changes a list or a dict, ``range`` capped), and within bounds of its own:

- **time:** every call, attribute or item lookup, filter and arithmetic operation checks a
  deadline (``MAX_SECONDS``), so loops that never end or nest without end are stopped;
- **size:** the output (``MAX_OUTPUT_CHARS``), and any string or list an operation would build
  past that size, are refused before they are built (``"x" * 10**9``, ``"%9999999999d"``);
- **errors:** whatever goes wrong is a PromptFormatError; a template's own ``raise_exception``
  (a conversation it does not accept) is a TemplateRefusedError, which names its reason.

The globals are those Hugging Face gives templates: ``raise_exception``, ``strftime_now``,
``bos_token``, ``eos_token``, ``add_generation_prompt``, ``messages``, ``tools``; the ``tojson``
filter writes JSON as ``transformers`` does (non-ASCII kept, optional ``indent``).
"""

from __future__ import annotations

import datetime
import functools
import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment

from ..errors import PromptFormatError, TemplateRefusedError

MAX_TEMPLATE_CHARS = 256 * 1024
MAX_OUTPUT_CHARS = 1 << 20  # characters a render may produce (far more than a context holds)
MAX_SECONDS = 2.0  # one render's time


class _Bound(Exception):
    """A render passed a bound (caught in this module)."""


class _Refused(Exception):
    """The template called raise_exception (caught in this module)."""


class _Limits(threading.local):
    deadline = 0.0


_limits = _Limits()


def _check_time() -> None:
    if time.monotonic() > _limits.deadline:
        raise _Bound(f"the chat template ran longer than {MAX_SECONDS:g} s")


def _check_size(value: object) -> object:
    if isinstance(value, (str, bytes, list, tuple)) and len(value) > MAX_OUTPUT_CHARS:
        raise _Bound("the chat template built a value larger than the output bound")
    return value


def _size_of(value: object) -> int:
    return len(value) if isinstance(value, (str, bytes, list, tuple)) else 1


class _BoundedEnvironment(ImmutableSandboxedEnvironment):
    intercepted_binops = frozenset({"*", "**", "+", "%", "//"})

    def call(self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        _check_time()
        return _check_size(super().call(__context, __obj, *args, **kwargs))

    def getattr(self, obj: Any, attribute: str) -> Any:
        _check_time()
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        _check_time()
        return super().getitem(obj, argument)

    def call_binop(self, context: Any, operator_: str, left: Any, right: Any) -> Any:
        _check_time()
        if operator_ == "*":
            count = right if isinstance(right, int) else left if isinstance(left, int) else 1
            other = left if isinstance(right, int) else right
            if isinstance(count, int) and count * _size_of(other) > MAX_OUTPUT_CHARS:
                raise _Bound("the chat template repeats a value past the output bound")
        elif operator_ == "**":
            if isinstance(right, (int, float)) and abs(right) > 64:
                raise _Bound("the chat template raises a number to a power above 64")
        elif operator_ == "+" and _size_of(left) + _size_of(right) > MAX_OUTPUT_CHARS:
            raise _Bound("the chat template joins values past the output bound")
        elif operator_ == "%" and isinstance(left, str) and any(c.isdigit() for c in left):
            widths = [int(w) for w in "".join(c if c.isdigit() else " " for c in left).split()]
            if widths and max(widths) > MAX_OUTPUT_CHARS:
                raise _Bound("the chat template formats a value wider than the output bound")
        return _check_size(super().call_binop(context, operator_, left, right))


def _raise_exception(message: object = "") -> None:
    raise _Refused(str(message))


def _strftime_now(fmt: str) -> str:
    return datetime.datetime.now().strftime(str(fmt)[:64])


def _tojson(value: Any, indent: int | None = None, ensure_ascii: bool = False, sort_keys: bool = False) -> str:
    if indent is not None and not 0 <= int(indent) <= 16:
        raise _Bound("tojson's indent must be 0 to 16")
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, sort_keys=sort_keys)


def _bounded_filter(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """A filter that checks the deadline, refuses widths past the output bound (``center``,
    ``indent``, ``wordwrap``, ``truncate``...) and results past it."""

    @functools.wraps(function)
    def bounded(*args: Any, **kwargs: Any) -> Any:
        _check_time()
        for value in (*args[1:], *kwargs.values()):
            if isinstance(value, int) and not isinstance(value, bool) and value > MAX_OUTPUT_CHARS:
                raise _Bound(f"the chat template's '{name}' filter was given {value}")
        return _check_size(function(*args, **kwargs))

    return bounded  # functools.wraps keeps jinja2's pass_context / pass_environment marker


def _environment() -> jinja2.Environment:
    env = _BoundedEnvironment(
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
        keep_trailing_newline=False,
        extensions=["jinja2.ext.loopcontrols"],
    )
    env.filters["tojson"] = _tojson
    for name, function in list(env.filters.items()):
        env.filters[name] = _bounded_filter(name, function)
    env.globals["raise_exception"] = _raise_exception
    env.globals["strftime_now"] = _strftime_now
    return env


class ChatTemplate:
    """A chat template compiled once; ``render`` it for each conversation (any thread)."""

    def __init__(self, source: str, bos_token: str = "", eos_token: str = "") -> None:
        """PromptFormatError when the template does not compile or is too long."""
        if len(source) > MAX_TEMPLATE_CHARS:
            raise PromptFormatError(f"the chat template is longer than {MAX_TEMPLATE_CHARS} characters")
        self.source = source
        self._bos, self._eos = bos_token, eos_token
        try:
            self._template = _environment().from_string(source)
        except (jinja2.TemplateError, RecursionError, ValueError) as exc:
            raise PromptFormatError(f"the chat template does not compile: {str(exc)[:200]}") from None

    @property
    def handles_tools(self) -> bool:
        """Whether the template lays out tools itself (it reads a ``tools`` variable)."""
        return "tools" in self.source

    def render(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None) -> str:
        """The prompt text, ending where the assistant's reply begins.  TemplateRefusedError when
        the template refuses the conversation; PromptFormatError when it fails or passes a bound."""
        variables = {
            "messages": messages,
            "tools": tools,
            "add_generation_prompt": True,
            "bos_token": self._bos,
            "eos_token": self._eos,
        }
        _limits.deadline = time.monotonic() + MAX_SECONDS
        pieces: list[str] = []
        size = 0
        try:
            for piece in self._pieces(variables):
                size += len(piece)
                if size > MAX_OUTPUT_CHARS:
                    raise _Bound(f"the chat template wrote more than {MAX_OUTPUT_CHARS} characters")
                _check_time()
                pieces.append(piece)
        except _Refused as exc:
            raise TemplateRefusedError(f"the model's chat template refuses this conversation: {exc}") from None
        except _Bound as exc:
            raise PromptFormatError(str(exc)) from None
        except (jinja2.TemplateError, RecursionError, MemoryError, ArithmeticError, TypeError, ValueError) as exc:
            raise PromptFormatError(f"the chat template failed: {type(exc).__name__}: {str(exc)[:200]}") from None
        return "".join(pieces)

    def _pieces(self, variables: dict[str, Any]) -> Iterator[str]:
        yield from self._template.generate(**variables)
