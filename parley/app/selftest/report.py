"""The machine-readable report of ``parley --self-test --json FILE``.

A windowed Windows executable has no stdout and installer checks want facts rather than
printed lines, so the self-test can also write what it saw as JSON: whether this is a frozen
bundle, the compute devices and the CPU variant ggml loaded, which native libraries are mapped
(each ggml library must be mapped exactly once), where PortAudio was loaded from, the
transcript of the shipped clip, the reply and its token count, whether the window was shown,
and the time of each stage.

Everything is read after the test has ended, from the self-test's printed stage lines, the
controller's public state and the process itself (``/proc/self/maps`` on Linux, dyld's image
list on macOS, the process's module list on Windows); this module changes nothing.
"""

from __future__ import annotations

import dataclasses
import json
import os
import platform
import re
import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

# Native libraries of the shared build, by file-name prefix: one real copy of each may be mapped.
NATIVE_PREFIXES = ("libggml", "libllama", "libwhisper", "ggml", "llama", "whisper")
_LIBRARY_SUFFIX = re.compile(r"\.(so(\.\d+)*|dylib|dll)$")
# "  stage name          12.34 s   detail" or "  stage name             —     detail" (see SelfTest.line)
_TIMED_LINE = re.compile(r"^  (?P<stage>\S.*?)\s+(?P<seconds>\d+\.\d+) s(?:\s+(?P<detail>.*))?$")
_UNTIMED_LINE = re.compile(r"^  (?P<stage>\S.*?)\s+—(?:\s+(?P<detail>.*))?$")


@dataclasses.dataclass(frozen=True)
class Stage:
    name: str
    seconds: float | None
    detail: str


@dataclasses.dataclass(frozen=True)
class MappedFile:
    path: str
    device: str  # "major:minor" of the file system, as /proc/self/maps shows it
    inode: int


@dataclasses.dataclass
class SelfTestReport:
    """What one self-test run saw; ``to_json`` gives the file's contents."""

    passed: bool
    exit_code: int
    reason: str
    parley_version: str
    python: str
    platform: str
    executable: str
    frozen: bool
    bundle_dir: str | None
    qt_platform: str | None
    qt_version: str  # the Qt that runs (PySide6's own version, which names its Qt)
    window_shown: bool
    window_shown_s: float | None
    stages: dict[str, float | None]
    transcript: str | None
    expected_transcript: str | None
    word_error_rate: float | None
    reply: str | None
    reply_tokens: int | None
    reply_streamed: bool
    devices: list[dict[str, Any]] | None
    cpu_variant: str | None
    models: dict[str, dict[str, Any]]
    model_choice: str | None  # the chat model Parley chose on this machine, and why (the self-test measures first)
    lib_dir: str | None
    native_libraries: dict[str, list[str]]
    one_copy_of_each_native_library: bool
    portaudio: str | None
    portaudio_inside_bundle: bool | None
    peak_rss_mib: float | None
    lines: list[str]

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), indent=2, ensure_ascii=False) + "\n"


# --------------------------------------------------------------------------- the option


def json_option(argv: Sequence[str]) -> tuple[list[str], Path | None]:
    """Split ``--json FILE`` (or ``--json=FILE``) off ``argv``; check the file can be written.

    Raises ValueError with a message for the user when the option is incomplete or the file's
    folder does not exist, before anything slow has started.
    """
    rest: list[str] = []
    path: Path | None = None
    args = list(argv)
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--json":
            if i + 1 >= len(args) or args[i + 1].startswith("--"):
                raise ValueError("--json needs a file name: parley --self-test --json report.json")
            path, i = Path(args[i + 1]), i + 2
            continue
        if arg.startswith("--json="):
            if not arg.partition("=")[2]:
                raise ValueError("--json needs a file name: parley --self-test --json report.json")
            path = Path(arg.partition("=")[2])
        else:
            rest.append(arg)
        i += 1
    if path is not None:
        path = path.expanduser()
        if path.is_dir():
            raise ValueError(f"--json {path}: is a folder, not a file name")
        if not path.parent.is_dir():
            raise ValueError(f"--json {path}: the folder {path.parent} does not exist")
    return rest, path


