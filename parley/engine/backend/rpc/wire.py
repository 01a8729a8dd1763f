"""ggml RPC requests as a server receives them, and the checks ``server_front`` makes on them.

Everything here is about protocol 7 of the pinned ggml (``ggml-rpc.cpp``): the request layouts,
the size of each reply, and ``Checker``, which holds what one client owns (the buffers the server
allocated for it) and refuses any request that names something else.  A request either passes or
raises ``Refused`` with a one-line reason; nothing here touches a socket or native code.

What is checked, and why (ggml's server trusts the client for each of these):
- the request size of every command (fixed sizes exactly; SET_TENSOR and GRAPH_COMPUTE within
  limits known before their body is read);
- every tensor: a known type whose block size is not 0, ``ne[0]`` a whole number of blocks, an
  element count that fits in int64 (ggml asserts it), an op below ``GGML_OP_COUNT`` and not one
  of the custom ops (their ``op_params`` hold a function pointer that the server would call), and
  its bytes (``ggml_nbytes``, computed the same way, without overflow) inside a buffer this
  client allocated.  ggml's own server keeps the client's ``data`` pointer when the buffer is
  unknown, which gave a client the server's memory;
- offsets and sizes of SET/GET/MEMSET within the tensor, COPY_TENSOR's source no larger than its
  destination, buffer handles of GET_BASE/CLEAR/FREE known;
- a graph: node and tensor counts bounded and consistent with the message size, ids unique and
  non-zero, every node and every ``src[]``/``view_src`` id one of the message's tensors.

What is not checked: whether the shapes of a graph's ops agree with each other.  ggml's CPU and
GPU code asserts most of that, and an assertion ends only the compute process (``server_front``).
"""

from __future__ import annotations

import dataclasses
import struct

import numpy as np

# Protocol 7 (ggml-rpc.cpp, enum rpc_cmd).  HELLO is fixed at 14 by the protocol itself.
ALLOC_BUFFER, GET_ALIGNMENT, GET_MAX_SIZE, BUFFER_GET_BASE, FREE_BUFFER, BUFFER_CLEAR = range(6)
SET_TENSOR, SET_TENSOR_HASH, GET_TENSOR, COPY_TENSOR, GRAPH_COMPUTE, GET_DEVICE_MEMORY = range(6, 12)
INIT_TENSOR, GET_ALLOC_SIZE, HELLO, DEVICE_COUNT, GRAPH_RECOMPUTE, MEMSET_TENSOR = range(12, 18)
PROTOCOL_MAJOR_FOR_TABLE = 7
HELLO_REQUEST_SIZE = 24  # rpc_msg_hello_req: conn_caps[24] (all zero: plain TCP)
HELLO_REPLY_SIZE = 28  # major, minor, patch, padding, conn_caps[24]

PARLEY_AUTH = 0xF7  # Parley's own first message: the token (outside ggml's commands)
TOKEN_SIZE = 32  # bytes; written as 64 lowercase hex characters

MAX_DIMS, MAX_SRC = 4, 10
TENSOR = np.dtype(
    [
        ("id", "<u8"),
        ("type", "<u4"),
        ("buffer", "<u8"),
        ("ne", "<u4", (MAX_DIMS,)),
        ("nb", "<u4", (MAX_DIMS,)),
        ("op", "<u4"),
        ("op_params", "<i4", (16,)),
        ("flags", "<i4"),
        ("src", "<u8", (MAX_SRC,)),
        ("view_src", "<u8"),
        ("view_offs", "<u8"),
        ("data", "<u8"),
        ("name", "S64"),
        ("use_count", "<i4"),
    ]
)
TENSOR_SIZE = TENSOR.itemsize  # 296: struct rpc_tensor, packed
SET_TENSOR_HEADER = TENSOR_SIZE + 1 + 8  # tensor, cache flag, offset; then the data

