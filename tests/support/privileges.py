"""Tests of permission errors and full disks, the same way whether or not they run as root.

CI runs as root, and root reads every file: an "unreadable file" test there needs to act as
another user.  ``unreadable_copy`` makes a file nobody may read in a folder anyone may enter
(pytest's own temporary folders are private to their owner), and ``without_root`` drops the
effective user id to ``nobody`` in this process for the check (a no-op when not root).

A real full disk is a small tmpfs: ``run_on_small_tmpfs`` runs a Python script in a child whose
folder ``disk`` is a fresh tmpfs of the given size, in a user and mount namespace of its own
(no root needed, nothing mounted outside the child).
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from tests.support.requirements import require

NOBODY = 65534


@contextlib.contextmanager
def without_root() -> Iterator[None]:
    """Act as ``nobody`` (effective uid) inside the block when running as root."""
    if os.geteuid() != 0:
        yield
        return
    os.seteuid(NOBODY)
    try:
        yield
    finally:
        os.seteuid(0)


@contextlib.contextmanager
def unreadable_copy(source: Path, name: str | None = None) -> Iterator[Path]:
    """A copy of ``source`` with mode 000, in a folder ``nobody`` may enter; removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="parley-unreadable-"))
    try:
        folder.chmod(0o755)
        path = Path(shutil.copy(source, folder / (name or source.name)))
        path.chmod(0)
        yield path
    finally:
        shutil.rmtree(folder)


@functools.cache
def _can_mount_tmpfs() -> bool:
    if sys.platform != "linux" or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", "mount -t tmpfs -o size=1m tmpfs /mnt"],
        capture_output=True,
    )
    return probe.returncode == 0


def run_on_small_tmpfs(
    disk: Path, size: str, script: str, env: dict[str, str], timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run ``script`` (Python source) in a child that sees a fresh tmpfs of ``size`` (``1m``)
    mounted on ``disk``, an existing empty folder.  Requires user and mount namespaces."""
    require(_can_mount_tmpfs(), "needs Linux user+mount namespaces (unshare) to mount a small real tmpfs")
    return subprocess.run(
        [
            "unshare",
            "--user",
            "--map-root-user",
            "--mount",
            "sh",
            "-c",
            f'mount -t tmpfs -o size={size} tmpfs "{disk}" && exec "{sys.executable}" -c "$0"',
            script,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )
