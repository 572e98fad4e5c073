"""Citations inside section text, and their resolution to section keys.

Thai drafting repeats "มาตรา" for every cited section ("มาตรา ๒๑ มาตรา ๒๒ และมาตรา ๒๔"),
writes ranges as "มาตรา ๒๔ ถึงมาตรา ๒๖", narrows with "วรรคหนึ่ง" and clause labels
"(๕) (ก)", and names another law after the last section of a list ("มาตรา ๒๒ มาตรา ๒๓
หรือมาตรา ๒๔ แห่งประมวลกฎหมายแพ่งและพาณิชย์"), so a law name applies to the whole list
before it. English statutes write "Article 9(2)(a)", "Articles 5, 6, 7 and 9",
"Articles 15 to 22", "section 26" and "... of Regulation (EU) 2018/1725". Japanese
statutes cite "第二十七条第一項第二号" in kanji numerals and name another law right before
its article ("内閣府設置法第三十九条"); "前条" is the preceding article (Thai "มาตราก่อน").
"บัญชีท้ายหมวดนี้" (the schedule at the end of this chapter) cites every item of that
schedule where the source holds its items as provisions.

Every pattern is precompiled; quantifiers are bounded or over disjoint character classes,
so matching is linear in the text. Scanning is left to right with explicit positions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ingest.corpus import CorpusIndex, normalise_law_name, normalise_section_number
from ingest.ids import THAI_ORDINAL, thai_to_arabic_digits
from ingest.models import Law, Section
from ingest.thai_numbers import KANJI_NUMERAL, parse_kanji_number, parse_thai_number

_SP = r"[ \t\u00a0\u200b]"  # modifiers and lists never cross a line break
# "26", "26/1", "19 ทวิ"; a suffix only when a Thai word does not continue after it.
_TH_NUM = (
    rf"[0-9๐-๙]{{1,4}}(?:{_SP}?/{_SP}?[0-9๐-๙]{{1,3}})?"
    rf"(?:{_SP}?{THAI_ORDINAL})?"
)
# A clause "(๕)", one an amendment inserted ("(๕/๑)", "(๑ ทวิ)"), or a letter "(ก)".
_TH_CLAUSE = (
    rf"[0-9๐-๙]{{1,3}}(?:{_SP}?/{_SP}?[0-9๐-๙]{{1,2}})?(?:{_SP}?{THAI_ORDINAL})?|[ก-ฮ]{{1,2}}"
)
_TH_SECTION_RE = re.compile(rf"(?<!อนุ)มาตรา{_SP}{{0,3}}(?P<num>{_TH_NUM})")
_PREVIOUS_RE = re.compile(r"มาตราก่อน|前条")  # "the preceding section", Thai and Japanese
# A bare number continues a list only when no unit word ("ปี", "บาท") shows it is a quantity.
_TH_BARE_RE = re.compile(
    rf"{_SP}{{0,3}}(?P<sep>,|และ|หรือ|ถึง){_SP}{{0,3}}(?P<num>{_TH_NUM})"
    rf"(?![0-9๐-๙/]|{_SP}?(?:ปี|เดือน|วัน|บาท|คน|ครั้ง|ชั่วโมง|เท่า|ราย|%|เปอร์เซ็นต์|ของจำนวน))"
)
_PARA_WORDS = r"(?:[0-9๐-๙]{1,2}|(?:หนึ่ง|สอง|สาม|สี่|ห้า|หก|เจ็ด|แปด|เก้า|สิบ|เอ็ด|ยี่|ท้าย)+)"
_TH_PARA_RE = re.compile(
    rf"{_SP}{{0,3}}(?:(?:,|และ|หรือ){_SP}{{0,3}})?วรรค{_SP}?(?P<w>{_PARA_WORDS})"
)
_SUBSECTION_RE = re.compile(  # CCC style "มาตรา 1055 อนุมาตรา 4 หรืออนุมาตรา 5"
    rf"{_SP}{{0,3}}(?P<conj>(?:,|และ|หรือ){_SP}{{0,3}})?อนุมาตรา{_SP}{{0,3}}(?P<c>[0-9๐-๙]{{1,2}})(?![0-9๐-๙])"
)
_SUBSECTION_MORE_RE = re.compile(
    rf"{_SP}{{0,3}}(?:,|และ|หรือ){_SP}{{0,3}}(?:อนุมาตรา{_SP}{{0,3}})?(?P<c>[0-9๐-๙]{{1,2}})(?![0-9๐-๙/])"
)
_TH_PARA_MORE_RE = re.compile(
    rf"{_SP}{{0,3}}(?:,|และ|หรือ){_SP}{{0,3}}(?P<w>[0-9๐-๙]{{1,2}})(?![0-9๐-๙/]|{_SP}?(?:ปี|เดือน|วัน|บาท))"
)
_CLAUSE_RE = re.compile(
    rf"{_SP}{{0,3}}(?P<conj>(?:,|และ|หรือ){_SP}{{0,3}})?\({_SP}?(?P<c>{_TH_CLAUSE})"
    rf"{_SP}?\)"
)
_TH_RANGE_RE = re.compile(
    rf"{_SP}{{0,3}}ถึง{_SP}{{0,3}}(?P<bare>มาตรา)?{_SP}{{0,3}}(?P<num>{_TH_NUM})"
)
_TH_CHAIN_RE = re.compile(
    rf"{_SP}{{0,3}}(?:,|และ|หรือ|ถึง|รวมทั้ง|ประกอบกับ|ประกอบ|กับ)?{_SP}{{0,3}}(?=มาตรา{_SP}{{0,3}}[0-9๐-๙])"
)
_TH_LAW_TYPES = r"(?:พระราชบัญญัติ|พระราชกำหนด|พระราชกฤษฎีกา|ประมวล|รัฐธรรมนูญ|กฎกระทรวง|กฎหมายว่าด้วย)"
_TH_LAW_TYPE_ONLY_RE = re.compile(rf"{_TH_LAW_TYPES}(?:กฎหมาย)?")
_TH_LAW_INTRO_RE = re.compile(rf"{_SP}{{0,3}}(?:แห่ง|ของ|ตาม|ใน)?{_SP}{{0,3}}(?={_TH_LAW_TYPES})")
_TH_THIS_LAW = (
    r"(?:พระราชบัญญัติ(?:ประกอบรัฐธรรมนูญ)?|พระราชกำหนด|พระราชกฤษฎีกา|ประมวลกฎหมาย|ประมวลรัษฎากร"
    r"|กฎหมาย)นี้"
)
_TH_THIS_LAW_RE = re.compile(_TH_THIS_LAW)
_TH_THAT_LAW_RE = re.compile(rf"{_TH_LAW_TYPES}[ก-๛]{{0,30}}?ดังกล่าว")
_TH_THIS_LAW_END_RE = re.compile(_TH_THIS_LAW + "$")
# "บัญชีท้ายหมวดนี้" (the schedule at the end of this chapter), "บัญชีท้ายพระราชบัญญัตินี้" (the
# schedule to this Act). Schedule items are sections whose number is their heading
# ("บัญชีอัตราอากรแสตมป์ 1", Revenue Code): see `_schedule_citations`.
_TH_SCHEDULE_RE = re.compile(rf"บัญชีท้าย(?:(?P<chapter>หมวดนี้)|{_TH_THIS_LAW})")
_SCHEDULE_UNIT = "บัญชี"
_TH_EXTERNAL_BEFORE_RE = re.compile(
    rf"(?P<name>{_TH_LAW_TYPES}[^\n]{{0,160}}?พ\.{_SP}?ศ\.{_SP}{{0,2}}[0-9๐-๙]{{4}}"
    rf"|ประมวลกฎหมาย[ก-๛]{{2,40}}|ประมวลรัษฎากร|รัฐธรรมนูญ(?:แห่งราชอาณาจักรไทย)?){_SP}{{0,3}}$"
)
# Fixed names of Thai codes (longest first): cited without a year and often broken by
# stray spaces in PDF-derived text.
_KNOWN_CODES = (
    "ประมวลกฎหมายวิธีพิจารณาความแพ่ง",
    "ประมวลกฎหมายวิธีพิจารณาความอาญา",
    "ประมวลกฎหมายแพ่งและพาณิชย์",
    "รัฐธรรมนูญแห่งราชอาณาจักรไทย",
    "ประมวลกฎหมายที่ดิน",
    "ประมวลกฎหมายอาญา",
    "ประมวลรัษฎากร",
    "ประมวลกฎหมายยาเสพติด",
)
_TH_YEAR_RE = re.compile(r"พ\.ศ\.[0-9]{4}")
# A name read up to the next space runs into the words after it when they are not spaced:
# "…แห่งประมวลกฎหมายลักษณะอาญานั้น" (that code), "…นั้นก็ได้".
_TH_NAME_TAIL_RE = re.compile(r"(?:นั้น|ดังกล่าว)(?:ก็ได้)?$")
_TH_EXTERNAL_NAME_RE = re.compile(
    rf"{_TH_LAW_TYPES}[^\n]{{0,160}}?พ\.{_SP}?ศ\.{_SP}{{0,2}}[0-9๐-๙]{{4}}|{_TH_LAW_TYPES}[^\s]{{0,80}}"
)

_EN_NUM = r"\d{1,3}[A-Z]{0,2}"
_EN_MODS = r"(?:\(\s?(?:\d{1,3}(?:[a-z]|[A-Z]{1,2})?|[a-z]{1,4})\s?\))*"
_EN_SECTION_RE = re.compile(
    rf"\b(?P<kw>Articles?|articles?|Sections?|sections?)\s(?P<num>{_EN_NUM})(?P<mods>{_EN_MODS})"
)
_EN_LIST_RE = re.compile(
    rf"\s?(?P<sep>,|,?\s(?:and|or|to))\s(?P<num>{_EN_NUM})(?P<mods>{_EN_MODS})\b"
)
_EN_MOD_ITEM_RE = re.compile(r"\(\s?([0-9a-zA-Z]{1,4})\s?\)")
_EN_THIS_LAW_RE = re.compile(
    r"\s(?:of|in|under)\s(?:this|the\spresent)\s(?:Regulation|Act|Directive)\b"
)
_EN_OTHER_LAW_RE = re.compile(
    r"\s(?:of|in|under)\s(?:the\s)?(?P<name>(?:Regulation|Directive|Decision)\s\((?:EU|EC|EEC|Euratom)\)"
    r"\s(?:No\s)?\d{2,4}/\d{1,4}(?:/[A-Z]{2,3})?|(?:Regulation|Directive)\s(?:No\s)?\d{2,4}/\d{1,4}"
    r"(?:/[A-Z]{2,3})?|Charter(?:\sof\sFundamental\sRights(?:\sof\sthe\sEuropean\sUnion)?)?|TFEU|TEU"
    r"|Treaty\son\s(?:the\s)?(?:Functioning\sof\sthe\s)?European\sUnion"
    r"|[A-Z][A-Za-z]{1,20}(?:\s(?:[A-Z][A-Za-z]{1,20}|\([A-Z][a-z]{1,20}(?:\sNo\.?\s?\d{1,2})?\)|of"
    r"|and|the|on)){0,8}\sAct(?:\s\d{4})?)"
)
_EN_TREATY_SUFFIX_RE = re.compile(r"\s(?P<name>TFEU|TEU)\b")


@dataclass(frozen=True)
class Citation:
    """One cited place: a section, optionally a paragraph and clause path inside it."""

    source: str  # key of the citing section
    law: str | None  # None: the citing law itself; else the cited law's name as written
    section: str  # normalised section number, e.g. "26", "26/1", "19 ทวิ", "9"
    paragraph: int | None = None  # วรรคหนึ่ง -> 1; EU "Article 9(2)" -> 2
    clauses: tuple[str, ...] = ()  # "(๕) (ก)" -> ("5", "ก"); "(2)(a)" after a paragraph -> ("a",)
    span: tuple[int, int] = (0, 0)  # offsets in the section text
    text: str = ""  # the matched text
    law_id: str | None = None  # the cited law's id when the name was found in the corpus
    # "explicit" | "previous" ("มาตราก่อน": the preceding section) | "schedule" (an item of
    # the schedule "บัญชีท้ายหมวดนี้" points to)
    kind: str = "explicit"


@dataclass(frozen=True)
class Resolution:
    """Where a citation points: a section key, or why it points nowhere in the corpus."""

    citation: Citation
    law_id: str | None  # the cited law's id, None when not in the corpus
    target: str | None  # the cited section's key, None when unresolved

    @property
    def external(self) -> bool:
        return self.law_id is None


def extract_citations(
    section: Section, law: Law, corpus: CorpusIndex | None = None
) -> list[Citation]:
    """Every citation in `section`'s text, in text order.

    `corpus` (optional) lets names of other laws be matched to their exact extent and ranges
    into other laws be expanded over that law's real section numbers.
    """
    text = section.text
    if law.language == "ja":
        found = _japanese_citations(section, law)
    elif law.language == "en" or not re.search(r"มาตรา", text):
        found = _english_citations(section, law, corpus)
    else:
        found = _thai_citations(section, law, corpus)
    found.extend(_previous_section_citations(section, law))
    found.extend(_schedule_citations(section, law))
    return sorted(found, key=lambda c: (c.span, c.section, c.paragraph or 0, c.clauses))


def resolve_citation(citation: Citation, law: Law, corpus: CorpusIndex | None) -> Resolution:
    """The section key `citation` points at (same law, or another law in the corpus)."""
    if citation.law is None:
        key = _own_section_key(law, citation.section, corpus)
        return Resolution(citation, law.id, key)
    law_id = citation.law_id or (corpus.resolve_law(citation.law) if corpus else None)
    if law_id is None:
        return Resolution(citation, None, None)
    if law_id == law.id:
        return Resolution(citation, law_id, _own_section_key(law, citation.section, corpus))
    target = corpus.section_key(law_id, citation.section) if corpus else None
    return Resolution(citation, law_id, target)


def resolve_citations(
    citations: Iterable[Citation], law: Law, corpus: CorpusIndex | None
) -> list[Resolution]:
    return [resolve_citation(c, law, corpus) for c in citations]


# --- Thai -------------------------------------------------------------------------------


@dataclass
class _Item:
    """One cited number inside a chain, with the paragraph/clause variants after it."""

    number: str
    variants: list[tuple[int | None, tuple[str, ...]]]
    start: int
    end: int
    range_from_previous: bool = False  # "… ถึง <this>": fill the numbers in between


def _thai_citations(section: Section, law: Law, corpus: CorpusIndex | None) -> list[Citation]:
    text = section.text
    out: list[Citation] = []
    chain: list[_Item] = []
    chain_law: tuple[str | None, str | None] | None = None  # named before the chain
    last_other_law: tuple[str, str | None] | None = None
    pos = 0
    while True:
        match = _TH_SECTION_RE.search(text, pos)
        if match is None:
            break
        number = _normalise(match["num"])
        if _is_own_heading(text, match.start(), number, section, law):
            pos = match.end()
            continue
        if not chain:
            chain_law = _thai_law_before(text, match.start(), law, corpus)
        elif text[chain[-1].end : match.start()].strip(" \t\u00a0") == "ถึง":
            chain.append(_read_thai_item(text, match.start(), match.end(), number, True))
            pos = _read_thai_list(text, chain)
            if _TH_CHAIN_RE.match(text, pos) is not None:
                continue
            cited = _close_chain(text, pos, law, corpus, chain_law, last_other_law)
            cited_name, cited_id, pos = cited
            if cited_name is not None:
                last_other_law = (cited_name, cited_id)
            out.extend(_emit_chain(chain, section, law, corpus, cited_name, cited_id, text))
            chain = []
            continue
        chain.append(_read_thai_item(text, match.start(), match.end(), number, False))
        pos = _read_thai_list(text, chain)
        if _TH_CHAIN_RE.match(text, pos) is not None:
            continue
        cited_name, cited_id, pos = _close_chain(text, pos, law, corpus, chain_law, last_other_law)
        if cited_name is not None:
            last_other_law = (cited_name, cited_id)
        out.extend(_emit_chain(chain, section, law, corpus, cited_name, cited_id, text))
        chain = []
    return out


def _close_chain(
    text: str,
    pos: int,
    law: Law,
    corpus: CorpusIndex | None,
    chain_law: tuple[str | None, str | None] | None,
    last_other_law: tuple[str, str | None] | None,
) -> tuple[str | None, str | None, int]:
    """The law a finished chain cites (named after it, else before it) and where to go on."""
    after = _thai_law_after(text, pos, law, corpus, last_other_law)
    if after is not None:
        return after[0], after[1], max(pos, after[2])
    if chain_law is not None:
        return chain_law[0], chain_law[1], pos
    return None, None, pos


def _read_thai_item(text: str, start: int, pos: int, number: str, ranged: bool) -> _Item:
    variants: list[tuple[int | None, tuple[str, ...]]] = []
    paragraph: int | None = None
    clauses: list[str] = []
    digit_paragraph = False
    while True:
        para = _TH_PARA_RE.match(text, pos)
        if para is None and digit_paragraph and not clauses:
            para = _TH_PARA_MORE_RE.match(text, pos)  # "วรรค 1 และ 2"
        if para is not None:
            digit_paragraph = para["w"][:1].isdigit()
            if paragraph is not None or clauses:
                variants.append((paragraph, tuple(clauses)))
            paragraph = _paragraph_number(para["w"])
            clauses = []
            pos = para.end()
            continue
        clause = _CLAUSE_RE.match(text, pos) or _SUBSECTION_RE.match(text, pos)
        if clause is not None:
            cited = _normalise(clause["c"])
            # "(๕) (ก)" is a path; "(๑) (๒)", like "(๑) และ (๒)", are two clauses: no clause
            # nests under one of its own kind (`ingest.structure`).
            if clauses and (clause["conj"] or cited[0].isdigit() == clauses[-1][0].isdigit()):
                variants.append((paragraph, tuple(clauses)))
                clauses = clauses[:-1]
            clauses.append(cited)
            pos = clause.end()
            if clause.re is _SUBSECTION_RE:  # "อนุมาตรา 1, 2 และ 3": clauses, not sections
                while (more := _SUBSECTION_MORE_RE.match(text, pos)) is not None:
                    variants.append((paragraph, tuple(clauses)))
                    clauses = [*clauses[:-1], _normalise(more["c"])]
                    pos = more.end()
                break  # CCC style: a "(2)" after "อนุมาตรา 3" is the citing text's own clause
            continue
        break
    variants.append((paragraph, tuple(clauses)))
    return _Item(number, variants, start, pos, ranged)


def _read_thai_list(text: str, chain: list[_Item]) -> int:
    """Bare numbers continuing a list: "มาตรา 379 และ 382", "มาตรา 1658, 1660 ถึง 1663"."""
    pos = chain[-1].end
    while True:
        bare = _TH_BARE_RE.match(text, pos)
        if bare is None:
            return pos
        item = _read_thai_item(
            text, bare.start("num"), bare.end(), _normalise(bare["num"]), bare["sep"] == "ถึง"
        )
        chain.append(item)
        pos = item.end


def _paragraph_number(word: str) -> int | None:
    if word == "ท้าย":
        return None  # "วรรคท้าย": the last paragraph; its index depends on the cited section
    return parse_thai_number(word)


def _thai_law_after(
    text: str,
    pos: int,
    law: Law,
    corpus: CorpusIndex | None,
    last_other_law: tuple[str, str | None] | None,
) -> tuple[str | None, str | None, int] | None:
    """(cited law name or None for this law, its id if known, end offset) or None."""
    intro = _TH_LAW_INTRO_RE.match(text, pos)
    if intro is None:
        return None
    at = intro.end()
    this_law = _TH_THIS_LAW_RE.match(text, at)
    if this_law is not None:
        return None, law.id, this_law.end()
    that_law = _TH_THAT_LAW_RE.match(text, at)
    if that_law is not None and "\n" not in that_law.group(0):
        if last_other_law is not None:
            return last_other_law[0], last_other_law[1], that_law.end()
        return None, None, that_law.end()
    if corpus is not None:
        known = _match_known_law(text, at, corpus)
        if known is not None:
            law_id, end = known
            if law_id == law.id:
                return None, law.id, end
            return text[at:end].strip(), law_id, end
    code = _match_known_code(text, at)
    if code is not None:
        return code[0], None, code[1]
    external = _TH_EXTERNAL_NAME_RE.match(text, at)
    if external is None:
        return None
    name = external.group(0).strip()
    trimmed = _TH_NAME_TAIL_RE.sub("", name)
    if _TH_LAW_TYPE_ONLY_RE.fullmatch(trimmed) is None:  # "ประมวลกฎหมายนั้น" is "that code"
        name = trimmed
    if normalise_law_name(name) in {normalise_law_name(n) for n in (law.title, *law.aliases)}:
        return None, law.id, external.end()
    return name, None, external.end()


def _thai_law_before(
    text: str, start: int, law: Law, corpus: CorpusIndex | None
) -> tuple[str | None, str | None] | None:
    """The law named right before a chain ("…แห่งประมวลกฎหมายแพ่งและพาณิชย์ มาตรา ๗๖๔")."""
    line_start = text.rfind("\n", 0, start) + 1
    window = text[max(line_start, start - 240) : start]
    chars: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(window):
        if not (ch.isspace() or ch == "\u200b"):
            chars.append(thai_to_arabic_digits(ch))
            origin.append(i)
    normalised = "".join(chars)
    if not normalised or _TH_THIS_LAW_END_RE.search(normalised):
        return None
    if corpus is not None:
        name = corpus.match_law_name_suffix(normalised)
        if name is not None:
            law_id = corpus.law_ids_by_name[name]
            if law_id == law.id:
                return None
            begin = origin[len(normalised) - len(name)]
            return window[begin:].strip(), law_id
    external = _TH_EXTERNAL_BEFORE_RE.search(window)
    if external is not None:
        name = external.group("name").strip()
        if normalise_law_name(name) not in {
            normalise_law_name(n) for n in (law.title, *law.aliases)
        }:
            return name, None
    return None


def _normalised_window(text: str, at: int, size: int = 320) -> tuple[str, list[int]]:
    """text[at:at+size] without whitespace and with Arabic digits, plus each kept
    character's offset in the window (PDF text breaks names: "ประมวลกฎหมายแพ่ง และพาณิชย์")."""
    chars: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text[at : at + size]):
        if ch.isspace() or ch == "\u200b":
            continue
        chars.append(thai_to_arabic_digits(ch))
        origin.append(i)
    return "".join(chars), origin


