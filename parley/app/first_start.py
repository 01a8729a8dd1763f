"""The first start: a page in the main window from the starter models to one that knows things.

Shown at start until the user dismisses it or picks a model (``Settings.first_start_done``), and
on request later (the Models menu, the Model library).  Its work runs on a thread of its own (an
``EngineWorker`` named first-start), never on the UI thread:

1. a look at this machine, the starters, the catalog and the downloads already here (a download
   stopped earlier, also in an earlier run, is offered as Resume);
2. the starter's speed, measured once per machine (``choice.measure``: a few seconds of
   generation, remembered for Parley's own choice of model too) unless it was measured before;
   with it, the tokens per second each recommended model is expected to give here;
3. a download, through the Model library's worker (``ModelLibrary``: progress, cancel, resume
   from the part kept, SHA-256 check); Pause cancels it and keeps the part; once the file is
   checked, the settings switch to it (and the engines load it, as after Settings).

The measuring waits for the app's own chat model to be loaded (``model_ready``) and for a
moment when the user is doing nothing Parley works on (``idle``), so that it never slows the
start or a question.

Without a network the page says so once and the starters keep working.  A machine where no
recommended model fits is told that the starter is what fits.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QTimer

from parley.engine import library
from parley.engine.chat.speed import ModelSpeed
from parley.engine.errors import Cancelled, ParleyError
from parley.engine.library.builtin import BuiltinModel
from parley.engine.library.recommend import (
    MIN_TOKENS_PER_S,
    SPOKEN_FIRST_SOUND_S,
    Machine,
    Recommendation,
    as_model_speed,
    recommend_chat,
    recommend_speech,
    stored_anchor,
    this_machine,
)

from ..config.settings import Settings
from .model_library import LINGERING, ModelLibrary
from .settings_flow import SettingsFlow
from .tasks import EngineWorker, Job
from .ui.first_start_page import FirstStartPage, progress_line
from .ui.i18n import number, percent, size, translate
from .ui.main_window import MainWindow

log = logging.getLogger("parley.first_start")
SHUTDOWN_S = 0.3  # of the 2 s the window has to close
IDLE_RETRY_MS = 1000  # the measuring waits for an idle moment, looking again this often


@dataclass(frozen=True)
class Survey:
    """What the page shows, gathered off the UI thread."""

    machine: Machine
    starters: list[BuiltinModel]
    chat: list[Recommendation]
    speech: list[Recommendation]
    downloaded: dict[str, Path]  # catalog id -> the checked file
    stopped: dict[str, float]  # catalog id -> share of a download stopped earlier
    speed: ModelSpeed | None  # the largest model's measured on this machine (None: none yet)
    speed_model: str = ""  # which model ``speed`` was measured on ("": the starter)


def survey(n_ctx: int, device: str, threads: int | None, speed: ModelSpeed | None = None) -> Survey:
    """On the first-start worker: the machine, the starters, the recommendations for it."""
    from parley.engine.library.builtin import builtin_models
    from parley.engine.library.records import load_records

    speed_model = ""
    if speed is None:  # the largest model measured here so far (the starter, or an installed pack)
        speed, speed_model = stored_anchor(device, threads)
    entries = library.catalog()
    machine = this_machine()
    stopped = {}
    for model_id, record in load_records().items():
        partial = Path(record.partial)
        if record.status == "partial" and partial.is_file() and record.size:
            stopped[model_id] = min(1.0, partial.stat().st_size / record.size)
    return Survey(
        machine=machine,
        starters=builtin_models(),
        chat=recommend_chat(entries, speed, n_ctx=n_ctx, device=device),
        speech=recommend_speech(entries, machine, device=device),
        downloaded={k: r.path for k, r in library.downloaded().items()},
        stopped=stopped,
        speed=speed,
        speed_model=speed_model,
    )


def measure_starter(device: str, threads: int | None, job: Job) -> ModelSpeed:
    """On the first-start worker: a few seconds of generation on the starter, remembered.
    Closing Parley cancels it inside llama.cpp's work (the job's cancel reaches the token)."""
    from parley.engine.backend.cancel import CancelToken
    from parley.engine.library import choice

    starter = next(c for c in choice.candidates() if c.id == choice.STARTER_ID)
    cancel = job.link(CancelToken())
    return as_model_speed(choice.measure(starter, device=device, threads=threads, cancel=cancel), starter.size)


def chat_note(survey: Survey) -> str:
    """Under the chat cards: why these, or that the starter is what fits."""
    free = size((survey.chat[0].fit.available if survey.chat else survey.machine.memory_free) or 0)
    least = f"{MIN_TOKENS_PER_S:.0f}"
    seconds = number(SPOKEN_FIRST_SOUND_S, 0)
    if not survey.chat:
        return translate(
            "FirstStart",
            "None of the recommended models fits in the {free} free here: the starter is what "
            "fits this computer. Settings > Model library lists every model with the memory it needs.",
        ).format(free=free)
    if all(r.quick_to_speak is False for r in survey.chat):
        return translate(
            "FirstStart",
            "These fit in the {free} free here, but none is expected to be quick to speak on this "
            "processor (the first word within {seconds} s, then at least {least} tokens/s): they are "
            "the soonest to speak, and answer typed questions far better than the starter.",
        ).format(free=free, least=least, seconds=seconds)
    if survey.speed:
        return translate(
            "FirstStart",
            "These fit in the {free} free here, the first ones quick to speak (the first word within "
            "{seconds} s, then at least {least} tokens/s); the first answers best.",
        ).format(free=free, least=least, seconds=seconds)
    return translate("FirstStart", "These fit in the {free} free here; the first answers best.").format(free=free)


class FirstStart(QObject):
    """The page's work; ``window`` shows the page, ``flow`` holds the settings it changes (the
    model picked; ``first_start_done`` once the user dismissed the page or picked a model)."""

    def __init__(
        self, window: MainWindow, flow: SettingsFlow, idle: Callable[[], bool], parent: QObject | None = None
    ) -> None:
        """``idle``: whether the user is doing nothing Parley works on (no take, reply or job)."""
        super().__init__(parent)
        self._window, self._flow, self._idle = window, flow, idle
        self._idle_timer = QTimer(self, singleShot=True, interval=IDLE_RETRY_MS)
        self._idle_timer.timeout.connect(self._measure)
        self.page: FirstStartPage | None = None
        self.survey: Survey | None = None
        self._worker: EngineWorker | None = None
        self._models: ModelLibrary | None = None
        self._downloading: library.CatalogEntry | None = None
        self._told_offline = False
        self._measure_when_ready = False  # the starter's speed is wanted once the app's model is loaded
        self._app_model_ready = False
        self._closed = False  # Parley is closing: what the worker still reports is dropped

    def _settings(self) -> Settings:
        return self._flow.value

    def start(self) -> None:
        """At start: the page, unless the user dismissed it or picked a model before."""
        if not self._settings().first_start_done:
            self.show()

    def show(self) -> None:
        """Show the page (made on first use) and look at the machine again in the background."""
        if self.page is None:
            self.page = FirstStartPage()
            self.page.download_requested.connect(self.download)
            self.page.pause_requested.connect(self.pause)
            self.page.use_requested.connect(self._use_entry)
            self.page.dismissed.connect(self.dismiss)
            self._submit(self._survey_job(), self._surveyed, "survey")
        self._window.show_page(self.page)

    def dismiss(self) -> None:
        self._window.show_conversation()
        self._remember_done()

    def _remember_done(self) -> None:
        if not self._settings().first_start_done:
            self._flow.update(lambda s: setattr(s, "first_start_done", True))

    # ------------------------------------------------------------------ the survey and the speed

    def _survey_job(self, speed: ModelSpeed | None = None) -> Callable[[Job], Survey]:
        s = self._settings()
        return lambda _job: survey(s.context_length, s.device, s.threads or None, speed)

    def _submit(self, fn: Callable[[Job], object], on_done: Callable[[object], None], name: str) -> None:
        if self._worker is None:
            self._worker = EngineWorker("first-start", self)
        self._worker.submit(fn, on_done=on_done, on_error=lambda exc: self._failed(name, exc), name=name)

    def _failed(self, what: str, exc: BaseException) -> None:
        if self._closed or isinstance(exc, Cancelled):
            return
        if not isinstance(exc, ParleyError):
            log.error("first start: %s failed: %r", what, exc)
        if self.page is not None:
            if what == "measure":
                self.page.show_speed(self.tr("Speed: could not be measured ({problem}).").format(problem=exc))
            else:
                self.page.say(self.tr("Parley could not look at this computer: {problem}").format(problem=exc))

    def _surveyed(self, result: object) -> None:
        assert isinstance(result, Survey)
        if self._closed:
            return
        first = self.survey is None
        self.survey = result
        page = self.page
        if page is None:
            return
        if first:
            page.show_starters(result.starters)
            page.show_machine(result.machine)
        page.show_recommendations(result.chat, result.speech, chat_note(result))
        for rec in [*result.chat, *result.speech]:
            self._show_state(rec.entry.id)
        if result.speed is None:
            self._measure_when_ready = True
            self._measure()
        else:
            page.show_speed(
                self.tr(
                    "Speed: {model} generates {speed} tokens/s here (measured on {device}); "
                    "the models below are expected at the speed shown."
                ).format(
                    model=result.speed_model or self.tr("the starter"),
                    speed=number(result.speed.gen_tps, 0),
                    device=result.speed.device,
                )
            )

    def _measure(self) -> None:
        """Measure the starter once the app's own chat model is loaded and the user idle."""
        if not (self._measure_when_ready and self._app_model_ready) or self._closed:
            return
        if not self._idle():
            self._idle_timer.start()
            return
        self._measure_when_ready = False
        s = self._settings()
        self._submit(lambda job: measure_starter(s.device, s.threads or None, job), self._measured, "measure")

    def _measured(self, result: object) -> None:
        assert isinstance(result, ModelSpeed)
        if self._closed:
            return
        self._submit(self._survey_job(result), self._surveyed, "survey")

    def _show_state(self, model_id: str) -> None:
        """A card's button and line from what is known of its file."""
        page, found = self.page, self.survey
        if page is None or found is None:
            return
        if self._downloading is not None and self._downloading.id == model_id:
            page.set_card(model_id, "pause", self.tr("Starting…"), 0.0)
        elif model_id in found.downloaded:
            page.set_card(model_id, "use", self.tr("Downloaded and checked."))
        elif model_id in found.stopped:
            share = found.stopped[model_id]
            said = self.tr("Paused at {percent}; Resume continues from there.").format(percent=percent(share))
            page.set_card(model_id, "resume", said, share)
        else:
            page.set_card(model_id, "download")
        page.enable_downloads(self._downloading is None)

    # ------------------------------------------------------------------ downloads

    def _library(self) -> ModelLibrary:
        if self._models is None:
            self._models = ModelLibrary(self)
            self._models.progress.connect(self._progress)
            self._models.downloaded.connect(self._downloaded)
            self._models.download_failed.connect(self._download_failed)
        return self._models

    def download(self, entry: library.CatalogEntry) -> None:
        models = self._library()
        if models.downloading:
            return
        self._downloading = entry
        models.download(entry)
        self._show_state(entry.id)

    def pause(self) -> None:
        if self._models is not None:
            self._models.cancel_download()

    def _progress(self, p: library.Progress) -> None:
        if not self._closed and self.page is not None and self._downloading is not None:
            self.page.set_card(self._downloading.id, "pause", progress_line(p), p.fraction)

    def _downloaded(self, path: Path) -> None:
        entry, self._downloading = self._downloading, None
        if entry is None or self.survey is None or self._closed:
            return
        self.survey.downloaded[entry.id] = path
        self.survey.stopped.pop(entry.id, None)
        self._use(entry, path)

    def _download_failed(self, problem: str, cancelled: bool, offline: bool) -> None:
        entry, self._downloading = self._downloading, None
        if entry is None or self.page is None or self.survey is None or self._closed:
            return
        if offline and not self._told_offline:
            self._told_offline = True
            self.page.say(
                self.tr(
                    "{problem} Without a network the starter models keep working; Resume when you are online."
                ).format(problem=problem)
            )
        self._refresh_stopped(entry)
        share = self.survey.stopped.get(entry.id)
        if cancelled:
            line = (
                self.tr("Paused at {percent}; Resume continues from there, also after a restart.").format(
                    percent=percent(share)
                )
                if share
                else self.tr("Paused.")
            )
        else:
            line = self.tr("No network.") if offline else problem
        action = "resume" if share else "download"
        self.page.set_card(entry.id, action, line, share)
        self.page.enable_downloads(True)

    def _refresh_stopped(self, entry: library.CatalogEntry) -> None:
        """How much of ``entry`` is kept after a stop (its record, written by the download)."""
        from parley.engine.library.records import load_records

        assert self.survey is not None
        record = load_records().get(entry.id)
        partial = Path(record.partial) if record is not None else None
        if record is not None and partial is not None and partial.is_file() and record.size:
            self.survey.stopped[entry.id] = min(1.0, partial.stat().st_size / record.size)
        else:
            self.survey.stopped.pop(entry.id, None)

    def _use_entry(self, entry: library.CatalogEntry) -> None:
        if self.survey is not None and entry.id in self.survey.downloaded:
            self._use(entry, self.survey.downloaded[entry.id])

    def _use(self, entry: library.CatalogEntry, path: Path) -> None:
        """Switch the settings to ``path`` (the engines then load it) and remember the choice."""
        if self.page is not None:
            self.page.set_card(
                entry.id, "none", self.tr("Checked. Parley now uses {model}; it is loading…").format(model=entry.name)
            )
            self.page.enable_downloads(True)

        def switch(s: Settings) -> None:
            setattr(s, f"{entry.kind}_model", str(path))
            s.remember_model(entry.kind, str(path))
            s.first_start_done = True

        self._flow.update(switch)

    def model_ready(self, model: object, kind: str) -> None:
        """The app loaded a model: once the chat model is, the measuring may begin; a card that
        waits for this model says it is in use."""
        path = str(getattr(model, "path", ""))
        if kind == "chat":
            self._app_model_ready = True
            self._measure()
        if self.page is None or self.survey is None:
            return
        for model_id, file in self.survey.downloaded.items():
            if str(file) == path:
                self.page.set_card(model_id, "none", self.tr("Parley uses it now: ask it something."))

    def shutdown(self) -> None:
        """Stop a running download (its part is kept) and the measuring, within the window's
        closing time: a thread still busy after ``SHUTDOWN_S`` is left to end on its own."""
        self._closed = True
        self._idle_timer.stop()
        if self._models is not None:
            self._models.shutdown(SHUTDOWN_S)
        if self._worker is not None:
            self._worker.cancel_all()
            if not self._worker.shutdown(timeout_s=SHUTDOWN_S):
                self._worker.setParent(None)
                LINGERING.append(self._worker)
