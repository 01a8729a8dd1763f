"""The dictation text steps on transcripts as whisper writes them: fillers, repetitions, the
vocabulary (prompt and near-miss correction), replacement rules and their check, spoken
punctuation, the added-content check, and the bounds on what a user may store."""

from __future__ import annotations

import dataclasses
import json

import pytest

from parley.config.settings import Settings, load_settings, save_settings
from parley.engine.dictation import vocabulary
from parley.engine.dictation.added_words import added_words
from parley.engine.dictation.cleanup import judge, unwrapped
from parley.engine.dictation.options import MODES, DictationOptions, whisper_prompt
from parley.engine.dictation.pipeline import CleanupOutcome, process
from parley.engine.dictation.replacements import MAX_RULES, apply_rules, check_rules
from parley.engine.dictation.words import join, split

NAMES = ["Siobhan", "Nguyen", "Zyntrix", "Postgres", "Kubernetes", "GitHub", "Krzysztof", "Catherine"]
TEXT_ONLY = DictationOptions(spoken_punctuation=False, remove_fillers=False)


def typed(raw: str, options: DictationOptions | None = None, language: str = "en") -> str:
    return process(raw, options or DictationOptions(), language=language).text


@pytest.mark.parametrize(
    "text",
    ["Hello, world.", " A line.\nAnother one!", '"Quoted," she said (twice)...', "parley.com e-mail don't 3.5%", ""],
)
def test_words_join_back_to_the_text(text: str) -> None:
    assert join(split(text)) == text.strip()


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Um, so I think we should, uh, call her.", "So I think we should call her."),
        ("I think, uh, we are done", "I think we are done"),
        ("Right, um.", "Right."),
        ("Hmm. The posters are up.", "The posters are up."),
        ("Uh.", ""),
        (", I want to, I need to go.", "I want to, I need to go."),
        ("Yes. , so we go.", "Yes. So we go."),
        ("Erm, I I think it's fine.", "I think it's fine."),
        ("We are going to going to the the station.", "We are going to the station."),
        ("I know that that is true, very very true.", "I know that that is true, very very true."),
        ("Yes. Yes, it is.", "Yes. Yes, it is."),
        ("Summer, umbrella, hummus and errands.", "Summer, umbrella, hummus and errands."),
    ],
)
def test_fillers_and_repetitions_go_in_english(raw: str, expected: str) -> None:
    assert typed(raw) == expected


@pytest.mark.parametrize(
    ("raw", "language", "expected"),
    [
        ("Äh, er kommt um drei Uhr.", "de", "Er kommt um drei Uhr."),  # "er" and "um" are German words
        ("Euh, nous nous sommes vus hier.", "fr", "Nous nous sommes vus hier."),
        ("Eh, este libro es muy muy bueno.", "es", "Este libro es muy muy bueno."),
        ("Um, er, the meeting.", "auto", "Um, er, the meeting."),  # no language known: not "um" nor "er"
        ("Hmm, ähm, the meeting.", "auto", "The meeting."),
    ],
)
def test_fillers_are_per_language(raw: str, language: str, expected: str) -> None:
    assert typed(raw, DictationOptions(spoken_punctuation=False), language) == expected


