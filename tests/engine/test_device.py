"""The GPU code paths on a real device: ``pytest tests/engine/test_device.py --device-under-test NAME``.

CI has no GPU, so without the option these tests are deselected.  On this machine Mesa's
lavapipe runs them as a Vulkan device (``GGML_VK_VISIBLE_DEVICES=0`` with a ``PARLEY_VULKAN=1``
build in ``PARLEY_LIB_DIR``); the GPU machine runs them with ``CUDA0``.  Each test checks that
the work ran on the device (no silent CPU fallback) and gives the CPU's result.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from parley.engine import speech
from parley.engine.audio.files import load_audio
from parley.engine.backend import auto_choice
from parley.engine.backend.devices import DeviceChoice, list_devices, select_device
from parley.engine.backend.threads import default_threads
from parley.engine.chat import model as chat_model
from parley.engine.chat.model import ChatModel, ChatSession, SamplingParams
from parley.engine.modelfiles.defaults import default_chat_model_path, default_speech_model_path
from parley.engine.speech import SpeechModel

pytestmark = pytest.mark.device
REPO = Path(__file__).resolve().parents[2]
CLIP = REPO / "parley" / "resources" / "selftest" / "question.wav"


@pytest.fixture(scope="module")
def device(request: pytest.FixtureRequest) -> str:
    return request.config.getoption("--device-under-test")


def test_the_device_is_listed_as_a_gpu_with_its_memory(device: str) -> None:
    listed = {d.name: d for d in list_devices()}
    assert device in listed, f"{device} not in {list(listed)}"
    assert listed[device].is_gpu
    assert listed[device].memory_total > 0
    assert select_device(device).device.name == device


def test_speech_on_the_device_equals_the_cpu(device: str) -> None:
    audio = load_audio(CLIP)
    texts = {}
    for name in ("CPU", device):
        with SpeechModel(default_speech_model_path(), device=name, threads=2) as model:
            assert model.device.device.name == name and model.device.fallback_reason is None
            texts[name] = model.transcribe(audio).text.strip()
    assert texts[device] == texts["CPU"] == "What is the capital of France?"


def test_chat_offloads_every_layer_and_agrees_with_the_cpu_on_the_first_token(device: str) -> None:
    params = SamplingParams(temperature=0, max_tokens=1)
    replies = {}
    for name in ("CPU", device):
        with ChatModel(default_chat_model_path(), device=name, n_ctx=512, threads=2) as model:
            assert model.device.device.name == name and model.device.fallback_reason is None
            replies[name] = ChatSession(model).reply("What is the capital of France?", params).text
    assert replies[device] and replies[device] == replies["CPU"]


def test_a_longer_reply_on_the_device_streams_to_the_end(device: str) -> None:
    pieces: list[str] = []
    with ChatModel(default_chat_model_path(), device=device, n_ctx=512, threads=2) as model:
        reply = ChatSession(model).reply(
            "Name three colours.", SamplingParams(temperature=0, max_tokens=24), on_text=pieces.append
        )
    assert reply.finish in ("eog", "max_tokens") and reply.stats.generated_tokens > 0
    assert "".join(pieces) == reply.text and reply.text.strip()


def test_the_cli_transcribes_on_the_device(device: str, tmp_path: Path) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "QT_QPA_PLATFORM": "offscreen",
        "PARLEY_DATA_DIR": str(tmp_path / "data"),
        "PARLEY_CONFIG_DIR": str(tmp_path / "config"),
    }
    done = subprocess.run(
        [sys.executable, "-m", "parley", "transcribe", "--device", device, str(CLIP)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "What is the capital of France?"
    assert "using the CPU" not in done.stderr


def test_auto_measures_the_device_against_the_cpu_for_each_engine(
    device: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Auto's real trial on this device, with the engines' own measurements: on a software
    driver such as lavapipe the CPU must win; on a real GPU the faster one measured is used."""
    models = {"chat": default_chat_model_path(), "speech": default_speech_model_path()}
    trials = {"chat": chat_model.device_trial, "speech": speech.device_trial}
    monkeypatch.setenv("PARLEY_CACHE_DIR", str(tmp_path))
    gpu = {d.name: d for d in list_devices()}[device]
    threads = default_threads()
    for engine, path in models.items():
        chosen = auto_choice.settle(engine, path, DeviceChoice(gpu, "auto"), threads, trials[engine](path, threads))
        [row] = [r for r in auto_choice.known_trials() if r["engine"] == engine]
        print(f"{engine} ({threads} threads): {chosen.device.name} — {chosen.note}")
        assert chosen.device.name == row["winner"] and chosen.note
        if gpu.software:
            assert chosen.device.kind == "cpu", f"{device} is a software renderer: {chosen.note}"