# Request sizes of the commands whose requests have one size.
REQUEST_SIZES: dict[int, int] = {
    ALLOC_BUFFER: 12,
    GET_ALIGNMENT: 4,
    GET_MAX_SIZE: 4,
    BUFFER_GET_BASE: 8,
    FREE_BUFFER: 8,
    BUFFER_CLEAR: 9,
    SET_TENSOR_HASH: TENSOR_SIZE + 16,
    GET_TENSOR: TENSOR_SIZE + 16,
    COPY_TENSOR: 2 * TENSOR_SIZE,
    GET_DEVICE_MEMORY: 4,
    INIT_TENSOR: TENSOR_SIZE,
    GET_ALLOC_SIZE: 4 + (1 + MAX_SRC) * TENSOR_SIZE,
    HELLO: HELLO_REQUEST_SIZE,
    DEVICE_COUNT: 0,
    GRAPH_RECOMPUTE: 4,
    MEMSET_TENSOR: TENSOR_SIZE + 17,
}
# Reply sizes (GET_TENSOR: the size it asks for); None: the command has no reply.
REPLY_SIZES: dict[int, int | None] = {
    ALLOC_BUFFER: 16,
    GET_ALIGNMENT: 8,
    GET_MAX_SIZE: 8,
    BUFFER_GET_BASE: 8,
    FREE_BUFFER: None,
    BUFFER_CLEAR: None,
    SET_TENSOR: None,
    SET_TENSOR_HASH: 1,
    GET_TENSOR: -1,
    COPY_TENSOR: 1,
    GRAPH_COMPUTE: None,
    GET_DEVICE_MEMORY: 16,
    INIT_TENSOR: None,
    GET_ALLOC_SIZE: 8,
    HELLO: HELLO_REPLY_SIZE,
    DEVICE_COUNT: 4,
    GRAPH_RECOMPUTE: None,
    MEMSET_TENSOR: None,
}
NAMES = {
    ALLOC_BUFFER: "ALLOC_BUFFER",
    GET_ALIGNMENT: "GET_ALIGNMENT",
    GET_MAX_SIZE: "GET_MAX_SIZE",
    BUFFER_GET_BASE: "BUFFER_GET_BASE",
    FREE_BUFFER: "FREE_BUFFER",
    BUFFER_CLEAR: "BUFFER_CLEAR",
    SET_TENSOR: "SET_TENSOR",
    SET_TENSOR_HASH: "SET_TENSOR_HASH",
    GET_TENSOR: "GET_TENSOR",
    COPY_TENSOR: "COPY_TENSOR",
    GRAPH_COMPUTE: "GRAPH_COMPUTE",
    GET_DEVICE_MEMORY: "GET_DEVICE_MEMORY",
    INIT_TENSOR: "INIT_TENSOR",
    GET_ALLOC_SIZE: "GET_ALLOC_SIZE",
    HELLO: "HELLO",
    DEVICE_COUNT: "DEVICE_COUNT",
    GRAPH_RECOMPUTE: "GRAPH_RECOMPUTE",
    MEMSET_TENSOR: "MEMSET_TENSOR",
    PARLEY_AUTH: "PARLEY_AUTH",
}

# ggml_blck_size and ggml_type_size of each ggml_type below GGML_TYPE_COUNT (43); (0, 0): a removed
# type.  The cffi binding does not expose the two functions: tests/engine/test_rpc_server.py compares
# this table with the native library's answers, so a new ggml that changes it fails there.
_TYPES = [
    (1, 4),
    (1, 2),
    (32, 18),
    (32, 20),
    (0, 0),
    (0, 0),
    (32, 22),
    (32, 24),
    (32, 34),
    (32, 36),
    (256, 84),
    (256, 110),
    (256, 144),
    (256, 176),
    (256, 210),
    (256, 292),
    (256, 66),
    (256, 74),
    (256, 98),
    (256, 50),
    (32, 18),
    (256, 110),
    (256, 82),
    (256, 136),
    (1, 1),
    (1, 2),
    (1, 4),
    (1, 8),
    (1, 8),
    (256, 56),
    (1, 2),
    (0, 0),
    (0, 0),
    (0, 0),
    (256, 54),
    (256, 66),
    (0, 0),
    (0, 0),
    (0, 0),
    (32, 17),
    (64, 36),
    (128, 18),
    (64, 18),
]
TYPE_COUNT = len(_TYPES)
BLOCK_SIZE = np.array([b for b, _ in _TYPES], dtype=np.uint64)
TYPE_SIZE = np.array([s for _, s in _TYPES], dtype=np.uint64)
OP_COUNT = 101  # GGML_OP_COUNT (ggml-rpc.h asserts it for protocol 7)
CUSTOM_OPS = (92, 93, 94, 95)  # GGML_OP_MAP_CUSTOM1..3, GGML_OP_CUSTOM: op_params hold a function pointer

