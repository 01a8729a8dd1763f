#!/usr/bin/env python3
"""Check the Windows installer under Wine, as a user would use it: ``packaging/check_windows.sh``.

    python packaging/windows/check.py [dist/Parley-<v>-windows-x64-setup.exe]

In a fresh 64-bit Wine prefix (made for this run and removed after):

1. A Linux build's settings file and conversation database are put where Parley on Windows
   keeps them (``%LOCALAPPDATA%\\parley``): the user who copies their data over.
2. Silent install (``/S /D=...``) into ``C:\\Mes Programmes\\Parlé``: a path with a space and a
   non-ASCII letter.  The program files, the Start menu entry and the Apps entry must be there.
3. ``Parley.exe --self-test --json``, offscreen: both engines, the bundled clip transcribed,
   a streamed reply, every ggml DLL once and from the bundle (``packaging/check_report.py``).
4. ``parley-cli.exe devices`` (the CPU variant ggml chose, and what it says about Vulkan),
   ``transcribe`` of JFK's speech (whisper.cpp's sample) and ``chat --stats`` of one question
   on the CPU; the reply's speed is compared with the Linux build's on this machine.
5. ``parley-cli docs add`` of a folder in the profile holding a PDF, a DOCX and an ODT (written
   here by pypdf's format, python-docx and odfdo), then ``docs list``: each file read into
   passages by the frozen document reader, a child process started with "spawn" (the frozen
   program run again: ``multiprocessing.freeze_support()``), and embedded by the bundled
   all-MiniLM-L6-v2.
   ``parley-cli wake`` of "Hey Jarvis, what time is it?" in Parley's natural voice (made here):
   the bundled microWakeWord model, on TensorFlow Lite's DLL, hears the word once.
6. The settings and the conversation are still readable: the Windows build read what the
   Linux build wrote (or set it aside, as on Linux).
7. A second install while Parley runs is refused (exit 2) and changes nothing; a truncated
   installer fails its CRC check and changes nothing.
8. An upgrade: the installer run again, silently, with no folder given, finds the old folder,
   replaces the program and keeps the data.
9. The silent uninstaller removes the program folder, the Start menu entry and the Apps entry,
   and keeps the user's data; ``/PURGE`` is not given.

Writes ``build/windows/check-report.json`` with the figures.  Exit status 0 when every step
passed.  Needs wine64 (Debian: wine wine64), and the Linux build (``.venv``) for the comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "packaging"))

import check_report  # noqa: E402
import soundfile  # noqa: E402
import winpython  # noqa: E402

from tests.support.speech import natural_speech  # noqa: E402  (winpython put the checkout on the path)

INSTALL_DIR = "C:\\Mes Programmes\\Parlé"
QUESTION = "What is the capital of France? Answer in one word."
JFK_WORDS = "ask not what your country can do for you"
APPS_KEY = "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\Parley"
TIMEOUT_S = 900
PROFILE_USER = "Zoë Ann"


class CheckFailed(AssertionError):
    pass


class Wine:
    """A fresh prefix with its server running; Windows programs run with their output captured."""

    def __init__(self, prefix: Path, log: Path) -> None:
        self.prefix, self.log = prefix, log
        # Wine names the Windows user, and so the profile folder (%USERPROFILE%, %LOCALAPPDATA%,
        # %APPDATA%: Parley's data and settings), after $USER: one with a space and a letter
        # outside ASCII, as many real profiles have.
        self.user = PROFILE_USER
        self.env = winpython.wine_env(
            prefix, LANG="C.UTF-8", LC_ALL="C.UTF-8", QT_QPA_PLATFORM="offscreen", USER=self.user, LOGNAME=self.user
        )

    def boot(self) -> None:
        quiet = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        subprocess.run(["wineboot", "-i"], env=self.env, timeout=TIMEOUT_S, check=True, **quiet)
        # Wine 8.0 says Windows 7 by default; Parley's Qt and Python want 10 or later, as users have.
        subprocess.run(["wine", "winecfg", "-v", "win10"], env=self.env, timeout=TIMEOUT_S, check=True, **quiet)
        # Offscreen, as the issue asks (and Wine has no display here). Wine does not pass QT_*
        # variables from Linux to Windows programs, so the user's environment (HKCU) holds it.
        reg = ["wine", "reg", "add", "HKCU\\Environment", "/v", "QT_QPA_PLATFORM", "/d", "offscreen", "/f"]
        subprocess.run(reg, env=self.env, timeout=TIMEOUT_S, check=True, **quiet)
        subprocess.run(["wineserver", "-w"], env=self.env, timeout=TIMEOUT_S, check=False, **quiet)
        subprocess.run(["wineserver", "-p"], env=self.env, timeout=60, check=True, **quiet)
        subprocess.run(["wine", "wineboot"], env=self.env, timeout=TIMEOUT_S, check=False, **quiet)

    def close(self) -> None:
        for command in (["wineserver", "-k"], ["wineserver", "-w"]):
            subprocess.run(command, env=self.env, capture_output=True, timeout=120, check=False)

    def gone(self, path: Path, timeout: float = 120) -> bool:
        """Whether ``path`` disappears within ``timeout`` (the uninstaller runs on from a
        temporary copy of itself after the one started returns)."""
        deadline = time.monotonic() + timeout
        while path.exists() and time.monotonic() < deadline:
            time.sleep(0.5)
        return not path.exists()

    def has_key(self, key: str) -> bool:
        """Whether the registry holds ``key`` (asked of Wine: its files lag behind)."""
        return self.run(["reg", "query", key], timeout=120)[0] == 0

    def drive_c(self) -> Path:
        return self.prefix / "drive_c"

    def unix(self, windows: str) -> Path:
        assert windows[1:3] == ":\\", windows
        return self.drive_c() / windows[3:].replace("\\", "/")

    def local_appdata(self) -> Path:
        return self.drive_c() / "users" / self.user / "AppData" / "Local"

    def run(self, program: list[str], timeout: float = TIMEOUT_S) -> tuple[int, str, float]:
        """Exit status, output (stdout and stderr), seconds."""
        started = time.monotonic()
        with self.log.open("a", encoding="utf-8") as fh:
            fh.write(f"\n$ wine {' '.join(program)}\n")
        done = subprocess.run(
            ["wine", *program],
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=timeout,
            check=False,
        )
        output = done.stdout.decode("utf-8", "replace")
        with self.log.open("a", encoding="utf-8") as fh:
            fh.write(output + f"\n(exit {done.returncode})\n")
        return done.returncode, output, time.monotonic() - started


def need(condition: object, what: str) -> None:
    if not condition:
        raise CheckFailed(what)


def linux_user_data(folder: Path) -> dict[str, str]:
    """A settings file and a conversation database as the Linux build writes them."""
    folder.mkdir(parents=True, exist_ok=True)
    code = r"""