def _match_known_code(text: str, at: int) -> tuple[str, int] | None:
    """A code or the constitution cited by its fixed name, when it is not in the corpus."""
    normalised, origin = _normalised_window(text, at, 120)
    for name in _KNOWN_CODES:
        if normalised.startswith(name):
            return name, at + origin[len(name) - 1] + 1
    return None


def _match_known_law(text: str, at: int, corpus: CorpusIndex) -> tuple[str, int] | None:
    normalised, origin = _normalised_window(text, at)
    name = corpus.match_law_name(normalised)
    if name is None:
        return None
    rest = normalised[len(name) :]
    if rest.startswith("(ฉบับที่") or (
        _TH_YEAR_RE.match(rest) is not None and not _TH_YEAR_RE.search(name)
    ):
        return None  # an amending act, or another law of the same name and another year
    end = at + origin[len(name) - 1] + 1
    law_id = corpus.law_ids_by_name[name]
    return law_id, end


def _emit_chain(
    chain: list[_Item],
    section: Section,
    law: Law,
    corpus: CorpusIndex | None,
    cited_name: str | None,
    cited_id: str | None,
    text: str,
) -> list[Citation]:
    out: list[Citation] = []
    for i, item in enumerate(chain):
        span = (item.start, item.end)
        if item.range_from_previous and i > 0:
            between = _expand_range(
                chain[i - 1].number, item.number, law, corpus, cited_name, cited_id
            )
            span = (chain[i - 1].start, item.end)
            for number in between[1:-1]:
                out.append(_citation(section, text, cited_name, cited_id, number, None, (), span))
        for paragraph, clauses in item.variants:
            out.append(
                _citation(
                    section, text, cited_name, cited_id, item.number, paragraph, clauses, span
                )
            )
    return out


