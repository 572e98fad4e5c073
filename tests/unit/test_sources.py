"""Source roots: what a caller may name on the server, and what a stored law shows."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from services.core.settings import REPO_ROOT, Settings
from services.core.sources import SourceRoots


@pytest.fixture
def layout(tmp_path: Path) -> tuple[SourceRoots, Path]:
    root = tmp_path / "corpus"
    (root / "laws").mkdir(parents=True)
    (root / "laws" / "a.json").write_text("{}", encoding="utf-8")
    secret = tmp_path / "secret.txt"
    secret.write_text("s", encoding="utf-8")
    os.symlink(secret, root / "laws" / "leak.json")  # a link out of the root
    os.symlink(root / "laws" / "a.json", root / "inner.json")  # a link within it
    roots = SourceRoots(roots=(root.resolve(),), uploads=(tmp_path / "data" / "uploads"))
    return roots, root


def test_paths_under_a_root_resolve_relative_or_absolute(layout) -> None:
    roots, root = layout
    assert roots.resolve("laws/a.json") == (root / "laws" / "a.json").resolve()
    assert roots.resolve(str(root / "laws" / "a.json")) == (root / "laws/a.json").resolve()
    assert roots.resolve("laws") == (root / "laws").resolve()
    assert roots.resolve("inner.json") == (root / "laws" / "a.json").resolve()


@pytest.mark.parametrize(
    "raw",
    ["/etc/passwd", "/etc/no-such-file", "../secret.txt", "laws/../../secret.txt",
     "laws/leak.json", "missing.json", "", "laws/a.json\x00"],
)  # fmt: skip
def test_anything_outside_every_root_or_missing_is_refused_alike(layout, raw: str) -> None:
    roots, root = layout
    assert roots.resolve(raw) is None


def test_a_folder_keeps_only_files_that_really_lie_under_a_root(layout) -> None:
    roots, root = layout
    listed = [str(root / "laws" / "a.json"), str(root / "laws" / "leak.json")]
    assert roots.confined(listed) == [str((root / "laws" / "a.json").resolve())]


def test_stored_names_are_never_server_paths(layout, tmp_path: Path) -> None:
    roots, root = layout
    assert roots.public_name(root / "laws" / "a.json") == "laws/a.json"
    upload = tmp_path / "data" / "uploads" / "batch" / "0000" / "pdpa.json"
    assert roots.public_name(upload) == "pdpa.json"
    assert roots.public_name("/home/someone/laws/x.md") == "x.md"


def test_default_roots_are_data_in_development_and_none_in_production(tmp_path: Path) -> None:
    assert Settings(data_dir=tmp_path).source_root_paths() == [REPO_ROOT / "data"]
    assert Settings(data_dir=tmp_path, environment="production").source_root_paths() == []
    configured = Settings(data_dir=tmp_path, environment="production", source_roots=[tmp_path])
    assert SourceRoots.from_settings(configured).roots == (tmp_path.resolve(),)
