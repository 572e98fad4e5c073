"""Question analysis: explicit citations, Thai-aware tokens, keywords and intent flags.

Deterministic and offline. The glossaries (`data/glossary/`) bring the Thai terms statutes
use for a question's words: for English words (`en-th.json`), so an English question's
sparse vectors match Thai text, and for everyday Thai words (`th-th.json`). The optional
LLM keyword step (an OpenAI-compatible chat endpoint named by `settings.llm_keywords_url`)
only ever adds keywords; when it is off or fails, the result is exactly the deterministic
one.
"""

from __future__ import annotations

import json
import logging
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

import httpx

from ingest import ids, xrefs
from services.core.settings import REPO_ROOT, Settings

log = logging.getLogger(__name__)


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*[A-Za-z]|[A-Za-z]")
_THAI_RUN = re.compile(r"[\u0E00-\u0E7F]+")
_THAI_LETTER = re.compile(r"[\u0E01-\u0E2E]")
_LATIN_LETTER = re.compile(r"[a-z]")

# Intent vocabularies. Thai words are matched as substrings of the normalised question
# (Thai has no spaces, and newmm glues "มีโทษ"/"ทำผิด"); "ปรับ" alone would also hit
# "ปรับปรุง" (improve), so it only counts as a whole token or in "โทษปรับ"/"ค่าปรับ".
# "ผิด" (wrong) also sits in words that are not about wrongdoing: "รับผิดชอบ" (be
# responsible for), "ผิดพลาด" (an error) and "ผิดนัด" (late payment), common in the facts
# of a tax ruling (NitiBench-Tax: they made 7 of the 50 questions penalty questions).
# "โดนอะไร" (what will they get) and "ผลทางกฎหมาย" (legal consequences) ask for
# consequences, as "what can happen" does in English.
_NOT_PENALTY_TH = ("รับผิดชอบ", "ผิดพลาด", "ผิดนัด")
_PENALTY_TH = (
    "โทษ", "จำคุก", "ผิด", "ฝ่าฝืน", "โทษปรับ", "ค่าปรับ", "ปรับไม่เกิน", "ลงโทษ",
    "ถูกปรับ", "โดนปรับ", "ปรับทางปกครอง", "อาญา", "โดนอะไร", "ผลทางกฎหมาย",
)  # fmt: skip
_PENALTY_TOKENS_TH = ("ปรับ",)
_PENALTY_EN = (
    "penalty", "penalties", "penalise", "penalize", "fine", "fines", "fined",
    "sanction", "sanctions", "punish", "punishment", "punishable", "imprisonment",
    "prison", "jail", "liable", "liability", "offence", "offense", "violate",
    "violates", "violation", "breach", "breaches", "wrong", "illegal", "unlawful",
    "crime", "crimes", "criminal", "penal", "sanctioned", "prosecuted", "prosecution",
    "consequence", "consequences", "what can happen", "what happens if", "what will happen",
    "in trouble",
)  # fmt: skip
_EXCEPTION_TH = ("เว้นแต่", "ยกเว้น", "ข้อยกเว้น", "ไม่ใช้บังคับ", "ไม่ต้องขอความยินยอม")
_EXCEPTION_EN = (
    "except", "exception", "exceptions", "unless", "exempt", "exempted",
    "exemption", "exemptions", "without consent", "excluded", "derogation",
)  # fmt: skip
_DEFINITION_TH = ("หมายความว่า", "หมายถึง", "คืออะไร", "นิยาม", "ความหมาย")
_DEFINITION_EN = ("definition", "definitions", "define", "defined", "defines", "means", "meaning")
# "what is the penalty" asks for a penalty: these weak forms count only without another intent.
_WEAK_DEFINITION_TH = ("คือ",)
_WEAK_DEFINITION_EN = ("what is", "what are", "what's", "what does")

# A long question is a fact pattern that ends in what it asks. Its asking part starts at the
# last of these Thai phrases ("I'd like to know", "ask whether", "I wonder whether"); in
# English it is the sentences that end in "?". Shorter questions are all asking part.
_ASKING_MIN_CHARS = 400
_ASKING_TH = (
    "อยากถามว่า",
    "อยากทราบว่า",
    "อยากทราบ",
    "ขอทราบ",
    "ขอหารือ",
    "หารือว่า",
    "ถามว่า",
    "สงสัยว่า",
)
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+")

