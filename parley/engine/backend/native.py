"""Thin low-level access to the shared native build: the cffi module, logging and backends.

Everything that touches ``ffi``/``lib`` directly lives in this module, ``devices``, ``remote``
and ``cancel`` here, and ``parley.engine.handles`` (one owner per llama.cpp and whisper.cpp
object); callers use those typed classes instead.

Backends are loaded exactly once per process, from our own library folder, with
``ggml_backend_load_all_from_path``: ggml's default search looks beside the Python executable
and in the current folder, and a CPU backend from a different ggml build loads silently and
then crashes.
"""

from __future__ import annotations

import atexit
import ctypes
import json
import logging
import os
import re
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .._native import LIB_DIR
from ..errors import NativeLibraryError, NoDeviceError
from ..native_loading import NATIVE_LOADING, set_openmp_waiting

log = logging.getLogger("parley.native")

_LEVELS = {1: logging.DEBUG, 2: logging.INFO, 3: logging.WARNING, 4: logging.ERROR}
_lock = threading.Lock()
_backends_loaded = False
_module: Any = None
_load_messages: list[str] = []  # native warnings/errors logged while backends loaded
_F = TypeVar("_F", bound=Callable[..., Any])


def _import_module() -> Any:
    global _module
    if _module is not None:
        return _module
    set_openmp_waiting()
    _preload_windows_runtime()
    try:
        from .._native import _ffi  # type: ignore[attr-defined]
    except ImportError as exc:
        raise NativeLibraryError(
            f"the native libraries are not built or failed to load ({exc}). "
            "Run `python native/build.py` from the source checkout (or reinstall Parley)."
        ) from exc
    _module = _ffi
    return _module


_runtime_dlls: list[Any] = []  # kept loaded for the life of the process


_WINDOWS_RUNTIME_DLLS = re.compile(r"^lib(?:gcc_s|winpthread|stdc\+\+|gomp)[-_].*\.dll$")


def _preload_windows_runtime() -> None:
    """Windows: load the compiler's run-time DLLs of our folder (libgcc_s, libwinpthread,
    libstdc++, libgomp) before anything links them.

    ggml opens each backend module with a plain ``LoadLibraryW``, whose search skips the
    module's own folder, so a CPU variant would not find ``libgomp-1.dll`` beside it; a DLL
    already loaded under that name is used wherever it lies."""
    if sys.platform != "win32" or _runtime_dlls:
        return
    folder = lib_dir()
    found = [p for p in folder.iterdir() if _WINDOWS_RUNTIME_DLLS.match(p.name)] if folder.is_dir() else []
    for path in sorted(found, key=lambda p: p.name):
        _runtime_dlls.append(ctypes.WinDLL(str(path)))  # type: ignore[attr-defined,unused-ignore]


def ffi() -> Any:
    """The cffi ``FFI`` instance of the bindings."""
    return _import_module().ffi


def lib() -> Any:
    """The compiled library object; call ``load_backends()`` before creating any model."""
    return _import_module().lib


def def_extern(ffi_: Any) -> Callable[[_F], _F]:
    """``ffi_.def_extern()``: the decorator that makes a function the body of the ``extern "Python"``
    declaration of its name; it returns the function unchanged."""
    decorator: Callable[[_F], _F] = ffi_.def_extern()
    return decorator


def lib_dir() -> Path:
    """The one folder our native libraries and backend modules live in."""
    override = os.environ.get("PARLEY_LIB_DIR")
    return Path(override) if override else LIB_DIR


# --------------------------------------------------------------------------- logging


