#!/usr/bin/env python3
"""Cross-build Parley's native folder for 64-bit Windows on Linux, cached.

    python packaging/windows/build_native.py [--dest build/windows/_native] [--no-vulkan]

The same pinned sources and the same ggml options as the Linux build (``native/build.py``, whose
helpers this imports: fetching and checking the pins, CMake, the Vulkan headers), compiled by
Debian's MinGW-w64 GCC (``x86_64-w64-mingw32-gcc-posix``, POSIX threads for ``std::thread``
and libgomp) into DLLs:

- ``ggml-base.dll``, ``ggml.dll``, the CPU backend in every x86-64 variant
  (``ggml-cpu-<variant>.dll``, chosen at run time), ``ggml-rpc.dll``, ``libllama.dll``,
  ``libwhisper.dll``; GCC's run-time DLLs beside them (``libgomp-1.dll``, ``libwinpthread-1.dll``,
  ``libstdc++-6.dll``, ``libgcc_s_seh-1.dll``): one copy each for all the modules.
- ``ggml-vulkan.dll`` (unless ``--no-vulkan``), built in a tree of its own from the same sources
  and flags, so that a failure there leaves the CPU build intact.  Its shaders are compiled by
  the Linux glslc; it links ``vulkan-1.dll`` (the Vulkan loader that GPU drivers install on
  Windows; never shipped) through an import library made from Wine's ``vulkan-1.dll``.
- The cffi module ``_ffi.cp311-win_amd64.pyd`` for the Windows CPython 3.11 the frozen app
  carries (the pinned python.org build of ``tests/support/wine.py``): cffi writes the C source
  here, MinGW compiles it against CPython 3.11's headers (the build Python's, which are the same
  on every system, with a ``pyconfig.h`` for 64-bit Windows from this folder) and links an
  import library made from that Python's ``python311.dll`` (gendef and dlltool).

Why GCC needs ``-Wa,-muse-unaligned-vector-move``: on 64-bit Windows GCC does not align the
stack for 32- and 64-byte vectors, so AVX code spilling them with aligned moves crashes at
random.  The assembler option turns every aligned vector move into an unaligned one, which
costs nothing on any processor with AVX.

Cached in ``<cache>/windows/native/<key>`` (the key hashes the pins, the flags, the compiler's
version, the Windows Python and this file's recipe); a second run with the same key only copies.
Needs: mingw-w64 (Debian: gcc-mingw-w64-x86-64-posix g++-mingw-w64-x86-64-posix
mingw-w64-tools), cmake, ninja; for Vulkan also glslc and spirv-headers
(``packaging/vulkan_build_deps.sh``) and Wine's ``vulkan-1.dll`` (Debian: wine64).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO))


def _load_native_build():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("parley_native_build", REPO / "native" / "build.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


nb = _load_native_build()
from tests.support import wine  # noqa: E402  (the pinned Windows Python)

# Bump when the steps below change in a way the flags do not show.
RECIPE_VERSION = 1
TRIPLE = "x86_64-w64-mingw32"
CC = f"{TRIPLE}-gcc-posix"
CXX = f"{TRIPLE}-g++-posix"
TOOLS = (CC, CXX, f"{TRIPLE}-dlltool", f"{TRIPLE}-strip", f"{TRIPLE}-windres", "gendef", "cmake", "ninja")
VECTOR_FLAGS = "-Wa,-muse-unaligned-vector-move"
# GCC's run-time DLLs the modules link (found with the compiler's -print-file-name).
RUNTIME_DLLS = ("libgomp-1.dll", "libwinpthread-1.dll", "libstdc++-6.dll", "libgcc_s_seh-1.dll")
PYTHON_DLL = "python311.dll"
PYTHON_VERSION = (3, 11)
FFI_NAME = "_ffi.cp311-win_amd64.pyd"
PYCONFIG = HERE / "pyconfig_win64.h"
COMPAT_HEADER = HERE / "mingw_compat.h"  # forced into every source (MinGW-w64 10 and GCC 12 gaps)
# What the built folder must hold (the CPU variants are checked by count).  ggml's CMake drops
# the "lib" prefix MinGW gives DLLs (its loader looks for ggml-<backend>.dll); llama.cpp's and
# whisper.cpp's keep it, which only the cffi module, linked against them, ever sees.
CORE_DLLS = ("ggml-base.dll", "ggml.dll", "ggml-rpc.dll", "libllama.dll", "libwhisper.dll")
MIN_CPU_VARIANTS = 10
DEFAULT_DEST = REPO / "build" / "windows" / "_native"


def log(message: str) -> None:
    print(f"[windows-native] {message}", file=sys.stderr, flush=True)


def missing_tools() -> list[str]:
    return [tool for tool in TOOLS if shutil.which(tool) is None]


def compiler_identity() -> str:
    """The first line of the C++ compiler's ``--version`` (part of the cache key)."""
    out = subprocess.run([CXX, "--version"], capture_output=True, text=True, check=True).stdout
    return out.splitlines()[0].strip()


