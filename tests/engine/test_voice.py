"""The natural voice on real parts: its words are understood by the speech model, a reply is
spoken sentence by sentence while it streams, and a stop silences it.  (The echo canceller that
removes Parley's own voice from the microphone: tests/engine/test_echo.py.)"""

from __future__ import annotations

import re
import threading

import numpy as np
import pytest
import soxr

from parley.engine.backend import cpu_share
from parley.engine.formats import SAMPLE_RATE
from parley.engine.voice.sentences import SentenceSplitter, plain_text
from parley.engine.voice.speaker import Speaker
from parley.engine.voice.voices import load_voice, unavailable
from tests.support.requirements import require

SENTENCES = [
    "The weather is nice today.",
    "Please open the window in the kitchen.",
    "My brother lives in a small town near the sea.",
    "Parley runs on your own computer.",
    "We will meet at the station at seven.",
]


@pytest.fixture(scope="module")
def voice():
    require(unavailable() is None, f"the natural voice: {unavailable()}")
    return load_voice(threads=2)


def to16k(audio: np.ndarray, rate: int) -> np.ndarray:
    return soxr.resample(audio, rate, SAMPLE_RATE).astype(np.float32)


def test_the_splitter_cuts_a_streaming_reply_into_plain_sentences() -> None:
    text = "Sure, here is the **answer** to your question. Dr. Smith said 3.5 is fine!\n\n```py\nx = 1\n```\nDone"
    splitter = SentenceSplitter(first_clause_chars=0, first_words=0)  # whole sentences (`parley say`)
    out = [s for i in range(0, len(text), 4) for s in splitter.push(text[i : i + 4])] + splitter.flush()
    assert out == ["Sure, here is the answer to your question.", "Dr. Smith said 3.5 is fine!", "(code block)", "Done"]
    first = SentenceSplitter(first_clause_chars=10)
    assert first.push("Well, the long answer to that, as it happens, is ") == ["Well, the long answer to that,"]
    assert plain_text("# Title\n- [a link](http://x) and `code`") == "Title a link and code"


@pytest.mark.parametrize(
    ("reply", "pieces"),
    [
        # the first piece ends before a joining word once it has four words; the rest by sentence
        (
            "The moon appears to be about 384,400 kilometres away from Earth. It is far from us.",
            ["The moon appears to be", "about 384,400 kilometres away from Earth.", "It is far from us."],
        ),
        ("The answer is: 2583604179 days and more.", ["The answer is:", "2583604179 days and more."]),  # a clause
        (  # no joining word: eight words
            "Big red dogs chase small grey cats every single day.",
            ["Big red dogs chase small grey cats every", "single day."],
        ),
        (
            "Antidisestablishmentarianism notwithstanding extraordinary circumstances prevail.",
            ["Antidisestablishmentarianism notwithstanding", "extraordinary circumstances prevail."],
        ),
        ("I see. Yes.", ["I see.", "Yes."]),
    ],
)
def test_the_first_piece_of_a_streaming_reply_is_cut_early_for_a_quick_first_sound(reply, pieces) -> None:
    splitter = SentenceSplitter()
    out = [s for i in range(0, len(reply), 3) for s in splitter.push(reply[i : i + 3])] + splitter.flush()
    assert out == pieces


def test_the_natural_voice_is_understood(voice) -> None:
    from parley.engine.modelfiles.defaults import default_speech_model_path
    from parley.engine.speech import SpeechModel
    from parley.engine.textmetrics import corpus_word_error_rate

    clips = [to16k(voice.synthesize(s), voice.sample_rate) for s in SENTENCES]
    assert all(len(c) > 0.5 * SAMPLE_RATE for c in clips)
    with SpeechModel(default_speech_model_path(), device="cpu", threads=2) as model:
        heard = [model.transcribe(c).text for c in clips]
    wer = corpus_word_error_rate(list(zip(SENTENCES, heard, strict=True)))
    assert wer <= 0.2, list(zip(SENTENCES, heard, strict=True))