_EN_STOPWORDS = frozenset(
    """a an the and or but if then else of to in on at by for with from into onto about as
    is are was were be been being am do does did doing have has had having can could may
    might must shall should will would i me my we our us you your he she it its they them
    their this that these those there here what which who whom whose when where why how
    not no nor so than too very just also any all some each every other such own same
    get gets got if's it's don't doesn't can't won't isn't aren't one ok okay please tell
    s ss sec section sections article articles art arts""".split()
)
_TH_EXTRA_STOPWORDS = frozenset(
    {"ได้ไหม", "ไหม", "หรือไม่", "อะไร", "อย่างไร", "ยังไง", "บ้าง", "ครับ", "ค่ะ", "คะ", "มาตรา", "ม."}
)


@dataclass(frozen=True)
class CitedSection:
    """A section the question names explicitly ("มาตรา ๒๖ วรรคหนึ่ง", "Art. 9(2)")."""

    number: str  # normalised like section keys: Arabic digits, "26/1", "19 ทวิ"
    text: str  # the span as written
    paragraph: str | None = None
    clause: str | None = None
    law: str | None = None  # the law named after it, as written ("แห่งประมวลรัษฎากร")


@dataclass(frozen=True)
class QuestionAnalysis:
    question: str  # cleaned: NFC, control characters removed, whitespace collapsed
    normalised: str  # question with Thai digits as Arabic digits
    citations: tuple[CitedSection, ...]
    tokens: tuple[str, ...]
    keywords: tuple[str, ...]
    penalty: bool
    exception: bool
    definition: bool
    glossary_terms: tuple[str, ...] = field(default=())  # statutory Thai terms for its words
    asking: str | None = None  # what a long fact pattern asks (`asking_part`)
    llm_keywords: tuple[str, ...] = field(default=())

    @property
    def intents(self) -> tuple[str, ...]:
        flags = (
            ("penalty", self.penalty),
            ("exception", self.exception),
            ("definition", self.definition),
        )
        return tuple(name for name, on in flags if on)


def analyse_question(question: str, settings: Settings | None = None) -> QuestionAnalysis:
    """Read citations, tokens, keywords and intents from a question, deterministically."""
    cleaned = clean_text(question)
    normalised = ids.thai_to_arabic_digits(cleaned)
    citations = extract_section_citations(normalised)
    tokens = tokenize(normalised)
    keywords = _keywords(tokenize(_strip_citations(normalised)) if citations else tokens)
    lowered = normalised.lower()
    extra: tuple[str, ...] = ()
    if settings is not None and settings.llm_keywords_url:
        extra = tuple(k for k in llm_keywords(cleaned, settings) if k not in keywords)
    penalty = _has_intent(
        _without(lowered, _NOT_PENALTY_TH), tokens, _PENALTY_TH, _PENALTY_EN, _PENALTY_TOKENS_TH
    )
    exception = _has_intent(lowered, tokens, _EXCEPTION_TH, _EXCEPTION_EN)
    definition = _has_intent(lowered, tokens, _DEFINITION_TH, _DEFINITION_EN) or (
        not (penalty or exception)
        and _has_intent(lowered, tokens, _WEAK_DEFINITION_TH, _WEAK_DEFINITION_EN)
    )
    return QuestionAnalysis(
        question=cleaned,
        normalised=normalised,
        citations=citations,
        tokens=tokens,
        keywords=keywords,
        penalty=penalty,
        exception=exception,
        definition=definition,
        glossary_terms=glossary_terms(lowered),
        asking=asking_part(cleaned),
        llm_keywords=extra,
    )


def asking_part(question: str) -> str | None:
    """What a long question asks, after its facts: from the last Thai asking phrase
    ("อยากทราบว่า…") to the end, or, without one, its sentences that end in "?". None for a
    question under `_ASKING_MIN_CHARS` or one with neither."""
    if len(question) < _ASKING_MIN_CHARS:
        return None
    start = max(question.rfind(phrase) for phrase in _ASKING_TH)
    if start >= 0:
        return question[start:]
    asked = [s for s in _SENTENCE_END.split(question) if s.endswith("?")]
    return " ".join(asked) or None


