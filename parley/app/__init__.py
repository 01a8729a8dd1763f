"""Parley's desktop application: the controller, the flows, the parts they use, background work.

The rules its folders keep (each checked by ``tests/test_layout.py``):

- only the parts that build or drive windows import ``ui`` (the controller, ``bootstrap``,
  ``first_start``, ``settings_flow``, ``flows``, ``selftest``);
- the parts (``speech``, ``voice``, ``conversations``, ``desktop``) import of the app only the shared pieces
  their docstrings name, never a flow, the controller or a window maker;
- the engine host (``engine_host``) is the controller's alone: every other part gets an engine
  slot (``engine_slots``), never the host.
"""
