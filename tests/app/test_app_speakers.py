"""Talking with Parley on laptop speakers, simulated with real parts: PulseAudio loops what the
app plays back into the virtual microphone (``speakers_heard_by_microphone``: about 85 ms
later, at -18 dB, and as loud as it was played), the app reads its reply aloud with the
natural voice, and hands-free listens through the echo canceller.  Parley must not take its
own voice for the user's, and the user must be able to talk over it.
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from parley.app.voice.spoken_replies import SpokenReplies
from parley.engine.textmetrics import word_error_rate
from parley.engine.voice.voices import unavailable as voice_unavailable
from tests.support.app_helpers import QUESTION, make_controller, question_clip  # noqa: F401 - fixtures
from tests.support.pulse import speakers_heard_by_microphone
from tests.support.requirements import require

pytestmark = [pytest.mark.slow, pytest.mark.pulseaudio]

STORY = "Tell me a long story about a lighthouse keeper and his cat."
LEVELS = [0.5, 1.0]  # PulseAudio volume of the echo: -18 dB, and 0 dB (speakers turned up)


def user_messages(controller: Any) -> list[str]:
    """The user's messages, with those heard but still waiting for the reply being stopped (so a
    failure names the words Parley took for the user's, however soon after the stop it is seen)."""
    sent = [m.content for m in controller.book.current.messages if m.role == "user"] if controller.book.current else []
    return sent + controller.replies.queued


def talking_controller(qtbot: Any, tmp_path: Path) -> Any:
    require(voice_unavailable() is None, f"the natural voice: {voice_unavailable()}")
    controller = make_controller(
        qtbot,
        tmp_path,
        read_aloud="from settings",
        microphone="pulse",
        hands_free=True,
        read_replies_aloud=True,
        max_tokens=90,
        temperature=0.0,  # the same reply, as long, every run
        threads=2,
    )
    qtbot.waitUntil(lambda: controller.hands_free.listening, timeout=30_000)
    return controller


@pytest.mark.parametrize("level", LEVELS)
def test_parley_speaking_alone_never_takes_its_own_voice_for_the_user(qtbot, tmp_path, mic, level) -> None:
    with speakers_heard_by_microphone(level=level):
        controller = talking_controller(qtbot, tmp_path)
        pauses: list[float] = []
        controller.hands_free.speech_started.connect(lambda: pauses.append(time.monotonic()))
        controller.replies.send(STORY)
        qtbot.waitUntil(lambda: controller.spoken.speaking, timeout=60_000)
        began = time.monotonic()
        qtbot.waitUntil(lambda: not controller.spoken.speaking, timeout=180_000)
        spoke_s = time.monotonic() - began
        print(f"echo at {level}: Parley spoke for {spoke_s:.1f} s, paused for a check {len(pauses)} times")
        assert user_messages(controller) == [STORY], "Parley took its own voice for the user's"
        assert controller.book.current.messages[-1].state == "complete", "Parley's own voice stopped its reply"
        assert spoke_s >= 10, "the reply was too short to show anything"


def test_speakers_that_run_dry_do_not_make_parley_take_its_own_voice_for_the_user(
    qtbot, tmp_path, mic, monkeypatch
) -> None:
    """A loaded machine, made on purpose: the player's thread is 0.3 s late every second of
    playing, so the output device runs dry and the echo comes later than the reference says,
    each time by more.  AEC3 loses the echo until it finds the new delay; the canceller is told
    (``output_interrupted``) and the guard waits for it to converge again.  Without that, the
    guard trusted the old convergence and a word of Parley's echo became a message, as under a
    CPU hog (3 runs of 8) and in CI."""
    reference, ran_dry = SpokenReplies._echo_reference, SpokenReplies._speakers_ran_dry
    blocks, underflows = itertools.count(1), itertools.count(1)
    counted: list[int] = []

    def late_player(self: SpokenReplies, block: Any, rate: int) -> None:
        reference(self, block, rate)
        if next(blocks) % 50 == 0:
            time.sleep(0.3)

    def counting(self: SpokenReplies) -> None:
        counted.append(next(underflows))
        ran_dry(self)

    monkeypatch.setattr(SpokenReplies, "_echo_reference", late_player)
    monkeypatch.setattr(SpokenReplies, "_speakers_ran_dry", counting)
    with speakers_heard_by_microphone(level=0.5):
        controller = talking_controller(qtbot, tmp_path)
        controller.replies.send(STORY)
        qtbot.waitUntil(lambda: controller.spoken.speaking, timeout=60_000)
        qtbot.waitUntil(lambda: not controller.spoken.speaking, timeout=180_000)
        print(f"the speakers ran dry {len(counted)} times")
        assert len(counted) >= 5, "the player's thread was late but the device did not run dry"
        assert user_messages(controller) == [STORY], "Parley took its own voice for the user's"
        assert controller.book.current.messages[-1].state == "complete", "Parley's own voice stopped its reply"


ECHO_AS_LOUD_AS_THE_USER = pytest.param(
    1.0,
    marks=pytest.mark.xfail(
        strict=False,
        reason="known: with the speakers as loud at the microphone as the user's voice (0 dB), a question "
        "over Parley is heard late and cut short in 2 runs of 3 (README, hands-free on speakers)",
    ),
    id="1.0",
)


@pytest.mark.parametrize("level", [0.5, ECHO_AS_LOUD_AS_THE_USER])
def test_the_user_talking_over_parley_interrupts_it_and_is_heard(qtbot, tmp_path, mic, question_clip, level) -> None:
    with speakers_heard_by_microphone(level=level):
        controller = talking_controller(qtbot, tmp_path)
        controller.replies.send(STORY)
        qtbot.waitUntil(lambda: controller.spoken.speaking, timeout=60_000)
        qtbot.wait(4000)  # the canceller learns the room while Parley speaks
        assert controller.spoken.speaking
        player = mic.play(question_clip, wait=False)
        started = time.monotonic()
        qtbot.waitUntil(lambda: controller.spoken.checking or not controller.spoken.speaking, timeout=10_000)
        silenced = time.monotonic() - started
        qtbot.waitUntil(lambda: not controller.spoken.speaking, timeout=20_000)
        stopped = time.monotonic() - started
        qtbot.waitUntil(lambda: player.poll() is not None, timeout=30_000)
        qtbot.waitUntil(lambda: len(user_messages(controller)) == 2, timeout=60_000)
        asked = user_messages(controller)[1]
        print(f"echo at {level}: silent {silenced:.2f} s and stopped {stopped:.2f} s after the clip began; {asked!r}")
        assert word_error_rate(QUESTION, asked) < 0.35, asked


def test_the_talk_key_stops_parley_speaking(qtbot, tmp_path, mic) -> None:
    with speakers_heard_by_microphone():
        controller = talking_controller(qtbot, tmp_path)
        controller.replies.send(STORY)
        qtbot.waitUntil(lambda: controller.spoken.speaking, timeout=60_000)
        qtbot.wait(1000)
        qtbot.keyPress(controller.window, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: not controller.spoken.speaking, timeout=2_000)
        qtbot.keyRelease(controller.window, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: not controller.hands_free.listening, timeout=2_000)  # the talk key ends hands-free
        assert user_messages(controller) == [STORY]