class NativeLog:
    """Collects the native log lines that native code logs on one thread while it is active.

    Use it as a context manager around native calls: ``with NativeLog() as lines: ...``.
    Lines at or above ``level`` logged on this thread are kept in ``lines`` (and still go to
    the ``parley.native`` logger).  While ``silenced()`` is true, this thread's lines are
    dropped altogether, e.g. the ``failed to compute graph`` llama.cpp logs for a decode that
    a cancel aborted.  Lines logged on other threads are never seen, so two engines working
    at once each explain only their own failures, and a cancel in one does not hide the
    other's errors.  Captures nest; a line goes to every capture active on its thread.
    """

    __slots__ = ("level", "silenced", "lines")

    def __init__(self, level: int = logging.ERROR, silenced: Callable[[], bool] | None = None) -> None:
        self.level = level
        self.silenced = silenced
        self.lines: list[str] = []

    def __enter__(self) -> NativeLog:
        stack = getattr(_captures, "stack", None)
        if stack is None:
            stack = _captures.stack = []
        stack.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        _captures.stack.remove(self)

    def reason(self, last: int = 3) -> str:
        """The last ``last`` lines joined, for a failure message ("" when there are none)."""
        return "; ".join(line.strip() for line in self.lines[-last:] if line.strip())


_captures = threading.local()  # .stack: the NativeLog objects active on this thread, innermost last


def _route(level: int, message: str) -> None:
    """One native log line, on the thread that logged it: to the captures active on that thread
    (unless one of them silences it), then to the ``parley.native`` logger."""
    stack = getattr(_captures, "stack", None)
    if stack:
        if any(c.silenced is not None and c.silenced() for c in stack):
            return
        for capture in stack:
            if level >= capture.level:
                capture.lines.append(message)
    log.log(level, "%s", message)


def _install_logging(module: Any) -> None:
    @def_extern(module.ffi)
    def parley_py_log(level: int, text: Any) -> None:  # noqa: ANN001 - cffi signature
        message = module.ffi.string(text).decode("utf-8", "replace").rstrip()
        if message:
            _route(_LEVELS.get(level, logging.INFO), message)

    module.lib.parley_log_configure(_min_level(), 1)
    callback = module.ffi.addressof(module.lib, "parley_log_cb")
    module.lib.ggml_log_set(callback, module.ffi.NULL)
    module.lib.llama_log_set(callback, module.ffi.NULL)
    module.lib.whisper_log_set(callback, module.ffi.NULL)
    # Native code may log from its own destructors while the interpreter is finalising.
    atexit.register(module.lib.parley_log_configure, 5, 0)


def _min_level() -> int:
    """Native messages at or above this level reach Python logging (PARLEY_NATIVE_LOG)."""
    wanted = os.environ.get("PARLEY_NATIVE_LOG", "warn").lower()
    return {"debug": 1, "info": 2, "warn": 3, "warning": 3, "error": 4, "none": 5}.get(wanted, 3)


def set_native_log_level(level: str) -> None:
    """Change which native messages are forwarded: debug, info, warn, error or none."""
    os.environ["PARLEY_NATIVE_LOG"] = level
    lib().parley_log_configure(_min_level(), 1)


# --------------------------------------------------------------------------- backends


def load_backends() -> None:
    """Load the ggml backends from our library folder, once per process.

    Raises NoDeviceError when nothing registered: whisper.cpp aborts the process when asked to
    load a model with no device, so this is checked here, in Python.
    """
    global _backends_loaded
    with NATIVE_LOADING, _lock:
        if _backends_loaded:
            return
        module = _import_module()
        _install_logging(module)
        folder = lib_dir()
        if not folder.is_dir():
            raise NativeLibraryError(f"native library folder {folder} does not exist")
        if os.environ.pop("GGML_BACKEND_PATH", None):
            # ggml would also load the one backend module this names, from wherever it is.
            log.warning("GGML_BACKEND_PATH is ignored: Parley loads backends from %s only", folder)
        _cuda_problem[:] = [p for p in [_prepare_cuda_runtime(folder)] if p]
        cpu_module = _chosen_cpu_module(folder)
        recorder = _Recorder()
        log.addHandler(recorder)
        log.addFilter(_quiet_loader)
        try:
            if cpu_module is None:
                module.lib.ggml_backend_load_all_from_path(str(folder).encode())
            else:
                for path in sorted(folder.iterdir()):  # every other backend, then that CPU variant
                    match = _BACKEND_MODULE.match(path.name)
                    if match and match.group(1) not in ("base", "cpu"):
                        module.lib.ggml_backend_load(_module_path_arg(path))
                module.lib.ggml_backend_load(_module_path_arg(cpu_module))
            module.lib.llama_backend_init()
        finally:
            log.removeFilter(_quiet_loader)
            log.removeHandler(recorder)
        _load_messages[:] = recorder.messages
        _backends_loaded = True
        if module.lib.ggml_backend_dev_count() == 0:
            raise NoDeviceError(
                f"no compute device was registered from {folder}: the CPU backend modules "
                "(libggml-cpu-*) are missing or none suits this processor"
            )


