#!/usr/bin/env python3
"""Build the one shared ggml + llama.cpp + whisper.cpp, cached, and the cffi bindings.

Standard library only, so it runs from a bare interpreter, from the setup script and from
pip's isolated build environment alike.

Steps:
1. Fetch the pinned PyPI source packages from the indexes pip is configured with (so the user's
   mirror, CA bundle and proxy apply) as plain files, and check them against the SHA-256 hashes
   in ``pins.json`` before anything in them is unpacked or run.
2. Configure and build llama.cpp, which builds ggml, as shared libraries with dynamic
   backend loading; install it to a prefix.  Then build whisper.cpp against that installed
   ggml (``WHISPER_USE_SYSTEM_GGML``), so there is exactly one ggml.
3. Gather every shared library under its soname into one flat folder (``lib``), the folder the
   engine hands to ``ggml_backend_load_all_from_path``.
4. Compile the cffi extension (out-of-line API mode) against the installed headers.

Everything lives in a cache folder keyed by a hash of the pins, the options and this file:
a second run with the same key does nothing.  An interrupted build resumes incrementally.

Options come from the environment (or the command line):
    PARLEY_CUDA=1     build the CUDA backend with NVIDIA's CUDA 13 toolchain from PyPI (pins.json)
    PARLEY_CUDA_ARCHS CUDA architectures (default 75;80;86;89;90)
    PARLEY_VULKAN=1   build the Vulkan backend (needs glslc and the Vulkan loader; on Linux the
                      headers are Debian 13's, pinned in pins.json and fetched into the cache)
    PARLEY_VULKAN_INCLUDE  Vulkan headers to use instead of the pinned ones
    PARLEY_METAL=0    disable Metal on Apple (on by default there)
    PARLEY_JOBS=N     parallel compile jobs (default: CPU count)
    PARLEY_CACHE_DIR  cache root (default: the user cache folder, ``parley`` inside it)
    CC, CXX           the C and C++ compilers CMake uses (part of the cache key when set)
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import hashlib
import html.parser
import importlib.util
import json
import os
import platform
import re
import shutil
import ssl
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import Any

HERE = Path(__file__).resolve().parent
PINS_FILE = HERE / "pins.json"
CFFI_SCRIPT = HERE / "cffi_build.py"
REPO = HERE.parent
IN_TREE_DEST = REPO / "parley" / "engine" / "_native"
FFI_MODULE = "parley.engine._native._ffi"
GPT2_VOCAB = "ggml-vocab-gpt-2.gguf"

# Suffixes of files that make up the runtime library folder.
if sys.platform == "win32":
    LIB_GLOBS = ("*.dll",)
elif sys.platform == "darwin":
    LIB_GLOBS = ("*.dylib", "*.so", "*.metal")
else:
    LIB_GLOBS = ("*.so", "*.so.*")


class BuildError(RuntimeError):
    """The native build failed; the message says which step and where the log is."""


def log(msg: str) -> None:
    print(f"[parley-native] {msg}", file=sys.stderr, flush=True)


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() not in ("0", "false", "no", "off")


@dataclasses.dataclass(frozen=True)
class Options:
    cuda: bool = False
    vulkan: bool = False
    metal: bool = sys.platform == "darwin"
    jobs: int = os.cpu_count() or 2

    @classmethod
    def from_env(cls) -> Options:
        jobs = int(os.environ.get("PARLEY_JOBS") or (os.cpu_count() or 2))
        return cls(
            cuda=env_flag("PARLEY_CUDA", False),
            vulkan=env_flag("PARLEY_VULKAN", False),
            metal=env_flag("PARLEY_METAL", sys.platform == "darwin"),
            jobs=max(1, jobs),
        )

    def key_fields(self) -> dict[str, bool]:
        """What changes the binaries (jobs does not)."""
        return {"cuda": self.cuda, "vulkan": self.vulkan, "metal": self.metal}


def cache_root() -> Path:
    if os.environ.get("PARLEY_CACHE_DIR"):
        return Path(os.environ["PARLEY_CACHE_DIR"]).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "parley"


def load_pins() -> dict[str, dict[str, str]]:
    return json.loads(PINS_FILE.read_text())["sources"]


def load_cuda_pins() -> dict[str, dict[str, str]]:
    """The CUDA toolchain wheels (``PARLEY_CUDA=1``)."""
    return json.loads(PINS_FILE.read_text())["cuda_toolkit"]


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# Bump when the build steps change in a way the flags below do not show.
RECIPE_VERSION = 1

LLAMA_FLAGS = [
    "-DLLAMA_BUILD_COMMON=OFF",
    "-DLLAMA_BUILD_TESTS=OFF",
    "-DLLAMA_BUILD_EXAMPLES=OFF",
    "-DLLAMA_BUILD_TOOLS=OFF",
    "-DLLAMA_BUILD_SERVER=OFF",
    "-DLLAMA_BUILD_APP=OFF",
    "-DLLAMA_OPENSSL=OFF",
]
WHISPER_FLAGS = ["-DWHISPER_BUILD_TESTS=OFF", "-DWHISPER_BUILD_EXAMPLES=OFF", "-DWHISPER_BUILD_SERVER=OFF"]


def build_key(opts: Options) -> str:
    """Hash of everything that decides the native binaries: pins, flags, platform, recipe."""
    recipe = {
        "recipe": RECIPE_VERSION,
        "pins": load_pins(),
        "common": common_cmake_args(opts),
        "ggml": ggml_cmake_args(opts),
        "llama": LLAMA_FLAGS,
        "whisper": WHISPER_FLAGS,
        "platform": f"{sys.platform}-{platform.machine()}",
    }
    if opts.cuda:
        recipe["cuda_toolkit"] = load_cuda_pins()
    if opts.vulkan:
        recipe["vulkan_headers"] = vulkan_headers_identity()
    # CMake takes the compilers from CC and CXX (packaging/build_debian11.sh sets them to clang);
    # only named when set, so that the usual builds keep their keys.
    compilers = {name: os.environ[name] for name in ("CC", "CXX") if os.environ.get(name)}
    if compilers:
        recipe["compilers"] = compilers
    return hashlib.sha256(json.dumps(recipe, sort_keys=True).encode()).hexdigest()[:16]


def run(cmd: list[str], logfile: Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    """Run a build command, output to ``logfile``; on failure show its tail."""
    with logfile.open("a") as fh:
        fh.write(f"\n$ {' '.join(cmd)}\n")
        fh.flush()
        proc = subprocess.run(cmd, cwd=cwd, stdout=fh, stderr=subprocess.STDOUT, env=env)
    if proc.returncode != 0:
        tail = logfile.read_text(errors="replace").splitlines()[-40:]
        raise BuildError(
            f"command failed ({proc.returncode}): {' '.join(cmd)}\n" + "\n".join(tail) + f"\nfull log: {logfile}"
        )


@contextmanager
def locked(folder: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``folder`` so concurrent setups never build into one tree."""
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / ".lock").open("w") as fh:
        if sys.platform != "win32":
            import fcntl

            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                log(f"waiting for another build in {folder}")
                fcntl.flock(fh, fcntl.LOCK_EX)
        yield


