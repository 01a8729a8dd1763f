"""How a dictation is put into an application, by the mode the settings' table gives its class
(``dictation_app_modes``: ``WM_CLASS`` instance or class in lower case -> mode name).

The modes' names are shared with the engine (``DictationOptions.with_mode``: the terminal
modes turn the clean-up off); what they mean for typing is here:

- ``plain``: the user's settings as they are (any application not in the table);
- ``terminal``: no space after, pasted with Ctrl+Shift+V (Ctrl+V is a control key in a
  terminal), so that a line break is pasted, not typed: under a shell's bracketed paste it runs
  nothing;
- ``terminal-keys`` (xterm, urxvt: Ctrl+Shift+V does not paste the clipboard there by
  default): no space after, typed as keys, line breaks typed as spaces (a typed Return would
  run the command line).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..focused_app import FocusedApp

PLAIN = "plain"


@dataclass(frozen=True)
class TypingMode:
    name: str
    space_after: bool | None = None  # None: the user's setting
    method: str | None = None  # "type" | "paste"; None: the user's setting
    paste_keys: str = "ctrl+v"  # "ctrl+v" | "ctrl+shift+v"
    line_breaks_as_spaces: bool = False

    def text(self, text: str, space_after: bool) -> str:
        """``text`` as it is put into the application (``space_after``: the user's setting)."""
        if self.line_breaks_as_spaces:
            text = " ".join(text.splitlines())
        space = space_after if self.space_after is None else self.space_after
        return text + (" " if space and text else "")


MODES: dict[str, TypingMode] = {
    PLAIN: TypingMode(PLAIN),
    "terminal": TypingMode("terminal", space_after=False, method="paste", paste_keys="ctrl+shift+v"),
    "terminal-keys": TypingMode("terminal-keys", space_after=False, method="type", line_breaks_as_spaces=True),
}
# For Settings: each mode in words.
MODE_NAMES: dict[str, str] = {
    PLAIN: "As set above",
    "terminal": "Terminal: no clean-up, no space after, pasted with Ctrl+Shift+V",
    "terminal-keys": "Terminal (typed): no clean-up, no space after, line breaks as spaces",
}


def mode_name(app: FocusedApp | None, table: dict[str, str]) -> str:
    """The mode ``table`` gives ``app`` (its instance first, then its class); ``plain`` when
    none does, or when the application is not known."""
    if app is None:
        return PLAIN
    for key in app.keys():
        if table.get(key) in MODES:
            return table[key]
    return PLAIN


def typing_mode(name: str) -> TypingMode:
    return MODES.get(name, MODES[PLAIN])
