"""Whether ggml's Vulkan backend can really use a Vulkan device, asked of Vulkan itself.

ggml registers every Vulkan device it is told about (``GGML_VK_VISIBLE_DEVICES``), but it checks
what the device supports only when the device is first used (``ggml_vk_get_device``), and a
device it cannot use then breaks the process rather than the call:

- It requires 16-bit storage buffers, read from a ``VkPhysicalDeviceVulkan11Features`` that it
  does not zero.  A device older than Vulkan 1.2 does not fill that structure in, so the answer
  is stack garbage: "Unsupported device" (a C++ exception) one run, or on the next, a
  ``vkCreateDevice`` that asks for ``VK_KHR_16bit_storage`` and throws
  ``ExtensionNotPresent`` when the driver lacks it.
- llama.cpp catches the exception and fails the load; whisper.cpp does not, so the exception
  leaves through C code and ends the process (``std::terminate``, SIGABRT).
- ggml stores the device in its cache before checking it and leaves it there half made when it
  throws; the next engine that uses the device gets a device with no ``VkDevice`` and crashes
  (SIGSEGV in ``ggml_vk_init``'s ``createFence``).

Debian 11's lavapipe (Mesa 20.3, a Vulkan 1.0 device without ``VK_KHR_16bit_storage``) is such a
device.  So Parley asks the Vulkan loader (``libvulkan``, through ctypes; no ggml code runs) for
what ggml needs before any model is loaded on a Vulkan device: a device API of Vulkan 1.2 or
newer, the ``VK_KHR_16bit_storage`` extension, and 16-bit storage buffers.  A device that lacks
one is listed with the reason and never used (``devices.Device.unusable``).
"""

from __future__ import annotations

import ctypes
import dataclasses
import logging
import sys
import threading

log = logging.getLogger("parley.devices")

VK_API_1_2 = (1 << 22) | (2 << 12)  # VK_MAKE_API_VERSION(0, 1, 2, 0)
STORAGE_16BIT_EXTENSION = "VK_KHR_16bit_storage"

_VK_SUCCESS = 0
_VK_INCOMPLETE = 5
_STYPE_APPLICATION_INFO = 0
_STYPE_INSTANCE_CREATE_INFO = 1
_STYPE_VULKAN_1_1_FEATURES = 49
_STYPE_PHYSICAL_DEVICE_FEATURES_2 = 1000059000
MAX_DEVICES = 64  # more physical devices than any machine has: the count is refused
MAX_EXTENSIONS = 4096  # drivers list a few hundred device extensions
_PROPERTIES_BYTES = 4096  # VkPhysicalDeviceProperties is 824 bytes on 64-bit systems; room to spare
_NAME_OFFSET = 20  # apiVersion, driverVersion, vendorID, deviceID, deviceType, then deviceName[256]


@dataclasses.dataclass(frozen=True)
class VulkanDevice:
    """What Vulkan says about one physical device, as far as ggml's requirements go."""

    name: str  # deviceName: ggml's description of the device
    api_version: int  # the device's (not the instance's) Vulkan version, VK_MAKE_API_VERSION
    has_16bit_storage_extension: bool
    storage_buffer_16bit: bool  # VkPhysicalDeviceVulkan11Features.storageBuffer16BitAccess (1.2+)

    @property
    def problem(self) -> str | None:
        """Why ggml's Vulkan backend cannot use the device, or None when it can."""
        return requirement_problem(self.api_version, self.has_16bit_storage_extension, self.storage_buffer_16bit)


def version_text(version: int) -> str:
    return f"{(version >> 22) & 0x7F}.{(version >> 12) & 0x3FF}"


def requirement_problem(api_version: int, has_16bit_storage_extension: bool, storage_buffer_16bit: bool) -> str | None:
    """ggml's Vulkan backend's requirements, checked in the order it checks them, in words."""
    missing = []
    if api_version < VK_API_1_2:
        missing.append(f"its driver offers Vulkan {version_text(api_version)}, ggml needs 1.2")
    if not has_16bit_storage_extension:
        missing.append(f"no {STORAGE_16BIT_EXTENSION} extension")
    if api_version >= VK_API_1_2 and not storage_buffer_16bit:
        missing.append("no 16-bit storage buffers (storageBuffer16BitAccess)")
    if not missing:
        return None
    return "ggml's Vulkan backend does not support it (" + "; ".join(missing) + ")"