_cuda_problem: list[str] = []

CPU_VARIANT_ENV = "PARLEY_CPU_VARIANT"
_AMX_VARIANTS = ("sapphirerapids",)  # the x86 variants built with AMX (ggml-cpu's CMake variant list)


def _module_path_arg(path: Path) -> bytes:
    """``path`` as ``ggml_backend_load`` reads it: ggml makes a ``std::filesystem::path`` of the
    ``char *`` itself, which on Windows decodes it in the ANSI code page."""
    return ansi_path_arg(path, "ggml cannot open a module in this folder", "install Parley into another folder")


def ansi_path_arg(path: Path, cannot: str, instead: str) -> bytes:
    """``path`` for a C function that opens a narrow ``char *`` path with the C runtime: UTF-8,
    except on Windows, where the MinGW-built libraries decode it in the ANSI code page (ggml's
    module loader; whisper.cpp's model files, opened with ``std::ifstream``: whisper.cpp converts
    from UTF-8 only when built with MSVC).  A path with letters that code page lacks (a user
    profile named in another script) is given by its short (8.3) name; where the volume has
    none, ``cannot`` and ``instead`` say what to do."""
    if sys.platform != "win32":
        return str(path).encode()
    try:
        return str(path).encode("mbcs", "strict")
    except UnicodeEncodeError:
        buffer = ctypes.create_unicode_buffer(32768)
        if ctypes.WinDLL("kernel32").GetShortPathNameW(str(path), buffer, len(buffer)):
            return buffer.value.encode("mbcs", "replace")
        raise NativeLibraryError(
            f"{path}: {cannot} (its name has letters outside the system's code page); {instead}"
        ) from None


def _chosen_cpu_module(folder: Path) -> Path | None:
    """The CPU backend module to load instead of ggml's own choice, or None to let ggml choose.

    ``PARLEY_CPU_VARIANT`` names one (``haswell``, ``zen4``, ``x64``...).  Without it, the only
    case Parley overrules ggml is AMX: ggml scores the AMX variant by the processor's CPUID
    alone, but Linux lets a program use AMX only after the kernel grants it (a VM whose
    hypervisor does not pass the AMX state through refuses), and the AMX code then dies with
    SIGILL; and in a VM that grants it, ggml's AMX kernels were seen to die the same way
    (a Firecracker VM on a Sapphire Rapids host, kernel 6.18: ``tilezero`` raised #UD in the
    first Q4_1 matrix product, while a plain tile probe ran).  So in a VM, or where the kernel
    refuses, the best-scoring variant without AMX is loaded (AVX-512 with VNNI and BF16 on those
    processors); ``PARLEY_CPU_VARIANT=sapphirerapids`` still asks for AMX.
    """
    variants = sorted(folder.glob(_module_file("cpu-*")))
    wanted = os.environ.get(CPU_VARIANT_ENV, "").strip()
    if wanted:
        path = folder / _module_file(f"cpu-{wanted}")
        if path not in variants:
            names = ", ".join(_variant_name(p) for p in variants) or "none"
            raise NativeLibraryError(
                f"{CPU_VARIANT_ENV}={wanted}: there is no such CPU backend in {folder} (there are: {names})"
            )
        return path
    amx = [p for p in variants if _variant_name(p) in _AMX_VARIANTS]
    if not amx or not _amx_unsafe(amx[0]):
        return None
    usable = [p for p in variants if p not in amx]
    scored = [(_score(p), p) for p in usable]
    best = max(scored, default=(0, None), key=lambda item: item[0])
    log.info(
        "the processor lists AMX but this system (a VM, or a kernel that refuses it) cannot be trusted with it:"
        " CPU backend %s",
        best[1].name if best[1] else "none",
    )
    return best[1] if best[0] > 0 else None


