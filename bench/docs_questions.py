#!/usr/bin/env python3
"""The questions of ``bench_docs.py`` ("ask Parley about your own files") on the document set
``docs_set.py`` builds: 184 questions as people would ask them aloud, each with the file of the
set that answers it, short verbatim snippets of that file (for retrieval: does a retrieved
passage hold the snippet?) and acceptable answer keywords (for grading the answer).

- "direct" (68): worded close to the text;
- "paraphrase" (71): asked in other words than the text's;
- "two_passages" (19): needs two passages of its file, far apart: one names a thing and the
  other says the fact asked about it, or two passages' facts are compared;
- "unanswerable" (26): nothing in the set answers it (what the documentation in the set does
  not cover, the user's own affairs, features of later Pythons); its key terms occur nowhere in
  the set.

Every file of the set has questions, so every format has.  ``check`` reads each file back as an
indexer would (pypdf, python-docx, odfdo, zipfile and html.parser) and checks every question
against what it reads:

    .venv/bin/python bench/docs_set.py /tmp/docs_set && .venv/bin/python bench/docs_questions.py /tmp/docs_set
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import zipfile
from collections import Counter
from collections.abc import Sequence
from html.parser import HTMLParser
from pathlib import Path
from posixpath import dirname, join, normpath
from xml.etree import ElementTree

KINDS = ("direct", "paraphrase", "two_passages", "unanswerable")


@dataclasses.dataclass(frozen=True)
class Question:
    """A question as a person would ask it aloud.

    ``file``: the file of the set it is answered from (its path in the set; None for an
    unanswerable question).  ``evidence``: short verbatim snippets of that file's text (as
    ``text_of`` reads it, whitespace collapsed) that a retrieved passage holding the answer holds;
    two, from passages far apart, for a "two_passages" question; none for an unanswerable one.
    ``answer``: acceptable answer keywords, a reply is right when it holds any of them (case
    aside); none for an unanswerable one.  ``absent``: for an unanswerable question, its key
    terms, which occur nowhere in the set.
    """

    kind: str
    question: str
    file: str | None = None
    evidence: tuple[str, ...] = ()
    answer: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()


QUESTIONS: tuple[Question, ...] = (
    # text/glossary.txt
    Question(
        "direct",
        "What does the acronym EAFP stand for?",
        "text/glossary.txt",
        ("Easier to ask for forgiveness than permission",),
        ("forgiveness",),
    ),
    Question(
        "direct",
        "Who is Python's benevolent dictator for life?",
        "text/glossary.txt",
        ("Benevolent Dictator For Life, a.k.a. Guido van Rossum",),
        ("Guido",),
    ),
    Question(
        "paraphrase",
        "How do I see the list of Python's design principles from the interactive prompt?",
        "text/glossary.txt",
        ("Listing of Python design principles and philosophies",),
        ("import this",),
    ),
    Question(
        "paraphrase",
        "What stops two threads from running Python code at the same moment in CPython?",
        "text/glossary.txt",
        ("only one thread executes Python bytecode at a time",),
        ("global interpreter lock", "GIL"),
    ),
    Question(
        "direct",
        "Which file does a namespace package not have?",
        "text/glossary.txt",
        ("they have no __init__.py file",),
        ("__init__.py",),
    ),
    Question(
        "two_passages",
        "Which coding style is full of if statements, and what's its opposite full of try and except?",
        "text/glossary.txt",
        ("presence of many if statements", "presence of many try and except statements"),
        ("LBYL", "look before you leap"),
    ),
    # text/re.txt
    Question(
        "direct",
        "In which Python version were possessive quantifiers added to the re module?",
        "text/re.txt",
        ("These are known as possessive quantifiers.",),
        ("3.11",),
    ),
    Question(
        "paraphrase",
        "Which regex flag lets the dot match newlines as well?",
        "text/re.txt",
        ("Make the '.' special character match any character at all, including a newline",),
        ("DOTALL", "re.S"),
    ),
    Question(
        "direct",
        "What's the difference between re.match and re.search?",
        "text/re.txt",
        ("re.match() checks for a match only at the beginning of the string",),
        ("beginning",),
    ),
    Question(
        "paraphrase",
        "Why should I write my regular expressions as raw strings?",
        "text/re.txt",
        ('Raw string notation (r"text") keeps regular expressions sane.',),
        ("backslash",),
    ),
    Question(
        "direct",
        "What is the value of the re.NOFLAG flag?",
        "text/re.txt",
        ("Indicates no flag being applied, the value is 0.",),
        ("0", "zero"),
    ),
    # text/json.txt
    Question(
        "direct",
        "What is the default value of sort_keys in json.dumps?",
        "text/json.txt",
        ("this is useful for regression tests to ensure that JSON serializations",),
        ("False",),
    ),
    Question(
        "paraphrase",
        "How do I get the most compact JSON output, without any spaces?",
        "text/json.txt",
        ("json.dumps([1, 2, 3, {'4': 5, '6': 7}], separators=(',', ':'))",),
        ("separators",),
    ),
    Question(
        "direct",
        "Which built-in exception is json's JSONDecodeError a subclass of?",
        "text/json.txt",
        ("Subclass of ValueError with the following additional attributes",),
        ("ValueError",),
    ),
    Question(
        "paraphrase",
        "Is there a command line tool in Python to check a JSON file and lay it out nicely?",
        "text/json.txt",
        ("Using json.tool from the shell to validate and pretty-print:",),
        ("json.tool",),
    ),
    # text/secrets.txt
    Question(
        "direct",
        "How many bytes of randomness are considered sufficient for a token?",
        "text/secrets.txt",
        ("32 bytes (256 bits) of randomness is sufficient",),
        ("32",),
    ),
    Question(
        "paraphrase",
        "How can I check that two secret strings are equal without leaking timing information?",
        "text/secrets.txt",
        ("to reduce the risk of timing attacks",),
        ("compare_digest",),
    ),
    Question(
        "direct",
        "How many characters long is the password in the first secrets recipe?",
        "text/secrets.txt",
        ("Generate an eight-character alphanumeric password:",),
        ("eight", "8"),
    ),
    # text/zoneinfo.txt
    Question(
        "direct",
        "Which environment variable sets the time zone search path?",
        "text/zoneinfo.txt",
        ("the zoneinfo module will use the environment variable PYTHONTZPATH",),
        ("PYTHONTZPATH",),
    ),
    Question(
        "paraphrase",
        "If my computer has no time zone database, where does zoneinfo get its data from?",
        "text/zoneinfo.txt",
        ("the first-party PyPI package tzdata",),
        ("tzdata",),
    ),
    Question(
        "paraphrase",
        "How do I get a brand new ZoneInfo object each time instead of a cached one?",
        "text/zoneinfo.txt",
        ("but returns a new object on each call",),
        ("no_cache",),
    ),
    Question(
        "two_passages",
        "When I call reset_tzpath with no arguments, which environment variable does zoneinfo read the path from?",
        "text/zoneinfo.txt",
        (
            "When called with no arguments, TZPATH is set to the default value.",
            "the zoneinfo module will use the environment variable PYTHONTZPATH",
        ),
        ("PYTHONTZPATH",),
    ),
    Question(
        "two_passages",
        "The regex examples say one function checks that the entire string matches; which Python version added it?",
        "text/re.txt",
        (
            "re.fullmatch() checks for entire string to be a match",
            "If the whole string matches the regular expression pattern",
        ),
        ("3.4",),
    ),
    # markdown/collections.md
    Question(
        "direct",
        "What does a Counter return for an item it has never seen?",
        "markdown/collections.md",
        ("they return a zero count for missing items instead of raising a KeyError",),
        ("zero", "0"),
    ),
    Question(
        "paraphrase",
        "How do I add up all the counts in a Counter?",
        "markdown/collections.md",
        ("Compute the sum of the counts.",),
        ("total",),
    ),
    Question(
        "paraphrase",
        "Which container should I use for a queue where I add and remove items quickly at both ends?",
        "markdown/collections.md",
        ("list-like container with fast appends and pops on either end",),
        ("deque",),
    ),
    Question(
        "direct",
        "What happens when a bounded length deque is full and new items are added?",
        "markdown/collections.md",
        ("a corresponding number of items are discarded from the opposite end",),
        ("discard", "opposite end", "other end"),
    ),
    Question(
        "direct",
        "Since which Python version is the insertion order of dict guaranteed?",
        "markdown/collections.md",
        ("this new behavior became guaranteed in Python 3.7",),
        ("3.7",),
    ),
    Question(
        "paraphrase",
        "What kind of mapping does a named tuple's _asdict method give back these days?",
        "markdown/collections.md",
        ("Returns a regular dict instead of an OrderedDict.",),
        ("regular dict", "plain dict", "regular dictionary", "plain dictionary"),
    ),
    Question(
        "two_passages",
        "Which was added to collections first: the class that chains mappings into one view, or the counting one?",
        "markdown/collections.md",
        (
            "A ChainMap class is provided for quickly linking a number of mappings",
            "Setting a count to zero does not remove an element from a counter",
        ),
        ("Counter",),
    ),
    # markdown/itertools.md
    Question(
        "direct",
        "Which languages inspired the itertools building blocks?",
        "markdown/itertools.md",
        ("inspired by constructs from APL, Haskell, and SML",),
        ("APL", "Haskell", "SML"),
    ),
    Question(
        "paraphrase",
        "Does my data need any preparation before itertools groups it?",
        "markdown/itertools.md",
        ("Generally, the iterable needs to already be sorted on the same key function.",),
        ("sorted", "sort"),
    ),
    Question(
        "direct",
        "How many tuples does pairwise produce compared to the number of inputs?",
        "markdown/itertools.md",
        ("will be one fewer than the number of inputs",),
        ("one fewer", "one less", "n-1", "n - 1"),
    ),
    Question(
        "paraphrase",
        "Is there a package on PyPI with lots more of these iterator recipes ready to install?",
        "markdown/itertools.md",
        ("python -m pip install more-itertools",),
        ("more-itertools",),
    ),
    Question(
        "two_passages",
        "An itertool that began as a recipe makes overlapping pairs; which Python version added it?",
        "markdown/itertools.md",
        (
            "The accumulate(), compress(), and pairwise() itertools started out as recipes.",
            "Return successive overlapping pairs taken from the input iterable.",
        ),
        ("3.10",),
    ),
    # markdown/dataclasses.md
    Question(
        "direct",
        "Which exception is raised when I assign to a field of a frozen dataclass?",
        "markdown/dataclasses.md",
        ("Raised when an implicitly defined __setattr__() or __delattr__() is called",),
        ("FrozenInstanceError",),
    ),
    Question(
        "paraphrase",
        "How do I give a dataclass field an empty list as its default value?",
        "markdown/dataclasses.md",
        ("mylist: list[int] = field(default_factory=list)",),
        ("default_factory",),
    ),
    Question(
        "paraphrase",
        "The init that dataclass writes doesn't call my base class's init; where am I supposed to call it?",
        "markdown/dataclasses.md",
        ("it is common to call this method in a __post_init__() method",),
        ("__post_init__",),
    ),
    Question(
        "direct",
        "In which version was the weakref_slot parameter added to dataclass?",
        "markdown/dataclasses.md",
        ("weakref_slot: If true (the default is False), add a slot named",),
        ("3.11",),
    ),
    # markdown/enum.md
    Question(
        "direct",
        "What value does auto give a member of a StrEnum?",
        "markdown/enum.md",
        ("Using auto with StrEnum results in the lower-cased member name as the value.",),
        ("lower-cased", "lowercase", "lower case", "lower-case"),
    ),
    Question(
        "paraphrase",
        "How can I make sure no two members of my enum share the same value?",
        "markdown/enum.md",
        ("gathering any aliases it finds; if any are found ValueError is raised",),
        ("unique",),
    ),
    Question(
        "two_passages",
        "What exception do I get when an enum fails one of the checks of the verify decorator?",
        "markdown/enum.md",
        (
            "Members from EnumCheck are used to specify which constraints should be checked",
            "failed constraints result in a ValueError",
        ),
        ("ValueError",),
    ),
    # markdown/heapq.md
    Question(
        "paraphrase",
        "How can I peek at the next item a heap would give me without removing it?",
        "markdown/heapq.md",
        ("To access the smallest item without popping it, use heap[0].",),
        ("heap[0]",),
    ),
    Question(
        "direct",
        "Which item does the pop method of heapq give back?",
        "markdown/heapq.md",
        ("Our pop method returns the smallest item, not the largest",),
        ("smallest",),
    ),
    Question(
        "paraphrase",
        "What happens if I pop from a heap that has nothing in it?",
        "markdown/heapq.md",
        ("maintaining the heap invariant. If the heap is empty, IndexError is raised.",),
        ("IndexError",),
    ),
    # html/argparse.html
    Question(
        "paraphrase",
        "How do I make argparse raise an error I can catch instead of exiting my program?",
        "html/argparse.html",
        ("the feature can be enabled by setting exit_on_error to False",),
        ("exit_on_error",),
    ),
    Question(
        "paraphrase",
        "How can I get a --foo flag together with a matching --no-foo in argparse?",
        "html/argparse.html",
        ("adds support for boolean actions such as --foo and --no-foo",),
        ("BooleanOptionalAction",),
    ),
    Question(
        "direct",
        "How do I turn off abbreviations of long options in argparse?",
        "html/argparse.html",
        ("recognizes abbreviations of long options",),
        ("allow_abbrev",),
    ),
    Question(
        "direct",
        "What is the default value of const in argparse since Python 3.11?",
        "html/argparse.html",
        ("const=None by default, including when action='append_const'",),
        ("None",),
    ),
    Question(
        "direct",
        "Which older standard library module does argparse improve on?",
        "html/argparse.html",
        ("The argparse module improves on the standard library optparse module",),
        ("optparse",),
    ),
    Question(
        "two_passages",
        "Which is older: the parser option that turns off abbreviations or the one that stops exiting on errors?",
        "html/argparse.html",
        (
            "recognizes abbreviations of long options",
            "the feature can be enabled by setting exit_on_error to False",
        ),
        ("allow_abbrev",),
    ),
    # html/csv.html
    Question(
        "paraphrase",
        "How can Python work out the delimiter of a CSV file it has never seen?",
        "html/csv.html",
        ("The Sniffer class is used to deduce the format of a CSV file.",),
        ("Sniffer",),
    ),
    Question(
        "direct",
        "What dialect name is registered for tab-delimited Excel files?",
        "html/csv.html",
        ("It is registered with the dialect name 'excel-tab'.",),
        ("excel-tab",),
    ),
    Question(
        "direct",
        "Which RFC tried to standardise the CSV format?",
        "html/csv.html",
        ("to describe the format in a standardized way in RFC 4180",),
        ("4180",),
    ),
    Question(
        "paraphrase",
        "When guessing if a CSV file has a header row, how many rows does the sniffer look at?",
        "html/csv.html",
        ("Twenty rows after the first row are sampled",),
        ("twenty", "20"),
    ),
    Question(
        "two_passages",
        "Why should I open a CSV file with newline set to an empty string?",
        "html/csv.html",
        (
            "it should be opened with newline='' [1].",
            "newlines embedded inside quoted fields will not be interpreted correctly",
        ),
        ("quoted fields", "embedded", "extra \\r"),
    ),
    # html/shutil.html
    Question(
        "paraphrase",
        "How can I find out how much free space is left on a disk?",
        "html/shutil.html",
        ("Return disk usage statistics about the given path as a named tuple",),
        ("disk_usage",),
    ),
    Question(
        "paraphrase",
        "Which shutil function copies a file and keeps its timestamps and other metadata?",
        "html/shutil.html",
        ("Identical to copy() except that copy2() also attempts to preserve file metadata.",),
        ("copy2",),
    ),
    Question(
        "direct",
        "What default buffer size does shutil.copyfile use on Windows?",
        "html/shutil.html",
        ("uses a bigger default buffer size (1 MiB instead of 64 KiB)",),
        ("1 MiB", "1MiB", "one MiB", "1 MB"),
    ),
    Question(
        "paraphrase",
        "How do I find out where a program like git is installed, from Python?",
        "html/shutil.html",
        ("Return the path to an executable which would be run if the given cmd was called.",),
        ("shutil.which", "which("),
    ),
    Question(
        "direct",
        "Which archive formats does shutil support by default?",
        "html/shutil.html",
        ("tar: Uncompressed tar file. Uses POSIX.1-2001 pax format for new archives.",),
        ("gztar", "bztar", "xztar"),
    ),
    Question(
        "two_passages",
        "When copytree copies the files of a folder, which function does it use, and does that one keep metadata?",
        "html/shutil.html",
        (
            "individual files are copied using copy2()",
            "Identical to copy() except that copy2() also attempts to preserve file metadata.",
        ),
        ("copy2",),
    ),
    # html/tomllib.html
    Question(
        "paraphrase",
        "Which package can I use to write TOML files, since tomllib only reads them?",
        "html/tomllib.html",
        ("The Tomli-W package is a TOML writer",),
        ("Tomli-W", "tomli_w"),
    ),
    Question(
        "direct",
        "What kind of file object does tomllib.load need?",
        "html/tomllib.html",
        ("The first argument should be a readable and binary file object.",),
        ("binary", "rb"),
    ),
    Question(
        "direct",
        "Which exception does tomllib raise on an invalid TOML document?",
        "html/tomllib.html",
        ("exception tomllib.TOMLDecodeError",),
        ("TOMLDecodeError",),
    ),
    # pdf/pathlib.pdf
    Question(
        "paraphrase",
        "How do I create a folder together with any missing parent folders using pathlib?",
        "pdf/pathlib.pdf",
        ("If parents is true, any missing parents of this path are created as needed",),
        ("parents=True", "parents"),
    ),
    Question(
        "direct",
        "What does Path.unlink do when missing_ok is true and the file doesn't exist?",
        "pdf/pathlib.pdf",
        ("If missing_ok is true, FileNotFoundError exceptions will be ignored",),
        ("ignore",),
    ),
    Question(
        "paraphrase",
        "link_to is deprecated; what should I call instead?",
        "pdf/pathlib.pdf",
        ("This method is deprecated in favor of Path.hardlink_to()",),
        ("hardlink_to",),
    ),
    Question(
        "direct",
        "What is the pathlib equivalent of os.listdir?",
        "pdf/pathlib.pdf",
        ("os.listdir() | Path.iterdir()",),
        ("iterdir",),
    ),
    Question(
        "two_passages",
        "What error does pathlib's replacement for os.makedirs raise by default if the folder already exists?",
        "pdf/pathlib.pdf",
        (
            "os.makedirs() | Path.mkdir()",
            "If exist_ok is false (the default), FileExistsError is raised",
        ),
        ("FileExistsError",),
    ),
    # pdf/sqlite3.pdf
    Question(
        "direct",
        "Who wrote the sqlite3 module?",
        "pdf/sqlite3.pdf",
        ("The sqlite3 module was written by Gerhard",),
        ("Gerhard", "Haring", "Häring"),
    ),
    Question(
        "direct",
        "What is the oldest SQLite version the sqlite3 module works with?",
        "pdf/sqlite3.pdf",
        ("requires SQLite 3.7.15 or newer",),
        ("3.7.15",),
    ),
    Question(
        "paraphrase",
        "How long does a sqlite3 connection wait on a locked database before it gives up, by default?",
        "pdf/sqlite3.pdf",
        ("if the database is locked by another connection",),
        ("five", "5"),
    ),
    Question(
        "paraphrase",
        "How do I open a throwaway SQLite database that is never saved to disk?",
        "pdf/sqlite3.pdf",
        ('Pass ":memory:" to open a connection to a database that is in RAM',),
        (":memory:",),
    ),
    Question(
        "direct",
        "Which types does SQLite support natively?",
        "pdf/sqlite3.pdf",
        ("SQLite natively supports the following types: NULL, INTEGER, REAL, TEXT, BLOB.",),
        ("INTEGER", "REAL", "BLOB"),
    ),
    Question(
        "paraphrase",
        "If my code inside a with block on a sqlite3 connection raises, what happens to the transaction?",
        "pdf/sqlite3.pdf",
        ("raises an uncaught exception, the transaction is rolled back",),
        ("rolled back", "roll back", "rollback"),
    ),
    # pdf/sorting-howto.pdf
    Question(
        "direct",
        "Who wrote the Sorting HOW TO?",
        "pdf/sorting-howto.pdf",
        ("Andrew Dalke and Raymond Hettinger",),
        ("Dalke", "Hettinger"),
    ),
    Question(
        "paraphrase",
        "If two records have the same key, does sorting keep them in their original order?",
        "pdf/sorting-howto.pdf",
        ("Sorts are guaranteed to be stable.",),
        ("stable",),
    ),
    Question(
        "direct",
        "What is the name of the sorting algorithm used in Python?",
        "pdf/sorting-howto.pdf",
        ("The Timsort algorithm used in Python does multiple sorts efficiently",),
        ("Timsort",),
    ),
    Question(
        "paraphrase",
        "I have a generator rather than a list; which of the two ways of ordering things can take it?",
        "pdf/sorting-howto.pdf",
        ("In contrast, the sorted() function accepts any iterable.",),
        ("sorted",),
    ),
    # pdf/statistics.pdf
    Question(
        "direct",
        "What does statistics.mode return when there are several modes?",
        "pdf/statistics.pdf",
        ("returns the first one encountered in the data",),
        ("first",),
    ),
    Question(
        "paraphrase",
        "Which statistics function gives me all of the most common values rather than just one?",
        "pdf/statistics.pdf",
        ("Return a list of the most frequently occurring values",),
        ("multimode",),
    ),
    Question(
        "paraphrase",
        "Is there a quicker version of mean that always gives back a float?",
        "pdf/statistics.pdf",
        ("This runs faster than the mean() function and it always returns a float.",),
        ("fmean",),
    ),
    Question(
        "direct",
        "What is the default number of intervals for statistics.quantiles?",
        "pdf/statistics.pdf",
        ("statistics.quantiles(data, *, n=4, method='exclusive')",),
        ("4", "four"),
    ),
    Question(
        "paraphrase",
        "Which big scientific packages does the statistics module say it is no rival to?",
        "pdf/statistics.pdf",
        ("third-party libraries such as NumPy, SciPy",),
        ("NumPy", "SciPy"),
    ),
    Question(
        "two_passages",
        "quantiles complains when I give it a single data point; what built-in exception is that error a subclass of?",
        "pdf/statistics.pdf",
        (
            "Raises StatisticsError if there are not at least two data points.",
            "Subclass of ValueError for statistics-related exceptions.",
        ),
        ("ValueError",),
    ),
    # docx/logging.docx
    Question(
        "direct",
        "What is the numeric value of the WARNING logging level?",
        "docx/logging.docx",
        ("WARNING | 30",),
        ("30",),
    ),
    Question(
        "paraphrase",
        "My second call to basicConfig does nothing; how do I make it replace the existing handlers?",
        "docx/logging.docx",
        ("unless the keyword argument force is set to True",),
        ("force",),
    ),
    Question(
        "paraphrase",
        "Where do log messages go when I haven't set up any handlers at all?",
        "docx/logging.docx",
        ("This is a StreamHandler writing to sys.stderr with a level of WARNING",),
        ("lastResort", "stderr"),
    ),
    Question(
        "direct",
        "How does the logging module achieve thread safety?",
        "docx/logging.docx",
        ("It achieves this though using threading locks",),
        ("lock",),
    ),
    Question(
        "paraphrase",
        "How can I silence every logger in my program for a while?",
        "docx/logging.docx",
        ("temporarily throttle logging output down across the whole application",),
        ("disable",),
    ),
    Question(
        "two_passages",
        "If I call logging.warning with nothing configured, what is called for me and which handler does it add?",
        "docx/logging.docx",
        (
            "will call basicConfig() if the root logger",
            "Does basic configuration for the logging system by creating a StreamHandler",
        ),
        ("StreamHandler",),
    ),
    # docx/logging-howto.docx
    Question(
        "direct",
        "What is the default logging level?",
        "docx/logging-howto.docx",
        ("The default level is WARNING, which means that only events of this level",),
        ("WARNING",),
    ),
    Question(
        "paraphrase",
        "My library shouldn't print log messages when the app hasn't configured logging; which handler should I add?",
        "docx/logging-howto.docx",
        ("A do-nothing handler is included in the logging package: NullHandler",),
        ("NullHandler",),
    ),
    Question(
        "paraphrase",
        "For the normal output of a command line script, should I use logging or something else?",
        "docx/logging-howto.docx",
        ("ordinary usage of a command line script or program | print()",),
        ("print",),
    ),
    Question(
        "paraphrase",
        "How do I stop logging from collecting information about threads?",
        "docx/logging-howto.docx",
        ("Set logging.logThreads to False.",),
        ("logThreads",),
    ),
    Question(
        "two_passages",
        "What is the numeric value of the level meant for an indication that something unexpected happened?",
        "docx/logging-howto.docx",
        ("An indication that something unexpected happened", "WARNING | 30"),
        ("30",),
    ),
    # docx/functools.docx
    Question(
        "direct",
        "What is the default maxsize of lru_cache?",
        "docx/functools.docx",
        ("leaving the maxsize at its default value of 128",),
        ("128",),
    ),
    Question(
        "paraphrase",
        "How do I reset a cached_property so that it gets computed again?",
        "docx/functools.docx",
        ("The cached value can be cleared by deleting the attribute.",),
        ("delete", "deleting", "del "),
    ),
    Question(
        "paraphrase",
        "How can I see how many hits and misses my lru_cache had?",
        "docx/functools.docx",
        ("instrumented with a cache_info() function that returns a named tuple",),
        ("cache_info",),
    ),
    Question(
        "direct",
        "In which version did singledispatch's register start accepting union types?",
        "docx/functools.docx",
        ("The register() attribute now supports types.UnionType and typing.Union",),
        ("3.11",),
    ),
    Question(
        "two_passages",
        "How big can the cache of functools.cache grow?",
        "docx/functools.docx",
        (
            "Returns the same as lru_cache(maxsize=None)",
            "If maxsize is set to None, the LRU feature is disabled",
        ),
        ("without bound", "unbounded", "no limit", "unlimited", "no size limit"),
    ),
    # docx/random.docx
    Question(
        "direct",
        "Which core generator does the random module use?",
        "docx/random.docx",
        ("Python uses the Mersenne Twister as the core generator.",),
        ("Mersenne Twister",),
    ),
    Question(
        "direct",
        "What is the period of Python's Mersenne Twister?",
        "docx/random.docx",
        ("has a period of 2**19937-1",),
        ("19937",),
    ),
    Question(
        "paraphrase",
        "Is it OK to use the random module to make passwords?",
        "docx/random.docx",
        ("should not be used for security purposes",),
        ("secrets",),
    ),
    Question(
        "paraphrase",
        "How do I pick several items with replacement, giving some of them more weight?",
        "docx/random.docx",
        ("random.choices(population, weights=None, *, cum_weights=None, k=1)",),
        ("choices",),
    ),
    Question(
        "direct",
        "What must the population passed to random.sample be as of Python 3.11?",
        "docx/random.docx",
        ("The population must be a sequence.",),
        ("sequence",),
    ),
    # odt/whatsnew-3.11.odt
    Question(
        "direct",
        "On average, how much of a speedup did Python 3.11 measure on the standard benchmark suite?",
        "odt/whatsnew-3.11.odt",
        ("we measured a 1.25x speedup on the standard benchmark suite",),
        ("1.25", "25%", "25 percent"),
    ),
    Question(
        "paraphrase",
        "What new syntax in 3.11 lets me handle several unrelated exceptions raised at once?",
        "odt/whatsnew-3.11.odt",
        ("PEP 654 introduces language features that enable a program to raise and handle",),
        ("except*", "ExceptionGroup", "exception group"),
    ),
    Question(
        "direct",
        "Who is the editor of What's New in Python 3.11?",
        "odt/whatsnew-3.11.odt",
        ("Editor: Pablo Galindo Salgado",),
        ("Pablo Galindo",),
    ),
    Question(
        "paraphrase",
        "Which environment variable keeps Python from putting potentially unsafe paths on sys.path?",
        "odt/whatsnew-3.11.odt",
        ("PYTHONSAFEPATH environment variable to disable automatically prepending",),
        ("PYTHONSAFEPATH",),
    ),
    Question(
        "direct",
        "Which PEP added the Self type?",
        "odt/whatsnew-3.11.odt",
        ("The new Self annotation provides a simple and intuitive way",),
        ("673",),
    ),
    Question(
        "direct",
        "How much faster is interpreter startup in Python 3.11?",
        "odt/whatsnew-3.11.odt",
        ("Interpreter startup is now 10-15% faster in Python 3.11.",),
        ("10-15", "10 to 15", "10–15"),
    ),
    Question(
        "paraphrase",
        "Which company pays the main Faster CPython team?",
        "odt/whatsnew-3.11.odt",
        ("The main team is funded by Microsoft to work on this full-time.",),
        ("Microsoft",),
    ),
    Question(
        "paraphrase",
        "Will 3.11 eat a lot more memory than 3.10?",
        "odt/whatsnew-3.11.odt",
        ("memory use to exceed 20% more than 3.10",),
        ("20%", "20 percent", "twenty percent"),
    ),
    Question(
        "paraphrase",
        "In 3.11, how can I attach extra context to an exception after it has been raised?",
        "odt/whatsnew-3.11.odt",
        ("The add_note() method is added to BaseException.",),
        ("add_note",),
    ),
    Question(
        "two_passages",
        "3.11 is said to be 10 to 60 percent faster; with which benchmark suite was the average measured?",
        "odt/whatsnew-3.11.odt",
        (
            "Python 3.11 is between 10-60% faster than Python 3.10.",
            "when measured with the pyperformance benchmark suite",
        ),
        ("pyperformance",),
    ),
    # odt/subprocess.odt
    Question(
        "paraphrase",
        "How do I make subprocess.run raise an error when the command fails?",
        "odt/subprocess.odt",
        ("(with check=True) returns a non-zero exit status",),
        ("check=True", "CalledProcessError"),
    ),
    Question(
        "direct",
        "Which shell does subprocess use on POSIX when shell=True?",
        "odt/subprocess.odt",
        ("On POSIX with shell=True, the shell defaults to /bin/sh.",),
        ("/bin/sh",),
    ),
    Question(
        "paraphrase",
        "My program hangs reading the output of a child process through pipes; what should I use instead?",
        "odt/subprocess.odt",
        ("Use Popen.communicate() when using pipes to avoid that.",),
        ("communicate",),
    ),
    Question(
        "direct",
        "What was the text parameter of subprocess added as an alias for?",
        "odt/subprocess.odt",
        ("Added the text parameter as an alias for universal_newlines.",),
        ("universal_newlines",),
    ),
    Question(
        "paraphrase",
        "If subprocess.run times out, what happens to the child process?",
        "odt/subprocess.odt",
        ("the child process will be killed and waited for",),
        ("kill",),
    ),
    Question(
        "two_passages",
        "When run's timeout expires, which exception do I get, and what is its base class?",
        "odt/subprocess.odt",
        (
            "The TimeoutExpired exception will be re-raised",
            "Subclass of SubprocessError, raised when a timeout expires",
        ),
        ("SubprocessError",),
    ),
    # odt/zipfile.odt
    Question(
        "direct",
        "Can the zipfile module create encrypted ZIP files?",
        "odt/zipfile.odt",
        ("but it currently cannot create an encrypted file",),
        ("cannot", "can't", "can not"),
    ),
    Question(
        "paraphrase",
        "How large does a ZIP file have to be before it needs the ZIP64 extensions?",
        "odt/zipfile.odt",
        ("ZIP files that are more than 4 GiB in size",),
        ("4 GiB", "4 GB", "four"),
    ),
    Question(
        "paraphrase",
        "What happens if I extract the same zip archive twice?",
        "odt/zipfile.odt",
        ("it overwrites files without asking",),
        ("overwrite",),
    ),
    Question(
        "direct",
        "Which ZipFile method was added in 3.11 to create directories inside the archive?",
        "odt/zipfile.odt",
        ("ZipFile.mkdir(zinfo_or_directory, mode=511)",),
        ("mkdir",),
    ),
    Question(
        "two_passages",
        "What date does a ZipInfo get by default, and why can't a member be dated any earlier?",
        "odt/zipfile.odt",
        (
            "date_time=(1980, 1, 1, 0, 0, 0)",
            "The ZIP file format does not support timestamps before 1980.",
        ),
        ("1980",),
    ),
    # epub/python-tutorial.epub
    Question(
        "paraphrase",
        "Where does the name Python come from?",
        "epub/python-tutorial.epub",
        ("the language is named after the BBC show",),
        ("Monty Python",),
    ),
    Question(
        "direct",
        "Which key do I press to exit the interpreter on Unix?",
        "epub/python-tutorial.epub",
        ("Control-D on Unix, Control-Z on Windows",),
        ("Control-D", "Ctrl-D", "Ctrl+D", "Ctrl D"),
    ),
    Question(
        "direct",
        "How many spaces per indentation level does the tutorial recommend?",
        "epub/python-tutorial.epub",
        ("4 spaces are a good compromise between small indentation",),
        ("4", "four"),
    ),
    Question(
        "direct",
        "What style guide have most Python projects adopted?",
        "epub/python-tutorial.epub",
        ("PEP 8 has emerged as the style guide that most projects adhere to",),
        ("PEP 8", "PEP8"),
    ),
    Question(
        "paraphrase",
        "How do I make a single-element tuple?",
        "epub/python-tutorial.epub",
        ("a tuple with one item is constructed by following a value with a comma",),
        ("comma",),
    ),
    Question(
        "paraphrase",
        "What does Python do to names in a class that start with two underscores?",
        "epub/python-tutorial.epub",
        ("is textually replaced with _classname__spam",),
        ("mangling", "_classname__spam"),
    ),
    Question(
        "paraphrase",
        "Why can't 0.1 be stored exactly as a float?",
        "epub/python-tutorial.epub",
        ("the decimal value 0.1 cannot be represented exactly as a base 2 fraction",),
        ("binary", "base 2"),
    ),
    Question(
        "direct",
        "Which enhanced interactive interpreter does the tutorial mention?",
        "epub/python-tutorial.epub",
        ("is IPython, which features tab completion, object exploration",),
        ("IPython",),
    ),
    Question(
        "direct",
        "What does the builtin ExceptionGroup do?",
        "epub/python-tutorial.epub",
        ("The builtin ExceptionGroup wraps a list of exception instances",),
        ("raised together", "list of exception", "wraps"),
    ),
    Question(
        "paraphrase",
        "Which library gives the interactive interpreter its line editing and history?",
        "epub/python-tutorial.epub",
        ("This is implemented using the GNU Readline library",),
        ("Readline",),
    ),
    Question(
        "direct",
        "How do I create a virtual environment called tutorial-env?",
        "epub/python-tutorial.epub",
        ("python3 -m venv tutorial-env",),
        ("-m venv",),
    ),
    Question(
        "paraphrase",
        "Which module should I use for money calculations so that the cents come out exact?",
        "epub/python-tutorial.epub",
        ("financial applications and other uses which require exact decimal representation",),
        ("decimal",),
    ),
    Question(
        "direct",
        "What does dir() leave out of its list?",
        "epub/python-tutorial.epub",
        ("dir() does not list the names of built-in functions and variables",),
        ("built-in", "builtins"),
    ),
    Question(
        "two_passages",
        "Which list method removes an item by index and gives it back, unlike the del statement?",
        "epub/python-tutorial.epub",
        (
            "Remove the item at the given position in the list, and return it.",
            "remove an item from a list given its index instead of its value",
        ),
        ("pop",),
    ),
    # epub/python-faq.epub
    Question(
        "paraphrase",
        "Which language was Guido working on before he created Python?",
        "epub/python-faq.epub",
        ("implementing an interpreted language in the ABC group at CWI",),
        ("ABC",),
    ),
    Question(
        "direct",
        "What does the C in a Python version number A.B.C stand for?",
        "epub/python-faq.epub",
        ("C is the micro version number",),
        ("micro", "bugfix"),
    ),
    Question(
        "paraphrase",
        "Why does -22 // 10 give -3 and not -2?",
        "epub/python-faq.epub",
        ("the desire that i % j have the same sign as j",),
        ("same sign", "floor"),
    ),
    Question(
        "paraphrase",
        "What's the quickest way to glue lots of strings together?",
        "epub/python-faq.epub",
        ("place them into a list and call str.join() at the end",),
        ("join",),
    ),
    Question(
        "direct",
        "Since Python 3.9, how often is there a major new release?",
        "epub/python-faq.epub",
        ("Python will have a major new release every 12 months",),
        ("12 months", "every year", "yearly", "annual", "once a year"),
    ),
    Question(
        "paraphrase",
        "How do I stop Python from writing .pyc files?",
        "epub/python-faq.epub",
        ("Unless the PYTHONDONTWRITEBYTECODE environment variable is set",),
        ("PYTHONDONTWRITEBYTECODE",),
    ),
    Question(
        "two_passages",
        "Adding an assignment to my function gave me an UnboundLocalError; what's the rule, and how do I avoid it?",
        "epub/python-faq.epub",
        (
            "modified by adding an assignment statement somewhere in the body of a function",
            "If a variable is assigned a value anywhere within the function",
        ),
        ("global",),
    ),
    # code/textwrap.py
    Question(
        "direct",
        "What is the default width of textwrap's wrap function?",
        "code/textwrap.py",
        ("def wrap(text, width=70, **kwargs):",),
        ("70",),
    ),
    Question(
        "direct",
        "Who wrote the textwrap module?",
        "code/textwrap.py",
        ("# Written by Greg Ward",),
        ("Greg Ward",),
    ),
    Question(
        "paraphrase",
        "What does textwrap put at the end when it has to cut text short?",
        "code/textwrap.py",
        ("placeholder (default: ' [...]')",),
        ("[...]",),
    ),
    # code/bisect.py
    Question(
        "direct",
        "Where does bisect_left put a new item that is already in the list?",
        "code/bisect.py",
        ("insert just before the leftmost x already there",),
        ("leftmost", "before"),
    ),
    Question(
        "paraphrase",
        "Where does insort_right put a new item that equals items already in the list?",
        "code/bisect.py",
        ("insert it to the right of the rightmost x",),
        ("rightmost", "to the right of", "after the last"),
    ),
    # code/fnmatch.py
    Question(
        "direct",
        "How many compiled patterns does fnmatch keep in its cache?",
        "code/fnmatch.py",
        ("@functools.lru_cache(maxsize=32768, typed=True)",),
        ("32768", "32,768"),
    ),
    Question(
        "paraphrase",
        "Which fnmatch function always matches case-sensitively?",
        "code/fnmatch.py",
        ("fnmatchcase(FILENAME, PATTERN) always takes case in account.",),
        ("fnmatchcase",),
    ),
    # code/colorsys.py
    Question(
        "direct",
        "What range do the colorsys functions take their inputs in?",
        "code/colorsys.py",
        ("All inputs and outputs are triples of floats in the range [0.0...1.0]",),
        ("0.0", "0 to 1", "0 and 1"),
    ),
    Question(
        "paraphrase",
        "In the YIQ colour system, what does the Y component mean?",
        "code/colorsys.py",
        ("YIQ: Luminance, Chrominance (used by composite video signals)",),
        ("Luminance",),
    ),
    # unanswerable: nothing in the set answers these
    Question("unanswerable", "What is the default port of Python's built-in http.server?", absent=("http.server",)),
    Question("unanswerable", "How do I make a POST request with the requests library?", absent=("requests.post",)),
    Question("unanswerable", "How do I connect to a PostgreSQL database with psycopg?", absent=("psycopg",)),
    Question("unanswerable", "What does asyncio.gather return?", absent=("asyncio.gather",)),
    Question(
        "unanswerable", "When does Python 3.11 reach its end of life?", absent=("end-of-life", "end of life", "2027")
    ),
    Question("unanswerable", "How do I load a CSV file into a pandas DataFrame?", absent=("pandas", "DataFrame")),
    Question("unanswerable", "What was the budget of the Faster CPython project?", absent=("budget",)),
    Question("unanswerable", "What does pathlib's Path.walk method do?", absent=("Path.walk",)),
    Question("unanswerable", "What is the EnumDict class in the enum module for?", absent=("EnumDict",)),
    Question("unanswerable", "Which Python version added the copy.replace function?", absent=("copy.replace",)),
    Question("unanswerable", "Can the standard library play MP3 files?", absent=("mp3",)),
    Question(
        "unanswerable", "Which build option gives me the nogil build of CPython?", absent=("nogil", "--disable-gil")
    ),
    Question("unanswerable", "Where did I write down the wifi password?", absent=("wifi", "wi-fi")),
    Question("unanswerable", "When is my dentist appointment?", absent=("dentist",)),
    Question("unanswerable", "How do I change the voice Parley speaks with?", absent=("Parley",)),
    Question("unanswerable", "How do I generate a random UUID with uuid4?", absent=("uuid4",)),
    Question("unanswerable", "How do I add a route to a Flask app?", absent=("Flask",)),
    Question("unanswerable", "How do I run my Python app in a Docker container?", absent=("docker",)),
    Question("unanswerable", "What does sys.monitoring do?", absent=("sys.monitoring",)),
    Question("unanswerable", "What changed about f-strings in PEP 701?", absent=("PEP 701",)),
    Question("unanswerable", "How do I store a password in the system keyring from Python?", absent=("keyring",)),
    Question("unanswerable", "Does Python 4 get rid of the GIL?", absent=("Python 4",)),
    Question("unanswerable", "How do I run my Python code on a GPU with CUDA?", absent=("CUDA", "GPU")),
    Question("unanswerable", "What is the default field size limit of the csv module in bytes?", absent=("131072",)),
    Question("unanswerable", "In which version was statistics.kde added?", absent=("statistics.kde",)),
    Question("unanswerable", "Does Python 3.11 still run on Windows 7?", absent=("Windows 7",)),
)


# --------------------------------------------------------------------------- reading the set


class _HtmlText(HTMLParser):
    """The text of an HTML or XHTML page's body, a line break at each tag."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._in_body = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in_body = self._in_body or tag == "body"
        self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._in_body:
            self.parts.append(data)


