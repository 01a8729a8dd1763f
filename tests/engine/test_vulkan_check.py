"""A Vulkan device that ggml registers but cannot use ends on the CPU with the reason, never in a crash.

Debian 11's lavapipe (Mesa 20.3) is a Vulkan 1.0 device without ``VK_KHR_16bit_storage``; ggml's
Vulkan backend registers it, and the first model loaded on it used to end the process (SIGABRT
from an uncaught C++ exception in whisper.cpp, or SIGSEGV in ``ggml_backend_alloc_ctx_tensors_from_buft``
on the half-made device that a failed llama.cpp load left in ggml's cache; see
``parley/engine/backend/vulkan_check.py``).  ``packaging/check.sh --release bullseye`` checks the
real Debian 11 driver; here the real Vulkan loader and driver of this machine are asked, and the
decision is checked with the real native libraries and ggml's real Vulkan device.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from parley.engine.backend import vulkan_check
from parley.engine.backend.vulkan_check import VK_API_1_2, requirement_problem
from tests.support.requirements import require, strict

REPO = Path(__file__).resolve().parents[2]
VK_API_1_0 = 1 << 22


def test_the_requirements_are_said_in_words() -> None:
    # Debian 11's lavapipe, as its loader reports it (Mesa 20.3: Vulkan 1.0, no 16-bit storage)
    debian11 = requirement_problem(VK_API_1_0, False, False)
    assert debian11 == (
        "ggml's Vulkan backend does not support it "
        "(its driver offers Vulkan 1.0, ggml needs 1.2; no VK_KHR_16bit_storage extension)"
    )
    assert "storageBuffer16BitAccess" in (requirement_problem(VK_API_1_2, True, False) or "")
    assert requirement_problem(VK_API_1_2 | (1 << 12), True, True) is None  # Vulkan 1.3, as Mesa 22's
    # A 1.0 device's 16-bit flag is never trusted (ggml reads it from a structure such a device leaves unfilled).
    assert requirement_problem(VK_API_1_0, True, True) is not None


def test_the_vulkan_loader_is_asked_without_ggml() -> None:
    found = vulkan_check.query_devices()
    require(found, "a Vulkan loader and device (Debian: libvulkan1 and mesa-vulkan-drivers)")
    assert found is not None
    for device in found:
        assert device.name and device.api_version >= VK_API_1_0
        assert vulkan_check.unusable_reason(device.name) == device.problem
    llvmpipe = [d for d in found if d.name.startswith("llvmpipe")]
    if llvmpipe and llvmpipe[0].api_version >= VK_API_1_2:  # Mesa 21.1 and later: what ggml needs
        assert llvmpipe[0].has_16bit_storage_extension and llvmpipe[0].storage_buffer_16bit
        assert llvmpipe[0].problem is None
    assert vulkan_check.unusable_reason("no such GPU") is not None


def _vulkan_lib_dir(tmp_path: Path) -> Path | None:
    """A native build with the Vulkan module: ours, or one in the native build cache.  On a
    fresh machine, in a strict run, it is built first, as the packaging tests would build it
    later (the same cache key: they reuse it), into the cache and a scratch folder, never into
    the tree's own native folder."""
    from parley.engine.backend import native

    if (native.lib_dir() / "libggml-vulkan.so").is_file():
        return native.lib_dir()
    cache = Path(os.environ.get("PARLEY_CACHE_DIR") or Path.home() / ".cache" / "parley")
    found = sorted(cache.glob("native/*/lib/libggml-vulkan.so"))
    if not found and strict():
        subprocess.run([str(REPO / "packaging" / "vulkan_build_deps.sh")], cwd=REPO, check=True, timeout=600)
        subprocess.run(
            [sys.executable, "native/build.py", "--vulkan", "--dest", str(tmp_path / "native")],
            cwd=REPO,
            check=True,
            timeout=2400,
        )
        found = sorted(cache.glob("native/*/lib/libggml-vulkan.so"))
    return found[0].parent if found else None


_UNSUPPORTED_LAVAPIPE = r"""
import dataclasses, json, sys
from parley.engine.backend import devices, vulkan_check
from parley.engine.chat.model import ChatModel
from parley.engine.modelfiles.defaults import default_chat_model_path, default_speech_model_path
from parley.engine.speech import SpeechModel

real = vulkan_check.query_devices()
# This machine's lavapipe as Debian 11's Mesa 20.3 reports it: Vulkan 1.0, no 16-bit storage.
old = [dataclasses.replace(d, api_version=1 << 22, has_16bit_storage_extension=False, storage_buffer_16bit=False)
       for d in real]
vulkan_check.query_devices = lambda: old
listed = {d.name: d for d in devices.list_devices()}
choice = devices.select_device("Vulkan0")
with SpeechModel(default_speech_model_path(), device="Vulkan0", threads=2) as speech:
    speech_device = speech.device.device.name
with ChatModel(default_chat_model_path(), device="Vulkan0", n_ctx=256, threads=2) as chat:
    chat_device = chat.device.device.name
print(json.dumps({"unusable": listed["Vulkan0"].unusable, "choice": choice.device.name,
                  "reason": choice.fallback_reason, "auto": devices.select_device("auto").device.name,
                  "speech": speech_device, "chat": chat_device}))
"""


@pytest.mark.timeout(3000)  # on a fresh machine the Vulkan module is built first (about 8 minutes on 2 cores)
def test_an_unsupported_vulkan_device_is_listed_with_the_reason_and_both_engines_use_the_cpu(tmp_path: Path) -> None:
    """ggml's real Vulkan backend registers this machine's lavapipe (GGML_VK_VISIBLE_DEVICES=0);
    Vulkan's answer is replaced by what Debian 11's driver says, and asking for Vulkan0 by name
    must load both engines on the CPU, with the reason, and never call ggml with the device."""
    import json

    libdir = _vulkan_lib_dir(tmp_path)
    require(libdir, "a native build with the Vulkan module (PARLEY_VULKAN=1 python native/build.py)")
    lavapipe = [d for d in vulkan_check.query_devices() or [] if d.name.startswith("llvmpipe")]
    require(lavapipe, "Mesa's lavapipe (Debian: mesa-vulkan-drivers)")
    proc = subprocess.run(
        [sys.executable, "-c", _UNSUPPORTED_LAVAPIPE],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "PARLEY_LIB_DIR": str(libdir), "GGML_VK_VISIBLE_DEVICES": "0"},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "Vulkan 1.0, ggml needs 1.2" in result["unusable"]
    assert result["choice"] == result["auto"] == result["speech"] == result["chat"] == "CPU"
    assert result["reason"].startswith("Vulkan0 (llvmpipe") and "cannot be used" in result["reason"]
    assert result["reason"].endswith("using the CPU")
    assert "ggml_vulkan" not in proc.stderr  # ggml never touched the device (it logs when it does)


def test_counts_the_driver_gives_are_bounded_before_they_size_an_allocation(monkeypatch) -> None:
    """A count over the bound is refused, and the device is then taken to be unusable (safe:
    the CPU), never allocated for.  The real loader and lavapipe, with the bounds lowered."""
    found = vulkan_check.query_devices()
    require(found, "a Vulkan loader and device (Debian: libvulkan1 and mesa-vulkan-drivers)")
    assert found is not None and any(d.has_16bit_storage_extension for d in found)
    monkeypatch.setattr(vulkan_check, "MAX_EXTENSIONS", 1)
    assert all(not d.has_16bit_storage_extension and d.problem for d in vulkan_check.query_devices() or [])
    monkeypatch.setattr(vulkan_check, "MAX_DEVICES", 0)
    assert vulkan_check.query_devices() is None
