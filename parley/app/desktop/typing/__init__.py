"""Typing into other apps: ``typist.Typist`` types (or pastes) a dictation where the cursor is,
off the UI thread, by the way this desktop allows: XTEST on X11; on Wayland the compositor's
virtual keyboard, else the portal's RemoteDesktop keyboard; SendInput on Windows; CGEvent on
macOS.  ``modes`` says how a mode of the settings' table per application changes that (a
terminal: no space after, Ctrl+Shift+V to paste)."""
