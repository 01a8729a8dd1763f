"""The client of MCP servers: the tools of the servers the user lists in ``mcp.json``.

- ``config``: ``mcp.json`` in Parley's config folder (the ``mcpServers`` format LM Studio,
  Cursor and Claude Desktop use, plus ``"disabled": true``), read as untrusted input, and its
  edits (add, remove, turn a server off or on), saved atomically with the keys Parley does not
  know kept;
- ``stdio``: a server started as a process and spoken to over its stdin and stdout, bounded
  (a message's size, its stderr kept as a short tail) and stopped with its whole process group;
- ``streamable_http``: a server reached over Streamable HTTP with the SDK's client, every
  answer's size bounded as it arrives;
- ``sieve``: what stands between a transport and the SDK's ``ClientSession``: a tool list
  whose entries are checked one by one, so that one malformed tool costs only itself;
- ``client``: ``McpHub``, one thread running an event loop that connects to each enabled
  server and offers its tools as ``tool.Tool`` objects, with a synchronous API for the rest of
  Parley (start, status, tools, calls with a timeout and a cancel flag, close).

Imports only the ground modules, ``tools.tool`` and ``backend.cancel``."""