def test_the_switch_turns_filler_removal_off() -> None:
    assert typed("Um, I I think so.", DictationOptions(remove_fillers=False)) == "Um, I I think so."


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Our new app is called Zintrix.", "Our new app is called Zyntrix."),
        ("Ask Niamh about the Kubernete's cluster.", "Ask Niamh about the Kubernetes cluster."),
        ("Tell the meeting with Kristoff as it noon.", "Tell the meeting with Krzysztof as it noon."),
        ("I pushed it to Github.", "I pushed it to GitHub."),
        ("Send it to Dr. Nuyen today.", "Send it to Dr. Nguyen today."),
        ("Nuyen said so.", "Nuyen said so."),  # a sentence's first word must be closer
        ("And then Katherine said so.", "And then Catherine said so."),
        ("We put up the posters in the kitchen.", "We put up the posters in the kitchen."),
        ("The source is open, the ceiling is high.", "The source is open, the ceiling is high."),
        ("I will mark this one.", "I will mark this one."),
        ("Visit Zyntrix.io or mail Zintrix@example.com now.", "Visit Zyntrix.io or mail Zintrix@example.com now."),
    ],
)
def test_near_misses_become_the_listed_word_and_nothing_else(raw: str, expected: str) -> None:
    options = dataclasses.replace(TEXT_ONLY, vocabulary=(*NAMES, "Mark"))
    assert typed(raw, options) == expected


def test_a_multi_word_name_is_matched_across_words() -> None:
    options = dataclasses.replace(TEXT_ONLY, vocabulary=("Nguyen Van Anh", "Postgres"))
    said = "I met with Nguyen van Ahn and, um, post gres."
    assert typed(said, options) == "I met with Nguyen Van Anh and, um, Postgres."


def test_the_threshold_decides_how_near_a_miss_is_corrected() -> None:
    strict = dataclasses.replace(TEXT_ONLY, vocabulary=("Zyntrix",), vocabulary_threshold=1.0)
    loose = dataclasses.replace(TEXT_ONLY, vocabulary=("Postgres",), vocabulary_threshold=0.7)
    assert typed("It is called Zintrix.", strict) == "It is called Zintrix."
    assert typed("We moved to Postkers.", loose) == "We moved to Postgres."
    default = dataclasses.replace(loose, vocabulary_threshold=0.8)
    assert typed("We moved to Postkers.", default) == "We moved to Postkers."


def test_correction_never_writes_a_word_that_is_not_on_the_list() -> None:
    options = dataclasses.replace(TEXT_ONLY, vocabulary=tuple(NAMES))
    sentences = [
        "The weather is nice today and the posters look great.",
        "Please send the report to the progress meeting at seven.",
        "We are sailing past the ceiling of the matrix in the office.",
        "Give the governess a few minutes, she is sorry.",
    ]
    for sentence in sentences:
        out = typed(sentence, options)
        new = set(out.split()) - set(sentence.split())
        assert new <= {w + p for w in NAMES for p in ("", ".", ",")}, (sentence, out)


def test_the_whisper_prompt_holds_the_list_within_whispers_prompt_size() -> None:
    assert whisper_prompt(DictationOptions()) is None
    assert whisper_prompt(DictationOptions(vocabulary=("Siobhan",))) == "I talked with Siobhan."
    two = DictationOptions(vocabulary=("Siobhan", "Nguyen", "Postgres"))
    assert whisper_prompt(two) == "I talked with Siobhan, Nguyen and Postgres."
    assert whisper_prompt(dataclasses.replace(two, language="de")) == "Siobhan, Nguyen, Postgres."
    many = DictationOptions.bounded(vocabulary=[f"Name{i:04d}" for i in range(10_000)])
    prompt = whisper_prompt(many)
    assert prompt is not None and len(prompt.encode()) <= vocabulary.PROMPT_MAX_BYTES == 223
    assert prompt.startswith("I talked with Name0000, Name0001,") and vocabulary.prompt_coverage(many.vocabulary) == 20
    long_first = ("A" * 220, "Siobhan")
    assert whisper_prompt(DictationOptions(vocabulary=long_first)) == "I talked with Siobhan."  # the next that fits
    wide = whisper_prompt(DictationOptions(vocabulary=("Zoë", "Ærøskøbing", "東京") * 40))
    assert wide is not None and len(wide.encode()) <= 223  # bytes, not characters, bound the tokens


