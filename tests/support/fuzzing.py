"""Mutated model and audio files through the ``parley`` command, each run in its own process.

Used by ``tests/cli/test_fuzz_files.py`` (a few dozen cases, fixed seed) and ``bench/fuzz_files.py``
(a thousand, with outcome counts).  Native code aborts the process on input it does not expect,
so every file the command is given must be refused in Python first: whatever the mutation, the
process must exit by itself, with a message and no Python traceback, and in time.

Seed files are small real ones: a tiny random-weight llama GGUF (GPT-2's tokenizer cut to 2048
tokens), a tiny synthetic whisper.cpp model converted from CTranslate2, and one short clip
as WAV, FLAC, OGG/Vorbis and MP3.  Mutations aim at what parsers trust: the count, length,
type and dimension fields of each format (overwritten with huge, zero, negative or off-by-one
values), bit flips and overwritten bytes (mostly in the header), truncation, and spliced
chunks.  A case is rebuilt from (seed number, kind, case number), so any finding can be
replayed on its own.
"""

from __future__ import annotations

import collections
import dataclasses
import os
import random
import re
import signal
import struct
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import soundfile

REPO = Path(__file__).resolve().parents[2]
KINDS = ("gguf", "whisper", "audio")
TIMEOUT_S = 120.0  # per run; only reached by a hang


@dataclasses.dataclass(frozen=True)
class Field:
    """A little-endian integer field of a seed file that a parser trusts."""

    offset: int
    size: int  # bytes: 1, 2, 4 or 8
    what: str


@dataclasses.dataclass
class Seed:
    kind: str
    path: Path
    header_end: int  # where the part parsers walk ends (tensor data or audio frames follow)
    fields: list[Field]


@dataclasses.dataclass(frozen=True)
class Case:
    kind: str
    number: int
    seed_path: Path
    description: str
    data: bytes


@dataclasses.dataclass(frozen=True)
class Outcome:
    case: Case
    returncode: int | None  # None: timed out
    stderr: str

    @property
    def verdict(self) -> str:
        if self.returncode is None:
            return "hang"
        if self.returncode < 0:
            return f"signal {signal.Signals(-self.returncode).name}"
        if "Traceback (most recent call last)" in self.stderr:
            return "traceback"
        if self.returncode != 0 and not self.message:
            return f"exit {self.returncode} without a message"
        return "exit 0" if self.returncode == 0 else f"exit {self.returncode}"

    @property
    def failed(self) -> bool:
        verdict = self.verdict
        return verdict in ("hang", "traceback") or verdict.startswith("signal") or verdict.endswith("without a message")

    @property
    def message(self) -> str:
        """The last line of stderr, with numbers, paths and quoted names generalised, so that
        outcomes can be grouped."""
        lines = [line for line in self.stderr.splitlines() if line.strip() and not line.startswith("\r")]
        last = lines[-1].strip() if lines else ""
        last = re.sub(r"(/[^\s:'\"]+)+", "PATH", last)
        last = re.sub(r"'[^']*'", "'X'", last)
        last = re.sub(r"-?\d+(\.\d+)?", "N", last)
        return last[:160]


# --------------------------------------------------------------------------- seeds


