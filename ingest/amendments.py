"""What amended, inserted or repealed a law's provisions, read from the law's own text.

Thai consolidated texts say it in one phrase: "<what> ซึ่งแก้ไขเพิ่มเติมโดย<which act>"
("as amended by"), "… ซึ่งถูกยกเลิกโดย…" (repealed by), "… ซึ่งเพิ่มโดย…" (inserted by),
and OCS puts its own notes in brackets inside a section ("[คำว่า “รัฐมนตรีว่าการ”
แก้ไขเพิ่มเติมโดยมาตรา ๓ แห่งพระราชบัญญัติเทียบตำแหน่ง…]"). Read by rule:
- the amending act is what follows "โดย": an act named up to its year or number, or "this
  act" ("พระราชบัญญัตินี้", "มาตรา ๑๒ แห่งพระราชบัญญัตินี้", or a bare "มาตรา ๑๒"): the
  law itself, or, in the provisions OCS appends after the text (`Law.appended_acts`),
  that appended act. A phrase followed by anything else ("เพิ่มโดยคำนวณ…", "แก้ไข
  เพิ่มเติมโดยสรุป…") is ordinary wording, not a marker;
- what it changed is the section cited just before the phrase ("มาตรา ๖๕ ตรี (๒) แห่ง
  ประมวลรัษฎากร ซึ่งแก้ไขเพิ่มเติมโดย…"), else a law named just before it (a change to the
  law, section unknown), else, in a bracketed note, the section the note is printed in. An
  appended act changed the law it is appended to, so a bare section number in it is that
  law's, and a marker of it that names nothing ("บรรดาบทบัญญัติ…ที่แก้ไขเพิ่มเติมโดย
  พระราชบัญญัตินี้") is a change to that law;
- a law never amends itself: "this act" with a target in the same law resolves nothing.

Pure functions of a `Law` and the corpus: no I/O. `ingest.build` turns them into
AmendingAct nodes with AMENDS / INSERTS / REPEALS relationships.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ingest.corpus import CorpusIndex, normalise_law_name
from ingest.ids import normalise_section_number
from ingest.models import Law
from ingest.readers.base import SECTION_NUMBER, make_section
from ingest.xrefs import Resolution, extract_citations, resolve_citations

CHANGES = {"แก้ไขเพิ่มเติม": "amends", "ยกเลิก": "repeals", "เพิ่ม": "inserts"}
SELF = "self"  # the amending act is the law the text belongs to

_PHRASE = re.compile(r"(?P<verb>แก้ไขเพิ่มเติม|ยกเลิก|เพิ่ม)\s*โดย\s*")
_ACT_WORD = (
    r"(?:พระราชบัญญัติ|พระราชกำหนด|พระราชกฤษฎีกา|ประมวล\S*?|ประกาศ\S*?|คำสั่ง\S*?|รัฐธรรมนูญ\S*?|กฎกระทรวง)"
)
# "มาตรา ๓๓", "มาตรา ๖ และมาตรา ๑๑", "มาตรา ๕, ๖ และ ๗" right after "โดย".
_BY_SECTIONS = re.compile(
    rf"(?:มาตรา|ข้อ)\s*(?P<first>{SECTION_NUMBER})"
    rf"(?P<more>(?:\s*(?:,|และ|หรือ)\s*(?:มาตรา|ข้อ)?\s*{SECTION_NUMBER})*)\s*"
)
_THIS_ACT = rf"{_ACT_WORD}นี้"
_BY_THIS = re.compile(rf"(?:แห่ง|ของ)?\s*{_THIS_ACT}")
_ACT_START = re.compile(_ACT_WORD)
# An act's name runs to its year ("… (ฉบับที่ ๔) พ.ศ. ๒๕๕๑"), past the year of a law it
# names ("พระราชกำหนดแก้ไขเพิ่มเติมพระราชบัญญัติสุรา พ.ศ. ๒๔๙๓ พ.ศ. ๒๕…", "ประกาศ…
# พ.ศ. ๒๔๖๔ ลงวันที่ ๒๕ ตุลาคม พ.ศ. ๒๔๖๗"), else to its number ("ประกาศของคณะปฏิวัติ
# ฉบับที่ ๓๒๑").
_YEAR_END = r"(?:พ\.\s*ศ\.|พระพุทธศักราช|พุทธศักราช)\s*[0-9๐-๙]{4}"
_NAME = rf"{_ACT_WORD}[^\n\[\]]{{0,250}}?"
_BY_NAMED = (
    re.compile(
        rf"(?:แห่ง|ของ)?\s*(?P<name>{_NAME}{_YEAR_END}"
        rf"(?:\s*(?:\(ฉบับที่\s*[0-9๐-๙]+\)|ลงวันที่[^\n]{{0,40}}?)?\s*{_YEAR_END})?)"
    ),
    re.compile(rf"(?:แห่ง|ของ)?\s*(?P<name>{_NAME}ฉบับที่\s*[0-9๐-๙]+\)?)"),
)
_NUMBER = re.compile(SECTION_NUMBER)
# Words between what was changed and the phrase: "ซึ่ง", "ที่ได้", "ตามที่ได้", "ซึ่งถูก",
# "ก่อนการ" (before the change by), …
_CONNECTOR = re.compile(
    r"(?:ซึ่ง|ที่|ตามที่|ก่อน)?\s*(?:ได้)?\s*(?:มีการ|การ)?\s*(?:ถูก)?\s*(?:ยกเลิกหรือ|ยกเลิกและ)?\s*\Z"
)
# What may stand between a cited section and the connector: its paragraph or clause, and
# "แห่ง<law name>" (at most a line of it).
_GAP_MAX = 160
_NAME_TO_END = re.compile(rf"{_NAME}{_YEAR_END}\s*")
# Citations joined into one list ("มาตรา ๒๑ หรือมาตรา ๒๒ แห่ง…") are all changed.
_LIST_JOIN = re.compile(r"\s*(?:\([^)]{1,4}\)\s*|วรรค\S+\s*)*(?:,|และ|หรือ)?\s*")
_BRACKET_MAX = 400
MARKER_CHARS = 200


@dataclass(frozen=True)
class Amendment:
    """One marker, read: which act changed what."""

    change: str  # "amends" | "repeals" | "inserts"
    by: str  # the amending act: SELF, "appended-<k>" or its name as printed
    by_sections: tuple[str, ...]  # the amending act's sections the marker names
    target: str  # a Section key, a law id (a change to the law), or a law's name
    target_kind: str  # "section" | "law" | "external" (a law not in the corpus)
    place: str  # where the marker is printed: a section key or "<where>:<number>"
    marker: str  # the marker as printed


@dataclass(frozen=True)
class Marker:
    """A marker phrase whose amending act was read, with what it changed (none when that
    could not be told; several for "มาตรา ๒๑ หรือมาตรา ๒๒ … ซึ่งแก้ไขเพิ่มเติมโดย…")."""

    place: str
    text: str
    amendments: tuple[Amendment, ...]


def read_markers(law: Law, corpus: CorpusIndex) -> list[Marker]:
    """Every amendment marker in `law`: its sections, its notes, and the provisions and
    remarks of the acts appended to it, in that order."""
    found: list[Marker] = []
    for place, text, context, bracket_target in _texts(law):
        found += _markers(law, corpus, place, text, context, bracket_target=bracket_target)
    return found


def find_amendments(law: Law, corpus: CorpusIndex) -> list[Amendment]:
    """The markers of `law` that say both which act changed it and what it changed."""
    return [a for marker in read_markers(law, corpus) for a in marker.amendments]


def count_phrases(law: Law) -> int:
    """How many "แก้ไขเพิ่มเติมโดย / ยกเลิกโดย / เพิ่มโดย" phrases `law` prints, markers
    or not (the denominator a report compares markers with)."""
    return sum(len(_PHRASE.findall(text)) for _, text, _, _ in _texts(law))


def _texts(law: Law) -> Iterator[tuple[str, str, str, str | None]]:
    """(place, text, the act "this act" means there, the section a bracketed note in it
    annotates) for each text of `law` a marker may be printed in."""
    for section in sorted(law.sections, key=lambda s: s.order):
        yield section.key, section.text, SELF, section.key
    for index, note in enumerate(law.notes):
        yield f"{law.id}:note-{index + 1}", note, SELF, None
    for act in law.appended_acts:
        by = f"appended-{act.index}"
        for unit, number, text in act.provisions:
            yield f"{law.id}:{by}:{unit}-{number}", text, by, None
        for index, note in enumerate(act.notes):
            yield f"{law.id}:{by}:note-{index + 1}", note, by, None


# --- one text ----------------------------------------------------------------------------


def _markers(
    law: Law,
    corpus: CorpusIndex,
    place: str,
    raw: str,
    context: str,
    *,
    bracket_target: str | None = None,
) -> list[Marker]:
    text = re.sub(r"[ \t\u00a0]+", " ", raw)
    phrases = list(_PHRASE.finditer(text))
    if not phrases:
        return []
    probe = make_section(law.id, "amendment-probe", text, language=law.language, order=-1)
    resolutions = resolve_citations(extract_citations(probe, law, corpus), law, corpus)
    out: list[Marker] = []
    for phrase in phrases:
        by = _amending_act(text, phrase.end(), context)
        if by is None:
            continue  # ordinary wording, not a marker
        act, by_sections = by
        marker = text[max(0, phrase.start() - 60) : phrase.end() + 80].strip()[:MARKER_CHARS]
        targets = _targets(law, corpus, text, phrase.start(), resolutions, context, bracket_target)
        if act == SELF:  # a law does not amend itself
            targets = [t for t in targets if not _own(law, t)]
        amendments = tuple(
            Amendment(CHANGES[phrase["verb"]], act, by_sections, key, kind, place, marker)
            for key, kind in targets
        )
        out.append(Marker(place, marker, amendments))
    return out


def _amending_act(text: str, at: int, context: str) -> tuple[str, tuple[str, ...]] | None:
    """(the act, its sections named) for the words after "โดย", or None when they name no
    act: SELF or "appended-<k>" (`context`) for "this act", else the act's name."""
    sections: tuple[str, ...] = ()
    numbered = _BY_SECTIONS.match(text, at)
    if numbered:
        sections = tuple(
            normalise_section_number(n.group(0))
            for n in _NUMBER.finditer(numbered["first"] + numbered["more"])
        )
        at = numbered.end()
    if _BY_THIS.match(text, at):
        return context, sections
    for pattern in _BY_NAMED:
        named = pattern.match(text, at)
        if named:
            return " ".join(named["name"].split()), sections
    if numbered and not text.startswith("แห่ง", at):
        return context, sections  # "โดยมาตรา ๕": a section of the act the text belongs to
    return None


