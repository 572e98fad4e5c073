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
from dataclasses import dataclass, replace

from ingest.ids import node_key, thai_to_arabic_digits
from ingest.models import Law, Section
from ingest.thai_numbers import KANJI_NUMERAL, max_fine, max_prison_months, parse_kanji_number
from ingest.xrefs import Resolution

# --- penalties ----------------------------------------------------------------------------

_PENALTY_RE = re.compile(
    r"ระวางโทษ|ต้องโทษปรับ|ค่าปรับเป็นพินัย|ความผิดทางพินัย|ค่าปรับทางแพ่ง|"
    r"(?:ลงโทษ|ค่า)ปรับทางปกครอง(?:ซึ่ง)?(?:ต้อง)?ไม่เกิน|"
    r"liable\s(?:on\sconviction\s)?to\s(?:a\s)?(?:fine|imprisonment|be\spunished)|\bto\sa\sfine\snot\sexceeding|"
    r"to\spay\sa\sfinancial\spenalty|subject\sto\sadministrative\sfines|"
    r"administrative\sfines?\sup\sto|guilty\sof\san\soffence|commits?\san\soffence(?!\sunder)|"
    r"(?:罰金|過料|拘禁刑|懲役)に処する|(?:罰金刑|過料)を科する",
    re.IGNORECASE,
)
# พินัย: the money sanction that replaced many criminal fines (Act on the Conversion of
# Criminal Fines to Fines, B.E. 2565); ค่าปรับทางแพ่ง: a civil fine. Neither is a criminal
# punishment.
_ADMINISTRATIVE_RE = re.compile(
    r"ปรับ\s?ทางปกครอง|พินัย|ทางแพ่ง|administrative\sfine|financial\spenalty|過料", re.IGNORECASE
)
# A clause that states what the sanction is, as against one that only declares an offence
# ("A person who fails to comply with subsection (1) shall be guilty of an offence.").
_SANCTION_STATED_RE = re.compile(
    r"ระวางโทษ|ค่าปรับ|liable|\bfines?\b|imprisonment|penalty|罰金|過料|拘禁刑|懲役", re.IGNORECASE
)
_OFFENCE_DECLARED_RE = re.compile(r"guilty\sof\san\soffence|commits?\san\soffence", re.IGNORECASE)
# A general penalty: the sanction for this law's offences that carry none of their own.
_GENERAL_PENALTY_RE = re.compile(
    r"offences?\sunder\sthis\s(?:Act|Regulation|Ordinance|Code)\s(?:for\swhich|in\srespect\sof"
    r"\swhich|where)\sno\s(?:other\s|special\s)?penalty\sis\s(?:expressly\s|specifically\s|"
    r"otherwise\s)?provided",
    re.IGNORECASE,
)
# PDF-derived text breaks words with stray spaces ("ไม่ปฏิบัติ ตามมาตรา ๒๘"), hence the "\s?".
# "ความผิดตามมาตรา …" (the offence in section …: abetting it, a company committing it),
# "ดำเนินการตามมาตรา ๗๗ (๒)" (doing what that section forbids) and "กรณีตามมาตรา ๓๑๗/๑ (๑)"
# (the case that section describes) name the punished act too.
_TH_BREACH_RE = re.compile(
    r"(?:ฝ่าฝืน\s?หรือ\s?ไม่ปฏิบัติ\s?ตาม|ฝ่าฝืน|(?:ละเว้น\s?)?ไม่ปฏิบัติ\s?ตาม|ไม่เป็นไป\s?ตาม"
    r"|ไม่ดำเนินการ\s?ตาม|ไม่จัดให้มี\s?ตาม|ไม่แจ้ง\s?ตาม|ไม่ยื่น\s?ตาม"
    r"|ความผิด\s?ตาม(?:ที่บัญญัติ(?:ไว้)?\s?ใน)?|(?:กระทำการ|ดำเนินการ)\s?ตาม|กรณี\s?ตาม)"
    r"[ \t\u00a0]{0,2}(?:ความใน|บทบัญญัติ(?:แห่ง|ใน)?)?"
)
_EN_BREACH_RE = re.compile(
    r"(?:contravene[sd]?|contravention\sof|fail(?:s|ed)?\sto\scomply\swith|in\sbreach\sof"
    r"|infringe[sd]?|non-compliance\swith|offences?\sunder)\s(?:any\sof\s)?"
    r"(?:the\sprovisions?\sof\s|any\sprovision\sof\s)?",
    re.IGNORECASE,
)
_EN_LISTED_BREACHES_RE = re.compile(r"infringements\sof\sthe\sfollowing\sprovisions", re.I)
# "… has contravened —\n(i) any provision of Part 9;\n(ii) section 48B(1)": the breach verb
# governs every item of the list it opens.
_EN_BREACH_OPENS_LIST_RE = re.compile(
    r"(?:contravene[sd]?|contravention\sof|fail(?:s|ed)?\sto\scomply\swith|infringe[sd]?)"
    r"\s?(?:any\sof\s)?(?:the\sfollowing)?\s?[—:-]\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_EN_ITEM_RE = re.compile(
    r"\((?:[a-z]{1,2}|[ivx]{1,4})\)\s(?:any\sprovision\sof\s|the\sprovisions?\sof\s)?"
)
# Weaker cues: they punish not doing, or falsifying, evading or obstructing, what a section
# requires or empowers ("ไม่ขอความยินยอมตามแบบ…ตามมาตรา ๑๙ วรรคสาม", "โดยมิได้รับอนุญาต
# ตามมาตรา ๒๖", "แสดงข้อความอันเป็นเท็จ…ในแบบ…ตามมาตรา ๑๗", "ขัดขวางพนักงานเจ้าหน้าที่ซึ่ง
# ปฏิบัติหน้าที่ตามมาตรา ๓๐"; "Non-compliance with an order … as referred to in Article 58(2)",
# "makes a request under section 21(1) … without the authority"), so they count only for
# the first citation after them, shortly after and introduced by "ตาม" / "under".
# "ไม่" / "มิได้" before a verb (a leading vowel included: "ไม่เรียกประชุม", "ไม่แจ้ง"), not
# before a quantity or a conjunction ("ไม่เกิน", "ไม่ว่า").
_TH_NEGATION = r"(?:ไม่|มิ)(?:ได้)?\s?(?!เกิน|ว่า|น้อย|ต่ำ|ถึง|ใช่|สามารถ|อาจ|เป็น)[ก-ฮเ-ไ]"
_TH_LOOSE_BREACH_RE = re.compile(
    rf"{_TH_NEGATION}|ละเลย|เพิกเฉย|ปฏิเสธ|เท็จ|ปกปิด|ปลอม|ขัดขวาง|หลีกเลี่ยง|ถอน|ทำลาย|ทำให้เสียหาย"
    r"|ซ่อนเร้น|ถูก(?:สั่ง|ลงโทษ|พัก|เพิกถอน)"
)
# An order, duty or filing a section provides for, named right before it: "ที่สั่งการตาม
# มาตรา ๒๕", "ประกาศที่ออกตามความในมาตรา …", "ซึ่งตนมีหน้าที่หักตามมาตรา ๔๕", "แบบ…ที่ยื่นไว้
# ต่อสำนักงาน ก.ล.ต. ตามมาตรา ๑๙". A verb after "ที่" / "ซึ่ง" (the order that was given, the
# filing that was made under it): "ส่งหรือโอนข้อมูลส่วนบุคคลตามมาตรา ๒๖" only says which data,
# so the verb alone is no cue.
# "ออก" (issue) only for an order or a rule: "บริษัทที่ออกหลักทรัพย์ตามมาตรา ๓๒" is the
# company that issued securities under it. The object between the verb and "ตาม" can be
# long ("ในระหว่างที่สำนักงานสั่งระงับการมีผลใช้บังคับของแบบแสดงรายการข้อมูลการเสนอขาย
# หลักทรัพย์และร่างหนังสือชี้ชวนตามมาตรา ๗๖": ~90 characters).
_TH_NEAR_CUE_RE = re.compile(
    r"(?:(?:ที่|ซึ่ง)[^\n]{0,24}?(?:สั่ง|กำหนด|ยื่น|ส่ง|แจ้ง|รายงาน|จัดทำ|เปิดเผย)|หน้าที่"
    r"|(?:ประกาศ|คำสั่ง|กฎกระทรวง|ระเบียบ|ข้อบังคับ|ข้อกำหนด|หลักเกณฑ์|หมายเรียก)[^\n]{0,30}?"
    r"(?:ที่|ซึ่ง)(?:ได้)?ออก)"
    r"[^\n]{0,100}(?:ตาม|ตามความใน)[ \t\u00a0]?$"
)
# After a section: the person it obliges failing to act ("บุคคลตามมาตรา ๙๑/๑๒ วรรคห้า
# ละเลยไม่ดำเนินการ…", "…หรือพนักงานเจ้าหน้าที่ตามมาตรา ๑๕๘ ผู้ใดจงใจไม่ยื่นบัญชี…"), or what
# it requires, falsified or incomplete ("แจ้งรายละเอียด…ตาม
# มาตรา ๘ วรรคสาม อันเป็นเท็จ", "แสดงรายการตามมาตรา ๑๑๔ (๓) … ไม่ครบถ้วน").
_TH_AFTER_CUE_RE = re.compile(
    rf"[^\n]{{0,30}}?(?:เท็จ|ไม่ครบถ้วน|ไม่ถูกต้อง|ไม่ตรงกับความจริง|ละเลย|เพิกเฉย)"
    rf"|[ \t\u00a0]{{0,2}}(?:ผู้ใด)?(?:จงใจ|โดยเจตนา)?{_TH_NEGATION}"
)
# A clause whose first line says the items below are what is breached or falsified
# ("ผู้ใดมีหน้าที่ส่ง…เอกสารหรือข้อมูลดังต่อไปนี้แสดงข้อความอันเป็นเท็จ…").
_TH_LISTED_BREACHES_RE = re.compile(
    r"(?:ฝ่าฝืน|ไม่ปฏิบัติ\s?ตาม|หน้าที่|เท็จ|ปกปิด)[^\n]*ดังต่อไปนี้|ดังต่อไปนี้[^\n]*(?:ฝ่าฝืน"
    r"|ไม่ปฏิบัติ\s?ตาม|เท็จ|ปกปิด)"
)
_EN_LOOSE_BREACH_RE = re.compile(
    r"\b(?:contravene[sd]?|contravention|fail(?:s|ed|ure)?\sto\scomply|non-compliance|refuses?"
    r"|evade[sd]?|evasion|obstructs?|hinders?|false|misleading|requests?|orders?|directions?"
    r"|notices?|requirements?|prohibitions?|obligations?|undertakings?)\b",
    re.IGNORECASE,
)
_TH_LOOSE_INTRO_RE = re.compile(r"(?:ตาม|ตามความใน|ใน)[ \t\u00a0]?$")
_EN_LOOSE_INTRO_RE = re.compile(
    r"\b(?:under|referred\sto\sin|pursuant\sto|required\sby|imposed\sby|in\saccordance\swith)\s$",
    re.IGNORECASE,
)
# What a loose cue may not reach across: another citation, a line break, the sanction.
_TH_LOOSE_STOP_RE = re.compile(r"มาตรา|\n|ระวางโทษ|มีความผิด|ค่าปรับ")
_EN_LOOSE_STOP_RE = re.compile(r"\b(?:[Ss]ections?|Articles?)\s|\n|\bliable\b|penalt", re.I)
# Citations that name who is concerned, not what is punished: the offender described
# before "ผู้ใด" ("ผู้สอบบัญชีตามมาตรา ๕๙ ผู้ใดทำรายงานเท็จ") or a person appointed under a
# section ("บุคคลซึ่งคณะกรรมการแต่งตั้งตามมาตรา ๒๔").
_TH_SUBJECT_END_RE = re.compile(r"ผู้ใด")
# A duty breached as another section applies it to someone else ("ไม่ปฏิบัติตามมาตรา ๓๙
# วรรคหนึ่ง ซึ่งได้นำมาใช้บังคับโดยอนุโลมตามมาตรา ๓๙ วรรคสอง": PDPA s.88 fines a foreign
# controller's representative, to whom s.39 paragraph 2 extends the controller's records
# duty), read right after the cited duty; and the section that applies it, right before it.
_TH_APPLIED = r"[ \t\u00a0]?(?:ซึ่ง)?(?:ได้)?นำมาใช้บังคับ[^\n]{0,60}?โดยอนุโลม"
_TH_APPLIED_RE = re.compile(_TH_APPLIED)
_TH_APPLYING_RE = re.compile(r"โดยอนุโลม[ \t\u00a0]?(?:ตาม|ตามความใน)[ \t\u00a0]?$")
_TH_APPLIED_BY_RE = re.compile(_TH_APPLIED + r"[ \t\u00a0]?(?:ตาม|ตามความใน)[ \t\u00a0]?")
_TH_SANCTION_RE = re.compile(r"ต้องระวางโทษ|ระวางโทษ|มีความผิด|ต้องชำระค่าปรับ|ต้องโทษปรับ")
_TH_APPOINTED_RE = re.compile(r"(?:แต่งตั้ง|จัดตั้ง)(?:ขึ้น)?[ \t\u00a0]?(?:ตาม|ตามความใน)?[ \t\u00a0]?$")
_LIST_GAP_RE = re.compile(
    r"[ \t\u00a0,]{0,3}(?:(?:หรือ|และ|or|and|,)[ \t\u00a0]{0,3})?"
    r"(?:(?:ฝ่าฝืน|ไม่ปฏิบัติตาม|ไม่เป็นไปตาม)[ \t\u00a0]{0,2})?"
)
_LOOSE_BREACH_WINDOW = 160  # "ผู้ใดถอน ทำให้เสียหาย ทำลาย … ในการปฏิบัติหน้าที่ตามมาตรา ๑๐๓": ~110
# Japanese puts the breach after the articles: "第百四十三条の規定に違反して",
# "第百四十八条第二項又は第三項の規定による命令に違反した", "第五十一条第一項の規定による届出をせず";
# a company's liability lists the articles with its fine ("1. 第百七十八条及び第百七十九条
# 一億円以下の罰金刑").
_JA_LIST_MORE_RE = re.compile(
    rf"(?:又は|若しくは|及び|、)(?:第{KANJI_NUMERAL}(?:条|項|号))+"
    r"|（[^（）]{0,60}）"
)
_JA_BREACH_AFTER_RE = re.compile(
    r"の規定(?:に違反|による[^。、]{0,20}?(?:に違反|をせず|を拒|を妨げ|を忌避))"
    r"|[〇一二三四五六七八九十百千万億]+円以下の罰金刑|同条の罰金刑"
)
# Divisions whose provisions are breached: "contravened any provision of Part 3, 4 or 6A",
# "ไม่ปฏิบัติตามบทบัญญัติแห่งหมวดนี้", "この章の規定に違反".
_EN_DIVISION_RE = re.compile(
    r"(?P<kind>Parts?|Chapters?)\s(?P<list>[0-9A-Z]{1,5}(?:(?:,\s|\sor\s|\sand\s|,\sor\s|,\sand\s)"
    r"[0-9A-Z]{1,5})*)\b"
)
_TH_DIVISION_RE = re.compile(
    r"(?:ฝ่าฝืน|ไม่ปฏิบัติ\s?ตาม|ไม่เป็นไป\s?ตาม)[ \t\u00a0]?(?:หรือ[ \t\u00a0]?ไม่ปฏิบัติ\s?ตาม)?"
    r"[ \t\u00a0]?(?:บทบัญญัติ)?[ \t\u00a0]?(?:แห่ง|ใน)?[ \t\u00a0]?(?P<kind>หมวด|ส่วนที่)[ \t\u00a0]?"
    r"(?P<num>[0-9๐-๙]{1,3}|นี้)"
)
_JA_DIVISION_RE = re.compile(
    rf"(?:この|第(?P<num>{KANJI_NUMERAL}))章の規定(?:に違反|による[^。、]{{0,20}}?に違反)"
)
# A section a breach of a whole division reaches is one that lays a duty down.
_DUTY_RE = {
    "en": re.compile(r"\b(?:must|shall)\b(?!\sbe\sdeemed)|\bmay\snot\b", re.IGNORECASE),
    "th": re.compile(r"ต้อง|ห้าม|มิให้|จะ[^\n]{1,60}?(?:ไม่ได้|มิได้)"),
    "ja": re.compile(r"なければならない|てはならない"),
}


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
    # those of them it punishes only as another section applies them (`_applied_breaches`)
    applied: tuple[str, ...] = ()
    general: bool = False  # sanctions this law's offences that carry no penalty of their own
    offence_only: bool = False  # declares an offence and states no sanction

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
        breached += _division_breaches(section, start, end, law)
        breached = [t for t in dict.fromkeys(breached) if t != section.key]
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
                breached=tuple(breached),
                applied=_applied_breaches(section.text, inside, breached),
                general=_GENERAL_PENALTY_RE.search(chunk) is not None,
                offence_only=bool(_OFFENCE_DECLARED_RE.search(chunk))
                and not _SANCTION_STATED_RE.search(chunk),
            )
        )
    return out


