"""One lock around the code that loads native libraries and starts their threads.

ggml's backend loading (``native.load_backends``: each CPU variant is opened, scored and
closed again, and the chosen one starts OpenMP) and PortAudio's initialisation (importing
``sounddevice``, or re-initialising it to rescan devices: ALSA opens its PulseAudio plugin,
which starts its own threads) run on different worker threads when the app starts.  Once, in a
full test run, PortAudio's initialisation crashed the process with a segmentation fault while
the other thread was inside ggml's backend loading.  Both happen once or twice per run and take
milliseconds, so they simply never overlap.

Both also load libgomp (ggml's CPU backend runs its threads with OpenMP; this system's
PortAudio pulls it in too), which reads its environment once, when it is loaded: whichever
comes first calls ``set_openmp_waiting`` before it.
"""

from __future__ import annotations

import os
import threading

NATIVE_LOADING = threading.RLock()


def set_openmp_waiting() -> None:
    """How ggml's CPU threads wait at a barrier; call before libgomp is loaded.

    Speech and chat compute on threads of their own, so libgomp counts more threads than cores
    once both models are loaded, and then spins only 100 times at each barrier before it sleeps
    and must be woken (a futex call per graph node): with a chat model loaded beside it, whisper
    took 280 ms instead of 190 for an 8 s take on 2 cores.  ``OMP_WAIT_POLICY=active`` makes
    that 1000 spins (176 ms).  ``GOMP_SPINCOUNT=1000`` holds a process that is not
    oversubscribed (``parley chat``, ``serve``, the app with one model) to the same 1000 spins,
    not libgomp's 300,000: when another program keeps the cores busy, a thread that spins that
    long at every barrier waits for its partner to be scheduled again, and on 2 busy cores the
    starter wrote 0.4-0.6 tokens/s instead of 50 (1000 spins: 21-29, passive: 24-51, one
    thread: 52).  A user who sets either variable keeps their own choice.
    """
    if "OMP_WAIT_POLICY" not in os.environ and "GOMP_SPINCOUNT" not in os.environ:
        os.environ["OMP_WAIT_POLICY"] = "active"
        os.environ["GOMP_SPINCOUNT"] = "1000"
