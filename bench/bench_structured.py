#!/usr/bin/env python3
"""Generation speed with a ``json_schema`` grammar against without, on the batch engine.

Not a test: it prints its figures.  Greedy, one sequence; each round runs the same prompt held to
a schema whose reply is long (an array of ``--items`` objects), held to it again with every
refusal settled by the grammar's pass over the whole vocabulary (as before the shortcut of
``constrained.py``), and free (``ignore_eos``, as many tokens as the schema's reply), in turn, so
that other load on the machine hits all alike.  The figure is generated tokens per second from
the first token to the last; beside it, how many tokens the grammar refused in a reply and how
many of those needed the pass over the whole vocabulary.

    .venv/bin/python bench/bench_structured.py [--model FILE] [--rounds 3] [--threads 2] [--schema contacts]
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time

from parley.engine.chat import constrained
from parley.engine.chat.batch import BatchEngine, BatchResult
from parley.engine.chat.json_schema import schema_grammar
from parley.engine.chat.model import ChatModel, Message, SamplingParams
from parley.engine.modelfiles.defaults import default_chat_model_path


def run(engine: BatchEngine, tokens: list[int], params: SamplingParams) -> tuple[BatchResult, float]:
    done = threading.Event()
    out: list[BatchResult] = []
    start = time.perf_counter()
    engine.submit(tokens, params, on_done=lambda r: (out.append(r), done.set()))
    done.wait()
    end = time.perf_counter()
    result = out[0]
    first = start + (result.time_to_first_token or 0.0)
    return result, (result.generated_tokens - 1) / (end - first)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default=str(default_chat_model_path()))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--items", type=int, default=12)
    parser.add_argument("--schema", choices=("cities", "contacts"), default="cities")
    args = parser.parse_args()
    item: dict[str, object] = {
        "type": "object",
        "properties": {"name": {"type": "string", "maxLength": 24}, "population": {"type": "integer"}},
        "required": ["name", "population"],
        "additionalProperties": False,
    }
    prompt = f"List {args.items} large cities with their population as JSON."
    if args.schema == "contacts":  # string formats: the model's choice is refused more often
        formats = {"email": {"type": "string", "format": "email"}, "born": {"type": "string", "format": "date"}}
        item = {
            "type": "object",
            "properties": {"name": {"type": "string", "maxLength": 16}, **formats},
            "required": ["name", "email", "born"],
            "additionalProperties": False,
        }
        prompt = f"Make up {args.items} contacts, each with a name, an email address and a birth date, as JSON."
    schema = {"type": "array", "items": item, "minItems": args.items, "maxItems": args.items}
    model = ChatModel(args.model, device="cpu", n_ctx=2048, threads=args.threads)
    engine = BatchEngine(model, parallel=1, n_ctx=2048)
    tokens = model.tokenize(model.prompt_format.render([Message("user", prompt)]))
    grammar = schema_grammar(schema)
    speeds: dict[str, list[float]] = {"free": [], "held": [], "held, whole vocabulary": []}
    candidates = constrained.CANDIDATES
    for _ in range(args.rounds):
        params = SamplingParams(temperature=0, repeat_penalty=1.0, max_tokens=600, grammar=grammar)
        held, speed = run(engine, tokens, params)
        speeds["held"].append(speed)
        constrained.CANDIDATES = ()  # every refusal settled by the pass over the whole vocabulary
        try:
            _, speed = run(engine, tokens, params)
        finally:
            constrained.CANDIDATES = candidates
        speeds["held, whole vocabulary"].append(speed)
        n = held.generated_tokens
        _, speed = run(engine, tokens, SamplingParams(temperature=0, repeat_penalty=1.0, max_tokens=n, ignore_eos=True))
        speeds["free"].append(speed)
    f = statistics.median(speeds["free"])
    refused = f"the grammar refused {held.refused_tokens} ({held.full_passes} needed a full pass)"
    print(f"{model.name}, {args.schema}: {n} tokens, {refused}")
    for label, values in speeds.items():
        median = statistics.median(values)
        print(f"  {label:<24} {median:5.1f} tok/s ({(median / f - 1) * 100:+.1f}%)")
    engine.close()
    model.close()


if __name__ == "__main__":
    main()