class _ApplicationInfo(ctypes.Structure):
    _fields_ = [
        ("sType", ctypes.c_int),
        ("pNext", ctypes.c_void_p),
        ("pApplicationName", ctypes.c_char_p),
        ("applicationVersion", ctypes.c_uint32),
        ("pEngineName", ctypes.c_char_p),
        ("engineVersion", ctypes.c_uint32),
        ("apiVersion", ctypes.c_uint32),
    ]


class _InstanceCreateInfo(ctypes.Structure):
    _fields_ = [
        ("sType", ctypes.c_int),
        ("pNext", ctypes.c_void_p),
        ("flags", ctypes.c_uint32),
        ("pApplicationInfo", ctypes.POINTER(_ApplicationInfo)),
        ("enabledLayerCount", ctypes.c_uint32),
        ("ppEnabledLayerNames", ctypes.c_void_p),
        ("enabledExtensionCount", ctypes.c_uint32),
        ("ppEnabledExtensionNames", ctypes.c_void_p),
    ]


class _Vulkan11Features(ctypes.Structure):
    _fields_ = [
        ("sType", ctypes.c_int),
        ("pNext", ctypes.c_void_p),
        ("storageBuffer16BitAccess", ctypes.c_uint32),
        ("uniformAndStorageBuffer16BitAccess", ctypes.c_uint32),
        ("storagePushConstant16", ctypes.c_uint32),
        ("storageInputOutput16", ctypes.c_uint32),
        ("multiview", ctypes.c_uint32),
        ("multiviewGeometryShader", ctypes.c_uint32),
        ("multiviewTessellationShader", ctypes.c_uint32),
        ("variablePointersStorageBuffer", ctypes.c_uint32),
        ("variablePointers", ctypes.c_uint32),
        ("protectedMemory", ctypes.c_uint32),
        ("samplerYcbcrConversion", ctypes.c_uint32),
        ("shaderDrawParameters", ctypes.c_uint32),
    ]


class _PhysicalDeviceFeatures2(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_int), ("pNext", ctypes.c_void_p), ("features", ctypes.c_uint32 * 55)]


class _ExtensionProperties(ctypes.Structure):
    _fields_ = [("extensionName", ctypes.c_char * 256), ("specVersion", ctypes.c_uint32)]


def _loader() -> ctypes.CDLL | None:
    names = {"win32": "vulkan-1.dll", "darwin": "libvulkan.1.dylib"}
    name = names.get(sys.platform, "libvulkan.so.1")
    try:
        return ctypes.CDLL(name)
    except OSError:
        return None


def query_devices() -> list[VulkanDevice] | None:
    """Every physical device the Vulkan loader lists, in its order (ggml's device indices in
    ``GGML_VK_VISIBLE_DEVICES`` count in this order); None when there is no loader or no
    Vulkan 1.2 instance (then ggml registers no Vulkan device either)."""
    vk = _loader()
    if vk is None:
        return None
    c_uint32_p = ctypes.POINTER(ctypes.c_uint32)
    vk.vkCreateInstance.restype = ctypes.c_int
    vk.vkCreateInstance.argtypes = [
        ctypes.POINTER(_InstanceCreateInfo),
        ctypes.c_void_p,
        ctypes.POINTER(ctypes.c_void_p),
    ]
    vk.vkDestroyInstance.restype = None
    vk.vkDestroyInstance.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    vk.vkEnumeratePhysicalDevices.restype = ctypes.c_int
    vk.vkEnumeratePhysicalDevices.argtypes = [ctypes.c_void_p, c_uint32_p, ctypes.POINTER(ctypes.c_void_p)]
    vk.vkGetPhysicalDeviceProperties.restype = None
    vk.vkGetPhysicalDeviceProperties.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    vk.vkEnumerateDeviceExtensionProperties.restype = ctypes.c_int
    vk.vkEnumerateDeviceExtensionProperties.argtypes = [
        ctypes.c_void_p,
        ctypes.c_char_p,
        c_uint32_p,
        ctypes.POINTER(_ExtensionProperties),
    ]
    instance_version = ctypes.c_uint32(0)
    try:
        enumerate_version = vk.vkEnumerateInstanceVersion
    except AttributeError:  # a Vulkan 1.0 loader
        return None
    enumerate_version.restype = ctypes.c_int
    enumerate_version.argtypes = [c_uint32_p]
    if enumerate_version(ctypes.byref(instance_version)) != _VK_SUCCESS or instance_version.value < VK_API_1_2:
        return None
    app = _ApplicationInfo(_STYPE_APPLICATION_INFO, None, b"parley", 1, None, 0, instance_version.value)
    info = _InstanceCreateInfo(_STYPE_INSTANCE_CREATE_INFO, None, 0, ctypes.pointer(app), 0, None, 0, None)
    instance = ctypes.c_void_p()
    if vk.vkCreateInstance(ctypes.byref(info), None, ctypes.byref(instance)) != _VK_SUCCESS:
        return None
    try:
        count = ctypes.c_uint32(0)
        if vk.vkEnumeratePhysicalDevices(instance, ctypes.byref(count), None) != _VK_SUCCESS:
            return None
        if count.value > MAX_DEVICES:  # a driver's count, before it sizes an allocation
            log.warning("the Vulkan loader lists %d devices; Parley does not trust that", count.value)
            return None
        handles = (ctypes.c_void_p * count.value)()
        if vk.vkEnumeratePhysicalDevices(instance, ctypes.byref(count), handles) not in (_VK_SUCCESS, _VK_INCOMPLETE):
            return None
        return [_describe(vk, handles[i]) for i in range(count.value) if handles[i]]
    finally:
        vk.vkDestroyInstance(instance, None)