def _citation(
    section: Section,
    text: str,
    cited_name: str | None,
    cited_id: str | None,
    number: str,
    paragraph: int | None,
    clauses: tuple[str, ...],
    span: tuple[int, int],
) -> Citation:
    return Citation(
        source=section.key,
        law=cited_name,
        section=number,
        paragraph=paragraph,
        clauses=clauses,
        span=span,
        text=text[span[0] : span[1]],
        law_id=cited_id if cited_name is not None else None,
    )


def _expand_range(
    first: str,
    last: str,
    law: Law,
    corpus: CorpusIndex | None,
    cited_name: str | None,
    cited_id: str | None,
) -> list[str]:
    if cited_name is None:
        order = [s.number for s in sorted(law.sections, key=lambda s: s.order)]
        if first in order and last in order and order.index(first) <= order.index(last):
            return order[order.index(first) : order.index(last) + 1]
    elif corpus is not None and cited_id is not None:
        numbers = corpus.numbers_between(cited_id, first, last)
        if numbers is not None:
            return numbers
    if first.isdigit() and last.isdigit() and 0 < int(last) - int(first) < 200:
        return [str(n) for n in range(int(first), int(last) + 1)]
    return [first, last]


def _is_own_heading(text: str, start: int, number: str, section: Section, law: Law) -> bool:
    """True for the "มาตรา ๒๖" (optionally after the law title) that opens the section."""
    if number != section.number:
        return False
    before = normalise_law_name(text[:start])
    return before == "" or before == normalise_law_name(law.title)


