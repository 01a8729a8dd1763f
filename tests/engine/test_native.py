"""The shared native build: one ggml, backends from our own folder, clear errors, a working wheel."""

from __future__ import annotations

import ctypes.util
import dataclasses
import json
import os
import re
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

from parley.engine.backend import native

REPO = Path(__file__).resolve().parents[2]


def run_python(
    code: str, cwd: Path, env: dict[str, str] | None = None, pythonpath: Path = REPO
) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "PYTHONPATH": str(pythonpath), **(env or {})}
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=cwd,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_struct_layouts_match_the_headers() -> None:
    """API mode: the compiler computed these from the real headers (figures for x86-64 Linux)."""
    ffi = native.ffi()
    sizes = {
        name: ffi.sizeof(f"struct {name}")
        for name in (
            "whisper_full_params",
            "whisper_context_params",
            "llama_model_params",
            "llama_context_params",
            "llama_batch",
        )
    }
    if sys.platform.startswith("linux") and sys.maxsize > 2**32:
        assert sizes == {
            "whisper_full_params": 304,
            "whisper_context_params": 48,
            "llama_model_params": 80,
            "llama_context_params": 160,
            "llama_batch": 56,
        }


def test_backends_load_from_our_folder_when_cwd_is_elsewhere(tmp_path: Path) -> None:
    """`parley devices` run from an unrelated folder finds the CPU through our library folder."""
    proc = subprocess.run(
        [sys.executable, "-m", "parley", "devices", "--json"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    info = json.loads(proc.stdout)
    assert any(d["kind"] == "cpu" for d in info["devices"])
    assert Path(info["lib_dir"]) == native.lib_dir()
    assert info["cpu_variant"], "the CPU backend variant should be reported"
    table = subprocess.run(
        [sys.executable, "-m", "parley", "devices"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert table.returncode == 0 and "CPU" in table.stdout and "auto selects" in table.stdout


def test_cpu_backend_is_mapped_from_our_folder_only() -> None:
    from parley.engine.backend import devices

    devices.list_devices()
    backends = [p for p in native.mapped_libraries() if re.search(r"libggml-cpu", p)]
    assert len(backends) == 1, backends
    assert Path(backends[0]).parent == native.lib_dir()


def test_no_backend_gives_an_error_not_an_abort(tmp_path: Path) -> None:
    """whisper.cpp aborts the process with no device; we refuse in Python first."""
    empty = tmp_path / "empty-libdir"
    empty.mkdir()
    proc = run_python(
        """
        from parley.engine.backend import devices
        from parley.engine.errors import NoDeviceError
        try:
            devices.list_devices()
        except NoDeviceError as exc:
            print("NoDeviceError:", exc)
    """,
        cwd=tmp_path,
        env={"PARLEY_LIB_DIR": str(empty)},
    )
    assert proc.returncode == 0, proc.stderr
    assert "NoDeviceError: no compute device was registered" in proc.stdout


def test_failed_gpu_backend_falls_back_to_cpu_with_the_reason(tmp_path: Path, broken_gpu_libdir: Path) -> None:
    """A GPU backend module that cannot load: auto picks the CPU and says why, nothing aborts."""
    proc = run_python(
        """
        from parley.engine.backend import devices
        choice = devices.select_device("auto")
        print(choice.device.name); print(choice.fallback_reason)
    """,
        cwd=tmp_path,
        env={"PARLEY_LIB_DIR": str(broken_gpu_libdir)},
    )
    assert proc.returncode == 0, proc.stderr
    name, reason = proc.stdout.strip().splitlines()
    assert name == "CPU"
    assert "CUDA backend (libggml-cuda.so) failed to load" in reason and "using the CPU" in reason


def test_auto_never_picks_a_software_gpu_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mesa's lavapipe (a Vulkan driver on the CPU, as a machine without a GPU driver may have)
    registers as a GPU; auto keeps the CPU and names it as the reason.  The devices are what
    ggml registers on such a machine (lavapipe calls itself llvmpipe); the policy is real."""
    from parley.engine.backend import devices

    real = devices.list_devices()
    cpu = next(d for d in real if d.kind == "cpu")
    lavapipe = devices.Device(
        len(real), "Vulkan0", "llvmpipe (LLVM 15.0.6, 256 bits)", "gpu", 1 << 30, 1 << 30, "Vulkan"
    )
    monkeypatch.setattr(devices, "list_devices", lambda: [cpu, lavapipe])
    choice = devices.select_device("auto")
    assert choice.device == cpu and lavapipe.software and not cpu.software
    assert "Vulkan0 (llvmpipe (LLVM 15.0.6, 256 bits)) is a software renderer" in (choice.note or "")
    assert choice.fallback_reason is None, "no GPU driver is a fact to show, not a failure to announce"
    assert devices.select_device("Vulkan0").device == lavapipe  # asked for by name, it is used
    hardware = dataclasses.replace(lavapipe, description="AMD Radeon RX 7600 (RADV NAVI33)")
    monkeypatch.setattr(devices, "list_devices", lambda: [cpu, lavapipe, hardware])
    assert devices.select_device("auto").device == hardware


def test_unknown_device_name_falls_back_to_cpu() -> None:
    from parley.engine.backend import devices

    choice = devices.select_device("CUDA7")
    assert choice.device.kind == "cpu" and "CUDA7" in (choice.fallback_reason or "")


@pytest.mark.slow
def test_both_engines_share_one_ggml(tmp_path: Path) -> None:
    """Load a speech and a chat model in one process: each ggml library is mapped exactly once."""
    proc = run_python(
        """
        import json
        from parley.engine.backend import native
        from parley.engine.modelfiles.defaults import default_chat_model_path, default_speech_model_path
        from parley.engine.speech import SpeechModel
        from parley.engine.chat.model import ChatModel
        speech = SpeechModel(default_speech_model_path(), device="cpu", threads=2)
        chat = ChatModel(default_chat_model_path(), device="cpu", n_ctx=512, threads=2)
        print(json.dumps(native.mapped_libraries()))
    """,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    mapped = json.loads(proc.stdout.strip().splitlines()[-1])
    names = [Path(p).name for p in mapped]
    for lib in ("libggml-base", "libggml.", "libllama", "libwhisper"):
        copies = [p for p in mapped if Path(p).name.startswith(lib)]
        assert len(copies) == 1, f"{lib}: {copies}"
    assert sum(1 for n in names if n.startswith("libggml-cpu")) == 1
    assert all(Path(p).parent == native.lib_dir() for p in mapped if Path(p).name.startswith("libggml"))


@pytest.mark.slow
def test_wheel_is_self_contained(tmp_path: Path) -> None:
    """`pip wheel .` packs the library folder and the cffi module; unpacked, it runs anywhere."""
    wheels = tmp_path / "wheels"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheels), str(REPO)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr
    (wheel,) = wheels.glob("parley-*.whl")
    assert re.search(r"-cp\d+-cp\d+-(linux|macosx|win)", wheel.name), "the wheel must be platform-specific"
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        zf.extractall(tmp_path / "site")
    native_files = {Path(n).name for n in names if n.startswith("parley/engine/_native/")}
    assert any(n.startswith("_ffi.") for n in native_files)
    assert {"libggml-base.so.0", "libggml.so.0", "libllama.so.0", "libwhisper.so.1"} <= native_files
    assert any(n.startswith("libggml-cpu-") for n in native_files)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run = run_python(
        """
        from parley.engine.backend import devices, native
        print(native.lib_dir()); print([d.name for d in devices.list_devices()])
    """,
        cwd=elsewhere,
        pythonpath=tmp_path / "site",
    )
    assert run.returncode == 0, run.stderr
    assert str(tmp_path / "site") in run.stdout and "CPU" in run.stdout


# --------------------------------------------------------------------------- supply chain and backend reasons


def _probe_library(path: Path) -> Path:
    """A shared library that appends a line to $PARLEY_PROBE_MARK each time it is opened."""
    source = path.with_suffix(".c")
    source.write_text(
        textwrap.dedent("""
        #include <stdio.h>
        #include <stdlib.h>
        __attribute__((constructor)) static void mark(void) {
            const char * p = getenv("PARLEY_PROBE_MARK");
            FILE * f = p ? fopen(p, "a") : NULL;
            if (f) { fputs("opened\\n", f); fclose(f); }
        }
    """)
    )
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(path), str(source)], check=True)
    return path


def test_backend_reason_is_asked_of_the_loader_only_on_request_and_only_in_our_folder(
    tmp_path: Path, broken_gpu_libdir: Path
) -> None:
    """An automatic start opens no module again; `detail` opens ours once, never a link elsewhere."""
    _probe_library(broken_gpu_libdir / "libggml-vulkan.so")
    outside = tmp_path / "outside"
    outside.mkdir()
    (broken_gpu_libdir / "libggml-opencl.so").symlink_to(_probe_library(outside / "libggml-opencl.so"))
    mark = tmp_path / "opened.txt"
    proc = run_python(
        """
        from pathlib import Path
        from parley.engine.backend import devices, native
        mark = Path(__import__("os").environ["PARLEY_PROBE_MARK"])
        count = lambda: len(mark.read_text().splitlines()) if mark.exists() else 0
        native.load_backends()
        n0 = count()
        devices.select_device("auto")
        native.backend_problems()
        n1 = count()
        problems = native.backend_problems(detail=True)
        print(n0, n1, count())
        print("\\n".join(problems))
    """,
        cwd=tmp_path,
        env={"PARLEY_LIB_DIR": str(broken_gpu_libdir), "PARLEY_PROBE_MARK": str(mark)},
    )
    assert proc.returncode == 0, proc.stderr
    counts, *problems = proc.stdout.strip().splitlines()
    n0, n1, n2 = map(int, counts.split())
    assert n1 == n0, "an automatic start must not open rejected backend modules again"
    assert n2 == n1 + 1, "asked for the reason, only the module inside our folder is opened"
    opencl = next(p for p in problems if "OPENCL" in p)
    assert "outside Parley's library folder" in opencl
    vulkan = next(p for p in problems if "VULKAN" in p)
    assert "it loaded but found no usable device" in vulkan


def test_a_vulkan_module_with_no_driver_is_a_note_not_a_fallback(tmp_path: Path) -> None:
    """The installers ship the Vulkan module; on a machine without a Vulkan driver auto keeps the
    CPU as it did before, saying why in the choice's note (Settings, `parley devices`) rather
    than announcing a failure.  A CUDA module that fails stays a failure (test above)."""
    libdir = tmp_path / "lib"
    libdir.mkdir()
    for path in native.lib_dir().iterdir():
        if not path.name.startswith(("_ffi", "__")) and "vulkan" not in path.name:
            (libdir / path.name).symlink_to(path)
    _probe_library(libdir / "libggml-vulkan.so")  # loads, registers no backend: as with no driver
    proc = run_python(
        """
        from parley.engine.backend import devices
        choice = devices.select_device("auto")
        print(choice.device.name); print(choice.fallback_reason); print(choice.note)
    """,
        cwd=tmp_path,
        env={"PARLEY_LIB_DIR": str(libdir)},
    )
    assert proc.returncode == 0, proc.stderr
    name, fallback, note = proc.stdout.strip().splitlines()
    assert (name, fallback) == ("CPU", "None")
    assert note.startswith("the VULKAN backend (libggml-vulkan.so) failed to load: ") and note.endswith("using the CPU")
    assert "Vulkan" in note.split(": ", 1)[1]  # no loader, or no driver: said in words
    assert "load_backend" not in proc.stderr  # nor an error from ggml's loader at each start


def test_ggml_backend_path_cannot_add_a_module_from_elsewhere(tmp_path: Path) -> None:
    module = _probe_library(tmp_path / "libggml-extra.so")
    mark = tmp_path / "opened.txt"
    proc = run_python(
        """
        from parley.engine.backend import devices
        print([d.name for d in devices.list_devices()])
    """,
        cwd=tmp_path,
        env={"GGML_BACKEND_PATH": str(module), "PARLEY_PROBE_MARK": str(mark)},
    )
    assert proc.returncode == 0, proc.stderr
    assert "CPU" in proc.stdout and not mark.exists()
    assert "GGML_BACKEND_PATH is ignored" in proc.stderr


@pytest.mark.skipif(ctypes.util.find_library("cuda") is not None, reason="this machine has an NVIDIA driver")
def test_cuda_without_a_driver_names_the_missing_driver(tmp_path: Path, broken_gpu_libdir: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "parley", "devices"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO), "PARLEY_LIB_DIR": str(broken_gpu_libdir)},
    )
    assert proc.returncode == 0, proc.stderr
    assert "auto selects: CPU" in proc.stdout
    assert "CUDA backend (libggml-cuda.so)" in proc.stdout and "NVIDIA driver library is not installed" in proc.stdout
    assert "libcuda.so.1" in proc.stdout


def _backend_api_version() -> int:
    """GGML_BACKEND_API_VERSION of the ggml we built (a module of another version is refused)."""
    work = subprocess.run(
        [sys.executable, str(REPO / "native" / "build.py"), "--print-work"], capture_output=True, text=True, check=True
    ).stdout.strip()
    header = (Path(work) / "src" / "llama.cpp" / "ggml" / "src" / "ggml-backend-impl.h").read_text()
    return int(re.search(r"#define GGML_BACKEND_API_VERSION (\d+)", header).group(1))


def _deviceless_backend(path: Path, name: str) -> Path:
    """A real ggml backend module (its API version, a score, a registry) that lists no device,
    as a Vulkan module does on a machine whose only Vulkan device is a software one."""
    source = path.with_suffix(".c")
    api_version = _backend_api_version()
    source.write_text(
        textwrap.dedent(f"""
        #include <stddef.h>
        struct reg;
        struct reg_iface {{
            const char * (*get_name)(struct reg *);
            size_t (*get_device_count)(struct reg *);
            void * (*get_device)(struct reg *, size_t);
            void * (*get_proc_address)(struct reg *, const char *);
        }};
        struct reg {{ int api_version; struct reg_iface iface; void * context; }};
        static const char * get_name(struct reg * r) {{ (void) r; return "{name}"; }}
        static size_t get_device_count(struct reg * r) {{ (void) r; return 0; }}
        static void * get_device(struct reg * r, size_t i) {{ (void) r; (void) i; return NULL; }}
        static struct reg the_reg = {{ {api_version}, {{ get_name, get_device_count, get_device, NULL }}, NULL }};
        struct reg * ggml_backend_init(void) {{ return &the_reg; }}
        int ggml_backend_score(void) {{ return 1; }}
    """)
    )
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(path), str(source)], check=True)
    return path


def test_a_backend_that_loads_but_finds_no_device_says_why(tmp_path: Path, broken_gpu_libdir: Path) -> None:
    (broken_gpu_libdir / "libggml-cuda.so").unlink()
    _deviceless_backend(broken_gpu_libdir / "libggml-vulkan.so", "Vulkan")
    proc = subprocess.run(
        [sys.executable, "-m", "parley", "devices"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO), "PARLEY_LIB_DIR": str(broken_gpu_libdir)},
    )
    assert proc.returncode == 0, proc.stderr
    assert "auto selects: CPU" in proc.stdout
    assert (
        "the VULKAN backend (libggml-vulkan.so) loaded but found no device: no Vulkan driver offers a GPU "
        "(a software device such as Mesa's lavapipe is used only when GGML_VK_VISIBLE_DEVICES names it)" in proc.stdout
    ), proc.stdout
    assert "run `parley devices`" not in proc.stdout


def test_sources_are_hash_checked_before_anything_in_them_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A source package whose build code leaves a mark: fetched, it never runs; tampered, it is refused."""
    import tarfile

    sys.path.insert(0, str(REPO / "native"))
    try:
        import build as native_build
    finally:
        sys.path.pop(0)
    mark = tmp_path / "build-code-ran"
    package = tmp_path / "src" / "parley_probe_sdist-1.0"
    package.mkdir(parents=True)
    (package / "setup.py").write_text(
        f"open({str(mark)!r}, 'w').write('ran')\n"
        "from setuptools import setup\nsetup(name='parley-probe-sdist', version='1.0')\n"
    )
    (package / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: parley-probe-sdist\nVersion: 1.0\n")
    files = tmp_path / "index" / "files"
    files.mkdir(parents=True)
    archive = files / "parley_probe_sdist-1.0.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(package, arcname=package.name)
    page = tmp_path / "index" / "simple" / "parley-probe-sdist"
    page.mkdir(parents=True)
    (page / "index.html").write_text(f'<a href="../../files/{archive.name}">{archive.name}</a>')
    monkeypatch.setenv("PIP_INDEX_URL", (tmp_path / "index" / "simple").as_uri())
    monkeypatch.setenv("PIP_EXTRA_INDEX_URL", "")
    monkeypatch.setenv("PIP_FIND_LINKS", "")
    pin = {
        "package": "parley-probe-sdist",
        "version": "1.0",
        "file": archive.name,
        "sha256": native_build.sha256_file(archive),
    }
    got = native_build.fetch_verified(pin, tmp_path / "good", "test")
    assert got.read_bytes() == archive.read_bytes()
    with pytest.raises(native_build.BuildError, match="SHA-256 mismatch"):
        native_build.fetch_verified({**pin, "sha256": "0" * 64}, tmp_path / "bad", "test")
    assert list((tmp_path / "bad").iterdir()) == []
    assert not mark.exists(), "nothing from the archive may run"


def _debian_package(path: Path, members: dict[str, bytes], links: dict[str, str] | None = None) -> Path:
    """A .deb as dpkg writes one: an ar archive of debian-binary, control.tar.xz, data.tar.xz."""
    import io
    import tarfile

    def tar_xz(files: dict[str, bytes], symlinks: dict[str, str]) -> bytes:
        out = io.BytesIO()
        with tarfile.open(fileobj=out, mode="w:xz") as tar:
            for name, data in files.items():
                info = tarfile.TarInfo(name)
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
            for name, target in symlinks.items():
                info = tarfile.TarInfo(name)
                info.type, info.linkname = tarfile.SYMTYPE, target
                tar.addfile(info)
        return out.getvalue()

    def ar_member(name: str, data: bytes) -> bytes:
        header = f"{name:<16}{0:<12}{0:<6}{0:<6}{100644:<8}{len(data):<10}`\n".encode()
        return header + data + (b"\n" if len(data) % 2 else b"")

    path.write_bytes(
        b"!<arch>\n"
        + ar_member("debian-binary", b"2.0\n")
        + ar_member("control.tar.xz", tar_xz({"./control": b"Package: libvulkan-dev\n"}, {}))
        + ar_member("data.tar.xz", tar_xz(members, links or {}))
    )
    return path


def test_vulkan_headers_come_only_from_the_pinned_package(tmp_path: Path) -> None:
    """Hash-checked before it is read; only regular header files under usr/include/vulkan and
    usr/include/vk_video are written; a path that leaves the folder refuses the whole package."""
    sys.path.insert(0, str(REPO / "native"))
    try:
        import build as native_build
    finally:
        sys.path.pop(0)
    served = tmp_path / "served"
    served.mkdir()
    deb = _debian_package(
        served / "libvulkan-dev_9.9_amd64.deb",
        {
            "./usr/include/vulkan/vulkan_core.h": b"#define VK_EXT_layer_settings 1\n",
            "./usr/include/vk_video/vulkan_video_codecs_common.h": b"/* video */\n",
            "./usr/bin/not-a-header": b"#!/bin/sh\necho ran\n",
            "./usr/lib/x86_64-linux-gnu/libvulkan.so": b"\x7fELF",
        },
        links={"./usr/include/vulkan/elsewhere.h": "/etc/passwd"},
    )
    pin = {
        "package": "libvulkan-dev",
        "version": "9.9",
        "file": deb.name,
        "sha256": native_build.sha256_file(deb),
        "urls": [deb.as_uri()],
    }
    root = tmp_path / "cache"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(native_build, "load_vulkan_headers_pin", lambda: dict(pin))
        include = native_build.vulkan_headers(root)
        assert (include / "vulkan" / "vulkan_core.h").read_bytes() == b"#define VK_EXT_layer_settings 1\n"
        written = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() or p.is_symlink())
        assert [p for p in written if "/9.9/" in p] == [
            "vulkan-headers/9.9/usr/include/vk_video/vulkan_video_codecs_common.h",
            "vulkan-headers/9.9/usr/include/vulkan/vulkan_core.h",
        ]

        # Tampered on the server: refused before a byte of it is parsed.
        other = tmp_path / "other"
        deb.write_bytes(deb.read_bytes() + b"tampered")
        with pytest.raises(native_build.BuildError, match="SHA-256"):
            native_build.vulkan_headers(other)
        assert not (other / "vulkan-headers").exists()

        # The right hash, but a member that climbs out of the folder.
        evil = _debian_package(
            served / deb.name, {"./usr/include/vulkan/a.h": b"x", "./usr/include/vulkan/../../../../escaped.h": b"x"}
        )
        mp.setattr(
            native_build,
            "load_vulkan_headers_pin",
            lambda: {**pin, "sha256": native_build.sha256_file(evil)},
        )
        with pytest.raises(native_build.BuildError, match="unsafe path"):
            native_build.vulkan_headers(tmp_path / "third")
        assert not list((tmp_path / "third").rglob("*.h")) and not (tmp_path / "escaped.h").exists()


def test_a_rebuild_replaces_libraries_and_never_rewrites_them_in_place(tmp_path: Path) -> None:
    """A running Parley (or test) has the libraries mapped: installing a build over them must put
    new files in their place (a rename), or the running process crashes as its pages change."""
    sys.path.insert(0, str(REPO / "native"))
    try:
        import build as native_build
    finally:
        sys.path.pop(0)
    dest = tmp_path / "native"
    native_build.install_into(dest, native_build.Options.from_env())
    library = dest / "libggml-base.so.0"
    user = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import ctypes, sys; lib = ctypes.CDLL(sys.argv[1]); print('mapped', flush=True);"
            " sys.stdin.readline(); lib.ggml_type_size.restype = ctypes.c_size_t; print(lib.ggml_type_size(0))",
            str(library),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert user.stdout is not None and user.stdout.readline().strip() == "mapped"
        before = library.stat().st_ino
        os.utime(library, (0, 0))  # looks older than the build: installed again
        native_build.install_into(dest, native_build.Options.from_env())
        assert library.stat().st_ino != before, "the library was rewritten in place"
        out, _ = user.communicate("go\n", timeout=30)
        assert user.returncode == 0 and out.strip() == "4", "the process that had it mapped still runs"
    finally:
        if user.poll() is None:
            user.kill()


OPENMP_FIRST = {  # what loads libgomp first: ggml's CPU backend, or this system's PortAudio
    "native": "from parley.engine.backend import native; native.lib()",
    "portaudio": "from parley.engine.audio import portaudio; portaudio.sounddevice()",
}
SHOW_OPENMP = """
import ctypes
print(any("libgomp" in line for line in open("/proc/self/maps")), flush=True)
ctypes.CDLL("libgomp.so.1").omp_display_env(1)
"""


@pytest.mark.parametrize("first", OPENMP_FIRST)
@pytest.mark.parametrize(
    ("given", "seen"),
    [
        ({}, {"OMP_WAIT_POLICY": "ACTIVE", "GOMP_SPINCOUNT": "1000"}),
        ({"OMP_WAIT_POLICY": "passive"}, {"OMP_WAIT_POLICY": "PASSIVE", "GOMP_SPINCOUNT": "0"}),
    ],
)
def test_openmp_threads_wait_as_set_before_libgomp_reads_its_environment(
    tmp_path: Path, first: str, given: dict[str, str], seen: dict[str, str]
) -> None:
    """libgomp reports the wait policy Parley sets (it keeps spinning a little at barriers when
    speech and chat threads outnumber the cores), whichever library loaded it first, and a
    user's own setting wins.  (libgomp reads its environment once, when it is loaded; here
    PortAudio loads it while it looks for devices, before any model.)"""
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    proc = subprocess.run(
        [sys.executable, "-c", OPENMP_FIRST[first] + SHOW_OPENMP],
        cwd=tmp_path,
        env={**env, **given, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "True", f"{first} did not load libgomp"
    shown = dict(re.findall(r"^\s*(OMP_WAIT_POLICY|GOMP_SPINCOUNT) = '([^']*)'", proc.stderr, re.MULTILINE))
    assert shown == seen, proc.stderr[-2000:]