def make_seeds(folder: Path) -> dict[str, list[Seed]]:
    """Write the seed files into ``folder`` and locate their fields."""
    from parley.engine.modelfiles.whisper_convert import convert_ct2_whisper
    from tests.support.ct2_fixtures import write_ct2_whisper
    from tests.support.tinymodels import write_tiny_llama_gguf

    folder.mkdir(parents=True, exist_ok=True)
    llama = write_tiny_llama_gguf(folder / "seed-llama.gguf", n_vocab=2048, n_ctx=256, never_ends=True)
    whisper = folder / "seed-whisper.bin"
    convert_ct2_whisper(write_ct2_whisper(folder / "ct2", size="tiny")["source"], whisper)
    t = np.arange(16000) / 16000
    clip = (0.3 * np.sin(2 * np.pi * 440 * t) * np.hanning(len(t))).astype(np.float32)
    audio = []
    for name, subtype, rate, channels in (
        ("seed.wav", "PCM_16", 16000, 1),
        ("seed.flac", "PCM_16", 44100, 2),
        ("seed.ogg", "VORBIS", 22050, 1),
        ("seed.mp3", "MPEG_LAYER_III", 16000, 1),
    ):
        samples = np.interp(np.arange(int(len(clip) * rate / 16000)) * 16000 / rate, np.arange(len(clip)), clip)
        data = np.repeat(samples[:, None], channels, axis=1).astype(np.float32)
        path = folder / name
        soundfile.write(path, data, rate, subtype=subtype)
        audio.append(Seed("audio", path, *_audio_fields(path.read_bytes(), path.suffix)))
    return {
        "gguf": [Seed("gguf", llama, *_gguf_fields(llama.read_bytes()))],
        "whisper": [Seed("whisper", whisper, *_whisper_fields(whisper.read_bytes()))],
        "audio": audio,
    }


def _gguf_fields(data: bytes) -> tuple[int, list[Field]]:
    """The counts, lengths, types, integer values, dimensions and offsets of a GGUF header."""
    fields = [Field(4, 4, "version"), Field(8, 8, "tensor count"), Field(16, 8, "metadata count")]
    n_tensors, n_kv = struct.unpack_from("<qq", data, 8)
    pos = 24
    scalar = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
    integer = {0, 1, 2, 3, 4, 5, 10, 11}

    def string(what: str) -> str:
        nonlocal pos
        (n,) = struct.unpack_from("<Q", data, pos)
        fields.append(Field(pos, 8, f"length of {what}"))
        text = data[pos + 8 : pos + 8 + n].decode("utf-8", "replace")
        pos += 8 + n
        return text

    for _ in range(n_kv):
        key = string("a key")
        (vtype,) = struct.unpack_from("<I", data, pos)
        fields.append(Field(pos, 4, f"type of {key}"))
        pos += 4
        if vtype == 8:
            string(key)
        elif vtype == 9:
            (itype,) = struct.unpack_from("<I", data, pos)
            (count,) = struct.unpack_from("<Q", data, pos + 4)
            fields += [Field(pos, 4, f"item type of {key}"), Field(pos + 4, 8, f"count of {key}")]
            pos += 12
            for i in range(count):
                if itype == 8:
                    (n,) = struct.unpack_from("<Q", data, pos)
                    if i < 4:
                        fields.append(Field(pos, 8, f"length of item {i} of {key}"))
                    pos += 8 + n
                else:
                    pos += scalar[itype]
        else:
            if vtype in integer:
                fields.append(Field(pos, scalar[vtype], f"value of {key}"))
            pos += scalar[vtype]
    for _ in range(n_tensors):
        name = string("a tensor name")
        (n_dims,) = struct.unpack_from("<I", data, pos)
        fields.append(Field(pos, 4, f"dimensions of {name}"))
        fields += [Field(pos + 4 + 8 * d, 8, f"dimension {d} of {name}") for d in range(n_dims)]
        pos += 4 + 8 * n_dims
        fields += [Field(pos, 4, f"type of {name}"), Field(pos + 4, 8, f"offset of {name}")]
        pos += 12
    return pos, fields


