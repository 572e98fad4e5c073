"""Question analysis: explicit citations, Thai-aware tokens, keywords and intent flags.

Deterministic and offline. Citations are read with the statutes' own rules
(`ingest.xrefs`); intents and asking parts from the words of `data/lexicon/intents.json`;
the glossaries (`data/glossary/`) bring the terms statutes use for a question's words: for
English words (`en-th.json`), so an English question's sparse vectors match Thai text, and
for everyday Thai words (`th-th.json`), each only when a law in its language is searched.
The optional LLM keyword step (`services.core.llm.LLMKeywords`, passed in) only ever adds
keywords; when it is off or fails, the result is exactly the deterministic one.
"""

from __future__ import annotations

import json
import logging
import re
import unicodedata
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ingest import ids, xrefs
from services.core.settings import REPO_ROOT

log = logging.getLogger(__name__)


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*[A-Za-z]|[A-Za-z]")
_THAI_RUN = re.compile(r"[\u0E00-\u0E7F]+")
_THAI_LETTER = re.compile(r"[\u0E01-\u0E2E]")
_LATIN_LETTER = re.compile(r"[a-z]")
_JAPANESE_LETTER = re.compile(r"[\u3040-\u30FF\u4E00-\u9FFF]")  # kana and kanji

# Where intents and asking parts are read from (data/lexicon/intents.json).
LEXICON = REPO_ROOT / "data" / "lexicon" / "intents.json"
GLOSSARIES = REPO_ROOT / "data" / "glossary"
JURISDICTIONS = REPO_ROOT / "data" / "routing" / "jurisdictions.json"
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
    language: str = "th"  # the script most of its letters are in: "th", "en" or "ja"
    glossary_terms: tuple[str, ...] = field(default=())  # statutory terms for its words
    # the statutory terms for its words in another language (`Glossary.bridges`)
    bridge_terms: tuple[str, ...] = field(default=())
    asking: str | None = None  # what a long fact pattern asks (`asking_part`)
    llm_keywords: tuple[str, ...] = field(default=())
    # the jurisdictions it names ("a Bangkok clinic", "under Thai law" -> "TH"): routing's
    # evidence, and what tells apart laws that share a name
    places: tuple[str, ...] = field(default=())

    @property
    def intents(self) -> tuple[str, ...]:
        flags = (
            ("penalty", self.penalty),
            ("exception", self.exception),
            ("definition", self.definition),
        )
        return tuple(name for name, on in flags if on)


@dataclass(frozen=True)
class Rewrite:
    """What the optional LLM step read from a question (services/core/llm.py): statutory
    keywords to search with, and the intents it asks about (penalty, exception, definition)."""

    keywords: tuple[str, ...] = ()
    intents: tuple[str, ...] = ()


# question -> extra keywords, or a whole `Rewrite` (the LLM step's)
KeywordSource = Callable[[str], Sequence[str] | Rewrite]


def analyse_question(
    question: str,
    *,
    statute_languages: Collection[str] | None = None,
    keywords: KeywordSource | None = None,
) -> QuestionAnalysis:
    """Read citations, tokens, keywords and intents from a question, deterministically.

    `statute_languages`: the languages of the laws searched; a glossary is applied only
    when a law in its language is (None: every glossary). `keywords`: the optional LLM
    step (`LLMKeywords`), whose words and intents are only ever added."""
    cleaned = clean_text(question)
    normalised = ids.thai_to_arabic_digits(cleaned)
    citations = extract_section_citations(normalised)
    tokens = tokenize(normalised)
    own = _keywords(tokenize(_strip_citations(normalised)) if citations else tokens)
    lowered = normalised.lower()
    rewrite = Rewrite()
    if keywords is not None:
        found = keywords(cleaned)
        rewrite = found if isinstance(found, Rewrite) else Rewrite(tuple(found))
    extra = tuple(k for k in rewrite.keywords if k not in own)
    words = _lexicon()["intents"]
    # what it asks: a long question's asking part, not its facts (a leak's story holds
    # penalty words whatever it asks; docs/quality.md, "intents read from the asking part")
    asking = asking_part(cleaned)
    asked_normalised = ids.thai_to_arabic_digits(asking) if asking else normalised
    asked = asked_normalised.lower()
    asked_tokens = tokenize(asked_normalised) if asking else tokens
    penalty = _has_intent(
        _without(asked, words["penalty"]["th_not"]), asked_tokens, words["penalty"]
    )
    exception = _has_intent(asked, asked_tokens, words["exception"])
    definition = _has_intent(asked, asked_tokens, words["definition"]) or (
        not (penalty or exception)
        and _has_intent(asked, asked_tokens, words["definition"], weak=True)
    )
    penalty = penalty or "penalty" in rewrite.intents
    exception = exception or "exception" in rewrite.intents
    definition = definition or "definition" in rewrite.intents
    return QuestionAnalysis(
        question=cleaned,
        normalised=normalised,
        citations=citations,
        tokens=tokens,
        keywords=own,
        penalty=penalty,
        exception=exception,
        definition=definition,
        language=question_language(lowered),
        glossary_terms=glossary_terms(lowered, statute_languages, bridging=False),
        bridge_terms=glossary_terms(lowered, statute_languages, bridging=True),
        asking=asking,
        llm_keywords=extra,
        places=named_places(lowered),
    )


