#!/usr/bin/env python3
"""The window does not slow the model: the app's generation speed against ``parley chat``'s.

Not a test: it prints its figures (and writes them as JSON with ``--json FILE``).

Alternating rounds (``--rounds``, default 5): each round runs ``parley chat "question"`` and then
the desktop app, each in a fresh process, on the same model (the starter unless ``--model``),
question, system prompt (the app's default), thread count and reply length, greedy, and takes
the generation speed the engine reports for each (``--stats`` for the CLI, the reply's stored
figures for the app).  The ratio app / CLI of each round, and their median, is the figure: on a
machine with no core to spare, whatever the window's thread takes is lost to the model's
threads.  The app's window is real (offscreen unless QT_QPA_PLATFORM says otherwise) and shows
the reply as it streams; its UI thread's processor time during the reply and the number of
renders are printed beside it.  Both sides must generate the same number of tokens (checked).

    .venv/bin/python bench/bench_window.py [--rounds 5] [--tokens 512] [--threads 2] [--json FILE]
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
from typing import Any

REPO = Path(__file__).resolve().parents[1]

QUESTION = "Write a very long, detailed essay about the history of the Roman Empire, with headings and bullet lists."
TIMEOUT_S = 600
_CLI_STATS = re.compile(r"reply: (\d+) tokens, ([\d.]+) tokens/s")


def cli_round(model: str, tokens: int, threads: int, system: str, env: dict[str, str]) -> dict[str, Any]:
    """`parley chat` in a fresh process: (generated tokens, tokens/s)."""
    command = [sys.executable, "-m", "parley", "chat", QUESTION, "--model", model, "--temp", "0"]
    command += ["--max-tokens", str(tokens), "--threads", str(threads), "--system", system, "--stats"]
    command += ["--device", "cpu"]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=TIMEOUT_S, check=True)
    match = _CLI_STATS.search(done.stderr)
    if match is None:
        raise RuntimeError(f"no figures from parley chat: {done.stderr[-500:]}")
    return {"tokens": int(match.group(1)), "gen_tps": float(match.group(2))}


def app_round(model: str, tokens: int, threads: int, env: dict[str, str]) -> dict[str, Any]:
    """The app in a fresh process (``--app-child``): its figures as JSON on the last line."""
    command = [sys.executable, str(Path(__file__).resolve()), "--app-child", "--model", model]
    command += ["--tokens", str(tokens), "--threads", str(threads)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=TIMEOUT_S, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def app_child(model: str, tokens: int, threads: int) -> int:
    """In the child: the real window and controller, one question, the reply's figures."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop, QTimer

    from parley.app.bootstrap import create_app
    from parley.app.controller import Controller
    from parley.app.conversations.store import Store
    from parley.app.engines import LocalEngines
    from parley.app.ui.main_window import MainWindow
    from parley.app.voice.read_aloud import ReadAloud
    from parley.config.settings import Settings

    app = create_app([sys.argv[0]])
    window = MainWindow()
    window.resize(1100, 760)
    window.show()
    settings = Settings(
        chat_model=model, temperature=0.0, max_tokens=tokens, threads=threads, device="cpu", first_start_done=True
    )
    data = Path(os.environ["PARLEY_DATA_DIR"])
    controller = Controller(
        window,
        LocalEngines(),
        settings,
        Store(data / "conversations.sqlite3"),
        settings_path=data / "settings.json",
        read_aloud=lambda: ReadAloud("none"),
    )
    controller.start()
    loop = QEventLoop()
    ready = QTimer(interval=50)  # until both models are loaded and nothing runs
    ready.timeout.connect(lambda: loop.quit() if controller.chat.model and controller.speech.model else None)
    ready.start()
    loop.exec()
    ready.stop()
    idle = QTimer(interval=50)
    idle.timeout.connect(lambda: loop.quit() if controller.idle else None)
    idle.start()
    loop.exec()
    idle.stop()
    controller.reply_finished.connect(lambda *_: loop.quit())  # no polling while the reply streams
    ui_cpu = time.thread_time()
    renders = window.conversation_view.render_count
    controller.replies.send(QUESTION)
    loop.exec()
    ui_cpu = time.thread_time() - ui_cpu
    stats = controller.book.current.messages[-1].stats or {}
    seconds = stats.get("generation_seconds") or 0.0
    print(
        json.dumps(
            {
                "tokens": stats.get("generated_tokens"),
                "gen_tps": stats.get("gen_tps"),
                "ui_cpu_s": round(ui_cpu, 3),
                "ui_share": round(ui_cpu / seconds, 4) if seconds else None,
                "renders": window.conversation_view.render_count - renders,
            }
        ),
        flush=True,
    )
    window.close()
    app.quit()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tokens", type=int, default=512)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--model", default=None, help="GGUF file (default: the starter, SmolLM2-135M)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--app-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    from parley.engine.modelfiles.defaults import default_chat_model_path

    model = args.model or str(default_chat_model_path())
    if args.app_child:
        return app_child(model, args.tokens, args.threads)
    from parley.config.settings import default_system_prompt

    rounds = []
    with tempfile.TemporaryDirectory(prefix="parley-bench-window-") as tmp:
        for number in range(1, args.rounds + 1):
            # a data folder per round: the app opens the last conversation at start, and a
            # reply after the earlier rounds' replies (thousands of tokens of context) is slower
            env = {**os.environ, "PARLEY_DATA_DIR": f"{tmp}/data{number}", "PARLEY_CONFIG_DIR": f"{tmp}/config"}
            env["PYTHONPATH"] = str(REPO)
            cli = cli_round(model, args.tokens, args.threads, default_system_prompt(), env)
            app = app_round(model, args.tokens, args.threads, env)
            if cli["tokens"] != app["tokens"]:
                raise RuntimeError(f"round {number}: the CLI generated {cli['tokens']} tokens, the app {app['tokens']}")
            ratio = app["gen_tps"] / cli["gen_tps"]
            rounds.append({"cli": cli, "app": app, "ratio": ratio})
            print(
                f"round {number}: CLI {cli['gen_tps']:.1f} tok/s, app {app['gen_tps']:.1f} tok/s "
                f"({app['tokens']} tokens): ratio {ratio:.3f}; the app's UI thread {app['ui_cpu_s']:.2f} s "
                f"({100 * (app['ui_share'] or 0):.1f}% of the generation time), {app['renders']} renders",
                flush=True,
            )
    ratios = [r["ratio"] for r in rounds]
    result = {
        "load_average": os.getloadavg(),
        "cpus": os.cpu_count(),
        "threads": args.threads,
        "tokens": args.tokens,
        "rounds": rounds,
        "median_ratio": statistics.median(ratios),
        "ratio_of_medians": statistics.median(r["app"]["gen_tps"] for r in rounds)
        / statistics.median(r["cli"]["gen_tps"] for r in rounds),
    }
    print(
        f"\napp / CLI generation speed: median of the round ratios {result['median_ratio']:.3f} "
        f"(rounds {min(ratios):.3f} to {max(ratios):.3f}); ratio of the medians {result['ratio_of_medians']:.3f}; "
        f"{result['cpus']} CPUs, {args.threads} threads, load average {result['load_average'][0]:.2f}"
    )
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
