"""From `paths` to the list of operations, each with the prefixes it is served under.

Every entry that does not become an operation is counted in `Coverage`, and
every mapping read here has its repeated keys rejected (see `repeats`).
Webhooks (3.1) are not read: they are requests the service sends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tsograph.producers.openapi import coverage as causes
from tsograph.producers.openapi.coverage import Coverage
from tsograph.producers.openapi.dialects import Dialect
from tsograph.producers.openapi.path_refs import PathItemRefs
from tsograph.producers.openapi.repeats import RepeatedKeys
from tsograph.producers.openapi.server_urls import DEFAULT_PREFIX
from tsograph.producers.openapi.server_urls import MALFORMED_SERVER
from tsograph.producers.openapi.server_urls import UNKNOWN_BASE
from tsograph.producers.openapi.server_urls import Prefix
from tsograph.producers.openapi.server_urls import ServerEvaluator
from tsograph.producers.openapi.server_urls import resolve_base_path
from tsograph.producers.openapi.tree import SpecMap
from tsograph.producers.openapi.tree import is_null

MAX_OPERATION_ID_CHARS = 1024

# What a document may not hold in an identifier (as its schema says), plus lone
# surrogates, which JSON escapes can spell but UTF-8 cannot encode.
_FORBIDDEN_IN_ID = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")

# The operation keys whose repeats are rejected: the ones tsograph reads.
_READ_OPERATION_KEYS = ("operationId", "servers")


@dataclass(frozen=True, slots=True)
class Operation:
    path: str
    method: str
    # The mapping holding the method key: the path item or a `$ref` target.
    holder: SpecMap
    operation_id: str | None
    prefixes: tuple[Prefix, ...]


@dataclass(frozen=True, slots=True)
class _ServerSet:
    prefixes: tuple[Prefix, ...]
    # (identity, cause) of every server whose prefix is not proven.
    unresolved: tuple[tuple[object, str], ...]


_DEFAULT_SERVERS = _ServerSet((DEFAULT_PREFIX,), ())


class OperationCollector:
    def __init__(
        self, root: SpecMap, dialect: Dialect, repeats: RepeatedKeys, coverage: Coverage
    ) -> None:
        self._root = root
        self._dialect = dialect
        self._repeats = repeats
        self._coverage = coverage
        self._refs = PathItemRefs(root, repeats, coverage)
        self._evaluator = ServerEvaluator()
        self._server_sets: dict[int, _ServerSet | None] = {}

    def collect(self) -> list[Operation]:
        paths = self._root.get("paths")
        if paths is None or is_null(paths):
            return []
        if not isinstance(paths, SpecMap):
            self._coverage.skipped(causes.NON_OBJECT_PATHS)
            return []
        self._repeats.reject_in(paths)
        outer = self._outer_servers()
        operations: list[Operation] = []
        for key, item in paths.items():
            if not isinstance(key, str) or not key.startswith("/"):
                if not (isinstance(key, str) and key.startswith("x-")):
                    self._coverage.skipped(causes.NON_ABSOLUTE_PATH_KEY)
                continue
            if not isinstance(item, SpecMap):
                self._coverage.skipped(causes.NON_OBJECT_PATH_ITEM)
                continue
            operations.extend(self._path_item(key, item, outer))
        return operations

    def _outer_servers(self) -> _ServerSet:
        if not self._dialect.uses_servers:
            resolved = resolve_base_path(self._root.get("basePath"))
            unresolved = () if resolved.cause is None else (("basePath", resolved.cause),)
            return _ServerSet(resolved.prefixes, unresolved)
        return self._servers(self._root.get("servers")) or _DEFAULT_SERVERS

    def _path_item(self, path: str, item: SpecMap, outer: _ServerSet) -> list[Operation]:
        fields: dict[str, tuple[SpecMap, object]] = {}
        for mapping in self._refs.chain(item):
            self._repeats.reject_in(mapping)
            for field, value in mapping.items():
                if field in self._dialect.methods or (
                    field == "servers" and self._dialect.uses_servers
                ):
                    if field in fields:
                        self._coverage.skipped(causes.SHADOWED_REF_FIELD)
                    else:
                        fields[field] = (mapping, value)
                elif not isinstance(field, str) or not (
                    field in self._dialect.other_fields or field.startswith("x-")
                ):
                    self._coverage.skipped(causes.UNKNOWN_PATH_ITEM_FIELD)
        path_servers = self._servers(fields["servers"][1]) if "servers" in fields else None
        operations = []
        for method in self._dialect.methods:
            if method not in fields:
                continue
            holder, operation = fields[method]
            if not isinstance(operation, SpecMap):
                self._coverage.skipped(causes.NON_OBJECT_OPERATION)
                continue
            self._repeats.reject_in(operation, _READ_OPERATION_KEYS)
            servers = (
                self._servers(operation.get("servers")) if self._dialect.uses_servers else None
            )
            chosen = servers or path_servers or outer
            for identity, cause in chosen.unresolved:
                self._coverage.unresolved_server(identity, cause)
            operations.append(
                Operation(path, method, holder, self._operation_id(operation), chosen.prefixes)
            )
        return operations

    def _servers(self, value: object) -> _ServerSet | None:
        """The prefixes of a `servers` value; None when absent, null or empty."""
        if value is None or is_null(value):
            return None
        key = id(value)
        if key not in self._server_sets:
            self._server_sets[key] = self._server_set(value)
        return self._server_sets[key]

    def _server_set(self, value: object) -> _ServerSet | None:
        if not isinstance(value, list):
            return _ServerSet((UNKNOWN_BASE,), (((id(value), 0), MALFORMED_SERVER),))
        if not value:
            return None
        prefixes: dict[Prefix, None] = {}
        unresolved = []
        for index, server in enumerate(value):
            self._reject_repeats_in_server(server)
            resolved = self._evaluator.resolve(server)
            prefixes.update(dict.fromkeys(resolved.prefixes))
            if resolved.cause is not None:
                unresolved.append(((id(value), index), resolved.cause))
        return _ServerSet(tuple(prefixes), tuple(unresolved))

    def _reject_repeats_in_server(self, server: object) -> None:
        if not isinstance(server, SpecMap):
            return
        self._repeats.reject_in(server)
        variables = server.get("variables")
        if isinstance(variables, SpecMap):
            self._repeats.reject_in(variables)
            for variable in variables.values():
                if isinstance(variable, SpecMap):
                    self._repeats.reject_in(variable)

    def _operation_id(self, operation: SpecMap) -> str | None:
        """The operationId when it can be written; otherwise None, counted."""
        if "operationId" not in operation:
            return None
        value = operation["operationId"]
        if not isinstance(value, str):
            self._coverage.unsafe_operation_id(causes.ID_NOT_TEXT)
        elif not value:
            self._coverage.unsafe_operation_id(causes.ID_EMPTY)
        elif len(value) > MAX_OPERATION_ID_CHARS:
            self._coverage.unsafe_operation_id(causes.ID_TOO_LONG)
        elif _FORBIDDEN_IN_ID.search(value):
            self._coverage.unsafe_operation_id(causes.ID_FORBIDDEN_CHARACTERS)
        else:
            return value
        return None
