"""The package's shape: the rules the tree is built on, read from the source's imports.

Every rule a folder's ``__init__`` docstring states is checked here (a rule without a check is
deleted from the docstring instead):

- no import cycle between parley's modules (imports inside functions count: they are still a
  dependency, only a later one);
- ``parley.engine`` never imports Qt, so it works from a script or the CLI; each engine folder
  imports only the folders its docstring names;
- ``parley.config`` and ``parley.server`` are Qt-free; ``config.paths`` imports nothing of
  Parley's, and it is all of ``config`` the engine uses;
- the ``parley`` command works without Qt: no command reaches Qt through its imports (only the
  app's own entry, ``parley.app.main``, does, and the CLI imports it only to open the window);
- ``app/ui`` holds widgets only: no engine calls (from the engine it takes plain records and the
  wording of sizes and times, nothing that runs), no background work (no thread of its own), no
  native code (no ctypes);
- ``app/speech``, ``app/voice``, ``app/conversations``, ``app/desktop`` and ``status`` never
  reach a widget, not even through another module: only the parts that build or drive windows
  import ``ui``;
- the app's parts (``speech``, ``voice``, ``conversations``, ``desktop``) import of the app only
  the shared pieces their docstrings name, never a flow, the controller or the window makers;
  from the engine, ``conversations`` and ``desktop`` take only its ground modules;
- the flows run on the UI thread (no thread of their own) and never import the controller or
  the engine host; the engine host is the controller's alone: every other part gets an engine
  slot, never the host (a service locator hides what a part depends on).
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import importlib
from collections.abc import Callable, Iterable
from pathlib import Path

import parley

ROOT = Path(parley.__file__).parent
QT = ("PySide6", "shiboken6")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package(path: Path) -> str:
    name = module_name(path)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _absolute(node: ast.ImportFrom, package: str) -> str:
    """The module an ``from ... import`` names, relative levels resolved."""
    base = package
    for _ in range(node.level - 1):
        base = base.rpartition(".")[0]
    return f"{base}.{node.module}" if node.level and node.module else (node.module or base)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The parley modules ``path`` imports (``from package import module`` counts as that module
    only: a submodule's own package is not a dependency of its sibling)."""
    name = module_name(path)
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(node, _package(path))
            named = {f"{target}.{alias.name}" for alias in node.names}
            found.update(named)
            if not named <= modules:  # "from package import name" where a name is not a module
                found.add(target)
    return {m for m in found if m in modules and m != name}


