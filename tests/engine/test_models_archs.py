"""Every chat architecture the catalog offers loads in the pinned llama.cpp and answers.

Each test writes a tiny random-weight model of that architecture (tests/support/tinymodels.py:
the tensor names and shapes of llama.cpp's src/models/<arch>.cpp), checks it with Parley's own
GGUF checker as a downloaded file is checked, loads it on the CPU and streams a reply through
the chat template.  The weights are random, so the text is noise; what counts is that the file
loads, its graph runs (sliding-window attention, mixtures of experts, attention sinks) and the
reply streams whole.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from parley.engine import library
from parley.engine.chat.model import ChatModel, ChatSession, SamplingParams
from parley.engine.library.local_models import check_model_file
from parley.engine.modelfiles.gguf_file import read_gguf
from tests.support.tinymodels import TINY_ARCHS, write_tiny_arch_gguf


def test_every_catalog_chat_architecture_has_a_tiny_model() -> None:
    """The architectures of the shipped catalog's chat models (by family) are all covered here
    or by the older tests (llama: test_chat.py)."""
    families = {
        "qwen3-": "qwen3",
        "qwen3-30b-a3b": "qwen3moe",
        "gemma-3-": "gemma3",
        "phi-4-": "phi3",
        "smollm3-": "smollm3",
        "gpt-oss-": "gpt-oss",
    }
    chat = [e.id for e in library.catalog() if e.kind == "chat"]
    for prefix, arch in families.items():
        assert any(i.startswith(prefix) for i in chat), prefix
        assert arch in TINY_ARCHS


@pytest.mark.parametrize("arch", TINY_ARCHS)
def test_a_tiny_model_of_each_architecture_loads_and_answers(tmp_path: Path, arch: str) -> None:
    path = write_tiny_arch_gguf(tmp_path / f"{arch}.gguf", arch)
    assert read_gguf(path).get("general.architecture") == arch
    kind, problem, _ = check_model_file(path)
    assert (kind, problem) == ("chat", None)
    with ChatModel(path, device="cpu", n_ctx=256, threads=2) as model:
        assert model.prompt_format.name == "template"
        session = ChatSession(model, "Be brief.")
        pieces: list[str] = []
        params = SamplingParams(temperature=1.0, top_k=40, seed=7, max_tokens=16)
        reply = session.reply("Hello, who are you?", params, on_text=pieces.append)
        assert reply.finish == "max_tokens" and reply.stats.generated_tokens == 16
        assert reply.text and "".join(pieces) == reply.text
        follow_up = session.reply("And then?", params)  # the second turn reuses the cache
        assert follow_up.stats.cached_tokens > 0 and follow_up.stats.generated_tokens == 16