import sys
from dataclasses import replace
from pathlib import Path
from parley.app.conversations.store import DATABASE_FILE, Store
from parley.config.settings import SETTINGS_FILE, Settings, save_settings
folder = Path(sys.argv[1])
save_settings(replace(Settings(), temperature=0.3), folder / SETTINGS_FILE)
store = Store(folder / DATABASE_FILE)
store.create_conversation(sys.argv[2])
store.close()
"""
    python = REPO / ".venv" / "bin" / "python"
    title = "Written on Linux"
    done = subprocess.run([str(python), "-c", code, str(folder), title], cwd=REPO, capture_output=True, text=True)
    need(done.returncode == 0, f"could not write the Linux user data:\n{done.stderr[-2000:]}")
    return {"title": title}


DOCUMENTS = {  # file name: a phrase of its text
    "lighthouse.pdf": "The lighthouse keeper lit the lamp at dusk.",
    "harbour.docx": "The harbour master counts twelve fishing boats.",
    "tides.odt": "Spring tides come after the full moon.",
}
DOCUMENTS_FOLDER = "Parley documents"  # in the profile (its path has a space and a letter outside ASCII)


def write_documents(folder: Path) -> None:
    """A one-page PDF (its content stream compressed, as most are), a DOCX and an ODT with a
    heading each, each holding its phrase of ``DOCUMENTS``: the DOCX and the ODT written by the
    Linux build's python-docx and odfdo, the PDF by hand (pypdf writes no text)."""
    import zlib

    import docx
    import odfdo

    folder.mkdir(parents=True, exist_ok=True)
    pdf_text, docx_text, odt_text = DOCUMENTS.values()
    data = zlib.compress(b"BT /F1 12 Tf 72 720 Td (%s) Tj ET" % pdf_text.encode("latin-1"))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
        b" /Contents 5 0 R >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(data), data),
    ]
    pdf, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(pdf))
        pdf += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(pdf)
    pdf += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    pdf += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    pdf += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    (folder / "lighthouse.pdf").write_bytes(bytes(pdf))
    word = docx.Document()
    word.add_heading("Harbour", 1)
    word.add_paragraph(docx_text)
    word.save(str(folder / "harbour.docx"))
    text = odfdo.Document("text")
    text.body.append(odfdo.Header(1, "Tides"))
    text.body.append(odfdo.Paragraph(odt_text))
    text.save(folder / "tides.odt")