def _variant_name(path: Path) -> str:
    return path.name.split("ggml-cpu-", 1)[1].split(".", 1)[0]


def _score(path: Path) -> int:
    """A CPU variant's own score for this processor (0: it cannot run here).  The module is
    unloaded again, as ggml does with the variants it does not choose."""
    import _ctypes

    try:
        module = ctypes.CDLL(str(path))
    except OSError:
        return 0
    try:
        return int(module.ggml_backend_score())
    except AttributeError:
        return 0
    finally:
        if sys.platform == "win32":
            _ctypes.FreeLibrary(module._handle)
        else:
            _ctypes.dlclose(module._handle)


def _amx_unsafe(amx_variant: Path) -> bool:
    """Linux on x86-64: the processor says it has AMX (the AMX variant scores it, from CPUID, as
    ggml does), and either this runs in a virtual machine or the kernel refuses this process the
    AMX state.  Windows: the processor says so and the system does not enable AMX's tile state
    (Windows 10, and Wine: there the AMX code dies on its first tile instruction)."""
    if sys.platform == "win32":
        return _score(amx_variant) > 0 and not _windows_enables_amx()
    if not sys.platform.startswith("linux") or os.uname().machine != "x86_64" or _score(amx_variant) <= 0:
        return False
    if _in_virtual_machine():
        return True
    sys_arch_prctl, arch_req_xcomp_perm, xfeature_xtiledata = 158, 0x1023, 18
    libc = ctypes.CDLL(None, use_errno=True)
    return int(libc.syscall(sys_arch_prctl, arch_req_xcomp_perm, xfeature_xtiledata)) != 0


def _windows_enables_amx() -> bool:
    """Whether Windows saves AMX's tile data for threads (XSTATE feature 18 among the features
    ``GetEnabledXStateFeatures`` lists: Windows 11 on an AMX processor)."""
    if sys.platform != "win32":
        return False
    get = getattr(ctypes.WinDLL("kernel32"), "GetEnabledXStateFeatures", None)
    if get is None:
        return False
    get.restype = ctypes.c_uint64
    return bool((int(get()) >> 18) & 1)