GLOSSARIES = REPO_ROOT / "data" / "glossary"


def glossary_terms(lowered: str) -> tuple[str, ...]:
    """The statutory Thai terms for the words of a lower-cased question, in the order they
    occur, each once. An English question gets them for its English words ("personal
    data" -> ข้อมูลส่วนบุคคล, `en-th.json`); a Thai question for its everyday Thai words
    ("ข้อมูลส่วนตัว" -> ข้อมูลส่วนบุคคล, `th-th.json`), less the terms it already uses.
    The English words a Thai question quotes ("VAT", "ROPA") are not bridged: they only
    added noise (NitiBench-Tax bm25 HR 0.78 -> 0.76 when they were)."""
    english = len(_LATIN_LETTER.findall(lowered)) > len(_THAI_LETTER.findall(lowered))
    found: list[tuple[int, str]] = []
    for pattern, terms in _glossary("en-th" if english else "th-th"):
        found.extend((m.start(), term) for m in pattern.finditer(lowered) for term in terms)
    ordered = dict.fromkeys(term for _, term in sorted(found))
    return tuple(term for term in ordered if english or term not in lowered)


@lru_cache(maxsize=2)
def _glossary(name: str) -> tuple[tuple[re.Pattern[str], tuple[str, ...]], ...]:
    """English keys match as whole words, plurals too ("criminal record" in "criminal
    records"); Thai keys, written without spaces, as substrings."""
    terms = json.loads((GLOSSARIES / f"{name}.json").read_text(encoding="utf-8"))["terms"]
    bound = (r"(?<![a-z0-9-])", r"(?:e?s)?(?![a-z0-9-])") if name == "en-th" else ("", "")
    return tuple(
        (re.compile(bound[0] + re.escape(key) + bound[1]), tuple(thai))
        for key, thai in terms.items()
    )


def clean_text(text: str) -> str:
    """NFC, control characters dropped, runs of whitespace collapsed to one space."""
    text = unicodedata.normalize("NFC", text)
    text = _CONTROL.sub(" ", text)
    return " ".join(text.split())


def normalise_section_number(raw: str) -> str:
    """ "๒๖" -> "26", "26/1" -> "26/1", "๑๙ทวิ" -> "19 ทวิ", "ม. 26" -> "26", "Art. 9" -> "9"
    (the same normalisation as section keys, `ingest.ids.normalise_section_number`)."""
    text = ids.thai_to_arabic_digits(clean_text(raw))
    text = re.sub(r"^(?:ม\.|sections?|sec\.|ss?\.|articles?|arts?\.|§)\s*", "", text, flags=re.I)
    return ids.normalise_section_number(text)


def extract_section_citations(text: str) -> tuple[CitedSection, ...]:
    """Explicit section/article citations, in order of appearance, each number once, read
    with the statutes' own citation rules (`ingest.xrefs.cite_in_question`)."""
    seen: set[str] = set()
    result: list[CitedSection] = []
    for cited in xrefs.cite_in_question(text):
        number = normalise_section_number(cited.section)
        if number and number not in seen:
            seen.add(number)
            result.append(
                CitedSection(
                    number,
                    cited.text.strip(),
                    str(cited.paragraph) if cited.paragraph is not None else None,
                    cited.clauses[0] if cited.clauses else None,
                    cited.law,
                )
            )
    return tuple(result)


def _strip_citations(text: str) -> str:
    """The question without its citations (keywords are the rest)."""
    spelled = xrefs.spell_out_short_forms(text)
    kept, at = [], 0
    for cited in xrefs.cite_in_question(spelled):
        start, end = cited.span
        if start >= at:
            kept.append(spelled[at:start])
            at = end
    return " ".join([*kept, spelled[at:]])


