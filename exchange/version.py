"""The tool's own identity, written into every document."""

TOOL_NAME = "tsograph"
TOOL_VERSION = "0.1.0"
