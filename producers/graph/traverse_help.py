"""The description, exit codes and examples of `reach --help` and `impact --help`."""

from __future__ import annotations

from typing import Any

from tsograph.producers.help_text import USAGE_ERROR, command_help

_EXAMPLES = {
    "reach": [
        "tsograph reach --project . 'src/app/api/jobs/route.ts#POST'",
        "tsograph graph --project . > graph.json && "
        "tsograph reach --graph-file graph.json --format text 'src/lib/jobs.ts#createJob'",
    ],
    "impact": [
        "tsograph impact --project . 'src/lib/audit.ts#audit'",
        "tsograph routes --role server --project . | tsograph impact --project . --roots-from -",
    ],
}


def traverse_help(name: str, summary: str) -> dict[str, Any]:
    return command_help(
        f"{summary[0].upper()}{summary[1:]}: each symbol with its depth, the previous symbol "
        "on a shortest path, the roots that reach it and its evidence tier.",
        [
            (0, "success"),
            (2, "the project or graph file cannot be read, or the output is over the limits"),
            (
                64,
                USAGE_ERROR + "; or some root ids are not graph nodes: then the document is "
                "still written for the other roots and stderr names the ids",
            ),
        ],
        _EXAMPLES[name],
    )
