"""Which keys are down now, asked of the X server (QueryKeymap) on Qt's own xcb connection.

Push-to-talk in the window (``ui.push_to_talk_keys``) needs it on X11, where Qt cannot tell a
key's auto-repeat from its real release (see there).  ctypes on libxcb, which Qt's xcb plugin
has already loaded: one round trip, no connection of Parley's own.
"""

from __future__ import annotations

import ctypes

from ...qt_app import application


class _KeymapReply(ctypes.Structure):
    """xcb_query_keymap_reply_t: one bit per X key code, set while the key is down."""

    _fields_ = [
        ("response_type", ctypes.c_uint8),
        ("pad0", ctypes.c_uint8),
        ("sequence", ctypes.c_uint16),
        ("length", ctypes.c_uint32),
        ("keys", ctypes.c_uint8 * 32),
    ]


class _Cookie(ctypes.Structure):
    _fields_ = [("sequence", ctypes.c_uint)]


class X11KeyState:
    """Asks the X server which keys are down (QueryKeymap, one round trip on Qt's own xcb
    connection).  ``is_down`` returns None where there is no X server to ask."""

    def __init__(self) -> None:
        self._connection = 0
        app = application()
        if app is None or app.platformName() != "xcb":
            return
        native = app.nativeInterface()
        connection = native.connection() if hasattr(native, "connection") else 0
        if not connection:
            return
        try:
            xcb, libc = ctypes.CDLL("libxcb.so.1"), ctypes.CDLL(None)  # already loaded by Qt's xcb plugin
        except OSError:
            return
        xcb.xcb_query_keymap.argtypes = [ctypes.c_void_p]
        xcb.xcb_query_keymap.restype = _Cookie
        xcb.xcb_query_keymap_reply.argtypes = [ctypes.c_void_p, _Cookie, ctypes.c_void_p]
        xcb.xcb_query_keymap_reply.restype = ctypes.POINTER(_KeymapReply)
        libc.free.argtypes = [ctypes.c_void_p]
        self._xcb, self._free, self._connection = xcb, libc.free, connection

    @property
    def available(self) -> bool:
        return bool(self._connection)

    def is_down(self, keycode: int) -> bool | None:
        """Whether the key with X key code ``keycode`` is held now; None if that is unknown."""
        if not self._connection or not 0 < keycode < 256:
            return None
        reply = self._xcb.xcb_query_keymap_reply(self._connection, self._xcb.xcb_query_keymap(self._connection), None)
        if not reply:
            return None  # the connection broke; Qt will close the app anyway
        try:
            return bool(reply.contents.keys[keycode // 8] & (1 << keycode % 8))
        finally:
            self._free(ctypes.cast(reply, ctypes.c_void_p))
