"""Settings > Desktop, "Let other apps on this computer use Parley's models": the server inside
the real app, on the models it loaded, while the window keeps working."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import openai
import pytest

from tests.support.app_helpers import (  # noqa: F401 - fixtures
    LOAD_TIMEOUT_MS,
    REPLY_TIMEOUT_MS,
    make_controller,
    question_clip,
    stored,
    tiny_chat_model,
    tiny_settings,
    wait_idle,
)


def test_other_apps_are_served_while_the_window_answers(
    qtbot: Any,
    tmp_path: Path,
    tiny_chat_model: Path,
    question_clip: Path,  # noqa: F811
) -> None:
    controller = make_controller(
        qtbot, tmp_path, serve_other_apps=True, serve_port=0, **tiny_settings(tiny_chat_model, max_tokens=300)
    )
    server = controller.local_server
    qtbot.waitUntil(lambda: server.address is not None, timeout=LOAD_TIMEOUT_MS)
    assert controller.window.server_label.isVisible() and server.address in controller.window.server_label.toolTip()
    client = openai.OpenAI(base_url=server.address, api_key="unused", max_retries=0, timeout=120)

    answers: dict[str, Any] = {}

    def other_app() -> None:  # while the window's own reply streams
        try:
            reply = client.chat.completions.create(
                model="any", messages=[{"role": "user", "content": "A question from another app"}], max_tokens=40
            )
            answers["chat"] = reply.choices[0].message.content
            with question_clip.open("rb") as f:
                answers["heard"] = client.audio.transcriptions.create(model="whisper-1", file=f).text
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            answers["error"] = exc

    assert controller.replies.send("Hello from the window")
    qtbot.waitUntil(lambda: len(controller.replies.text) >= 20, timeout=REPLY_TIMEOUT_MS)
    caller = threading.Thread(target=other_app)
    caller.start()
    qtbot.waitUntil(lambda: not caller.is_alive(), timeout=REPLY_TIMEOUT_MS)
    wait_idle(qtbot, controller)
    assert "error" not in answers, answers.get("error")
    assert answers["chat"] and "moon" in answers["heard"].lower(), answers
    # The window's reply went on and was kept; the other app's request is in no conversation.
    assert [(role, complete) for role, _text, complete in stored(controller)] == [("user", True), ("assistant", True)]
    assert all("another app" not in text for _role, text, _complete in stored(controller))

    # The switch off: the server stops and the label goes.
    controller.settings_flow.update(lambda s: setattr(s, "serve_other_apps", False))
    assert server.address is None and not controller.window.server_label.isVisible()
    with pytest.raises(openai.APIConnectionError):
        client.models.list()