def _previous_section_citations(section: Section, law: Law) -> list[Citation]:
    match = _PREVIOUS_RE.search(section.text)
    if match is None:
        return []
    ordered = sorted(law.sections, key=lambda s: s.order)
    index = next((i for i, s in enumerate(ordered) if s.key == section.key), None)
    if not index:
        return []
    return [
        Citation(
            source=section.key,
            law=None,
            section=ordered[index - 1].number,
            span=match.span(),
            text=match.group(0),
            kind="previous",
        )
    ]


def _schedule_citations(section: Section, law: Law) -> list[Citation]:
    """Every item of the schedule a "บัญชีท้ายหมวดนี้" / "บัญชีท้ายพระราชบัญญัตินี้" in
    `section` points to.

    A schedule's items are the run of sections numbered "บัญชี…" that the source places
    after the section (the end of its chapter) or, for "this Act", the last such run of the
    law. A law whose schedule is not in its source gets nothing.
    """
    matches = list(_TH_SCHEDULE_RE.finditer(section.text))
    if not matches:
        return []
    runs = _schedule_runs(law)
    found: list[Citation] = []
    for match in matches:
        if match["chapter"]:
            run = next((r for r in runs if r[0].order > section.order), [])
        else:
            run = runs[-1] if runs else []
        found.extend(
            Citation(
                source=section.key,
                law=None,
                section=item.number,
                span=match.span(),
                text=match.group(0),
                kind="schedule",
            )
            for item in run
            if item.key != section.key
        )
    return found


