"""The Windows build's pieces, checked in CI's time (the full build and check are run by hand:
``packaging/build_windows.sh`` and ``packaging/check_windows.sh``, see docs/windows.md).

- The cross-build's settings: the same ggml options as Linux, a MinGW-w64 toolchain for
  Windows x86-64, the assembler option against GCC's unaligned AVX spills, and the cache key.
- The headers it adds: ``pyconfig_win64.h`` gives CPython's headers 64-bit Windows' sizes, and
  ``mingw_compat.h`` the thread power-throttling declarations; both compiled here by MinGW.
- The pins: every Windows wheel by version and hash, and Parley's dependencies all there.
- The installer: ``parley.nsi`` compiled by makensis around a stand-in app, then installed,
  upgraded and uninstalled silently under Wine, into a folder with a space and a non-ASCII
  letter, keeping the user's data; a running Parley (its mutex) and a truncated installer are
  refused, changing nothing.
- The frozen bundle's check: a second copy of a native DLL is caught.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.requirements import require

REPO = Path(__file__).resolve().parents[2]
WINDOWS = REPO / "packaging" / "windows"


def _load(name: str, path: Path) -> ModuleType:
    sys.path.insert(0, str(path.parent))
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(path.parent))


build_native = _load("parley_windows_build_native", WINDOWS / "build_native.py")
freeze = _load("parley_windows_freeze", WINDOWS / "freeze.py")
winpython = _load("winpython", WINDOWS / "winpython.py")


def _mingw() -> str:
    require(shutil.which(build_native.CC) is not None, f"{build_native.CC} (Debian: gcc-mingw-w64-x86-64-posix)")
    require(shutil.which(build_native.CXX) is not None, f"{build_native.CXX} (Debian: g++-mingw-w64-x86-64-posix)")
    return build_native.CC


# --------------------------------------------------------------------------- the cross-build


def test_ggml_options_match_the_linux_build() -> None:
    args = build_native.ggml_args(False)
    for flag in ("-DGGML_BACKEND_DL=ON", "-DGGML_CPU_ALL_VARIANTS=ON", "-DGGML_NATIVE=OFF", "-DGGML_RPC=ON"):
        assert flag in args
    assert "-DGGML_VULKAN=OFF" in args and "-DGGML_VULKAN=ON" in build_native.ggml_args(True)
    linux = build_native.nb.ggml_cmake_args(build_native.nb.Options(vulkan=False, metal=False))
    assert set(linux) <= set(args), "the Windows build drops an option of the Linux build"


def test_toolchain_targets_windows_x86_64_with_unaligned_vector_moves(tmp_path: Path) -> None:
    text = build_native.toolchain_text(tmp_path / "compat.h")
    assert "set(CMAKE_SYSTEM_NAME Windows)" in text
    assert "set(CMAKE_SYSTEM_PROCESSOR x86_64)" in text  # ggml's x86 CPU variants key on it
    assert "x86_64-w64-mingw32-g++-posix" in text  # POSIX threads: std::thread, libgomp
    for language in ("C", "CXX"):
        assert re.search(rf'CMAKE_{language}_FLAGS_INIT "[^"]*-Wa,-muse-unaligned-vector-move', text)
    assert f"-include {tmp_path / 'compat.h'}" in text
    assert "CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER" in text  # glslc is the build machine's


def test_the_cache_key_follows_what_changes_the_dlls() -> None:
    _mingw()
    key = build_native.build_key()
    assert key == build_native.build_key() and len(key) == 16
    assert len(build_native.vulkan_key()) == 16 and build_native.vulkan_key() != key


def test_the_folder_check_wants_every_dll_under_the_name_ggml_looks_for(tmp_path: Path) -> None:
    names = [*build_native.CORE_DLLS, *build_native.RUNTIME_DLLS]
    names += [
        f"ggml-cpu-{v}.dll"
        for v in (
            "x64",
            "sse42",
            "sandybridge",
            "haswell",
            "skylakex",
            "icelake",
            "alderlake",
            "sapphirerapids",
            "zen4",
            "cannonlake",
        )
    ]
    for name in names:
        (tmp_path / name).write_bytes(b"MZ")
    build_native.check_folder(tmp_path)
    (tmp_path / "libggml-cpu-zen4.dll").write_bytes(b"MZ")  # MinGW's default prefix: ggml would not find it
    with pytest.raises(build_native.nb.BuildError, match="libggml-cpu-zen4.dll"):
        build_native.check_folder(tmp_path)
    (tmp_path / "libggml-cpu-zen4.dll").unlink()
    (tmp_path / "ggml-cpu-haswell.dll").unlink()
    (tmp_path / "ggml-base.dll").unlink()
    with pytest.raises(build_native.nb.BuildError, match="ggml-base.dll"):
        build_native.check_folder(tmp_path)


def _compile(tmp_path: Path, source: str, *flags: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "probe.c").write_text(source)
    return subprocess.run(
        [_mingw(), "-c", *flags, str(tmp_path / "probe.c"), "-o", str(tmp_path / "probe.o")],
        capture_output=True,
        text=True,
    )


def test_cpython_headers_get_64_bit_windows_sizes(tmp_path: Path) -> None:
    """CPython's headers with our pyconfig.h, compiled by MinGW for Windows: LLP64 sizes, and the
    module's init function exported while the API is imported from python311.dll."""
    include = tmp_path / "include"
    shutil.copytree(
        Path(__import__("sysconfig").get_paths()["include"]), include, ignore=shutil.ignore_patterns("pyconfig.h")
    )
    shutil.copy2(build_native.PYCONFIG, include / "pyconfig.h")
    done = _compile(
        tmp_path,
        """
#include <Python.h>
_Static_assert(sizeof(long) == 4, "long");
_Static_assert(sizeof(Py_ssize_t) == 8, "Py_ssize_t");
_Static_assert(sizeof(Py_hash_t) == 8, "Py_hash_t");
_Static_assert(sizeof(PyObject) == 16, "PyObject");
_Static_assert(sizeof(wchar_t) == 2, "wchar_t");
static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, "probe", NULL, -1, NULL};
PyMODINIT_FUNC PyInit_probe(void) { return PyModule_Create(&def); }
""",
        "-I",
        str(include),
    )
    assert done.returncode == 0, done.stderr
    symbols = subprocess.run(
        [f"{build_native.TRIPLE}-objdump", "-t", str(tmp_path / "probe.o")], capture_output=True, text=True
    ).stdout
    assert "__imp_PyModule_Create2" in symbols, "the Python API must come from python311.dll (dllimport)"