def ggml_args(vulkan: bool) -> list[str]:
    """ggml's options: the Linux build's (all CPU variants, dynamic backends, RPC), for Windows."""
    opts = nb.Options(cuda=False, vulkan=vulkan, metal=False)
    args = nb.ggml_cmake_args(opts)
    if "-DGGML_CPU_ALL_VARIANTS=ON" not in args:
        args.append("-DGGML_CPU_ALL_VARIANTS=ON")  # the build machine is not x86-64; the target is
    return args


def build_key() -> str:
    """What decides the DLLs but the Vulkan module: pins, flags, compiler, headers, the Python."""
    recipe = {
        "recipe": RECIPE_VERSION,
        "linux_recipe": nb.RECIPE_VERSION,
        "pins": nb.load_pins(),
        "ggml": ggml_args(False),
        "llama": nb.LLAMA_FLAGS,
        "whisper": nb.WHISPER_FLAGS,
        "compiler": compiler_identity(),
        "vector_flags": VECTOR_FLAGS,
        "toolchain": toolchain_text(Path("COMPAT")),
        "compat_header": hashlib.sha256(COMPAT_HEADER.read_bytes()).hexdigest(),
        "python": wine.PYTHON_FILES_SHA256,
        "pyconfig": hashlib.sha256(PYCONFIG.read_bytes()).hexdigest(),
        "cffi": hashlib.sha256(nb.CFFI_SCRIPT.read_bytes()).hexdigest(),
        "python_headers": f"{sys.version_info.major}.{sys.version_info.minor}",
    }
    return hashlib.sha256(json.dumps(recipe, sort_keys=True).encode()).hexdigest()[:16]


def vulkan_key() -> str:
    """What decides the Vulkan module beyond the rest of the build: its flags and headers."""
    recipe = {"ggml": ggml_args(True), "vulkan_headers": nb.load_vulkan_headers_pin(), "recipe": RECIPE_VERSION}
    return hashlib.sha256(json.dumps(recipe, sort_keys=True).encode()).hexdigest()[:16]


def toolchain_text(compat: Path) -> str:
    """A CMake toolchain file for MinGW-w64: Windows x86-64, libraries and headers from the
    MinGW sysroot only, programs (glslc) from the build machine; ``compat`` is forced into every
    source."""
    return "\n".join(
        [
            "set(CMAKE_SYSTEM_NAME Windows)",
            "set(CMAKE_SYSTEM_PROCESSOR x86_64)",
            f"set(CMAKE_C_COMPILER {CC})",
            f"set(CMAKE_CXX_COMPILER {CXX})",
            f"set(CMAKE_RC_COMPILER {TRIPLE}-windres)",
            f'set(CMAKE_C_FLAGS_INIT "{VECTOR_FLAGS} -include {compat}")',
            f'set(CMAKE_CXX_FLAGS_INIT "{VECTOR_FLAGS} -include {compat}")',
            f"set(CMAKE_FIND_ROOT_PATH /usr/{TRIPLE})",
            "set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)",
            "set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)",
            "set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)",
            "set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)",
            "",
        ]
    )


def common_args(work: Path) -> list[str]:
    toolchain = work / "mingw-w64.cmake"
    compat = work / COMPAT_HEADER.name
    shutil.copy2(COMPAT_HEADER, compat)
    toolchain.write_text(toolchain_text(compat))
    return [
        f"-DCMAKE_TOOLCHAIN_FILE={toolchain}",
        "-DCMAKE_BUILD_TYPE=Release",
        "-DBUILD_SHARED_LIBS=ON",
        "-G",
        "Ninja",
    ]


