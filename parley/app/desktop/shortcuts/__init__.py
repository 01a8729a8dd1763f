"""System-wide shortcuts: ``global_shortcuts.GlobalShortcuts`` picks the way this desktop offers
(X11 key grabs on Parley's own X connection, the portal's GlobalShortcuts on Wayland, hot keys on
Windows and macOS) and reports presses and releases on the UI thread.

``x11_key_state`` answers which keys are down now, on Qt's own X connection: the window's
push-to-talk key needs it to tell a real release from X11's auto-repeat."""