def test_the_compat_header_supplies_thread_power_throttling(tmp_path: Path) -> None:
    done = _compile(
        tmp_path,
        """
#include <windows.h>
int probe(void) {
    THREAD_POWER_THROTTLING_STATE t;
    ZeroMemory(&t, sizeof(t));
    t.Version = THREAD_POWER_THROTTLING_CURRENT_VERSION;
    t.ControlMask = THREAD_POWER_THROTTLING_EXECUTION_SPEED;
    _Static_assert(sizeof(t) == 12, "three ULONGs");
    return SetThreadInformation(GetCurrentThread(), ThreadPowerThrottling, &t, sizeof(t));
}
""",
        "-include",
        str(build_native.COMPAT_HEADER),
    )
    assert done.returncode == 0, done.stderr


# --------------------------------------------------------------------------- the pins


def _requirements() -> dict[str, str]:
    pinned = {}
    for line in (WINDOWS / "requirements-windows.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        match = re.fullmatch(r"([a-z0-9-]+)==(\S+) --hash=sha256:[0-9a-f]{64}", line)
        assert match, f"not pinned by version and hash: {line!r}"
        pinned[match.group(1)] = match.group(2)
    return pinned


def test_every_windows_wheel_is_pinned_and_every_dependency_is_there() -> None:
    import tomllib

    pinned = _requirements()
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    for requirement in project["dependencies"]:
        if "sys_platform == 'linux'" in requirement:
            continue
        name = re.split(r"[<>=!;\[ ]", requirement, maxsplit=1)[0].lower().replace("_", "-")
        assert name in pinned, f"{name} (a dependency of Parley) has no Windows pin"
    packaging_extra = {
        re.split(r"[=;]", r)[0]: r.split("==")[1].split(";")[0].strip()
        for r in project["optional-dependencies"]["packaging"]
        if "linux" not in r
    }
    for name, version in packaging_extra.items():
        assert pinned.get(name) == version, f"{name}: Windows pin {pinned.get(name)}, packaging extra {version}"
    for name in ("pefile", "pywin32-ctypes", "colorama"):  # what Windows alone needs
        assert name in pinned
    assert pinned["pyside6"] == "6.9.3", "Qt 6.10 and later link the system ICU, which Wine 8.0 lacks"
    assert pinned["numpy"] == "2.0.2", "newer numpy imports crealf from ucrtbase, which Wine 8.0 lacks"


def test_the_windows_python_is_installed_from_wheels_only_and_by_hash() -> None:
    for option in ("--only-binary=:all:", "--no-deps", "--require-hashes", "win_amd64"):
        assert option in winpython.PIP_TARGET_OPTIONS
    assert winpython.PTH.splitlines() == ["Lib", ".", "Lib\\site-packages", "import site"]


# --------------------------------------------------------------------------- the bundle check


def _fake_bundle(root: Path, native: Path) -> Path:
    bundle = root / "Parley"
    inside = bundle / freeze.NATIVE_DEST
    inside.mkdir(parents=True)
    for name in ("Parley.exe", "parley-cli.exe"):
        (bundle / name).write_bytes(b"MZ")
    (bundle / "_internal" / "MODELS.sha256").write_text("")
    for dll in native.iterdir():
        shutil.copy2(dll, inside / dll.name)
    return bundle


def test_the_bundle_check_catches_a_second_copy_of_a_native_dll(tmp_path: Path) -> None:
    native = tmp_path / "native"
    native.mkdir()
    for name in ("ggml-base.dll", "libllama.dll", "libgomp-1.dll", "_ffi.cp311-win_amd64.pyd"):
        (native / name).write_bytes(b"MZ")
    bundle = _fake_bundle(tmp_path, native)
    assert freeze.check_bundle(bundle, native)["files"] == 7
    shutil.copy2(native / "ggml-base.dll", bundle / "_internal" / "ggml-base.dll")
    with pytest.raises(SystemExit, match="second copies"):
        freeze.check_bundle(bundle, native)


# --------------------------------------------------------------------------- the installer


def _makensis(tmp_path: Path, app: Path, version: str) -> Path:
    require(shutil.which("makensis") is not None, "makensis (Debian: nsis)")
    out = tmp_path / f"Parley-{version}-windows-x64-setup.exe"
    out.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["makensis", "-V2", f"-DVERSION={version}", f"-DBUNDLE={app}", f"-DOUTFILE={out}", str(WINDOWS / "parley.nsi")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def _stand_in_app(folder: Path, version: str) -> Path:
    (folder / "_internal").mkdir(parents=True)
    (folder / "Parley.exe").write_text(f"Parley {version}")
    (folder / "parley-cli.exe").write_text(f"parley-cli {version}")
    (folder / "_internal" / f"only-in-{version}.txt").write_text(version)
    return folder


def test_the_installer_is_a_64_bit_per_user_program(tmp_path: Path) -> None:
    setup = _makensis(tmp_path, _stand_in_app(tmp_path / "app", "0.1.0"), "0.1.0")
    data = setup.read_bytes()
    pe = int.from_bytes(data[0x3C:0x40], "little")
    assert data[pe : pe + 4] == b"PE\0\0" and int.from_bytes(data[pe + 4 : pe + 6], "little") == 0x8664
    script = (WINDOWS / "parley.nsi").read_text()
    assert "RequestExecutionLevel user" in script and "CRCCheck force" in script
    assert '"$LOCALAPPDATA\\Programs\\Parley"' in script
    from parley.app.desktop import single_instance

    assert f'!define MUTEX "{single_instance.WINDOWS_MUTEX}"' in script
    # The user's data goes only with /PURGE, or a yes to the uninstaller's question.
    purge = [line for line in script.splitlines() if '$LOCALAPPDATA\\parley"' in line and "RMDir" in line]
    assert len(purge) == 2


@pytest.mark.wine
@pytest.mark.x11
@pytest.mark.timeout(600)
def test_install_upgrade_and_uninstall_under_wine(tmp_path: Path) -> None:
    from tests.support import x11
    from tests.support.wine import missing_tools, wine_session

    require(not missing_tools(), "Wine (Debian: wine wine64)")
    old = _makensis(tmp_path / "old", _stand_in_app(tmp_path / "app-old", "0.1.0"), "0.1.0")
    new = _makensis(tmp_path / "new", _stand_in_app(tmp_path / "app-new", "0.2.0"), "0.2.0")
    folder_win = "C:\\Mes Programmes\\Parlé"
    with x11.xvfb() as display, wine_session(display) as session:
        env = {**session.env, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
        drive_c = session.prefix / "drive_c"
        folder = drive_c / "Mes Programmes" / "Parlé"
        data = next((drive_c / "users").glob("*/AppData/Local")) / "parley"
        data.mkdir(parents=True)
        (data / "settings.json").write_text("{}")

        def wine(*args: str) -> int:
            status = subprocess.run(
                ["wine", *args], env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=120
            ).returncode
            return status

        def setup(path: Path) -> str:
            target = drive_c / path.name
            shutil.copy2(path, target)
            return "C:\\" + path.name

        # /D= takes the rest of the command line, unquoted (as a user types it): through cmd, since
        # Wine would quote an argument that holds spaces.
        assert wine("cmd", "/c", f"{setup(old)} /S /D={folder_win}") == 0
        assert (folder / "_internal" / "only-in-0.1.0.txt").is_file() and (folder / "Uninstall.exe").is_file()
        start_menu = next((drive_c / "users").glob("*/AppData/Roaming/Microsoft/Windows/Start Menu/Programs"))
        assert (start_menu / "Parley.lnk").is_file()

        # A truncated installer fails its CRC check and touches nothing.
        broken = drive_c / "broken-setup.exe"
        broken.write_bytes(new.read_bytes()[: new.stat().st_size // 2])
        assert wine("C:\\broken-setup.exe", "/S") != 0
        assert (folder / "Parley.exe").read_text() == "Parley 0.1.0"

        # While Parley runs (its mutex exists), the installer refuses and changes nothing.
        holder = session.start(
            "import ctypes\n"
            f"handle = ctypes.windll.kernel32.CreateMutexW(None, False, {'ParleyRunning'!r})\n"
            "report(held=bool(handle))\n"
            "wait_for('done', 120)\n",
            name="mutex",
        )
        holder.wait_report(lambda r: r.get("held"), timeout=60)
        assert wine(setup(new), "/S") == 2
        assert (folder / "Parley.exe").read_text() == "Parley 0.1.0"
        holder.signal("done")
        holder.wait()

        # The upgrade finds the old folder by itself, replaces the program, keeps the data.
        assert wine("C:\\" + new.name, "/S") == 0
        assert (folder / "Parley.exe").read_text() == "Parley 0.2.0"
        assert not (folder / "_internal" / "only-in-0.1.0.txt").exists(), "the old version's files linger"
        assert (data / "settings.json").read_text() == "{}"

        assert wine(folder_win + "\\Uninstall.exe", "/S") == 0
        deadline = time.monotonic() + 60
        while folder.exists() and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not folder.exists() and not (start_menu / "Parley.lnk").exists()
        assert (data / "settings.json").is_file(), "the uninstaller took the user's data without being asked"