# --------------------------------------------------------------------------- sources


def fetch_source(name: str, pin: dict[str, str], root: Path) -> Path:
    """Return the verified source archive of ``name``, downloading it when needed."""
    return fetch_verified(pin, root / "sources", f"source of {name}")


def fetch_verified(pin: dict[str, str], folder: Path, what: str) -> Path:
    """Download ``pin["file"]`` into ``folder`` and check its SHA-256 before anything uses it.

    The file is fetched as bytes from the package index pip is configured with; nothing in it
    runs before the hash matches.  (``pip download`` of a source package would prepare its
    metadata first, i.e. run the archive's build code and install unpinned build
    dependencies, before any check of ours.)
    """
    folder.mkdir(parents=True, exist_ok=True)
    archive = folder / pin["file"]
    if archive.exists() and sha256_file(archive) == pin["sha256"]:
        return archive
    log(f"fetching {pin['package']}=={pin['version']} ({what})")
    config = PipConfig.load()
    opener = config.opener()
    url = find_file_url(pin["package"], pin["file"], config, opener)
    with tempfile.NamedTemporaryFile(dir=folder, prefix=".part-", delete=False) as tmp:
        try:
            digest = hashlib.sha256()
            with opener.open(url, timeout=180) as response:
                for block in iter(lambda: response.read(1 << 20), b""):
                    digest.update(block)
                    tmp.write(block)
            tmp.close()
            if digest.hexdigest() != pin["sha256"]:
                raise BuildError(
                    f"{pin['file']} from {url}: SHA-256 mismatch (expected {pin['sha256']}, got "
                    f"{digest.hexdigest()}); refusing to build from unverified files"
                )
            os.replace(tmp.name, archive)
        except OSError as exc:
            raise BuildError(f"could not download {url}: {exc}") from exc
        finally:
            if os.path.exists(tmp.name):
                os.unlink(tmp.name)
    return archive


