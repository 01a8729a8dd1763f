"""One lock around the code that loads native libraries and starts their threads.

ggml's backend loading (``native.load_backends``: each CPU variant is opened, scored and
closed again, and the chosen one starts OpenMP) and PortAudio's initialisation (importing
``sounddevice``, or re-initialising it to rescan devices: ALSA opens its PulseAudio plugin,
which starts its own threads) run on different worker threads when the app starts.  Once, in a
full test run, PortAudio's initialisation crashed the process with a segmentation fault while
the other thread was inside ggml's backend loading.  Both happen once or twice per run and take
milliseconds, so they simply never overlap.
"""

from __future__ import annotations

import threading

NATIVE_LOADING = threading.RLock()
