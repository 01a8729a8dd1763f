"""Silero VAD, from the safetensors the ``silero-vad`` package ships to whisper.cpp's VAD format.

whisper.cpp (1.8) runs Silero VAD on ggml (``whisper_vad_*``), so the neural voice activity
detector shares Parley's one ggml like the two engines.  Its loader reads a small ggml-style
file: a header of the network's dimensions and 15 named tensors, the convolution weights in
float16.  The ``silero-vad`` package (MIT) carries the 16 kHz model as ``silero_vad_16k.safetensors``
(float32, 15 tensors); this module checks that file against the exact names, shapes and types the
network has, before any of it reaches native code (whisper.cpp trusts the header it reads), and
writes whisper.cpp's file from it.

The output is small (under 1 MB) and made in memory on each call, so the cached copy is simply
compared with it and rewritten when it differs: no sidecar, nothing to go stale.
"""

from __future__ import annotations

import itertools
import json
import struct
from pathlib import Path

import numpy as np

from ..atomic import atomic_write
from ..errors import ModelFileError, UntrustedFileError
from ..formats import GGML_MAGIC_U32
from ..untrusted import read_bytes

MAX_SOURCE_BYTES = 4 << 20  # the 16 kHz model is 1.2 MB
MAX_HEADER_BYTES = 64 << 10
VERSION = (6, 2, 3)  # the silero-vad package these weights come from (written into the file)
WINDOW = 512  # samples per probability (32 ms at 16 kHz)
CONTEXT = 64
ENCODER = ((129, 128), (128, 64), (64, 64), (64, 128))  # (in, out) channels, kernel 3
LSTM = 128
KERNEL = 3

# safetensors name -> (shape, whisper.cpp name, float16?)
_TENSORS: dict[str, tuple[tuple[int, ...], str, bool]] = {
    "stft_conv.weight": ((258, 1, 256), "_model.stft.forward_basis_buffer", True),
    **{
        f"conv{i + 1}.weight": ((c_out, c_in, KERNEL), f"_model.encoder.{i}.reparam_conv.weight", True)
        for i, (c_in, c_out) in enumerate(ENCODER)
    },
    **{
        f"conv{i + 1}.bias": ((c_out,), f"_model.encoder.{i}.reparam_conv.bias", False)
        for i, (_, c_out) in enumerate(ENCODER)
    },
    "lstm_cell.weight_ih": ((4 * LSTM, LSTM), "_model.decoder.rnn.weight_ih", False),
    "lstm_cell.weight_hh": ((4 * LSTM, LSTM), "_model.decoder.rnn.weight_hh", False),
    "lstm_cell.bias_ih": ((4 * LSTM,), "_model.decoder.rnn.bias_ih", False),
    "lstm_cell.bias_hh": ((4 * LSTM,), "_model.decoder.rnn.bias_hh", False),
    "final_conv.weight": ((1, LSTM, 1), "_model.decoder.decoder.2.weight", True),
    "final_conv.bias": ((1,), "_model.decoder.decoder.2.bias", False),
}

# whisper.cpp's tensor shapes (ggml order, fastest dimension first), where they are not simply
# the safetensors shape reversed with length-1 dimensions dropped.
_GGML_SHAPES = {"stft_conv.weight": (256, 1, 258), "final_conv.weight": (LSTM,)}


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """The tensors of a Silero VAD safetensors file, checked against the network's layout."""
    try:
        data = read_bytes(path, MAX_SOURCE_BYTES)
    except UntrustedFileError as exc:
        raise ModelFileError(
            path, f"the Silero VAD model cannot be read: {str(exc).removeprefix(f'{path}: ')}"
        ) from None
    return parse_safetensors(path, data)