def _targets(
    law: Law,
    corpus: CorpusIndex,
    text: str,
    at: int,
    resolutions: list[Resolution],
    context: str,
    bracket_target: str | None,
) -> list[tuple[str, str]]:
    """What the marker at `at` changed, each with its kind ("section", "law",
    "external"); empty when that cannot be told."""
    before = text[:at]
    connector = _CONNECTOR.search(before)
    end = connector.start() if connector else at
    if bracket_target is not None:
        opened = before.rfind("[")
        if opened >= 0 and at - opened <= _BRACKET_MAX and "]" not in before[opened:]:
            return [(bracket_target, "section")]
    cited = [r for r in resolutions if r.citation.span[1] <= end]
    if cited:
        gap = text[cited[-1].citation.span[1] : end]
        # "มาตรา ๓๒ แห่งพระราชบัญญัตินี้" in an appended act is that act's own section.
        if (
            len(gap) <= _GAP_MAX
            and not re.search(r"มาตรา|ข้อ\s*[0-9๐-๙]|\n\s*\n|ให้", gap)
            and not re.search(_THIS_ACT, gap)
        ):
            return [target for target in map(_cited, _listed(text, cited)) if target[0]]
    name = corpus.match_law_name_suffix(normalise_law_name(before[:end]))
    if name:
        return [(corpus.law_ids_by_name[name], "law")]
    window = before[max(0, end - 200) : end]
    for start in reversed([m.start() for m in _ACT_START.finditer(window)]):
        if _NAME_TO_END.fullmatch(window, start):
            named = " ".join(window[start:].split())
            law_id = corpus.resolve_law(named)
            return [(law_id, "law") if law_id else (named, "external")]
    if context != SELF:
        return [(law.id, "law")]  # an appended act's general words: a change to its law
    return []


def _listed(text: str, cited: list[Resolution]) -> list[Resolution]:
    """The last citation of `cited` and those listed with it ("มาตรา ๒๑ หรือมาตรา ๒๒")."""
    out = [cited[-1]]
    for previous in reversed(cited[:-1]):
        between = text[previous.citation.span[1] : out[-1].citation.span[0]]
        if not _LIST_JOIN.fullmatch(between):
            break
        out.append(previous)
    return out[::-1]


def _cited(resolution: Resolution) -> tuple[str, str]:
    if resolution.target is not None:
        return resolution.target, "section"
    if resolution.law_id is not None:
        return resolution.law_id, "law"  # a section the corpus's text of that law lacks
    return " ".join((resolution.citation.law or "").split()), "external"


def _own(law: Law, target: tuple[str, str]) -> bool:
    key, kind = target
    return key == law.id or (kind == "section" and key.startswith(f"{law.id}:"))
