"""The agents' desk: the MCP server (`taskpack mcp`), its trust boundary and its views."""