def _applied_breaches(
    text: str, resolutions: list[Resolution], breached: list[str]
) -> tuple[str, ...]:
    """The breached sections a penal clause cites only as another section applies them
    (`_TH_APPLIED_RE`): the duty is someone else's, extended "mutatis mutandis", and a
    lawyer reads it with the penalty of its own addressee first. A section cited once as
    applied and once in its own right (PDPA s.82: s.23, and s.23 as s.25 applies it) is
    breached in its own right; the section that applies it (s.25) is neither."""
    as_applied: set[str] = set()
    direct: set[str] = set()
    for resolution in resolutions:
        target = resolution.target
        if target not in breached:
            continue
        start, end = resolution.citation.span
        if _TH_APPLIED_RE.match(text, end):
            as_applied.add(target)
        elif not _TH_APPLYING_RE.search(text, max(0, start - 30), start):
            direct.add(target)
    return tuple(t for t in breached if t in as_applied and t not in direct)


def link_general_penalties(penalties: list[Penalty]) -> list[Penalty]:
    """`penalties` (all of one law) with each general penalty ("A person guilty of an
    offence under this Act for which no penalty is expressly provided …") also punishing
    the sections that declare an offence and state no sanction for it anywhere."""
    sanctioned = {p.section for p in penalties if not p.offence_only}
    unsanctioned = [p.section for p in penalties if p.offence_only and p.section not in sanctioned]
    return [
        replace(
            p,
            breached=tuple(
                dict.fromkeys([*p.breached, *(s for s in unsanctioned if s != p.section)])
            ),
        )
        if p.general
        else p
        for p in penalties
    ]


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
    english = language == "en"
    trigger_re = _EN_BREACH_RE if english else _TH_BREACH_RE
    loose_re = _EN_LOOSE_BREACH_RE if english else _TH_LOOSE_BREACH_RE
    triggers = [m.end() for m in trigger_re.finditer(text, start, end)]
    if english:
        triggers += _list_item_triggers(text, start, end)
    loose_triggers = sorted({*triggers, *(m.end() for m in loose_re.finditer(text, start, end))})
    subject_end = (
        None if english else _TH_SUBJECT_END_RE.search(text, start, _conduct_end(text, start, end))
    )
    listed_from = None if english else _listed_items_start(text, start, end)
    out: list[str] = []
    chain_end: int | None = None
    for resolution in targets:
        span = resolution.citation.span
        target = resolution.target
        assert target is not None  # noqa: S101 - filtered above
        if chain_end is not None and span[0] <= chain_end:
            out.append(target)  # another variant/range item of the same token
            continue
        if chain_end is not None and _TH_APPLIED_BY_RE.fullmatch(text, chain_end, span[0]):
            # "มาตรา ๓๙ วรรคหนึ่ง ซึ่งได้นำมาใช้บังคับโดยอนุโลมตามมาตรา ๓๙ วรรคสอง และมาตรา ๔๑
            # วรรคหนึ่ง": the section that applies the duty just cited; the list goes on
            chain_end = span[1]
            continue
        gap_start = chain_end if chain_end is not None else -1
        directly = any(_is_gap(text, t, span[0]) for t in triggers)
        continued = gap_start >= 0 and _is_gap(text, gap_start, span[0])
        in_subject = subject_end is not None and span[0] < subject_end.start()
        loose = not in_subject and _loosely_after_trigger(
            text, loose_triggers, span[0], chain_end, english
        )
        thai = not english and (
            (not in_subject and _near_cue(text, start, span[0]))
            or _after_cue(text, span[1], end)
            or (listed_from is not None and span[0] >= listed_from)
        )
        if directly or continued or loose or thai:
            out.append(target)
            chain_end = span[1]
        else:
            chain_end = None
    return out