@dataclasses.dataclass
class PipConfig:
    """Where pip would look for packages: its index URLs, find-links, CA bundle and proxy."""

    index_urls: list[str]
    find_links: list[str]
    cert: str | None = None
    proxy: str | None = None

    @classmethod
    def load(cls) -> PipConfig:
        """Read pip's merged configuration (files and PIP_* variables) with ``pip config list``."""
        values: dict[str, str] = {}
        rank: dict[str, int] = {}
        try:
            proc = subprocess.run(
                [sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True, timeout=60
            )
            lines = proc.stdout.splitlines()
        except (OSError, subprocess.SubprocessError):
            lines = []
        for line in lines:
            key, sep, raw = line.partition("=")
            if not sep:
                continue
            section, _, option = key.rpartition(".")
            try:
                value = str(ast.literal_eval(raw))
            except (ValueError, SyntaxError):
                value = raw.strip("'\"")
            order = {":env:": 3, "download": 2, "global": 1}.get(section, 0)
            if order and order >= rank.get(option, 0):
                values[option], rank[option] = value, order
        if env_flag("PIP_NO_INDEX", False) or values.get("no-index", "").lower() in ("1", "true", "yes", "on"):
            indexes = []
        else:
            indexes = [values.get("index-url") or "https://pypi.org/simple"] + values.get("extra-index-url", "").split()
        return cls(indexes, values.get("find-links", "").split(), values.get("cert"), values.get("proxy"))

    def opener(self) -> urllib.request.OpenerDirector:
        handlers: list[urllib.request.BaseHandler] = [urllib.request.FileHandler()]
        if self.cert:
            handlers.append(urllib.request.HTTPSHandler(context=ssl.create_default_context(cafile=self.cert)))
        if self.proxy:
            handlers.append(urllib.request.ProxyHandler({"http": self.proxy, "https": self.proxy}))
        opener = urllib.request.build_opener(*handlers)
        opener.addheaders = [("User-Agent", "parley-native-build")]
        return opener


class _Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.hrefs += [v for k, v in attrs if k == "href" and v]


def find_file_url(package: str, filename: str, config: PipConfig, opener: urllib.request.OpenerDirector) -> str:
    """The URL of ``filename`` in pip's find-links and package indexes (simple API, PEP 503)."""
    pages: list[str] = []
    for link in config.find_links:
        local = Path(urllib.parse.urlsplit(link).path) if link.startswith("file:") else Path(link)
        if "://" not in link or link.startswith("file:"):
            if (local / filename).is_file():
                return (local / filename).resolve().as_uri()
            continue
        pages.append(link)
    normalized = re.sub(r"[-_.]+", "-", package).lower()
    indexes = sorted(config.index_urls, key=lambda url: not url.startswith("file:"))  # local mirrors first
    pages += [index.rstrip("/") + f"/{normalized}/" for index in indexes]
    tried = []
    for page in pages:
        try:
            url = page + "index.html" if page.startswith("file:") and page.endswith("/") else page
            with opener.open(url, timeout=60) as response:
                parser = _Links()
                parser.feed(response.read().decode("utf-8", "replace"))
        except OSError as exc:
            tried.append(f"{page} ({exc})")
            continue
        for href in parser.hrefs:
            target = urllib.parse.urljoin(page, href)
            if urllib.parse.unquote(urllib.parse.urlsplit(target).path).rsplit("/", 1)[-1] == filename:
                return urllib.parse.urldefrag(target).url
        tried.append(page)
    raise BuildError(
        f"{filename} was not found in pip's package indexes or find-links: {', '.join(tried) or 'none configured'}"
    )


def extract_subdir(archive: Path, subdir: str, dest: Path) -> Path:
    """Extract only ``subdir`` of a source archive into ``dest`` (idempotent)."""
    marker = dest / ".extracted"
    if marker.exists() and marker.read_text() == archive.name:
        return dest
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    prefix = subdir.rstrip("/") + "/"
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if not member.name.startswith(prefix):
                continue
            rel = member.name[len(prefix) :]
            if not rel or rel.startswith("/") or ".." in Path(rel).parts:
                continue
            if member.issym() or member.islnk():
                continue  # the sources carry no links we need; refuse to follow any
            target = dest / rel
            if member.isdir():
                target.mkdir(parents=True, exist_ok=True)
            elif member.isfile():
                target.parent.mkdir(parents=True, exist_ok=True)
                src = tar.extractfile(member)
                assert src is not None
                with target.open("wb") as out:
                    shutil.copyfileobj(src, out)
                if member.mode & 0o111:
                    target.chmod(0o755)
    marker.write_text(archive.name)
    return dest


# --------------------------------------------------------------------------- cmake


def common_cmake_args(opts: Options) -> list[str]:
    args = ["-DCMAKE_BUILD_TYPE=Release", "-DBUILD_SHARED_LIBS=ON"]
    if shutil.which("ninja"):
        args += ["-G", "Ninja"]
    if sys.platform == "darwin":
        args.append("-DCMAKE_INSTALL_RPATH=@loader_path")
    elif sys.platform != "win32":
        args.append("-DCMAKE_INSTALL_RPATH=$ORIGIN")
    return args


def ggml_cmake_args(opts: Options) -> list[str]:
    args = ["-DGGML_BACKEND_DL=ON", "-DGGML_NATIVE=OFF"]
    if platform.machine().lower() in ("x86_64", "amd64", "aarch64", "arm64") and sys.platform != "darwin":
        args.append("-DGGML_CPU_ALL_VARIANTS=ON")
    args.append(f"-DGGML_CUDA={'ON' if opts.cuda else 'OFF'}")
    args.append(f"-DGGML_VULKAN={'ON' if opts.vulkan else 'OFF'}")
    args.append(f"-DGGML_METAL={'ON' if opts.metal else 'OFF'}")
    # The RPC client and server (remote devices), as one more backend module.  RDMA off: the
    # transport would otherwise depend on whether libibverbs happens to be on the build machine.
    args += ["-DGGML_RPC=ON", "-DGGML_RPC_RDMA=OFF"]
    if opts.metal:
        args.append("-DGGML_METAL_EMBED_LIBRARY=ON")
    if opts.cuda:
        # The common architectures rather than only the build machine's GPU (CUDA 13 starts at
        # Turing, 75); each one adds compile time and size, PARLEY_CUDA_ARCHS picks fewer.
        # No VMM: the module then needs no libcuda at link time (the wheels carry no stub of
        # it) and ggml uses its plain cudaMalloc pool.
        args.append("-DCMAKE_CUDA_ARCHITECTURES=" + cuda_archs())
        args.append("-DGGML_CUDA_NO_VMM=ON")
    return args


# --------------------------------------------------------------------------- Vulkan headers


def load_vulkan_headers_pin() -> dict[str, Any]:
    return dict(json.loads(PINS_FILE.read_text())["vulkan_headers"])


def pinned_vulkan_headers_used() -> bool:
    """The pinned headers are for Linux; elsewhere the Vulkan SDK's are found by CMake."""
    return sys.platform.startswith("linux") and not os.environ.get("PARLEY_VULKAN_INCLUDE")


def vulkan_headers_identity() -> object:
    """What decides the Vulkan headers, for the build key."""
    if os.environ.get("PARLEY_VULKAN_INCLUDE"):
        return os.environ["PARLEY_VULKAN_INCLUDE"]
    return load_vulkan_headers_pin() if pinned_vulkan_headers_used() else "system"


def vulkan_args(root: Path) -> list[str]:
    """CMake arguments naming the Vulkan headers: ``PARLEY_VULKAN_INCLUDE`` or the pinned ones.

    This ggml needs ``VK_EXT_layer_settings`` (headers 1.3.296 or newer), which Debian 12's
    1.3.239 and Ubuntu 22.04's lack.  Headers do not change what the module links: it still
    takes the system's loader, ``libvulkan.so.1``, whatever its 1.x version.
    """
    include = os.environ.get("PARLEY_VULKAN_INCLUDE")
    if include:
        return [f"-DVulkan_INCLUDE_DIR={include}"]
    if not pinned_vulkan_headers_used():
        return []
    return [f"-DVulkan_INCLUDE_DIR={vulkan_headers(root)}"]


VULKAN_HEADER_DIRS = ("usr/include/vulkan/", "usr/include/vk_video/")
MAX_HEADER_BYTES = 64 << 20  # the whole set is 18 MB (vulkan.hpp); far more is not these headers


def vulkan_headers(root: Path) -> Path:
    """Debian 13's ``libvulkan-dev`` headers, hash-checked and unpacked into the cache (once).

    The package is downloaded as bytes and its SHA-256 checked before it is parsed; then only
    regular files under ``usr/include/vulkan`` and ``usr/include/vk_video`` are written, by
    name checks of our own (no ``dpkg``, no links, no paths outside the folder).
    """
    pin = load_vulkan_headers_pin()
    folder = root / "vulkan-headers" / pin["version"]
    include = folder / "usr" / "include"
    if (include / "vulkan" / "vulkan_core.h").is_file():
        return include
    deb = fetch_url_verified(pin, root / "downloads", "Vulkan headers")
    with locked(root / "vulkan-headers"):
        partial = folder.with_name(folder.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        try:
            written = 0
            for name, data in deb_data_files(deb, VULKAN_HEADER_DIRS):
                written += len(data)
                if written > MAX_HEADER_BYTES:
                    raise BuildError(f"{deb.name}: more header data than expected; refusing it")
                target = partial / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            if not (partial / "usr" / "include" / "vulkan" / "vulkan_core.h").is_file():
                raise BuildError(f"{deb.name}: no usr/include/vulkan/vulkan_core.h in it")
        except BaseException:
            shutil.rmtree(partial, ignore_errors=True)
            raise
        shutil.rmtree(folder, ignore_errors=True)
        partial.rename(folder)
    log(f"Vulkan headers {pin['version']} (Debian's {pin['package']}) in {include}")
    return include


def deb_data_files(deb: Path, prefixes: tuple[str, ...]) -> Iterator[tuple[str, bytes]]:
    """Regular files of a Debian package's ``data.tar.*`` whose paths start with ``prefixes``.

    A ``.deb`` is an ``ar`` archive (``debian-binary``, ``control.tar.*``, ``data.tar.*``); it
    is read with the standard library alone.
    """
    import io

    raw = deb.read_bytes()
    if not raw.startswith(b"!<arch>\n"):
        raise BuildError(f"{deb.name}: not a Debian package (no ar header)")
    pos, data = 8, None
    while pos + 60 <= len(raw):
        header = raw[pos : pos + 60]
        name = header[:16].decode("ascii", "replace").strip().rstrip("/")
        try:
            size = int(header[48:58].decode("ascii").strip())
        except ValueError as exc:
            raise BuildError(f"{deb.name}: damaged ar member header") from exc
        if size < 0 or pos + 60 + size > len(raw):
            raise BuildError(f"{deb.name}: ar member {name!r} runs past the end")
        if name.startswith("data.tar"):
            data = raw[pos + 60 : pos + 60 + size]
            break
        pos += 60 + size + (size & 1)
    if data is None:
        raise BuildError(f"{deb.name}: no data.tar member")
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as tar:
        for member in tar:
            path = member.name[2:] if member.name.startswith("./") else member.name
            if not member.isfile() or not path.startswith(prefixes):
                continue
            parts = PurePosixPath(path).parts
            if path.startswith("/") or ".." in parts or any(not re.fullmatch(r"[A-Za-z0-9_.+-]+", p) for p in parts):
                raise BuildError(f"{deb.name}: unsafe path {member.name!r}")
            extracted = tar.extractfile(member)
            assert extracted is not None
            yield path, extracted.read()


def fetch_url_verified(pin: dict[str, Any], folder: Path, what: str) -> Path:
    """Download ``pin["file"]`` from one of ``pin["urls"]`` and check its SHA-256 first."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / pin["file"]
    if target.exists() and sha256_file(target) == pin["sha256"]:
        return target
    log(f"fetching {pin['package']} {pin['version']} ({what})")
    opener = PipConfig.load().opener()  # the same CA bundle and proxy as pip's
    problems = []
    for url in pin["urls"]:
        try:
            with opener.open(url, timeout=180) as response:
                body = response.read(64 << 20)
        except OSError as exc:
            problems.append(f"{url}: {exc}")
            continue
        digest = hashlib.sha256(body).hexdigest()
        if digest != pin["sha256"]:
            problems.append(f"{url}: SHA-256 {digest}, expected {pin['sha256']}")
            continue
        tmp = target.with_name(".part-" + target.name)
        tmp.write_bytes(body)
        os.replace(tmp, target)
        return target
    raise BuildError(
        f"could not get {pin['file']} ({what}):\n  " + "\n  ".join(problems) + "\n"
        "Set PARLEY_VULKAN_INCLUDE to a folder of Vulkan headers 1.3.296 or newer instead."
    )


def cuda_archs() -> str:
    return os.environ.get("PARLEY_CUDA_ARCHS") or "75;80;86;89;90"


# --------------------------------------------------------------------------- CUDA toolchain

# Where a system CUDA usually lives: the build must not pick anything up from these.
SYSTEM_CUDA_GLOBS = ("/usr/local/cuda*", "/opt/cuda*", "/usr/lib/cuda", "/usr/lib/nvidia-cuda-toolkit")


def system_cuda_prefixes() -> list[str]:
    found = set()
    for pattern in SYSTEM_CUDA_GLOBS:
        for path in Path("/").glob(pattern.lstrip("/")):
            found.add(str(path))
            found.add(str(path.resolve()))
    return sorted(found)


def cuda_toolkit(root: Path) -> Path:
    """Unpack the pinned CUDA wheels into one folder (cached); return the toolkit root in it.

    The wheels lay the toolkit out as ``nvidia/cu13/{bin,include,lib,nvvm}``.  CMake and nvcc
    also want ``lib64`` and the unversioned development names (``libcudart.so``), which the
    wheels leave out, so those are added as links.
    """
    pins = load_cuda_pins()
    folder = root / "cuda" / hashlib.sha256(json.dumps(pins, sort_keys=True).encode()).hexdigest()[:16]
    stamp = folder / ".unpacked"
    with locked(folder):
        if not stamp.exists():
            site = folder / "site"
            shutil.rmtree(site, ignore_errors=True)
            for pin in pins.values():
                extract_wheel(fetch_verified(pin, root / "wheels", "CUDA toolchain"), site)
            (toolkit,) = (site / "nvidia").glob("cu[0-9]*")
            (toolkit / "lib64").symlink_to("lib")
            for lib in (toolkit / "lib").glob("lib*.so.*"):
                dev = toolkit / "lib" / (lib.name.split(".so.")[0] + ".so")
                if not dev.exists():
                    dev.symlink_to(lib.name)
            stamp.write_text(str(toolkit.relative_to(folder)))
    return folder / stamp.read_text()


def extract_wheel(wheel: Path, dest: Path) -> None:
    """Unpack a (verified) wheel: a zip file, nothing in it runs; keep the executable bits."""
    import zipfile

    with zipfile.ZipFile(wheel) as zf:
        for info in zf.infolist():
            rel = Path(info.filename)
            if rel.is_absolute() or ".." in rel.parts:
                raise BuildError(f"{wheel.name}: unsafe path {info.filename!r}")
            if info.is_dir():
                continue
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            with zf.open(info) as src, target.open("wb") as out:
                shutil.copyfileobj(src, out)
            if (info.external_attr >> 16) & 0o111:
                target.chmod(0o755)


def cuda_build_env(toolkit: Path) -> tuple[list[str], dict[str, str]]:
    """CMake arguments and environment that make CMake and nvcc see our toolkit and no other."""
    ignored = system_cuda_prefixes()
    args = [f"-DCMAKE_CUDA_COMPILER={toolkit / 'bin' / 'nvcc'}", f"-DCUDAToolkit_ROOT={toolkit}"]
    if ignored:
        args.append("-DCMAKE_IGNORE_PREFIX_PATH=" + ";".join(ignored))
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in (
            "CUDA_PATH",
            "CUDA_HOME",
            "CUDA_ROOT",
            "CUDACXX",
            "CUDAToolkit_ROOT",
            "NVCC_PREPEND_FLAGS",
            "NVCC_APPEND_FLAGS",
            "LIBRARY_PATH",
            "CPATH",
        )
    }
    env["PATH"] = os.pathsep.join(
        [str(toolkit / "bin")]
        + [p for p in os.environ.get("PATH", "").split(os.pathsep) if not any(p.startswith(c) for c in ignored)]
    )
    return args, env


def check_no_system_cuda(build: Path, toolkit: Path) -> None:
    """Fail when the configured build refers to a system CUDA instead of our toolkit."""
    cache = (build / "CMakeCache.txt").read_text(errors="replace")
    compiler = re.search(r"^CMAKE_CUDA_COMPILER:[A-Z]+=(.*)$", cache, re.M)
    if not compiler or Path(compiler.group(1)).resolve() != (toolkit / "bin" / "nvcc").resolve():
        raise BuildError(
            f"CMake chose the CUDA compiler {compiler.group(1) if compiler else '(none)'}, not {toolkit}/bin/nvcc"
        )
    leaks = [
        line
        for line in cache.splitlines()
        if not line.startswith(("#", "//", "CMAKE_IGNORE_PREFIX_PATH"))
        and any(prefix in line for prefix in system_cuda_prefixes())
    ]
    if leaks:
        raise BuildError("the CUDA build refers to a system CUDA:\n" + "\n".join(leaks[:10]))


def cuda_runtime_names(toolkit: Path) -> list[str]:
    """Sonames of the CUDA libraries libggml-cuda needs at run time, in load order."""
    names = []
    for stem in ("libcudart", "libcublasLt", "libcublas"):
        found = sorted(
            p.name for p in (toolkit / "lib").glob(f"{stem}.so.*") if re.fullmatch(rf"{stem}\.so\.\d+", p.name)
        )
        names += found[:1]
    return names


def cmake_build(
    src: Path,
    build: Path,
    prefix: Path,
    args: list[str],
    opts: Options,
    logfile: Path,
    targets: list[str] | None = None,
    install: bool = True,
    env: dict[str, str] | None = None,
    toolkit: Path | None = None,
) -> None:
    build.mkdir(parents=True, exist_ok=True)
    if not (build / "CMakeCache.txt").exists():
        configure = ["cmake", "-S", str(src), "-B", str(build), f"-DCMAKE_INSTALL_PREFIX={prefix}", *args]
        try:
            run(configure, logfile, env=env)
        except BuildError:
            # A failed configure leaves a cache behind; the next run must configure again rather
            # than build a tree that has no build files.
            (build / "CMakeCache.txt").unlink(missing_ok=True)
            raise
    if toolkit is not None:
        check_no_system_cuda(build, toolkit)
    cmd = ["cmake", "--build", str(build), "--config", "Release", "-j", str(opts.jobs)]
    for target in targets or []:
        cmd += ["--target", target]
    run(cmd, logfile, env=env)
    if install:
        run(["cmake", "--install", str(build), "--config", "Release"], logfile, env=env)


def gather_libs(prefix: Path, libdir: Path) -> list[Path]:
    """Copy every runtime library of ``prefix`` into ``libdir`` under the name the loader wants.

    On Linux the loader asks for the soname (``libggml.so.0``) while ggml's backend scanner
    wants ``libggml-<name>.so``; symlink chains are resolved into plain files so the folder
    also survives being packed into a wheel.
    """
    if libdir.exists():
        shutil.rmtree(libdir)
    libdir.mkdir(parents=True)
    seen: dict[str, Path] = {}
    for sub in ("lib", "lib64", "bin"):
        folder = prefix / sub
        if not folder.is_dir():
            continue
        for pattern in LIB_GLOBS:
            for path in folder.glob(pattern):
                if path.name in seen or path.is_dir():
                    continue
                seen[path.name] = path
    wanted = {name: path for name, path in seen.items() if _is_runtime_name(name, seen)}
    for name, path in sorted(wanted.items()):
        shutil.copy2(path.resolve(), libdir / name)
    return sorted(libdir.iterdir())


def _is_runtime_name(name: str, all_names: dict[str, Path]) -> bool:
    """Keep the names the dynamic loader or the backend scanner will open, drop the rest.

    libfoo.so.0.9.3 (real file) and libfoo.so (dev link) are dropped when libfoo.so.0 (soname)
    exists; backend modules are unversioned (libggml-cpu-haswell.so) and kept.
    """
    if sys.platform == "darwin":
        return _is_macos_runtime_name(name, all_names)
    if sys.platform != "linux":
        return True  # Windows: DLL names carry no version (ggml-base.dll, whisper.dll)
    if ".so." in name:
        stem, _, version = name.partition(".so.")
        return "." not in version  # keep libfoo.so.0, drop libfoo.so.0.9.3
    if name.endswith(".so"):
        return not any(other.startswith(name + ".") for other in all_names)
    return False


def _is_macos_runtime_name(name: str, all_names: dict[str, Path]) -> bool:
    """macOS: keep libfoo.0.dylib, the install name the loader asks for (@rpath/libfoo.0.dylib);
    drop libfoo.dylib and libfoo.0.25.3.dylib (link and real file) when it exists, which would
    otherwise become two more real copies of the same library. Backend modules are unversioned
    ``.so`` files on macOS too (ggml builds MODULE libraries without a version there)."""
    match = re.fullmatch(r"(.+?)((?:\.\d+)*)\.dylib", name)
    if match is None:
        return True
    stem, version = match.groups()
    if version.count(".") == 1:
        return True
    return not any(re.fullmatch(re.escape(stem) + r"\.\d+\.dylib", other) for other in all_names)


def build_native(opts: Options, root: Path | None = None) -> Path:
    """Build (or find cached) the native libraries; return the work folder (lib/, include/)."""
    root = root or cache_root()
    key = build_key(opts)
    work = root / "native" / key
    stamp = work / "stamp.json"
    if stamp.exists():
        log(f"native build {key} is cached at {work}")
        return work
    with locked(work):
        if stamp.exists():  # another process finished it while we waited
            return work
        return _build_native(opts, root, key, work, stamp)


def _build_native(opts: Options, root: Path, key: str, work: Path, stamp: Path) -> Path:
    started = time.monotonic()
    work.mkdir(parents=True, exist_ok=True)
    logfile = work / "build.log"
    log(f"building native libraries (key {key}); log: {logfile}")
    pins = load_pins()
    srcs = {
        name: extract_subdir(fetch_source(name, pin, root), pin["subdir"], work / "src" / name)
        for name, pin in pins.items()
    }
    prefix = work / "prefix"
    toolkit, cuda_args, env = None, [], None
    if opts.cuda:
        toolkit = cuda_toolkit(root)
        cuda_args, env = cuda_build_env(toolkit)
        log(f"CUDA toolchain from PyPI wheels in {toolkit}; architectures {cuda_archs()}")
    vulkan = vulkan_args(root) if opts.vulkan else []
    t0 = time.monotonic()
    log(
        f"compiling ggml (all CPU variants) and llama.cpp with {opts.jobs} jobs: about 6 minutes on 2 cores"
        + (", much longer with CUDA" if opts.cuda else "")
    )
    cmake_build(
        srcs["llama.cpp"],
        work / "build" / "llama",
        prefix,
        common_cmake_args(opts) + ggml_cmake_args(opts) + cuda_args + vulkan + LLAMA_FLAGS,
        opts,
        logfile,
        env=env,
        toolkit=toolkit,
    )
    log(f"ggml + llama.cpp built in {time.monotonic() - t0:.0f} s")
    t0 = time.monotonic()
    cmake_build(
        srcs["whisper.cpp"],
        work / "build" / "whisper",
        prefix,
        common_cmake_args(opts)
        + ["-DWHISPER_USE_SYSTEM_GGML=ON", f"-DCMAKE_PREFIX_PATH={prefix}"]
        + cuda_args
        + WHISPER_FLAGS,
        opts,
        logfile,
        env=env,
    )
    log(f"whisper.cpp built in {time.monotonic() - t0:.0f} s")
    libs = gather_libs(prefix, work / "lib")
    shutil.rmtree(work / "include", ignore_errors=True)
    shutil.copytree(prefix / "include", work / "include")
    info = {
        "key": key,
        "options": opts.key_fields(),
        "pins": {name: f"{pin['package']}=={pin['version']}" for name, pin in pins.items()},
        "libs": {p.name: p.stat().st_size for p in libs},
        "build_seconds": round(time.monotonic() - started, 1),
    }
    if toolkit is not None:
        # native.py reads this to find the CUDA runtime libraries before ggml loads the module.
        info["cuda"] = {
            "toolkit": load_cuda_pins()["nvidia-cuda-nvcc"]["version"],
            "architectures": cuda_archs(),
            "runtime_libraries": cuda_runtime_names(toolkit),
        }
    (work / "lib" / "build-info.json").write_text(json.dumps(info, indent=2))
    stamp.write_text(json.dumps(info, indent=2))
    log(
        f"native build done in {info['build_seconds']} s: {len(libs)} libraries, "
        f"{sum(info['libs'].values()) / 1e6:.1f} MB"
    )
    return work


@dataclasses.dataclass(frozen=True)
class ToolSet:
    """Executables built from the same pinned sources against our ggml, for the benchmarks."""

    name: str  # also names the build folders and the output folder (``<name>-bin``)
    llama_target: str
    whisper_target: str
    servers: bool  # LLAMA_BUILD_SERVER / WHISPER_BUILD_SERVER


BENCH_TOOLS = ToolSet("bench", "llama-bench", "whisper-cli", servers=False)
SERVER_TOOLS = ToolSet("server", "llama-server", "whisper-server", servers=True)


def build_bench_tools(opts: Options, root: Path | None = None, tools: ToolSet = BENCH_TOOLS) -> Path:
    """Build ``tools`` (whisper-cli and llama-bench by default; ``SERVER_TOOLS``: llama-server
    and whisper-server) from the same pinned sources against our ggml.

    Bench-only: returns a folder holding the executables beside the backend modules, so the
    tools' own ``ggml_backend_load_all()`` (which looks beside the executable) finds them.
    """
    work = build_native(opts, root)
    bindir = work / f"{tools.name}-bin"
    stamp = bindir / ".stamp"
    if stamp.exists():
        return bindir
    with locked(work / "build"):
        if stamp.exists():
            return bindir
        return _build_tools(opts, work, bindir, stamp, tools)


def tools_with_cpu_variant(bindir: Path, variant: str | None) -> Path:
    """A folder from which the tools of ``bindir`` load the CPU variant ``variant`` (the one
    Parley loaded) and no other; ``bindir`` itself when ``variant`` is None.

    The tools let ggml pick the best-scoring variant beside the executable, but Parley
    overrules ggml on a processor with AMX in a virtual machine (its AMX code dies there in the
    first prompt; ``native._chosen_cpu_module``): a comparison must run both on the same
    variant.  The executables are linked (ggml looks beside the real file, not a symlink), the
    libraries symlinked, the other variants left out."""
    if variant is None:
        return bindir
    folder = bindir.parent / f"{bindir.name}-cpu-{variant}"
    wanted = f"libggml-cpu-{variant}.so"
    if not (bindir / wanted).exists():
        raise SystemExit(f"{bindir} has no {wanted}")
    folder.mkdir(exist_ok=True)
    for path in bindir.iterdir():
        target = folder / path.name
        if path.name.startswith("libggml-cpu-") and path.name != wanted or target.exists() or target.is_symlink():
            continue
        if path.suffix == ".so" or ".so." in path.name or path.name.startswith("."):
            target.symlink_to(path)
        else:
            try:
                os.link(path, target)
            except OSError:
                shutil.copy2(path, target)
    return folder


def _build_tools(opts: Options, work: Path, bindir: Path, stamp: Path, tools: ToolSet) -> Path:
    logfile = work / f"{tools.name}-build.log"
    prefix = work / f"{tools.name}-prefix"
    rpath = "$ORIGIN/../lib;" + str(work / "lib")
    server = "ON" if tools.servers else "OFF"
    llama_build = work / "build" / tools.llama_target
    whisper_build = work / "build" / tools.whisper_target
    log(f"building {tools.whisper_target} and {tools.llama_target} (bench only)")
    cmake_build(
        work / "src" / "llama.cpp",
        llama_build,
        prefix,
        common_cmake_args(opts)
        + [
            f"-DCMAKE_INSTALL_RPATH={rpath}",
            "-DLLAMA_USE_SYSTEM_GGML=ON",
            f"-DCMAKE_PREFIX_PATH={work / 'prefix'}",
            "-DLLAMA_BUILD_COMMON=ON",
            "-DLLAMA_BUILD_TOOLS=ON",
            "-DLLAMA_BUILD_TESTS=OFF",
            "-DLLAMA_BUILD_EXAMPLES=OFF",
            f"-DLLAMA_BUILD_SERVER={server}",
            "-DLLAMA_BUILD_APP=OFF",
            "-DLLAMA_OPENSSL=OFF",
        ],
        opts,
        logfile,
        targets=[tools.llama_target],
        install=False,
    )
    cmake_build(
        work / "src" / "whisper.cpp",
        whisper_build,
        prefix,
        common_cmake_args(opts)
        + [
            f"-DCMAKE_INSTALL_RPATH={rpath}",
            "-DWHISPER_USE_SYSTEM_GGML=ON",
            f"-DCMAKE_PREFIX_PATH={work / 'prefix'}",
            "-DWHISPER_BUILD_TESTS=OFF",
            "-DWHISPER_BUILD_EXAMPLES=ON",
            f"-DWHISPER_BUILD_SERVER={server}",
        ],
        opts,
        logfile,
        targets=[tools.whisper_target],
        install=False,
    )
    if bindir.exists():
        shutil.rmtree(bindir)
    bindir.mkdir()
    for lib in (work / "lib").iterdir():
        shutil.copy2(lib, bindir / lib.name)
    # The tools' own libraries: libllama / libwhisper (same sources and flags as ours), and
    # the server's helper libraries (llama-common, mtmd, ...).
    for build in (llama_build, whisper_build):
        for pattern in LIB_GLOBS:
            for path in build.rglob(pattern):
                if path.is_file() and not path.is_symlink() and not path.name.startswith("libggml"):
                    # copy under every name the loader might ask for
                    for alias in {path.name, *_so_aliases(path)}:
                        shutil.copy2(path, bindir / alias)
    for tool, build in ((tools.llama_target, llama_build), (tools.whisper_target, whisper_build)):
        found = [p for p in build.rglob(tool) if p.is_file() and os.access(p, os.X_OK)]
        if not found:
            raise BuildError(f"{tool} was not built; see {logfile}")
        shutil.copy2(found[0], bindir / tool)
        # Run-path: beside the executable first.
        if shutil.which("patchelf"):
            subprocess.run(["patchelf", "--set-rpath", "$ORIGIN", str(bindir / tool)], check=False)
    stamp.write_text("ok")
    return bindir


def _so_aliases(path: Path) -> list[str]:
    name = path.name
    if ".so." not in name:
        return []
    stem, _, version = name.partition(".so.")
    parts = version.split(".")
    return [f"{stem}.so.{'.'.join(parts[:i])}" for i in range(1, len(parts))]


# --------------------------------------------------------------------------- cffi


def build_ffi(work: Path) -> Path:
    """Compile the cffi extension against ``work``'s headers into ``dest`` (cached)."""
    digest = hashlib.sha256(CFFI_SCRIPT.read_bytes() + work.name.encode() + sys.version.encode()).hexdigest()[:16]
    cached_dir = work / "ffi" / digest
    with locked(work / "ffi"):
        return _build_ffi(work, cached_dir)


def _build_ffi(work: Path, cached_dir: Path) -> Path:
    built = list(cached_dir.glob("_ffi.*")) if cached_dir.exists() else []
    if not built:
        log("compiling cffi bindings")
        spec = importlib.util.spec_from_file_location("parley_cffi_build", CFFI_SCRIPT)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        ffibuilder = module.make_builder(include_dir=work / "include", lib_dir=work / "prefix" / "lib")
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(ffibuilder.compile(tmpdir=tmp, verbose=False))
            cached_dir.mkdir(parents=True, exist_ok=True)
            shutil.copy2(out, cached_dir / out.name)
        built = list(cached_dir.glob("_ffi.*"))
    return built[0]


def install_into(dest: Path, opts: Options, root: Path | None = None) -> Path:
    """Make ``dest`` the runtime folder: the native libraries plus the cffi extension."""
    work = build_native(opts, root)
    ffi = build_ffi(work)
    dest.mkdir(parents=True, exist_ok=True)
    wanted = {p.name: p for p in (work / "lib").iterdir()}
    wanted[ffi.name] = ffi
    # GPT-2's tokenizer (data in the pinned llama.cpp sources): the legacy GPT-2 converter
    # builds GGUF tokenizer metadata from it.
    wanted[GPT2_VOCAB] = work / "src" / "llama.cpp" / "models" / GPT2_VOCAB
    for old in dest.iterdir():
        if old.name not in wanted and old.name != "__init__.py" and old.is_file() and _is_build_output(old.name):
            old.unlink()
    for name, src in wanted.items():
        target = dest / name
        if (
            target.exists()
            and target.stat().st_size == src.stat().st_size
            and target.stat().st_mtime >= src.stat().st_mtime
        ):
            continue
        # A new file renamed over the old one, never a rewrite in place: a running Parley (or
        # test process) has the old library mapped, and rewriting its pages crashes it.
        partial = dest / f".{name}.partial-{os.getpid()}"
        shutil.copy2(src, partial)
        os.replace(partial, target)
    return dest


def _is_build_output(name: str) -> bool:
    return (
        name.startswith("_ffi.")
        or name in ("build-info.json", GPT2_VOCAB)
        or any(Path(name).match(g) for g in LIB_GLOBS)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dest", type=Path, default=IN_TREE_DEST, help="runtime folder to fill (default: in-tree)")
    parser.add_argument(
        "--bench-tools", action="store_true", help="also build whisper-cli and llama-bench; print their folder"
    )
    parser.add_argument(
        "--server-tools",
        action="store_true",
        help="also build llama-server and whisper-server (bench/bench_serve.py); print their folder",
    )
    parser.add_argument("--print-work", action="store_true", help="print the cache folder of this build and exit")
    parser.add_argument("--cuda", action="store_true", help="same as PARLEY_CUDA=1")
    parser.add_argument("--vulkan", action="store_true", help="same as PARLEY_VULKAN=1")
    args = parser.parse_args(argv)
    opts = Options.from_env()
    if args.cuda or args.vulkan:
        opts = dataclasses.replace(opts, cuda=opts.cuda or args.cuda, vulkan=opts.vulkan or args.vulkan)
    try:
        if args.print_work:
            print(cache_root() / "native" / build_key(opts))
            return 0
        started = time.monotonic()
        dest = install_into(args.dest, opts)
        log(f"runtime folder ready: {dest} ({time.monotonic() - started:.1f} s)")
        if args.bench_tools:
            print(build_bench_tools(opts))
        if args.server_tools:
            print(build_bench_tools(opts, tools=SERVER_TOOLS))
    except BuildError as exc:
        log(f"ERROR: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