def test_a_huge_vocabulary_is_bounded_and_told() -> None:
    options = DictationOptions.bounded(vocabulary=[f"Name{i}" for i in range(10_000)] + ["x" * 100_000])
    assert len(options.vocabulary) == vocabulary.MAX_ENTRIES
    assert options.warnings == (
        f"Only the first {vocabulary.MAX_ENTRIES} vocabulary entries are used; 9001 more were left out.",
    )
    long = DictationOptions.bounded(vocabulary=["Siobhan", "x" * 100_000, "a b c d e f"])
    assert long.vocabulary == ("Siobhan",)
    assert long.warnings == (
        "1 entry longer than 60 characters left out of the vocabulary.",
        "1 entry of more than 4 words left out of the vocabulary.",
    )
    late = DictationOptions.bounded(vocabulary=[f"Name{i}" for i in range(10_000)] + ["Zyntrix"])
    assert "Zyntrix" not in late.vocabulary and typed("It is Zintrix.", late) == "It is Zintrix."


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Dear John, new line. How are you question mark", "Dear John,\nHow are you?"),
        ("Hello comma how are you period", "Hello, how are you."),
        ("Hello, comma, how are you? Period.", "Hello, how are you."),
        ("First point new paragraph second point full stop", "First point\n\nSecond point."),
        ("Wow exclamation mark that is great exclamation point", "Wow! That is great!"),
        ("It lasted a period of time and then ended period", "It lasted a period of time and then ended."),
        ("We launched a new line of products.", "We launched a new line of products."),
        ("Items colon apples semicolon pears", "Items: apples; pears"),
        ("End with a break new line", "End with a break\n"),
    ],
)
def test_spoken_punctuation_in_english(raw: str, expected: str) -> None:
    assert typed(raw, DictationOptions(remove_fillers=False)) == expected


def test_spoken_punctuation_is_english_only_and_can_be_turned_off() -> None:
    assert typed("Hello comma world", DictationOptions(spoken_punctuation=False)) == "Hello comma world"
    assert typed("Bonjour comma", language="fr") == "Bonjour comma"
    assert typed("Hello comma world", language="auto") == "Hello, world"


def test_replacement_rules_match_whole_words_in_any_case_once() -> None:
    rules = (("parley dot com", "parley.com"), ("my address", "12 Main Street, Springfield"), ("foo", "bar"))
    assert (
        apply_rules("Go to Parley dot com, and send it to my address. Food, foo, bar.", rules)
        == "Go to parley.com, and send it to 12 Main Street, Springfield. Food, bar, bar."
    )
    assert apply_rules("Parley, dot com", rules) == "parley.com"  # a comma whisper put between the words
    options = DictationOptions(replacements=(("bar", "foo"), ("foo", "bar")))  # refused when saved; one pass here
    assert typed("foo bar", dataclasses.replace(options, spoken_punctuation=False)) == "bar foo"


@pytest.mark.parametrize(
    ("rules", "problem"),
    [
        ([["a", "a a"]], "growing each time"),
        ([["hello", "hello world"]], "growing each time"),
        ([["foo", "bar"], ["bar", "baz"], ["baz", "foo"]], "in a circle: 'foo' -> 'bar' -> 'baz' -> 'foo'"),
        ([["...", "x"]], "no words to listen for"),
        ([["same", "x"], ["Same", "y"]], "already the spoken words"),
        ([["long", "x" * 2001]], "longer than 2000 characters"),
        ([["x" * 101, "y"]], "longer than 100 characters"),
        ([[f"word{i}", "w"] for i in range(MAX_RULES + 1)], f"At most {MAX_RULES}"),
        ([["only one part"]], "not a pair"),
    ],
)
def test_rules_that_loop_or_grow_without_bound_are_refused(rules: list[list[str]], problem: str) -> None:
    problems = check_rules(rules)
    assert len(problems) == 1 and problem in problems[0], problems


def test_good_rules_pass_the_check() -> None:
    assert check_rules([["parley", "Parley"], ["parley dot com", "parley.com"], ["my sig", "Best, Parley"]]) == []


