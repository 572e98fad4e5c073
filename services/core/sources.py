"""Where ingestion may read from, and what a stored law says it came from.

The API ingests only what the caller uploads and files under the configured source roots
(`Settings.source_roots`, `LEXGRAPH_SOURCE_ROOTS`; by default the repository's `data/` in
development and nothing in production). A path is resolved first (symlinks and `..`
followed), so a link inside a root that points out of it is outside; whatever is outside
every root, or does not exist, is the same refusal, so the answer tells nothing about the
server's files.

Stored law metadata never holds an absolute server path: a file under a root is named by
its path relative to that root (`th-pdpa-2562/about.md`), an upload by its file name, and
any other file (one named on the command line outside every root) by its file name.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from services.core.settings import Settings

UPLOADS_DIR = "uploads"  # under settings.data_dir: uploads/<batch>/<n>/<file name>


@dataclass(frozen=True)
class IngestLimits:
    """Ceilings on one source file and one law (`Settings.ingest_max_file_bytes`,
    `ingest_max_sections`), checked before a file is read and before a law is built."""

    max_file_bytes: int = 64 * 1024 * 1024
    max_sections: int = 50_000

    @classmethod
    def from_settings(cls, settings: Settings) -> IngestLimits:
        return cls(settings.ingest_max_file_bytes, settings.ingest_max_sections)

    def file_problem(self, path: Path) -> str | None:
        """Why `path` is refused before reading it, or None."""
        try:
            size = path.stat().st_size
        except OSError:
            return None  # the reader reports what is wrong with it
        if size > self.max_file_bytes:
            return (
                f"file is {size:,} bytes, over the ceiling of {self.max_file_bytes:,} "
                "(LEXGRAPH_INGEST_MAX_FILE_BYTES); nothing of it was read"
            )
        return None

    def sections_problem(self, sections: int) -> str | None:
        """Why a law of `sections` sections is refused before it is built, or None."""
        if sections > self.max_sections:
            return (
                f"law has {sections:,} sections, over the ceiling of {self.max_sections:,} "
                "(LEXGRAPH_INGEST_MAX_SECTIONS); nothing of it was stored"
            )
        return None


@dataclass(frozen=True)
class SourceRoots:
    roots: tuple[Path, ...]  # resolved
    uploads: Path  # resolved; not a root: an upload is named only by the job it came with

    @classmethod
    def from_settings(cls, settings: Settings) -> SourceRoots:
        return cls(
            roots=tuple(_real(Path(root)) for root in settings.source_root_paths()),
            uploads=_real(settings.data_dir / UPLOADS_DIR),
        )

    def resolve(self, raw: str) -> Path | None:
        """The real file or folder `raw` names under a root, or None. A relative path is
        looked up under each root in turn; an absolute one must lie under one."""
        if not raw or "\x00" in raw:
            return None
        candidate = Path(raw)
        paths = [candidate] if candidate.is_absolute() else [root / raw for root in self.roots]
        for path in paths:
            try:
                real = path.resolve(strict=True)
            except (OSError, RuntimeError):  # missing, a link loop, unreadable
                continue
            if self.root_of(real) is not None and (real.is_file() or real.is_dir()):
                return real
        return None

    def confined(self, files: Iterable[str]) -> list[str]:
        """The files (already listed from a folder under a root) that really lie under a
        root: a link in the folder that leads out of every root is left out."""
        kept = []
        for name in files:
            try:
                real = Path(name).resolve(strict=True)
            except (OSError, RuntimeError):
                continue
            if self.root_of(real) is not None and real.is_file():
                kept.append(str(real))
        return kept

    def root_of(self, real: Path) -> Path | None:
        for root in self.roots:
            if real == root or real.is_relative_to(root):
                return root
        return None

    def public_name(self, path: str | Path) -> str:
        """What a stored law (and a job's answer) says a source is (see the module doc)."""
        real = _real(Path(path))
        if real.is_relative_to(self.uploads):
            return real.name
        root = self.root_of(real)
        if root is not None and real != root:
            return real.relative_to(root).as_posix()
        return real.name


def _real(path: Path) -> Path:
    """`path` made absolute with links followed as far as they exist (never raises)."""
    return Path(os.path.realpath(path))