MAX_GRAPH_NODES = 1 << 17  # a large model's graph has tens of thousands
MAX_GRAPH_TENSORS = 1 << 18
MAX_GRAPH_BYTES = 12 + 8 * MAX_GRAPH_NODES + TENSOR_SIZE * MAX_GRAPH_TENSORS  # ~79 MB
_TERM_LIMIT = np.uint64(1 << 60)  # larger than any buffer; keeps the sum below 2**64

_U32 = struct.Struct("<I")
U64 = struct.Struct("<Q")
_TENSOR_TAIL = struct.Struct("<QQ")  # offset, size (GET_TENSOR); offset, hash (SET_TENSOR_HASH)


class Refused(Exception):
    """A request the front does not pass on; the message is the one-line reason."""


@dataclasses.dataclass(frozen=True)
class Buffer:
    base: int
    size: int


def u64(value: int) -> bytes:
    return U64.pack(value)


def name(cmd: int) -> str:
    return NAMES.get(cmd, f"command {cmd}")


def tensors_from(data: bytes | bytearray | memoryview, count: int, offset: int = 0) -> np.ndarray:
    return np.frombuffer(data, dtype=TENSOR, count=count, offset=offset)


class Checker:
    """What one client owns on the server, and the check of each request it sends."""

    def __init__(self, device_count: int) -> None:
        self.device_count = device_count
        self.buffers: dict[int, Buffer] = {}
        self.has_graph = [False] * device_count  # a graph GRAPH_RECOMPUTE may run again

    # ------------------------------------------------------------------ bookkeeping

    def allocated(self, handle: int, base: int, size: int) -> None:
        self.buffers[handle] = Buffer(base, size)

    def freed(self, handle: int) -> None:
        del self.buffers[handle]
        self.has_graph = [False] * self.device_count  # ggml forgets its graphs on any free

    # ------------------------------------------------------------------ requests

    def device(self, body: bytes | bytearray, what: str) -> int:
        index: int = _U32.unpack_from(body)[0]
        if index >= self.device_count:
            raise Refused(f"{what}: no device {index} (the server has {self.device_count})")
        return index

    def handle(self, body: bytes, what: str) -> int:
        handle: int = U64.unpack_from(body)[0]
        if handle not in self.buffers:
            raise Refused(f"{what}: buffer {handle:#x} is not one of this client's buffers")
        return handle

    def set_tensor(self, header: bytes, data_size: int) -> None:
        """SET_TENSOR: its header (tensor, cache flag, offset), before the data is read."""
        nbytes = self.tensors(tensors_from(header, 1), "SET_TENSOR")[0]
        flag, offset = header[TENSOR_SIZE], U64.unpack_from(header, TENSOR_SIZE + 1)[0]
        if flag > 1:
            raise Refused(f"SET_TENSOR: cache flag {flag} is not 0 or 1")
        _within("SET_TENSOR", offset, data_size, int(nbytes))

    def tensor_region(self, body: bytes, what: str) -> int:
        """SET_TENSOR_HASH and GET_TENSOR: a tensor and an offset; GET_TENSOR's size is checked
        too (SET_TENSOR_HASH's second field is a hash).  Returns GET_TENSOR's reply size."""
        nbytes = int(self.tensors(tensors_from(body, 1), what)[0])
        offset, size = _TENSOR_TAIL.unpack_from(body, TENSOR_SIZE)
        _within(what, offset, size if what == "GET_TENSOR" else 0, nbytes)
        return int(size)

    def memset_tensor(self, body: bytes) -> None:
        nbytes = int(self.tensors(tensors_from(body, 1), "MEMSET_TENSOR")[0])
        offset, size = _TENSOR_TAIL.unpack_from(body, TENSOR_SIZE)
        _within("MEMSET_TENSOR", offset, size, nbytes)

    def copy_tensor(self, body: bytes) -> None:
        src, dst = self.tensors(tensors_from(body, 2), "COPY_TENSOR")
        if src > dst:
            raise Refused(f"COPY_TENSOR: the source ({int(src)} bytes) is larger than the destination ({int(dst)})")

    def alloc_size(self, body: bytes) -> bytes:
        """GET_ALLOC_SIZE: a tensor not yet in a buffer may be asked about, and its sources may be
        in another server's buffers (ggml sends those handles): such a source is forwarded as
        having no buffer and no data.  Returns the request to forward."""
        self.device(body, "GET_ALLOC_SIZE")
        tensors = tensors_from(body, 1 + MAX_SRC, 4).copy()
        srcs = tensors[1:]
        foreign = (srcs["buffer"] != 0) & ~np.isin(srcs["buffer"], list(self.buffers))
        srcs["buffer"][foreign] = 0
        srcs["data"][foreign] = 0
        used = np.concatenate([tensors[:1], srcs[srcs["id"] != 0]])
        self.tensors(used, "GET_ALLOC_SIZE", unbound_ok=True)
        return bytes(body[:4]) + tensors.tobytes() if foreign.any() else body

    def graph(self, body: bytes | bytearray) -> int:
        """GRAPH_COMPUTE:
        | device u32 | n_nodes u32 | node ids u64[n_nodes] | n_tensors u32 | rpc_tensor[n_tensors] |"""
        if len(body) < 12:
            raise Refused(f"GRAPH_COMPUTE: {len(body)} bytes is too short for a graph")
        device = self.device(body, "GRAPH_COMPUTE")
        n_nodes = _U32.unpack_from(body, 4)[0]
        if not 0 < n_nodes <= MAX_GRAPH_NODES:
            raise Refused(f"GRAPH_COMPUTE: {n_nodes} nodes (1 to {MAX_GRAPH_NODES} allowed)")
        if len(body) < 12 + 8 * n_nodes:
            raise Refused(f"GRAPH_COMPUTE: {len(body)} bytes cannot hold {n_nodes} nodes")
        n_tensors = _U32.unpack_from(body, 8 + 8 * n_nodes)[0]
        if not 0 < n_tensors <= MAX_GRAPH_TENSORS or len(body) != 12 + 8 * n_nodes + TENSOR_SIZE * n_tensors:
            raise Refused(f"GRAPH_COMPUTE: {n_nodes} nodes and {n_tensors} tensors do not make {len(body)} bytes")
        nodes = np.frombuffer(body, dtype="<u8", count=n_nodes, offset=8)
        tensors = tensors_from(body, n_tensors, 12 + 8 * n_nodes)
        ids = tensors["id"]
        sorted_ids = np.sort(ids)
        if sorted_ids[0] == 0 or (sorted_ids[1:] == sorted_ids[:-1]).any():
            raise Refused("GRAPH_COMPUTE: tensor ids must be unique and not 0")
        if (np.sort(nodes)[1:] == np.sort(nodes)[:-1]).any() or not _all_in(nodes, sorted_ids):
            raise Refused("GRAPH_COMPUTE: every node must be a distinct tensor of the message")
        links = np.concatenate([tensors["src"].ravel(), tensors["view_src"]])
        if not _all_in(links[links != 0], sorted_ids):
            raise Refused("GRAPH_COMPUTE: a tensor's source is not a tensor of the message")
        self.tensors(tensors, "GRAPH_COMPUTE")
        self.has_graph[device] = True
        return device

    def recompute(self, body: bytes) -> None:
        device = self.device(body, "GRAPH_RECOMPUTE")
        if not self.has_graph[device]:
            raise Refused("GRAPH_RECOMPUTE: no graph was computed since the last buffer was freed")

    # ------------------------------------------------------------------ tensors

    def tensors(self, t: np.ndarray, what: str, unbound_ok: bool = False) -> np.ndarray:
        """Check each tensor of ``t`` (see the module docstring); their sizes in bytes (uint64)."""
        types = t["type"]
        if (types >= TYPE_COUNT).any():
            raise Refused(f"{what}: unknown tensor type {int(types[types >= TYPE_COUNT][0])}")
        block, size = BLOCK_SIZE[types], TYPE_SIZE[types]
        if (block == 0).any():
            raise Refused(f"{what}: tensor type {int(types[block == 0][0])} is no longer supported")
        ops = t["op"]
        if (ops >= OP_COUNT).any() or np.isin(ops, CUSTOM_OPS).any():
            raise Refused(f"{what}: op {int(ops[(ops >= OP_COUNT) | np.isin(ops, CUSTOM_OPS)][0])} is not allowed")
        ne, nb = t["ne"].astype(np.uint64), t["nb"].astype(np.uint64)
        if (ne[:, 0] % block).any():
            raise Refused(f"{what}: a tensor row is not a whole number of blocks")
        if (np.prod(ne.astype(np.float64), axis=1) >= 2.0**62).any():
            raise Refused(f"{what}: a tensor has too many elements")
        nbytes = _nbytes(ne, nb, block, size, what)
        self._placed(t, nbytes, what, unbound_ok)
        return nbytes

    def _placed(self, t: np.ndarray, nbytes: np.ndarray, what: str, unbound_ok: bool) -> None:
        """Each tensor lies inside one of this client's buffers (or, where allowed, has no
        buffer and no data)."""
        handles, data = t["buffer"], t["data"]
        unbound = handles == 0
        if unbound.any():
            if not unbound_ok:
                raise Refused(f"{what}: a tensor has no buffer")
            if (data[unbound] != 0).any():
                raise Refused(f"{what}: a tensor without a buffer points at memory")
        bound = ~unbound
        if not bound.any():
            return
        for handle in np.unique(handles[bound]).tolist():
            buffer = self.buffers.get(handle)
            if buffer is None:
                raise Refused(f"{what}: buffer {handle:#x} is not one of this client's buffers")
            mine = handles == handle
            start, length = data[mine], nbytes[mine]
            if (start < np.uint64(buffer.base)).any():
                raise Refused(f"{what}: tensor data before the start of its buffer")
            offset = start - np.uint64(buffer.base)
            if (offset > np.uint64(buffer.size)).any() or (length > np.uint64(buffer.size) - offset).any():
                raise Refused(f"{what}: tensor data beyond the end of its buffer")