def question_language(text: str) -> str:
    """The language most of a question's letters are written in: "th", "en" or "ja" (the
    languages of the laws' `language`)."""
    counts = {
        "th": len(_THAI_LETTER.findall(text)),
        "en": len(_LATIN_LETTER.findall(text.lower())),
        "ja": len(_JAPANESE_LETTER.findall(text)),
    }
    return max(counts, key=lambda language: counts[language])


def asking_part(question: str) -> str | None:
    """What a long question asks, after its facts: from the last Thai asking phrase
    ("อยากทราบว่า…") to the end, or, without one, its sentences that end in "?". None for a
    question under the lexicon's `min_chars` or one with neither."""
    asking = _lexicon()["asking"]
    if len(question) < asking["min_chars"]:
        return None
    start = max(question.rfind(phrase) for phrase in asking["th"])
    if start >= 0:
        return question[start:]
    asked = [s for s in _SENTENCE_END.split(question) if s.endswith("?")]
    return " ".join(asked) or None


@dataclass(frozen=True)
class Glossary:
    """Statutory terms for a question's words (`data/glossary/*.json`): the questions it
    reads ("en" or "th") and the language of the laws whose wording it gives (`scope`)."""

    name: str
    reads: str
    statute_language: str
    entries: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...]

    @property
    def bridges(self) -> bool:
        """Its terms are in another language than the questions it reads."""
        return self.reads != self.statute_language


def glossary_terms(
    lowered: str, statute_languages: Collection[str] | None = None, *, bridging: bool = False
) -> tuple[str, ...]:
    """The statutory terms for the words of a lower-cased question, in the order they
    occur, each once. An English question gets them for its English words ("personal
    data" -> ข้อมูลส่วนบุคคล, `en-th.json`); a Thai question for its everyday Thai words
    ("ข้อมูลส่วนตัว" -> ข้อมูลส่วนบุคคล, `th-th.json`), less the terms it already uses. Only
    the glossaries of the languages of the laws searched apply (None: all). The English
    words a Thai question quotes ("VAT", "ROPA") are not bridged: they only added noise
    (NitiBench-Tax bm25 HR 0.78 -> 0.76 when they were). `bridging`: the terms of the
    glossaries into another language (en -> th), else those of the question's own."""
    english = question_language(lowered) == "en"
    found: list[tuple[int, str]] = []
    for glossary in glossaries():
        if glossary.reads != ("en" if english else "th") or glossary.bridges != bridging:
            continue
        if statute_languages is not None and glossary.statute_language not in statute_languages:
            continue
        for pattern, terms in glossary.entries:
            found.extend((m.start(), term) for m in pattern.finditer(lowered) for term in terms)
    ordered = dict.fromkeys(term for _, term in sorted(found))
    return tuple(term for term in ordered if english or term not in lowered)