MARKDOWN_REPLY = (
    "Sure! 😀 Here are the **two** cities you asked about:\n\n"
    "| City | Country |\n|------|---------|\n| Paris | France 🇫🇷 |\n| Rome | Italy |\n\n"
    "- It is *twenty* degrees in Paris today ☀️.\n"
    "```python\nprint('never read aloud')\n```\n"
    "### Have a good trip 👍🏽!"
)


def test_a_reply_in_markdown_with_emoji_and_code_is_read_as_plain_words(voice) -> None:
    """What a model writes though the prompt asks for plain speech: the voice says the words,
    "code block" once, and none of the markup, the emoji or the code."""
    from parley.engine.modelfiles.defaults import default_speech_model_path
    from parley.engine.speech import SpeechModel

    splitter = SentenceSplitter(first_clause_chars=0, first_words=0)
    spoken = [s for i in range(0, len(MARKDOWN_REPLY), 5) for s in splitter.push(MARKDOWN_REPLY[i : i + 5])]
    spoken += splitter.flush()
    assert spoken == [
        "Sure!",
        "Here are the two cities you asked about:",
        "City Country Paris France Rome Italy",
        "It is twenty degrees in Paris today.",
        "(code block)",
        "Have a good trip!",
    ]
    clips = [to16k(voice.synthesize(s), voice.sample_rate) for s in spoken]
    with SpeechModel(default_speech_model_path(), device="cpu", threads=2) as model:
        heard = " ".join(model.transcribe(np.concatenate(clips)).text.lower().split())
    for words in ("two cities", "paris", "degrees in paris", "code blo", "good trip"):
        assert words in heard, heard  # "code blo": Whisper's base model has heard "block" as "blop"
    heard_words = set(re.findall(r"[a-z']+", heard))
    for noise in ("asterisk", "star", "hash", "pipe", "dash", "smiling", "face", "thumbs", "flag", "print", "never"):
        assert noise not in heard_words, heard


class _SlowVoice:
    """The real voice, with a gate before each sentence after the first."""

    def __init__(self, voice) -> None:
        self.voice = voice
        self.sample_rate = voice.sample_rate
        self.said: list[str] = []
        self.gate = threading.Event()

    def synthesize(self, text: str) -> np.ndarray:
        if self.said:
            self.gate.wait(30)
        self.said.append(text)
        return self.voice.synthesize(text)


def test_the_first_sentence_is_heard_before_the_reply_ends(voice, mic) -> None:
    """With the reply still streaming (no ``end``), the first sentence already plays."""
    slow = _SlowVoice(voice)
    played: list[np.ndarray] = []
    speaker = Speaker(lambda: slow, on_played=lambda block, _rate: played.append(block))
    try:
        speaker.begin()
        speaker.feed("Here is the first sentence. And here the second one is still")
        deadline = threading.Event()
        for _ in range(600):
            if any(np.abs(b).max() > 0.01 for b in played):
                break
            deadline.wait(0.05)
        assert slow.said == ["Here is the first sentence."]
        assert speaker.speaking and any(np.abs(b).max() > 0.01 for b in played)
        slow.gate.set()
        speaker.feed(" being written.")
        speaker.end()
        assert speaker.wait_until_quiet(60)
        assert slow.said == ["Here is the first sentence.", "And here the second one is still being written."]
    finally:
        speaker.close()


class _WatchedVoice:
    """The real voice, noting for each piece whether it was made as urgent work."""

    def __init__(self, voice) -> None:
        self.voice = voice
        self.sample_rate = voice.sample_rate
        self.urgent: list[tuple[str, bool]] = []

    def synthesize(self, text: str) -> np.ndarray:
        self.urgent.append((text, cpu_share.busy()))
        return self.voice.synthesize(text)


