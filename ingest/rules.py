"""Typed relations found by rule, no LLM: penalties, definitions, exemptions.

- Penalties. A penalty clause ("… ต้องระวางโทษ…", "liable to a fine", GDPR Art. 83(4)-(6))
  becomes a Penalty (kind, maximum fine, maximum prison term). The sections whose breach
  it punishes are the citations that directly follow a breach verb ("ผู้ใดฝ่าฝืนมาตรา ๒๖
  วรรคหนึ่งหรือวรรคสาม หรือมาตรา ๒๘", "ไม่ปฏิบัติตามมาตรา…", "ไม่เป็นไปตามมาตรา…",
  "contravenes section…") or continue that list; a citation that only qualifies the act
  ("อันเกี่ยวกับข้อมูลส่วนบุคคลตามมาตรา ๒๖") is a reference, not a breach. Japanese names
  the articles first and the breach after them ("第百四十三条の規定に違反して…罰金に処する";
  過料 is an administrative fine).
- Definitions: “…” หมายความว่า …, ‘x’ means …; a section uses a term when its text
  contains the exact term (longer defined terms masked first, so "บุคคล" is not counted
  inside "ข้อมูลส่วนบุคคล"), the defining section excepted.
- Exemptions: เว้นแต่ …, มิให้นำ…มาใช้บังคับ, ไม่ใช้บังคับแก่ …, "shall not apply",
  "does not apply". A "does not apply" sentence that names sections carves out of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.ids import node_key
from ingest.models import Law, Section
from ingest.thai_numbers import KANJI_NUMERAL, max_fine, max_prison_months
from ingest.xrefs import Resolution

# --- penalties ----------------------------------------------------------------------------

_PENALTY_RE = re.compile(
    r"ระวางโทษ|ต้องโทษปรับ|liable\s(?:on\sconviction\s)?to\s(?:a\s)?(?:fine|imprisonment)|"
    r"subject\sto\sadministrative\sfines|administrative\sfines?\sup\sto|guilty\sof\san\soffence|"
    r"(?:罰金|過料|拘禁刑|懲役)に処する",
    re.IGNORECASE,
)
_ADMINISTRATIVE_RE = re.compile(
    r"ปรับทางปกครอง|administrative\sfine|financial\spenalty|過料", re.IGNORECASE
)
# PDF-derived text breaks words with stray spaces ("ไม่ปฏิบัติ ตามมาตรา ๒๘"), hence the "\s?".
_TH_BREACH_RE = re.compile(
    r"(?:ฝ่าฝืน\s?หรือ\s?ไม่ปฏิบัติ\s?ตาม|ฝ่าฝืน|(?:ละเว้น\s?)?ไม่ปฏิบัติ\s?ตาม|ไม่เป็นไป\s?ตาม"
    r"|ไม่ดำเนินการ\s?ตาม|ไม่จัดให้มี\s?ตาม|ไม่แจ้ง\s?ตาม|ไม่ยื่น\s?ตาม)"
    r"[ \t\u00a0]{0,2}(?:ความใน|บทบัญญัติ(?:แห่ง|ใน)?)?"
)
_EN_BREACH_RE = re.compile(
    r"(?:contravenes?|contravention\sof|fails?\sto\scomply\swith|in\sbreach\sof|infringes?"
    r"|non-compliance\swith)\s(?:any\sof\s)?(?:the\sprovisions?\sof\s)?",
    re.IGNORECASE,
)
_EN_LISTED_BREACHES_RE = re.compile(r"infringements\sof\sthe\sfollowing\sprovisions", re.I)
# Weaker breach verbs: they punish not doing what a section requires ("ไม่ขอความยินยอม
# ตามแบบ…ตามมาตรา ๑๙ วรรคสาม"), so they count only for a "ตามมาตรา" shortly after them.
_TH_LOOSE_BREACH_RE = re.compile(
    r"ไม่(?:ขอ|แจ้ง|ยื่น|จัดให้มี|จัดทำ|ส่ง|มาชี้แจง|อำนวยความสะดวก|บันทึก|ดำเนินการ|ลบ|ระงับ|ชำระ|เก็บรักษา)"
)
_LIST_GAP_RE = re.compile(
    r"[ \t\u00a0,]{0,3}(?:(?:หรือ|และ|or|and|,)[ \t\u00a0]{0,3})?"
    r"(?:(?:ฝ่าฝืน|ไม่ปฏิบัติตาม|ไม่เป็นไปตาม)[ \t\u00a0]{0,2})?"
)
_LOOSE_BREACH_WINDOW = 120  # "ไม่ปฏิบัติตามคำสั่ง…ตามมาตรา ๗๕": an order made under a section
# Japanese puts the breach after the articles: "第百四十三条の規定に違反して",
# "第百四十八条第二項又は第三項の規定による命令に違反した", "第五十一条第一項の規定による届出をせず".
_JA_LIST_MORE_RE = re.compile(
    rf"(?:又は|若しくは|及び|、)(?:第{KANJI_NUMERAL}(?:条|項|号))+"
    r"|（[^（）]{0,60}）"
)
_JA_BREACH_AFTER_RE = re.compile(r"の規定(?:に違反|による[^。、]{0,20}?(?:に違反|をせず|を拒))")


@dataclass(frozen=True)
class Penalty:
    key: str  # "<law>:pen:<section number>:<i>"
    section: str  # key of the section that prescribes it
    index: int  # 1-based within the section
    kind: str  # "criminal" | "administrative"
    text: str
    max_fine: int | None
    currency: str | None  # "THB", "EUR", "SGD", ...
    max_prison_months: int | None
    breached: tuple[str, ...]  # keys of the sections whose breach it punishes

    @property
    def max_fine_thb(self) -> int | None:
        return self.max_fine if self.currency == "THB" else None


def find_penalties(section: Section, law: Law, resolutions: list[Resolution]) -> list[Penalty]:
    """Penalty clauses of `section`, each with the sections whose breach it punishes."""
    out: list[Penalty] = []
    for start, end in _clause_groups(section.text, law.language):
        chunk = section.text[start:end]
        if not _PENALTY_RE.search(chunk):
            continue
        inside = [r for r in resolutions if start <= r.citation.span[0] < end]
        breached = _breached(section.text, start, end, inside, law.language)
        fine = max_fine(chunk)
        kind = "administrative" if _ADMINISTRATIVE_RE.search(chunk) else "criminal"
        index = len(out) + 1
        out.append(
            Penalty(
                key=node_key(law.id, "pen", section.number, index),
                section=section.key,
                index=index,
                kind=kind,
                text=chunk.strip(),
                max_fine=fine[0] if fine else None,
                currency=(fine[1] or None) if fine else None,
                max_prison_months=max_prison_months(chunk),
                breached=tuple(dict.fromkeys(breached)),
            )
        )
    return out


def _breached(
    text: str, start: int, end: int, resolutions: list[Resolution], language: str
) -> list[str]:
    targets = sorted(
        (r for r in resolutions if r.target is not None and r.target != r.citation.source),
        key=lambda r: r.citation.span,
    )
    if not targets:
        return []
    if _EN_LISTED_BREACHES_RE.search(text, start, end):
        return [r.target for r in targets if r.target]
    if language == "ja":
        return [r.target for r in targets if r.target and _breached_ja(text, r.citation.span[1])]
    trigger_re = _EN_BREACH_RE if language == "en" else _TH_BREACH_RE
    triggers = [m.end() for m in trigger_re.finditer(text, start, end)]
    loose_triggers = sorted(
        {*triggers, *(m.end() for m in _TH_LOOSE_BREACH_RE.finditer(text, start, end))}
    )
    out: list[str] = []
    chain_end: int | None = None
    for resolution in targets:
        span = resolution.citation.span
        target = resolution.target
        assert target is not None  # noqa: S101 - filtered above
        if chain_end is not None and span[0] <= chain_end:
            out.append(target)  # another variant/range item of the same token
            continue
        gap_start = chain_end if chain_end is not None else -1
        directly = any(_is_gap(text, t, span[0]) for t in triggers)
        continued = gap_start >= 0 and _is_gap(text, gap_start, span[0])
        loose = _loosely_after_trigger(text, loose_triggers, span[0], chain_end)
        if directly or continued or loose:
            out.append(target)
            chain_end = span[1]
        else:
            chain_end = None
    return out


def _breached_ja(text: str, at: int) -> bool:
    """Whether the article cited just before `at` is breached: the rest of its list, then
    "の規定に違反" (or an order, report or filing under it not obeyed)."""
    while more := _JA_LIST_MORE_RE.match(text, at):
        at = more.end()
    return _JA_BREACH_AFTER_RE.match(text, at) is not None


def _is_gap(text: str, begin: int, end: int) -> bool:
    if begin > end:
        return False
    match = _LIST_GAP_RE.fullmatch(text, begin, end)
    return match is not None


def _loosely_after_trigger(text: str, triggers: list[int], at: int, chain_end: int | None) -> bool:
    """ "ไม่ปฏิบัติตามคำสั่ง…ตามมาตรา ๗๕": the first citation after a trigger that was not
    itself followed by a citation, within a short window and with "ตาม" right before it."""
    if not text[max(0, at - 3) : at].endswith("ตาม"):
        return False
    for trigger in triggers:
        if trigger < at <= trigger + _LOOSE_BREACH_WINDOW and (
            chain_end is None or chain_end < trigger
        ):
            between = text[trigger:at]
            if "มาตรา" not in between and "\n" not in between and "ระวางโทษ" not in between:
                return True
    return False


def _clause_groups(text: str, language: str) -> list[tuple[int, int]]:
    """Offsets of paragraphs, each with the clause lines that belong to it."""
    groups: list[tuple[int, int]] = []
    offset = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if language == "en":
            starts_group = bool(re.match(r"^\d{1,3}\.\s", stripped))
        elif language == "ja":  # items "1. …" belong to the paragraph above them
            starts_group = bool(stripped) and not re.match(r"^\d{1,3}\.\s", stripped)
        else:
            starts_group = bool(stripped) and not stripped.startswith("(")
        if starts_group or not groups:
            groups.append((offset, offset + len(line)))
        else:
            groups[-1] = (groups[-1][0], offset + len(line))
        offset += len(line)
    return groups


# --- definitions --------------------------------------------------------------------------

_TH_DEFINITION_RE = re.compile(
    r"[“\"](?P<term>[^”\"\n]{1,80})[”\"][ \t\u00a0]{0,3}(?:ให้)?(?:หมายความว่า|หมายความรวมถึง|หมายถึง)"
    r"[ \t\u00a0]{0,3}(?P<text>[^\n]{0,2000})"
)
_EN_DEFINITION_RE = re.compile(
    r"[‘'\"“](?P<term>[^’'\"”\n]{1,60})[’'\"”](?:[ \t\u00a0][^‘’'\"“”\n]{1,40}?)?"
    r"[ \t\u00a0]{1,3}(?:means|includes|shall\smean)\b"
    r"[ \t\u00a0]{0,3}(?P<text>[^\n]{0,2000})"
)


@dataclass(frozen=True)
class Definition:
    key: str  # "<law>:def:<term>"
    term: str
    section: str  # key of the defining section
    text: str  # the definition itself


def find_definitions(law: Law) -> list[Definition]:
    """Definitions in `law`, first definition of a term wins (later ones point at it)."""
    found: dict[str, Definition] = {}
    pattern = _EN_DEFINITION_RE if law.language == "en" else _TH_DEFINITION_RE
    for section in sorted(law.sections, key=lambda s: s.order):
        for match in pattern.finditer(section.text):
            term = re.sub(r"\s+", " ", match["term"]).strip()
            if len(term) < 2 or term in found:
                continue
            found[term] = Definition(
                key=node_key(law.id, "def", term),
                term=term,
                section=section.key,
                text=match["text"].strip().rstrip(";"),
            )
    return list(found.values())


def defining_sections(law: Law, definitions: list[Definition]) -> list[tuple[str, str]]:
    """(section key, definition key) for every section that defines a known term."""
    by_term = {d.term: d for d in definitions}
    pattern = _EN_DEFINITION_RE if law.language == "en" else _TH_DEFINITION_RE
    pairs: list[tuple[str, str]] = []
    for section in law.sections:
        for match in pattern.finditer(section.text):
            definition = by_term.get(re.sub(r"\s+", " ", match["term"]).strip())
            if definition is not None:
                pairs.append((section.key, definition.key))
    return list(dict.fromkeys(pairs))


def find_term_uses(law: Law, definitions: list[Definition]) -> list[tuple[str, str]]:
    """(section key, definition key) for each section whose text uses a defined term."""
    defining = {pair for pair in defining_sections(law, definitions)}
    ordered = sorted(definitions, key=lambda d: len(d.term), reverse=True)
    patterns = {d.key: _term_pattern(d.term, law.language) for d in ordered}
    uses: list[tuple[str, str]] = []
    for section in sorted(law.sections, key=lambda s: s.order):
        text = section.text
        for definition in ordered:
            pattern = patterns[definition.key]
            if pattern.search(text) is None:
                continue
            if (section.key, definition.key) not in defining:
                uses.append((section.key, definition.key))
            text = pattern.sub(lambda m: "\u0000" * len(m.group(0)), text)  # mask longer terms
    return sorted(uses)


def _term_pattern(term: str, language: str) -> re.Pattern[str]:
    escaped = re.escape(term)
    if language == "en":
        return re.compile(rf"\b{escaped}s?\b", re.IGNORECASE)
    return re.compile(escaped)


# --- exemptions ---------------------------------------------------------------------------

_TH_EXCEPT_RE = re.compile(r"เว้นแต่")
_TH_NOT_APPLY_RE = re.compile(
    r"มิให้นำ[^\n]{0,80}?มาใช้บังคับ|ไม่ใช้บังคับ(?:แก่|กับ)|มิให้ใช้บังคับ(?:แก่|กับ)|ไม่อยู่ในบังคับ"
)
_EN_NOT_APPLY_RE = re.compile(r"\b(?:shall|does|do)\snot\sapply\b", re.IGNORECASE)
_TH_OWN_PARAGRAPH_RE = re.compile(r"ความในวรรค(?P<w>หนึ่ง|สอง|สาม|สี่|ห้า|หก)")
_EXEMPTION_MAX_CHARS = 600
_OPENS_LIST_RE = re.compile(r"(?:เว้นแต่|ดังต่อไปนี้|ต่อไปนี้|:)\s*$")


@dataclass(frozen=True)
class Exemption:
    key: str  # "<law>:ex:<section number>:<i>"
    section: str  # key of the section that grants it
    index: int
    kind: str  # "except" | "not_apply"
    text: str  # the clause
    span: tuple[int, int]
    exempts_from: tuple[str, ...]  # keys of the sections it carves out of, where named


def find_exemptions(section: Section, law: Law, resolutions: list[Resolution]) -> list[Exemption]:
    """Exemption clauses of `section`, in text order."""
    text = section.text
    found: list[tuple[int, int, str, tuple[str, ...]]] = []
    if law.language == "en":
        for match in _EN_NOT_APPLY_RE.finditer(text):
            begin = _sentence_start_en(text, match.start())
            end = _sentence_end_en(text, match.end())
            found.append(
                (begin, end, "not_apply", _named_before(resolutions, begin, match.start()))
            )
    else:
        for match in _TH_NOT_APPLY_RE.finditer(text):
            begin = text.rfind("\n", 0, match.start()) + 1
            end = _clause_end_th(text, match.end())
            named = _named_before(resolutions, begin, match.start())
            own = _TH_OWN_PARAGRAPH_RE.search(text, begin, match.start())
            if not named and own is not None:
                named = (section.key,)
            found.append((begin, end, "not_apply", named))
        for match in _TH_EXCEPT_RE.finditer(text):
            if any(b <= match.start() < e for b, e, _, _ in found):
                continue
            found.append((match.start(), _clause_end_th(text, match.end()), "except", ()))
    found.sort()
    out: list[Exemption] = []
    for begin, end, kind, named in found:
        index = len(out) + 1
        out.append(
            Exemption(
                key=node_key(law.id, "ex", section.number, index),
                section=section.key,
                index=index,
                kind=kind,
                text=text[begin:end].strip(),
                span=(begin, end),
                exempts_from=tuple(dict.fromkeys(named)),
            )
        )
    return out


def _named_before(resolutions: list[Resolution], begin: int, end: int) -> tuple[str, ...]:
    return tuple(
        r.target for r in resolutions if r.target is not None and begin <= r.citation.span[0] < end
    )


def _clause_end_th(text: str, at: int) -> int:
    """End of a Thai clause: the line, plus the clause lines it opens ("เว้นแต่\n(๑) …")."""
    line_end = text.find("\n", at)
    line_end = len(text) if line_end == -1 else line_end
    sentence_end = text.find("  ", at)  # Thai marks a sentence end with a wide space
    end = line_end if sentence_end == -1 else min(line_end, sentence_end)
    if _OPENS_LIST_RE.search(text[at:end]) or text[at:end].strip() == "":
        pos = end
        while pos < len(text):
            nxt = text.find("\n", pos + 1)
            nxt = len(text) if nxt == -1 else nxt
            if not text[pos:nxt].strip().startswith("("):
                break
            pos = nxt
        end = pos
    return min(end, at + _EXEMPTION_MAX_CHARS)


def _sentence_start_en(text: str, at: int) -> int:
    cut = max(text.rfind(". ", 0, at), text.rfind("\n", 0, at), text.rfind(";", 0, at))
    return cut + 1 if cut >= 0 else 0


def _sentence_end_en(text: str, at: int) -> int:
    ends = [i for i in (text.find(". ", at), text.find("\n", at), text.find(";", at)) if i != -1]
    end = min(ends) + 1 if ends else len(text)
    return min(end, at + _EXEMPTION_MAX_CHARS)