def parse_safetensors(path: Path, data: bytes) -> dict[str, np.ndarray]:
    """Parse ``data`` (the bytes of ``path``): every tensor must be one of Silero's, float32, of
    its exact shape, within the file and not overlapping another."""
    if len(data) < 8:
        raise ModelFileError(path, "the file is too short to be a safetensors file")
    (header_len,) = struct.unpack("<Q", data[:8])
    if header_len > min(MAX_HEADER_BYTES, len(data) - 8):
        raise ModelFileError(path, "the safetensors header is larger than the file allows")
    try:
        header = json.loads(data[8 : 8 + header_len])
    except (UnicodeDecodeError, ValueError):
        raise ModelFileError(path, "the safetensors header is not valid JSON") from None
    if not isinstance(header, dict):
        raise ModelFileError(path, "the safetensors header is not a table of tensors")
    header.pop("__metadata__", None)
    if set(header) != set(_TENSORS):
        missing, extra = sorted(set(_TENSORS) - set(header)), sorted(set(header) - set(_TENSORS))
        raise ModelFileError(
            path,
            f"not Silero VAD's 16 kHz model (missing {missing[:3]}, unexpected {[str(e)[:40] for e in extra[:3]]})",
        )
    body = memoryview(data)[8 + header_len :]
    tensors: dict[str, np.ndarray] = {}
    spans = []
    for name, (shape, _, _) in _TENSORS.items():
        entry = header[name]
        if not isinstance(entry, dict) or entry.get("dtype") != "F32" or entry.get("shape") != list(shape):
            raise ModelFileError(path, f"tensor {name} is not float32 of shape {list(shape)}")
        offsets = entry.get("data_offsets")
        size = 4 * int(np.prod(shape))
        if (
            not isinstance(offsets, list)
            or len(offsets) != 2
            or not all(isinstance(o, int) and not isinstance(o, bool) for o in offsets)
            or offsets[1] - offsets[0] != size
            or offsets[0] < 0
            or offsets[1] > len(body)
        ):
            raise ModelFileError(path, f"tensor {name} does not lie within the file")
        spans.append((offsets[0], offsets[1]))
        tensors[name] = np.frombuffer(body[offsets[0] : offsets[1]], dtype="<f4").reshape(shape)
    spans.sort()
    if any(a_end > b_start for (_, a_end), (b_start, _) in itertools.pairwise(spans)):
        raise ModelFileError(path, "two tensors of the file overlap")
    if not all(np.isfinite(t).all() for t in tensors.values()):
        raise ModelFileError(path, "the model holds values that are not finite numbers")
    return tensors


def _parts(tensors: dict[str, np.ndarray]) -> list[tuple[bytes, bool]]:
    """whisper.cpp's VAD file in pieces, each marked True when it is tensor data."""
    kind = b"silero-16k"
    head = [struct.pack("<Ii", GGML_MAGIC_U32, len(kind)), kind, struct.pack("<3i", *VERSION)]
    head.append(struct.pack("<3i", WINDOW, CONTEXT, len(ENCODER)))
    head += [struct.pack("<3i", c_in, c_out, KERNEL) for c_in, c_out in ENCODER]
    head.append(struct.pack("<4i", LSTM, LSTM, LSTM, 1))  # LSTM in and hidden, final conv in and out
    parts = [(b"".join(head), False)]
    for name, (shape, ggml_name, half) in _TENSORS.items():
        ne = _GGML_SHAPES.get(name) or tuple(reversed([d for d in shape if d != 1] or [1]))
        encoded = ggml_name.encode()
        header = struct.pack("<3i", len(ne), len(encoded), 1 if half else 0) + struct.pack(f"<{len(ne)}i", *ne)
        parts.append((header + encoded, False))
        parts.append((np.ascontiguousarray(tensors[name], dtype="<f2" if half else "<f4").tobytes(), True))
    return parts


def whisper_vad_bytes(tensors: dict[str, np.ndarray]) -> bytes:
    """whisper.cpp's VAD file for checked ``tensors`` (``parse_safetensors``)."""
    return b"".join(part for part, _ in _parts(tensors))


def has_vad_layout(data: bytes) -> bool:
    """Whether ``data`` is laid out exactly as ``whisper_vad_bytes`` writes it (any weights)."""
    offset = 0
    for part, is_data in _parts({name: np.zeros(shape, np.float32) for name, (shape, _, _) in _TENSORS.items()}):
        if not is_data and data[offset : offset + len(part)] != part:
            return False
        offset += len(part)
    return len(data) == offset


def ensure_vad_model(source: Path, cache_dir: Path) -> Path:
    """``cache_dir/silero-vad-<version>.bin``, (re)written from ``source`` when it differs."""
    wanted = whisper_vad_bytes(read_safetensors(source))
    output = Path(cache_dir) / f"silero-vad-{'.'.join(map(str, VERSION))}.bin"
    try:
        current = read_bytes(output, len(wanted))
    except UntrustedFileError:  # missing, or not what it should be: written anew
        current = None
    if current != wanted:
        output.parent.mkdir(parents=True, exist_ok=True)
        with atomic_write(output) as f:  # a full disk: DiskFullError
            f.write(wanted)
    return output
