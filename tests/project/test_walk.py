"""The source walk, including hostile trees built under tmp_path (never committed)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.project.builder import write_tree
from tsograph.exchange.limitations import SOURCE_PREFIXES
from tsograph.exchange.limitations import has_known_prefix
from tsograph.producers.project import walk as walk_module
from tsograph.producers.project.walk import MAX_SOURCE_BYTES
from tsograph.producers.project.walk import UnreadableSource
from tsograph.producers.project.walk import WalkedFile
from tsograph.producers.project.walk import read_source
from tsograph.producers.project.walk import walk


def _paths(files: tuple[WalkedFile, ...]) -> list[str]:
    return [item.path for item in files]


def test_sources_declarations_and_skipped_folders(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "src/b.ts": "export const b = 1;\n",
            "src/a.tsx": "export {};\n",
            "src/z/deep.mts": "",
            "lib/x.cts": "",
            "lib/x.js": "",
            "lib/x.jsx": "",
            "lib/x.mjs": "",
            "lib/x.cjs": "",
            ".eslintrc.js": "module.exports = {};\n",
            "types/env.d.ts": "declare const x: 1;\n",
            "types/esm.d.mts": "",
            "types/styles.d.css.ts": "",
            "README.md": "",
            "src/notes.txt": "",
            "node_modules/pkg/index.js": "",
            "dist/out.js": "",
            "build/out.js": "",
            "out/out.js": "",
            "coverage/lcov.js": "",
            ".next/server.js": "",
            "src/.hidden/x.ts": "",
            "src/generated/client/index.ts": "",
            "src/generated/other.ts": "",
        },
    )
    result = walk(tmp_path, excluded=["src/generated/client"])
    assert _paths(result.sources) == [
        ".eslintrc.js",
        "lib/x.cjs",
        "lib/x.cts",
        "lib/x.js",
        "lib/x.jsx",
        "lib/x.mjs",
        "src/a.tsx",
        "src/b.ts",
        "src/generated/other.ts",
        "src/z/deep.mts",
    ]
    assert _paths(result.declaration_files) == [
        "types/env.d.ts",
        "types/esm.d.mts",
        "types/styles.d.css.ts",
    ]
    first = result.sources[7]
    assert first.size == len("export const b = 1;\n")
    assert first.mtime_ns == (tmp_path / "src/b.ts").stat().st_mtime_ns
    assert result.limitation_lines() == []


def test_symlinks_are_counted_and_never_followed(tmp_path: Path) -> None:
    write_tree(tmp_path, {"src/real.ts": "", "outside/secret.ts": ""})
    (tmp_path / "src/loop").symlink_to(tmp_path / "src")  # a folder cycle
    (tmp_path / "src/self").symlink_to("self")  # a link to itself
    (tmp_path / "src/alias.ts").symlink_to(tmp_path / "src/real.ts")
    (tmp_path / "src/dangling.ts").symlink_to(tmp_path / "missing.ts")
    (tmp_path / "linked").symlink_to(tmp_path / "outside")
    # Links that cannot hide a source are not gaps.
    (tmp_path / "README.md").symlink_to(tmp_path / "outside" / "secret.ts")
    (tmp_path / "node_modules").symlink_to(tmp_path / "outside")
    (tmp_path / ".cache").symlink_to(tmp_path / "outside")
    (tmp_path / "notes.txt").symlink_to(tmp_path / "missing.txt")
    result = walk(tmp_path)
    assert _paths(result.sources) == ["outside/secret.ts", "src/real.ts"]
    assert result.symlinks == 5
    assert result.limitation_lines() == [
        "skipped-symlinks: 5 symbolic link(s) in the project were not followed"
    ]


def test_a_300_deep_chain_is_cut_at_the_depth_cap(tmp_path: Path) -> None:
    folder = tmp_path
    for level in range(300):
        folder = folder / "d"
        folder.mkdir()
        if level in (0, 63, 64, 299):
            (folder / f"level{level + 1}.ts").write_text("")
    result = walk(tmp_path)
    # Files in the 64th folder level are read; the 65th folder level is not entered.
    assert sorted(path.count("/") for path in _paths(result.sources)) == [1, 64]
    assert result.truncated == {"depth": 1}
    (line,) = result.limitation_lines()
    assert line.startswith("scan-truncated: 1 walk limit(s) cut the scan")
    assert line.endswith("(depth: 1)")


def test_entry_cap_stops_the_walk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_tree(tmp_path, {f"src/f{index:02}.ts": "" for index in range(30)})
    monkeypatch.setattr(walk_module, "MAX_ENTRIES", 20)
    result = walk(tmp_path)
    assert result.sources == ()
    assert result.truncated == {"entries": 1}


def test_oversized_and_boundary_files(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "exact.ts": b"a" * MAX_SOURCE_BYTES,
            "minified.js": b"x=1;" * (5 * 1024 * 1024 // 4),
        },
    )
    result = walk(tmp_path)
    assert _paths(result.sources) == ["exact.ts"]
    assert result.oversized == 1
    assert result.limitation_lines() == [
        "oversized-sources: 1 source file(s) over 4 MiB were not read"
    ]


def test_unreadable_contents_and_names(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "nul.ts": b"const a = 1;\x00\x00const b = f();\n",
            "latin1.ts": b"const caf\xe9 = 1;\n",
            "caf\u00e9 \u65e5\u672c.ts": "ok",
            "ctl\x01.ts": "",
            "new\nline.ts": "",
        },
    )
    bad_bytes_name = os.fsencode(tmp_path) + b"/bad\xff.ts"
    with open(bad_bytes_name, "wb") as handle:
        handle.write(b"")
    os.mkfifo(tmp_path / "pipe.ts")  # would block a plain open() forever
    (tmp_path / "odd\x02folder").mkdir()
    (tmp_path / "odd\x02folder" / "inner.ts").write_text("")
    result = walk(tmp_path)
    assert _paths(result.sources) == ["caf\u00e9 \u65e5\u672c.ts", "nul.ts"]
    assert result.unreadable == {"not-a-file": 1, "not-utf8": 1, "unrepresentable-name": 4}
    (line,) = result.limitation_lines()
    assert line == (
        "unreadable-sources: 6 source file(s) or folder(s) could not be read "
        "(not-a-file: 1, not-utf8: 1, unrepresentable-name: 4, latin1.ts, pipe.ts)"
    )


def test_read_and_list_failures_are_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Permission bits do not stop root, so the failures are injected where the walk meets the OS.
    write_tree(tmp_path, {"locked.ts": "", "shut/inner.ts": "", "open.ts": ""})
    real_open, real_scandir = os.open, os.scandir

    def failing_open(path: Any, *args: Any) -> int:
        if str(path).endswith("locked.ts"):
            raise PermissionError("denied")
        return real_open(path, *args)

    def failing_scandir(path: Any) -> Any:
        if str(path).endswith("shut"):
            raise PermissionError("denied")
        return real_scandir(path)

    monkeypatch.setattr(os, "open", failing_open)
    monkeypatch.setattr(os, "scandir", failing_scandir)
    result = walk(tmp_path)
    assert _paths(result.sources) == ["open.ts"]
    assert result.unreadable == {"unlistable-folder": 1, "unreadable": 1}
    # The files and folders are named, with the sources that fail when read later.
    assert result.limitation_lines({"not-utf8": 1}, ["later.ts"]) == [
        "unreadable-sources: 3 source file(s) or folder(s) could not be read "
        "(not-utf8: 1, unlistable-folder: 1, unreadable: 1, later.ts, locked.ts, shut)"
    ]


def test_read_source_refuses_links_and_checks_bounds(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.ts": "const a = 1;\n", "big.ts": b"a" * (MAX_SOURCE_BYTES + 1)})
    (tmp_path / "link.ts").symlink_to(tmp_path / "a.ts")
    assert read_source(tmp_path, "a.ts") == b"const a = 1;\n"
    for name, reason in (
        ("link.ts", "unreadable"),
        ("big.ts", "oversized"),
        ("no.ts", "unreadable"),
    ):
        with pytest.raises(UnreadableSource) as raised:
            read_source(tmp_path, name)
        assert raised.value.reason == reason


def test_limitation_lines_use_known_source_prefixes(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.ts": b"\xff", "big.js": b"a" * (MAX_SOURCE_BYTES + 1)})
    (tmp_path / "link.ts").symlink_to(tmp_path / "a.ts")
    lines = walk(tmp_path).limitation_lines()
    assert len(lines) == 3
    assert all(has_known_prefix(line, SOURCE_PREFIXES) for line in lines)


def test_walk_is_deterministic(tmp_path: Path) -> None:
    names = [f"m{index}/f{index % 7}.ts" for index in range(40)]
    write_tree(tmp_path, dict.fromkeys(names, ""))
    first = walk(tmp_path)
    assert _paths(first.sources) == sorted(names)
    assert walk(tmp_path) == first


def test_well_known_folders_are_walked_other_dot_folders_are_not(tmp_path: Path) -> None:
    (tmp_path / "app" / ".well-known" / "security").mkdir(parents=True)
    (tmp_path / "app" / ".well-known" / "security" / "route.ts").write_text(
        "export function GET() {}\n"
    )
    (tmp_path / ".cache").mkdir()
    (tmp_path / ".cache" / "x.ts").write_text("export const x = 1;\n")
    paths = [source.path for source in walk(tmp_path).sources]
    assert paths == ["app/.well-known/security/route.ts"]


def test_a_trusted_source_is_listed_without_being_opened_again(tmp_path: Path) -> None:
    # An incremental rebuild's walk trusts what the earlier walk read when the stamp is the
    # same: the bytes are swapped for invalid UTF-8 of the same size and time, which only
    # opening the file would notice.
    write_tree(tmp_path, {"a.ts": "export const a = 1;\n", "b.ts": "export const b = 2;\n"})
    first = walk(tmp_path)
    stamps = {item.path: (item.size, item.mtime_ns) for item in first.sources}
    for name in ("a.ts", "b.ts"):
        info = (tmp_path / name).stat()
        (tmp_path / name).write_bytes(b"\xff" * info.st_size)
        os.utime(tmp_path / name, ns=(info.st_atime_ns, info.st_mtime_ns))
    trusted = walk(tmp_path, trusted=lambda path, *stamp: path == "a.ts" and stamps[path] == stamp)
    assert _paths(trusted.sources) == ["a.ts"]
    assert trusted.sources == first.sources[:1]
    assert trusted.unreadable == {"not-utf8": 1}
    assert walk(tmp_path).unreadable == {"not-utf8": 2}
