"""The MCP server: the graph questions as tools over standard input and output."""
