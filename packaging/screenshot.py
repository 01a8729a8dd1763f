"""Take the README's screenshots: the real window, the real engines, two real exchanges; and
with ``--first-start``, the first-start page of a fresh install (docs/first-start.png).

    python packaging/screenshot.py [--out docs/screenshot.png]
    python packaging/screenshot.py --first-start [--out docs/first-start.png]
    python packaging/screenshot.py --scale 2 --out docs/screenshot-200.png       the window at 200%
    python packaging/screenshot.py --language ar --out docs/screenshot-ar.png    in Arabic (or de, ja…)
    python packaging/screenshot.py --appearance dark --out docs/screenshot-dark.png   dark (or high-contrast)

Runs under a virtual X server (``xvfb-run``, or ``Xvfb`` started here) with Qt's xcb platform,
so the picture is what a Linux desktop shows.  The app starts as it always does, on a data and
config folder in a temporary directory (the user's conversations and settings are never
touched), with the default models answering greedily on the threads Parley chooses (they follow
the machine's load), so the speed in the picture is the one a user sees.  It prints a caption
naming the model and the machine, with the speed shown: the README puts it under the picture,
and a picture taken on a busy machine says so (the load average is in it).  When PulseAudio can
be used, a virtual microphone (tests/support/pulse.py) is plugged in for the duration, so
push-to-talk shows as it does on a desktop with a microphone.  The questions are typed into the
text box key by key and sent with Enter; the second asks for code, so the picture shows a code
block.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
QUESTIONS = (
    "What are three good habits for staying focused while working from home?",
    "Show me a Python one-liner that reverses a string.",
)
WINDOW_SIZE = (1160, 760)
MAX_BYTES = 300_000
TIMEOUT_S = 600


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--first-start", action="store_true", help="the first-start page of a fresh install")
    parser.add_argument("--scale", type=int, default=1, help="the whole window's scale (QT_SCALE_FACTOR)")
    parser.add_argument("--language", default="en", help="the interface's language (a shipped one's code)")
    parser.add_argument("--appearance", default="light", help="Settings > Desktop > Appearance: light, dark…")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    out = (args.out or REPO / "docs" / ("first-start.png" if args.first_start else "screenshot.png")).resolve()
    if args.inner:
        return take(out, args.first_start, args.language, args.scale, args.appearance)
    return run_under_xvfb(out, args.first_start, args.language, args.scale, args.appearance)


def run_under_xvfb(
    out: Path, first_start: bool = False, language: str = "en", scale: int = 1, appearance: str = "light"
) -> int:
    """Re-run this script inside a virtual X server, with throw-away data and config folders."""
    with tempfile.TemporaryDirectory(prefix="parley-screenshot-") as tmp:
        env = {
            **os.environ,
            "QT_QPA_PLATFORM": "xcb",
            "PARLEY_DATA_DIR": f"{tmp}/data",
            "PARLEY_CONFIG_DIR": f"{tmp}/config",
            "LANG": os.environ.get("LANG", "C.UTF-8"),
            "QT_SCALE_FACTOR": str(scale),
        }
        command = [sys.executable, str(Path(__file__).resolve()), "--inner", "--out", str(out)]
        command += ["--language", language, "--scale", str(scale), "--appearance", appearance]
        # The page measures the starter, as the app does, and keeps the figures in the cache folder.
        command += ["--first-start"] if first_start else []
        screen = f"{(WINDOW_SIZE[0] + 100) * scale}x{(WINDOW_SIZE[1] + 100) * scale}x24"
        if shutil.which("xvfb-run"):
            return subprocess.run(["xvfb-run", "-a", "-s", f"-screen 0 {screen}", *command], env=env).returncode
        if not shutil.which("Xvfb"):
            print("screenshot: needs Xvfb (Debian/Ubuntu: sudo apt install xvfb)", file=sys.stderr)
            return 2
        display = f":{90 + os.getpid() % 100}"
        server = subprocess.Popen(
            ["Xvfb", display, "-screen", "0", screen, "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 10
            while not Path(f"/tmp/.X11-unix/X{display[1:]}").exists():
                if time.monotonic() > deadline or server.poll() is not None:
                    print("screenshot: Xvfb did not start", file=sys.stderr)
                    return 2
                time.sleep(0.05)
            return subprocess.run(command, env={**env, "DISPLAY": display}).returncode
        finally:
            server.terminate()
            server.wait()


def take(out: Path, first_start: bool = False, language: str = "en", scale: int = 1, appearance: str = "light") -> int:
    with contextlib.ExitStack() as stack:
        try:
            from tests.support.pulse import virtual_microphone

            stack.enter_context(virtual_microphone())
        except Exception as exc:  # noqa: BLE001 - the picture is taken without a microphone then
            print(f"(no virtual microphone: {exc})", flush=True)
        return _take(out, first_start, language, scale, appearance)


def _take(out: Path, first_start: bool, language: str, scale: int, appearance: str) -> int:
    from PySide6.QtCore import QEventLoop, Qt, QTimer
    from PySide6.QtTest import QTest

    from parley.app.bootstrap import create_app, create_window, start_controller
    from parley.config.paths import config_dir
    from parley.config.settings import Settings, save_settings

    # greedy: the same answer every time; the engines' own thread count: the speeds shown are
    # the ones a user sees; the first-start page only when it is the picture
    settings = Settings(
        temperature=0.0,
        max_tokens=200,
        threads=0,
        first_start_done=not first_start,
        interface_language=language,
        appearance=appearance,
        told_about_global_shortcuts=True,  # the one-time notice naming the keys is no part of the picture
    )
    save_settings(settings)
    assert str(config_dir()).startswith(tempfile.gettempdir())
    app = create_app([sys.argv[0]])
    window = create_window()
    window.resize(*WINDOW_SIZE)
    controller = start_controller(window)
    deadline = time.monotonic() + TIMEOUT_S

    def wait(condition, what: str) -> None:
        """Run the event loop until ``condition()``, looking every 20 ms.  Not a loop of
        ``processEvents``: that returns at once when no event waits, and the UI thread then
        spins a core the models need (the pictures showed 16 tokens/s for 35)."""
        loop = QEventLoop()
        timer = QTimer(interval=20)
        timer.timeout.connect(lambda: (condition() or time.monotonic() > deadline) and loop.quit())
        timer.start()
        if not condition():
            loop.exec()
        timer.stop()
        if not condition():
            raise TimeoutError(f"timed out waiting for {what}")

    wait(lambda: controller.chat.model is not None and controller.speech.model is not None, "the models")
    if first_start:
        page = controller.first_start.page
        assert page is not None
        wait(lambda: bool(page.cards) and "tokens/s here" in page.speed.text(), "the page's measured speed")
        wait(lambda: all("measuring" not in c.details.text() for c in page.cards.values()), "the expected speeds")
        return _save(window, app, out, scale)
    finished: list[tuple[str, str]] = []
    controller.reply_finished.connect(lambda text, finish: finished.append((text, finish)))
    edit = window.input_bar.edit
    for number, question in enumerate(QUESTIONS, 1):
        edit.setFocus()
        QTest.keyClicks(edit, question, delay=5)
        QTest.keyClick(edit, Qt.Key.Key_Return)
        wait(lambda n=number: len(finished) == n, f"reply {number}")
        text, finish = finished[-1]
        print(f"Q: {question}\nA ({finish}): {text}\n", flush=True)
    wait(lambda: controller.idle, "the end of the reply")
    wait(lambda: not window.conversation_view._render_timer.isActive(), "the last render")
    settle = time.monotonic() + 0.5
    wait(lambda: time.monotonic() > settle, "the window to settle")
    model = controller.chat.model
    print(caption(model.path.name if model else "?", model.name if model else "?", controller.status.last_reply_tps))
    return _save(window, app, out, scale)


def caption(model_file: str, model_name: str, tokens_per_s: float | None) -> str:
    """The picture's model and machine, as its caption says them."""
    import platform

    from parley.engine.modelfiles.defaults import default_chat_model_path

    try:
        starter = model_file == default_chat_model_path().name
    except Exception:  # noqa: BLE001 - the caption then names the file
        starter = False
    processor = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                processor = line.split(":", 1)[1].strip()
                break
    speed = f"{tokens_per_s:.0f} tokens/s" if tokens_per_s else "speed not shown"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    return (
        f"caption: {'SmolLM2 135M, the starter' if starter else model_name}, on {processor} "
        f"({os.cpu_count()} cores, threads following the load; load average {load:.1f}): {speed}"
    )


def _save(window, app, out: Path, scale: int = 1) -> int:  # noqa: ANN001 - Qt objects, imported late
    from PySide6.QtGui import QImage

    window.statusBar().clearMessage()  # a transient note is no part of the picture
    image = window.grab().toImage().convertToFormat(QImage.Format.Format_RGB888)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not image.save(str(out), "PNG", 0):  # 0: smallest file
        print(f"screenshot: could not write {out}", file=sys.stderr)
        return 1
    size = out.stat().st_size
    print(f"wrote {out} ({image.width()}x{image.height()}, {size / 1000:.0f} KB)")
    window.close()
    app.quit()
    if size > MAX_BYTES * scale * scale:
        print(f"screenshot: {out} is {size} bytes, more than {MAX_BYTES * scale * scale}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
