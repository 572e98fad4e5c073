"""The Cypher catalog: one statement per file under `cypher/queries/`, loaded by name
relative to the repository (never the working directory), values only through `$params`."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from ingest.export import SCHEMA_DIR, split_statements

CYPHER_DIR = SCHEMA_DIR.parent
QUERIES_DIR = CYPHER_DIR / "queries"
_NAME = re.compile(r"[a-z0-9_]+\Z")


@lru_cache(maxsize=256)
def load_query(name: str) -> str:
    """The single statement in `cypher/queries/<name>.cypher`."""
    if not _NAME.match(name):
        raise ValueError(f"query name {name!r} must be lower-case letters, digits and _")
    path = QUERIES_DIR / f"{name}.cypher"
    if not path.is_file():
        raise KeyError(f"no Cypher query named {name!r} in {QUERIES_DIR}")
    statements = split_statements(path.read_text(encoding="utf-8"))
    if len(statements) != 1:
        raise ValueError(f"{path} must hold exactly one statement, found {len(statements)}")
    return statements[0]


def query_names() -> list[str]:
    return sorted(p.stem for p in QUERIES_DIR.glob("*.cypher"))


def shipped_cypher_files() -> list[Path]:
    """Every Cypher file the project ships (schema, queries, Browser kit), for the linter."""
    files: list[Path] = []
    for folder in ("schema", "queries", "browser"):
        files += sorted((CYPHER_DIR / folder).glob("*.cypher"))
    return files
