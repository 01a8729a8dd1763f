#!/usr/bin/env python3
"""Dictation from anywhere, timed as a user lives it (X11; not a test).

The real app (``python -m parley`` on the xcb platform, the default models) runs on Xvfb; a text
editor of another process has the focus; the Dictate shortcut is held through XTEST while
espeak-ng speech plays into the PulseAudio virtual microphone, then let go.  For a short and a
long sentence, over ``--takes`` takes each, it prints:

- **release → last character:** from the key release to the editor's last text change, p50 and p95;
- **typing:** how long the typist took for those characters (the app's log), and so the rest,
  release → typing began (transcription), whose goal is 150 ms;
- **press → first sample:** from the press to the first sample the microphone captured (the
  app's log): the speech a speaker who starts at the press would lose.

Each clip is taken twice over: released the moment its last word has been played (the worst
case: whisper must decode the whole take after the release, as the speech's end margin is not
recorded yet), and released ``NATURAL_RELEASE_S`` later, as people let go of a key after their
last word (the live transcript has then decoded the take before the release).

``--stress N`` then runs N more takes, the 8 s clip let go at its last word and the 3 s one
0.4 s after in turn, and counts the takes that typed nothing, printing the app's log for each.

There is no native tool to compare with: whisper.cpp has no system-wide dictation.

    python bench/bench_anywhere.py [--takes 10] [--stress 0]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.support import x11
from tests.support.app_process import App, app_environment
from tests.support.pulse import virtual_microphone
from tests.support.speech import synthesize

REPO = Path(__file__).resolve().parents[1]

CLIPS = {
    "3 s": "Please send me the report by Friday.",
    "8 s": "Please send me the quarterly report by Friday afternoon, and copy the whole team "
    "so that everyone can read it before the meeting.",
}
QUIET_S = 1.0  # no more text for this long: the take has been typed
NATURAL_RELEASE_S = 0.4  # the key let go this long after the last word (a clip's silence pad)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--takes", type=int, default=10)
    parser.add_argument("--stress", type=int, default=0, help="then this many takes, counting those lost")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="parley-bench-anywhere-") as folder, x11.xvfb() as display:
        tmp = Path(folder)
        # A PulseAudio server of the benchmark's own, found by this folder (the app gets a
        # runtime folder of its own, where libpulse would otherwise look).
        os.environ["PULSE_RUNTIME_PATH"] = str(tmp / "pulse")
        clips = {}
        for name, text in CLIPS.items():
            clips[name] = tmp / f"{name.replace(' ', '')}.wav"
            synthesize(text, clips[name], voice="en-us", rate_wpm=150)
        with virtual_microphone() as mic:
            mic.plug_in()
            env = app_environment(
                tmp,
                platform="xcb",
                settings={"microphone": "pulse", "told_about_global_shortcuts": True, "close_to_tray": False},
            )
            env["DISPLAY"] = display
            state = tmp / "editor.json"
            editor = subprocess.Popen(
                [sys.executable, "-m", "tests.support.editor", str(state), "clipboard"],
                env={**env, "QT_QPA_PLATFORM": "xcb"},
                stdout=subprocess.PIPE,
                text=True,
                cwd=REPO,
            )
            window = int(editor.stdout.readline()) if editor.stdout else 0
            app = App(env)
            try:
                app.wait_for("listening in every application for")
                app.wait_for("the speech model is ready")
                xinput = x11.XInput(display)
                header = ("clip", "release→last char", "typing", "release→typing", "press→1st sample")
                print(f"{header[0]:<14} {header[1]:>24} {header[2]:>13} {header[3]:>21} {header[4]:>18}")
                for (name, clip), after in [(c, a) for a in (0.0, NATURAL_RELEASE_S) for c in clips.items()]:
                    label = f"{name}, +{after * 1000:.0f} ms"
                    figures = [take(app, xinput, window, state, mic, clip, after) for _ in range(args.takes)]
                    total = [f[0] for f in figures]
                    typing = [f[1] for f in figures]
                    rest = [f[0] - f[1] for f in figures]
                    first = [f[2] for f in figures]
                    print(
                        f"{label:<14} p50 {percentile(total, 0.5):6.0f} p95 {percentile(total, 0.95):6.0f} ms"
                        f" {statistics.median(typing):10.0f} ms"
                        f" p50 {percentile(rest, 0.5):5.0f} p95 {percentile(rest, 0.95):5.0f}"
                        f" {statistics.median(first):11.0f} ms",
                        flush=True,
                    )
                if args.stress:
                    stress(app, xinput, window, state, mic, clips, args.stress)
            except AssertionError:
                print("".join(app.lines[-30:]), file=sys.stderr)
                raise
            finally:
                app.stop()
                editor.terminate()
                editor.wait()
    return 0


def stress(app: App, xinput: x11.XInput, window: int, state: Path, mic, clips: dict[str, Path], takes: int) -> None:
    """``takes`` dictations, a long one let go at its last word and a short one let go as people
    do, in turn; each that typed nothing is counted and its log printed."""
    lost = 0
    for i in range(takes):
        clip, after = (clips["8 s"], 0.0) if i % 2 == 0 else (clips["3 s"], NATURAL_RELEASE_S)
        mark = len(app.lines)
        try:
            take(app, xinput, window, state, mic, clip, after, timeout=20)
        except AssertionError:
            lost += 1
            print(f"take {i + 1} typed nothing; the app logged:\n{''.join(app.lines[mark:])}", flush=True)
    print(f"stress: {takes - lost} of {takes} takes typed, {lost} lost", flush=True)


def take(
    app: App, xinput: x11.XInput, window: int, state: Path, mic, clip: Path, after: float, timeout: float = 120.0
) -> tuple[float, float, float]:
    """One dictation, the key let go ``after`` seconds after the clip has been played:
    (release → last character, typing, press → first sample), milliseconds."""
    xinput.focus(window)
    xinput.tap("ctrl+a")
    xinput.tap("Delete")
    time.sleep(0.3)
    xinput.key_down("ctrl+alt+space")
    mic.play(clip)
    time.sleep(after)
    released = time.time()
    xinput.key_up("space")
    xinput.key_up("ctrl+alt")
    first = float(re.search(r"captured (-?\d+) ms", app.wait_for("the first sample was captured", timeout)).group(1))
    typing = float(re.search(r"in (\d+) ms", app.wait_for("characters in", timeout)).group(1))
    last_change, since = None, time.monotonic()
    while time.monotonic() - since < QUIET_S:
        changed = json.loads(state.read_text("utf-8"))["changed_at"]
        if changed != last_change:
            last_change, since = changed, time.monotonic()
        time.sleep(0.02)
    return (last_change - released) * 1000, typing, first


if __name__ == "__main__":
    sys.exit(main())
