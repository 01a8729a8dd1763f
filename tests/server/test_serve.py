"""``parley serve`` with real clients: the official ``openai`` package, curl, raw HTTP.

The server runs in this process on a free port (``start_server`` on models loaded here, as the
app will embed it), on the real default models and native build; one test runs the real
``parley serve`` command.  Replies are greedy, and each is compared with the same prompt run
alone in a ChatSession on the model's own context.  Waits are bounded by ``WAIT``, a limit
only a hang reaches.
"""

from __future__ import annotations

import http.client
import io
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import wave
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import openai
import pytest
import soundfile
import soxr

from parley.engine.chat.model import ChatModel, ChatSession, SamplingParams
from parley.engine.errors import InvalidSettingError
from parley.engine.modelfiles.defaults import default_chat_model_path, default_speech_model_path
from parley.engine.speech import SpeechModel, transcribe_speech
from parley.engine.textmetrics import word_error_rate
from parley.engine.voice.voices import load_voice
from parley.server import ServerHandle, ServerOptions, start_server
from tests.support.requirements import require
from tests.support.tinymodels import llama_cpp_source

REPO = Path(__file__).resolve().parents[2]
SYSTEM = "You are a helpful assistant."
QUESTIONS = ["What is the capital of France?", "Write a haiku about the sea."]
MAX_TOKENS = 24
WAIT = 120.0  # seconds: a bound that only a hang reaches


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def chat_model() -> Iterator[ChatModel]:
    model = ChatModel(default_chat_model_path(), device="cpu", n_ctx=512)
    yield model
    model.close()


@pytest.fixture(scope="module")
def speech_model() -> Iterator[SpeechModel]:
    model = SpeechModel(default_speech_model_path(), device="cpu", threads=2)
    yield model
    model.close()


@pytest.fixture(scope="module")
def alone(chat_model: ChatModel) -> list[str]:
    """Each question's greedy reply from a ChatSession, one at a time (no repeat penalty and
    top-p 1, as the API asks for)."""
    params = SamplingParams(temperature=0, top_p=1.0, repeat_penalty=1.0, max_tokens=MAX_TOKENS)
    return [ChatSession(chat_model, SYSTEM).reply(q, params).text for q in QUESTIONS]


@pytest.fixture(scope="module")
def busy_changes() -> list[bool]:
    return []


@pytest.fixture(scope="module")
def server(chat_model: ChatModel, speech_model: SpeechModel, busy_changes: list[bool]) -> Iterator[ServerHandle]:
    handle = start_server(
        chat_model,
        speech_model,
        ServerOptions(port=0, parallel=2, n_ctx=512),
        on_busy=busy_changes.append,
        voice=load_voice(threads=2),
    )
    yield handle
    handle.stop()


@pytest.fixture
def client(server: ServerHandle) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{server.address}/v1", api_key="unused", max_retries=0, timeout=WAIT)


@pytest.fixture(scope="module")
def jfk() -> Path:
    """Real human speech: whisper.cpp's sample, in the sources the native build fetched."""
    path = llama_cpp_source().parent / "whisper.cpp" / "samples" / "jfk.wav"
    require(path.is_file(), f"{path} (whisper.cpp's sample, from the native build's sources)")
    return path


