from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.project.builder import write_tree
from tsograph.producers.project.gitrev import head_revision

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def test_no_repository(tmp_path: Path) -> None:
    assert head_revision(tmp_path) is None


def test_branch_ref_and_packed_ref(tmp_path: Path) -> None:
    write_tree(
        tmp_path, {".git/HEAD": "ref: refs/heads/main\n", ".git/refs/heads/main": COMMIT + "\n"}
    )
    assert head_revision(tmp_path) == COMMIT
    (tmp_path / ".git/refs/heads/main").unlink()
    write_tree(tmp_path, {".git/packed-refs": f"# pack-refs\n{COMMIT} refs/heads/main\n"})
    assert head_revision(tmp_path) == COMMIT


def test_detached_and_unborn_heads(tmp_path: Path) -> None:
    write_tree(tmp_path, {".git/HEAD": COMMIT})
    assert head_revision(tmp_path) == COMMIT
    write_tree(tmp_path, {".git/HEAD": "ref: refs/heads/unborn\n"})
    assert head_revision(tmp_path) is None


def test_worktree_pointer_file(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "main/.git/refs/heads/feature": COMMIT,
            "main/.git/worktrees/wt/HEAD": "ref: refs/heads/feature\n",
            "main/.git/worktrees/wt/commondir": "../..\n",
            "wt/.git": "gitdir: ../main/.git/worktrees/wt\n",
        },
    )
    assert head_revision(tmp_path / "wt") == COMMIT


def test_hostile_refs_give_nothing(tmp_path: Path) -> None:
    write_tree(tmp_path, {".git/HEAD": "ref: refs/../../etc/passwd\n"})
    assert head_revision(tmp_path) is None
    write_tree(tmp_path, {".git/HEAD": "garbage"})
    assert head_revision(tmp_path) is None


def test_symlinked_git_folder_is_not_followed(tmp_path: Path) -> None:
    write_tree(tmp_path, {"real/HEAD": COMMIT, "project/.keep": ""})
    os.symlink(tmp_path / "real", tmp_path / "project/.git")
    assert head_revision(tmp_path / "project") is None


def test_agrees_with_git(tmp_path: Path) -> None:
    git = subprocess.run(["git", "--version"], capture_output=True, check=False)
    if git.returncode != 0:
        pytest.skip("git is not installed")
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t")
    env["GIT_COMMITTER_EMAIL"] = "t@t"
    write_tree(tmp_path, {"a.txt": "x"})
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "x"], ["pack-refs", "--all"]):
        subprocess.run(["git", *args], cwd=tmp_path, env=env, check=True)
    expected = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert head_revision(tmp_path) == expected
