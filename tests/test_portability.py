"""Parley's modules import on Windows and macOS too: no module imports a POSIX-only part of
Python's library at its top level (the Windows build would fail at start, as it once did when
``engine/backend/machine_load.py`` imported ``resource``).  Such imports belong inside the
function that needs them, behind a platform check."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "parley"
POSIX_ONLY = {"resource", "fcntl", "termios", "tty", "pty", "pwd", "grp", "posix", "syslog", "crypt", "spwd"}


def top_level_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of each import in the module's own body, not in a function, a class, an
    ``if`` or a ``try`` (where a platform check may guard it)."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8"), str(path)).body:
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module.split(".")[0]))
    return found


def test_no_module_imports_a_posix_only_module_at_its_top() -> None:
    offenders = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: import {name}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line, name in top_level_imports(path)
        if name in POSIX_ONLY
    ]
    assert not offenders, "\n".join(offenders)


def test_the_check_sees_an_offending_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import os\nimport resource\ntry:\n    import fcntl\nexcept ImportError:\n    pass\n")
    assert [name for _, name in top_level_imports(module) if name in POSIX_ONLY] == ["resource"]
