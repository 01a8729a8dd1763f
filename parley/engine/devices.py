"""Compute devices found by the shared ggml build, and the policy that picks one.

Policies: ``auto`` (the GPU with the most memory, else the CPU), ``cpu``, or a device name as
``parley devices`` prints it (``CUDA0``, ``Vulkan0``, ``MTL0``, ``CPU``).  A GPU that is asked
for but missing falls back to the CPU, and the reason is kept to show the user.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from . import native
from .errors import NoDeviceError

_KINDS = {0: "cpu", 1: "gpu", 2: "igpu", 3: "accel"}


@dataclasses.dataclass(frozen=True)
class Device:
    index: int          # position in ggml's device registry
    name: str           # e.g. "CPU", "CUDA0"
    description: str    # e.g. the processor or GPU model
    kind: str           # "cpu" | "gpu" | "igpu" | "accel"
    memory_free: int    # bytes
    memory_total: int   # bytes
    backend: str        # registry name, e.g. "CPU", "CUDA"

    @property
    def is_gpu(self) -> bool:
        return self.kind in ("gpu", "igpu")


@dataclasses.dataclass(frozen=True)
class DeviceChoice:
    device: Device
    requested: str
    fallback_reason: str | None = None

    @property
    def gpu_index(self) -> int | None:
        """Index among GPU-type devices (what whisper.cpp's ``gpu_device`` means), or None."""
        if not self.device.is_gpu:
            return None
        gpus = [d for d in list_devices() if d.is_gpu]
        return next(i for i, d in enumerate(gpus) if d.index == self.device.index)


def list_devices() -> list[Device]:
    """Every device the loaded backends registered, in registry order."""
    native.load_backends()
    ffi, lib = native.ffi(), native.lib()
    free, total = ffi.new("size_t *"), ffi.new("size_t *")
    devices = []
    for i in range(lib.ggml_backend_dev_count()):
        dev = lib.ggml_backend_dev_get(i)
        lib.ggml_backend_dev_memory(dev, free, total)
        devices.append(Device(
            index=i,
            name=native.string(lib.ggml_backend_dev_name(dev)),
            description=native.string(lib.ggml_backend_dev_description(dev)),
            kind=_KINDS.get(int(lib.ggml_backend_dev_type(dev)), "other"),
            memory_free=int(free[0]),
            memory_total=int(total[0]),
            backend=native.string(lib.ggml_backend_reg_name(lib.ggml_backend_dev_backend_reg(dev))),
        ))
    return devices


def select_device(policy: str = "auto") -> DeviceChoice:
    """Pick a device by policy; see the module docstring."""
    devices = list_devices()
    if not devices:
        raise NoDeviceError("no compute device is available")
    cpu = next((d for d in devices if d.kind == "cpu"), None)
    gpus = sorted((d for d in devices if d.is_gpu), key=lambda d: (d.kind != "gpu", -d.memory_total))
    wanted = (policy or "auto").strip()
    if wanted.lower() == "auto":
        if gpus:
            return DeviceChoice(gpus[0], wanted)
        if cpu is None:
            raise NoDeviceError("no CPU device was registered")
        problems = native.backend_problems()
        return DeviceChoice(cpu, wanted, "; ".join(problems) + "; using the CPU" if problems else None)
    if wanted.lower() == "cpu":
        if cpu is None:
            raise NoDeviceError("no CPU device was registered")
        return DeviceChoice(cpu, wanted)
    for device in devices:
        if device.name.lower() == wanted.lower():
            return DeviceChoice(device, wanted)
    if cpu is None:
        raise NoDeviceError(f"device {wanted!r} was not found and there is no CPU device")
    names = ", ".join(d.name for d in devices)
    return DeviceChoice(cpu, wanted, f"device {wanted!r} was not found (available: {names}); using the CPU")


def fallback_to_cpu(choice: DeviceChoice, reason: str) -> DeviceChoice:
    """The CPU choice to use after ``choice``'s GPU failed, remembering why."""
    cpu = select_device("cpu")
    return DeviceChoice(cpu.device, choice.requested, f"{choice.device.name} failed: {reason}; using the CPU")


def cpu_variant() -> str | None:
    """Which CPU backend variant ggml picked (e.g. ``haswell``), from the mapped libraries."""
    for path in native.mapped_libraries():
        match = re.match(r"libggml-cpu-?(.*)\.(so|dylib|dll)", Path(path).name)
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