def runtime_dll(name: str) -> Path:
    found = subprocess.run([CXX, f"-print-file-name={name}"], capture_output=True, text=True, check=True)
    path = Path(found.stdout.strip())
    if not path.is_absolute() or not path.is_file():
        for folder in (Path(f"/usr/{TRIPLE}/lib"), Path(f"/usr/{TRIPLE}/bin")):
            if (folder / name).is_file():
                return folder / name
        raise nb.BuildError(f"{name} (GCC's run-time library) was not found by {CXX}")
    return path


# --------------------------------------------------------------------------- the build


def build_native(jobs: int, root: Path | None = None) -> Path:
    """Build (or find cached) the Windows native folder but the Vulkan module; return the work
    folder (``lib/``: the DLLs and the cffi module)."""
    missing = missing_tools()
    if missing:
        raise nb.BuildError(
            f"missing: {', '.join(missing)} (Debian: apt-get install gcc-mingw-w64-x86-64-posix "
            "g++-mingw-w64-x86-64-posix mingw-w64-tools cmake ninja-build)"
        )
    root = root or nb.cache_root()
    key = build_key()
    work = root / "windows" / "native" / key
    stamp = work / "stamp.json"
    if stamp.exists():
        log(f"Windows native build {key} is cached at {work}")
        return work
    with nb.locked(work):
        if stamp.exists():
            return work
        started = time.monotonic()
        logfile = work / "build.log"
        log(f"cross-building for Windows (key {key}) with {jobs} jobs; log: {logfile}")
        srcs = {
            name: nb.extract_subdir(nb.fetch_source(name, pin, root), pin["subdir"], work / "src" / name)
            for name, pin in nb.load_pins().items()
        }
        prefix = work / "prefix"
        opts = nb.Options(cuda=False, vulkan=False, metal=False, jobs=jobs)
        t0 = time.monotonic()
        log("ggml (all CPU variants) and llama.cpp: about 10 minutes on 2 cores")
        nb.cmake_build(
            srcs["llama.cpp"],
            work / "build" / "llama",
            prefix,
            common_args(work) + ggml_args(False) + nb.LLAMA_FLAGS,
            opts,
            logfile,
        )
        log(f"ggml + llama.cpp built in {time.monotonic() - t0:.0f} s")
        t0 = time.monotonic()
        nb.cmake_build(
            srcs["whisper.cpp"],
            work / "build" / "whisper",
            prefix,
            common_args(work)
            + ["-DWHISPER_USE_SYSTEM_GGML=ON", f"-Dggml_DIR={prefix / 'lib' / 'cmake' / 'ggml'}"]
            + nb.WHISPER_FLAGS,
            opts,
            logfile,
        )
        log(f"whisper.cpp built in {time.monotonic() - t0:.0f} s")
        libs = gather(work, prefix)
        shutil.rmtree(work / "include", ignore_errors=True)
        shutil.copytree(prefix / "include", work / "include")
        ffi = build_ffi(work, logfile)
        info = {
            "key": key,
            "target": "windows-x86_64",
            "compiler": compiler_identity(),
            "pins": {name: f"{pin['package']}=={pin['version']}" for name, pin in nb.load_pins().items()},
            "libs": {p.name: p.stat().st_size for p in libs},
            "ffi": ffi.name,
            "build_seconds": round(time.monotonic() - started, 1),
        }
        (work / "lib" / "build-info.json").write_text(json.dumps(info, indent=2))
        stamp.write_text(json.dumps(info, indent=2))
        log(f"Windows native build done in {info['build_seconds']} s: {len(libs)} DLLs")
        return work