def _conduct_end(text: str, start: int, end: int) -> int:
    """Where a Thai penalty clause's sanction begins ("ต้องระวางโทษ", "มีความผิด…")."""
    sanction = _TH_SANCTION_RE.search(text, start, end)
    return sanction.start() if sanction else end


def _near_cue(text: str, start: int, at: int) -> bool:
    before = text[max(start, at - 160) : at]
    stops = list(_TH_LOOSE_STOP_RE.finditer(before))
    if stops:
        before = before[stops[-1].end() :]
    return _TH_NEAR_CUE_RE.search(before) is not None and _TH_APPOINTED_RE.search(before) is None


def _after_cue(text: str, at: int, end: int) -> bool:
    match = _TH_AFTER_CUE_RE.match(text, at, end)
    return match is not None and _TH_LOOSE_STOP_RE.search(match.group(0)) is None


def _listed_items_start(text: str, start: int, end: int) -> int | None:
    """Where the items begin of a clause whose opening line says they are breached."""
    first_line_end = text.find("\n", start, end)
    if first_line_end == -1 or not _TH_LISTED_BREACHES_RE.search(text, start, first_line_end):
        return None
    return first_line_end


def _list_item_triggers(text: str, start: int, end: int) -> list[int]:
    """Where the items of a list opened by a breach verb ("contravened —") begin."""
    out: list[int] = []
    for opener in _EN_BREACH_OPENS_LIST_RE.finditer(text, start, end):
        pos = opener.end()
        while pos < end:
            line_start = text.find("\n", pos)
            if line_start == -1 or line_start >= end:
                break
            item = _EN_ITEM_RE.match(text, line_start + 1)
            if item is None:
                break
            out.append(item.end())
            pos = item.end()
    return out


