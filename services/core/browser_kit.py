"""lexgraph's kit for Neo4j Browser: the `.grass` style (deploy/neo4j/lexgraph.grass) and
the PDPA guide for lawyers (deploy/neo4j/pdpa-guide.html, with the saved queries of
cypher/browser/ put in its runnable blocks), written into the `browser/lexgraph/` folder
that the local Neo4j server serves at http://127.0.0.1:<http port>/browser/lexgraph/."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

from services.core.settings import REPO_ROOT

KIT = REPO_ROOT / "deploy" / "neo4j"
SAVED_QUERIES = REPO_ROOT / "cypher" / "browser"
GUIDE = "pdpa-guide.html"
STYLE = "lexgraph.grass"
_QUERY = re.compile(r"\{\{query (\d\d_[\w.-]+)\}\}")


def kit_sources() -> list[Path]:
    return [KIT / GUIDE, KIT / STYLE, *sorted(SAVED_QUERIES.glob("*.cypher"))]


def guide_html() -> str:
    """The guide with each `{{query NAME}}` replaced by that saved query (HTML-escaped)."""
    template = (KIT / GUIDE).read_text(encoding="utf-8")

    def query(match: re.Match[str]) -> str:
        return html.escape((SAVED_QUERIES / match.group(1)).read_text(encoding="utf-8").strip())

    return _QUERY.sub(query, template)


def write_browser_kit(folder: Path) -> None:
    """The style and the guide in `folder` (the server's `browser/lexgraph/`); the local
    server's post-connect command applies the one and opens the other (LocalNeo4j.java)."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(KIT / STYLE, folder / STYLE)
    (folder / GUIDE).write_text(guide_html(), encoding="utf-8")
