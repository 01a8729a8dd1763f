"""The native layer: cffi bindings, compute devices and auto's measured choice among them, remote
devices over ggml RPC, threads, cancel.

Imports only the engine's ground modules; the engines above use it."""
