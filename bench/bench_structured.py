#!/usr/bin/env python3
"""Generation speed with a ``json_schema`` grammar against without, on the batch engine.

Not a test: it prints its figures.  Greedy, one sequence; each round runs the same prompt free
(``ignore_eos``, as many tokens as the schema's reply) and held to a schema whose reply is long
(an array of ``--items`` objects), alternating, so that other load on the machine hits both
alike.  The figure is generated tokens per second from the first token to the last.

    .venv/bin/python bench/bench_structured.py [--model FILE] [--rounds 3] [--threads 2]
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time

from parley.engine.chat.batch import BatchEngine, BatchResult
from parley.engine.chat.json_schema import schema_grammar
from parley.engine.chat.model import ChatModel, Message, SamplingParams
from parley.engine.modelfiles.defaults import default_chat_model_path


def run(engine: BatchEngine, tokens: list[int], params: SamplingParams) -> tuple[int, float]:
    done = threading.Event()
    out: list[BatchResult] = []
    start = time.perf_counter()
    engine.submit(tokens, params, on_done=lambda r: (out.append(r), done.set()))
    done.wait()
    end = time.perf_counter()
    result = out[0]
    first = start + (result.time_to_first_token or 0.0)
    return result.generated_tokens, (result.generated_tokens - 1) / (end - first)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default=str(default_chat_model_path()))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--items", type=int, default=12)
    args = parser.parse_args()
    schema = {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"name": {"type": "string", "maxLength": 24}, "population": {"type": "integer"}},
            "required": ["name", "population"],
            "additionalProperties": False,
        },
        "minItems": args.items,
        "maxItems": args.items,
    }
    model = ChatModel(args.model, device="cpu", n_ctx=2048, threads=args.threads)
    engine = BatchEngine(model, parallel=1, n_ctx=2048)
    prompt = f"List {args.items} large cities with their population as JSON."
    tokens = model.tokenize(model.prompt_format.render([Message("user", prompt)]))
    grammar = schema_grammar(schema)
    free, held = [], []
    for _ in range(args.rounds):
        n, speed = run(
            engine, tokens, SamplingParams(temperature=0, repeat_penalty=1.0, max_tokens=600, grammar=grammar)
        )
        held.append(speed)
        _, speed = run(engine, tokens, SamplingParams(temperature=0, repeat_penalty=1.0, max_tokens=n, ignore_eos=True))
        free.append(speed)
    f, h = statistics.median(free), statistics.median(held)
    print(f"{model.name}: free {f:.1f} tok/s, json_schema {h:.1f} tok/s ({(h / f - 1) * 100:+.1f}%), {n} tokens")
    engine.close()
    model.close()


if __name__ == "__main__":
    main()