def test_the_first_words_are_made_as_urgent_work_and_the_rest_is_not(voice, mic) -> None:
    """Generation on the CPU steps aside for the piece that stands before the first sound, not
    for pieces made while plenty is still to be played."""
    watched = _WatchedVoice(voice)
    speaker = Speaker(lambda: watched)
    try:
        speaker.say("Here is a first sentence that takes a few seconds to say out loud. And a second one.")
        assert speaker.wait_until_quiet(60)
        assert watched.urgent == [
            ("Here is a first sentence that takes a few seconds to say out loud.", True),
            ("And a second one.", False),
        ]
    finally:
        speaker.close()


def test_stop_silences_the_speakers_at_once(voice, mic) -> None:
    played: list[np.ndarray] = []
    speaker = Speaker(lambda: voice, on_played=lambda block, _rate: played.append(block))
    try:
        speaker.say("This sentence is long enough to be interrupted well before it has been said in full.")
        for _ in range(600):
            if played:
                break
            threading.Event().wait(0.05)
        speaker.stop()
        after = len(played)
        threading.Event().wait(0.3)
        assert not speaker.speaking
        assert all(np.abs(b).max() == 0.0 for b in played[after + 1 :])  # at most the block being written
    finally:
        speaker.close()


def test_pause_silences_the_voice_and_keeps_what_is_left_to_say(voice, mic) -> None:  # mic: a PulseAudio server
    played: list[np.ndarray] = []
    text = "This sentence is long enough to be paused well before it has been said in full."
    made: list[int] = []  # the samples the voice made (VITS: the length differs from run to run)

    class Counted:
        sample_rate = voice.sample_rate

        def synthesize(self, sentence: str) -> np.ndarray:
            audio = voice.synthesize(sentence)
            made.append(len(audio))
            return audio

    speaker = Speaker(Counted, on_played=lambda block, _rate: played.append(block))
    try:
        speaker.say(text)
        for _ in range(600):
            if played:
                break
            threading.Event().wait(0.05)
        speaker.pause(True)
        paused_at = len(played)
        threading.Event().wait(0.5)
        assert speaker.speaking, "paused is still speaking"
        assert all(np.abs(b).max() == 0.0 for b in played[paused_at + 1 :]), "paused must be silent"
        speaker.pause(False)
        assert speaker.wait_until_quiet(30)
        sounding, expected = sum(len(b) for b in played if np.abs(b).max() > 0.0), sum(made)
        assert sounding >= 0.9 * expected, f"{sounding} of {expected} samples were played: the pause lost some"
    finally:
        speaker.close()


@pytest.mark.parametrize(
    ("heard", "echo"),
    [
        ("the keeper climbed the stairs", True),  # Parley's own words, as the microphone heard them
        ("The Keeper climbed the stairs every night.", True),
        ("How far away is the moon from the earth?", False),  # the user's
        ("Stop. What is the weather like tomorrow?", False),
        ("", True),  # nothing recognised
        ("all board.", True),  # "called Bora Bora" misheard through the canceller (a CI run took it for the user)
        ("They bought a small goat", True),  # "They brought a small boat"
        ("Wait, stop.", False),  # two words, neither alike the words said
        ("stop", False),  # one word that interrupts, and was not said ("step" was)
        ("win.", True),  # a lone word that is no command: echo misheard (a CI run at 0 dB)
        ("step", True),  # a lone word Parley said, and no command
        ("How far away is the boat from the island?", False),  # the user's, about what was said
    ],
)
def test_words_heard_over_parley_are_its_echo_only_if_they_are_a_run_of_what_it_said(heard, echo) -> None:
    from parley.app.speech.echo_words import is_echo

    said = (
        "Once upon a time, the keeper climbed the stairs every night to light the lamp for the ships. "
        "He lived on an island called Bora Bora. They brought a small boat, one step at a time."
    )
    assert is_echo(heard, said) is echo