def _describe(vk: ctypes.CDLL, device: int | None) -> VulkanDevice:
    props = ctypes.create_string_buffer(_PROPERTIES_BYTES)
    vk.vkGetPhysicalDeviceProperties(device, props)
    api_version = int.from_bytes(props.raw[0:4], sys.byteorder)
    name = props.raw[_NAME_OFFSET : _NAME_OFFSET + 256].split(b"\0", 1)[0].decode("utf-8", "replace")
    count = ctypes.c_uint32(0)
    extensions: set[str] = set()
    if (
        vk.vkEnumerateDeviceExtensionProperties(device, None, ctypes.byref(count), None) == _VK_SUCCESS
        and count.value <= MAX_EXTENSIONS  # a driver's count, before it sizes an allocation
    ):
        array = (_ExtensionProperties * count.value)()
        if vk.vkEnumerateDeviceExtensionProperties(device, None, ctypes.byref(count), array) in (
            _VK_SUCCESS,
            _VK_INCOMPLETE,
        ):
            extensions = {array[i].extensionName.decode("utf-8", "replace") for i in range(count.value)}
    storage16 = False
    if api_version >= VK_API_1_2:  # the structure ggml reads exists for Vulkan 1.2 devices only
        vk11 = _Vulkan11Features(_STYPE_VULKAN_1_1_FEATURES, None)  # zeroed, unlike ggml's
        chain = ctypes.cast(ctypes.pointer(vk11), ctypes.c_void_p)
        features = _PhysicalDeviceFeatures2(_STYPE_PHYSICAL_DEVICE_FEATURES_2, chain)
        get_features = vk.vkGetPhysicalDeviceFeatures2
        get_features.restype = None
        get_features.argtypes = [ctypes.c_void_p, ctypes.POINTER(_PhysicalDeviceFeatures2)]
        get_features(device, ctypes.byref(features))
        storage16 = bool(vk11.storageBuffer16BitAccess)
    return VulkanDevice(name, api_version, STORAGE_16BIT_EXTENSION in extensions, storage16)


_lock = threading.Lock()
_queried: list[list[VulkanDevice] | None] = []  # one entry once asked: devices do not change in a process


def devices() -> list[VulkanDevice] | None:
    """``query_devices()``, asked once per process."""
    with _lock:
        if not _queried:
            try:
                _queried.append(query_devices())
            except (OSError, AttributeError, ValueError) as exc:  # a loader without a needed function
                log.info("Vulkan devices not queried (%s)", exc)
                _queried.append(None)
        return _queried[0]


def unusable_reason(description: str) -> str | None:
    """Why the Vulkan device that ggml describes as ``description`` (its deviceName) cannot be used
    by ggml, or None when it can.  When Vulkan itself cannot be asked, the device is taken to be
    unusable: ggml would be the first to find out, by crashing."""
    found = devices()
    if found is None:
        return "Parley could not ask the Vulkan loader what the device supports"
    same = [d for d in found if d.name == description]
    if not same:
        return f"the Vulkan loader does not list a device called {description!r}"
    problems = [d.problem for d in same if d.problem]
    return problems[0] if problems else None