def test_bad_rules_from_a_file_are_left_out_and_told_the_others_kept() -> None:
    options = DictationOptions.bounded(replacements=[["ok", "fine"], ["a", "a a"], ["dot com", ".com"]])
    assert options.replacements == (("ok", "fine"), ("dot com", ".com"))
    assert len(options.warnings) == 1 and "Rule 2:" in options.warnings[0]


@pytest.mark.parametrize(
    ("transcript", "cleaned", "added"),
    [
        ("i went to store and um bought milk", "I went to the store and bought milk.", []),
        ("i'm not sure its three oclock", "I am not sure it's 3 o'clock.", []),
        ("we should we should meet on monday", "We should meet on Monday.", []),
        ("the recieve button is broken", "The receive button is broken.", []),
        ("what time is it in tokyo", "It is 9 pm in Tokyo.", ["9", "pm"]),
        ("tell me a joke", "Why did the chicken cross the road?", ["why", "chicken", "cross", "road"]),
        ("the build passed", "The build has not passed.", ["not"]),
    ],
)
def test_the_added_content_check(transcript: str, cleaned: str, added: list[str]) -> None:
    assert added_words(transcript, cleaned) == added


def test_a_clean_up_answer_is_judged() -> None:
    options = DictationOptions(vocabulary=("Siobhan",))
    assert judge("call shivon", "Call Siobhan.", "eog", options) == CleanupOutcome("used", "Call Siobhan.")
    assert judge("call her", 'Here is the cleaned text:\n\n"Call her."', "eog", options).text == "Call her."
    assert judge("call her", "  ", "eog", options).status == "empty"
    paragraph = judge("call her", "Sure! Calling someone is a great way to stay in touch. " * 3, "max_tokens", options)
    assert paragraph.status == "added_words" and "'sure'" in paragraph.note
    assert judge("call her now", "Call her", "max_tokens", options).status == "failed"
    said = "can you tell Nguyen that the build is broken"
    dropped = judge(said, "The build is broken.", "eog", options)
    assert dropped.status == "dropped_words" and "'tell', 'nguyen'" in dropped.note
    restart = "I want to I need to send the report to Siobhan by Friday"
    assert judge(restart, "I need to send the report to Siobhan by Friday.", "eog", options).status == "used"
    assert unwrapped("`Hello.`") == "Hello."


class _Fixed:
    """A stand-in model answer, for the pipeline's plumbing (the real model is in test_dictation_cleanup)."""

    def __init__(self, outcome: CleanupOutcome) -> None:
        self.outcome = outcome
        self.seen: list[str] = []

    def clean(self, text: str, options: DictationOptions) -> CleanupOutcome:
        self.seen.append(text)
        return self.outcome


def test_process_runs_the_steps_in_order_and_types_the_plain_text_when_the_clean_up_is_refused() -> None:
    options = DictationOptions(vocabulary=("Zyntrix",), replacements=(("zyntrix dot io", "zyntrix.io"),), cleanup=True)
    cleaner = _Fixed(CleanupOutcome("timed_out", "", "too slow"))
    result = process("Um, visit Zintrix dot io period", options, cleaner, language="en")
    assert cleaner.seen == ["Visit zyntrix.io."]
    assert (result.raw, result.text, result.cleanup, result.note) == (
        "Um, visit Zintrix dot io period",
        "Visit zyntrix.io.",
        "timed_out",
        "too slow",
    )
    assert [name for name, _ in result.steps] == ["fillers", "vocabulary", "replacements", "punctuation", "cleanup"]
    used = process("hello", options, _Fixed(CleanupOutcome("used", "Hello.")), language="en")
    assert (used.text, used.cleanup, used.plain) == ("Hello.", "used", False)
    respelled = process("zyntrix", options, _Fixed(CleanupOutcome("used", "Try Zyntrix.io or ZyntriX.")))
    assert respelled.text == "Try Zyntrix.io or Zyntrix."  # the list's spelling over the model's
    loading = process("hello", options, None)
    assert (loading.text, loading.cleanup) == ("hello", "no_model") and "not loaded" in loading.note
    off = process("hello", dataclasses.replace(options, cleanup=False), cleaner)
    assert (off.cleanup, off.note) == ("off", "")


