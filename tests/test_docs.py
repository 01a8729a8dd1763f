"""The README and the docs pages as a reader follows them, and ``setup.sh``'s split between what
the app needs and what only the tests need.

The README stays short (issue 29: at most 200 lines) because everything else lives in pages it
links to; a link that leads nowhere, or to a heading that was renamed, loses that text for the
reader.  ``./setup.sh start`` installs what the app needs at run time and ``./setup.sh test``
adds the test rig: the packages the app's own messages ask for must come with ``start``, and
those only the tests ask for must not.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README_MOST_LINES = 200

FENCE = re.compile(r"^```.*?^```", re.M | re.S)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)|^\[[^\]]+\]:\s*(\S+)", re.M)
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)


def pages() -> list[Path]:
    """Every Markdown page of the project a reader is sent to."""
    return [
        REPO / "README.md",
        REPO / "CONTRIBUTING.md",
        REPO / "packaging" / "README.md",
        *(REPO / "docs").glob("*.md"),
    ]


def anchor(heading: str) -> str:
    """The fragment GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading keeps its text
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    return {anchor(h) for h in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8")))}


def local_links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    targets = [a or b for a, b in LINK.findall(text)]
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


def test_the_readme_fits_in_200_lines() -> None:
    lines = (REPO / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MOST_LINES, f"README.md has {lines} lines: move the detail into a docs page"


def test_every_link_between_the_pages_leads_somewhere() -> None:
    broken = []
    for page in pages():
        for target in local_links(page):
            path, _, fragment = target.partition("#")
            goal = (page.parent / path).resolve() if path else page
            if not goal.exists():
                broken.append(f"{page.relative_to(REPO)}: {target} (no such file)")
            elif fragment and goal.suffix == ".md" and fragment not in anchors(goal):
                broken.append(f"{page.relative_to(REPO)}: {target} (no such heading)")
    assert not broken, "\n".join(broken)


def test_the_readme_links_every_docs_page() -> None:
    readme = set(local_links(REPO / "README.md"))
    unlinked = [p.name for p in (REPO / "docs").glob("*.md") if f"docs/{p.name}" not in readme]
    assert not unlinked, f"docs pages the README does not link: {unlinked}"


def setup_packages(mode: str) -> set[str]:
    """The system packages ``./setup.sh`` installs for ``mode``, as the script itself says."""
    done = subprocess.run(["bash", "setup.sh", "packages", mode], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def named_packages(folder: str, introducer: str) -> set[str]:
    """Debian packages named after ``introducer`` in the Python sources under ``folder``."""
    found: set[str] = set()
    for source in (REPO / folder).rglob("*.py"):
        for words in re.findall(introducer + r"((?:\s*[a-z0-9][a-z0-9+.-]+)+)", source.read_text(encoding="utf-8")):
            found |= set(words.split()) - {"and"}
    return found


def test_start_installs_what_the_app_asks_for() -> None:
    asked = named_packages("parley", r"sudo apt install")
    assert asked, "the app's messages name the packages it needs (sudo apt install ...)"
    assert asked <= setup_packages("start"), asked - setup_packages("start")


def test_the_test_rig_comes_with_test_only() -> None:
    start, test = setup_packages("start"), setup_packages("test")
    assert start <= test
    rig = named_packages("tests", r"\((?:Debian: |Debian package |apt-get install )") - named_packages(
        "parley", r"sudo apt install"
    )
    assert rig, "the tests' messages name the packages they need"
    assert rig <= test, f"./setup.sh test lacks {sorted(rig - test)}"
    assert not rig & start, f"./setup.sh start installs test-only packages: {sorted(rig & start)}"
