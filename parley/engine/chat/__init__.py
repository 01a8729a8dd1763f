"""The chat engine: the llama.cpp model and session, prompt formats, sampling.

Imports backend/, modelfiles/ and the ground modules."""