def tokenize(text: str) -> tuple[str, ...]:
    """Thai runs through PyThaiNLP newmm, Latin words and numbers by regex; lower-cased."""
    tokens: list[str] = []
    for piece in re.split(r"\s+", text):
        for part in re.findall(r"[\u0E00-\u0E7F]+|[A-Za-z][A-Za-z'\-]*|\d+(?:/\d+)?", piece):
            if _THAI_RUN.fullmatch(part):
                tokens.extend(t for t in _newmm(part) if t.strip())
            else:
                tokens.append(part.lower().strip("'-"))
    return tuple(t for t in tokens if t)


def llm_keywords(
    question: str, settings: Settings, *, client: httpx.Client | None = None
) -> list[str]:
    """Ask an OpenAI-compatible chat endpoint for statute keywords; [] on any failure."""
    url = settings.llm_keywords_url or ""
    if not url:
        return []
    if not url.rstrip("/").endswith("/chat/completions"):
        url = url.rstrip("/") + "/chat/completions"
    headers = {}
    if settings.llm_api_key is not None:
        headers["Authorization"] = f"Bearer {settings.llm_api_key.get_secret_value()}"
    body = {
        "model": settings.llm_keywords_model,
        "temperature": 0,
        "messages": [
            {"role": "system", "content": _LLM_PROMPT},
            {"role": "user", "content": question},
        ],
    }
    try:
        http = client or httpx.Client(timeout=settings.store_timeout_s)
        try:
            response = http.post(url, json=body, headers=headers)
            response.raise_for_status()
            content = response.json()["choices"][0]["message"]["content"]
        finally:
            if client is None:
                http.close()
        return _parse_llm_keywords(str(content))
    except (httpx.HTTPError, KeyError, IndexError, TypeError, ValueError) as exc:
        log.warning("LLM keyword step failed, using deterministic keywords only: %s", exc)
        return []


_LLM_PROMPT = (
    "Extract search keywords for a statute search engine from the user's legal question. "
    "Give low-level keywords (specific terms, rights, duties, penalties) and high-level "
    "keywords (concepts, principles) in the question's language and in statutory wording. "
    'Answer only with JSON: {"keywords": ["...", "..."]} (at most 12).'
)


def _parse_llm_keywords(content: str) -> list[str]:
    content = content.strip().removeprefix("```json").removeprefix("```").removesuffix("```")
    try:
        data = json.loads(content)
        items = data.get("keywords", []) if isinstance(data, dict) else data
        if not isinstance(items, list):
            raise ValueError("keywords is not a list")
        words = [str(item) for item in items]
    except json.JSONDecodeError:
        words = re.split(r"[,\n]", content)
    cleaned = [clean_text(w).strip(" -•*\"'") for w in words]
    return [w for w in dict.fromkeys(cleaned) if w][:12]


def _keywords(tokens: tuple[str, ...]) -> tuple[str, ...]:
    stop = _thai_stopwords()
    keep: list[str] = []
    for token in tokens:
        if token in stop or token in _EN_STOPWORDS or token in _TH_EXTRA_STOPWORDS:
            continue
        if token.isdigit() or re.fullmatch(r"\d+/\d+", token):
            continue  # section numbers are citations, not keywords
        if len(token) < 2 or not any(ch.isalnum() for ch in token):
            continue
        keep.append(token)
    return tuple(dict.fromkeys(keep))


def _has_intent(
    lowered: str,
    tokens: tuple[str, ...],
    thai: tuple[str, ...],
    english: tuple[str, ...],
    thai_tokens: tuple[str, ...] = (),
) -> bool:
    if any(word in lowered for word in thai):
        return True
    if any(word in tokens for word in thai_tokens):
        return True
    words = set(tokens)
    return any((" " in word and word in lowered) or word in words for word in english)


def _without(text: str, words: tuple[str, ...]) -> str:
    for word in words:
        text = text.replace(word, " ")
    return text


@lru_cache(maxsize=4096)
def _newmm(run: str) -> tuple[str, ...]:
    from pythainlp.tokenize import word_tokenize  # heavy import, paid once on first use

    return tuple(word_tokenize(run, engine="newmm", keep_whitespace=False))


@lru_cache(maxsize=1)
def _thai_stopwords() -> frozenset[str]:
    from pythainlp.corpus import thai_stopwords

    return frozenset(thai_stopwords())