def html_text(markup: str) -> str:
    reader = _HtmlText()
    reader.feed(markup)
    reader.close()
    return "".join(reader.parts)


def epub_text(path: Path) -> str:
    """The text of an EPUB's chapters in the order of its spine."""
    with zipfile.ZipFile(path) as book:
        container = ElementTree.fromstring(book.read("META-INF/container.xml"))
        opf_path = container.findall(".//{*}rootfile")[0].attrib["full-path"]
        opf = ElementTree.fromstring(book.read(opf_path))
        hrefs = {item.attrib["id"]: item.attrib["href"] for item in opf.iterfind("{*}manifest/{*}item")}
        chapters = [hrefs[itemref.attrib["idref"]] for itemref in opf.iterfind("{*}spine/{*}itemref")]
        return "\n".join(
            html_text(book.read(normpath(join(dirname(opf_path), href))).decode("utf-8")) for href in chapters
        )


def text_of(path: Path) -> str:
    """The text of a file of the set, read with the usual library for its kind (pypdf,
    python-docx, odfdo, zipfile and html.parser), whitespace collapsed."""
    suffix = path.suffix
    if suffix == ".pdf":
        from pypdf import PdfReader

        text = "\n".join(page.extract_text() for page in PdfReader(path).pages)
    elif suffix == ".docx":
        import docx

        text = "\n".join(paragraph.text for paragraph in docx.Document(str(path)).paragraphs)
    elif suffix == ".odt":
        from odfdo import Document

        elements = Document(path).body.get_elements("descendant::text:h | descendant::text:p")
        text = "\n".join(element.text_recursive for element in elements)
    elif suffix == ".epub":
        text = epub_text(path)
    elif suffix == ".html":
        text = html_text(path.read_text(encoding="utf-8"))
    else:
        text = path.read_text(encoding="utf-8")
    return " ".join(text.split())