def outside_imports(path: Path) -> set[str]:
    """The modules from outside parley that ``path`` imports, by full name (``PySide6.QtCore``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found.add(node.module or "")
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {m for m in found if m.split(".")[0] != "parley"}


def paths() -> list[Path]:
    return sorted(ROOT.rglob("*.py"))


def import_graph() -> dict[str, set[str]]:
    modules = {module_name(p) for p in paths()}
    return {module_name(p): imports_of(p, modules) for p in paths()}


def qt_importers() -> set[str]:
    """The parley modules that import Qt themselves."""
    return {module_name(p) for p in paths() if any(m.split(".")[0] in QT for m in outside_imports(p))}


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


def path_to(graph: dict[str, set[str]], start: str, goal: Callable[[str], bool], skip: Iterable[str] = ()) -> list[str]:
    """The shortest import chain from ``start`` to a module ``goal`` accepts ([] when none),
    never going through a module in ``skip``."""
    came: dict[str, str | None] = {start: None}
    queue = [start]
    avoided = set(skip)
    while queue:
        node = queue.pop(0)
        if goal(node) and node != start:
            chain = [node]
            while (previous := came[chain[-1]]) is not None:
                chain.append(previous)
            return chain[::-1]
        for nxt in sorted(graph[node]):
            if nxt not in came and nxt not in avoided:
                came[nxt] = node
                queue.append(nxt)
    return []


def within(module: str, *packages: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


# ---------------------------------------------------------------------------------- the rules

# The engine's ground modules: what every engine folder may import.
GROUND = (
    "parley.engine.errors",
    "parley.engine.notes",
    "parley.engine.formats",
    "parley.engine.atomic",
    "parley.engine.untrusted",
    "parley.engine.native_loading",
    "parley.engine.textmetrics",
    "parley.engine._native",
    "parley.config.paths",
)
E = "parley.engine."
# What each engine folder may import besides the ground and itself, as its docstring says.
ENGINE_FOLDERS: dict[str, tuple[str, ...]] = {
    "backend": (),
    "audio": (),
    "modelfiles": (E + "audio.mel", E + "backend.cancel"),
    "handles": (E + "backend", E + "modelfiles"),
    "chat": (E + "handles", E + "backend", E + "modelfiles"),
    "voice": (E + "audio.playback", E + "backend.cpu_share", E + "backend.cpu_load"),
    "dictation": (E + "chat", E + "backend.cancel"),
    "tools": (E + "chat", E + "backend.cancel"),
    "documents": (E + "chat", E + "backend.cancel", E + "library.embedding_models"),
    "wake": (),
}
# One module's exception to its folder's rule, named in the folder's docstring too.
ENGINE_MODULES: dict[str, tuple[str, ...]] = {
    E + "audio.silero": (E + "backend", E + "modelfiles", E + "handles"),
}


def engine_folder_violations(graph: dict[str, set[str]]) -> list[str]:
    found = []
    for module, imported in graph.items():
        parts = module.split(".")
        if len(parts) < 4 or parts[1] != "engine" or parts[2] not in ENGINE_FOLDERS:
            continue
        folder = parts[2]
        allowed = (*GROUND, E + folder, *ENGINE_FOLDERS[folder], *ENGINE_MODULES.get(module, ()))
        found += [f"{module} imports {m}" for m in sorted(imported) if within(m, "parley") and not within(m, *allowed)]
    return found


def ground_violations(graph: dict[str, set[str]]) -> list[str]:
    """The ground modules import only each other."""
    return [
        f"{module} imports {m}"
        for module in GROUND
        if module in graph
        for m in sorted(graph[module])
        if not within(m, *GROUND)
    ]


def qt_free_violations(graph: dict[str, set[str]]) -> list[str]:
    """The engine, the server and config never reach Qt."""
    qt = qt_importers()
    found = []
    for module in graph:
        if within(module, "parley.engine", "parley.server", "parley.config"):
            if module in qt:
                found.append(f"{module} imports Qt")
            elif chain := path_to(graph, module, qt.__contains__):
                found.append(" -> ".join(chain))
    return found


def config_violations(graph: dict[str, set[str]]) -> list[str]:
    found = [f"parley.config.paths imports {m}" for m in sorted(graph.get("parley.config.paths", ()))]
    for module, imported in graph.items():
        if within(module, "parley.engine"):
            found += [f"{module} imports {m}" for m in imported if within(m, "parley.config") and m != GROUND[-1]]
    return found


def server_violations(graph: dict[str, set[str]]) -> list[str]:
    """The server imports nothing of the app or the command line."""
    return [
        f"{module} imports {m}"
        for module, imported in graph.items()
        if within(module, "parley.server")
        for m in sorted(imported)
        if within(m, "parley.app", "parley.cli")
    ]


APP_ENTRY = "parley.app.main"  # the app itself: the only way the CLI reaches Qt
# How a command reaches the running app: Qt-free but for Windows, whose named pipe it opens with Qt.
INSTANCE_SOCKET = "parley.app.desktop.instance_socket"


def cli_violations(graph: dict[str, set[str]]) -> list[str]:
    """No command reaches Qt; from the app the CLI imports only its entry and the instance socket."""
    qt = qt_importers()
    found = []
    for module, imported in graph.items():
        if not within(module, "parley.cli"):
            continue
        found += [
            f"{module} imports {m}"
            for m in sorted(imported)
            if within(m, "parley.app") and m not in (APP_ENTRY, INSTANCE_SOCKET)
        ]
        if module in qt:
            found.append(f"{module} imports Qt")
        elif chain := path_to(graph, module, qt.__contains__, skip=[APP_ENTRY, INSTANCE_SOCKET]):
            found.append(" -> ".join(chain))
    return found


UI = "parley.app.ui"
# What the widgets may import of the app: each other, ``emit``, the running QApplication, the
# settings (plain data) and the conversation model and dictation records they show.
UI_MAY_IMPORT = (
    UI,
    "parley.app.signals",
    "parley.app.qt_app",
    "parley.config",
    "parley.app.conversations.conversation",
    "parley.app.conversations.reply_state",
    "parley.app.conversations.dictation_record",
)
# Text helpers that run nothing: sizes and times worded for people, server addresses parsed and
# shown with their token masked.
UI_TEXT_HELPERS = ("parley.engine.library.human_units", "parley.engine.backend.rpc.endpoints")
NO_THREADS = ("threading", "_thread", "concurrent", "multiprocessing", "asyncio", "ctypes", "cffi")
NO_QT_THREADS = ("QThread", "QThreadPool", "QRunnable", "QtConcurrent")


def thread_imports(path: Path) -> set[str]:
    """What ``path`` imports that runs work off the UI thread or calls native code directly."""
    return {m for m in outside_imports(path) if m.split(".")[0] in NO_THREADS or m.split(".")[-1] in NO_QT_THREADS}


def _plain(module: str, name: str) -> bool:
    """Whether ``module.name`` is a plain record, a constant or a wording helper (nothing that runs)."""
    if module in UI_TEXT_HELPERS:
        return True
    value = getattr(importlib.import_module(module), name, None)
    if isinstance(value, type):
        return dataclasses.is_dataclass(value) or issubclass(value, (enum.Enum, tuple))
    return isinstance(value, (str, int, float, bytes))


def ui_violations(graph: dict[str, set[str]]) -> list[str]:
    found = []
    for path in paths():
        module = module_name(path)
        if not within(module, UI):
            continue
        found += [
            f"{module} imports {m}"
            for m in sorted(graph[module])
            if within(m, "parley.app") and not within(m, *UI_MAY_IMPORT)
        ]
        found += [f"{module} runs work off the UI thread or native code: {m}" for m in sorted(thread_imports(path))]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found += [f"{module} imports {a.name}" for a in node.names if within(a.name, "parley.engine")]
            elif isinstance(node, ast.ImportFrom):
                source = _absolute(node, _package(path))
                if within(source, "parley.engine"):
                    found += [f"{module} imports {source}.{a.name}" for a in node.names if not _plain(source, a.name)]
    return found


# The parts that build or drive windows: the only modules outside ui that import it.
WINDOW_MAKERS = (
    "parley.app.controller",
    "parley.app.bootstrap",
    "parley.app.first_start",
    "parley.app.settings_flow",
    "parley.app.flows",
    "parley.app.selftest",
)
# Folders and modules that never reach a widget, not even through another module.
WINDOWLESS = (
    "parley.app.speech",
    "parley.app.voice",
    "parley.app.conversations",
    "parley.app.desktop",
    "parley.app.status",
    "parley.app.tools",
)


def window_violations(graph: dict[str, set[str]]) -> list[str]:
    found = [
        f"{module} imports {m}"
        for module, imported in graph.items()
        if within(module, "parley.app") and not within(module, UI, *WINDOW_MAKERS)
        for m in sorted(imported)
        if within(m, UI) and m != UI
    ]
    for module in graph:
        if within(module, *WINDOWLESS) and (chain := path_to(graph, module, lambda m: within(m, UI))):
            found.append(" -> ".join(chain))
    return found


def flow_violations(graph: dict[str, set[str]]) -> list[str]:
    """The flows import neither the controller nor the host, and start no thread."""
    found = [
        f"{module} imports {m}"
        for module, imported in graph.items()
        if within(module, "parley.app.flows")
        for m in sorted(imported)
        if m in ("parley.app.controller", "parley.app.engine_host")
    ]
    for path in paths():
        if module_name(path) in graph and within(module_name(path), "parley.app.flows"):
            found += [f"{module_name(path)} starts a thread: {m}" for m in sorted(thread_imports(path))]
    return found


# What each of the app's parts may import of the app besides itself, as its docstring says (the
# shared pieces: the background path, emit, the engine slots, the status line, the purposes, the
# engine's messages translated).
SHARED = (
    "parley.app.tasks",
    "parley.app.signals",
    "parley.app.take_purpose",
    "parley.app.status",
    "parley.app.engine_notes",
)
PARTS: dict[str, tuple[str, ...]] = {
    "parley.app.speech": (*SHARED, "parley.app.engine_slots", "parley.app.engines", "parley.app.desktop.shortcuts"),
    "parley.app.voice": (*SHARED, "parley.app.engines", "parley.app.speech"),
    "parley.app.conversations": (*SHARED, "parley.app.engine_slots"),
    "parley.app.desktop": ("parley.app.signals", "parley.app.take_purpose", "parley.app.qt_app"),
    "parley.app.tools": SHARED,
    "parley.app.documents": SHARED,
}
# The parts whose only engine imports are the ground modules: they do no engine work themselves.
ENGINELESS = ("parley.app.conversations", "parley.app.desktop")


def part_violations(graph: dict[str, set[str]]) -> list[str]:
    found = []
    for module, imported in graph.items():
        part = next((p for p in PARTS if within(module, p)), None)
        if part is None:
            continue
        found += [
            f"{module} imports {m}"
            for m in sorted(imported)
            if within(m, "parley.app") and not within(m, part, *PARTS[part])
        ]
        if part in ENGINELESS:
            found += [
                f"{module} imports {m}" for m in sorted(imported) if within(m, "parley.engine") and m not in GROUND
            ]
    return found


def host_violations(graph: dict[str, set[str]]) -> list[str]:
    holders = {name for name, imported in graph.items() if "parley.app.engine_host" in imported}
    return [f"{m} imports the engine host" for m in sorted(holders - {"parley.app.controller"})]


RULES = {
    "engine folders": engine_folder_violations,
    "ground": ground_violations,
    "Qt-free": qt_free_violations,
    "config": config_violations,
    "server": server_violations,
    "cli": cli_violations,
    "ui": ui_violations,
    "windows": window_violations,
    "flows": flow_violations,
    "parts": part_violations,
    "host": host_violations,
}


# ---------------------------------------------------------------------------------- the tests


def test_the_graph_is_read_from_the_source() -> None:
    graph = import_graph()
    assert "parley.app.engine_slots" in graph["parley.app.controller"] | graph["parley.app.engine_host"]
    assert "parley.engine.audio.utterance" in graph["parley.app.speech.transcription"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert path_to({"a": {"b"}, "b": {"c"}, "c": set()}, "a", "c".__eq__) == ["a", "b", "c"]
    assert path_to({"a": {"b"}, "b": {"c"}, "c": set()}, "a", "c".__eq__, skip=["b"]) == []
    assert {"parley.app.ui.main_window", "parley.app.tasks"} <= qt_importers()


def test_the_rules_catch_what_they_forbid() -> None:
    """Each rule, given a graph that breaks it, says so."""
    flow = "parley.app.flows.x"  # a window maker, which may import ui; status may not reach it through one
    graph = {"parley.app.status": {flow}, flow: {UI + ".main_window"}, UI + ".main_window": set()}
    assert window_violations(graph) == [f"parley.app.status -> {flow} -> {UI}.main_window"]
    assert engine_folder_violations({E + "backend.native": {E + "chat.model"}}) == [
        "parley.engine.backend.native imports parley.engine.chat.model"
    ]
    assert flow_violations({"parley.app.flows.dictation": {"parley.app.controller"}})
    assert server_violations({"parley.server.app": {"parley.app.tasks"}})
    assert part_violations(
        {
            "parley.app.speech.hands_free": {"parley.app.flows.spoken_turn", "parley.app.tasks"},
            "parley.app.conversations.book": {"parley.engine.chat.model", "parley.engine.errors"},
            "parley.app.desktop.tray": {"parley.app.controller"},
        }
    ) == [
        "parley.app.speech.hands_free imports parley.app.flows.spoken_turn",
        "parley.app.conversations.book imports parley.engine.chat.model",
        "parley.app.desktop.tray imports parley.app.controller",
    ]
    cli = {"parley.cli.models": {"parley.app.model_library"}, "parley.app.model_library": set()}
    assert cli_violations(cli) == [  # an app module, and one that imports Qt
        "parley.cli.models imports parley.app.model_library",
        "parley.cli.models -> parley.app.model_library",
    ]
    assert config_violations({"parley.config.paths": {"parley.engine.errors"}})
    assert host_violations({"parley.app.voice.x": {"parley.app.engine_host"}})
    assert ground_violations({"parley.engine.errors": {"parley.engine.chat.model"}})
    assert not _plain("parley.engine.errors", "ParleyError")  # a class, but not a record


def test_no_import_cycle() -> None:
    assert cycles(import_graph()) == []


def test_the_engine_never_imports_qt() -> None:
    qt = qt_importers()
    assert [m for m in qt if within(m, "parley.engine")] == []


def test_each_engine_folder_imports_what_its_docstring_names() -> None:
    assert engine_folder_violations(import_graph()) == []


def test_the_ground_modules_import_only_each_other() -> None:
    assert ground_violations(import_graph()) == []


def test_the_engine_the_server_and_config_never_reach_qt() -> None:
    assert qt_free_violations(import_graph()) == []


def test_config_paths_is_the_ground_and_all_the_engine_uses_of_config() -> None:
    assert config_violations(import_graph()) == []


def test_the_server_imports_nothing_of_the_app() -> None:
    assert server_violations(import_graph()) == []


def test_no_command_reaches_qt() -> None:
    assert cli_violations(import_graph()) == []


def test_the_widgets_do_no_engine_calls_no_background_work_no_native_calls() -> None:
    assert ui_violations(import_graph()) == []


def test_only_the_window_makers_import_widgets() -> None:
    assert window_violations(import_graph()) == []


def test_the_flows_start_no_thread_and_never_import_the_controller_or_the_host() -> None:
    assert flow_violations(import_graph()) == []


def test_only_the_controller_holds_the_engine_host() -> None:
    assert host_violations(import_graph()) == []


def test_the_parts_import_only_the_shared_pieces_and_no_flow() -> None:
    assert part_violations(import_graph()) == []


def test_each_rule_has_its_test() -> None:
    """A rule added to RULES gets a test that asserts it holds on the tree."""
    source = Path(__file__).read_text(encoding="utf-8")
    assert [name for name, rule in RULES.items() if f"assert {rule.__name__}(import_graph()) == []" not in source] == []