def _schedule_runs(law: Law) -> list[list[Section]]:
    """Consecutive schedule items of `law`, in reading order."""
    runs: list[list[Section]] = []
    previous_was_item = False
    for section in sorted(law.sections, key=lambda s: s.order):
        is_item = section.number.startswith(_SCHEDULE_UNIT)
        if is_item and previous_was_item:
            runs[-1].append(section)
        elif is_item:
            runs.append([section])
        previous_was_item = is_item
    return runs


# --- Japanese ---------------------------------------------------------------------------

# Statutes write kanji numerals; a question may write Arabic ones ("第27条").
_JA_NUM = rf"(?:{KANJI_NUMERAL}|[0-9]{{1,4}})"
_JA_ARTICLE_RE = re.compile(
    rf"第(?P<num>{_JA_NUM})条(?P<branch>の{_JA_NUM})?"
    rf"(?:第(?P<para>{_JA_NUM})項)?(?:第(?P<item>{_JA_NUM})号)?"
)
# Another law's article: "内閣府設置法第三十九条", "（平成十五年法律第五十八号）第二条", "同法第八条".
_JA_OTHER_LAW_BEFORE_RE = re.compile(r"(?:法|令|規則|）|\))$")
# What may separate the articles of one list ("第二十七条第一項、第二十八条及び第二十九条").
_JA_LIST_GAP_RE = re.compile(r"^(?:、|及び|並びに|又は|若しくは|から|まで|第\S{1,4}[項号])*$")