def build_vulkan(work: Path, jobs: int, root: Path | None = None) -> Path:
    """``ggml-vulkan.dll`` (cached in ``work/vulkan/<key>``), from a tree of its own of the same
    sources and flags, only that target built: it links the ``ggml-base.dll`` of ``work``."""
    root = root or nb.cache_root()
    folder = work / "vulkan" / vulkan_key()
    module = folder / "ggml-vulkan.dll"
    if module.is_file():
        log(f"ggml-vulkan.dll is cached at {folder}")
        return module
    with nb.locked(folder):
        if module.is_file():
            return module
        t0 = time.monotonic()
        logfile = folder / "build.log"
        if shutil.which("glslc") is None:
            raise nb.BuildError("glslc is missing: packaging/vulkan_build_deps.sh installs it (or --no-vulkan)")
        headers = nb.vulkan_headers(root)
        spirv = Path("/usr/include/spirv")
        if not (spirv / "unified1" / "spirv.hpp").is_file():
            raise nb.BuildError("SPIR-V headers are missing (Debian: apt-get install spirv-headers)")
        extra = folder / "include"
        shutil.rmtree(extra, ignore_errors=True)
        shutil.copytree(spirv, extra / "spirv")
        implib = import_library(wine_vulkan_dll(), folder / "implib" / "libvulkan-1.dll.a", logfile)
        log(f"ggml-vulkan.dll (compiles about 1,500 shaders with glslc); log: {logfile}")
        nb.cmake_build(
            work / "src" / "llama.cpp",
            folder / "build",
            folder / "prefix",
            common_args(work)
            + ggml_args(True)
            + nb.LLAMA_FLAGS
            + [
                f"-DVulkan_INCLUDE_DIR={headers}",
                f"-DVulkan_LIBRARY={implib}",
                f"-DVulkan_GLSLC_EXECUTABLE={shutil.which('glslc')}",
                "-DSPIRV-Headers_DIR=/usr/share/cmake/SPIRV-Headers",
                f"-DCMAKE_CXX_FLAGS=-isystem {extra}",
            ],
            nb.Options(cuda=False, vulkan=True, metal=False, jobs=jobs),
            logfile,
            targets=["ggml-vulkan"],
            install=False,
        )
        found = sorted((folder / "build").rglob("ggml-vulkan.dll"))
        if not found:
            raise nb.BuildError(f"ggml-vulkan.dll was not built; see {logfile}")
        shutil.copy2(found[0], module)
        log(f"ggml-vulkan.dll built in {time.monotonic() - t0:.0f} s")
        return module


def wine_vulkan_dll() -> Path:
    for folder in ("/usr/lib/x86_64-linux-gnu/wine/x86_64-windows", "/usr/lib/wine/x86_64-windows"):
        if (Path(folder) / "vulkan-1.dll").is_file():
            return Path(folder) / "vulkan-1.dll"
    raise nb.BuildError("Wine's vulkan-1.dll was not found (Debian: apt-get install wine64), or use --no-vulkan")


def import_library(dll: Path, out: Path, logfile: Path) -> Path:
    """An import library for ``dll`` (its exports listed by gendef, written by dlltool)."""
    folder = out.parent
    folder.mkdir(parents=True, exist_ok=True)
    definition = folder / (dll.stem + ".def")
    listing = subprocess.run(["gendef", "-", str(dll)], capture_output=True, text=True, check=True).stdout
    if "EXPORTS" not in listing:
        raise nb.BuildError(f"gendef found no exports in {dll}")
    definition.write_text(listing)
    nb.run([f"{TRIPLE}-dlltool", "-d", str(definition), "-D", dll.name, "-l", str(out)], logfile)
    return out


def gather(work: Path, prefix: Path) -> list[Path]:
    """The runtime folder: every DLL of the install and GCC's run-time DLLs."""
    lib = work / "lib"
    shutil.rmtree(lib, ignore_errors=True)
    lib.mkdir(parents=True)
    dlls = sorted((prefix / "bin").glob("*.dll"))
    dlls += [runtime_dll(name) for name in RUNTIME_DLLS]
    for dll in dlls:
        shutil.copy2(dll, lib / dll.name)
    # Debug sections of GCC's run-time DLLs (the build's own have none: Release, no -g).
    for name in RUNTIME_DLLS:
        subprocess.run([f"{TRIPLE}-strip", "--strip-debug", str(lib / name)], check=True)
    check_folder(lib)
    return sorted(lib.iterdir())


def check_folder(lib: Path) -> None:
    names = {p.name for p in lib.iterdir()}
    missing = [name for name in (*CORE_DLLS, *RUNTIME_DLLS) if name not in names]
    variants = [n for n in names if n.startswith("ggml-cpu-") and n.endswith(".dll")]
    if missing or len(variants) < MIN_CPU_VARIANTS:
        raise nb.BuildError(f"the Windows build is incomplete: missing {missing}, {len(variants)} CPU variants")
    stray = sorted(n for n in names if n.startswith("libggml"))
    if stray:
        raise nb.BuildError(f"ggml DLLs named lib*.dll, which ggml's loader would not find: {stray}")


