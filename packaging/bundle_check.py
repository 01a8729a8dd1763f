#!/usr/bin/env python3
"""Checks of a frozen bundle's files, run by build.sh after PyInstaller and by check.sh on the
installed copies: one real file per native library, the newest glibc symbol version any ELF
needs, the ELF files themselves (check.sh runs ldd on each inside the clean root), and the
interface's translations (Parley's and Qt's own for each language it ships).

    python packaging/bundle_check.py BUNDLE            # checks, prints a summary, exit 1 on a problem
    python packaging/bundle_check.py BUNDLE --glibc    # prints only the glibc version (for Depends)
    python packaging/bundle_check.py BUNDLE --elves    # prints the ELF files, one a line

Standard library only (with ``elfread.py`` beside it).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import elfread  # noqa: E402
from translations import LANGUAGES  # noqa: E402

# Our native libraries: the ggml base, its backends, llama and whisper (see bundle_layout.py).
NATIVE_LIBRARY = re.compile(r"^(?:lib)?(?:ggml|llama|whisper)[-.\w]*\.(?:so(?:\.\d+)*|dylib|dll)$")


def elf_files(bundle: Path) -> Iterator[Path]:
    """Every regular file (not symlink) in ``bundle`` that starts with the ELF magic."""
    for folder, _dirs, files in os.walk(bundle):
        for name in files:
            path = Path(folder) / name
            if path.is_symlink() or not path.is_file():
                continue
            if elfread.is_elf(path):
                yield path


def native_copies(bundle: Path) -> dict[str, list[Path]]:
    """Each native library name with every entry (real file or link) of that name in the bundle."""
    found: dict[str, list[Path]] = {}
    for folder, _dirs, files in os.walk(bundle):
        for name in files:
            if NATIVE_LIBRARY.match(name):
                found.setdefault(name, []).append(Path(folder) / name)
    return found


def native_problems(bundle: Path) -> list[str]:
    """One line per native library that is not exactly one real file, or that is missing."""
    copies = native_copies(bundle)
    problems = []
    if not any(name.startswith(("libggml-base", "ggml-base")) for name in copies):
        problems.append("no ggml base library in the bundle")
    if not any(name.startswith(("libggml-cpu", "ggml-cpu")) for name in copies):
        problems.append("no CPU backend module in the bundle")
    for name, paths in sorted(copies.items()):
        real = [p for p in paths if not p.is_symlink()]
        if len(paths) != 1 or len(real) != 1:
            listed = ", ".join(f"{p}{' (link)' if p.is_symlink() else ''}" for p in paths)
            problems.append(f"{name}: {len(paths)} entries, {len(real)} real files: {listed}")
    return problems


def translation_problems(bundle: Path) -> list[str]:
    """One line per shipped language whose translations are not in the bundle."""
    names = {path.name for path in bundle.rglob("*.qm")}
    return [
        f"no {name} in the bundle (packaging/translations.py builds Parley's)"
        for language in LANGUAGES
        for name in (f"parley_{language}.qm", f"qtbase_{language}.qm")
        if name not in names
    ]


def newest_glibc(bundle: Path) -> tuple[str, Path | None]:
    """The highest GLIBC_ version any ELF of the bundle needs, and one file that needs it."""
    best: tuple[int, ...] = ()
    where: Path | None = None
    for path in elf_files(bundle):
        versions = elfread.glibc_versions(path)
        if versions and max(versions) > best:
            best, where = max(versions), path
    return ".".join(map(str, best)), where


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bundle", type=Path, help="the bundle folder (e.g. build/pyinstaller/dist/Parley)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--glibc", action="store_true", help="print the newest GLIBC_ version needed")
    mode.add_argument("--elves", action="store_true", help="print every ELF file")
    args = parser.parse_args(argv)
    if not args.bundle.is_dir():
        print(f"bundle_check: {args.bundle} is not a folder", file=sys.stderr)
        return 2
    if args.glibc:
        print(newest_glibc(args.bundle)[0])
        return 0
    if args.elves:
        for path in sorted(elf_files(args.bundle)):
            print(path)
        return 0
    problems = native_problems(args.bundle) + translation_problems(args.bundle)
    copies = native_copies(args.bundle)
    version, where = newest_glibc(args.bundle)
    print(f"native libraries: {len(copies)}, each one real file: {'yes' if not native_problems(args.bundle) else 'NO'}")
    print(f"interface languages besides English: {len(LANGUAGES) - len(translation_problems(args.bundle)) // 2}")
    print(
        f"newest glibc symbol version needed: GLIBC_{version} "
        f"(e.g. by {where.relative_to(args.bundle) if where else '-'})"
    )
    for problem in problems:
        print(f"PROBLEM: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
