"""Silero VAD's network written out in numpy, from the package's safetensors: the reference the
ggml VAD (``parley.engine.audio.silero``) is checked against.

It follows whisper.cpp's framing (each 512-sample window reflect-padded by 64 on both sides,
the LSTM state carried between windows) and rounds to float16 where ggml does (the convolution
weights and their inputs), so the two must agree closely; a wrong name, shape or transpose in the converter
cannot.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def _conv1d(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, stride: int, pad: int) -> np.ndarray:
    """x [c_in, t], w [c_out, c_in, k] -> [c_out, t_out]; the input rounded to float16 as ggml's
    im2col does for a float16 kernel."""
    x = np.pad(x.astype(np.float16).astype(np.float64), ((0, 0), (pad, pad)))
    cols = sliding_window_view(x, w.shape[2], axis=1)[:, ::stride, :]  # [c_in, t_out, k]
    out = np.einsum("oik,itk->ot", w, cols)
    return out if b is None else out + b[:, None]


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


class ReferenceVAD:
    def __init__(self, tensors: dict[str, np.ndarray]) -> None:
        half = ("stft_conv.weight", "conv1.weight", "conv2.weight", "conv3.weight", "conv4.weight", "final_conv.weight")
        self.t = {k: (v.astype(np.float16) if k in half else v).astype(np.float64) for k, v in tensors.items()}
        self.h = np.zeros(128)
        self.c = np.zeros(128)

    def window(self, samples: np.ndarray) -> float:
        t = self.t
        x = np.pad(samples.astype(np.float64), 64, mode="reflect")[None, :]
        spec = _conv1d(x, t["stft_conv.weight"], None, 128, 0)  # [258, 4]
        x = np.sqrt(spec[:129] ** 2 + spec[129:] ** 2)
        for i, stride in ((1, 1), (2, 2), (3, 2), (4, 1)):
            x = np.maximum(_conv1d(x, t[f"conv{i}.weight"], t[f"conv{i}.bias"], stride, 1), 0.0)
        x = x[:, 0]
        gates = (
            t["lstm_cell.weight_ih"] @ x
            + t["lstm_cell.bias_ih"]
            + t["lstm_cell.weight_hh"] @ self.h
            + t["lstm_cell.bias_hh"]
        )
        i, f, g, o = np.split(gates, 4)
        self.c = _sigmoid(f) * self.c + _sigmoid(i) * np.tanh(g)
        self.h = _sigmoid(o) * np.tanh(self.c)
        out = t["final_conv.weight"][0, :, 0] @ np.maximum(self.h, 0.0) + t["final_conv.bias"][0]
        return float(_sigmoid(out))

    def probabilities(self, audio: np.ndarray) -> np.ndarray:
        n = len(audio) // 512
        return np.array([self.window(audio[i * 512 : (i + 1) * 512]) for i in range(n)])
