"""Numbers and durations as Thai statutes write them.

Penalty clauses spell amounts out in words ("ปรับไม่เกินห้าล้านบาท", "จำคุกไม่เกินหนึ่งปี"),
sometimes in Thai or Arabic digits with thousands separators ("๕,๐๐๐,๐๐๐ บาท"), and
English statutes use digits with commas or (EUR-Lex) non-breaking spaces ("20 000 000 EUR").
This module turns all of those into ints. Pure functions, no I/O.
"""

from __future__ import annotations

import math
import re

from ingest.ids import thai_to_arabic_digits

_UNIT_WORDS = {
    "ศูนย์": 0,
    "หนึ่ง": 1,
    "เอ็ด": 1,
    "สอง": 2,
    "ยี่": 2,
    "สาม": 3,
    "สี่": 4,
    "ห้า": 5,
    "หก": 6,
    "เจ็ด": 7,
    "แปด": 8,
    "เก้า": 9,
}
_MULTIPLIER_WORDS = {
    "สิบ": 10,
    "ร้อย": 100,
    "พัน": 1_000,
    "หมื่น": 10_000,
    "แสน": 100_000,
    "ล้าน": 1_000_000,
}
# Longest first so that "สิบ" is not read as "สี่" + "บ" and "เอ็ด" wins over nothing.
_WORDS = sorted([*_UNIT_WORDS, *_MULTIPLIER_WORDS], key=len, reverse=True)
_DIGIT_RUN = r"[0-9๐-๙](?:[0-9๐-๙]|[,\u00a0\u202f ](?=[0-9๐-๙]{3}))*"
_WORD_RUN = "(?:" + "|".join(_WORDS) + ")+"

# One number: digits (with separators), words, or digits followed by a multiplier word
# ("5 ล้าน"). Alternatives are bounded runs, so matching stays linear.
NUMBER_PATTERN = rf"(?:{_DIGIT_RUN}\s*(?:{_WORD_RUN})?|{_WORD_RUN})"
_NUMBER_RE = re.compile(NUMBER_PATTERN)
_TOKEN_RE = re.compile(rf"{_DIGIT_RUN}|" + "|".join(_WORDS))

_DURATION_RE = re.compile(
    rf"(?P<n>{NUMBER_PATTERN})\s*(?P<unit>ปี|เดือน|วัน|years?|months?|days?)", re.IGNORECASE
)
_FINE_TH_RE = re.compile(
    rf"ปรับ(?:\s?ทางปกครอง|\s?เป็นพินัย)?\s*(?:ไม่เกิน(?:กว่า)?(?:คนละ)?|ตั้งแต่\s*{NUMBER_PATTERN}\s*บาท\s*ถึง)\s*(?P<n>{NUMBER_PATTERN})\s*บาท"
)
_FINE_EN_RE = re.compile(
    r"(?:fines?|fined)\b[^.;]{0,80}?(?:up to|not exceeding|exceeding|of)\s+"
    r"(?:(?P<cur1>EUR|S\$|\$|USD|THB|yen)\s*)?(?P<n>\d[\d,\u00a0\u202f ]*\d|\d)"
    r"(?:\s*(?P<cur2>EUR|baht|THB|yen))?",
    re.IGNORECASE,
)
_PRISON_TH_RE = re.compile(
    rf"จำคุก\s*(?:ไม่เกิน|ไม่เกินกว่า|ตั้งแต่[^จ]{{0,40}}?ถึง|ตลอดชีวิต)?\s*"
    rf"(?P<d>(?:{NUMBER_PATTERN}\s*(?:ปี|เดือน|วัน)\s*)+)"
)
_PRISON_EN_RE = re.compile(
    r"imprisonment\s+for\s+a\s+term\s+(?:not\s+exceeding|of\s+up\s+to|up\s+to)\s+"
    r"(?P<d>(?:\d+|[a-z]+)\s+(?:years?|months?|days?))",
    re.IGNORECASE,
)
_ENGLISH_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15,
    "twenty": 20, "thirty": 30,
}  # fmt: skip


