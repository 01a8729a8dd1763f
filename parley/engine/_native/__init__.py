"""The runtime library folder: ggml, its backend modules, llama, whisper and the cffi module.

Everything here but this file is build output of ``native/build.py`` (or of ``pip install``).
The folder is handed to ``ggml_backend_load_all_from_path`` so backends always come from
this one build, never from beside the Python executable or the current directory.
"""

from pathlib import Path

LIB_DIR = Path(__file__).resolve().parent
