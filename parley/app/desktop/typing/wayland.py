"""Typing into other apps on Wayland, through the compositor's virtual keyboard (Qt-free).

Wayland gives no client the power to type into another, except where the compositor offers the
``zwp_virtual_keyboard_manager_v1`` protocol: the wlroots compositors (sway, Hyprland, river,
labwc, Wayfire) do; GNOME and KDE do not offer it to ordinary apps (their remote-desktop portal
asks the user first), and ``can_type`` says so.

The keyboard uploads a keymap of its own in which each character to type has a key of its own
(its keysym by Unicode name), so any layout works and characters no layout has (accents, CJK,
emoji) arrive as they are; the user's layout is untouched, since the keymap belongs to this
virtual keyboard only.  Parley speaks the Wayland wire protocol itself on a connection of its
own (a few requests; no new dependency), and reads the compositor's messages as untrusted:
sizes, counts and strings are bounded, and a compositor that stops answering is a timeout.
"""

from __future__ import annotations

import os
import select
import socket
import struct
import time
from collections.abc import Callable, Iterable
from pathlib import Path

MAX_MESSAGE = 4096  # the protocol's own limit on one message
MAX_EVENTS = 20000  # per round trip: a registry has a few dozen globals
MAX_KEYS_PER_KEYMAP = 200  # keycodes 9..255 fit in any client's XKB state; more: a new keymap
TIMEOUT_S = 2.0
FIRST_KEY_DELAY_S = 0.03  # after a new keymap, before its first key (clients apply it first)

_DISPLAY_ID = 1
_KEY_PRESSED, _KEY_RELEASED = 1, 0
_KEYMAP_XKB_V1 = 1


class WaylandTypingError(Exception):
    """The compositor cannot be reached, refuses, or offers no virtual keyboard."""


def socket_path(env: dict[str, str] | os._Environ[str] = os.environ) -> Path | None:
    """The compositor's socket as clients find it (``WAYLAND_DISPLAY`` in ``XDG_RUNTIME_DIR``)."""
    display = env.get("WAYLAND_DISPLAY") or "wayland-0"
    if display.startswith("/"):
        return Path(display)
    runtime = env.get("XDG_RUNTIME_DIR")
    return Path(runtime) / display if runtime else None


class _Connection:
    """The wire protocol: requests out (with file descriptors), events in, by hand."""

    def __init__(self, path: Path, timeout: float) -> None:
        self.timeout = timeout
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
        self.sock.settimeout(timeout)
        try:
            self.sock.connect(str(path))
        except OSError as exc:
            self.sock.close()
            raise WaylandTypingError(f"the Wayland compositor at {path} cannot be reached ({exc})") from exc
        self._next_id = 2
        self._buffer = b""

    def new_id(self) -> int:
        new, self._next_id = self._next_id, self._next_id + 1
        return new

    def send(self, obj: int, opcode: int, args: bytes = b"", fds: Iterable[int] = ()) -> None:
        size = 8 + len(args)
        message = struct.pack("<II", obj, (size << 16) | opcode) + args
        fds = list(fds)
        try:
            if fds:
                rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, struct.pack(f"{len(fds)}i", *fds))]
                self.sock.sendmsg([message], rights)
            else:
                self.sock.sendall(message)
        except OSError as exc:  # a broken pipe or a reset: the compositor went away
            raise WaylandTypingError(f"the compositor closed the connection ({exc})") from exc

    def roundtrip(self, on_event: Callable[[int, int, bytes], None]) -> None:
        """Send ``wl_display.sync`` and hand every event to ``on_event`` until its ``done``."""
        callback = self.new_id()
        self.send(_DISPLAY_ID, 0, struct.pack("<I", callback))
        deadline = time.monotonic() + self.timeout
        for _ in range(MAX_EVENTS):
            obj, opcode, payload = self._read(deadline)
            if obj == _DISPLAY_ID and opcode == 0:  # wl_display.error
                target, code = struct.unpack_from("<II", payload) if len(payload) >= 8 else (0, 0)
                message = read_string(payload, 8)[0] if len(payload) > 8 else ""
                raise WaylandTypingError(f"the compositor refused a request (object {target}, code {code}): {message}")
            if obj == callback and opcode == 0:
                return
            if obj != _DISPLAY_ID:
                on_event(obj, opcode, payload)
        raise WaylandTypingError("the compositor sent more events than a round trip can have")

    def _read(self, deadline: float) -> tuple[int, int, bytes]:
        while True:
            if len(self._buffer) >= 8:
                obj, word = struct.unpack_from("<II", self._buffer)
                size, opcode = word >> 16, word & 0xFFFF
                if size < 8 or size > MAX_MESSAGE or size % 4:
                    raise WaylandTypingError(f"the compositor sent a malformed message ({size} bytes)")
                if len(self._buffer) >= size:
                    payload, self._buffer = self._buffer[8:size], self._buffer[size:]
                    return obj, opcode, payload
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.sock], [], [], left)[0]:
                raise WaylandTypingError("the compositor did not answer in time")
            # Events that carry file descriptors (a keymap for wl_keyboard) are not asked for; any
            # that come are closed at once.
            try:
                data, ancillary, _flags, _addr = self.sock.recvmsg(MAX_MESSAGE, socket.CMSG_SPACE(16 * 4))
            except OSError as exc:
                raise WaylandTypingError(f"the compositor closed the connection ({exc})") from exc
            for level, kind, raw in ancillary:
                if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                    for fd in struct.unpack(f"{len(raw) // 4}i", raw[: len(raw) - len(raw) % 4]):
                        os.close(fd)
            if not data:
                raise WaylandTypingError("the compositor closed the connection")
            self._buffer += data

    def close(self) -> None:
        self.sock.close()


