"""``parley serve``'s embeddings: ``/v1/embeddings`` through the ``openai`` package, Ollama's
``/api/embed`` and ``/api/embeddings`` through the ``ollama`` package.

Tiny random-weight embedding models made here (BERT's encoder, mean-pooled, one named as a
Matryoshka-trained model) check what a retrieval tool relies on: one unit vector per text, in
the texts' order, the same whether a text is sent alone or among others, in float or base64;
shortened vectors where the model allows; bounds on what a request may ask.  Without an
embedding model, the chat model's weights give them.
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import ollama
import openai
import pytest

from parley.engine.chat.embeddings import Embedder
from parley.engine.chat.model import ChatModel
from parley.server import ServerHandle, ServerOptions, start_server
from tests.support.tinymodels import write_tiny_bert_gguf, write_tiny_llama_gguf

WAIT = 120.0  # seconds: a bound that only a hang reaches
TEXTS = ["The cat sat on the mat.", "A kitten rests on a rug.", "Stock markets fell sharply today.", "hello", ""]
N_EMBD = 64


@pytest.fixture(scope="module")
def bert(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerHandle, Embedder]]:
    folder = tmp_path_factory.mktemp("bert")
    path = write_tiny_bert_gguf(folder / "embed.gguf", n_ctx=128, name="nomic-embed-text-v1.5 (tiny)")
    embedder = Embedder(path, device="cpu", threads=2)
    handle = start_server(None, None, ServerOptions(port=0), embedding=embedder)
    yield handle, embedder
    handle.stop()
    embedder.close()


def openai_of(server: ServerHandle) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{server.address}/v1", api_key="unused", max_retries=0, timeout=WAIT)


def vectors(server: ServerHandle, texts: list[str], **extra: object) -> np.ndarray:
    reply = openai_of(server).embeddings.create(model="m", input=texts, **extra)  # type: ignore[arg-type]
    assert [d.index for d in reply.data] == list(range(len(texts)))
    return np.array([d.embedding for d in reply.data])


def test_one_unit_vector_per_text_alone_or_together(bert: tuple[ServerHandle, Embedder]) -> None:
    server, embedder = bert
    together = vectors(server, TEXTS)  # the SDK asks for base64 and decodes it
    assert together.shape == (len(TEXTS), N_EMBD)
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    alone = np.array([vectors(server, [t])[0] for t in TEXTS])
    assert np.allclose(together, alone, atol=1e-4)
    assert np.allclose(vectors(server, TEXTS[::-1]), together[::-1], atol=1e-4)
    assert np.allclose(vectors(server, TEXTS, encoding_format="float"), together, atol=1e-6)
    similar, unlike = together[0] @ together[1], together[0] @ together[2]
    assert not np.isclose(similar, unlike)  # distinct texts, distinct vectors (the weights are random)
    reply = openai_of(server).embeddings.create(model="m", input=TEXTS)
    tokens = sum(len(embedder.tokenize(t, False)) for t in TEXTS)
    assert reply.usage.prompt_tokens == tokens and reply.model == embedder.name
    by_ids = openai_of(server).embeddings.create(model="m", input=[embedder.tokenize(TEXTS[0], False)])
    assert np.allclose(by_ids.data[0].embedding, together[0], atol=1e-4)
    assert embedder.name in [m.id for m in openai_of(server).models.list().data]


def test_a_matryoshka_model_gives_shorter_vectors(bert: tuple[ServerHandle, Embedder]) -> None:
    server, _ = bert
    full = vectors(server, TEXTS[:3])
    short = vectors(server, TEXTS[:3], dimensions=16)
    assert short.shape == (3, 16) and np.allclose(np.linalg.norm(short, axis=1), 1.0, atol=1e-5)
    expected = full[:, :16] / np.linalg.norm(full[:, :16], axis=1, keepdims=True)
    assert np.allclose(short, expected, atol=1e-4)
    for wrong in (0, N_EMBD + 1):
        with pytest.raises(openai.BadRequestError) as caught:
            vectors(server, TEXTS[:1], dimensions=wrong)
        assert caught.value.body["param"] == "dimensions"  # type: ignore[index]


def test_what_an_embeddings_request_may_not_ask(bert: tuple[ServerHandle, Embedder]) -> None:
    server, embedder = bert
    client = openai_of(server)
    with pytest.raises(openai.BadRequestError) as caught:
        client.embeddings.create(model="m", input=["word"] * 100_000)
    assert caught.value.body["param"] == "input" and "2048" in caught.value.message  # type: ignore[index]
    with pytest.raises(openai.APIStatusError) as too_big:
        client.embeddings.create(model="m", input=["word " * 1000] * 1000)  # 5 MB of JSON
    assert too_big.value.status_code == 413
    long = "word " * 400  # more than the model's 128 positions
    with pytest.raises(openai.BadRequestError) as caught:
        client.embeddings.create(model="m", input=[TEXTS[0], long])
    assert caught.value.body["code"] == "context_length_exceeded" and "input[1]" in caught.value.message  # type: ignore[index]
    for bad in ({"input": []}, {"input": [1.5]}, {"input": "x", "encoding_format": "int8"}):
        status, answer = post(server, "/v1/embeddings", bad)
        assert status == 400, bad
    # Ollama cuts a long text to fit unless told not to
    assert len(ollama_of(server).embed(model="x", input=long).embeddings[0]) == N_EMBD
    with pytest.raises(ollama.ResponseError) as refused:
        ollama_of(server).embed(model="x", input=long, truncate=False)
    assert refused.value.status_code == 400 and "at most" in refused.value.error
    assert embedder.max_tokens == 128


def post(server: ServerHandle, path: str, body: object) -> tuple[int, object]:
    conn = http.client.HTTPConnection(server.host, server.port, timeout=WAIT)
    try:
        conn.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def ollama_of(server: ServerHandle) -> ollama.Client:
    return ollama.Client(host=server.address, timeout=WAIT)


def test_ollamas_embed_routes_give_the_same_vectors(bert: tuple[ServerHandle, Embedder]) -> None:
    server, embedder = bert
    client = ollama_of(server)
    expected = vectors(server, TEXTS)
    embedded = client.embed(model="nomic-embed-text", input=TEXTS, keep_alive="10m")
    assert np.allclose(np.array(embedded.embeddings), expected, atol=1e-5)
    assert embedded.prompt_eval_count == sum(len(embedder.tokenize(t, False)) for t in TEXTS)
    assert np.allclose(
        client.embed(model="x", input=TEXTS[0], dimensions=16).embeddings[0],
        vectors(server, TEXTS[:1], dimensions=16)[0],
        atol=1e-5,
    )
    assert np.allclose(client.embeddings(model="x", prompt=TEXTS[0]).embedding, expected[0], atol=1e-5)
    listed = [m.model for m in client.list().models]
    assert listed == [f"{embedder.name}:latest"]
    shown = client.show(listed[0])
    assert shown.capabilities == ["embedding"] and shown.modelinfo is not None
    assert shown.modelinfo["general.architecture"] == "bert"


def test_without_an_embedding_model_the_chat_model_gives_them(tmp_path: Path) -> None:
    path = write_tiny_llama_gguf(tmp_path / "chat.gguf", n_ctx=256, n_vocab=2000)
    model = ChatModel(path, device="cpu", n_ctx=256, threads=2)
    server = start_server(model, None, ServerOptions(port=0, parallel=1, n_ctx=256))
    try:
        got = vectors(server, TEXTS[:3])
        assert got.shape == (3, 64) and np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
        assert np.allclose(np.array([vectors(server, [t])[0] for t in TEXTS[:3]]), got, atol=1e-4)
        with pytest.raises(openai.BadRequestError) as caught:  # a chat model is not Matryoshka-trained
            vectors(server, TEXTS[:1], dimensions=16)
        assert "Matryoshka" in caught.value.message
        # chatting still works beside it
        reply = openai_of(server).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}], max_tokens=4
        )
        assert reply.choices[0].finish_reason in ("stop", "length")
    finally:
        server.stop()
        model.close()


def test_a_model_not_trained_for_shorter_vectors_refuses_them(tmp_path: Path) -> None:
    embedder = Embedder(write_tiny_bert_gguf(tmp_path / "plain.gguf", pooling="cls"), device="cpu", threads=1)
    try:
        assert embedder.pooling == "cls" and not embedder.matryoshka
        with pytest.raises(Exception, match="Matryoshka"):
            embedder.shorten(embedder.embed([embedder.tokenize("hi", False)]).vectors, 16)
    finally:
        embedder.close()


def test_a_causal_gguf_as_embedding_model_reads_one_text_per_decode(tmp_path: Path) -> None:
    """A chat model's file given as the embedding model (as llama-server --embedding takes one):
    its vectors do not depend on the other texts of the request."""
    embedder = Embedder(write_tiny_llama_gguf(tmp_path / "causal.gguf", n_ctx=128, n_vocab=2000), device="cpu")
    try:
        assert embedder.sequences == 1 and embedder.pooling == "mean"
        texts = [embedder.tokenize(t, False) for t in TEXTS[:3]]
        together = embedder.embed(texts).vectors
        assert np.allclose(together, np.array([embedder.embed([t]).vectors[0] for t in texts]), atol=1e-5)
    finally:
        embedder.close()
