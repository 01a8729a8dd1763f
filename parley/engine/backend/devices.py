"""Compute devices found by the shared ggml build, and the policy that picks one.

Policies: ``auto`` (the local GPU with the most memory, else the first remote device, else
the CPU; a software GPU driver such as lavapipe is never chosen, only named as the reason; each
engine then measures a local GPU against the CPU once per model, ``auto_choice``),
``cpu``, ``rpc`` (the first remote device, see ``remote.connect``), or a device name as
``parley devices`` prints it (``CUDA0``, ``Vulkan0``, ``MTL0``, ``RPC0``, ``CPU``).  A device
that is asked for but missing (or whose server was lost), or that its backend registered but
cannot use (``Device.unusable``: a Vulkan device without what ggml needs, ``vulkan_check``),
falls back to the CPU, and the reason is kept to show the user.  ``load_with_fallback`` is how
both engines load a model: on the chosen device, and on the CPU when the GPU (or remote device)
fails.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from ..errors import DeviceLostError, ModelLoadError, NoDeviceError
from . import native, vulkan_check

log = logging.getLogger("parley.devices")

# ggml sets a GPU device up on its first use without a lock (ggml-vulkan's device cache): two
# engines loading onto one device at once (the app loads speech and chat on their own threads)
# can get a half-built device and crash the process.  Loads and trials on a GPU take turns.
_GPU_SETUP = threading.RLock()


@contextlib.contextmanager
def gpu_setup(choice: DeviceChoice) -> Iterator[None]:
    """Hold the GPU set-up turn while a model loads or is tried on ``choice`` (a GPU only)."""
    if not choice.device.is_gpu:
        yield
        return
    with _GPU_SETUP:
        yield


_KINDS = {0: "cpu", 1: "gpu", 2: "igpu", 3: "accel"}
# GPU drivers that run on the CPU (Mesa's llvmpipe, which lavapipe reports, softpipe; Google's
# SwiftShader; Windows' basic render driver): slower than ggml's own CPU backend, so never "auto".
# Backends whose lack of a device is normal rather than a failure to announce: the Vulkan module
# ships in every Linux installer, and a machine without a GPU driver has no Vulkan driver either
# (a software one at most).  Auto then says why in the choice's note (Settings, `parley devices`).
_EXPECTED_ABSENT = {"vulkan"}
_SOFTWARE_RENDERER = re.compile(r"llvmpipe|lavapipe|softpipe|swiftshader|basic render driver", re.IGNORECASE)


@dataclasses.dataclass(frozen=True)
class Device:
    index: int  # position in ggml's device registry
    name: str  # e.g. "CPU", "CUDA0"
    description: str  # e.g. the processor or GPU model
    kind: str  # "cpu" | "gpu" | "igpu" | "accel"
    memory_free: int  # bytes
    memory_total: int  # bytes
    backend: str  # registry name, e.g. "CPU", "CUDA", "RPC"
    remote: str | None = None  # HOST:PORT of the server behind a remote (RPC) device
    # Why the backend cannot use this device although it registered it (a Vulkan device that lacks
    # what ggml needs: vulkan_check); such a device is listed with the reason and never used.
    unusable: str | None = None

    @property
    def is_gpu(self) -> bool:
        return self.kind in ("gpu", "igpu")

    @property
    def software(self) -> bool:
        """A GPU-type device that the CPU emulates (a software Vulkan driver such as lavapipe)."""
        return self.is_gpu and _SOFTWARE_RENDERER.search(self.description) is not None


@dataclasses.dataclass(frozen=True)
class DeviceChoice:
    device: Device
    requested: str
    fallback_reason: str | None = None
    note: str | None = None  # why auto chose this device for this model (see auto_choice)

    @property
    def gpu_index(self) -> int | None:
        """Index among GPU-type devices (what whisper.cpp's ``gpu_device`` means), or None."""
        if not self.device.is_gpu:
            return None
        gpus = [d for d in list_devices() if d.is_gpu]
        return next(i for i, d in enumerate(gpus) if d.index == self.device.index)


def list_devices() -> list[Device]:
    """Every device the loaded backends registered, in registry order."""
    from .rpc import remote

    native.load_backends()
    ffi, lib = native.ffi(), native.lib()
    free, total = ffi.new("size_t *"), ffi.new("size_t *")
    devices = []
    for i in range(lib.ggml_backend_dev_count()):
        dev = lib.ggml_backend_dev_get(i)
        lib.ggml_backend_dev_memory(dev, free, total)  # a remote device asks its server (via the relay)
        backend = native.string(lib.ggml_backend_reg_name(lib.ggml_backend_dev_backend_reg(dev)))
        description = native.string(lib.ggml_backend_dev_description(dev))
        server = remote.server_of(description) if backend == "RPC" else None
        unusable = vulkan_check.unusable_reason(description) if backend == "Vulkan" else None
        if server is not None:
            lost = remote.lost_reason(server)
            description = f"remote device on {server}" + (f" (lost: {lost})" if lost else "")
        devices.append(
            Device(
                index=i,
                name=native.string(lib.ggml_backend_dev_name(dev)),
                description=description,
                kind=_KINDS.get(int(lib.ggml_backend_dev_type(dev)), "other"),
                memory_free=int(free[0]),
                memory_total=int(total[0]),
                backend=backend,
                remote=server,
                unusable=unusable,
            )
        )
    return devices


def remote_devices() -> list[Device]:
    """The devices of the remote compute servers connected with ``remote.connect``."""
    return [d for d in list_devices() if d.remote]


def select_device(policy: str = "auto") -> DeviceChoice:
    """Pick a device by policy; see the module docstring."""
    from .rpc import remote

    devices = list_devices()
    if not devices:
        raise NoDeviceError("no compute device is available")
    cpu = next((d for d in devices if d.kind == "cpu"), None)
    gpus = sorted((d for d in devices if d.is_gpu and not d.remote), key=lambda d: (d.kind != "gpu", -d.memory_total))
    remotes = [d for d in devices if d.remote and remote.lost_reason(d) is None]
    wanted = (policy or "auto").strip()

    def on_cpu(reason: str | None) -> DeviceChoice:
        if cpu is None:
            raise NoDeviceError("no CPU device was registered" + (f" ({reason})" if reason else ""))
        return DeviceChoice(cpu, wanted, reason)

    if wanted.lower() == "auto":
        hardware = [d for d in gpus if not d.software and d.unusable is None]
        if hardware or remotes:
            return DeviceChoice((hardware or remotes)[0], wanted)
        problems = native.backend_problem_list()
        texts = [text for _backend, text in problems]
        software = "is a software renderer, slower than the CPU"
        texts += [unusable_text(d) if d.unusable else f"{d.name} ({d.description}) {software}" for d in gpus]
        if not texts:
            return on_cpu(None)
        why = "; ".join(texts) + "; using the CPU"
        if all(backend in _EXPECTED_ABSENT for backend, _text in problems):
            return DeviceChoice(on_cpu(None).device, wanted, note=why)  # a fact to show, not a failure
        return on_cpu(why)
    if wanted.lower() == "cpu":
        return on_cpu(None)
    if wanted.lower() == "rpc":
        if remotes:
            return DeviceChoice(remotes[0], wanted)
        lost = [d for d in devices if d.remote]
        why = (
            f"the remote device {lost[0].name} was lost ({remote.lost_reason(lost[0])})"
            if lost
            else "no remote device is connected (give --rpc HOST:PORT)"
        )
        return on_cpu(f"{why}; using the CPU")
    for device in devices:
        if device.name.lower() == wanted.lower():
            reason = remote.lost_reason(device)
            if reason is not None:
                return on_cpu(f"the remote device {device.name} was lost ({reason}); using the CPU")
            if device.unusable:
                return on_cpu(f"{unusable_text(device)}; using the CPU")
            return DeviceChoice(device, wanted)
    names = ", ".join(d.name for d in devices)
    return on_cpu(f"device {wanted!r} was not found (available: {names}); using the CPU")


def unusable_text(device: Device) -> str:
    """A device that its backend registered but cannot use, and why, in words."""
    return f"{device.name} ({device.description}) cannot be used: {device.unusable}"


def fallback_to_cpu(choice: DeviceChoice, reason: str) -> DeviceChoice:
    """The CPU choice to use after ``choice``'s GPU failed, remembering why."""
    cpu = select_device("cpu")
    return DeviceChoice(cpu.device, choice.requested, f"{choice.device.name} failed: {reason}; using the CPU")


def load_with_fallback(choice: DeviceChoice, load: Callable[[DeviceChoice], None]) -> DeviceChoice:
    """Run ``load(choice)``; when it fails on a GPU or a remote device (``ModelLoadError``, or
    ``DeviceLostError`` when its server went away during the load), run ``load`` again on the
    CPU.  Returns the choice the model loaded on (its ``fallback_reason`` says why when it is
    not the one asked for); a failure on the CPU is raised as it is."""
    try:
        with gpu_setup(choice):
            load(choice)
        return choice
    except (ModelLoadError, DeviceLostError) as exc:
        if not choice.device.is_gpu:
            raise
        cpu = fallback_to_cpu(choice, str(exc))
    log.warning("%s", cpu.fallback_reason)
    load(cpu)
    return cpu


def cpu_variant() -> str | None:
    """Which CPU backend variant ggml picked (e.g. ``haswell``), from the mapped libraries."""
    for path in native.mapped_libraries():
        match = re.match(r"(?:lib)?ggml-cpu-?(.*)\.(so|dylib|dll)", Path(path).name)
        if match and str(native.lib_dir()) in path:
            return match.group(1) or "generic"
    return None


def cpu_features() -> dict[str, str]:
    """Features the CPU backend reports (instruction sets it was built for)."""
    native.load_backends()
    ffi, lib = native.ffi(), native.lib()
    for i in range(lib.ggml_backend_reg_count()):
        reg = lib.ggml_backend_reg_get(i)
        if native.string(lib.ggml_backend_reg_name(reg)) != "CPU":
            continue
        fn = lib.ggml_backend_reg_get_proc_address(reg, b"ggml_backend_get_features")
        if fn == ffi.NULL:
            return {}
        feats = ffi.cast("ggml_backend_get_features_t", fn)(reg)
        out = {}
        while feats != ffi.NULL and feats.name != ffi.NULL:
            out[native.string(feats.name)] = native.string(feats.value)
            feats += 1
        return out
    return {}
