"""Failures a user can cause, each mapped to one documented exit code.

Exit codes are part of the contract: 0 success, 2 unreadable input, invalid
document or oversized output, 64 usage error. 1 is never used, so a caller can
tell a crash of the interpreter itself (which exits 1) from a tool verdict.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_INPUT = 2
EXIT_USAGE = 64


class ToolError(Exception):
    """An expected failure: one line for stderr and an exit code."""

    exit_code = EXIT_INPUT

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UsageError(ToolError):
    """Wrong flags or arguments; stdout stays empty."""

    exit_code = EXIT_USAGE


class InputError(ToolError):
    """The input cannot be read or is not acceptable."""

    exit_code = EXIT_INPUT


class OutputError(ToolError):
    """The document cannot be written within the exchange limits."""

    exit_code = EXIT_INPUT


class InvalidDocumentError(ToolError):
    """A document failed schema validation; `pointer` names the first error."""

    exit_code = EXIT_INPUT

    def __init__(self, message: str, pointer: str) -> None:
        super().__init__(message)
        self.pointer = pointer


class InternalError(ToolError):
    """A defect of tsograph itself; the message names its kind only."""

    exit_code = EXIT_INPUT

    def __init__(self, kind: str) -> None:
        super().__init__(f"internal error ({kind})")