# --------------------------------------------------------------------------- the check

MIN_APART = 1500  # characters between the two snippets of a "two_passages" question
MINIMUM = {"all": 140, "answerable": 120, "paraphrase": 30, "two_passages": 15, "unanswerable": 20}


def question_problems(question: Question, texts: dict[str, str], everything: str) -> list[str]:
    """What is wrong with ``question`` on the set whose texts (by path, as ``text_of`` reads
    them) are ``texts``; ``everything``: all the set's text, lower-cased."""
    if question.kind not in KINDS:
        return [f"unknown kind {question.kind!r}"]
    if question.kind == "unanswerable":
        problems = [f"{term!r} occurs in the set" for term in question.absent if term.lower() in everything]
        if question.file or question.evidence or question.answer or not question.absent:
            problems.append("an unanswerable question has no file, evidence or answer, and says what is absent")
        return problems
    if question.file not in texts or question.absent or not question.answer:
        return [f"needs a file of the set ({question.file!r}) and answer keywords, and nothing absent"]
    text = texts[question.file]
    problems = []
    if len(question.evidence) != (2 if question.kind == "two_passages" else 1):
        problems.append(f"{len(question.evidence)} snippets")
    places = []
    for snippet in question.evidence:
        collapsed = " ".join(snippet.split())
        if not 10 <= len(collapsed) <= 80:
            problems.append(f"snippet of {len(collapsed)} characters: {snippet!r}")
        count = text.count(collapsed)
        if count != 1:
            problems.append(f"snippet found {count} times: {snippet!r}")
        places.append(text.find(collapsed))
    if question.kind == "two_passages" and len(places) == 2 and abs(places[0] - places[1]) < MIN_APART:
        problems.append(f"the snippets are {abs(places[0] - places[1])} characters apart")
    if not any(keyword.lower() in text.lower() for keyword in question.answer):
        problems.append(f"no answer keyword in the file: {question.answer}")
    if any(keyword.lower() in question.question.lower() for keyword in question.answer):
        problems.append(f"the question gives its answer away: {question.answer}")
    return problems


