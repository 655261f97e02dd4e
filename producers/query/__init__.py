"""Questions to the call graph: `tsograph query` and the MCP tools answer through here."""