def _within(what: str, offset: int, size: int, nbytes: int) -> None:
    if offset > nbytes or size > nbytes - offset:
        raise Refused(f"{what}: bytes {offset}..{offset + size} are outside the tensor's {nbytes}")


def _all_in(values: np.ndarray, sorted_ids: np.ndarray) -> bool:
    if values.size == 0:
        return True
    at = np.searchsorted(sorted_ids, values).clip(max=sorted_ids.size - 1)
    return bool((sorted_ids[at] == values).all())


def _nbytes(ne: np.ndarray, nb: np.ndarray, block: np.ndarray, size: np.ndarray, what: str) -> np.ndarray:
    """``ggml_nbytes`` of each tensor, exactly, with every term kept below 2**60."""
    empty = (ne == 0).any(axis=1)
    ne1 = np.where(empty[:, None], np.uint64(1), ne)  # empty tensors: 0 bytes, whatever the strides
    rest = (ne1[:, 1:] - np.uint64(1)) * nb[:, 1:]
    whole = block == 1
    first = np.where(whole, size + (ne1[:, 0] - np.uint64(1)) * nb[:, 0], ne1[:, 0] * nb[:, 0] // block)
    if (rest >= _TERM_LIMIT).any() or (first >= _TERM_LIMIT).any():
        raise Refused(f"{what}: a tensor's strides span more than any buffer")
    nbytes: np.ndarray = np.where(empty, np.uint64(0), first + rest.sum(axis=1, dtype=np.uint64))
    return nbytes