def _breached_ja(text: str, at: int) -> bool:
    """Whether the article cited just before `at` is breached: the rest of its list, then
    "の規定に違反" (or an order, report or filing under it not obeyed), or the fine of a
    company's liability for it."""
    while more := _JA_LIST_MORE_RE.match(text, at):
        at = more.end()
    return _JA_BREACH_AFTER_RE.match(text, at) is not None


def _is_gap(text: str, begin: int, end: int) -> bool:
    if begin > end:
        return False
    match = _LIST_GAP_RE.fullmatch(text, begin, end)
    return match is not None


def _loosely_after_trigger(
    text: str, triggers: list[int], at: int, chain_end: int | None, english: bool
) -> bool:
    """ "ไม่ปฏิบัติตามคำสั่ง…ตามมาตรา ๗๕", "non-compliance with an order … referred to in
    Article 58(2)": the first citation after a trigger that was not itself followed by a
    citation, within a short window, introduced by "ตาม" / "under" and not a person
    appointed under it."""
    before = text[max(0, at - 40) : at]
    intro = _EN_LOOSE_INTRO_RE if english else _TH_LOOSE_INTRO_RE
    if not intro.search(before) or (not english and _TH_APPOINTED_RE.search(before)):
        return False
    stop = _EN_LOOSE_STOP_RE if english else _TH_LOOSE_STOP_RE
    for trigger in triggers:
        if trigger < at <= trigger + _LOOSE_BREACH_WINDOW and (
            chain_end is None or chain_end < trigger
        ):
            if stop.search(text, trigger, at) is None:
                return True
    return False


def _division_breaches(section: Section, start: int, end: int, law: Law) -> list[str]:
    """Sections of the divisions a clause says are breached, those that lay down a duty and
    prescribe no penalty themselves."""
    text = section.text
    keys: list[str | None] = []
    if law.language == "en":
        for at in [m.end() for m in _EN_BREACH_RE.finditer(text, start, end)] + (
            _list_item_triggers(text, start, end)
        ):
            match = _EN_DIVISION_RE.match(text, at)
            if match is not None:
                numbers = re.split(r",\s(?:or\s|and\s)?|\sor\s|\sand\s", match["list"])
                keys += [_division_key(law, n) for n in numbers]
    elif law.language == "ja":
        for match in _JA_DIVISION_RE.finditer(text, start, end):
            keys.append(
                _division_key(law, str(parse_kanji_number(match["num"])))
                if match["num"]
                else section.chapter_key
            )
    else:
        for match in _TH_DIVISION_RE.finditer(text, start, end):
            kind = "chapter" if match["kind"] == "หมวด" else "part"
            own = section.chapter_key if kind == "chapter" else section.part_key
            number = thai_to_arabic_digits(match["num"])
            keys.append(own if match["num"] == "นี้" else _division_key(law, number, kind))
    wanted = {k for k in keys if k}
    if not wanted:  # most penalty clauses name no division: skip the scan of every section
        return []
    duty = _DUTY_RE.get(law.language, _DUTY_RE["th"])
    # A section that carries its own sanction is an offence of its own, not one of the
    # duties the division's penalty covers (SG PDPA s.48J(2): not for breaches that are
    # offences).
    members = [s for s in law.sections if s.chapter_key in wanted or s.part_key in wanted]
    return [
        s.key
        for s in sorted(members, key=lambda s: s.order)
        if s.key != section.key and duty.search(s.text) and not _PENALTY_RE.search(s.text)
    ]


def _division_key(law: Law, number: str, kind: str = "chapter") -> str | None:
    roman = _ROMAN.get(number.upper())
    for division in law.divisions:
        if division.kind == kind and division.number in (number, roman):
            return division.key
    return None


_ROMAN = {r: str(i) for i, r in enumerate("I II III IV V VI VII VIII IX X XI XII".split(), 1)}


def _clause_groups(text: str, language: str) -> list[tuple[int, int]]:
    """Offsets of paragraphs, each with the clause lines that belong to it: an EU
    paragraph "1." or a common-law subsection "(1)", "(1A)" opens one, its points "(a)",
    "(i)" stay in it."""
    groups: list[tuple[int, int]] = []
    offset = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if language == "en":
            starts_group = bool(re.match(r"^(?:\d{1,3}\.|\(\d{1,3}[A-Z]{0,2}\))\s", stripped))
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

