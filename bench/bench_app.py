#!/usr/bin/env python3
"""The desktop app as a user feels it: latencies, UI stalls, start-up time and memory.

Not a test: it prints its figures (and writes them as JSON with ``--json FILE``).

Everything is real: the app's window (offscreen unless QT_QPA_PLATFORM says otherwise), its
controller and ``LocalEngines`` on the default models (Whisper tiny.en, SmolLM2-135M; ``--chat-model``
another, e.g. ``pack:qwen2.5-coder-1.5b``), and the
microphone path: espeak-ng speech played into a PulseAudio virtual microphone (tests/support/pulse.py)
that PortAudio's ``pulse`` device records while push-to-talk is held.

- latency from push-to-talk release to the transcript shown in the window, to the first reply
  token reaching the window, to that token painted (the view renders at most every 50 ms), and,
  with ``--read-aloud``, to the first sound of the natural voice reading the reply (the first
  block written to the speakers; the goal: 400 ms; median, p95 and slowest), with how long
  generation stepped aside for the voice (``cpu_share``) and the app's own per-turn figures
  (``TurnClock``) beside them, and where that time goes (the speaker's ``FirstPiece``): the
  reply's first text, the first piece cut from it, that piece's synthesis, handed to the player,
  its first block written (with the device's opening when it was opened for the reply, and the
  output latency the device reports, which comes on top: not in the figure),
  for ~3 s and ~8 s clips (``--reps`` takes each); the live transcript is on (the default), and
  each final transcript is compared with a fresh decode of the whole take (the path without it);
- UI stall: the longest gap between the ticks of a 10 ms QTimer on the UI thread while the
  speech model is prepared on first use (converted into an empty cache), while both models
  load, while clips are transcribed and while replies are generated (target < 50 ms);
- the first question after a start against the third (the same clip, ``--reps`` 3 or more): time
  to the transcript and to the first reply token.  Before each take the chat model's cache is
  emptied (and the new conversation's system prompt read again, as the app does), so that a
  repeated question is read afresh like a new one rather than found in the cache;
- window visible: process start to the window's first paint, in fresh processes;
- resident memory (RSS) with both models loaded, and the peak.

    .venv/bin/python bench/bench_app.py [--reps 3] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

CLIPS = {
    "3 s": "How far away is the moon from the earth?",
    "8 s": "Please tell me how far away the moon is from the earth, and how long it would take "
    "to fly there in a fast rocket.",
}
TICK_MS = 10
STALL_TARGET_MS = 50
TIMEOUT_S = 300

_WINDOW_VISIBLE = """
import sys
from parley.app.selftest.run import process_age, _FirstPaint
from parley.app.bootstrap import create_app, create_window
app = create_app(sys.argv)
from parley.app.ui.main_window import MainWindow
window = MainWindow()
def painted():
    print(process_age())  # from the process's start: the interpreter and every import included
    app.quit()
