"""The chat engine: the llama.cpp model and session, the decode step and KV cache bookkeeping
they share with the batch engine, prompt formats, sampling.

Imports handles/ (the native objects), backend/, modelfiles/ and the ground modules."""