_TH_DEFINES = r"(?:ท่าน)?(?:ให้)?(?:หมายความว่า|หมายความรวมถึง|หมายความถึง|หมายถึง)"
# “ข้อมูลส่วนบุคคล” หมายความว่า …; คำว่า “ผู้รับประกันภัย” ท่านหมายความว่า …; คำว่า “ตลาด
# หลักทรัพย์” ตามวรรคหนึ่งและที่จะกล่าวต่อไปในส่วนนี้ให้หมายความรวมถึง …; and the older
# unquoted style that opens a line: "ทรัพย์ หมายความว่า วัตถุมีรูปร่าง" (Civil and Commercial
# Code). A term qualified by a paragraph ("ข้อมูลชีวภาพตามวรรคหนึ่งให้หมายถึง …") only explains
# a word of its own section and is not taken.
_TH_DEFINITION_RE = re.compile(
    rf"(?:คำว่า[ \t\u00a0]?[“\"](?P<qterm>[^”\"\n]{{1,80}})[”\"][^“”\"\n]{{0,80}}?{_TH_DEFINES}"
    rf"|[“\"](?P<term>[^”\"\n]{{1,80}})[”\"][ \t\u00a0]{{0,3}}{_TH_DEFINES}"
    rf"|^(?P<bare>(?:(?!ตาม)[ก-๛]){{2,30}})[ \t\u00a0]+(?:ท่าน)?หมายความว่า)"
    r"[ \t\u00a0]{0,3}(?P<text>[^\n]{0,2000})",
    re.MULTILINE,
)
_EN_DEFINITION_RE = re.compile(
    r"[‘'\"“](?P<term>[^’'\"”\n]{1,60})[’'\"”](?:,?[ \t\u00a0][^‘’'\"“”\n]{1,40}?)?,?"
    r"[ \t\u00a0]{1,3}(?:means|includes|shall\smean)\b"
    # flattened text runs the next definition on: "…; “Authority” means …"
    r"[ \t\u00a0]{0,3}(?P<text>[^\n]{0,2000}?)(?=;[ \t\u00a0]?(?:and[ \t\u00a0]|or[ \t\u00a0])?[‘'\"“]|\n|$)"
)
# この法律において「個人情報」とは、生存する個人に関する情報であって、…をいう。
_JA_DEFINITION_RE = re.compile(
    r"「(?P<term>[^「」\n]{1,40})」とは、?(?P<text>[^\n]{0,2000}?(?:をいう。|。))"
)
_DEFINITION_RES = {"en": _EN_DEFINITION_RE, "ja": _JA_DEFINITION_RE}
# How far a definition reaches, from the words before it: "ในหมวดนี้" / "In this Part" /
# "この章において" (its chapter or part), "ในมาตรานี้" / "In this section" (its section), else
# the whole law ("ในพระราชบัญญัตินี้", "For the purposes of this Regulation", "この法律において").
_SCOPE_RES = {
    "th": re.compile(
        r"(?:ใน|เพื่อประโยชน์แห่ง)(?P<d>หมวด|ส่วน|ลักษณะ|มาตรา|พระราชบัญญัติ|พระราชกำหนด|ประมวล"
        r"[ก-๛]{0,16}?|กฎหมาย)นี้"
    ),
    "en": re.compile(
        r"\b(?:[Ii]n|[Ff]or\sthe\spurposes?\sof)\sthis\s(?P<d>Act|Regulation|Directive|Ordinance"
        r"|Code|Part|Division|Chapter|Title|section|subsection|Article|paragraph)\b"
    ),
    "ja": re.compile(
        rf"この(?P<d>法律|章|節|条|項)(?P<more>(?:(?:、|及び)第{KANJI_NUMERAL}章"
        rf"(?:から第{KANJI_NUMERAL}章まで)?)*)において"
    ),
}
_SCOPE_KIND = {
    "หมวด": "chapter", "ลักษณะ": "chapter", "ส่วน": "part", "มาตรา": "section",
    "Part": "chapter", "Chapter": "chapter", "Title": "chapter", "Division": "part",
    "section": "section", "subsection": "section", "Article": "section",
    "paragraph": "section", "章": "chapter", "節": "part", "条": "section", "項": "section",
}  # fmt: skip
_SCOPE_RANK = {"section": 0, "part": 1, "chapter": 2, "law": 3}


@dataclass(frozen=True)
class Definition:
    key: str  # "<law>:def:<term>"
    term: str
    section: str  # key of the defining section
    text: str  # the definition itself
    scope: str = "law"  # "law" | "chapter" | "part" | "section": where the definition holds
    scope_keys: tuple[str, ...] = ()  # the chapters or parts, for "chapter" / "part"


def find_definitions(law: Law) -> list[Definition]:
    """Definitions in `law`, first definition of a term wins (later ones point at it); a
    term defined for several chapters or parts holds in all of them."""
    found: dict[str, Definition] = {}
    for section in sorted(law.sections, key=lambda s: s.order):
        for match in _definition_re(law).finditer(section.text):
            term = _term(match)
            if len(term) < 2:
                continue
            scope, keys = _definition_scope(section, match.start(), law)
            text = _definition_text(section.text, match, law.language)
            first = found.get(term)
            if first is not None:
                found[term] = _widen(first, scope, keys)
                continue
            found[term] = Definition(
                key=node_key(law.id, "def", term),
                term=term,
                section=section.key,
                text=text,
                scope=scope,
                scope_keys=keys,
            )
    return list(found.values())


_DEFINITION_MAX_CHARS = 2000
# A list item's marker: "(1)", "(a)", "(ก)", "（一）", "  1." (Japanese items as the
# readers write them); its kind (digits, Latin or Thai letters) is what the list goes on
# with, so that a subsection "(2)" after a definition's "(a)", "(b)" ends it.
_LIST_MARKER_RE = re.compile(
    r"[ \t\u00a0]*(?:[(（](?P<p>[^)）\s]{1,6})[)）]|(?P<n>[0-9０-９]{1,3})[.．])"
)
_JA_LIST_CUE_RE = re.compile(r"次に掲げる|次の各号")
# The next definition starting inside a line: "…; “personal data” means …", "(6) “…” หมาย…"
_NEXT_DEFINITION_RE = re.compile(
    r";[ \t\u00a0]*(?:and[ \t\u00a0]|or[ \t\u00a0])?[‘“\"']"
    r"|^[ \t\u00a0]*[‘“\"']"
    r"|[“\"][^”\"\n]{1,80}[”\"][ \t\u00a0]{0,3}(?:ท่าน)?(?:ให้)?หมาย"
    r"|「[^「」\n]{1,40}」とは"
)
# A definition's line that opens a list: nothing after "หมายความว่า", or "means —", "means:",
# "…any of the following:", "…ในลักษณะดังต่อไปนี้", "…และให้หมายความรวมถึง", "…เว้นแต่", "…ซึ่ง".
_OPENS_DEFINITION_LIST_RE = re.compile(
    r"^$|[—–:]$|ดังต่อไปนี้|ต่อไปนี้$|รวมถึง$|เว้นแต่$|ซึ่ง$|หรือ$|\bthe\sfollowing:?$|\beither$"
)


