#!/usr/bin/env python3
"""Fuzz Parley's model download with mutated Hub answers (the fake hub of tests/support/models_hub.py).

Not a test: it runs many cases (1000 by default, fixed seed) of the real download code
(``library.download_model`` then ``remove_model``) against a loopback Hub whose answers are
mutated: the headers (ETag, X-Linked-Etag, X-Repo-Commit, Content-Length, X-Linked-Size,
Location, Content-Range, dropped or replaced by hostile values), the status codes of HEAD and
GET, and the body (truncated, extended, wrong bytes, cut, slow or stalled within the timeout).
Each case starts from an empty cache in a temporary folder surrounded by sentinel files, and
some from a kept partial file (a resume).  It reports the cases, crashes (an exception that is
not a ParleyError: a traceback), hangs (past the per-case limit), files written, changed or
deleted outside the cache, links in the cache that lead out, a refusal whose message is not
one line, and a download that returned bytes other than the pinned ones.

    .venv/bin/python bench/fuzz_hub.py [--count 1000] [--seed 1] [--limit 20]
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import hashlib
import os
import random
import re
import shutil
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from parley.engine import library
from parley.engine.errors import ParleyError
from tests.support.models_hub import Behaviour, HubServer
from tests.support.tinymodels import write_tiny_llama_gguf

REPO = Path(__file__).resolve().parents[1]

FUZZ_REPO = "fuzz/Tiny-GGUF"
FUZZ_FILE = "tiny.gguf"
TIMEOUT_S = 0.5  # the download's "no byte for this long" limit in the cases
HOSTILE_NAMES = [
    "../../../../victim/notes.txt",
    "../../../victim",
    "/etc/passwd",
    "..",
    ".",
    "",
    "a/b",
    "..\\..\\x",
    "%2e%2e%2fx",
    "x\x7f",
    "0" * 39,
    "0" * 41,
    "G" * 40,
    "A" * 64,
    "0" * 63 + "/",
    " " + "0" * 40,
    "W/" + "0" * 64,
    "0" * 4000,
]
HOSTILE_NUMBERS = [
    "-1",
    "0",
    "1",
    "10" + "0" * 14,
    "9" * 25,
    "1e9",
    "0x10",
    " 12",
    "1_000",
    "",
    "abc",
    "9" * 5000,
    "18446744073709551617",
]
HOSTILE_URLS = [
    "file:///etc/passwd",
    "ftp://127.0.0.1/x",
    "javascript:alert(1)",
    "/relative/path",
    "http://",
    "http://127.0.0.1:9/x",
    "https://[::1",
    "http://127.0.0.1:1/" + "x" * 5000,
    "data:text/plain,hi",
    "http://user@127.0.0.1:9/x",
    "gopher://127.0.0.1/",
]
STATUSES = [200, 204, 206, 301, 302, 304, 307, 308, 400, 401, 403, 404, 410, 416, 429, 500, 502, 503, 599]


@dataclasses.dataclass
class Case:
    number: int
    description: str
    behaviour: Behaviour
    pinned: bool  # the catalog entry has a SHA-256 (else the Hub's is used)
    resume: bool  # a partial file is kept by a first, cut try


@dataclasses.dataclass
class Outcome:
    case: Case
    verdict: str  # "downloaded", "refused", or a failure: "crash", "hang", ...
    message: str = ""
    seconds: float = 0.0

    @property
    def failed(self) -> bool:
        return self.verdict not in ("downloaded", "refused")


def _header_mutation(rng: random.Random, data: bytes) -> tuple[str, dict[str, str | None]]:
    sha = hashlib.sha256(data).hexdigest()
    name = rng.choice(
        ["ETag", "X-Linked-Etag", "X-Repo-Commit", "Content-Length", "X-Linked-Size", "Location", "Content-Range"]
    )
    pick = rng.random()
    if pick < 0.15:
        value: str | None = None
    elif name in ("ETag", "X-Linked-Etag", "X-Repo-Commit"):
        value = rng.choice([*HOSTILE_NAMES, hashlib.sha256(os.urandom(8)).hexdigest(), "ab" * 20, sha[:40]])
        value = f'"{value}"' if name != "X-Repo-Commit" and rng.random() < 0.7 else value
    elif name in ("Content-Length", "X-Linked-Size"):
        value = rng.choice([*HOSTILE_NUMBERS, str(len(data) + rng.randint(-3000, 3000))])
    elif name == "Location":
        value = rng.choice(HOSTILE_URLS)
    else:
        start = rng.choice([0, 1, len(data) // 2, len(data), 10**15])
        value = rng.choice(
            [
                f"bytes {start}-{len(data) - 1}/{len(data)}",
                f"bytes {start}-{len(data)}/*",
                "bytes */1",
                "garbage",
                f"bytes 0-{len(data) * 2}/{len(data) * 2}",
                "",
            ]
        )
    return f"{name}: {value!r}"[:80], {name: value}


def _body_mutation(rng: random.Random, data: bytes) -> tuple[str, Callable[[bytes], bytes]]:
    kind = rng.choice(["truncated", "extended", "wrong byte", "empty", "random", "doubled"])
    cut = rng.randint(0, max(1, len(data) - 1))
    transforms: dict[str, Callable[[bytes], bytes]] = {
        "truncated": lambda b: b[:cut],
        "extended": lambda b: b + os.urandom(rng.randint(1, 70000)),
        "wrong byte": lambda b: b[:cut] + bytes([b[cut] ^ 0x55]) + b[cut + 1 :] if cut < len(b) else b + b"x",
        "empty": lambda b: b"",
        "random": lambda b: os.urandom(len(b)),
        "doubled": lambda b: b + b,
    }
    return f"body {kind}", transforms[kind]


def make_case(number: int, rng: random.Random, data: bytes) -> Case:
    """One case: one to three mutations of the Hub's answers."""
    behaviour = Behaviour(chunk=rng.choice([1024, 16 * 1024, 64 * 1024]))
    words: list[str] = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        roll = rng.random()
        if roll < 0.5:
            text, headers = _header_mutation(rng, data)
            behaviour.headers.update(headers)
        elif roll < 0.62:
            behaviour.head_status = rng.choice(STATUSES)
            text = f"HEAD status {behaviour.head_status}"
        elif roll < 0.74:
            behaviour.get_status = rng.choice(STATUSES)
            text = f"GET status {behaviour.get_status}"
        elif roll < 0.9:
            text, behaviour.body = _body_mutation(rng, data)
        elif roll < 0.94:
            behaviour.cut_after = rng.randint(0, len(data))
            text = f"cut after {behaviour.cut_after}"
        elif roll < 0.97:
            behaviour.stall_after = rng.randint(0, len(data))
            text = f"stall after {behaviour.stall_after}"
        else:
            behaviour.delay_s, behaviour.chunk = rng.choice([0.001, 0.005]), 64 * 1024
            text = f"slow ({behaviour.delay_s} s a chunk)"
        words.append(text)
    return Case(number, "; ".join(words), behaviour, pinned=rng.random() < 0.7, resume=rng.random() < 0.2)


