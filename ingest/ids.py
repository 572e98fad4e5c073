"""Digits, section numbers, keys, labels and law ids.

Every reader goes through these functions so that one law read from different sources
(sidataplus Markdown, an OCS JSON file, a laws.jsonl record, NitiBench) gets the same law
id and the same section keys; citations resolve by key equality across sources.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

_THAI_DIGITS = "๐๑๒๓๔๕๖๗๘๙"
_TO_ARABIC = str.maketrans(_THAI_DIGITS, "0123456789")
_TO_THAI = str.maketrans("0123456789", _THAI_DIGITS)

# Latin-style ordinals an amendment adds after a number to insert a section or a clause
# after it ("19 ทวิ" = 19 bis ... "65 เอกวีสติ" = 65 (21st)): a regex, longest first. The short
# ones must not start an ordinary word ("นวัตกรรม").
_ORDINAL_WORDS = (
    "ทวิ ตรี จัตวา เบญจ ฉ สัตต อัฏฐ นว ทศ เอกาทศ ทวาทศ เตรส จตุทศ ปัณรส ปัญจทศ โสฬส สัตตรส "
    "อัฏฐารส เอกูนวีสติ วีสติ เอกวีสติ ทวาวีสติ เตวีสติ จตุวีสติ ปัญจวีสติ ฉัพพีสติ สัตตวีสติ "
    "อัฏฐวีสติ เอกูนตึงสติ ตึงสติ"
).split()
THAI_ORDINAL = (
    "(?:"
    + "|".join(w for w in sorted(_ORDINAL_WORDS, key=len, reverse=True) if w not in ("ฉ", "นว"))
    + "|(?:ฉ|นว)(?![ก-ฮะ-ฺ็-๎]))"
)
# Spaces the sources really contain: NBSP (GDPR), em/en spaces (sidataplus "&emsp;" once
# unescaped), thin spaces, zero-width characters left by PDF copy-paste.
_ODD_SPACES = re.compile(r"[\u00a0\u2000-\u200a\u202f\u205f\u3000]")
_ZERO_WIDTH = re.compile(r"[\u200b-\u200d\u2060\ufeff]")
# Thai vowel/tone marks that cannot start a token; OCS has typos such as "ุ6" and "ึ78".
_STRAY_MARKS = re.compile(r"^[\u0e31\u0e34-\u0e3a\u0e47-\u0e4e]+")
_UNIT_PREFIX = re.compile(r"^(?:มาตรา|ข้อ|article|art\.|section|s\.)\s*", re.IGNORECASE)

# Section units by language; SG statutes are "Section N", EU ones "Article N".
_DEFAULT_UNIT = {"th": "มาตรา", "en": "Article"}

# Curated short ids. Keys are titles after _normalise_title (Arabic digits, "พ.ศ." form,
# lower case), so Thai-digit and Buddhist-era spellings of the same title match.
_CURATED_IDS: dict[str, str] = {
    "พระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. 2562": "th-pdpa-2562",
    "general data protection regulation": "eu-gdpr",
    "gdpr": "eu-gdpr",
    "regulation (eu) 2016/679": "eu-gdpr",
    "personal data protection act 2012": "sg-pdpa-2012",
    "個人情報の保護に関する法律": "jp-appi",
    "act on the protection of personal information": "jp-appi",
    "act on protection of personal information": "jp-appi",
}

# Short names and citation forms of the curated laws (other laws cite the PDPA as
# "กฎหมายว่าด้วยการคุ้มครองข้อมูลส่วนบุคคล").
CURATED_NAMES: dict[str, tuple[str, tuple[str, ...]]] = {
    "th-pdpa-2562": (
        "PDPA",
        (
            "พระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล",
            "กฎหมายว่าด้วยการคุ้มครองข้อมูลส่วนบุคคล",
            "PDPA",
        ),
    ),
    "eu-gdpr": ("GDPR", ("General Data Protection Regulation", "Regulation (EU) 2016/679")),
    "sg-pdpa-2012": ("PDPA", ("Personal Data Protection Act 2012", "PDPA 2012")),
    "jp-appi": ("APPI", ("個人情報保護法", "Act on the Protection of Personal Information")),
}

# Title prefix -> kind of instrument, longest first where one prefix starts another.
_TH_KINDS = (
    ("พระราชบัญญัติประกอบรัฐธรรมนูญ", "organic_act"),
    ("พระราชบัญญัติ", "act"),
    ("พระราชกำหนด", "emergency_decree"),
    ("พระราชกฤษฎีกา", "royal_decree"),
    ("กฎกระทรวง", "ministerial_regulation"),
    ("ประมวล", "code"),
    ("รัฐธรรมนูญ", "constitution"),
    ("ประกาศ", "announcement"),
    ("ระเบียบ", "rule"),
    ("ข้อบังคับ", "rule"),
)
# Instruments issued under another law's authority, and the tag of their ids.
SUBORDINATE_KINDS = {
    "royal_decree": "rd", "ministerial_regulation": "mr", "announcement": "ann", "rule": "rule",
}  # fmt: skip

# Ids longer than this get a hash suffix instead of their tail: some decree titles run
# to 200+ characters and the id ends up in URLs and log lines.
_MAX_ID_CHARS = 120


def thai_to_arabic_digits(text: str) -> str:
    return text.translate(_TO_ARABIC)


def arabic_to_thai_digits(text: str) -> str:
    return text.translate(_TO_THAI)


def clean_spaces(text: str) -> str:
    """Odd spaces to plain spaces and zero-width characters removed; newlines kept."""
    return _ZERO_WIDTH.sub("", _ODD_SPACES.sub(" ", text))


def normalise_section_number(raw: str) -> str:
    """ "๒๖/๑" -> "26/1", "๑๙ ทวิ" -> "19 ทวิ", "37เอกวีสติ" -> "37 เอกวีสติ".

    Leading unit words ("มาตรา", "Article") and stray Thai marks are dropped; text that is
    not a number (a schedule item such as "บัญชีอัตราอากรแสตมป์ 1") comes back with its
    spaces collapsed, so it still makes a stable key.
    """
    text = unicodedata.normalize("NFC", clean_spaces(raw))
    text = thai_to_arabic_digits(text).strip()
    text = _UNIT_PREFIX.sub("", text)
    text = _STRAY_MARKS.sub("", text).strip()
    text = re.sub(r"\s*/\s*", "/", text)
    # "37เอกวีสติ" and "29 เบญจ" both become "<digits> <word>".
    text = re.sub(r"(?<=\d)(?=[\u0e01-\u0e4f])", " ", text)
    text = re.sub(r"\s+", " ", text).strip()
    return text


# Graph keys of the nodes a citation walk reaches are "<law id>:<tag>:<parts>"
# (docs/architecture.md); a law id never holds ":". The tag says what kind of node a key
# names, so retrieval reads the kinds of the walk's nodes off their keys. (Chapters and
# parts, "<law>:ch:<n>[:pt:<m>]", are keyed by the readers; no walk goes through them.)
KEY_TAGS = {
    "s": "section", "def": "definition", "pen": "penalty", "ex": "exemption",
    "ext": "external_law", "concept": "concept", "amending": "amending_act",
    "rc": "recital",
}  # fmt: skip


def node_key(law_id: str, tag: str, *parts: object) -> str:
    """ "th-pdpa-2562:pen:79:1" from ("th-pdpa-2562", "pen", "79", 1)."""
    if tag not in KEY_TAGS:
        raise ValueError(f"unknown key tag {tag!r}; expected one of {', '.join(KEY_TAGS)}")
    return ":".join([law_id, tag, *(str(part) for part in parts)])


def section_key(law_id: str, number: str) -> str:
    return node_key(law_id, "s", normalise_section_number(number))


def section_label(number: str, language: str, *, unit: str | None = None) -> str:
    """Display label: "มาตรา ๒๖" (th, Thai digits), "Article 9", "Section 26", "第9条".

    `unit` overrides the language default: "ข้อ" for ministerial regulations, "Section"
    for Singapore statutes.
    """
    number = normalise_section_number(number)
    if not number[:1].isdigit():
        return arabic_to_thai_digits(number) if language == "th" else number
    if language == "ja":
        return f"第{number}条"
    word = unit or _DEFAULT_UNIT.get(language, "Section")
    if language == "th":
        return f"{word} {arabic_to_thai_digits(number)}"
    return f"{word} {number}"


def law_id_for_title(title: str) -> str:
    """Curated short id for the laws the project ships, otherwise a slug of the title.

    The slug keeps Thai letters (percent-encoding makes it URL-path-safe) and contains no
    "/" or ":" so that keys like "<law>:s:<n>" split unambiguously.
    """
    normalised = normalise_title(title).lower()
    curated = _CURATED_IDS.get(normalised)
    if curated:
        return curated
    if law_kind(title) in SUBORDINATE_KINDS:
        return _instrument_id(normalised, law_kind(title))
    slug = re.sub(r"[^0-9a-z\u0e00-\u0e7f._]+", "-", normalised).strip("-._")
    slug = re.sub(r"-{2,}", "-", slug)
    if not slug:
        raise ValueError(f"cannot derive a law id from title {title!r}")
    if len(slug) > _MAX_ID_CHARS:
        digest = hashlib.sha1(normalised.encode("utf-8")).hexdigest()[:8]  # noqa: S324
        slug = f"{slug[: _MAX_ID_CHARS - 9].rstrip('-')}-{digest}"
    return slug


def law_kind(title: str) -> str:
    """ "royal_decree" for "พระราชกฤษฎีกา…"; English titles give "regulation", "directive"
    or "act"."""
    text = normalise_title(title)
    for prefix, kind in _TH_KINDS:
        if text.startswith(prefix):
            return kind
    lowered = text.lower()
    if re.match(r"(?:commission\s+)?(?:implementing\s+|delegated\s+)?regulation\b", lowered):
        return "regulation"
    if re.match(r"(?:commission\s+)?directive\b", lowered):
        return "directive"
    return "act" if text else ""


def _instrument_id(normalised: str, kind: str) -> str:
    """A decree's or regulation's id: "th-pdpa-2562-rd-2563-1a2b3c" when its title names a
    curated law, else "th-rd-2563-1a2b3c4d"; "(ฉบับที่ ๒)" adds "-no2". Titles of such
    instruments run to 200 characters, and a slug of them reads as noise in URLs."""
    digest = hashlib.sha1(normalised.encode("utf-8")).hexdigest()  # noqa: S324
    year = title_year(normalised)
    numbered = re.search(r"\(ฉบับที่\s*(\d+)\)", normalised)
    parts = [SUBORDINATE_KINDS[kind], *([year] if year else [])]
    if numbered:
        parts.append(f"no{numbered.group(1)}")
    for curated_title, curated_id in _CURATED_IDS.items():
        if curated_id.startswith("th-") and curated_title in normalised:
            return "-".join([curated_id, *parts, digest[:6]])
    return "-".join(["th", *parts, digest[:8]])


def normalise_title(title: str) -> str:
    """Arabic digits, "พ.ศ. NNNN" for every Buddhist-era spelling, no "(ยกเลิก)" mark,
    decomposed sara am recomposed, whitespace collapsed."""
    text = unicodedata.normalize("NFC", clean_spaces(title))
    text = text.replace("\u0e4d\u0e32", "\u0e33")  # "ํา" as typed in some OCS titles -> "ำ"
    text = thai_to_arabic_digits(text)
    text = re.sub(r"\s*\(ยกเลิก\)\s*$", "", text)
    text = re.sub(r"(?:พระพุทธศักราช|พุทธศักราช|พ\.\s*ศ\.)\s*(\d{4})", r"พ.ศ. \1", text)
    return re.sub(r"\s+", " ", text).strip()


def title_year(title: str) -> str:
    """The last year printed in the title ("... พ.ศ. 2542 พ.ศ. 2558" -> "2558")."""
    years = re.findall(r"(?:พ\.ศ\.|ค\.ศ\.)\s*(\d{4})|\b((?:19|20)\d{2})\b", normalise_title(title))
    flat = [a or b for a, b in years]
    return flat[-1] if flat else ""


def title_aliases(title: str) -> tuple[str, ...]:
    """Names by which other laws cite this one: the title without its year, and for Thai
    acts the "กฎหมายว่าด้วย…" form used in cross-references."""
    normalised = normalise_title(title)
    law_id = law_id_for_title(title)
    aliases: list[str] = []
    if law_id in CURATED_NAMES:
        aliases.extend(CURATED_NAMES[law_id][1])
    without_year = re.sub(r"\s*(?:พ\.ศ\.|ค\.ศ\.)\s*\d{4}\s*$", "", normalised).strip()
    if without_year and without_year != normalised:
        aliases.append(without_year)
    for prefix in ("พระราชบัญญัติ", "พระราชกำหนด"):
        if without_year.startswith(prefix) and len(without_year) > len(prefix):
            subject = without_year[len(prefix) :].strip()
            subject = subject.removeprefix("ว่าด้วย")
            aliases.append(f"กฎหมายว่าด้วย{subject}")
            if not subject.startswith("การ"):
                aliases.append(f"กฎหมายว่าด้วยการ{subject}")
    seen: set[str] = set()
    unique = []
    for alias in aliases:
        if alias and alias != title and alias not in seen:
            seen.add(alias)
            unique.append(alias)
    return tuple(unique)


def short_name_for(title: str) -> str:
    law_id = law_id_for_title(title)
    if law_id in CURATED_NAMES:
        return CURATED_NAMES[law_id][0]
    normalised = normalise_title(title)
    return re.sub(r"\s*(?:พ\.ศ\.|ค\.ศ\.)\s*\d{4}\s*$", "", normalised).strip() or normalised