def _whisper_fields(data: bytes) -> tuple[int, list[Field]]:
    """Hyperparameters, the mel and vocabulary sizes, token lengths and tensor headers."""
    from parley.engine.modelfiles.whisper_file import GGML_TYPES

    names = (
        "n_vocab n_audio_ctx n_audio_state n_audio_head n_audio_layer n_text_ctx n_text_state "
        "n_text_head n_text_layer n_mels ftype"
    ).split()
    fields = [Field(4 + 4 * i, 4, name) for i, name in enumerate(names)]
    fields += [Field(48, 4, "n_mel"), Field(52, 4, "n_fft")]
    n_mel, n_fft = struct.unpack_from("<ii", data, 48)
    pos = 56 + 4 * n_mel * n_fft
    fields.append(Field(pos, 4, "vocabulary size"))
    (count,) = struct.unpack_from("<i", data, pos)
    pos += 4
    for i in range(count):
        (n,) = struct.unpack_from("<I", data, pos)
        if i < 4 or i == count - 1:
            fields.append(Field(pos, 4, f"length of token {i}"))
        pos += 4 + n
    header_end = pos
    while pos < len(data):
        n_dims, name_len, ttype = struct.unpack_from("<3i", data, pos)
        ne = struct.unpack_from(f"<{n_dims}i", data, pos + 12)
        name = data[pos + 12 + 4 * n_dims : pos + 12 + 4 * n_dims + name_len].decode()
        fields += [
            Field(pos, 4, f"dimensions of {name}"),
            Field(pos + 4, 4, f"name length of {name}"),
            Field(pos + 8, 4, f"type of {name}"),
        ]
        fields += [Field(pos + 12 + 4 * d, 4, f"dimension {d} of {name}") for d in range(n_dims)]
        pos += 12 + 4 * n_dims + name_len + GGML_TYPES[ttype].row_bytes(ne[0]) * int(np.prod(ne[1:]))
    return header_end, fields


def _audio_fields(data: bytes, suffix: str) -> tuple[int, list[Field]]:
    if suffix == ".wav":
        fields = [Field(4, 4, "RIFF size")]
        pos = 12
        while pos + 8 <= len(data):
            chunk, size = data[pos : pos + 4], struct.unpack_from("<I", data, pos + 4)[0]
            fields.append(Field(pos + 4, 4, f"size of chunk {chunk!r}"))
            if chunk == b"fmt ":
                fields += [
                    Field(pos + 8, 2, "format"),
                    Field(pos + 10, 2, "channels"),
                    Field(pos + 12, 4, "rate"),
                    Field(pos + 16, 4, "byte rate"),
                    Field(pos + 20, 2, "block align"),
                    Field(pos + 22, 2, "bits per sample"),
                ]
            if chunk == b"data":
                return pos + 8, fields
            pos += 8 + size + (size & 1)
        return pos, fields
    if suffix == ".flac":  # STREAMINFO: block sizes, frame sizes, rate/channels/bits, total samples
        return 42, [
            Field(8, 2, "min block size"),
            Field(10, 2, "max block size"),
            Field(12, 4, "frame sizes"),
            Field(18, 4, "rate, channels and bits"),
            Field(21, 1, "bits and total samples"),
            Field(22, 4, "total samples"),
        ]
    return 256, []  # Ogg pages, MPEG frames: bit flips and bytes in the first packets


# --------------------------------------------------------------------------- mutations

_EDGE_VALUES = (
    0,
    1,
    2,
    -1,
    0x7F,
    0xFF,
    0x7FFF,
    0xFFFF,
    0x7FFFFFFF,
    0x80000000,
    0xFFFFFFFF,
    1 << 32,
    1 << 40,
    (1 << 63) - 1,
)


def mutate(seed: Seed, rng: random.Random) -> tuple[bytes, str]:
    """One to three mutations of ``seed``'s bytes, and what they were."""
    data = bytearray(seed.path.read_bytes())
    done = []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        strategy = rng.choices(("field", "flip", "bytes", "truncate", "splice"), weights=(40, 25, 15, 12, 8))[0]
        if strategy == "field" and not seed.fields:
            strategy = "flip"
        if strategy == "field":
            field = rng.choices(seed.fields, weights=[_weight(f) for f in seed.fields])[0]
            if field.offset + field.size > len(data):
                continue
            old = int.from_bytes(data[field.offset : field.offset + field.size], "little")
            value = rng.choice((*_EDGE_VALUES, old + 1, old - 1, old * 2, old * 1000, rng.getrandbits(8 * field.size)))
            value %= 1 << (8 * field.size)
            data[field.offset : field.offset + field.size] = value.to_bytes(field.size, "little")
            done.append(f"{field.what} = {value} (was {old})")
        elif strategy == "flip":
            for _ in range(rng.randint(1, 8)):
                pos = _position(rng, seed, len(data))
                data[pos] ^= 1 << rng.randrange(8)
            done.append("bit flips")
        elif strategy == "bytes":
            pos = _position(rng, seed, len(data))
            n = rng.randint(1, 16)
            data[pos : pos + n] = bytes(rng.getrandbits(8) for _ in range(n))
            done.append(f"{n} random bytes at {pos}")
        elif strategy == "truncate":
            cut = _position(rng, seed, len(data)) if rng.random() < 0.7 else rng.randrange(len(data))
            del data[cut:]
            done.append(f"cut at {cut}")
            if not data:
                break
        else:
            start = _position(rng, seed, len(data))
            n = rng.randint(1, 64)
            chunk = bytes(data[start : start + n])
            at = _position(rng, seed, len(data))
            if rng.random() < 0.5:
                data[at:at] = chunk
                done.append(f"{len(chunk)} bytes from {start} inserted at {at}")
            else:
                del data[at : at + n]
                done.append(f"{n} bytes deleted at {at}")
    return bytes(data), "; ".join(done) or "unchanged"