def test_modes_change_what_they_say() -> None:
    options = DictationOptions(vocabulary=("Zyntrix",), cleanup=True)
    assert set(MODES) == {"default", "plain", "cleaned", "terminal", "terminal-keys", "raw"}
    assert options.with_mode("default") == options and options.with_mode("no such mode") == options
    assert not options.with_mode("plain").cleanup and not options.with_mode("terminal").cleanup
    assert not options.with_mode("terminal-keys").cleanup
    assert dataclasses.replace(options, cleanup=False).with_mode("cleaned").cleanup
    raw = options.with_mode("raw")
    assert process("Um, Zintrix comma", raw, language="en").text == "Um, Zintrix comma"
    assert whisper_prompt(raw) == "I talked with Zyntrix."  # the list still biases whisper


def test_the_settings_hold_the_dictation_fields_and_a_huge_vocabulary_does_not_reset_them(tmp_path) -> None:
    path = tmp_path / "settings.json"
    stored = {
        "language": "en",
        "dictation_vocabulary": [f"Name{i}" for i in range(10_000)] + ["x" * 100_000],
        "dictation_replacements": [["a", "a a"], ["dot com", ".com"]],
        "dictation_vocabulary_threshold": 0.9,
        "dictation_cleanup": True,
        "dictation_cleanup_timeout_s": 5,
        "dictation_app_modes": {"xterm": "terminal"},
    }
    path.write_text(json.dumps(stored))
    loaded = load_settings(path)
    assert loaded.warnings == []
    s = loaded.settings
    assert (s.language, s.dictation_cleanup, s.dictation_cleanup_timeout_s) == ("en", True, 5.0)
    options = DictationOptions.from_settings(s)
    assert len(options.vocabulary) == vocabulary.MAX_ENTRIES and options.replacements == (("dot com", ".com"),)
    assert (options.vocabulary_threshold, options.cleanup_timeout_s, options.language) == (0.9, 5.0, "en")
    assert len(options.warnings) == 2  # the entries beyond the first 1000, the growing rule
    save_settings(s, path)  # what is saved is what is used: the file stays small
    assert path.stat().st_size < 100_000
    assert load_settings(path).settings.dictation_vocabulary == list(options.vocabulary)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("dictation_vocabulary", "Siobhan"),
        ("dictation_vocabulary", [1, 2]),
        ("dictation_replacements", [["only one"]]),
        ("dictation_vocabulary_threshold", 0.2),
        ("dictation_cleanup_timeout_s", 60),
        ("dictation_history_days", -1),
        ("dictation_app_modes", {"xterm": "shout"}),
        ("dictation_cleanup", "yes"),
    ],
)
def test_a_dictation_setting_of_the_wrong_shape_falls_back_alone(tmp_path, key: str, value: object) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({key: value, "language": "de"}))
    loaded = load_settings(path)
    assert getattr(loaded.settings, key) == getattr(Settings(), key)
    assert loaded.settings.language == "de" and len(loaded.warnings) == 1


def test_the_settings_default_matches_the_engine_default() -> None:
    assert DictationOptions.from_settings(Settings()) == DictationOptions()


def test_a_listed_name_next_to_another_word_keeps_the_word() -> None:
    options = dataclasses.replace(TEXT_ONLY, vocabulary=("Siobhan", "Zyntrix"))
    assert typed("Send the report to Siobhan by Friday.", options) == "Send the report to Siobhan by Friday."
    assert typed("Use Zintrix app.", options) == "Use Zyntrix app."
