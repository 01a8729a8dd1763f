"""The native layer: cffi bindings, compute devices, remote devices over ggml RPC, threads, cancel.

Imports only the engine's ground modules; the engines above use it."""