# --------------------------------------------------------------------------- cffi


def python_headers(work: Path) -> Path:
    """CPython 3.11's headers for 64-bit Windows: the build Python's, with our pyconfig.h.

    Apart from ``pyconfig.h`` CPython's headers are the same on every system, and within 3.11
    the ABI does not change between patch releases.
    """
    if sys.version_info[:2] != PYTHON_VERSION:
        raise nb.BuildError(
            f"the Windows cffi module is compiled with CPython {PYTHON_VERSION[0]}.{PYTHON_VERSION[1]}'s headers; "
            f"this is Python {sys.version.split()[0]} (run with Python 3.11)"
        )
    source = Path(sysconfig.get_paths()["include"])
    if not (source / "Python.h").is_file():
        raise nb.BuildError(f"no Python.h in {source} (Debian: apt-get install python3.11-dev)")
    target = work / "python-include"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("pyconfig.h"))
    shutil.copy2(PYCONFIG, target / "pyconfig.h")
    return target


def build_ffi(work: Path, logfile: Path) -> Path:
    """``_ffi.cp311-win_amd64.pyd``, compiled by MinGW from the C source cffi writes."""
    spec = importlib.util.spec_from_file_location("parley_cffi_build", nb.CFFI_SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    folder = work / "ffi"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    builder = module.make_builder(include_dir=work / "include", lib_dir=work / "prefix" / "lib")
    source = folder / "_ffi.c"
    builder.emit_c_code(str(source))
    python_dll = wine.windows_python().parent / PYTHON_DLL
    implib = import_library(python_dll, folder / "libpython311.dll.a", logfile)
    out = folder / FFI_NAME
    nb.run(
        [
            CC,
            "-O2",
            "-shared",
            VECTOR_FLAGS,
            "-DMS_WIN64",
            "-I",
            str(python_headers(work)),
            "-I",
            str(work / "include"),
            str(source),
            "-o",
            str(out),
            str(implib),
            "-L",
            str(work / "prefix" / "lib"),
            "-lllama",
            "-lwhisper",
            "-lggml",
            "-lggml-base",
            "-static-libgcc",
            "-s",
        ],
        logfile,
    )
    shutil.copy2(out, work / "lib" / out.name)
    return out


def install_into(dest: Path, work: Path, vulkan: Path | None) -> Path:
    """Make ``dest`` the Windows runtime folder: the DLLs, the cffi module, GPT-2's vocabulary,
    the Vulkan module when given, and ``build-info.json`` saying which."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for path in (work / "lib").iterdir():
        shutil.copy2(path, dest / path.name)
    if vulkan is not None:
        shutil.copy2(vulkan, dest / vulkan.name)
    info = json.loads((work / "lib" / "build-info.json").read_text())
    info["options"] = {"cuda": False, "vulkan": vulkan is not None, "metal": False}
    if vulkan is not None:
        info["libs"][vulkan.name] = vulkan.stat().st_size
    (dest / "build-info.json").write_text(json.dumps(info, indent=2))
    shutil.copy2(work / "src" / "llama.cpp" / "models" / nb.GPT2_VOCAB, dest / nb.GPT2_VOCAB)
    shutil.copy2(REPO / "parley" / "engine" / "_native" / "__init__.py", dest / "__init__.py")
    return dest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dest", type=Path, default=DEFAULT_DEST, help=f"runtime folder to fill ({DEFAULT_DEST})")
    parser.add_argument("--no-vulkan", action="store_true", help="leave the Vulkan backend out")
    parser.add_argument("--print-work", action="store_true", help="print the cache folder of this build and exit")
    args = parser.parse_args(argv)
    vulkan = not args.no_vulkan and nb.env_flag("PARLEY_VULKAN", True)
    jobs = int(os.environ.get("PARLEY_JOBS") or (os.cpu_count() or 2))
    try:
        if args.print_work:
            print(nb.cache_root() / "windows" / "native" / build_key())
            return 0
        started = time.monotonic()
        work = build_native(max(1, jobs))
        module = build_vulkan(work, max(1, jobs)) if vulkan else None
        dest = install_into(args.dest, work, module)
        log(f"Windows runtime folder ready: {dest} ({time.monotonic() - started:.1f} s)")
    except (nb.BuildError, wine.WineUnavailable) as exc:
        log(f"ERROR: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