def parse_thai_number(text: str) -> int | None:
    """The value of one number written in Thai words and/or digits, else None.

    "ห้าล้าน" -> 5_000_000, "หนึ่งแสน" -> 100_000, "สิบเอ็ด" -> 11, "ยี่สิบ" -> 20,
    "๕,๐๐๐,๐๐๐" -> 5_000_000, "5 ล้าน" -> 5_000_000, "20 000 000" -> 20_000_000.
    """
    cleaned = re.sub(r"\s+", "", text.strip())
    if not cleaned or _NUMBER_RE.fullmatch(text.strip()) is None:
        return None
    total = 0  # completed millions and above
    current = 0  # below one million
    pending: int | None = None  # a unit waiting for its multiplier
    for token in _TOKEN_RE.findall(cleaned):
        if token in _MULTIPLIER_WORDS:
            mult = _MULTIPLIER_WORDS[token]
            if mult == 1_000_000:
                base = total + current + (pending or 0)
                total = (base or 1) * mult
                current = 0
            else:
                current += (1 if pending is None else pending) * mult
            pending = None
        elif token in _UNIT_WORDS:
            pending = _UNIT_WORDS[token]
        else:
            pending = int(re.sub(r"[^0-9]", "", thai_to_arabic_digits(token)))
    return total + current + (pending or 0)


def parse_duration_months(text: str) -> int | None:
    """Months in a duration: "หนึ่งปี" -> 12, "หกเดือน" -> 6, "สามปี" -> 36,
    "หนึ่งปีหกเดือน" -> 18, "two years" -> 24. Days round up to whole months (30 days)."""
    months = 0.0
    found = False
    for match in _DURATION_RE.finditer(text):
        value = parse_thai_number(match["n"])
        if value is None:
            continue
        found = True
        unit = match["unit"].lower()
        if unit.startswith(("ปี", "year")):
            months += value * 12
        elif unit.startswith(("เดือน", "month")):
            months += value
        else:
            months += value / 30
    if not found:
        english = re.match(r"\s*([a-z]+)\s+(year|month)s?", text, re.IGNORECASE)
        if english and english[1].lower() in _ENGLISH_NUMBERS:
            value = _ENGLISH_NUMBERS[english[1].lower()]
            return value * 12 if english[2].lower() == "year" else value
        return None
    return math.ceil(months)


# A kanji numeral as Japanese statutes number articles, paragraphs and items ("二十七").
KANJI_NUMERAL = r"[〇一二三四五六七八九十百千]+"
_FINE_JA_RE = re.compile(r"(?P<n>[〇一二三四五六七八九十百千万億]+)円以下")
_PRISON_JA_RE = re.compile(
    r"(?P<n>[〇一二三四五六七八九十]+)(?P<unit>年|月)以下の(?:拘禁刑|懲役|禁錮)"
)
_KANJI_DIGITS = {c: i for i, c in enumerate("〇一二三四五六七八九")}
_KANJI_SMALL_UNITS = {"十": 10, "百": 100, "千": 1000}
_KANJI_BIG_UNITS = {"万": 10_000, "億": 100_000_000}


def parse_kanji_number(text: str) -> int:
    """ "二十七" -> 27, "百万" -> 1,000,000, "一億" -> 100,000,000 (Japanese statutes)."""
    total = section = current = 0
    for char in text:
        if char in _KANJI_BIG_UNITS:
            total += ((section + current) or 1) * _KANJI_BIG_UNITS[char]
            section = current = 0
        elif char in _KANJI_SMALL_UNITS:
            section += (current or 1) * _KANJI_SMALL_UNITS[char]
            current = 0
        else:
            current = _KANJI_DIGITS[char]
    return total + section + current


def max_fine(text: str) -> tuple[int, str] | None:
    """The largest fine a penalty text allows, with its currency ("THB", "EUR", ...)."""
    best: tuple[int, str] | None = None
    for match in _FINE_JA_RE.finditer(text):
        yen = parse_kanji_number(match["n"])
        if best is None or yen > best[0]:
            best = (yen, "JPY")
    for match in _FINE_TH_RE.finditer(text):
        value = parse_thai_number(match["n"])
        if value is not None and (best is None or value > best[0]):
            best = (value, "THB")
    for match in _FINE_EN_RE.finditer(text):
        value = parse_thai_number(match["n"])
        currency = (match["cur1"] or match["cur2"] or "").upper()
        currency = {"BAHT": "THB", "S$": "SGD", "$": "SGD", "YEN": "JPY"}.get(currency, currency)
        if value is not None and (best is None or value > best[0]):
            best = (value, currency or "")
    return best


def max_prison_months(text: str) -> int | None:
    """The longest prison term a penalty text allows, in months."""
    best: int | None = None
    for match in _PRISON_JA_RE.finditer(text):
        term = parse_kanji_number(match["n"]) * (12 if match["unit"] == "年" else 1)
        if best is None or term > best:
            best = term
    for match in _PRISON_TH_RE.finditer(text):
        months = parse_duration_months(match["d"])
        if months is not None and (best is None or months > best):
            best = months
    for match in _PRISON_EN_RE.finditer(text):
        months = parse_duration_months(match["d"])
        if months is not None and (best is None or months > best):
            best = months
    return best