def read_string(payload: bytes, offset: int) -> tuple[str, int]:
    """A protocol string at ``offset``: its length (NUL included), the bytes, padding to 4."""
    if offset + 4 > len(payload):
        raise WaylandTypingError("the compositor sent a truncated string")
    (length,) = struct.unpack_from("<I", payload, offset)
    end = offset + 4 + length
    if length == 0 or end > len(payload) or payload[end - 1] != 0:
        raise WaylandTypingError("the compositor sent a malformed string")
    text = payload[offset + 4 : end - 1].decode("utf-8", "replace")
    return text, offset + 4 + (length + 3) // 4 * 4


def _string(text: str) -> bytes:
    raw = text.encode() + b"\0"
    return struct.pack("<I", len(raw)) + raw + b"\0" * (-len(raw) % 4)


def key_name(char: str) -> str:
    """The XKB keysym name that types ``char`` (Unicode keysyms: ``U`` and the code point)."""
    if char == "\n":
        return "Return"
    if char == "\t":
        return "Tab"
    return f"U{ord(char):04X}"


def keymap_text(names: list[str]) -> str:
    """An XKB keymap with one key per keysym name, keycodes from 9."""
    codes = "".join(f"    <K{9 + i}> = {9 + i};\n" for i in range(len(names)))
    symbols = "".join(f"    key <K{9 + i}> {{ [ {name} ] }};\n" for i, name in enumerate(names))
    return (
        "xkb_keymap {\n"
        f'  xkb_keycodes "parley" {{\n    minimum = 8;\n    maximum = {8 + max(1, len(names))};\n{codes}  }};\n'
        '  xkb_types "parley" { include "complete" };\n'
        '  xkb_compatibility "parley" { include "complete" };\n'
        f'  xkb_symbols "parley" {{\n{symbols}  }};\n'
        "};\n"
    )


