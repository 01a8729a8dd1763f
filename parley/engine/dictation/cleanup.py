"""The clean-up of a dictation by the loaded chat model, under a hard deadline.

``Cleaner(model).clean(text, options)`` asks the model, with the user's clean-up prompt as the
system prompt and "Dictated text: " and the take as the message, for the cleaned text (a bare
transcript as the message is taken as something said to the model, and answered); greedy, with no repeat
penalty (the transcript's own words are what it should repeat), and at most about twice the
transcript's tokens.  A timer cancels the generation at ``options.cleanup_timeout_s`` (the
same cancel flag that stops llama_decode between graph nodes), so the call returns within the
limit and a few milliseconds.  The answer is used only when it is there in time, not empty,
not cut short, adds no word of its own and keeps most of what was said (``added_words``);
otherwise the outcome says why.

It runs on the thread that owns the chat model's turn (in the app the chat engine's worker):
``ChatModel`` gives its context to one reply at a time, and a clean-up queued behind a long
chat reply waits for it.  It uses its own ``ChatSession``, so the conversation's messages are
untouched; the KV cache is shared, so the next chat turn evaluates its prompt again, and
``prepare`` (the system prompt evaluated ahead, while the user still speaks) makes the
clean-up's own prompt cached for the next take.
"""

from __future__ import annotations

import re
import threading

from ..backend.cancel import CancelToken
from ..chat.model import ChatModel, ChatSession, SamplingParams
from ..errors import ParleyError
from .added_words import added_words, dropped_words
from .options import DictationOptions
from .pipeline import CleanupOutcome

MESSAGE = "Dictated text: {}"
REPLY_ROOM = 32  # tokens beyond twice the transcript's: a clean-up is never much longer
MAX_REPLY_TOKENS = 1024
# The lead-in lines some models write before the text ("Here is the cleaned text:").
_LEAD_IN = re.compile(r"^\s*(here\b[^\n]*|cleaned[^\n]*|corrected[^\n]*|sure[^\n]*):[ \t]*\n+", re.IGNORECASE)
_QUOTES = ('"', "'", "“", "”", "`")


class Cleaner:
    def __init__(self, model: ChatModel) -> None:
        self.model = model

    def prepare(self, options: DictationOptions, cancel: CancelToken | None = None) -> None:
        """Evaluate the clean-up prompt into the model's cache now (at the key press), so the
        clean-up at release only reads the transcript.  Errors are left to ``clean``."""
        try:
            ChatSession(self.model, options.cleanup_prompt).prefill(cancel)
        except ParleyError:
            pass

    def clean(self, text: str, options: DictationOptions) -> CleanupOutcome:
        if self.model.closed:
            return CleanupOutcome("no_model", "", without("The chat model is closed"))
        cancel = CancelToken()
        timer = threading.Timer(options.cleanup_timeout_s, cancel.cancel)
        timer.daemon = True
        timer.start()
        try:
            room = min(MAX_REPLY_TOKENS, 2 * len(self.model.tokenize(text)) + REPLY_ROOM)
            # A take with no blank line in it ends at the answer's first: what small models write
            # after one is about the text ("The rewritten text is: ...").
            stop = [] if "\n\n" in text else ["\n\n"]
            params = SamplingParams(temperature=0.0, repeat_penalty=1.0, max_tokens=room, stop=stop)
            reply = ChatSession(self.model, options.cleanup_prompt).reply(MESSAGE.format(text), params, cancel=cancel)
        except ParleyError as exc:
            return CleanupOutcome("failed", "", without(f"The clean-up failed ({exc})"))
        finally:
            timer.cancel()
        if reply.finish == "cancelled":
            if self.model.closed:
                return CleanupOutcome("no_model", "", without("The chat model was closed during the clean-up"))
            limit = f"The clean-up took longer than {options.cleanup_timeout_s:g} s"
            return CleanupOutcome("timed_out", "", without(limit))
        return judge(text, reply.text, reply.finish, options)


def judge(text: str, answer: str, finish: str, options: DictationOptions) -> CleanupOutcome:
    """The outcome for the model's ``answer`` to the transcript ``text``."""
    cleaned = unwrapped(answer)
    if not cleaned:
        return CleanupOutcome("empty", "", without("The clean-up gave no text"))
    added = added_words(text, cleaned, options.vocabulary)
    if added:
        shown = ", ".join(repr(w) for w in added[:3]) + (" ..." if len(added) > 3 else "")
        return CleanupOutcome("added_words", "", without(f"The clean-up added words that were not said ({shown})"))
    dropped = dropped_words(text, cleaned)
    if dropped:
        shown = ", ".join(repr(w) for w in dropped[:3]) + (" ..." if len(dropped) > 3 else "")
        return CleanupOutcome("dropped_words", "", without(f"The clean-up left out words that were said ({shown})"))
    if finish in ("max_tokens", "context"):
        return CleanupOutcome("failed", "", without("The clean-up was cut short"))
    return CleanupOutcome("used", cleaned)


def without(reason: str) -> str:
    """The note for a clean-up that was not used."""
    return f"{reason}, so the text was typed without the clean-up."


def unwrapped(answer: str) -> str:
    """The model's answer without a lead-in line or quotes around the whole text."""
    text = _LEAD_IN.sub("", answer.strip(), count=1).strip()
    if len(text) >= 2 and text[0] in _QUOTES and text[-1] in _QUOTES:
        text = text.strip("".join(_QUOTES)).strip()
    return text
