"""Parley on the desktop beyond its own window: one instance per conversation database, the tray
and start at login, system-wide shortcuts (X11 grabs, the portal's GlobalShortcuts on Wayland),
and typing into other apps (XTEST on X11; on Wayland the compositor's virtual keyboard, else the
portal's RemoteDesktop keyboard; ``portal`` holds what the portal conversations share)."""
