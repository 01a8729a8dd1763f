"""EngineWorker: ordered jobs on one thread, results on the UI thread, cancel and shutdown."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import threading

import pytest
from PySide6.QtCore import QThread

from parley.app.tasks import EngineWorker, JobCancelled, call_in_background
from parley.engine.backend.cancel import CancelToken
from parley.engine.chat.model import ChatModel, ChatSession, SamplingParams
from tests.support.app_helpers import tiny_chat_model  # noqa: F401 - fixture


@pytest.fixture(scope="module")
def chat_model(tiny_chat_model):
    model = ChatModel(tiny_chat_model, device="cpu", n_ctx=4096, threads=1)
    yield model
    model.close()


@pytest.fixture
def worker(qtbot):
    w = EngineWorker("test")
    yield w
    w.shutdown(2.0)


def test_jobs_run_in_order_on_one_worker_thread_and_report_on_the_ui_thread(qtbot, worker):
    ran, done = [], []
    ui_thread = QThread.currentThread()

    def job(n):
        def fn(_job):
            ran.append((n, threading.current_thread().name))
            return n * 10

        return fn

    def on_done(value):
        done.append((value, QThread.currentThread() is ui_thread))

    for n in range(5):
        worker.submit(job(n), on_done=on_done)
    assert done == []  # never called back inside submit()
    qtbot.waitUntil(lambda: len(done) == 5)
    assert [n for n, _ in ran] == list(range(5))
    assert len({name for _, name in ran}) == 1 and ran[0][1] != threading.main_thread().name
    assert done == [(n * 10, True) for n in range(5)]


def test_progress_arrives_in_order_before_the_result(qtbot, worker):
    events = []

    def stream(job):
        for i in range(100):
            job.emit(i)
        return "end"

    with qtbot.waitSignal(worker.busy_changed, check_params_cb=lambda busy: not busy):
        worker.submit(stream, on_progress=events.append, on_done=events.append)
    assert events == [*range(100), "end"]


def test_errors_go_to_on_error(qtbot, worker):
    errors = []

    def boom(_job):
        raise ValueError("no model")

    worker.submit(boom, on_done=lambda _: pytest.fail("not done"), on_error=errors.append)
    qtbot.waitUntil(lambda: bool(errors))
    assert isinstance(errors[0], ValueError) and str(errors[0]) == "no model"


def test_a_call_in_the_background_answers_on_the_ui_thread_with_its_result_or_its_error(qtbot):
    ui, answers = threading.get_ident(), []
    ran_on = []

    def work(value):
        ran_on.append(threading.get_ident())
        if value is None:
            raise ValueError("no server there")
        return value

    for value in ("fine", None):
        call_in_background(lambda v=value: work(v), lambda result: answers.append((threading.get_ident(), result)), "t")
    qtbot.waitUntil(lambda: len(answers) == 2, timeout=5000)
    assert ui not in ran_on and [thread for thread, _ in answers] == [ui, ui]
    results = sorted(answers, key=lambda a: isinstance(a[1], Exception))
    assert results[0][1] == "fine"
    assert isinstance(results[1][1], ValueError) and str(results[1][1]) == "no server there"


def test_cancel_reaches_the_engine_through_a_linked_token_and_skips_queued_jobs(qtbot, worker, chat_model):
    """A reply that would run for 4000 tokens stops inside the engine when its job is cancelled."""
    outcomes, pieces = [], []

    def long_reply(job):
        token = job.link(CancelToken())
        return ChatSession(chat_model, "You are helpful.").reply(
            "Tell me everything.", SamplingParams(max_tokens=4000), on_text=job.emit, cancel=token
        )

    running = worker.submit(long_reply, on_done=outcomes.append, on_progress=pieces.append)
    queued = worker.submit(lambda _job: "ran", on_done=outcomes.append, on_error=outcomes.append)
    qtbot.waitUntil(lambda: len(pieces) >= 5, timeout=60_000)  # streaming
    running.cancel()
    queued.cancel()
    qtbot.waitUntil(lambda: len(outcomes) == 2, timeout=60_000)
    reply = outcomes[0]
    assert reply.finish == "cancelled" and 5 <= reply.stats.generated_tokens < 4000
    assert reply.text == "".join(pieces)
    assert isinstance(outcomes[1], JobCancelled)


def test_link_after_cancel_cancels_at_once():
    from parley.app.tasks import Job

    job = Job(lambda j: None, None, None, None, "j")
    job.cancel()
    assert job.link(CancelToken()).cancelled


def test_shutdown_cancels_the_running_job_runs_the_finalizer_and_delivers_late_results(qtbot, tiny_chat_model):
    worker = EngineWorker("closing")
    model = ChatModel(tiny_chat_model, device="cpu", n_ctx=4096, threads=1)
    streaming = threading.Event()
    results, finalized_on = [], []

    def generate(job):
        token = job.link(CancelToken())

        def on_text(piece):
            streaming.set()
            job.emit(piece)

        return ChatSession(model, "You are helpful.").reply(
            "Go on.", SamplingParams(max_tokens=4000), on_text=on_text, cancel=token
        )

    def finalize():
        finalized_on.append(threading.current_thread().name)
        model.close()

    worker.submit(generate, on_done=results.append, on_progress=lambda _p: None)
    assert streaming.wait(60)
    joined = worker.shutdown(2.0, finalizer=finalize)
    assert joined
    assert results and results[0].finish == "cancelled"  # delivered before shutdown() returned
    assert finalized_on and finalized_on[0] != threading.main_thread().name
    assert model.closed  # closed on the engine's own thread
    assert not worker.busy
    with pytest.raises(RuntimeError):
        worker.submit(lambda _job: None)


class _LeakyEmit:
    """What PySide6 6.12.0's ``SignalInstance.emit`` does: returns True and drops a reference to it."""

    def emit(self, *args):
        ctypes.pythonapi.Py_DecRef.argtypes = [ctypes.py_object]
        ctypes.pythonapi.Py_DecRef(True)
        return True