def cases(data: bytes, seed: int, count: int) -> list[Case]:
    rng = random.Random(seed)
    return [make_case(n, rng, data) for n in range(1, count + 1)]


def plant_sentinels(root: Path) -> None:
    """Files of the user's around the cache that no case may touch."""
    for rel, text in (
        ("victim/notes.txt", "notes"),
        ("home/.bashrc", "rc"),
        ("etc/passwd", "root:x"),
        ("cache/victim.txt", "beside the hub cache"),
        ("notes.txt", "top"),
    ):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def outside_state(root: Path, cache: Path, data_dir: Path) -> dict[str, str]:
    """Every file and folder under ``root`` except the hub cache and Parley's data folder."""
    state: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        if path == cache or cache in path.parents or path == data_dir or data_dir in path.parents:
            continue
        kind = "link" if path.is_symlink() else "dir" if path.is_dir() else "file"
        state[str(path.relative_to(root))] = kind + (
            ":" + hashlib.sha256(path.read_bytes()).hexdigest() if kind == "file" else ""
        )
    return state


def links_leading_out(cache: Path) -> list[str]:
    real = os.path.realpath(cache)
    return [str(p) for p in cache.rglob("*") if p.is_symlink() and not os.path.realpath(p).startswith(real + os.sep)]


class Harness:
    """The fake hub, the tiny model it serves and the folders of one run."""

    def __init__(self, root: Path, hub: HubServer, data: bytes, limit_s: float) -> None:
        self.root, self.hub, self.data, self.limit_s = root, hub, data, limit_s
        self.cache = root / "cache" / "hub"
        self.data_dir = root / "data"
        sha = hashlib.sha256(data).hexdigest()
        entry = dict(
            kind="chat",
            name="Fuzz",
            repo=FUZZ_REPO,
            revision="main",
            file=FUZZ_FILE,
            size=len(data),
            licence="MIT",
            languages=("en",),
            parameters="1M",
            note="fuzz",
        )
        self.entries = {
            True: library.CatalogEntry(id="fuzz-pinned", sha256=sha, **entry),  # type: ignore[arg-type]
            False: library.CatalogEntry(id="fuzz-hub-sha", sha256=None, **entry),
        }  # type: ignore[arg-type]
        plant_sentinels(root)
        self.before = outside_state(root, self.cache, self.data_dir)

    def run(self, case: Case) -> Outcome:
        shutil.rmtree(self.cache, ignore_errors=True)
        shutil.rmtree(self.data_dir, ignore_errors=True)
        self.hub.release.clear()
        entry = self.entries[case.pinned]
        started = time.monotonic()
        if case.resume:
            self.hub.behaviour = Behaviour(cut_after=len(self.data) // 3)
            self._attempt(entry)
        self.hub.behaviour = case.behaviour
        verdict, message = self._attempt(entry)
        self.hub.release.set()
        if verdict == "downloaded" and case.pinned and Path(message).read_bytes() != self.data:
            verdict, message = "accepted wrong bytes", message
        if verdict == "downloaded":
            verdict, message = self._remove(entry, message)
        after = outside_state(self.root, self.cache, self.data_dir)
        if after != self.before:
            changed = sorted(set(after.items()) ^ set(self.before.items()))
            verdict, message = "touched files outside the cache", f"{changed[:5]}"
        elif leaks := links_leading_out(self.cache):
            verdict, message = "link leading out of the cache", f"{leaks[:3]}"
        return Outcome(case, verdict, message, time.monotonic() - started)

    def _attempt(self, entry: library.CatalogEntry) -> tuple[str, str]:
        result: dict[str, tuple[str, str]] = {}

        def work() -> None:
            try:
                path = library.download_model(
                    entry, cache_dir=self.cache, endpoint=self.hub.url, timeout=TIMEOUT_S, retries=1
                )
                result["r"] = ("downloaded", str(path))
            except ParleyError as exc:  # DownloadCancelled is one too
                text = str(exc)
                result["r"] = ("refused", text) if text and "\n" not in text else ("message not one line", repr(text))
            except BaseException:  # noqa: BLE001 - what the harness is looking for
                result["r"] = ("crash", traceback.format_exc())

        worker = threading.Thread(target=work, daemon=True)
        worker.start()
        worker.join(self.limit_s)
        if worker.is_alive():
            self.hub.release.set()
            return "hang", f"still running after {self.limit_s:g} s"
        return result["r"]

    def _remove(self, entry: library.CatalogEntry, path: str) -> tuple[str, str]:
        try:
            if entry.id in library.load_records():
                library.remove_model(entry.id)
        except ParleyError as exc:
            return "remove refused", str(exc)
        except BaseException:  # noqa: BLE001
            return "crash", traceback.format_exc()
        return "downloaded", path


def model_bytes(folder: Path) -> bytes:
    """A real tiny GGUF chat model (about 300 KB) that the library's validation accepts."""
    path = write_tiny_llama_gguf(folder / FUZZ_FILE, n_vocab=2000, n_embd=32)
    return Path(path).read_bytes()


def environment(root: Path) -> dict[str, str]:
    """What the download reads from the environment: Parley's data folder, no proxy, no token."""
    return {
        "PARLEY_DATA_DIR": str(root / "data"),
        "HF_HUB_DISABLE_XET": "1",
        "NO_PROXY": "127.0.0.1,localhost",
        "no_proxy": "127.0.0.1,localhost",
        "HF_HUB_DISABLE_TELEMETRY": "1",
    }


def fuzz(
    root: Path, seed: int, count: int, limit_s: float, report: Callable[[Outcome], None] | None = None
) -> list[Outcome]:
    """Run ``count`` cases in ``root`` (the environment must already be ``environment(root)``)."""
    data = model_bytes(root)
    outcomes: list[Outcome] = []
    with HubServer() as hub:
        hub.add(FUZZ_REPO, FUZZ_FILE, data)
        harness = Harness(root, hub, data, limit_s)
        for case in cases(data, seed, count):
            outcome = harness.run(case)
            outcomes.append(outcome)
            if report is not None:
                report(outcome)
    return outcomes


def summary(outcomes: list[Outcome]) -> str:
    verdicts = collections.Counter(o.verdict for o in outcomes)
    refusals = collections.Counter(shape(o.message) for o in outcomes if o.verdict == "refused")
    lines = [f"{n:6}  {v}" for v, n in verdicts.most_common()]
    lines += ["", "refusals by message (numbers and hashes blanked):"]
    lines += [f"{n:6}  {m}" for m, n in refusals.most_common(25)]
    return "\n".join(lines)


def shape(message: str) -> str:
    """A refusal's message with its numbers, names and hashes blanked, to group the refusals."""
    return re.sub(r"'[^']*'|\d+(\.\d+)?|[0-9a-f]{12}…", "#", message)[:150]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=20.0, help="seconds before a case counts as hung")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="parley-fuzz-hub-"))
    os.environ.update(environment(root))
    for key in ("HF_TOKEN", "HF_HUB_OFFLINE", "HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"):
        os.environ.pop(key, None)
    started = time.perf_counter()

    def report(outcome: Outcome) -> None:
        if outcome.failed:
            print(
                f"FAILED #{outcome.case.number} ({outcome.case.description}): {outcome.verdict}\n"
                f"{outcome.message[-2000:]}",
                flush=True,
            )
        if outcome.case.number % 250 == 0:
            print(f"{outcome.case.number}/{args.count} cases, {time.perf_counter() - started:.0f} s", flush=True)

    outcomes = fuzz(root, args.seed, args.count, args.limit, report)
    failed = [o for o in outcomes if o.failed]
    print(
        f"\n{len(outcomes)} cases in {time.perf_counter() - started:.0f} s (seed {args.seed}), "
        f"slowest {max(o.seconds for o in outcomes):.1f} s\n{summary(outcomes)}"
    )
    print(f"\n{len(failed)} crashed, hung, touched files outside the cache or refused without a one-line message")
    shutil.rmtree(root, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