def _definition_text(text: str, match: re.Match[str], language: str) -> str:
    """A definition's text: the rest of its line, and the list that line opens ("“บริษัทลูก”
    หมายความว่า\n(1) …\n(2) …", "‘main establishment’ means:\n\n(a)\n\nas regards …");
    in Japanese the sentence up to its "。" outside brackets ("…政令で定めるもの（…「…」と
    いう。）を…者をいう。"), and the items of "次に掲げる…をいう。"."""
    begin = match.start("text")
    if language == "ja":
        end = _ja_sentence_end(text, begin)
        lists = _JA_LIST_CUE_RE.search(text, begin, end) is not None
    else:
        end = match.end("text")
        # the definition ends its line, and that line opens a list
        lists = text[end : end + 1] in ("\n", "") and bool(
            _OPENS_DEFINITION_LIST_RE.search(text[begin:end].strip())
        )
    if lists:
        end = _list_end(text, end)
    out = re.sub(r"[ \t\u00a0]*\n+[ \t\u00a0]*", " ", text[begin:end]).strip()
    return out.rstrip(";").rstrip()[:_DEFINITION_MAX_CHARS]


def _ja_sentence_end(text: str, at: int) -> int:
    depth = 0
    for i in range(at, len(text)):
        ch = text[i]
        if ch in "（「":
            depth += 1
        elif ch in "）」":
            depth = max(0, depth - 1)
        elif ch == "\n" or (ch == "。" and depth == 0):
            return i + 1 if ch == "。" else i
    return len(text)


def _marker_kind(marker: re.Match[str]) -> str:
    label = marker["p"] or marker["n"] or ""
    if label.isdigit() or marker["n"]:
        return "digit"
    if re.fullmatch(r"[a-zA-Z]+", label):
        return "latin"
    return "other"  # Thai letters and digits, kanji numerals


def _list_end(text: str, at: int) -> int:
    """Past the items of the list that `at`'s line opens: lines with a marker of the first
    item's kind, and the item text under a marker alone on its line ("(a)\n\nas regards …");
    an item ends where the next definition starts in it ("(b) … in Singapore; “personal
    data” means …"), and a line of anything else ends the list."""
    line_end = text.find("\n", at)
    if line_end == -1:
        return at
    pos, kind, bare_marker, last = line_end, "", False, line_end
    while pos < len(text):
        nxt = text.find("\n", pos + 1)
        nxt = len(text) if nxt == -1 else nxt
        line = text[pos + 1 : nxt]
        if not line.strip():
            pos = nxt
            continue
        marker = _LIST_MARKER_RE.match(line)
        following = _NEXT_DEFINITION_RE.search(line, marker.end() if marker else 0)
        if following is not None:
            # an item up to it; none when the line is the next definition ("(2) “…” หมาย…",
            # "この法律において「…」とは")
            if marker is not None and line[marker.end() : following.start()].strip():
                last = pos + 1 + following.start()
            break
        if marker is not None:
            if kind and _marker_kind(marker) != kind:
                break
            kind = kind or _marker_kind(marker)
            bare_marker = not line[marker.end() :].strip()
            if bare_marker:
                pos = nxt  # the item's text is on the next line; kept only with it
                continue
        elif not bare_marker:
            break
        bare_marker = False
        pos = last = nxt
    return at if last == line_end else last


def defining_sections(law: Law, definitions: list[Definition]) -> list[tuple[str, str]]:
    """(section key, definition key) for every section that defines a known term."""
    by_term = {d.term: d for d in definitions}
    pairs: list[tuple[str, str]] = []
    for section in law.sections:
        for match in _definition_re(law).finditer(section.text):
            definition = by_term.get(_term(match))
            if definition is not None:
                pairs.append((section.key, definition.key))
    return list(dict.fromkeys(pairs))


def _definition_re(law: Law) -> re.Pattern[str]:
    return _DEFINITION_RES.get(law.language, _TH_DEFINITION_RE)


def _term(match: re.Match[str]) -> str:
    groups = match.groupdict()
    raw = groups.get("term") or groups.get("qterm") or ""
    if not raw and groups.get("bare"):
        # the Civil Code's framing of an unquoted term: "อันผู้ทรงนั้น หมายความว่า …"
        framed = _TH_BARE_FRAME_RE.fullmatch(groups["bare"])
        raw = framed.group(1) if framed else groups["bare"]
    return re.sub(r"\s+", " ", raw).strip()


_TH_BARE_FRAME_RE = re.compile(r"อัน(?:ว่า)?([ก-๛]{2,}?)นั้น")


def _definition_scope(section: Section, at: int, law: Law) -> tuple[str, tuple[str, ...]]:
    """The reach of a definition at `at`: the last scope phrase before it in its section."""
    pattern = _SCOPE_RES.get(law.language, _SCOPE_RES["th"])
    found = list(pattern.finditer(section.text, 0, at + 1))
    kind = _SCOPE_KIND.get(found[-1]["d"], "law") if found else "law"
    if kind == "chapter":
        keys = [section.chapter_key]
        more = found[-1].groupdict().get("more") or ""
        keys += [_division_key(law, str(n)) for n in _kanji_chapters(more)]
        return kind, tuple(k for k in dict.fromkeys(keys) if k)
    if kind == "part":
        return kind, (section.part_key,) if section.part_key else ()
    return kind, ()


def _kanji_chapters(text: str) -> list[int]:
    """Chapter numbers in "、第六章及び第八章", "及び第六章から第八章まで"."""
    numbers: list[int] = []
    for match in re.finditer(rf"第({KANJI_NUMERAL})章(?:から第({KANJI_NUMERAL})章まで)?", text):
        first = parse_kanji_number(match[1])
        last = parse_kanji_number(match[2]) if match[2] else first
        numbers += list(range(first, last + 1))
    return numbers


def _widen(definition: Definition, scope: str, keys: tuple[str, ...]) -> Definition:
    if _SCOPE_RANK[scope] > _SCOPE_RANK[definition.scope]:
        return replace(definition, scope=scope, scope_keys=keys)
    if scope == definition.scope and scope in ("chapter", "part"):
        merged = tuple(dict.fromkeys([*definition.scope_keys, *keys]))
        return replace(definition, scope_keys=merged)
    return definition


def find_term_uses(law: Law, definitions: list[Definition]) -> list[tuple[str, str]]:
    """(section key, definition key) for each section whose text uses a defined term where
    the definition holds: the whole law, its chapters or parts (when the source has them),
    or only its own section."""
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
            if (section.key, definition.key) not in defining and _holds_in(definition, section):
                uses.append((section.key, definition.key))
            text = pattern.sub(lambda m: "\u0000" * len(m.group(0)), text)  # mask longer terms
    return sorted(uses)