def messages(question: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": question}]


def chat_body(question: str, **extra: Any) -> bytes:
    return json.dumps({"model": "m", "messages": messages(question), "temperature": 0, **extra}).encode()


def request(
    server: ServerHandle, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection(server.host, server.port, timeout=WAIT)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def error_of(body: bytes) -> dict[str, Any]:
    error: dict[str, Any] = json.loads(body)["error"]
    assert set(error) == {"message", "type", "param", "code"} and error["message"]
    return error


def wait_until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.02)


def open_stream(server: ServerHandle, body: bytes) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
    """A streaming request whose first event has arrived (so its reply is running)."""
    conn = http.client.HTTPConnection(server.host, server.port, timeout=WAIT)
    conn.request("POST", "/v1/chat/completions", body=body, headers={"Content-Type": "application/json"})
    response = conn.getresponse()
    assert response.status == 200 and response.readline().startswith(b"data: ")
    return conn, response


# --------------------------------------------------------------------------- chat


def test_models_lists_the_chat_and_speech_models(client: openai.OpenAI) -> None:
    ids = [m.id for m in client.models.list()]
    assert ids == ["SmolLM2-135M-Instruct.Q4_1", "whisper tiny.en"]


def test_whole_reply_equals_the_prompt_alone(client: openai.OpenAI, alone: list[str]) -> None:
    reply = client.chat.completions.create(
        model="any", messages=messages(QUESTIONS[0]), temperature=0, max_tokens=MAX_TOKENS
    )
    choice = reply.choices[0]
    assert choice.message.role == "assistant" and choice.message.content == alone[0]
    assert choice.finish_reason in ("stop", "length") and reply.object == "chat.completion"
    assert reply.usage is not None and reply.usage.completion_tokens > 0
    assert reply.usage.total_tokens == reply.usage.prompt_tokens + reply.usage.completion_tokens


def test_streamed_reply_with_usage(client: openai.OpenAI, alone: list[str], busy_changes: list[bool]) -> None:
    pieces, finishes, usage = [], [], None
    stream = client.chat.completions.create(
        model="any",
        messages=messages(QUESTIONS[1]),
        temperature=0,
        max_completion_tokens=MAX_TOKENS,
        stream=True,
        stream_options={"include_usage": True},
    )
    for chunk in stream:
        if chunk.usage is not None:
            usage = chunk.usage
        for choice in chunk.choices:
            pieces.append(choice.delta.content or "")
            finishes.append(choice.finish_reason)
    assert "".join(pieces) == alone[1]
    assert finishes[-1] in ("stop", "length") and set(finishes[:-1]) == {None}
    assert usage is not None and usage.completion_tokens > 0
    # The app's "a request is running": the server thread may still be closing the request
    # when the client has read the last event.
    deadline = time.monotonic() + 10
    while busy_changes[-1:] != [False] and time.monotonic() < deadline:
        time.sleep(0.01)
    assert busy_changes[-2:] == [True, False]


def test_two_clients_streaming_at_once_equal_each_alone(server: ServerHandle, alone: list[str]) -> None:
    start = threading.Barrier(2, timeout=WAIT)
    texts: dict[int, str] = {}

    def stream(i: int) -> None:
        client = openai.OpenAI(base_url=f"{server.address}/v1", api_key="unused", max_retries=0, timeout=WAIT)
        start.wait()
        chunks = client.chat.completions.create(
            model="any", messages=messages(QUESTIONS[i]), temperature=0, max_tokens=MAX_TOKENS, stream=True
        )
        texts[i] = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)

    threads = [threading.Thread(target=stream, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WAIT)
    assert texts == {0: alone[0], 1: alone[1]}


def test_a_client_that_disconnects_mid_stream_frees_its_sequence(server: ServerHandle) -> None:
    before = dict(server.replies)
    # ignore_eos: without the disconnect this reply would run to max_tokens.
    conn, _ = open_stream(server, chat_body(QUESTIONS[0], stream=True, max_tokens=400, ignore_eos=True))
    conn.close()
    wait_until(lambda: sum(server.replies.values()) > sum(before.values()), "the reply to end")
    ended = {k: v - before.get(k, 0) for k, v in server.replies.items() if v != before.get(k, 0)}
    assert ended == {"cancelled": 1}
    wait_until(lambda: not server.busy, "the server to be idle")


def test_curl_sees_server_sent_events(server: ServerHandle, alone: list[str]) -> None:
    curl = shutil.which("curl")
    require(curl, "curl (Debian package curl)")
    assert curl is not None
    out = subprocess.run(
        [curl, "-sS", "-N", "-D", "-", "-H", "Content-Type: application/json", "--data-binary", "@-"]
        + [f"{server.address}/v1/chat/completions"],
        input=chat_body(QUESTIONS[0], stream=True, max_tokens=MAX_TOKENS),
        capture_output=True,
        timeout=WAIT,
        check=True,
    ).stdout.decode()
    head, _, events = out.partition("\r\n\r\n")
    assert head.startswith("HTTP/1.1 200") and "content-type: text/event-stream" in head.lower()
    assert events.endswith("\n\n")
    blocks = events[:-2].split("\n\n")
    assert all(b.startswith("data: ") and "\n" not in b for b in blocks)
    assert blocks[-1] == "data: [DONE]"
    chunks = [json.loads(b[len("data: ") :]) for b in blocks[:-1]]
    assert {c["object"] for c in chunks} == {"chat.completion.chunk"} and len({c["id"] for c in chunks}) == 1
    assert "".join(c["choices"][0]["delta"].get("content", "") for c in chunks) == alone[0]


def test_bad_requests_get_the_right_4xx_and_the_server_keeps_serving(server: ServerHandle, tmp_path: Path) -> None:
    json_type = {"Content-Type": "application/json"}
    cases: list[tuple[bytes, dict[str, str], int, str | None]] = [
        (b'{"messages": [', json_type, 400, "invalid_json"),
        (b'{"messages": NaN}', json_type, 400, "invalid_json"),
        (b"[" * 100_000 + b"]" * 100_000, json_type, 400, "invalid_json"),
        (chat_body(QUESTIONS[0]), {"Content-Type": "text/plain"}, 415, "unsupported_media_type"),
        (chat_body(QUESTIONS[0]), {}, 415, "unsupported_media_type"),
        (b'{"model": "m"}', json_type, 400, None),
        (chat_body(QUESTIONS[0], n=2), json_type, 400, None),
        (chat_body(QUESTIONS[0], temperature="hot"), json_type, 400, None),
        (chat_body(QUESTIONS[0], max_tokens=True), json_type, 400, None),
        (chat_body(QUESTIONS[0], max_tokens=10**6), json_type, 400, "context_length_exceeded"),
        (chat_body("word " * 2000), json_type, 400, "context_length_exceeded"),
        (json.dumps({"messages": [{"role": "robot", "content": "x"}]}).encode(), json_type, 400, None),
        (b'{"messages": "' + b"x" * (5 << 20) + b'"}', json_type, 413, "request_too_large"),
    ]
    for body, headers, status, code in cases:
        got, _, answer = request(server, "POST", "/v1/chat/completions", body, headers)
        assert got == status, (body[:60], answer)
        assert error_of(answer)["code"] == code
    # A body that does not say how long it is, cut off at the limit while it streams in.
    conn = http.client.HTTPConnection(server.host, server.port, timeout=WAIT)
    conn.request(
        "POST", "/v1/chat/completions", body=iter([b"x" * (1 << 20)] * 6), headers=json_type, encode_chunked=True
    )
    response = conn.getresponse()
    assert response.status == 413 and error_of(response.read())["code"] == "request_too_large"
    conn.close()

    two_hours = tmp_path / "two-hours.wav"
    with wave.open(str(two_hours), "wb") as w:  # 8-bit mono at 1 kHz: 7.2 MB, under the upload limit
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(1000)
        w.writeframes(b"\x80" * (2 * 3600 * 1000))
    not_audio = tmp_path / "notes.wav"
    not_audio.write_bytes(os.urandom(4096))
    client = openai.OpenAI(base_url=f"{server.address}/v1", api_key="unused", max_retries=0, timeout=WAIT)
    for path, code in ((two_hours, "audio_too_long"), (not_audio, "invalid_audio")):
        with pytest.raises(openai.BadRequestError) as caught, path.open("rb") as f:
            client.audio.transcriptions.create(model="whisper-1", file=f)
        assert caught.value.status_code == 400 and caught.value.code == code
        assert str(path) not in caught.value.message  # the server's temporary name is not shown either
    got, _, answer = request(server, "POST", "/v1/audio/transcriptions", b"{}", json_type)
    assert got == 415
    got, _, answer = request(server, "POST", "/v1/audio/speech", b"{}", json_type)
    assert got == 400 and error_of(answer)["param"] == "input"
    speak = json.dumps({"model": "tts-1", "voice": "alloy", "input": "Hello.", "speed": 2}).encode()
    got, _, answer = request(server, "POST", "/v1/audio/speech", speak, json_type)
    assert got == 400 and error_of(answer)["param"] == "speed"
    speak = json.dumps({"input": "x" * 5000, "response_format": "wav"}).encode()
    got, _, answer = request(server, "POST", "/v1/audio/speech", speak, json_type)
    assert got == 400 and error_of(answer)["param"] == "input"
    got, _, answer = request(server, "GET", "/v1/nothing")
    assert got == 404 and error_of(answer)
    # Still serving.
    reply = client.chat.completions.create(model="m", messages=messages(QUESTIONS[0]), max_tokens=2)
    assert reply.choices[0].message.content


def test_requests_for_other_hosts_are_refused_on_loopback(server: ServerHandle) -> None:
    got, _, answer = request(server, "GET", "/v1/models", headers={"Host": f"attacker.example:{server.port}"})
    assert got == 400 and error_of(answer)["code"] == "invalid_host"
    assert request(server, "GET", "/v1/models", headers={"Host": f"localhost:{server.port}"})[0] == 200


def test_a_full_line_gets_503(chat_model: ChatModel) -> None:
    handle = start_server(chat_model, None, ServerOptions(port=0, parallel=1, n_ctx=512, max_queue=0))
    try:
        conn, _ = open_stream(handle, chat_body(QUESTIONS[0], stream=True, max_tokens=400, ignore_eos=True))
        got, headers, answer = request(
            handle, "POST", "/v1/chat/completions", chat_body(QUESTIONS[1]), {"Content-Type": "application/json"}
        )
        assert got == 503 and headers.get("retry-after") and error_of(answer)["code"] == "server_busy"
        conn.close()
        wait_until(lambda: not handle.busy, "the cancelled reply to end")
        assert (
            request(
                handle,
                "POST",
                "/v1/chat/completions",
                chat_body(QUESTIONS[1], max_tokens=2),
                {"Content-Type": "application/json"},
            )[0]
            == 200
        )
    finally:
        handle.stop()


def test_stop_ends_the_replies_in_progress(chat_model: ChatModel) -> None:
    changes: list[bool] = []
    handle = start_server(chat_model, None, ServerOptions(port=0, parallel=1, n_ctx=512), on_busy=changes.append)
    conn, response = open_stream(handle, chat_body(QUESTIONS[0], stream=True, max_tokens=400, ignore_eos=True))
    assert handle.busy
    handle.stop()
    events = [line for line in response.read().split(b"\n\n") if line]
    conn.close()
    assert error_of(events[-1][len(b"data: ") :])["code"] == "server_shutting_down"
    assert changes == [True, False] and not handle.busy
    with pytest.raises(OSError):
        request(handle, "GET", "/v1/models")


def test_an_api_key_is_required_off_loopback(chat_model: ChatModel) -> None:
    with pytest.raises(InvalidSettingError, match="API key"):
        start_server(chat_model, None, ServerOptions(host="0.0.0.0", port=0))
    handle = start_server(chat_model, None, ServerOptions(host="0.0.0.0", port=0, api_key="s3cret", parallel=1))
    try:
        assert handle.address.startswith("http://0.0.0.0:")
        local = ServerHandleView("127.0.0.1", handle.port)
        assert request(local, "GET", "/v1/models")[0] == 401
        got, _, answer = request(local, "GET", "/v1/models", headers={"Authorization": "Bearer wrong"})
        assert got == 401 and error_of(answer)["type"] == "authentication_error"
        behind_a_proxy = {"Authorization": "Bearer s3cret", "Host": "parley.example.lan"}
        assert request(local, "GET", "/v1/models", headers=behind_a_proxy)[0] == 200
        client = openai.OpenAI(base_url=f"http://127.0.0.1:{handle.port}/v1", api_key="s3cret", max_retries=0)
        assert client.chat.completions.create(model="m", messages=messages(QUESTIONS[0]), max_tokens=2).choices
    finally:
        handle.stop()


class ServerHandleView:
    """What ``request`` needs of a server: where to connect."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port


# --------------------------------------------------------------------------- transcription


def test_transcription_equals_parley_transcribe(client: openai.OpenAI, jfk: Path) -> None:
    cli = subprocess.run(
        [sys.executable, "-m", "parley", "transcribe", "--threads", "2", str(jfk)],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=True,
    )
    with jfk.open("rb") as f:
        served = client.audio.transcriptions.create(model="whisper-1", file=f)
    assert served.text == cli.stdout.strip() and "country" in served.text
    with jfk.with_suffix(".mp3").open("rb") as f:  # another format parley transcribe reads
        assert client.audio.transcriptions.create(model="whisper-1", file=f, response_format="text").strip()


def test_transcription_formats(client: openai.OpenAI, jfk: Path) -> None:
    def transcribe(fmt: str) -> Any:
        with jfk.open("rb") as f:
            return client.audio.transcriptions.create(
                model="whisper-1",
                file=f,
                response_format=fmt,
                language="en",
                temperature=0,  # type: ignore[call-overload]
            )

    verbose = transcribe("verbose_json")
    assert verbose.duration == pytest.approx(11.0, abs=0.1) and verbose.segments
    assert " ".join(s.text for s in verbose.segments) == verbose.text
    assert all(0 <= s.start < s.end <= verbose.duration for s in verbose.segments)
    assert transcribe("text").strip() == verbose.text
    srt, vtt = transcribe("srt"), transcribe("vtt")
    first = verbose.segments[0]
    assert srt.startswith(f"1\n00:00:{first.start:06.3f}".replace(".", ",")) and first.text in srt
    assert vtt.startswith("WEBVTT\n\n00:00:") and first.text in vtt


# --------------------------------------------------------------------------- the command


def test_parley_serve_command(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    refused = subprocess.run(
        [sys.executable, "-m", "parley", "serve", "--host", "0.0.0.0"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert refused.returncode == 2 and "API key" in refused.stderr
    # A cache folder where no model was measured: "default" is then the starter (elsewhere it
    # is the model Parley chose from this machine's measurements, e.g. an installed pack).
    fresh_cache = {**env, "PARLEY_CACHE_DIR": tempfile.mkdtemp(prefix="parley-test-cache-")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "parley", "serve", "--port", "0", "--speech-model", "none"]
        + ["--threads", "1", "--ctx", "256", "--parallel", "1"],
        cwd=REPO,
        env=fresh_cache,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        line = ""
        deadline = time.monotonic() + WAIT
        while "serving" not in line and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stderr], [], [], WAIT)
            line = proc.stderr.readline() if ready else ""
            assert line or proc.poll() is None, "parley serve ended before serving"
        assert "serving" in line and " at http://127.0.0.1:" in line, line
        base = line.split(" at ", 1)[1].split()[0]
        client = openai.OpenAI(base_url=base, api_key="unused", max_retries=0, timeout=WAIT)
        assert [m.id for m in client.models.list()] == ["SmolLM2-135M-Instruct.Q4_1"]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(WAIT) == 0
    finally:
        proc.kill()
        proc.wait(WAIT)


def test_speech_is_read_with_parleys_voice_and_heard_back(client: openai.OpenAI, speech_model: SpeechModel) -> None:
    """The openai client asks for speech (OpenAI's model and voice names); what comes back is a
    WAV file whose words whisper hears, and raw pcm at 24 kHz of the same length."""
    sentence = "The quick brown fox jumps over the lazy dog."
    wav = client.audio.speech.create(model="tts-1", voice="alloy", input=sentence, response_format="wav").content
    audio, rate = soundfile.read(io.BytesIO(wav), dtype="float32")
    assert rate > 8000 and 1.0 < len(audio) / rate < 10.0
    heard = transcribe_speech(speech_model, soxr.resample(audio, rate, 16000).astype(np.float32))
    assert heard is not None
    # The voice samples its prosody, so a word may come out unclear (tiny whisper once heard
    # "quit brown fox"); one word in nine may be missed, not more.
    assert word_error_rate(sentence, heard.text) <= 1 / 9, heard.text
    pcm = client.audio.speech.create(model="tts-1", voice="alloy", input=sentence, response_format="pcm").content
    assert len(pcm) % 2 == 0 and 1.0 < len(pcm) / 2 / 24000 < 10.0