@lru_cache(maxsize=1)
def glossaries() -> tuple[Glossary, ...]:
    """Every glossary file. English keys match as whole words, plurals too ("criminal
    record" in "criminal records"); Thai keys, written without spaces, as substrings."""
    found = []
    for path in sorted(GLOSSARIES.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        reads = str(data["reads"])
        bound = (r"(?<![a-z0-9-])", r"(?:e?s)?(?![a-z0-9-])") if reads == "en" else ("", "")
        entries = tuple(
            (re.compile(bound[0] + re.escape(key) + bound[1]), tuple(thai))
            for key, thai in data["terms"].items()
        )
        found.append(Glossary(path.stem, reads, str(data["scope"]["language"]), entries))
    return tuple(found)


def named_places(lowered: str) -> tuple[str, ...]:
    """The jurisdiction codes a lower-cased question names, by the words of
    `data/routing/jurisdictions.json` (its place, people, capital or currency, and the names
    of its provinces or member states)."""
    return tuple(code for code, pattern in _place_patterns().items() if pattern.search(lowered))


def qualifying_places(lowered: str, start: int, end: int) -> tuple[str, ...]:
    """The jurisdiction codes whose place words qualify the name at `lowered[start:end]`:
    written right before it ("the thai pdpa", "singapore's pdpa") or right after it ("pdpa
    of thailand", "pdpa (singapore)", "…ของไทย"). A place named elsewhere in the question
    ("a Singapore company") does not qualify the name."""
    before, after = lowered[max(0, start - 40) : start], lowered[end : end + 40]
    return tuple(
        code
        for code, (ends_before, starts_after) in _qualifier_patterns().items()
        if ends_before.search(before) or starts_after.match(after)
    )


@lru_cache(maxsize=1)
def _qualifier_patterns() -> dict[str, tuple[re.Pattern[str], re.Pattern[str]]]:
    """Per jurisdiction, its place words ending the text before a name ("thai", "singapore's")
    and opening the text after it ("of thailand", "(singapore)", "ของไทย")."""
    return {
        code: (
            re.compile(rf"(?:{place.pattern})(?:['’]s)?\s*$"),
            re.compile(rf"\s*(?:of|in|ของ|แห่ง|\()\s*(?:the\s+)?(?:{place.pattern})"),
        )
        for code, place in _place_patterns().items()
    }


@lru_cache(maxsize=1)
def _place_patterns() -> dict[str, re.Pattern[str]]:
    """One pattern per jurisdiction. Latin-script words match whole ("eu" is not in
    "neutral"; a sign such as "s$" may run into its amount); Thai and Japanese words,
    written without spaces, as substrings."""
    data = json.loads(JURISDICTIONS.read_text(encoding="utf-8"))
    iso_places = data.get("iso_places", {})
    patterns = {}
    for code, words in data["jurisdictions"].items():
        alternatives = []
        for word in (str(w).lower() for w in [*words, *iso_places.get(code, ())]):
            if not _LATIN_LETTER.search(word):
                alternatives.append(re.escape(word))
                continue
            end = r"(?![a-z0-9])" if word[-1].isalnum() else ""
            alternatives.append(rf"(?<![a-z0-9]){re.escape(word)}{end}")
        patterns[str(code)] = re.compile("|".join(alternatives))
    return patterns


@lru_cache(maxsize=1)
def _lexicon() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(LEXICON.read_text(encoding="utf-8"))
    return data


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
    lowered: str, tokens: tuple[str, ...], words: Mapping[str, Any], *, weak: bool = False
) -> bool:
    """Whether the question holds one of an intent's words (`data/lexicon/intents.json`):
    Thai ones as substrings, `th_tokens` as whole tokens, English ones as whole words or,
    with a space, as phrases; `weak`: the weak forms (`weak_th`, `weak_en`) instead."""
    thai, english = (
        words.get("weak_th" if weak else "th", ()),
        words.get("weak_en" if weak else "en", ()),
    )
    if any(word in lowered for word in thai):
        return True
    if not weak and any(word in tokens for word in words.get("th_tokens", ())):
        return True
    found = set(tokens)
    return any((" " in word and word in lowered) or word in found for word in english)


def without_intent_words(text: str, intent: str) -> str:
    """`text` with the words that flag `intent` taken out (`data/lexicon/intents.json`): a
    penalty question without "fine", "โทษ"... is the conduct it describes. Thai words go as
    substrings, except inside the intent's `th_not` words ("รับผิดชอบ" keeps its "ผิด"); a
    `th_tokens` word alone ("ปรับ") stays, as it may be part of another word; English words
    and phrases go whole, in any case."""
    words = _lexicon()["intents"].get(intent, {})
    kept = [str(w) for w in words.get("th_not", ())]
    parts = re.split("(" + "|".join(map(re.escape, kept)) + ")", text) if kept else [text]
    thai = sorted(words.get("th", ()), key=len, reverse=True)
    out = [part if part in kept else _without(part, thai) for part in parts]
    english = sorted(words.get("en", ()), key=len, reverse=True)
    if english:
        either = "|".join(re.escape(w) for w in english)
        out = [re.sub(rf"(?i)(?<![a-z0-9])(?:{either})(?![a-z0-9])", " ", p) for p in out]
    return " ".join("".join(out).split())


def _without(text: str, words: Sequence[str]) -> str:
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
