"""The sidataplus/pdpa site's conventions: Obsidian-style wiki-links "[[มาตรา ๒๖]]".

The site's authors marked every internal cross-reference by hand, which makes the links
ground truth for citation extraction: `read_marked_links` collects them from the
per-section files `article-N.md`, and the Markdown reader records the links of
`about.md` in `Law.marked_citations`.
"""

from __future__ import annotations

import re
from pathlib import Path

from ingest.ids import law_id_for_title, normalise_section_number, section_key

WIKI_LINK = re.compile(r"\[\[(?P<target>[^\]|]+)(?:\|(?P<shown>[^\]]+))?\]\]")
# "[[มาตรา ๒๖]]" in bodies, "[[ม26]]" in the site's table of contents.
_SECTION_TARGET = re.compile(r"^(?:มาตรา|ข้อ|ม\.?)\s*(?P<num>[0-9๐-๙].*)$")
_ARTICLE_FILE = re.compile(r"^article-(?P<num>\d+)\.md$")
_PDPA_TITLE = "พระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. ๒๕๖๒"


def link_target_number(target: str) -> str | None:
    match = _SECTION_TARGET.match(target.strip())
    return normalise_section_number(match.group("num")) if match else None


def replace_links(text: str) -> tuple[str, list[str]]:
    """The text with links shown as plain text, and the section numbers they point at."""
    targets: list[str] = []

    def plain(match: re.Match[str]) -> str:
        number = link_target_number(match.group("target"))
        if number is not None:
            targets.append(number)
        return match.group("shown") or match.group("target")

    return WIKI_LINK.sub(plain, text), targets


def read_marked_links(folder: Path, law_id: str | None = None) -> set[tuple[str, str]]:
    """(source key, target key) pairs of the hand-marked links in `article-N.md` files.

    The front matter and the section's own title are not links; a link from a section to
    itself is kept out, as a citation extractor ignores a section's own heading.
    """
    law = law_id or law_id_for_title(_PDPA_TITLE)
    pairs: set[tuple[str, str]] = set()
    for path in sorted(folder.iterdir()):
        match = _ARTICLE_FILE.match(path.name)
        if not match:
            continue
        source = section_key(law, match.group("num"))
        _, targets = replace_links(_body(path.read_text(encoding="utf-8")))
        for number in targets:
            target = section_key(law, number)
            if target != source:
                pairs.add((source, target))
    return pairs


def _body(text: str) -> str:
    if text.startswith("---"):
        end = text.find("\n---", 3)
        if end != -1:
            return text[end + 4 :]
    return text
