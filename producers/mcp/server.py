"""The MCP server over standard input and output, with the official `mcp` SDK's low-level Server.

It opens no network port. Each tool call runs in a worker thread, so the
server keeps reading messages while a build or a walk runs; a cancelled call
sets a flag the walk reads at every element, so it stops where it is. A
build's progress goes back to the client as progress notifications when the
call carried a progress token. When the client disconnects, the session lets
go of its kept builds' leases.
"""

from __future__ import annotations

import threading
from typing import Any

import anyio
import anyio.from_thread
import anyio.to_thread
import orjson
from mcp import types
from mcp.server import Server
from mcp.server import ServerRequestContext
from mcp.server.stdio import stdio_server

from tsograph.exchange.version import TOOL_NAME
from tsograph.exchange.version import TOOL_VERSION
from tsograph.producers.mcp.session import GraphSession
from tsograph.producers.mcp.tools import tool_specs


def make_server(session: GraphSession) -> Server[Any]:
    tools = [types.Tool(**spec) for spec in tool_specs()]
    names = {tool.name for tool in tools}

    async def list_tools(
        context: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(
        context: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        if params.name not in names:
            document: dict[str, Any] = {
                "apiVersion": 1,
                "kind": params.name,
                "error": {"code": "bad-request", "message": f"no tool {params.name}"},
            }
            failed = True
        else:
            cancelled = threading.Event()
            token = (context.meta or {}).get("progress_token")

            def report(done: int, total: int | None, phase: str) -> None:
                # Called in the worker thread; the notification is sent from the server's loop.
                if token is not None:
                    anyio.from_thread.run(notify_progress, token, done, total, phase)

            async def notify_progress(
                token: str | int, done: int, total: int | None, phase: str
            ) -> None:
                request = context.request_id
                await context.session.send_progress_notification(
                    token,
                    done,
                    total,
                    phase,
                    related_request_id=None if request is None else str(request),
                )

            try:
                document, failed = await anyio.to_thread.run_sync(
                    session.call, params.name, params.arguments or {}, cancelled.is_set, report
                )
            except anyio.get_cancelled_exc_class():
                cancelled.set()
                raise
        text = orjson.dumps(document, option=orjson.OPT_SORT_KEYS).decode()
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)],
            structured_content=document,
            is_error=failed,
        )

    return Server(
        TOOL_NAME,
        version=TOOL_VERSION,
        instructions="Questions to the repository's call graph; each answer is the JSON of "
        "`tsograph query --json`.",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def serve(session: GraphSession) -> None:
    server = make_server(session)

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    try:
        anyio.run(main)
    finally:
        # The client closed the connection (or the server stopped): release the leases.
        session.close()