_FirstPaint(window, painted)
window.show()
app.exec()
"""


def rss_mib() -> tuple[float, float]:
    """(current, peak) resident memory of this process, MiB."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def window_visible_s(runs: int, env: dict[str, str]) -> list[float]:
    out = []
    for _ in range(runs):
        proc = subprocess.run(
            [sys.executable, "-c", _WINDOW_VISIBLE],
            cwd=REPO,
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        out.append(float(proc.stdout.strip().splitlines()[-1]))
    return out


class Ticker:
    """A 10 ms timer on the UI thread; the gaps between its ticks, by phase."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.phase: str | None = None
        self.gaps: dict[str, list[float]] = {}
        self._last = time.perf_counter()
        self.on_tick: list[Callable[[], None]] = []
        self._timer = QTimer(interval=TICK_MS)
        self._timer.timeout.connect(self._tick)
        self._timer.start()

    def _tick(self) -> None:
        now = time.perf_counter()
        if self.phase is not None:
            self.gaps.setdefault(self.phase, []).append(now - self._last)
        self._last = now
        for callback in list(self.on_tick):
            callback()

    def start(self, phase: str | None) -> None:
        self._last = time.perf_counter()
        self.phase = phase


def wait(condition: Callable[[], bool], what: str) -> None:
    """Run the event loop until ``condition()``, checking it every 5 ms.  The loop sleeps
    between events, as the app's own does: a ``processEvents`` spin would take a core from
    the engines, and on 2 cores the figures would be the bench's, not the app's."""
    from PySide6.QtCore import QEventLoop, QTimer

    deadline = time.monotonic() + TIMEOUT_S
    loop = QEventLoop()
    tick = QTimer()
    tick.setInterval(5)
    tick.timeout.connect(loop.quit)
    tick.start()
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        loop.exec()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reps", type=int, default=3, help="takes of each clip")
    parser.add_argument("--max-tokens", type=int, default=64, help="reply length limit")
    parser.add_argument("--read-aloud", action="store_true", help="read replies aloud: time to the first sound")
    parser.add_argument(
        "--chat-model",
        default="starter",
        help="the chat model setting: starter (default), pack:ID (an installed model pack), default "
        "(Parley's choice for this machine) or a GGUF file",
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    from tests.support.pulse import speakers, virtual_microphone
    from tests.support.speech import synthesize

    with tempfile.TemporaryDirectory(prefix="parley-bench-app-") as tmp, virtual_microphone() as mic, speakers():
        tmp_path = Path(tmp)
        env = {"PARLEY_DATA_DIR": str(tmp_path / "data"), "PARLEY_CONFIG_DIR": str(tmp_path / "config")}
        os.environ.update(env)
        results: dict[str, Any] = {"load_average": os.getloadavg(), "cpus": os.cpu_count()}
        visible = window_visible_s(3, env)
        results["window_visible_s"] = visible

        import numpy as np
        import soundfile

        clips = {}
        for label, text in CLIPS.items():
            path = synthesize(text, tmp_path / f"clip-{label[0]}.wav", rate_wpm=130)
            speech, rate = soundfile.read(path, dtype="float32")
            silence = np.zeros(int(0.4 * rate), dtype=np.float32)
            soundfile.write(path, np.concatenate([silence, speech, silence]), rate)
            clips[label] = (path, text, len(speech) / rate + 0.8)
        results.update(run_app(clips, mic, args, tmp_path))
    print_report(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


def run_app(
    clips: dict[str, tuple[Path, str, float]], mic: Any, args: argparse.Namespace, tmp_path: Path
) -> dict[str, Any]:
    from parley.app.bootstrap import create_app, start_controller
    from parley.config.settings import Settings, save_settings
    from parley.engine.audio.capture import list_input_devices
    from parley.engine.audio.utterance import spoken_text
    from parley.engine.backend import cpu_share
    from parley.engine.textmetrics import word_error_rate
    from tests.support.pulse import finish

    chat_model = args.chat_model
    if chat_model.startswith("pack:"):  # its joined file, from the user's cache, before the cache moves
        from parley.engine.library.packs import find_pack, pack_path

        chat_model = str(pack_path(find_pack(chat_model.removeprefix("pack:"))))
    os.environ["PARLEY_CACHE_DIR"] = str(tmp_path / "cache")  # first use: the conversion is measured too
    save_settings(
        Settings(
            microphone="pulse",
            max_tokens=args.max_tokens,
            read_replies_aloud=args.read_aloud,
            first_start_done=True,
            chat_model=chat_model,
        )
    )
    list_input_devices(refresh=True)
    _app = create_app([sys.argv[0]])  # held for the whole run
    rss_before = rss_mib()[0]
    from parley.app.selftest.run import _FirstPaint

    ticker = Ticker()
    from parley.app.ui.main_window import MainWindow

    window = MainWindow()
    painted: list[bool] = []
    _FirstPaint(window, lambda: painted.append(True))
    window.resize(1100, 760)
    window.show()
    wait(lambda: bool(painted), "the window's first paint")  # its first layout is no stall of a load
    ticker.start("model load")
    loading = time.perf_counter()
    controller = start_controller(window)
    ready: dict[str, float] = {}
    controller.speech_ready.connect(lambda _m: ready.setdefault("speech", time.perf_counter() - loading))
    controller.chat_ready.connect(lambda _m: ready.setdefault("chat", time.perf_counter() - loading))
    converting = {"done": False}

    def phase_of_load(text: str) -> None:  # the first-use conversion has its own phase
        if text.startswith("Preparing the speech model (first use only)") and ticker.phase == "model load":
            ticker.start("speech model preparation")
        elif text.startswith("Speech model ready") and ticker.phase == "speech model preparation":
            converting["done"] = True
            ticker.start("model load")

    window.statusBar().messageChanged.connect(phase_of_load)
    wait(lambda: len(ready) == 2 and window.input_bar.talk_button.isEnabled(), "the models and microphone")
    ticker.start(None)
    rss_loaded = rss_mib()[0]

    events: dict[str, float] = {}
    heard: list[str] = []
    take_audio: list[Any] = []
    controller.talk.clip_ready.connect(lambda audio, _purpose: take_audio.append(audio))
    controller.transcribed.connect(
        lambda text: (events.setdefault("transcript", time.perf_counter()), heard.append(text))
    )
    controller.reply_progress.connect(lambda _p: events.setdefault("token", time.perf_counter()))
    controller.spoken.first_sound.connect(lambda: events.setdefault("sound", time.perf_counter()))
    controller.reply_started.connect(
        lambda: (events.setdefault("reply", time.perf_counter()), ticker.start("reply generation"))
    )
    finished: list[tuple[str, str]] = []
    controller.reply_finished.connect(lambda text, fin: (finished.append((text, fin)), ticker.start(None)))
    view = window.conversation_view

    def painted_check() -> None:
        if "token" in events and "painted" not in events and view.messages and view.messages[-1].text:
            events["painted"] = time.perf_counter()

    ticker.on_tick.append(painted_check)

    takes = []
    for label, (path, text, seconds) in clips.items():
        for rep in range(args.reps):
            events.clear()
            heard.clear()
            take_audio.clear()
            reused_before = controller.transcription.reused
            controller.book.new()
            forget_the_last_question(controller)
            controller.spoken_turn.pressed()
            player = mic.play(path, wait=False)
            wait(lambda: player.poll() is not None, "the clip to play")  # noqa: B023 - waited for here
            finish(player, timeout=5)
            ticker.start("transcription")
            released = time.perf_counter()
            released_mono = time.monotonic()  # the speaker's clock
            aside_before = cpu_share.seconds_stepped_aside()
            controller.spoken_turn.released()
            wait(lambda: "transcript" in events, "the transcript")
            ticker.start("reply generation" if "reply" in events else None)
            wait(lambda: len(finished) > len(takes) and "painted" in events, "the reply")
            if args.read_aloud:
                wait(lambda: "sound" in events, "the reply's first sound")
            ticker.start(None)
            reply, finish_reason = finished[-1]
            wait(lambda: controller.idle, "the engines to be idle")
            model = controller.speech.model  # a fresh decode of the whole take
            fresh = spoken_text(model.transcribe(_speech(take_audio[0])))
            entry = controller.book.current.messages[-1]
            take = {
                "clip": label,
                "clip_s": round(seconds, 2),
                "heard": heard[0],
                "wer": round(word_error_rate(text, heard[0]), 3),
                "same_as_fresh_decode": heard[0] == fresh,
                "reused_live_decode": controller.transcription.reused > reused_before,
                "transcript_s": events["transcript"] - released,
                "whisper_s": controller.status.last_clip_s,
                "first_token_s": events["token"] - released,
                "first_token_painted_s": events["painted"] - released,
                "first_sound_s": first_sound_s(controller, released_mono) if "sound" in events else None,
                "stepped_aside_s": cpu_share.seconds_stepped_aside() - aside_before,
                "first_sound_phases": first_sound_phases(controller, released_mono) if "sound" in events else None,
                "load_average": os.getloadavg()[0],
                "turn_steps_ms": [(name, round(s * 1000)) for name, s in entry.turn.steps()] if entry.turn else None,
                "reply_tokens": (entry.stats or {}).get("generated_tokens"),
                "reply_tps": (entry.stats or {}).get("gen_tps"),
                "prompt_read": [(entry.stats or {}).get(k) for k in ("prompt_tokens", "prompt_seconds")],
                "finish": finish_reason,
                "first_spoken": first_spoken(entry.content),
            }
            takes.append(take)
            print(
                f"  {label} take {rep + 1}: transcript {take['transcript_s'] * 1000:.0f} ms, first token "
                f"{take['first_token_s'] * 1000:.0f} ms (painted {take['first_token_painted_s'] * 1000:.0f} ms), "
                f"WER {take['wer']:.2f}, reply {take['reply_tokens']} tokens at {take['reply_tps']} tok/s; after the "
                f"release it read {take['prompt_read'][0]} prompt tokens in {take['prompt_read'][1]} s"
                + (
                    f"; first sound {take['first_sound_s'] * 1000:.0f} ms (generation stepped aside "
                    f"{take['stepped_aside_s'] * 1000:.0f} ms)"
                    if take["first_sound_s"] is not None
                    else ""
                )
                + (f"; {describe_phases(take['first_sound_phases'])}" if take["first_sound_phases"] else "")
                + (f"; the app's turn: {take['turn_steps_ms']}" if take["turn_steps_ms"] else "")
                + f"; load average {take['load_average']:.1f}"
                + (f"; first spoken: {take['first_spoken']!r}" if take["first_sound_s"] is not None else ""),
                flush=True,
            )
    rss_now, rss_peak = rss_mib()
    window.close()
    return {
        "converted_on_first_use": converting["done"],
        "load_s": ready,
        "engine_load_s": {slot.role: slot.load_seconds for slot in (controller.speech, controller.chat)},
        "takes": takes,
        "stall_max_ms": {phase: max(gaps) * 1000 for phase, gaps in ticker.gaps.items()},
        "stall_p99_ms": {
            phase: sorted(gaps)[int(0.99 * (len(gaps) - 1))] * 1000 for phase, gaps in ticker.gaps.items()
        },
        "ticks": {phase: len(gaps) for phase, gaps in ticker.gaps.items()},
        "rss_mib": {
            "qt_only": rss_before,
            "both_models_loaded": rss_loaded,
            "after_replies": rss_now,
            "peak": rss_peak,
        },
        "device": controller.chat.model.device.device.name,
        "device_description": controller.chat.model.device.device.description,
        "threads": {"chat": controller.chat.model.threads, "speech": controller.speech.model.threads},
    }


def forget_the_last_question(controller: Any) -> None:
    """Empty the chat model's cache on its thread: the same clip again must cost what a new
    question costs, not find its tokens already read.  Called after the new conversation is
    opened: before, the app read the last conversation ahead again, and the next take found the
    same question in it (the third take read 1 token of the question, the first 16)."""
    done: list[object] = []
    controller.chat.submit(
        lambda _job: controller.chat.model.clear_cache(), on_done=done.append, on_error=done.append, name="bench"
    )
    wait(lambda: bool(done), "the chat cache to be emptied")
    # The app did not empty it, so tell it, as it is told when another model or prompt is used:
    # it reads the open conversation again ahead of the question.  (Without this, the first take
    # after the start waited for the system prompt to be read after the release: the opened
    # conversation is the same empty one, and nothing else asked the app to read it again.)
    controller.replies.reread()


def first_sound_s(controller: Any, released: float) -> float:
    """Release to the first block of the reply's voice written to the speakers, on the player's
    thread (the UI thread hears of it a little later)."""
    return controller.spoken.output.speaker.first_audio_at - released


# The steps on the way to the first sound, as ``first_sound_phases`` names them, in order.
PHASES = (
    ("text", "the reply's first text"),
    ("cut", "first piece cut"),
    ("synth_start", "its synthesis starts"),
    ("synth_end", "synthesised"),
    ("queued", "handed to the player"),
    ("sound", "first block written"),
    ("audible", "its first audible sample"),
)


def first_sound_phases(controller: Any, released: float) -> dict[str, Any] | None:
    """The speaker's ``FirstPiece`` of the reply: each step's time since the release (s), the
    first piece's words, the device's opening (None: it was open) and its reported latency."""
    first = controller.spoken.output.speaker.first_piece
    if first is None:
        return None
    times = {
        "text": first.text_at,
        "cut": first.cut_at,
        "synth_start": first.synth_start,
        "synth_end": first.synth_end,
        "queued": first.queued_at,
        "sound": first.sound_at,
        "audible": first.audible_at,
    }
    return {
        **{name: None if at is None else at - released for name, at in times.items()},
        "piece": first.piece,
        "device_open_s": first.device_open_s,
        "output_latency_s": first.output_latency_s,
    }


def phase_steps(phases: dict[str, Any]) -> list[tuple[str, float]]:
    """(step, seconds since the step before) for the steps that happened; the first from the release."""
    out, previous = [], 0.0
    for name, _words in PHASES:
        at = phases.get(name)
        if at is not None:
            out.append((name, at - previous))
            previous = at
    return out


def describe_phases(phases: dict[str, Any]) -> str:
    words = dict(PHASES)
    steps = ", ".join(f"{words[name]} +{seconds * 1000:.0f}" for name, seconds in phase_steps(phases))
    opened = phases["device_open_s"]
    latency = phases["output_latency_s"]
    return (
        f"from the release (ms): {steps}; "
        + ("device already open" if opened is None else f"device opened in {opened * 1000:.0f} ms")
        + ("" if latency is None else f", reports {latency * 1000:.0f} ms output latency")
    )


def audible_summary(takes: list[dict[str, Any]]) -> str:
    """The first audible sample's p50 and p95 over ``takes`` (from the release)."""
    audible = [t["first_sound_phases"]["audible"] for t in takes if (t.get("first_sound_phases") or {}).get("audible")]
    if not audible:
        return ""
    return f", first audible sample {statistics.median(audible) * 1000:.0f} ms (p95 {p95(audible) * 1000:.0f} ms)"


def print_phases(takes: list[dict[str, Any]]) -> None:
    """The median of each step on the way to the first sound, over ``takes``."""
    phased = [t["first_sound_phases"] for t in takes if t.get("first_sound_phases")]
    if not phased:
        return
    words = dict(PHASES)
    steps: dict[str, list[float]] = {}
    for phases in phased:
        for name, seconds in phase_steps(phases):
            steps.setdefault(name, []).append(seconds)
    opened = [p["device_open_s"] for p in phased if p["device_open_s"] is not None]
    latency = [p["output_latency_s"] for p in phased if p["output_latency_s"] is not None]
    loads = [t["load_average"] for t in takes]
    print(
        "    where the time goes (median step, ms): "
        + ", ".join(f"{words[name]} +{statistics.median(v) * 1000:.0f}" for name, v in steps.items())
        + f"; the device was opened for {len(opened)} of {len(phased)} replies"
        + (f" (median {statistics.median(opened) * 1000:.0f} ms)" if opened else "")
        + (f"; output latency reported {statistics.median(latency) * 1000:.0f} ms" if latency else "")
        + f"; load average {min(loads):.1f}-{max(loads):.1f}"
    )


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[18] if len(values) > 1 else values[0]


def print_report(r: dict[str, Any]) -> None:
    med = statistics.median
    print(
        f"\nParley app benchmark on {r['device']} ({r['device_description']}), {r['cpus']} CPUs, "
        f"threads {r['threads']}, load average {r['load_average'][0]:.2f}"
    )
    print(
        f"window visible (process start to first paint): median {med(r['window_visible_s']):.2f} s "
        f"({', '.join(f'{s:.2f}' for s in r['window_visible_s'])})"
    )
    print(
        f"models ready after the window: speech {r['load_s']['speech']:.2f} s, chat {r['load_s']['chat']:.2f} s "
        f"(engine load {r['engine_load_s'].get('speech', 0):.2f} s / {r['engine_load_s'].get('chat', 0):.2f} s; "
        f"speech model converted on first use: {r['converted_on_first_use']})"
    )
    print("\nrelease of push-to-talk to ...            (median over takes)")
    for label in CLIPS:
        takes = [t for t in r["takes"] if t["clip"] == label]
        print(
            f"  {label} clip ({takes[0]['clip_s']:.1f} s played): transcript shown "
            f"{med(t['transcript_s'] for t in takes) * 1000:.0f} ms (whisper "
            f"{med(t['whisper_s'] for t in takes) * 1000:.0f} ms), first reply token "
            f"{med(t['first_token_s'] for t in takes) * 1000:.0f} ms, painted "
            f"{med(t['first_token_painted_s'] for t in takes) * 1000:.0f} ms"
            + (
                f", first sound {med(t['first_sound_s'] for t in takes) * 1000:.0f} ms "
                f"(p95 {p95([t['first_sound_s'] for t in takes]) * 1000:.0f} ms, "
                f"slowest {max(t['first_sound_s'] for t in takes) * 1000:.0f} ms)"
                if takes[0]["first_sound_s"] is not None
                else ""
            )
            + audible_summary(takes)
            + "; WER "
            f"{med(t['wer'] for t in takes):.2f}; reply {med(t['reply_tps'] or 0 for t in takes):.1f} tok/s"
        )
        print_phases(takes)
        print(
            f"    final text equal to a fresh decode of the take: {sum(t['same_as_fresh_decode'] for t in takes)}"
            f"/{len(takes)}; answered by a live decode: {sum(t['reused_live_decode'] for t in takes)}/{len(takes)}"
        )
    first_clip = [t for t in r["takes"] if t["clip"] == next(iter(CLIPS))]
    if len(first_clip) >= 3:
        first, third = first_clip[0], first_clip[2]
        print(
            f"\nfirst question after the start vs the third (the {first['clip']} clip): transcript "
            f"{first['transcript_s'] * 1000:.0f} vs {third['transcript_s'] * 1000:.0f} ms, first reply token "
            f"{first['first_token_s'] * 1000:.0f} vs {third['first_token_s'] * 1000:.0f} ms"
        )
    print(f"\nUI stall: longest gap between {TICK_MS} ms timer ticks (target < {STALL_TARGET_MS} ms)")
    for phase, worst in r["stall_max_ms"].items():
        print(
            f"  {phase:<26} max {worst:6.1f} ms   p99 {r['stall_p99_ms'][phase]:5.1f} ms   "
            f"({r['ticks'][phase]} ticks){'' if worst < STALL_TARGET_MS else '   OVER TARGET'}"
        )
    m = r["rss_mib"]
    print(
        f"\nresident memory: {m['qt_only']:.0f} MiB with Qt and the window, {m['both_models_loaded']:.0f} MiB "
        f"with both models loaded, {m['after_replies']:.0f} MiB after the replies (peak {m['peak']:.0f} MiB)"
    )


def first_spoken(reply: str) -> str:
    """The first piece of ``reply`` that the natural voice speaks, cut as it streamed in."""
    from parley.engine.voice.sentences import SentenceSplitter

    splitter = SentenceSplitter()
    for start in range(0, len(reply), 3):  # about a token at a time
        pieces = splitter.push(reply[start : start + 3])
        if pieces:
            return pieces[0]
    return (splitter.flush() or [""])[0]


def _speech(audio: Any) -> Any:
    """The part of a take the app transcribes (the whole take when it holds no speech)."""
    from parley.engine.audio.utterance import speech_region

    region = speech_region(audio)
    return audio if region is None else audio[region.start : region.end]


if __name__ == "__main__":
    sys.exit(main())
