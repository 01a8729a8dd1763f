"""Which chat model Parley uses when the user has not chosen one: the most capable installed model
that keeps up with a spoken conversation on this machine.

The candidates are the built-in starter (SmolLM2-135M) and the installed model packs
(``packs.py``), ranked by how many questions they answer right (``bench/bench_answers.py``).
Each is measured once per machine (``chat.speed.measure_speed``: a few seconds, in the
background) and the highest-ranked one that meets both voice goals is used:

* the first token of a spoken reply within ``GOAL_FIRST_TOKEN_S``, the conversation's prefix
  already read (what the user waits for after they stop speaking);
* at least ``GOAL_TOKENS_PER_S`` generated tokens per second (the voice reads about 3 words a
  second; slower text would make it stall).

When none but the starter meets them, or nothing has been measured yet, the starter is used.  A
model the user chose (Settings, ``--model``) always wins.

Measurements are kept in the cache folder (``model-speeds.json``), keyed by the hardware (the
processor, its core count, the device and its memory, the thread count, the native build) and
the model's identity, so a new processor or GPU means measuring again.  The file is read as
untrusted: a damaged one means measuring again, never a crash.  The file also remembers the last
choice, so that a pack removed since is noticed and said (``ChatChoice.notice``).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import os
import platform
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from parley.config.paths import cache_dir

from .. import untrusted
from ..atomic import atomic_write
from ..errors import Cancelled, ModelFileError, ParleyError
from . import packs as packs_module
from .packs import Pack

log = logging.getLogger("parley.library")

GOAL_FIRST_TOKEN_S = 0.30
GOAL_TOKENS_PER_S = 8.0
MAX_TRIES = 3  # a model that did not keep up is measured again at later starts, the best kept
SPEEDS_FILE = "model-speeds.json"
MAX_SPEEDS_BYTES = 256 << 10
MAX_SPEEDS = 128  # measurements kept; the oldest go first
STARTER_ID = "starter"
DEFAULT_SETTING = "default"  # the chat model setting that leaves the choice to Parley
STARTER_SETTING = "starter"  # the chat model setting that names the starter outright
PACK_SETTING_PREFIX = "pack:"  # "pack:ID": a model pack, wherever its file is

_lock = threading.Lock()


@dataclasses.dataclass(frozen=True)
class Candidate:
    """A chat model Parley may choose by itself."""

    id: str  # "starter" or a pack id
    name: str
    rank: int  # higher answers more questions right
    size: int  # bytes of the model file
    identity: str  # stable across folders: the pack's SHA-256, the starter's package
    pack: Pack | None = None  # None for the starter

    def path(self, progress: Callable[[float], None] | None = None, cancel: Any = None) -> Path:
        """The model file, joined and checked first for a pack (which can take seconds)."""
        if self.pack is None:
            from ..modelfiles.defaults import default_chat_model_path

            return default_chat_model_path()
        return packs_module.pack_path(self.pack, progress, cancel)


@dataclasses.dataclass(frozen=True)
class Speed:
    """One measurement of a candidate on this machine (``chat.speed.ModelSpeed``'s figures)."""

    prompt_tps: float
    gen_tps: float
    turn_first_token_s: float
    device: str
    measured: str  # ISO date
    tries: int = 1  # how often it was measured here (too slow while busy: not counted); the best kept

    @property
    def keeps_up(self) -> bool:
        return self.turn_first_token_s <= GOAL_FIRST_TOKEN_S and self.gen_tps >= GOAL_TOKENS_PER_S

    def figures(self) -> str:
        return f"first token {self.turn_first_token_s:.2f} s, {self.gen_tps:.1f} tokens/s"


@dataclasses.dataclass(frozen=True)
class ChatChoice:
    candidate: Candidate | None  # None: the user chose a file of their own
    reason: str  # one sentence for Settings and `parley models`
    speeds: dict[str, Speed]  # by candidate id, measured on this machine
    unmeasured: tuple[Candidate, ...]  # candidates that could still be chosen once measured
    notice: str | None = None  # something the user should hear once (a pack gone since last time)


# --------------------------------------------------------------------------- candidates


def candidates() -> list[Candidate]:
    """The starter and every usable installed pack, by rank."""
    from ..modelfiles.defaults import CHAT_MODEL_FILE, CHAT_MODEL_PACKAGE, default_chat_model_path

    found: list[Candidate] = []
    try:
        starter = default_chat_model_path()
        found.append(
            Candidate(STARTER_ID, "SmolLM2 135M (starter)", 0, starter.stat().st_size, f"pypi:{CHAT_MODEL_PACKAGE}")
        )
    except (ModelFileError, OSError) as exc:
        log.info("the starter chat model %s is not installed (%s)", CHAT_MODEL_FILE, exc)
    for state in packs_module.installed_packs():
        pack = state.pack
        found.append(Candidate(pack.id, pack.name, pack.rank, pack.size, f"sha256:{pack.sha256}", pack))
    return sorted(found, key=lambda c: c.rank)


# --------------------------------------------------------------------------- the machine


def _processor() -> str:
    if os.path.exists("/proc/cpuinfo"):
        try:
            with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
                for line in f:
                    if line.startswith("model name"):
                        return line.partition(":")[2].strip()[:200]
        except OSError:
            pass
    return (platform.processor() or platform.machine())[:200]


def hardware_key(device: str, threads: int | None) -> str:
    """What a measurement depends on besides the model: processor, cores, the device that
    ``device`` (a policy) selects and its memory, the threads, the native build."""
    from ..backend import native
    from ..backend.devices import select_device
    from ..backend.threads import default_threads

    choice = select_device(device)
    fields = [
        _processor(),
        os.cpu_count() or 0,
        choice.device.backend,
        choice.device.name,
        choice.device.description,
        choice.device.memory_total,
        threads or default_threads(),
        str(native.build_info().get("key", "?")),
    ]
    return json.dumps(fields)


# --------------------------------------------------------------------------- the stored figures


def speeds_path() -> Path:
    return cache_dir() / SPEEDS_FILE


def _load(path: Path) -> dict[str, Any]:
    """The stored document: ``{"speeds": {key: {...}}, "last": {...}}``; anything unreadable or
    malformed is left out (measured again)."""
    if not path.exists():
        return {"speeds": {}, "last": {}}
    try:
        raw = untrusted.load_json(path, max_bytes=MAX_SPEEDS_BYTES, max_depth=4)
    except ParleyError as exc:
        log.warning("model speeds not read (%s); measuring again", exc)
        return {"speeds": {}, "last": {}}
    speeds: dict[str, Speed] = {}
    raw_speeds = raw.get("speeds") if isinstance(raw, dict) else None
    for key, value in list(raw_speeds.items() if isinstance(raw_speeds, dict) else [])[:MAX_SPEEDS]:
        speed = _speed(value)
        if isinstance(key, str) and len(key) < 4096 and speed is not None:
            speeds[key] = speed
    last = raw.get("last") if isinstance(raw, dict) else None
    last = {k: v for k, v in last.items() if isinstance(v, str) and len(v) < 1024} if isinstance(last, dict) else {}
    return {"speeds": speeds, "last": last}


def _speed(value: object) -> Speed | None:
    if not isinstance(value, dict):
        return None
    numbers = [value.get(k) for k in ("prompt_tps", "gen_tps", "turn_first_token_s")]
    if not all(
        isinstance(n, (int, float)) and not isinstance(n, bool) and math.isfinite(n) and n >= 0 for n in numbers
    ):
        return None
    device, measured = value.get("device"), value.get("measured")
    if not (isinstance(device, str) and isinstance(measured, str)):
        return None
    prompt, gen, first = (float(n) for n in numbers)  # type: ignore[arg-type]
    tries = value.get("tries", 1)
    tries = tries if isinstance(tries, int) and not isinstance(tries, bool) and 0 <= tries <= 1000 else 1
    return Speed(prompt, gen, first, device[:100], measured[:32], tries)


def _save(path: Path, doc: dict[str, Any]) -> None:
    speeds = list(doc["speeds"].items())[-MAX_SPEEDS:]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_write(path, "w", encoding="utf-8") as fh:
            json.dump(
                {"speeds": {k: dataclasses.asdict(s) for k, s in speeds}, "last": doc["last"]},
                fh,
                indent=1,
            )
    except (OSError, ParleyError) as exc:  # a full disk: measured again next time
        log.warning("model speeds not saved (%s)", exc)


def _speed_key(hardware: str, candidate: Candidate) -> str:
    return json.dumps([hardware, candidate.identity])


def stored_speeds(device: str = "auto", threads: int | None = None) -> dict[str, Speed]:
    """This machine's measurements, by candidate id."""
    hardware = hardware_key(device, threads)
    stored = _load(speeds_path())["speeds"]
    return {c.id: stored[k] for c in candidates() if (k := _speed_key(hardware, c)) in stored}


def record_speed(candidate: Candidate, speed: Speed, device: str = "auto", threads: int | None = None) -> Speed:
    """Remember a measurement: the better of it and the one before (other work on the machine
    only ever slows a measurement down), with the tries counted.  Returns what is kept."""
    path = speeds_path()
    with _lock:
        doc = _load(path)
        key = _speed_key(hardware_key(device, threads), candidate)
        before = doc["speeds"].pop(key, None)
        if before is not None:
            best = max(before, speed, key=lambda s: (s.keeps_up, s.gen_tps))
            speed = dataclasses.replace(best, tries=before.tries + speed.tries)
        doc["speeds"][key] = speed
        _save(path, doc)
    return speed


# --------------------------------------------------------------------------- the choice


def choose(setting: str = DEFAULT_SETTING, *, device: str = "auto", threads: int | None = None) -> ChatChoice:
    """The chat model for ``setting`` (the chat model setting: ``default`` leaves the choice to
    Parley; anything else is the user's file and wins), with the reason in words."""
    found = candidates()
    speeds = stored_speeds(device, threads) if found else {}
    if setting not in ("", DEFAULT_SETTING):
        return ChatChoice(None, "you chose it in Settings", speeds, ())
    if not found:
        return ChatChoice(None, "no chat model is installed", speeds, ())
    # Not measured yet, or measured too slow fewer than MAX_TRIES times (perhaps while the machine
    # was busy): measured (again) before the choice is final.
    unmeasured = tuple(
        c
        for c in found
        if c.rank > 0 and (c.id not in speeds or (not speeds[c.id].keeps_up and speeds[c.id].tries < MAX_TRIES))
    )
    keeping_up = [c for c in found if c.id in speeds and speeds[c.id].keeps_up]
    starter = next((c for c in found if c.rank == 0), found[0])
    best = keeping_up[-1] if keeping_up else starter
    waiting = tuple(c for c in unmeasured if c.rank > best.rank)
    reason = _reason(best, found, speeds, waiting)
    return ChatChoice(best, reason, speeds, waiting, _notice(best, found))


def _reason(best: Candidate, found: list[Candidate], speeds: dict[str, Speed], waiting: tuple[Candidate, ...]) -> str:
    goals = f"first token within {GOAL_FIRST_TOKEN_S:.2f} s and at least {GOAL_TOKENS_PER_S:.0f} tokens/s"
    if len(found) == 1:
        return "the only chat model installed (`parley models install` adds more capable ones)"
    if waiting:
        names = ", ".join(c.name for c in waiting)
        again = " again" if all(c.id in speeds for c in waiting) else ""
        return f"until {names} {'is' if len(waiting) == 1 else 'are'} measured{again} on this machine"
    better = [c for c in found if c.rank > best.rank]
    if not better:
        return f"the most capable model installed, and it keeps up with speech here ({speeds[best.id].figures()})"
    slow = "; ".join(f"{c.name}: {speeds[c.id].figures()}" for c in better if c.id in speeds)
    which = "the most capable model that keeps up" if best.id in speeds else "the starter, since none keeps up"
    return f"{which} with speech here ({goals}); too slow here: {slow}"


def _notice(best: Candidate, found: list[Candidate]) -> str | None:
    """A line to show once when the model chosen last time is no longer installed."""
    path = speeds_path()
    with _lock:
        doc = _load(path)
        last = doc["last"]
        previous_id, previous_name = last.get("id"), last.get("name")
        if previous_id == best.id:
            return None
        doc["last"] = {"id": best.id, "name": best.name}
        _save(path, doc)
    if previous_id and previous_name and all(c.id != previous_id for c in found):
        return f"{previous_name} is no longer installed, so Parley uses {best.name} instead."
    return None


def measure(
    candidate: Candidate,
    *,
    device: str = "auto",
    threads: int | None = None,
    cancel: Any = None,
    busy: bool = False,
) -> Speed:
    """Measure ``candidate`` on this machine (joining a pack first) and remember the figures.
    ``busy``: other programs kept the processor busy: figures that say the model keeps up count
    (it is only faster on a quiet machine), but a model they find too slow is not counted as
    tried, so it is measured again (a busy measurement never shuts a model out alone)."""
    from ..chat.speed import measure_speed

    path = candidate.path(cancel=cancel)
    figures = measure_speed(path, device=device, threads=threads, cancel=cancel)
    speed = Speed(
        figures.prompt_tps, figures.gen_tps, figures.turn_first_token_s, figures.device, time.strftime("%Y-%m-%d")
    )
    if busy and not speed.keeps_up:
        speed = dataclasses.replace(speed, tries=0)
    log.info("%s on this machine: %s, prompt %.0f tokens/s", candidate.name, speed.figures(), speed.prompt_tps)
    return record_speed(candidate, speed, device, threads)


@dataclasses.dataclass(frozen=True)
class Resolved:
    path: Path
    name: str
    reason: str
    notice: str | None  # say this to the user once (a pack gone or unusable: the starter instead)


def resolve(
    setting: str = DEFAULT_SETTING,
    progress: Callable[[float], None] | None = None,
    cancel: Any = None,
    *,
    device: str = "auto",
    threads: int | None = None,
) -> Resolved:
    """The file of a built-in chat model: Parley's choice (``default``), the starter
    (``starter``) or a pack (``pack:ID``), a pack joined first if needed.  A pack that cannot be
    used now (removed, damaged, no room to join it) gives way to the starter, and the notice
    says so; a cancel is raised."""
    from ..modelfiles.defaults import default_chat_model_path

    starter = "SmolLM2 135M (starter)"
    notice: str | None = None
    if setting == STARTER_SETTING:
        return Resolved(default_chat_model_path(), starter, "you chose it in Settings", None)
    if setting.startswith(PACK_SETTING_PREFIX):
        pack_id = setting.removeprefix(PACK_SETTING_PREFIX)
        found = next((c for c in candidates() if c.id == pack_id and c.pack is not None), None)
        if found is None:
            notice = f"The model pack {pack_id[:64]!r} is not installed, so Parley uses the starter model instead."
            return Resolved(default_chat_model_path(), starter, notice, notice)
        candidate, reason = found, "you chose it in Settings"
    else:
        picked = choose(device=device, threads=threads)
        if picked.candidate is None:
            return Resolved(default_chat_model_path(), starter, picked.reason, picked.notice)
        candidate, reason, notice = picked.candidate, picked.reason, picked.notice
    try:
        return Resolved(candidate.path(progress, cancel), candidate.name, reason, notice)
    except Cancelled:
        raise
    except ParleyError as exc:
        if candidate.pack is None:
            raise
        gone = f"{candidate.name} cannot be used ({exc}), so Parley uses the starter model instead."
        return Resolved(default_chat_model_path(), starter, gone, gone)


def is_builtin(setting: str) -> bool:
    """Whether a chat model setting names a built-in model rather than a file."""
    return setting in ("", DEFAULT_SETTING, STARTER_SETTING) or setting.startswith(PACK_SETTING_PREFIX)


def chat_model_path(
    setting: str,
    progress: Callable[[float], None] | None = None,
    cancel: Any = None,
    *,
    device: str = "auto",
    threads: int | None = None,
) -> Path:
    """The file for a chat model setting: "default" is Parley's choice for this machine (the
    most capable installed model that keeps up with speech on ``device``, measured; the starter
    until then), "starter" and "pack:ID" name a built-in model outright (a pack joined on first
    use), anything else is a file (``modelfiles.defaults.chat_model_file``).  A pack that cannot
    be used gives way to the starter, with a warning in the log."""
    from ..modelfiles.defaults import chat_model_file

    if not is_builtin(setting):
        return chat_model_file(setting, progress, cancel)
    resolved = resolve(setting or DEFAULT_SETTING, progress, cancel, device=device, threads=threads)
    if resolved.notice:
        log.warning("%s", resolved.notice)
    return resolved.path
