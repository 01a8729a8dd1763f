"""Which CPU backend variant is loaded: ggml's choice by default, PARLEY_CPU_VARIANT to choose.

Each case runs in a child process: backends load once per process.  On a processor without
AMX the AMX variant scores 0 and ggml's own choice stands; on one with AMX in a virtual machine
(as the CI machines are now) Parley steps past it to the best variant without AMX.  The first
test checks whichever of the two this machine is.
"""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
from pathlib import Path

from parley.engine.backend import native

REPO = Path(__file__).resolve().parents[2]

_REPORT = """
import json
from parley.engine.backend import devices, native
native.load_backends()
mapped = [p for p in native.mapped_libraries() if "ggml-cpu" in p]
print(json.dumps({"variant": devices.cpu_variant(), "mapped": mapped}))
"""


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={**{k: v for k, v in os.environ.items() if k != native.CPU_VARIANT_ENV}, "PYTHONPATH": str(REPO), **env},
    )


def _cpu_flags() -> set[str]:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def _best_by_score() -> str:
    """The variant with the highest score, each asked as ggml asks it (and unloaded again, so
    this process's mapped libraries stay as they were); in a virtual machine, the best of those
    built without AMX (Parley does not trust a VM with AMX: see native._chosen_cpu_module)."""
    import _ctypes

    skip_amx = "hypervisor" in _cpu_flags()
    scores = {}
    for path in native.lib_dir().glob("libggml-cpu-*.so"):
        if skip_amx and path.name == "libggml-cpu-sapphirerapids.so":
            continue
        module = ctypes.CDLL(str(path))
        scores[path.name] = module.ggml_backend_score()
        _ctypes.dlclose(module._handle)
    return max(scores, key=scores.get).removeprefix("libggml-cpu-").removesuffix(".so")


def test_by_default_the_best_scoring_variant_is_loaded_and_only_it():
    proc = _run(_REPORT)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["variant"] == _best_by_score()
    assert len(report["mapped"]) == 1  # scoring variants (the AMX check) leaves none mapped


def test_a_variant_can_be_chosen(tmp_path):
    proc = _run(_REPORT, PARLEY_CPU_VARIANT="haswell")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["variant"] == "haswell" and len(report["mapped"]) == 1
    chat = subprocess.run(
        [
            sys.executable,
            "-m",
            "parley",
            "chat",
            "--prompt",
            "Hi",
            "--max-tokens",
            "4",
            "--temp",
            "0",
            "--device",
            "cpu",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO), "PARLEY_CPU_VARIANT": "haswell"},
    )
    assert chat.returncode == 0 and chat.stdout.strip(), chat.stderr


def test_an_unknown_variant_is_a_clear_error():
    proc = subprocess.run(
        [sys.executable, "-m", "parley", "devices"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO), "PARLEY_CPU_VARIANT": "pentium"},
    )
    assert proc.returncode == 2
    assert "PARLEY_CPU_VARIANT=pentium: there is no such CPU backend" in proc.stderr and "haswell" in proc.stderr


def test_a_virtual_machine_is_told_by_the_hypervisor_flag(tmp_path: Path) -> None:
    """In a VM the AMX variant is passed over (seen dying with SIGILL in one that granted AMX)."""
    from parley.engine.backend import native

    vm, metal = tmp_path / "vm", tmp_path / "metal"
    vm.write_text("processor\t: 0\nflags\t\t: fpu avx512f amx_tile amx_int8 hypervisor\n")
    metal.write_text("processor\t: 0\nflags\t\t: fpu avx512f amx_tile amx_int8\n")
    assert native._in_virtual_machine(str(vm)) and not native._in_virtual_machine(str(metal))
    assert not native._in_virtual_machine(str(tmp_path / "missing"))
