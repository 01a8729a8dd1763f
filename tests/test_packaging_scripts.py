"""The packaging scripts, run exactly as docs/installers.md gives them: from the checkout's root, with no
variables set, on a set-up checkout.

Each once failed for a newcomer while working here (``wheel.sh`` ran patchelf through a relative
PATH entry after auditwheel changed folder), so CI runs them for real.  The native builds are
cached; the first run on a fresh machine also builds the Vulkan backend (about 8 minutes on
2 cores).  ``check.sh`` needs root, mounts and a Debian mirror and is run by hand (see
docs/installers.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
pytestmark = [pytest.mark.packaging, pytest.mark.timeout(2400)]


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PARLEY_VULKAN", "PARLEY_CUDA", "PYTHONPATH"))}
    return subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=2300)


def test_wheel_sh_builds_repairs_and_self_tests_the_wheel() -> None:
    done = _run(["packaging/wheel.sh"])
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads((REPO / "build" / "wheel" / "report.json").read_text())
    assert report["passed"] and report["one_copy_of_each_native_library"]
    [wheel] = sorted((REPO / "dist").glob("parley-*-manylinux_*_x86_64.whl"))
    names = subprocess.run(
        [sys.executable, "-m", "zipfile", "-l", str(wheel)], capture_output=True, text=True, check=True
    ).stdout
    assert "parley/engine/_native/libggml-vulkan.so" in names, "the wheel carries the Vulkan backend"
    assert "libvulkan" not in names.replace("libggml-vulkan.so", ""), "the Vulkan loader stays the system's"


def test_build_sh_makes_the_tarball_and_the_deb() -> None:
    try:
        done = _run(["packaging/build.sh"])
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        version = subprocess.run(
            [sys.executable, "-c", "import parley; print(parley.__version__)"],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        tarball = REPO / "dist" / f"Parley-{version}-linux-x86_64.tar.gz"
        debs = list((REPO / "dist").glob(f"*_{version}_amd64.deb"))
        assert tarball.stat().st_size > 100e6 and len(debs) == 1
        control = subprocess.run(
            ["dpkg-deb", "-f", str(debs[0]), "Depends"], capture_output=True, text=True, check=True
        ).stdout
        assert "libvulkan1" in control
        contents = subprocess.run(["dpkg-deb", "-c", str(debs[0])], capture_output=True, text=True, check=True).stdout
        assert "opt/parley/_internal/parley/engine/_native/libggml-vulkan.so" in contents
        assert "libvulkan.so" not in contents, "the Vulkan loader is never bundled"
    finally:
        # build.sh leaves the Vulkan build in the checkout's native folder; the rest of the suite
        # runs on the setup's own build, as a developer's checkout does.
        subprocess.run([sys.executable, "native/build.py"], cwd=REPO, capture_output=True, check=True)