def write_report(path: Path | None, test: Any, code: int, reason: str) -> None:
    """Write the report of a finished self-test (``test`` is the ``SelfTest``, or None when the
    app could not start); nothing when no ``--json`` was given. A report that cannot be made or
    written is said on stderr and the file is left absent: the test's own outcome stands."""
    if path is None:
        return
    try:
        text = collect(test, code, reason).to_json()
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except Exception as exc:  # noqa: BLE001  (the exit status must still be the test's)
        print(f"self-test: could not write the report {path}: {exc}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- collecting


def collect(test: Any, code: int, reason: str) -> SelfTestReport:
    """Gather the report from the ended self-test ``test`` (None: the app never started)."""
    from parley import __version__

    lines = list(getattr(test, "lines", []) or [])
    stages = parse_stage_lines(lines)
    by_name = {s.name: s for s in stages}
    controller = getattr(test, "controller", None)
    transcript, reply, tokens = conversation_facts(controller)
    expected = expected_transcript()
    wer = None
    if transcript is not None and expected is not None:
        from parley.engine.textmetrics import word_error_rate

        wer = round(word_error_rate(expected, transcript), 3)
    first, full = by_name.get("first token"), by_name.get("full reply")
    maps = read_maps()
    libraries = native_libraries(maps)
    bundle = bundle_dir()
    portaudio = portaudio_path(maps)
    models = loaded_models(controller)
    models_loaded = bool(models)  # then the native backends are loaded too
    native_dir = _lib_dir() if models_loaded else None
    window = by_name.get("window visible")
    return SelfTestReport(
        passed=code == 0,
        exit_code=code,
        reason=reason,
        parley_version=__version__,
        python=platform.python_version(),
        platform=f"{sys.platform}-{platform.machine()}",
        executable=sys.executable,
        frozen=bool(getattr(sys, "frozen", False)),
        bundle_dir=str(bundle) if bundle else None,
        qt_platform=_qt_platform(),
        qt_version=_qt_version(),
        window_shown=window is not None,
        window_shown_s=window.seconds if window else None,
        stages={s.name: s.seconds for s in stages},
        transcript=transcript,
        expected_transcript=expected,
        word_error_rate=wer,
        reply=reply,
        reply_tokens=tokens,
        reply_streamed=bool(
            first
            and full
            and first.seconds is not None
            and full.seconds is not None
            and first.seconds < full.seconds
            and (tokens or 0) > 1
        ),
        devices=_devices() if models_loaded else None,
        cpu_variant=_cpu_variant() if models_loaded else None,
        models=model_facts(models),
        model_choice=by_name["model choice"].detail if "model choice" in by_name else None,
        lib_dir=str(native_dir) if native_dir else None,
        native_libraries=libraries,
        one_copy_of_each_native_library=one_copy_each(libraries),
        portaudio=portaudio,
        portaudio_inside_bundle=inside(portaudio, bundle) if portaudio and bundle else None,
        peak_rss_mib=peak_rss_mib(),
        lines=lines,
    )


def parse_stage_lines(lines: Sequence[str]) -> list[Stage]:
    """The stages of the self-test's printed lines, in order (``SelfTest.line``'s format)."""
    stages = []
    for line in lines:
        timed = _TIMED_LINE.match(line)
        if timed:
            stages.append(Stage(timed["stage"], float(timed["seconds"]), timed["detail"] or ""))
            continue
        untimed = _UNTIMED_LINE.match(line)
        if untimed:
            stages.append(Stage(untimed["stage"], None, untimed["detail"] or ""))
    return stages


def conversation_facts(controller: Any) -> tuple[str | None, str | None, int | None]:
    """The transcript the app sent (the first user message), the reply and its token count."""
    book = getattr(controller, "book", None)
    messages = list(getattr(getattr(book, "current", None), "messages", []) or [])
    user = next((m for m in messages if m.role == "user"), None)
    answer = next((m for m in reversed(messages) if m.role == "assistant"), None)
    tokens = (answer.stats or {}).get("generated_tokens") if answer is not None else None
    return (
        user.content if user else None,
        answer.content if answer else None,
        int(tokens) if tokens is not None else None,
    )


def loaded_models(controller: Any) -> dict[str, Any]:
    """The models the app has loaded, by role (the controller's engine slots hold them)."""
    models = {role: getattr(getattr(controller, role, None), "model", None) for role in ("speech", "chat")}
    return {role: model for role, model in models.items() if model is not None}


def model_facts(models: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per role: the model file, the device it runs on and why, if it fell back to the CPU."""
    facts: dict[str, dict[str, Any]] = {}
    for role, model in models.items():
        choice = model.device
        facts[role] = {
            "path": str(model.path),
            "device": choice.device.name,
            "device_description": choice.device.description,
            "fallback_reason": choice.fallback_reason,
        }
    return facts


def expected_transcript() -> str | None:
    try:
        return resources.files("parley").joinpath("resources/selftest/question.txt").read_text("utf-8").strip()
    except OSError:
        return None


# --------------------------------------------------------------------------- the process


def read_maps(path: str = "/proc/self/maps") -> dict[str, MappedFile]:
    """Files mapped into this process, by path: ``/proc/self/maps`` on Linux, the images dyld
    loaded on macOS, the modules of the process on Windows."""
    if sys.platform == "darwin":
        return {p: MappedFile(p, "", 0) for p in _dyld_images()}
    if sys.platform == "win32":
        from parley.engine.backend import native

        return {p: MappedFile(p, "", 0) for p in native.windows_modules()}
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return parse_maps(fh.read())
    except OSError:
        return {}


def _dyld_images() -> list[str]:
    import ctypes

    process = ctypes.CDLL(None)
    process._dyld_get_image_name.restype = ctypes.c_char_p
    process._dyld_get_image_name.argtypes = [ctypes.c_uint32]
    names = (process._dyld_get_image_name(i) for i in range(process._dyld_image_count()))
    return [os.fsdecode(name) for name in names if name]


def parse_maps(text: str) -> dict[str, MappedFile]:
    """``/proc/<pid>/maps`` lines -> the mapped files (anonymous and pseudo mappings skipped)."""
    files: dict[str, MappedFile] = {}
    for line in text.splitlines():
        parts = line.split(maxsplit=5)
        if len(parts) < 6 or not parts[5].startswith("/"):
            continue
        path = parts[5].removesuffix(" (deleted)")
        files.setdefault(path, MappedFile(path, parts[3], int(parts[4])))
    return files


def native_libraries(maps: dict[str, MappedFile]) -> dict[str, list[str]]:
    """Each mapped ggml/llama/whisper library by file name, with every path it is mapped from."""
    found: dict[str, list[str]] = {}
    for mapped in maps.values():
        name = Path(mapped.path).name.lower() if sys.platform == "win32" else Path(mapped.path).name
        if name.startswith(NATIVE_PREFIXES) and _LIBRARY_SUFFIX.search(name):
            found.setdefault(name, []).append(mapped.path)
    return {name: sorted(paths) for name, paths in sorted(found.items())}


def one_copy_each(libraries: dict[str, list[str]]) -> bool:
    """True when ggml's base library is mapped and no library is mapped from two files."""
    has_base = any(name.startswith(("libggml-base", "ggml-base")) for name in libraries)
    return has_base and all(len(paths) == 1 for paths in libraries.values())


def portaudio_path(maps: dict[str, MappedFile]) -> str | None:
    """Where PortAudio was loaded from: the mapped file, else what sounddevice opened."""
    for path in maps:
        if "portaudio" in Path(path).name.lower():
            return path
    sounddevice = sys.modules.get("sounddevice")
    name = getattr(sounddevice, "_libname", None)
    return str(name) if name else None


def bundle_dir() -> Path | None:
    """The frozen bundle's folder (PyInstaller's ``sys._MEIPASS``), None when not frozen."""
    folder = getattr(sys, "_MEIPASS", None)
    return Path(folder) if getattr(sys, "frozen", False) and folder else None


def inside(path: str, folder: Path) -> bool:
    def real(p: str | Path) -> Path:
        return Path(os.path.normcase(os.path.realpath(p)))

    try:
        return real(path).is_relative_to(real(folder))
    except (OSError, ValueError):
        return False


def peak_rss_mib() -> float | None:
    """The process's peak resident memory (Linux and macOS)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1 << 20 if sys.platform == "darwin" else 1 << 10), 1)


def _lib_dir() -> Path:
    from parley.engine.backend import native

    return native.lib_dir()


def _devices() -> list[dict[str, Any]]:
    from parley.engine.backend.devices import list_devices

    return [dataclasses.asdict(d) for d in list_devices()]


def _cpu_variant() -> str | None:
    from parley.engine.backend.devices import cpu_variant

    return cpu_variant()


def _qt_version() -> str:
    from PySide6 import __version__ as pyside
    from PySide6.QtCore import qVersion

    return pyside if qVersion() == pyside else f"PySide6 {pyside}, Qt {qVersion()}"


def _qt_platform() -> str | None:
    from PySide6.QtGui import QGuiApplication

    return QGuiApplication.platformName() if QGuiApplication.instance() is not None else None
