"""Remote compute over ggml's RPC protocol, both ends, neither trusting the other:

- ``endpoints``: ``[TOKEN@]HOST:PORT`` parsed, named and shown (text only);
- ``remote``: using another machine's device: each server checked in Python first, then ggml's
  client relayed through a loopback port of Parley's own that checks every reply;
- ``server_front``: ``parley rpc-server``, ggml's server in a child process behind a front that
  checks every request;
- ``wire``: the protocol's request and reply layouts and the checks the front makes on them.

Part of ``backend``, under its rule: imports only the engine's ground modules and the rest of
``backend`` (``devices`` asks ``remote`` which devices are remote, and lost)."""