def _japanese_citations(section: Section, law: Law) -> list[Citation]:
    """Articles of the same law ("第二十七条第一項第二号" -> 27, paragraph 1, item 2). An
    article right after another law's name or number belongs to that law, and so do the
    articles listed after it; those are left out, as are branch articles ("第八条の二"),
    which have no section of their own in the corpus. A range ("第三十二条から第三十九条
    まで") cites the articles between its ends too."""
    text = section.text
    out: list[Citation] = []
    external = False
    previous_end = -1
    for match in _JA_ARTICLE_RE.finditer(text):
        ranged = (
            out
            and not external
            and text[previous_end : match.start()] == "から"
            and text.startswith("まで", match.end())
        )
        if ranged:
            first, last = out[-1].section, str(_ja_number(match["num"]))
            span = (out[-1].span[0], match.end())
            out.extend(
                Citation(source=section.key, law=None, section=number, span=span,
                         text=text[span[0] : span[1]])
                for number in _expand_range(first, last, law, None, None, None)[1:-1]
            )  # fmt: skip
        before = text[max(0, match.start() - 8) : match.start()]
        continues = previous_end >= 0 and _JA_LIST_GAP_RE.match(text[previous_end : match.start()])
        if _JA_OTHER_LAW_BEFORE_RE.search(before):
            external = True
        elif not continues:
            external = False
        previous_end = match.end()
        if external or match["branch"]:
            continue
        out.append(
            Citation(
                source=section.key,
                law=None,
                section=str(_ja_number(match["num"])),
                paragraph=_ja_number(match["para"]) if match["para"] else None,
                clauses=(str(_ja_number(match["item"])),) if match["item"] else (),
                span=match.span(),
                text=match.group(0),
            )
        )
    return out