class VirtualKeyboard:
    """A virtual keyboard on the compositor's seat, for one dictation."""

    def __init__(self, path: Path | None = None, timeout: float = TIMEOUT_S) -> None:
        path = path or socket_path()
        if path is None:
            raise WaylandTypingError("no Wayland session (XDG_RUNTIME_DIR is not set)")
        self._wire = _Connection(path, timeout)
        try:
            globals_ = offered_globals(self._wire)
            manager = globals_.get("zwp_virtual_keyboard_manager_v1")
            seat = globals_.get("wl_seat")
            if manager is None or seat is None:
                raise WaylandTypingError(NO_VIRTUAL_KEYBOARD)
            seat_id = self._bind(seat[0], "wl_seat", 1)
            manager_id = self._bind(manager[0], "zwp_virtual_keyboard_manager_v1", 1)
            self._keyboard = self._wire.new_id()
            self._wire.send(manager_id, 0, struct.pack("<II", seat_id, self._keyboard))
            self._wire.roundtrip(lambda *_: None)  # a refusal (an unauthorized client) comes as an error
            self._names: list[str] = []
            self._started = time.monotonic()
        except BaseException:
            self._wire.close()
            raise

    def _bind(self, name: int, interface: str, version: int) -> int:
        new = self._wire.new_id()
        self._wire.send(2, 0, struct.pack("<I", name) + _string(interface) + struct.pack("<II", version, new))
        return new

    def type_text(self, text: str, delay_s: float = 0.0, cancelled: Callable[[], bool] = lambda: False) -> int:
        """Type ``text``; returns how many characters were typed (fewer when ``cancelled``)."""
        typed = 0
        while typed < len(text):
            chunk = _chunk(text, typed)
            self._set_keymap(list(dict.fromkeys(key_name(c) for c in chunk)))
            for char in chunk:
                if cancelled():
                    self._wire.roundtrip(lambda *_: None)
                    return typed
                self._tap(self._names.index(key_name(char)))
                typed += 1
                if delay_s:
                    time.sleep(delay_s)
        self._wire.roundtrip(lambda *_: None)
        return typed

    def _set_keymap(self, names: list[str]) -> None:
        if names == self._names:
            return
        raw = keymap_text(names).encode() + b"\0"
        fd = os.memfd_create("parley-keymap", os.MFD_CLOEXEC)
        try:
            os.write(fd, raw)
            self._wire.send(self._keyboard, 0, struct.pack("<II", _KEYMAP_XKB_V1, len(raw)), fds=[fd])
        finally:
            os.close(fd)
        self._wire.roundtrip(lambda *_: None)
        time.sleep(FIRST_KEY_DELAY_S)
        self._names = names

    def _tap(self, index: int) -> None:
        code = 9 + index - 8  # the protocol's key codes are evdev's: XKB's minus 8
        for state in (_KEY_PRESSED, _KEY_RELEASED):
            now = int((time.monotonic() - self._started) * 1000) & 0xFFFFFFFF
            self._wire.send(self._keyboard, 1, struct.pack("<III", now, code, state))

    def close(self) -> None:
        try:
            self._wire.send(self._keyboard, 3)  # destroy
        except (WaylandTypingError, AttributeError):
            pass
        self._wire.close()


NO_VIRTUAL_KEYBOARD = (
    "this Wayland desktop offers no virtual keyboard to apps (sway, Hyprland and the other wlroots desktops do)"
)


def offered_globals(wire: _Connection) -> dict[str, tuple[int, int]]:
    """The compositor's globals: interface -> (name, version), read as untrusted."""
    registry = wire.new_id()
    wire.send(_DISPLAY_ID, 1, struct.pack("<I", registry))
    found: dict[str, tuple[int, int]] = {}

    def on_event(obj: int, opcode: int, payload: bytes) -> None:
        if obj == registry and opcode == 0 and len(payload) >= 12 and len(found) < 512:
            (name,) = struct.unpack_from("<I", payload)
            interface, end = read_string(payload, 4)
            if end + 4 <= len(payload):
                found.setdefault(interface, (name, struct.unpack_from("<I", payload, end)[0]))

    wire.roundtrip(on_event)
    return found


def virtual_keyboard_problem(path: Path | None = None) -> str | None:
    """Why Parley cannot type here on Wayland (None: the compositor offers a virtual keyboard)."""
    path = path or socket_path()
    if path is None:
        return "no Wayland session was found (XDG_RUNTIME_DIR is not set)"
    try:
        wire = _Connection(path, TIMEOUT_S)
    except WaylandTypingError as exc:
        return str(exc)
    try:
        found = offered_globals(wire)
    except (WaylandTypingError, OSError) as exc:
        return str(exc)
    finally:
        wire.close()
    return None if "zwp_virtual_keyboard_manager_v1" in found and "wl_seat" in found else NO_VIRTUAL_KEYBOARD


def _chunk(text: str, start: int) -> str:
    """The longest run from ``start`` whose distinct characters fit in one keymap."""
    seen: set[str] = set()
    end = start
    while end < len(text) and (text[end] in seen or len(seen) < MAX_KEYS_PER_KEYMAP):
        seen.add(text[end])
        end += 1
    return text[start:end]
