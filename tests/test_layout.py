"""The package's shape: the rules the tree is built on, read from the source's imports.

- no import cycle between parley's modules (imports inside functions count: they are still a
  dependency, only a later one);
- ``parley.engine`` never imports Qt, so it works from a script or the CLI;
- the engine host is the controller's alone: every other part gets an engine slot, never the
  host (a service locator hides what a part depends on).
"""

from __future__ import annotations

import ast
from pathlib import Path

import parley

ROOT = Path(parley.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The parley modules ``path`` imports (``from package import module`` counts as that module
    only: a submodule's own package is not a dependency of its sibling)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = f"{base}.{node.module}" if node.level and node.module else (node.module or base)
            named = {f"{target}.{alias.name}" for alias in node.names}
            found.update(named)
            if not named <= modules:  # "from package import name" where a name is not a module
                found.add(target)
    return {m for m in found if m in modules and m != name}


def import_graph() -> dict[str, set[str]]:
    paths = sorted(ROOT.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    return {module_name(p): imports_of(p, modules) for p in paths}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    return groups


def test_the_graph_is_read_from_the_source() -> None:
    graph = import_graph()
    assert "parley.app.engine_slots" in graph["parley.app.controller"] | graph["parley.app.engine_host"]
    assert "parley.engine.audio.utterance" in graph["parley.app.voice.transcription"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle() -> None:
    assert cycles(import_graph()) == []


def test_the_engine_never_imports_qt() -> None:
    for path in sorted((ROOT / "engine").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        assert not [n for n in names if n.split(".")[0] in ("PySide6", "shiboken6")], path


def test_only_the_controller_holds_the_engine_host() -> None:
    holders = {name for name, imported in import_graph().items() if "parley.app.engine_host" in imported}
    assert holders == {"parley.app.controller"}