def conversation_titles(database: Path) -> list[str]:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return [row[0] for row in db.execute("SELECT title FROM conversations")]


def tokens_per_second(stats: str) -> float | None:
    match = re.search(r"reply: \d+ tokens, ([\d.]+) tokens/s", stats)
    return float(match.group(1)) if match else None


def linux_chat_speed() -> float | None:
    parley = REPO / ".venv" / "bin" / "parley"
    if not parley.exists():
        return None
    done = subprocess.run(
        [str(parley), "chat", "--prompt", QUESTION, "--temp", "0", "--device", "cpu", "--stats", "--max-tokens", "64"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    return tokens_per_second(done.stderr)


def check(setup: Path, work: Path, report: dict[str, object]) -> None:
    log = work / "wine.log"
    wine = Wine(work / "prefix", log)
    t = time.monotonic()
    wine.boot()
    report["fresh_prefix_s"] = round(time.monotonic() - t, 1)
    try:
        _steps(wine, setup, work, report)
    finally:
        wine.close()


def _steps(wine: Wine, setup: Path, work: Path, report: dict[str, object]) -> None:
    data = wine.local_appdata() / "parley"
    report["profile"] = f"C:\\users\\{wine.user}"
    written = linux_user_data(data)
    settings_before = (data / "settings.json").read_bytes()
    installer = wine.drive_c() / "Setup" / setup.name
    installer.parent.mkdir(parents=True)
    shutil.copy2(setup, installer)
    setup_win = "C:\\Setup\\" + setup.name

    # -- install
    # /D= takes the rest of the command line, unquoted, as a user types it: through cmd, since
    # Wine would put an argument that holds spaces in quotes.
    status, _, seconds = wine.run(["cmd", "/c", f"{setup_win} /S /D={INSTALL_DIR}"])
    folder = wine.unix(INSTALL_DIR)
    need(status == 0, f"silent install: exit {status}")
    need((folder / "Parley.exe").is_file() and (folder / "parley-cli.exe").is_file(), f"no Parley.exe in {folder}")
    need((folder / "Uninstall.exe").is_file(), "no uninstaller")
    start_menu = (
        wine.drive_c() / "users" / wine.user / "AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Parley.lnk"
    )
    need(start_menu.is_file(), f"no Start menu entry ({start_menu})")
    need(wine.has_key(APPS_KEY), f"no Apps entry ({APPS_KEY})")
    installed = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    report["install"] = {"seconds": round(seconds, 1), "folder": INSTALL_DIR, "installed_bytes": installed}

    cli = INSTALL_DIR + "\\parley-cli.exe"
    # -- the self-test (the windowed program: its report goes into a file)
    report_win = "C:\\selftest.json"
    status, output, seconds = wine.run([INSTALL_DIR + "\\Parley.exe", "--self-test", "--json", report_win])
    need(status == 0, f"Parley.exe --self-test: exit {status}\n{output[-3000:]}")
    selftest = json.loads(wine.unix(report_win).read_text("utf-8"))
    found = check_report.problems(selftest, "offscreen", INSTALL_DIR)
    need(not found, "self-test report: " + "; ".join(found))
    report["self_test"] = {
        "seconds": round(seconds, 1),
        "window_shown_s": selftest.get("window_shown_s"),
        "stages": selftest.get("stages"),
        "transcript": selftest.get("transcript"),
        "models": selftest.get("models"),
    }

    # -- devices, transcribe, chat
    status, output, _ = wine.run([cli, "devices"])
    need(status == 0, f"parley devices: exit {status}\n{output}")
    variant = re.search(r"(?im)^.*variant.*$", output)
    report["devices"] = output.strip()
    report["cpu_variant"] = variant.group(0).strip() if variant else None
    need(variant is not None, f"parley devices names no CPU variant:\n{output}")

    shutil.copy2(_jfk_clip(), wine.drive_c() / "jfk.wav")
    status, output, seconds = wine.run([cli, "transcribe", "--device", "cpu", "C:\\jfk.wav"])
    need(status == 0 and JFK_WORDS in re.sub(r"[^a-z ]", "", output.lower()), f"transcribe: exit {status}\n{output}")
    report["transcribe"] = {"seconds": round(seconds, 1), "text": output.strip().splitlines()[-1]}

    command = [cli, "chat", "--prompt", QUESTION, "--temp", "0", "--device", "cpu", "--stats", "--max-tokens", "64"]
    status, output, seconds = wine.run(command)
    need(status == 0 and "paris" in output.lower(), f"chat: exit {status}\n{output}")
    windows_tps = tokens_per_second(output)
    report["chat"] = {
        "seconds": round(seconds, 1),
        "output": output.strip()[-600:],
        "windows_wine_tokens_per_s": windows_tps,
    }
    report["chat"]["linux_tokens_per_s"] = linux_chat_speed()  # type: ignore[index]

    # -- documents: read in the frozen reader's child process, embedded, listed
    write_documents(wine.drive_c() / "users" / wine.user / DOCUMENTS_FOLDER)
    documents_win = f"C:\\users\\{wine.user}\\{DOCUMENTS_FOLDER}"
    status, output, add_seconds = wine.run([cli, "docs", "add", documents_win, "--name", "check"])
    need(status == 0 and f"{len(DOCUMENTS)} files read," in output, f"docs add: exit {status}\n{output[-3000:]}")
    status, listed, _ = wine.run([cli, "docs", "list", "check"])
    for name in DOCUMENTS:
        # By the file's name: the folder's path, in the profile, is printed in the console's code page.
        read = re.search(rf"(?m)\\{re.escape(name)}: [1-9]\d* passages\r?$", listed)
        need(status == 0 and read, f"docs list: {name} was not read:\n{listed[-3000:]}")
    report["documents"] = {"add_seconds": round(add_seconds, 1), "list": listed.strip()[-1000:]}

    # -- the wake word: the bundled model on TensorFlow Lite's DLL
    soundfile.write(wine.drive_c() / "wake.wav", natural_speech("Hey Jarvis, what time is it?", pad_s=1.0), 16000)
    status, output, _ = wine.run([cli, "wake", "C:\\wake.wav"])
    heard = re.findall(r"(?m)^\d+\.\d\d hey_jarvis [01]\.\d{3}\r?$", output)
    need(status == 0 and len(heard) == 1, f"wake: exit {status}\n{output[-3000:]}")
    report["wake"] = output.strip()

    # -- the Linux build's data, read by the Windows build
    need(written["title"] in conversation_titles(data / "conversations.sqlite3"), "the conversation from Linux is gone")
    settings_now = data / "settings.json"
    report["linux_settings"] = (
        "read as they are"
        if settings_now.is_file() and settings_now.read_bytes() == settings_before
        else "set aside"
        if (data / "settings.json.bad").is_file()
        else "rewritten"
    )

    # -- a second install while Parley runs is refused, changing nothing
    # A file no install writes: any install that ran replaces _internal, and it goes. (NSIS keeps
    # the files' own times, so a replaced file cannot be told by its time.)
    marker = folder / "_internal" / "left-by-the-check.txt"
    marker.write_text("the installed program as the check left it")
    running = subprocess.Popen(
        ["wine", INSTALL_DIR + "\\Parley.exe"],
        env=wine.env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_instance_lock(data, running)
        status, _, _ = wine.run([setup_win, "/S"])
        need(status == 2, f"install over a running Parley: exit {status}, expected 2 (refused)")
        need(marker.exists(), "the install over a running Parley changed files")
    finally:
        running.kill()
        running.wait(60)
    report["refused_while_running"] = True

    # -- a truncated installer changes nothing
    truncated = wine.drive_c() / "Setup" / "truncated-setup.exe"
    truncated.write_bytes(setup.read_bytes()[: setup.stat().st_size // 2])
    status, _, _ = wine.run(["C:\\Setup\\truncated-setup.exe", "/S"])
    need(status != 0, "a truncated installer reported success")
    need(marker.exists() and (folder / "Parley.exe").is_file(), "a truncated installer changed files")
    report["truncated_installer_refused"] = True

    # -- upgrade: the installer again, no folder given
    status, _, seconds = wine.run([setup_win, "/S"])
    need(status == 0, f"upgrade: exit {status}")
    need(not marker.exists() and (folder / "Parley.exe").is_file(), "the upgrade did not replace the program files")
    need(not (wine.local_appdata() / "Programs" / "Parley").exists(), "the upgrade installed into the default folder")
    need(written["title"] in conversation_titles(data / "conversations.sqlite3"), "the upgrade lost the conversation")
    need((data / "settings.json").is_file(), "the upgrade lost the settings")
    status, output, _ = wine.run([cli, "devices"])
    need(status == 0, f"after the upgrade, parley devices: exit {status}")
    report["upgrade"] = {"seconds": round(seconds, 1), "data_kept": True}

    # -- uninstall
    status, _, _ = wine.run([INSTALL_DIR + "\\Uninstall.exe", "/S"])
    need(status == 0, f"uninstall: exit {status}")
    need(wine.gone(folder), f"the program folder is still there: {sorted(p.name for p in folder.glob('*'))}")
    need(not start_menu.exists(), "the Start menu entry is still there")
    need(not wine.has_key(APPS_KEY), "the Apps entry is still there")
    need(
        written["title"] in conversation_titles(data / "conversations.sqlite3"),
        "the uninstaller removed the conversations",
    )
    report["uninstall"] = {"program_folder_removed": True, "user_data_kept": True}


def _wait_for_instance_lock(data: Path, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if (data / "instance.lock").exists():
            time.sleep(2)  # the mutex is made right after the lock
            return
        need(process.poll() is None, f"Parley.exe ended (exit {process.returncode}) before it ran")
        time.sleep(0.5)
    raise CheckFailed("Parley.exe did not take its instance lock in 180 s")


def _jfk_clip() -> Path:
    found = sorted(Path(winpython.cache_root()).parent.glob("native/*/src/whisper.cpp/samples/jfk.wav"))
    found += sorted(Path(winpython.cache_root()).glob("native/*/src/whisper.cpp/samples/jfk.wav"))
    need(found, "no jfk.wav (it comes with the pinned whisper.cpp sources: run the native build first)")
    return found[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("setup", type=Path, nargs="?", help="the installer (default: the newest in dist/)")
    parser.add_argument("--keep", action="store_true", help="keep the Wine prefix (its path is printed)")
    args = parser.parse_args(argv)
    setup = args.setup or max(
        REPO.glob("dist/Parley-*-windows-x64-setup.exe"), key=lambda p: p.stat().st_mtime, default=None
    )
    if setup is None or not setup.is_file():
        print("no installer: run packaging/build_windows.sh first", file=sys.stderr)
        return 1
    out = REPO / "build" / "windows"
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="check-", dir=out))
    report: dict[str, object] = {"installer": str(setup), "installer_bytes": setup.stat().st_size}
    started = time.monotonic()
    try:
        check(setup, work, report)
        report["passed"] = True
    except (CheckFailed, subprocess.SubprocessError, OSError) as exc:
        report["passed"] = False
        report["reason"] = str(exc)
    report["seconds"] = round(time.monotonic() - started, 1)
    (out / "check-report.json").write_text(json.dumps(report, indent=2, ensure_ascii=False))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(f"Wine prefix kept: {work / 'prefix'}", file=sys.stderr)
    print(json.dumps({k: report.get(k) for k in ("passed", "reason", "seconds")}, ensure_ascii=False))
    return 0 if report["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