def check(set_dir: Path) -> list[str]:
    """Every question checked against the set built in ``set_dir`` (``docs_set.py``): each
    snippet occurs once in its file's text, the two of a "two_passages" question at least
    ``MIN_APART`` characters apart; an answer keyword occurs in the file but not in the question;
    no term an unanswerable question names as absent occurs anywhere in the set (the licence
    included); every file has a question; the kinds reach their ``MINIMUM``.  The problems
    found, if any."""
    manifest = json.loads((set_dir / "manifest.json").read_text(encoding="utf-8"))
    texts = {entry["path"]: text_of(set_dir / entry["path"]) for entry in manifest["files"]}
    licence = (set_dir / "LICENSE.txt").read_text(encoding="utf-8")
    everything = "\n".join([*texts.values(), " ".join(licence.split())]).lower()
    problems = [
        f"{question.question!r}: {problem}"
        for question in QUESTIONS
        for problem in question_problems(question, texts, everything)
    ]
    asked = {question.file for question in QUESTIONS}
    problems += [f"{path}: no question about it" for path in texts if path not in asked]
    counts = Counter(question.kind for question in QUESTIONS)
    counts["all"] = len(QUESTIONS)
    counts["answerable"] = len(QUESTIONS) - counts["unanswerable"]
    problems += [
        f"{counts[name]} {name} questions, fewer than {least}"
        for name, least in MINIMUM.items()
        if counts[name] < least
    ]
    if len({question.question for question in QUESTIONS}) != len(QUESTIONS):
        problems.append("a question is asked twice")
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Checks the questions against a built document set.")
    parser.add_argument("set_dir", type=Path, help="the folder docs_set.py built")
    problems = check(parser.parse_args(argv).set_dir)
    kinds = Counter(question.kind for question in QUESTIONS)
    print(f"{len(QUESTIONS)} questions: " + ", ".join(f"{kinds[kind]} {kind}" for kind in KINDS))
    for problem in problems:
        print(problem)
    print(f"{len(problems)} problems" if problems else "every snippet found; nothing absent occurs")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