def _ja_number(text: str) -> int:
    return int(text) if text.isdigit() else parse_kanji_number(text)


# --- English ----------------------------------------------------------------------------


def _english_citations(section: Section, law: Law, corpus: CorpusIndex | None) -> list[Citation]:
    text = section.text
    out: list[Citation] = []
    for match in _EN_SECTION_RE.finditer(text):
        items: list[tuple[str, str, str]] = [("", match["num"], match["mods"] or "")]
        end = match.end()
        while True:
            more = _EN_LIST_RE.match(text, end)
            if more is None:
                break
            items.append((more["sep"].strip(" ,") or ",", more["num"], more["mods"] or ""))
            end = more.end()
        cited_name, cited_id = _english_law_after(text, end, law, corpus)
        numbers: list[tuple[str, str]] = []
        for sep, num, mods in items:
            if sep == "to" and numbers:
                numbers.extend(
                    (n, "")
                    for n in _expand_range(numbers[-1][0], num, law, corpus, cited_name, cited_id)[
                        1:-1
                    ]
                )
            numbers.append((num, mods))
        span = (match.start(), end)
        for num, mods in numbers:
            paragraph, clauses = _english_modifiers(mods)
            out.append(
                Citation(
                    source=section.key,
                    law=cited_name,
                    section=num,
                    paragraph=paragraph,
                    clauses=clauses,
                    span=span,
                    text=text[span[0] : span[1]],
                    law_id=cited_id if cited_name is not None else None,
                )
            )
    return out