def _weight(field: Field) -> int:
    """Hyperparameters and tensor shapes are what native code trusts most: pick them more often."""
    if field.what.startswith(("value of", "dimension", "n_")):
        return 6
    if field.what.startswith(("type of", "count of", "item type", "channels", "rate")):
        return 3
    return 1


def _position(rng: random.Random, seed: Seed, size: int) -> int:
    """A byte position, mostly inside the part parsers walk."""
    limit = min(seed.header_end, size) if rng.random() < 0.8 else size
    return rng.randrange(max(1, limit))


def cases(seeds: dict[str, list[Seed]], seed: int, count: int, kinds: tuple[str, ...] = KINDS) -> Iterator[Case]:
    """``count`` cases, spread evenly over ``kinds``; case ``i`` depends only on (seed, kind, i)."""
    for i in range(count):
        kind = kinds[i % len(kinds)]
        rng = random.Random(f"{seed}:{kind}:{i}")
        source = rng.choice(seeds[kind])
        data, description = mutate(source, rng)
        yield Case(kind, i, source.path, description, data)


# --------------------------------------------------------------------------- running


def run(case: Case, folder: Path, seeds: dict[str, list[Seed]], timeout: float = TIMEOUT_S) -> Outcome:
    """Write the case's file and give it to the command; the other input is a good seed file."""
    path = folder / f"case-{case.kind}-{case.number}{case.seed_path.suffix}"
    path.write_bytes(case.data)
    whisper, clip = seeds["whisper"][0].path, seeds["audio"][0].path
    common = ["--device", "cpu", "--threads", "1"]
    if case.kind == "gguf":
        args = ["chat", "--model", str(path), "--prompt", "hi", "--max-tokens", "2", "--temp", "0", *common]
    elif case.kind == "whisper":
        args = ["transcribe", "--model", str(path), str(clip), *common]
    else:
        args = ["transcribe", "--model", str(whisper), str(path), *common]
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONFAULTHANDLER": "1"}
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "parley", *args],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            env=env,
            stdin=subprocess.DEVNULL,
        )
        outcome = Outcome(case, proc.returncode, proc.stderr)
    except subprocess.TimeoutExpired as exc:
        stderr = exc.stderr.decode("utf-8", "replace") if isinstance(exc.stderr, bytes) else (exc.stderr or "")
        outcome = Outcome(case, None, stderr)
    if not outcome.failed:
        path.unlink()
    return outcome


def summary(outcomes: list[Outcome]) -> str:
    """Counts by kind and verdict, then the messages grouped, most frequent first."""
    lines = []
    for kind in KINDS:
        mine = [o for o in outcomes if o.case.kind == kind]
        if not mine:
            continue
        verdicts = collections.Counter(o.verdict for o in mine)
        lines.append(f"{kind}: {len(mine)} runs: " + ", ".join(f"{v} {n}" for v, n in sorted(verdicts.items())))
        messages = collections.Counter(f"[{o.verdict}] {o.message}" for o in mine)
        lines += [f"  {n:4d}  {message}" for message, n in messages.most_common()]
    return "\n".join(lines)