def _in_virtual_machine(cpuinfo: str = "/proc/cpuinfo") -> bool:
    """The processor's ``hypervisor`` flag (CPUID leaf 1, ECX bit 31), as Linux lists it."""
    try:
        with open(cpuinfo, encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("flags"):
                    return "hypervisor" in line.split()
    except OSError:
        pass
    return False


def windows_modules() -> list[str]:
    """Windows: the file of every module (DLL, ``.pyd``, the program) loaded in this process."""
    if sys.platform != "win32":
        return []
    from ctypes import wintypes

    kernel32, psapi = ctypes.WinDLL("kernel32"), ctypes.WinDLL("psapi")
    kernel32.GetCurrentProcess.restype = wintypes.HANDLE
    psapi.EnumProcessModules.argtypes = [
        wintypes.HANDLE,
        ctypes.POINTER(wintypes.HMODULE),
        wintypes.DWORD,
        ctypes.POINTER(wintypes.DWORD),
    ]
    kernel32.GetModuleFileNameW.argtypes = [wintypes.HMODULE, wintypes.LPWSTR, wintypes.DWORD]
    process = kernel32.GetCurrentProcess()
    modules = (wintypes.HMODULE * 2048)()
    used = wintypes.DWORD()
    if not psapi.EnumProcessModules(process, modules, ctypes.sizeof(modules), ctypes.byref(used)):
        return []
    names = []
    buffer = ctypes.create_unicode_buffer(32768)
    for module in modules[: used.value // ctypes.sizeof(wintypes.HMODULE)]:
        if kernel32.GetModuleFileNameW(module, buffer, len(buffer)):
            names.append(buffer.value)
    return names


def build_info() -> dict[str, Any]:
    """Our native folder's ``build-info.json`` (the build key, options, libraries); {} if absent."""
    return _build_info(lib_dir())


def _build_info(folder: Path) -> dict[str, Any]:
    try:
        info: dict[str, Any] = json.loads((folder / "build-info.json").read_text())
        return info
    except (OSError, ValueError):
        return {}


def _prepare_cuda_runtime(folder: Path) -> str | None:
    """Make the CUDA runtime libraries that libggml-cuda needs loadable; say why CUDA cannot work.

    The CUDA module is built against NVIDIA's CUDA 13 wheels but ships none of their libraries
    (cuBLAS alone is 600 MB).  At run time they come, in this order, from our folder (a
    packager may put them there), from the ``nvidia-cuda-runtime`` and ``nvidia-cublas``
    packages installed in this Python environment (``nvidia/cu13/lib``, as PyTorch uses them),
    or from the system's loader path.  Found ones are loaded globally before ggml opens the
    module, so its dependencies resolve by name.  Nothing is loaded without the NVIDIA driver.
    """
    if not (folder / _module_file("cuda")).is_file():
        return None
    try:
        ctypes.CDLL("libcuda.so.1" if sys.platform.startswith("linux") else "nvcuda.dll")
    except OSError as exc:
        return f"the NVIDIA driver library is not installed ({exc})"
    # A module copied in beside a build without CUDA (a packaged Parley) has no build-info of its
    # own: it is a CUDA 13 module from native/build.py, so it needs these.
    names = _build_info(folder).get("cuda", {}).get("runtime_libraries") or list(_CUDA13_RUNTIME)
    missing = []
    for name in names:
        found = _find_cuda_library(folder, name)
        if found is None:
            missing.append(name)
            continue
        try:
            ctypes.CDLL(str(found), mode=ctypes.RTLD_GLOBAL)
        except OSError as exc:
            return f"{found} could not be loaded ({exc})"
    if missing:
        log.info("CUDA libraries %s not found beside Parley or in nvidia-* packages; trying the system's", missing)
    return None


_CUDA13_RUNTIME: tuple[str, ...] = (
    ("libcudart.so.13", "libcublasLt.so.13", "libcublas.so.13") if sys.platform.startswith("linux") else ()
)


def _find_cuda_library(folder: Path, name: str) -> Path | None:
    candidates = [folder / name]
    for entry in sys.path:
        candidates += sorted(Path(entry or ".").glob(f"nvidia/cu*/lib/{name}"))
    return next((c for c in candidates if c.is_file()), None)


def _module_file(backend: str) -> str:
    return f"ggml-{backend}.dll" if sys.platform == "win32" else f"libggml-{backend}.so"


def _quiet_loader(record: logging.LogRecord) -> bool:
    """ggml_backend_load_all_from_path tries each module silently; naming the modules one by one
    (a chosen CPU variant: AMX in a VM) makes ggml's loader log its own failures as errors, e.g.
    a Vulkan module on a machine with no Vulkan driver.  Those are dropped, so that a start says
    the same whichever way the modules were loaded; ``backend_problems`` finds the reasons."""
    return not record.getMessage().startswith("load_backend: failed")


class _Recorder(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


_BACKEND_MODULE = re.compile(r"^(?:lib)?ggml-([a-z0-9_]+)(?:-[a-z0-9_]+)?\.(?:so|dylib|dll)$")
# Modules whose registry normally has no devices of its own: RPC devices are added by
# ``remote.connect``.
_NO_OWN_DEVICES = {"rpc"}
# Why a backend that loaded may list no device (the loader has nothing to add then).
_NO_DEVICE = {
    "vulkan": "no Vulkan driver offers a GPU (a software device such as Mesa's lavapipe is used "
    "only when GGML_VK_VISIBLE_DEVICES names it)",
}


def backend_problems(detail: bool = False) -> list[str]:
    """One line per backend module in our folder that gave no device (e.g. no GPU driver)."""
    return [text for _backend, text in backend_problem_list(detail)]


def backend_problem_list(detail: bool = False) -> list[tuple[str, str]]:
    """(backend, line) per backend module in our folder that gave no device (e.g. no GPU driver).

    ``detail``: when neither ggml's messages nor our own checks say why a module did not load,
    open it once more to get the loader's reason.  That runs the module's initialisers again,
    so it is done only when the reason is asked for (``parley devices``), and only for a
    module that really is in our folder (not a link to somewhere else).
    """
    load_backends()
    lib_ = _import_module().lib
    registered: dict[str, int] = {}
    for i in range(lib_.ggml_backend_reg_count()):
        reg = lib_.ggml_backend_reg_get(i)
        registered[string(lib_.ggml_backend_reg_name(reg)).lower()] = int(lib_.ggml_backend_reg_dev_count(reg))
    folder = lib_dir()
    problems: list[tuple[str, str]] = []
    for path in sorted(folder.iterdir()):
        match = _BACKEND_MODULE.match(path.name)
        backend = match.group(1) if match else ""
        if (
            not match
            or backend in ("base", "cpu")
            or registered.get(backend, 0) > 0
            or (backend in _NO_OWN_DEVICES and backend in registered)
        ):
            continue
        reasons = ([*_cuda_problem] if backend == "cuda" else []) + [m for m in _load_messages if backend in m.lower()]
        if backend in registered:
            what = "loaded but found no device"
            reasons = reasons or [_NO_DEVICE.get(backend, "no driver or hardware for it was found")]
        else:
            what = "failed to load"
            if not reasons and detail:
                reasons.append(_dlopen_problem(path, folder))
            elif not reasons and backend == "vulkan":
                reasons.append(_vulkan_absent())
        reason = "; ".join(reasons) or "run `parley devices` for the loader's reason"
        problems.append((backend, f"the {backend.upper()} backend ({path.name}) {what}: {reason}"))
    return problems


def _vulkan_absent() -> str:
    """Why the Vulkan module registered nothing: ggml's Vulkan backend gives up silently when no
    loader or no driver is installed.  Opening the loader itself runs no driver code."""
    name = "vulkan-1.dll" if sys.platform == "win32" else "libvulkan.so.1"
    try:
        ctypes.CDLL(name)
    except OSError:
        return f"no Vulkan loader is installed ({name}; Debian and Ubuntu: libvulkan1)"
    return _NO_DEVICE["vulkan"]


def _dlopen_problem(path: Path, folder: Path) -> str:
    """Why a backend module did not register: ggml tries candidates silently, so ask the loader."""
    real = path.resolve()
    if real.parent != folder.resolve():
        return f"not opened to find out why: it is a link to {real}, outside Parley's library folder"
    try:
        ctypes.CDLL(str(real))
    except OSError as exc:
        return str(exc)
    return "it loaded but found no usable device (driver or hardware missing)"


def string(ptr: Any) -> str:
    """Decode a C string (NULL gives an empty string)."""
    if ptr == ffi().NULL:
        return ""
    text: bytes = ffi().string(ptr)
    return text.decode("utf-8", "replace")


def mapped_libraries() -> list[str]:
    """Paths of shared libraries mapped into this process (Linux and Windows; empty elsewhere)."""
    if sys.platform == "win32":
        return sorted(windows_modules())
    maps = Path("/proc/self/maps")
    if not sys.platform.startswith("linux") or not maps.exists():
        return []
    paths = set()
    for line in maps.read_text().splitlines():
        parts = line.split(maxsplit=5)
        if len(parts) == 6 and ".so" in parts[5]:
            paths.add(parts[5].strip())
    return sorted(paths)