def _english_modifiers(mods: str) -> tuple[int | None, tuple[str, ...]]:
    items = _EN_MOD_ITEM_RE.findall(mods)
    if items and items[0].isdigit():
        return int(items[0]), tuple(items[1:])
    return None, tuple(items)


def _english_law_after(
    text: str, end: int, law: Law, corpus: CorpusIndex | None
) -> tuple[str | None, str | None]:
    if _EN_THIS_LAW_RE.match(text, end) is not None:
        return None, None
    other = _EN_OTHER_LAW_RE.match(text, end) or _EN_TREATY_SUFFIX_RE.match(text, end)
    if other is None:
        return None, None
    name = other["name"]
    law_id = corpus.resolve_law(name) if corpus is not None else None
    own = {normalise_law_name(n) for n in (law.title, *law.aliases)}
    if law_id == law.id or normalise_law_name(name) in own:
        return None, None
    return name, law_id


# --- helpers ----------------------------------------------------------------------------


def _normalise(number: str) -> str:
    return normalise_section_number(thai_to_arabic_digits(number))


def _own_section_key(law: Law, number: str, corpus: CorpusIndex | None) -> str | None:
    if corpus is not None and law.id in corpus:
        return corpus.section_key(law.id, number)
    wanted = normalise_section_number(number)
    return next((s.key for s in law.sections if s.number == wanted), None)


# --- questions --------------------------------------------------------------------------

# The short forms a question uses and a statute does not: "ม. 26", "s.26", "ss. 5-7",
# "sec. 26", "art. 9", "§ 26", "Section26"; they are spelled out before reading.
_QUESTION_SHORT_FORMS = (
    (re.compile(r"(?<![\u0E01-\u0E2E])ม\.\s*(?=[0-9๐-๙])"), "มาตรา "),
    (re.compile(r"(?<![A-Za-z])arts?\.\s*(?=\d)", re.IGNORECASE), "Article "),
    (re.compile(r"(?<![A-Za-z])(?:secs?\.|ss?\.|§§?)\s*(?=\d)", re.IGNORECASE), "section "),
    (re.compile(r"(?<![A-Za-z])(articles?|sections?)\s*(?=\d)", re.IGNORECASE), r"\1 "),
)
_ENGLISH_KEYWORD = re.compile(r"(?<![A-Za-z])(?:ARTICLES?|SECTIONS?)(?= \d)")


def spell_out_short_forms(text: str) -> str:
    """ "ม.26" -> "มาตรา 26", "s.26" -> "section 26", "Art. 9" -> "Article 9"."""
    for pattern, spelled in _QUESTION_SHORT_FORMS:
        text = pattern.sub(spelled, text)
    return _ENGLISH_KEYWORD.sub(lambda m: m.group(0).capitalize(), text)


def cite_in_question(text: str) -> list[Citation]:
    """The citations of a question (or any free text), read by the statute rules: lists and
    ranges mean what they mean in a statute ("มาตรา ๒๔ ถึง ๒๖", "Articles 15 to 22"), a
    law named after them stays with them (`Citation.law`, as written), paragraphs and
    clauses narrow them. Without a citing law, ranges expand numerically. `span` and
    `text` refer to the question with its short forms spelled out
    (`spell_out_short_forms`)."""
    text = spell_out_short_forms(text)
    asker = Section(key="", number="", label="", text=text)
    law = Law(id="", title="", language="", jurisdiction="", source="")
    found = _english_citations(asker, law, None)
    if "มาตรา" in text:
        found += _thai_citations(asker, law, None)
    if "第" in text:
        found += _japanese_citations(asker, law)
    return sorted(found, key=lambda c: (c.span, c.section, c.paragraph or 0, c.clauses))