# From Python 3.12 on, True is immortal: a dropped reference changes nothing and its count is fixed.
TRUE_IS_IMMORTAL = sys.version_info >= (3, 12)


def test_a_leaking_emit_is_detected_and_repaired(monkeypatch):
    """PySide6 6.12.0's emit() drops a reference to True each call (see parley/app/signals.py); a
    thousand streamed tokens would then abort the interpreter on Python < 3.12.  The probe finds
    such an emit, and ``emit`` gives each lost reference back; on 3.12 and later there is nothing
    to repair, and the probe must say so (a repair there would only add references)."""
    from parley.app import signals

    leaky = _LeakyEmit()
    if TRUE_IS_IMMORTAL:
        assert signals.emit_drops_a_reference(leaky) is False and signals._REPAIR is False
        return
    assert signals.emit_drops_a_reference(leaky) is True
    assert signals.emit_drops_a_reference() is (signals._REPAIR)  # the PySide installed here
    before = sys.getrefcount(True)
    monkeypatch.setattr(signals, "_REPAIR", True)
    for _ in range(1000):
        signals.emit(leaky)
    assert sys.getrefcount(True) >= before - 50  # repaired
    monkeypatch.setattr(signals, "_REPAIR", False)
    for _ in range(100):
        signals.emit(leaky)
    lost = before - sys.getrefcount(True)
    ctypes.pythonapi.Py_IncRef.argtypes = [ctypes.py_object]
    for _ in range(max(0, lost)):  # give back what the test took
        ctypes.pythonapi.Py_IncRef(True)
    assert lost >= 90  # without the repair: lost


def test_streaming_through_a_worker_keeps_the_reference_count_of_true(qtbot, worker):
    """The same, through the worker's real signals (on this PySide, fixed or repaired)."""
    if TRUE_IS_IMMORTAL:
        pytest.skip("True is immortal from Python 3.12 on: its reference count cannot change")
    received = []
    before = sys.getrefcount(True)

    def stream(job):
        for i in range(1000):
            job.emit(i)

    with qtbot.waitSignal(worker.busy_changed, check_params_cb=lambda busy: not busy):
        worker.submit(stream, on_progress=received.append)
    assert len(received) == 1000
    assert sys.getrefcount(True) >= before - 50  # unaffected, give or take unrelated references


def test_a_worker_nobody_shut_down_does_not_abort_python_at_exit(tmp_path) -> None:
    """Interpreter teardown destroys a running QThread, which aborts the process; the tasks
    module stops such threads first.  (CI once ended 134 after a green suite for this.)"""
    script = tmp_path / "forgotten.py"
    script.write_text(
        "import time\n"
        "from PySide6.QtWidgets import QApplication\n"
        "from parley.app.tasks import EngineWorker\n"
        "app = QApplication([])\n"
        "worker = EngineWorker('forgotten')\n"
        "worker.submit(lambda job: time.sleep(0.2))\n"
        "time.sleep(0.05)\n"
        "print('leaving', flush=True)\n"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=60)
    assert done.stdout.strip() == "leaving"
    assert "Destroyed while thread" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr


def test_a_settings_dialog_whose_models_tab_is_never_shown_starts_no_threads(qtbot) -> None:
    from parley.app import tasks
    from parley.app.model_library import ModelLibrary
    from parley.app.ui.settings_dialog import SettingsDialog
    from parley.config.settings import Settings

    before = set(tasks._LIVE)
    dialog = SettingsDialog(
        Settings(),
        models=ModelLibrary(),
        validate=lambda s: None,
        compute_devices=[],
        microphones=[],
        read_aloud_problem=None,
    )
    qtbot.addWidget(dialog)
    dialog.show()
    assert set(tasks._LIVE) == before
    dialog.reject()