def _holds_in(definition: Definition, section: Section) -> bool:
    if definition.scope == "section":
        return section.key == definition.section
    if definition.scope in ("chapter", "part") and definition.scope_keys:
        return bool({section.chapter_key, section.part_key} & set(definition.scope_keys))
    return True  # the whole law, or a division the source does not mark


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
# An exemption granted outright: "ให้ยกเว้นภาษี…", "…อาจส่งหรือโอนข้อมูลไปยังต่างประเทศได้ โดย
# ได้รับยกเว้นไม่ต้องปฏิบัติตามมาตรา ๒๘", "เงินได้…ประเภทต่อไปนี้ ได้รับยกเว้น…"; not one only
# mentioned in a relative clause since the last space ("ข้อมูลส่วนบุคคลที่เก็บรวบรวมได้โดย
# ได้รับยกเว้นไม่ต้องขอความยินยอม", "ที่ได้รับยกเว้นตามวรรคหนึ่ง"), unless that clause is the
# grant itself ("ให้นิติบุคคลที่รับโอนหุ้นนั้นได้รับยกเว้นจากบทบัญญัติ…").
_TH_EXEMPT_RE = re.compile(r"ให้ยกเว้น|ได้รับยกเว้น(?!ตาม)")
_EN_NOT_APPLY_RE = re.compile(r"\b(?:shall|does|do)\snot\sapply\b", re.IGNORECASE)
# "By way of derogation from Article 9(1)", "derogations from the rights referred to in
# Articles 15, 16, 18 and 21", "is exempt from section 13": the sections named after it.
_EN_EXEMPT_RE = re.compile(
    r"\b(?:by\sway\sof\sderogation\sfrom|(?:exemptions?\sor\s)?derogations?\sfrom"
    r"|(?:is|are|shall\sbe)\sexempt(?:ed)?\sfrom)\b",
    re.IGNORECASE,
)
_EN_EXCEPT_RE = re.compile(
    r"\bexcept\s(?:where|when|if|in|as|for|to\sthe\sextent|that|with|on|by|under)\b"
)
_EN_OWN_PARAGRAPH_RE = re.compile(r"\b(?:[Ss]ubsections?\s\(\d|[Pp]aragraphs?\s\d)")
# "第十七条の規定は、…については、適用しない", "前二項の規定は、次に掲げる場合については、適用
# しない"; a proviso "ただし、…この限りでない" and "…場合を除き" are exceptions.
_JA_NOT_APPLY_RE = re.compile(r"の規定は、[^。]{0,300}?適用しない")
_JA_EXCEPT_RE = re.compile(r"ただし、[^。]{0,300}?この限りでない|(?:場合|とき|もの)を除き")
_JA_EXEMPT_LIST_RE = re.compile(
    rf"(?:(?:又は|若しくは|及び|並びに|、|から)(?:第{KANJI_NUMERAL}(?:条|項|号|節|章)|前条|同条)+|まで"
    rf"|第{KANJI_NUMERAL}(?:項|号))"
)
_JA_OWN_PARAGRAPH_RE = re.compile(
    rf"(?:前(?:{KANJI_NUMERAL})?項|前各項|同項|第{KANJI_NUMERAL}項)の規定は、"
)
_TH_OWN_PARAGRAPH_RE = re.compile(r"ความในวรรค(?P<w>หนึ่ง|สอง|สาม|สี่|ห้า|หก)")
_EXEMPTION_MAX_CHARS = 600
_OPENS_LIST_RE = re.compile(r"(?:เว้นแต่|ดังต่อไปนี้|ต่อไปนี้|:)\s*$")


@dataclass(frozen=True)
class Exemption:
    key: str  # "<law>:ex:<section number>:<i>"
    section: str  # key of the section that grants it
    index: int
    kind: str  # "except" | "not_apply" | "exempt"
    text: str  # the clause
    span: tuple[int, int]
    exempts_from: tuple[str, ...]  # keys of the sections it carves out of, where named


def find_exemptions(section: Section, law: Law, resolutions: list[Resolution]) -> list[Exemption]:
    """Exemption clauses of `section`, in text order."""
    text = section.text
    if law.language == "en":
        found = _exemptions_en(section, law, resolutions)
    elif law.language == "ja":
        found = _exemptions_ja(section, law, resolutions)
    else:
        found = _exemptions_th(section, law, resolutions)
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


_Found = list[tuple[int, int, str, tuple[str, ...]]]


def _exemptions_en(section: Section, law: Law, resolutions: list[Resolution]) -> _Found:
    text = section.text
    found: _Found = []
    for match in _EN_NOT_APPLY_RE.finditer(text):
        begin = _sentence_start_en(text, match.start())
        end = _sentence_end_en(text, match.end())
        named = _named_before(resolutions, begin, match.start())
        named += _exempted_divisions(section, law, text[begin : match.start()])
        if not named and _EN_OWN_PARAGRAPH_RE.search(text, begin, match.start()):
            named = (section.key,)
        found.append((begin, end, "not_apply", named))
    for match in _EN_EXEMPT_RE.finditer(text):
        if _inside(found, match.start()):
            continue
        begin = _sentence_start_en(text, match.start())
        end = _sentence_end_en(text, match.end())
        named = _named_after(resolutions, match.end(), end)
        if not named and _EN_OWN_PARAGRAPH_RE.match(text, match.end() + 1):
            named = (section.key,)  # "By derogation from paragraph 1, …"
        found.append((begin, end, "exempt", named))
    for match in _EN_EXCEPT_RE.finditer(text):
        if not _inside(found, match.start()):
            found.append((match.start(), _sentence_end_en(text, match.end()), "except", ()))
    return found


def _exemptions_ja(section: Section, law: Law, resolutions: list[Resolution]) -> _Found:
    text = section.text
    found: _Found = []
    for match in _JA_NOT_APPLY_RE.finditer(text):
        begin = _sentence_start_ja(text, match.start())
        named = tuple(
            t
            for r in resolutions
            if begin <= r.citation.span[0] < match.start()
            and _ja_list_end(text, r.citation.span[1]) == match.start()
            and (t := r.target) is not None
        )
        named += _exempted_divisions(section, law, text[begin : match.start()])
        if not named and _JA_OWN_PARAGRAPH_RE.search(text, begin, match.start() + 5):
            named = (section.key,)
        found.append((begin, match.end(), "not_apply", named))
    for match in _JA_EXCEPT_RE.finditer(text):
        if _inside(found, match.start()):
            continue
        proviso = match.group(0).startswith("ただし")
        begin = match.start() if proviso else _sentence_start_ja(text, match.start())
        end = text.find("。", match.end())
        found.append((begin, len(text) if end == -1 else end + 1, "except", ()))
    return found


