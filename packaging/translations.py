"""Parley's translations: the .ts sources from the code, the .qm files the app loads.

    python packaging/translations.py            compile parley/resources/i18n/*.ts into .qm beside
                                                them (setup and packaging run this; the .qm files
                                                are build outputs, not committed)
    python packaging/translations.py --update   first collect the words of the code into the .ts
                                                files (new words are added untranslated, words
                                                gone from the code are dropped), then compile

Both use Qt's own tools as PySide6 ships them (``pyside6-lupdate``, ``pyside6-lrelease``), from the
Python that runs this script.  Standard library only, so it runs before Parley is importable.
How a translator works on a .ts file: docs/translations.md.
"""

from __future__ import annotations

import argparse
import ast
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "parley" / "resources" / "i18n"
SOURCES = REPO / "parley" / "app"  # every module with words the user sees (tr / translate)
NOTES = REPO / "parley" / "engine" / "notes.py"  # the engine's message templates (Qt-free: no tr)
NOTES_CONTEXT = "EngineNotes"  # as parley/app/engine_notes.py translates them
LANGUAGES = ("de", "fr", "es", "pt_BR", "zh_CN", "ja", "ar")  # as parley/app/ui/i18n.py SHIPPED
ENGLISH = "en"  # the words are English already: its .ts holds only the plural forms ("1 token", "2 tokens")


def tool(name: str) -> str:
    """A Qt tool as PySide6 installs it beside this Python (pyside6-lupdate, pyside6-lrelease)."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        raise SystemExit(f"{name} not found: install PySide6 in this Python's environment (pip install PySide6)")
    return found


def note_templates() -> list[str]:
    """The engine's message templates: the text constants of parley/engine/notes.py (read, not
    imported: this script runs before Parley can be)."""
    tree = ast.parse(NOTES.read_text(encoding="utf-8"))
    return [
        node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and all(isinstance(t, ast.Name) and t.id.isupper() for t in node.targets)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    ]


def sources(folder: Path) -> list[str]:
    """What lupdate reads: the app's modules, and the engine's templates written into
    ``folder`` as the calls lupdate knows (``QT_TRANSLATE_NOOP("EngineNotes", ...)``)."""
    notes = folder / "engine_notes_templates.py"
    notes.write_text(
        "".join(f"QT_TRANSLATE_NOOP({NOTES_CONTEXT!r}, {text!r})\n" for text in note_templates()), encoding="utf-8"
    )
    return [*sorted(str(p.relative_to(REPO)) for p in SOURCES.rglob("*.py")), str(notes)]


def update(languages: tuple[str, ...] = (*LANGUAGES, ENGLISH)) -> None:
    """Collect the words of the code into each language's .ts file (English: those with a
    plural form only)."""
    with tempfile.TemporaryDirectory(prefix="parley-lupdate-") as folder:
        read = sources(Path(folder))
        for language in languages:
            ts = FOLDER / f"parley_{language}.ts"
            only_plurals = ["-pluralonly"] if language == ENGLISH else []
            subprocess.run(
                [tool("pyside6-lupdate"), *read, "-no-obsolete", "-locations", "none", *only_plurals,
                 "-target-language", language, "-ts", str(ts.relative_to(REPO))],
                cwd=REPO,
                check=True,
                stdout=subprocess.DEVNULL,
            )  # fmt: skip


def build(folder: Path = FOLDER) -> list[Path]:
    """Compile each .ts of ``folder`` into the .qm beside it; the .qm files made."""
    made = []
    for ts in sorted(folder.glob("parley_*.ts")):
        qm = ts.with_suffix(".qm")
        subprocess.run(
            [tool("pyside6-lrelease"), "-silent", str(ts), "-qm", str(qm)], check=True, stdout=subprocess.DEVNULL
        )
        made.append(qm)
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--update", action="store_true", help="collect the code's words into the .ts files first")
    args = parser.parse_args()
    if args.update:
        update()
    made = build()
    print(f"translations: {len(made)} .qm files in {FOLDER.relative_to(REPO)}")


if __name__ == "__main__":
    main()
