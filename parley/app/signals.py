"""``emit()``: the one way app code emits a Qt signal from Python.

PySide6 6.12.0's ``SignalInstance.emit`` returns ``True`` without taking a reference to it,
so every emit from Python leaves ``True``'s reference count one lower.  On Python < 3.12,
where ``True`` is not immortal, the count starts near 600: streaming a 600-token reply
would make the interpreter abort ("bool_dealloc: deallocating True or False").  ``emit``
gives back the missing reference when, and only when, the running PySide has this bug, so
the code stays correct on fixed versions.  Connecting a signal to a signal, and signals
emitted by Qt itself, are not affected.
"""

from __future__ import annotations

import ctypes
import sys
from typing import Any

from PySide6.QtCore import QObject, Signal, SignalInstance


class _Probe(QObject):
    fired = Signal()


def emit_drops_a_reference(signal: Any = None) -> bool:
    """Whether ``signal.emit()`` (default: a real Qt signal of this PySide) loses a reference to
    ``True``; what the probe itself cost is given back."""
    probe = _Probe()  # kept alive while its signal is used
    signal = signal if signal is not None else probe.fired
    tries = 16
    before = sys.getrefcount(True)
    for _ in range(tries):
        signal.emit()
    lost = before - sys.getrefcount(True)
    ctypes.pythonapi.Py_IncRef.argtypes = [ctypes.py_object]
    for _ in range(max(0, lost)):  # repair what the probe itself cost
        ctypes.pythonapi.Py_IncRef(True)
    return lost >= tries // 2  # other threads may have moved the count a little


_REPAIR = emit_drops_a_reference()


def emit(signal: SignalInstance, *args: Any) -> None:
    """``signal.emit(*args)``, safe from any thread."""
    result = signal.emit(*args)  # type: ignore[func-returns-value]  # stub says None; PySide returns True
    if _REPAIR:
        ctypes.pythonapi.Py_IncRef(result)
