"""Settings > Desktop, "Let other apps on this computer use Parley's models": the server inside
the real app, on the models it loaded, while the window keeps working; its embeddings come from
the embedding model chosen there (all-MiniLM-L6-v2, the real one) or else from the chat model."""

from __future__ import annotations

import dataclasses
import importlib.util
import logging
import threading
from pathlib import Path
from typing import Any

import openai
import pytest

from parley.config.settings import load_settings
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
from tests.support.requirements import require

MINILM = "all-minilm-l6-v2"


def test_other_apps_are_served_while_the_window_answers(
    qtbot: Any,
    tmp_path: Path,
    tiny_chat_model: Path,
    question_clip: Path,  # noqa: F811
) -> None:
    controller = make_controller(
        qtbot, tmp_path, serve_other_apps=True, serve_port=0, **tiny_settings(tiny_chat_model, max_tokens=4000)
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

    caller = threading.Thread(target=other_app)

    def call_while_streaming(_piece: str) -> None:
        # From the reply's own signal: the tiny model writes its whole reply in well under a
        # second, faster than a poll would see it streaming.
        if not caller.is_alive() and caller.ident is None and len(controller.replies.text) >= 20:
            caller.start()

    controller.replies.progress.connect(call_while_streaming)
    assert controller.replies.send("Hello from the window")
    qtbot.waitUntil(lambda: caller.ident is not None, timeout=REPLY_TIMEOUT_MS)
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


def test_the_embedding_model_chosen_in_settings_answers_other_apps_embeddings(
    qtbot: Any, tmp_path: Path, tiny_chat_model: Path
) -> None:
    """Issue 31: /v1/embeddings gives the chat model's own vectors (the tiny model's 64
    dimensions) until Settings > Desktop chooses an embedding model; then all-MiniLM-L6-v2's
    384, from the same running app, and the choice is saved."""
    require(
        importlib.util.find_spec("all_minilm_l6_v2") is not None,
        f"the embedding model is not installed (`parley models install {MINILM}`)",
    )
    controller = make_controller(qtbot, tmp_path, serve_other_apps=True, serve_port=0, **tiny_settings(tiny_chat_model))
    server = controller.local_server
    qtbot.waitUntil(lambda: server.address is not None, timeout=LOAD_TIMEOUT_MS)

    def embed() -> tuple[str, int]:
        assert server.address is not None
        client = openai.OpenAI(base_url=server.address, api_key="unused", max_retries=0, timeout=120)
        answer = client.embeddings.create(model="any", input=["The cat sat on the mat.", "A dog ran in the park."])
        assert len(answer.data) == 2 and len({len(d.embedding) for d in answer.data}) == 1
        return answer.model, len(answer.data[0].embedding)

    assert embed() == (tiny_chat_model.stem, 64)

    controller.open_settings()
    dialog = controller.settings_flow.dialog
    assert dialog is not None
    choice = dialog.serve_embedding_model
    assert choice.currentData() == "" and "weaker" in choice.currentText()
    index = choice.findData(MINILM)
    assert choice.itemText(index) == "all-MiniLM-L6-v2 (384 dimensions)"  # installed: no install hint
    choice.setCurrentIndex(index)
    dialog.accept()
    assert controller.settings.serve_embedding_model == MINILM
    assert load_settings(tmp_path / "settings.json").settings.serve_embedding_model == MINILM
    qtbot.waitUntil(lambda: server.address is not None, timeout=LOAD_TIMEOUT_MS)  # restarted with it
    assert embed() == ("all-MiniLM-L6-v2", 384)

    # No embedding model: the chat model's own again.
    controller.settings_flow.update(lambda s: setattr(s, "serve_embedding_model", ""))
    qtbot.waitUntil(lambda: server.address is not None, timeout=LOAD_TIMEOUT_MS)
    assert embed() == (tiny_chat_model.stem, 64)

    # A file that is not there cannot be chosen; the dialog says why.
    missing = dataclasses.replace(controller.settings, serve_embedding_model=str(tmp_path / "none.gguf"))
    problem = controller.settings_flow.validate(missing)
    assert problem == f"The embedding model {tmp_path / 'none.gguf'} cannot be used: the file does not exist."


def test_an_embedding_model_that_cannot_load_leaves_the_server_to_the_chat_models(
    qtbot: Any, tmp_path: Path, tiny_chat_model: Path, caplog: Any
) -> None:
    """The embedding model chosen is gone (removed after it was chosen; here a path that never
    was): the app's server still starts, other apps chat and get the chat model's embeddings,
    and the window says why, once."""
    caplog.set_level(logging.INFO, logger="parley.status")
    gone = tmp_path / "gone.gguf"
    controller = make_controller(
        qtbot,
        tmp_path,
        serve_other_apps=True,
        serve_port=0,
        serve_embedding_model=str(gone),
        **tiny_settings(tiny_chat_model),
    )
    server = controller.local_server
    qtbot.waitUntil(lambda: server.address is not None, timeout=LOAD_TIMEOUT_MS)
    client = openai.OpenAI(base_url=server.address, api_key="unused", max_retries=0, timeout=120)
    answer = client.embeddings.create(model="any", input=["The cat sat on the mat."])
    assert (answer.model, len(answer.data[0].embedding)) == (tiny_chat_model.stem, 64)
    reply = client.chat.completions.create(model="any", messages=[{"role": "user", "content": "Hi"}], max_tokens=8)
    assert reply.choices[0].message.content
    qtbot.wait(200)  # a second notice, if any, would come with the next change of the server's state
    notices = [
        r.getMessage() for r in caplog.records if r.getMessage().startswith("notice:") and "could not" in r.getMessage()
    ]
    assert len(notices) == 1 and str(gone) in notices[0] and "from the chat model" in notices[0], notices