def _exemptions_th(section: Section, law: Law, resolutions: list[Resolution]) -> _Found:
    text = section.text
    found: _Found = []
    for match in _TH_NOT_APPLY_RE.finditer(text):
        begin = text.rfind("\n", 0, match.start()) + 1
        end = _clause_end_th(text, match.end())
        # Where the provisions that stop applying are named: inside "มิให้นำมาตรา ๔๖ มาใช้
        # บังคับ", after "ไม่อยู่ในบังคับ(ต้องเสียภาษีตามหมวด ๔)" (nothing when it only
        # describes: "ที่ไม่อยู่ในบังคับ…", "แม้ไม่อยู่ในบังคับ…"), and otherwise before the
        # verb within its own clause ("ความในวรรคหนึ่งมิให้นำมาใช้บังคับ", "มาตรา ๕ … ไม่ใช้
        # บังคับแก่", not the "ให้นำมาตรา ๖ … มาใช้บังคับ" that a "แต่" closes).
        verb = match.group(0)
        if verb.startswith("มิให้นำ") and verb[len("มิให้นำ") : -len("มาใช้บังคับ")].strip():
            lo, hi = match.start(), match.end()
        elif verb == "ไม่อยู่ในบังคับ":
            described = text[: match.start()].endswith(_TH_DESCRIBING)
            lo, hi = (match.end(), match.end()) if described else (match.end(), end)
        else:
            lo, hi = _clause_start_th(text, begin, match.start()), match.start()
        named = _named_before(resolutions, lo, hi)
        named += _exempted_divisions(section, law, text[lo:hi])
        own = _TH_OWN_PARAGRAPH_RE.search(text, lo, hi)
        if not named and own is not None:
            named = (section.key,)
        found.append((begin, end, "not_apply", named))
    for match in _TH_EXCEPT_RE.finditer(text):
        if not _inside(found, match.start()):
            found.append((match.start(), _clause_end_th(text, match.end()), "except", ()))
    for match in _TH_EXEMPT_RE.finditer(text):
        if _inside(found, match.start()) or _mentioned_th(text, match.start()):
            continue
        if text[: match.start()].endswith(_TH_NEGATIONS):
            continue  # "…ไม่ได้รับยกเว้นการจดทะเบียน…ต้องจดทะเบียน", "ไม่เป็นเหตุให้ยกเว้น"
        begin = text.rfind("\n", 0, match.start()) + 1
        end = _clause_end_th(text, match.end())
        # "…โดยได้รับยกเว้นไม่ต้องปฏิบัติตามมาตรา ๒๘"
        found.append((begin, end, "exempt", _named_after(resolutions, match.end(), end)))
    return found


def _ja_list_end(text: str, at: int) -> int:
    """Where the list of articles that goes on at `at` ends: "、第二十六条及び第三十二条
    から第三十九条まで", notes "（…）" included, so that "の規定は" can be looked for there."""
    while True:
        if text.startswith("（", at):
            at = _ja_note_end(text, at)
            continue
        more = _JA_EXEMPT_LIST_RE.match(text, at)
        if more is None:
            return at
        at = more.end()


def _ja_note_end(text: str, at: int) -> int:
    depth = 0
    for i in range(at, len(text)):
        if text[i] == "（":
            depth += 1
        elif text[i] == "）":
            depth -= 1
            if depth == 0:
                return i + 1
    return len(text)


_TH_NEGATIONS = ("ไม่", "มิ", "ไม่เป็นเหตุ")
_TH_DESCRIBING = ("ที่", "ซึ่ง", "อัน", "แม้")
# Where a Thai clause begins inside a line: after a sentence's wide space, or at "แต่" or
# "ทั้งนี้" that open a new clause ("ให้นำมาตรา ๖ … มาใช้บังคับ … แต่ข้อห้าม…ตามมาตรา ๑๒
# มิให้ใช้บังคับกับ…").
_TH_CLAUSE_BREAK_RE = re.compile(r"\s{2,}|\sแต่|\sทั้งนี้")


def _clause_start_th(text: str, begin: int, at: int) -> int:
    start = begin
    for match in _TH_CLAUSE_BREAK_RE.finditer(text, begin, at):
        start = match.end()
    return start


def _mentioned_th(text: str, at: int) -> bool:
    """Whether the exemption word at `at` sits in a relative clause ("ที่" / "ซึ่ง" since the
    last space) that does not itself grant it ("ให้…")."""
    chunk = re.split(r"\s", text[:at])[-1]
    granting = chunk.startswith("ให้") or chunk.endswith("ให้")
    return not granting and ("ที่" in chunk or "ซึ่ง" in chunk)


def _exempted_divisions(section: Section, law: Law, clause: str) -> tuple[str, ...]:
    """Every section of the divisions a "does not apply" clause names: "Parts 3, 4, 5, 6
    and 6A do not apply to business contact information", "この章の規定は、…適用しない",
    "บทบัญญัติในหมวด ๒ … ไม่ใช้บังคับแก่ …"."""
    keys: list[str | None] = []
    if law.language == "en":
        for match in _EN_DIVISION_RE.finditer(clause):
            numbers = re.split(r",\s(?:or\s|and\s)?|\sor\s|\sand\s", match["list"])
            keys += [_division_key(law, n) for n in numbers]
    elif law.language == "ja":
        # "この章（第一節、…を除く。）": a carve-out of the chapter this rule does not read
        for match in re.finditer(rf"(?:この|第({KANJI_NUMERAL}))章(?!（)", clause):
            own = section.chapter_key
            keys.append(_division_key(law, str(parse_kanji_number(match[1]))) if match[1] else own)
    else:
        for match in re.finditer(
            r"(?P<kind>หมวด|ส่วนที่)[ \t\u00a0]?(?P<num>[0-9๐-๙]{1,3}|นี้)", clause
        ):
            kind = "chapter" if match["kind"] == "หมวด" else "part"
            own = section.chapter_key if kind == "chapter" else section.part_key
            number = thai_to_arabic_digits(match["num"])
            keys.append(own if match["num"] == "นี้" else _division_key(law, number, kind))
    wanted = {k for k in keys if k}
    return tuple(
        s.key
        for s in sorted(law.sections, key=lambda s: s.order)
        if (s.chapter_key in wanted or s.part_key in wanted) and s.key != section.key
    )


def _inside(found: list[tuple[int, int, str, tuple[str, ...]]], at: int) -> bool:
    return any(begin <= at < end for begin, end, _, _ in found)


def _named_after(resolutions: list[Resolution], begin: int, end: int) -> tuple[str, ...]:
    """The sections cited shortly after `begin` and before `end`: a derogation's own list
    ("derogations from the rights referred to in Articles 15, 16, 18 and 21")."""
    return tuple(
        r.target
        for r in resolutions
        if r.target is not None and begin <= r.citation.span[0] < min(end, begin + 80)
    )


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


def _sentence_start_ja(text: str, at: int) -> int:
    """After the last "。" or line break before `at` outside a parenthetical "（…。）"."""
    depth = 0
    for i in range(at - 1, -1, -1):
        char = text[i]
        if char == "）":
            depth += 1
        elif char == "（":
            depth = max(0, depth - 1)
        elif depth == 0 and char in "。\n":
            return i + 1
    return 0


def _sentence_start_en(text: str, at: int) -> int:
    cut = max(text.rfind(". ", 0, at), text.rfind("\n", 0, at), text.rfind(";", 0, at))
    return cut + 1 if cut >= 0 else 0


def _sentence_end_en(text: str, at: int) -> int:
    ends = [i for i in (text.find(". ", at), text.find("\n", at), text.find(";", at)) if i != -1]
    end = min(ends) + 1 if ends else len(text)
    return min(end, at + _EXEMPTION_MAX_CHARS)
