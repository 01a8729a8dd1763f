"""A test module whose tests run in a child pytest with its own platform and environment.

A process's QApplication keeps the platform it started with, and the normal test session shares
one offscreen QApplication; tests that need a real X server (keys through XTEST, the AT-SPI
bridge, which Qt runs on xcb only) run in a child pytest on Xvfb instead, as
``tests/app/test_keys_x11.py`` does.  A module using this helper holds its real tests under
``if not CHILD: ... else: ...``; in the normal session ``run_child`` runs the module again in a
child with ``PARLEY_X11_CHILD=1`` and the given environment, and each test of the normal session
reports the child's result for the scenario of its name (``check``), so a failure names what
broke, and a missing tool fails in a strict run and skips with the reason otherwise.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import x11
from tests.support.requirements import require

CHILD = os.environ.get("PARLEY_X11_CHILD") == "1"
REPO = Path(__file__).resolve().parents[2]

Results = dict[str, tuple[str, str, dict[str, str]]]  # scenario -> (outcome, details, figures)


def child_scenarios(module_file: str) -> tuple[str, ...]:
    """The child's tests, read from the module (its ``else`` branch of ``if not CHILD``), so that
    a scenario added there is reported without a list to keep in step."""
    tree = ast.parse(Path(module_file).read_text("utf-8"))
    branch = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "not CHILD")
    return tuple(
        node.name.removeprefix("test_")
        for node in branch.orelse
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    )


def run_child(module_file: str, env: dict[str, str], report: Path, timeout_s: float) -> Results:
    """Run ``module_file``'s child tests with ``env`` added to this environment; their results."""
    child = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            module_file,
            "-p",
            "no:cacheprovider",
            "-q",
            "-rs",
            f"--junitxml={report}",
            "-o",
            "junit_family=xunit1",
        ],
        cwd=REPO,
        env={**os.environ, **env, "PARLEY_X11_CHILD": "1"},
        capture_output=True,
        text=True,
        timeout=timeout_s,
    )
    if not report.exists():
        pytest.fail(
            f"the child run wrote no report (exit {child.returncode}):\n{child.stdout[-4000:]}\n{child.stderr[-4000:]}",
            pytrace=False,
        )
    results = {}
    for case in ElementTree.parse(report).iter("testcase"):
        outcome, details = "passed", ""
        for kind in ("failure", "error", "skipped"):
            found = case.find(kind)
            if found is not None:
                outcome = kind
                details = f"{found.get('message', '')}\n{found.text or ''}".strip()
                break
        figures = {p.get("name", ""): p.get("value", "") for p in case.iter("property")}
        results[case.get("name", "").removeprefix("test_")] = (outcome, details, figures)
    return results


def run_on_xvfb(
    module_file: str,
    report: Path,
    env: dict[str, str] | None = None,
    timeout_s: float = 600,
    on_display: Callable[[str], None] | None = None,
) -> Results:
    """``run_child`` on a fresh Xvfb with Qt's xcb platform (``env`` added, ``on_display(display)``
    called first); the X tools missing, or an Xvfb that does not start, fail in a strict run."""
    missing = x11.missing_tools()
    require(not missing, f"not installed: {', '.join(missing)} (Debian: xvfb xdotool x11-xserver-utils x11-utils)")
    try:
        with x11.xvfb() as display:
            if on_display is not None:
                on_display(display)
            return run_child(
                module_file, {**(env or {}), "DISPLAY": display, "QT_QPA_PLATFORM": "xcb"}, report, timeout_s
            )
    except x11.X11Unavailable as exc:
        require(False, str(exc))
        raise  # require fails or skips: never reached


def check(results: Results, scenario: str) -> dict[str, str]:
    """Pass, skip or fail as the child's ``scenario`` did; its recorded figures."""
    if scenario not in results:
        pytest.fail(f"the child run has no result for {scenario}: {sorted(results)}", pytrace=False)
    outcome, details, figures = results[scenario]
    for name, value in figures.items():
        print(f"{scenario}: {name} = {value}")
    require(outcome != "skipped", details)
    if outcome != "passed":
        pytest.fail(f"{scenario} ({outcome}) in the child:\n{details}", pytrace=False)
    return figures
