"""How a dictation is put into an application, by the mode the settings' table gives its class
(``dictation_app_modes``: ``WM_CLASS`` instance or class in lower case -> mode name).

The modes' names are the engine's (``parley.engine.dictation.options.MODES``: what each does to
the text, e.g. the terminal modes turn the clean-up off); what they change in the typing is here,
and only the terminal modes change it:

- ``terminal``: no space after, pasted with Ctrl+Shift+V (Ctrl+V is a control key in a
  terminal), so that a line break is pasted, not typed: under a shell's bracketed paste it runs
  nothing;
- ``terminal-keys`` (xterm, urxvt: Ctrl+Shift+V does not paste the clipboard there by
  default): no space after, typed as keys, line breaks typed as spaces (a typed Return would
  run the command line);
- any other mode: typed or pasted as the settings say.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..focused_app import FocusedApp

DEFAULT = "default"  # the settings as they are: the mode of an application not in the table


@dataclass(frozen=True)
class TypingMode:
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


AS_SET = TypingMode()
TYPING: dict[str, TypingMode] = {
    "terminal": TypingMode(space_after=False, method="paste", paste_keys="ctrl+shift+v"),
    "terminal-keys": TypingMode(space_after=False, method="type", line_breaks_as_spaces=True),
}


def mode_name(app: FocusedApp | None, table: dict[str, str]) -> str:
    """The mode ``table`` gives ``app`` (its instance first, then its class); ``default`` when
    none does, or when the application is not known."""
    if app is None:
        return DEFAULT
    return next((table[key] for key in app.keys() if key in table), DEFAULT)


def typing_mode(name: str) -> TypingMode:
    return TYPING.get(name, AS_SET)
