"""Runtime hook of the frozen Parley app: runs before any of its code.

- The ggml backends must come from the bundle's own native folder, the same build as the
  libggml-base the cffi module is linked with (a CPU backend of another ggml build loads and
  then crashes), so PARLEY_LIB_DIR is set to it even if the environment named another folder.
- On Linux, sounddevice finds PortAudio with ``ctypes.util.find_library("portaudio")``, which
  PyInstaller does not redirect into the bundle: without this it reports "PortAudio library
  not found" although the library is bundled (or it would pick a system copy).
"""

import os
import sys


def _point_at_bundle() -> None:
    base = sys._MEIPASS  # type: ignore[attr-defined]  # set by PyInstaller's bootloader
    os.environ["PARLEY_LIB_DIR"] = os.path.join(base, "parley", "engine", "_native")
    portaudio = os.path.join(base, "libportaudio.so.2")
    if sys.platform.startswith("linux") and os.path.isfile(portaudio):
        import ctypes.util

        system_find_library = ctypes.util.find_library

        def find_library(name: str) -> str | None:
            return portaudio if name == "portaudio" else system_find_library(name)

        ctypes.util.find_library = find_library


_point_at_bundle()
del _point_at_bundle
