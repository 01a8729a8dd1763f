"""The shared native build: one ggml, backends from our own folder, clear errors, a working wheel."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

from parley.engine import native

REPO = Path(__file__).resolve().parents[1]


def run_python(code: str, cwd: Path, env: dict[str, str] | None = None,
               pythonpath: Path = REPO) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "PYTHONPATH": str(pythonpath), **(env or {})}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, env=full_env,
                          capture_output=True, text=True, timeout=300)


def test_struct_layouts_match_the_headers() -> None:
    """API mode: the compiler computed these from the real headers (figures for x86-64 Linux)."""
    ffi = native.ffi()
    sizes = {name: ffi.sizeof(f"struct {name}") for name in
             ("whisper_full_params", "whisper_context_params", "llama_model_params",
              "llama_context_params", "llama_batch")}
    if sys.platform.startswith("linux") and sys.maxsize > 2**32:
        assert sizes == {"whisper_full_params": 304, "whisper_context_params": 48,
                         "llama_model_params": 80, "llama_context_params": 160, "llama_batch": 56}


def test_backends_load_from_our_folder_when_cwd_is_elsewhere(tmp_path: Path) -> None:
    """`parley devices` run from an unrelated folder finds the CPU through our library folder."""
    proc = subprocess.run([sys.executable, "-m", "parley", "devices", "--json"], cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    info = json.loads(proc.stdout)
    assert any(d["kind"] == "cpu" for d in info["devices"])
    assert Path(info["lib_dir"]) == native.lib_dir()
    assert info["cpu_variant"], "the CPU backend variant should be reported"
    table = subprocess.run([sys.executable, "-m", "parley", "devices"], cwd=tmp_path,
                           env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True, text=True, timeout=120)
    assert table.returncode == 0 and "CPU" in table.stdout and "auto selects" in table.stdout


def test_cpu_backend_is_mapped_from_our_folder_only() -> None:
    from parley.engine import devices

    devices.list_devices()
    backends = [p for p in native.mapped_libraries() if re.search(r"libggml-cpu", p)]
    assert len(backends) == 1, backends
    assert Path(backends[0]).parent == native.lib_dir()


def test_no_backend_gives_an_error_not_an_abort(tmp_path: Path) -> None:
    """whisper.cpp aborts the process with no device; we refuse in Python first."""
    empty = tmp_path / "empty-libdir"
    empty.mkdir()
    proc = run_python("""
        from parley.engine import devices
        from parley.engine.errors import NoDeviceError
        try:
            devices.list_devices()
        except NoDeviceError as exc:
            print("NoDeviceError:", exc)
    """, cwd=tmp_path, env={"PARLEY_LIB_DIR": str(empty)})
    assert proc.returncode == 0, proc.stderr
    assert "NoDeviceError: no compute device was registered" in proc.stdout


def test_failed_gpu_backend_falls_back_to_cpu_with_the_reason(tmp_path: Path, broken_gpu_libdir: Path) -> None:
    """A GPU backend module that cannot load: auto picks the CPU and says why, nothing aborts."""
    proc = run_python("""
        from parley.engine import devices
        choice = devices.select_device("auto")
        print(choice.device.name); print(choice.fallback_reason)
    """, cwd=tmp_path, env={"PARLEY_LIB_DIR": str(broken_gpu_libdir)})
    assert proc.returncode == 0, proc.stderr
    name, reason = proc.stdout.strip().splitlines()
    assert name == "CPU"
    assert "CUDA backend (libggml-cuda.so) failed to load" in reason and "using the CPU" in reason


def test_unknown_device_name_falls_back_to_cpu() -> None:
    from parley.engine import devices

    choice = devices.select_device("CUDA7")
    assert choice.device.kind == "cpu" and "CUDA7" in (choice.fallback_reason or "")


@pytest.mark.slow
def test_both_engines_share_one_ggml(tmp_path: Path) -> None:
    """Load a speech and a chat model in one process: each ggml library is mapped exactly once."""
    proc = run_python("""
        import json
        from parley.engine import native
        from parley.engine.models import default_chat_model_path, default_speech_model_path
        from parley.engine.speech import SpeechModel
        from parley.engine.chat import ChatModel
        speech = SpeechModel(default_speech_model_path(), device="cpu", threads=2)
        chat = ChatModel(default_chat_model_path(), device="cpu", n_ctx=512, threads=2)
        print(json.dumps(native.mapped_libraries()))
    """, cwd=tmp_path)
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
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                           "-w", str(wheels), str(REPO)], capture_output=True, text=True, timeout=900)
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
    run = run_python("""
        from parley.engine import devices, native
        print(native.lib_dir()); print([d.name for d in devices.list_devices()])
    """, cwd=elsewhere, pythonpath=tmp_path / "site")
    assert run.returncode == 0, run.stderr
    assert str(tmp_path / "site") in run.stdout and "CPU" in run.stdout
