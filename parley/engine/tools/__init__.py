"""Tools the chat model can call while it answers: the built-in ones (the clock, exact
arithmetic and units, timers and reminders, a search of the user's own conversations and
dictations) and those of the MCP servers the user configures (``mcp.json``).

- ``tool``: what every tool is (``ToolSpec``, ``Tool``, ``ToolResult``) and the ``Toolbox``
  that checks a model's call (a known name, arguments that match the tool's schema) before it
  reaches the tool, and bounds what comes back;
- ``builtin/``: the tools that need no network and no other program;
- ``mcp/``: the client of MCP servers (stdio and Streamable HTTP) and ``mcp.json``.

Imports ``chat`` (a reply's tool calls), ``backend.cancel`` and the ground modules."""
