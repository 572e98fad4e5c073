"""Which articles an EU act's recital explains, read from the act's own wording.

A recital says in plainer words what the articles do and why ("Children merit specific
protection…", recital 38; "a personal data breach may… result in physical, material or
non-material damage", recital 85). A question worded as a client would word it often
shares more with a recital than with the article, so a recital is a bridge to the
articles it explains (services/core/retrieval/vectors.py `hit_keys`).

Recitals do not cite the articles they explain, so the link is by wording: each recital
is a BM25 query over its act's articles, and EXPLAINS goes to the best `EXPLAINED_SECTIONS`
of them. It is a reading aid, not a citation: the edge carries its rank, and the walk does
not follow it. Measured in docs/quality.md ("recitals as a bridge").
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from ingest.models import Recital, Section

# Two: a recital often explains a duty and its exception, or a right and the article that
# limits it. Chosen on the GDPR sets' tuning parts: the best 2 by BM25 answered 3 questions
# more, the best 3 two more (docs/quality.md).
EXPLAINED_SECTIONS = 2
_BM25_K1 = 1.2
_BM25_B = 0.75
_WORD = re.compile(r"[^\W_]+")
_STOPWORDS = frozenset(
    "a an and are as at be but by can do does for from has have how if in into is it its "
    "of on or shall should such that the their there these this those to was were what "
    "when which who will with".split()
)


def explained_sections(
    recitals: Sequence[Recital], sections: Sequence[Section], *, top: int = EXPLAINED_SECTIONS
) -> dict[str, list[tuple[str, float]]]:
    """recital number -> [(section key, BM25 score)], best first, at most `top`; a
    recital that shares no word with any section explains none."""
    live = [s for s in sections if not s.repealed and s.text.strip()]
    if not live:
        return {}
    documents = [Counter(_terms(f"{s.title}\n{s.text}")) for s in live]
    lengths = [sum(d.values()) for d in documents]
    average = sum(lengths) / len(lengths) or 1.0
    frequency = Counter(term for d in documents for term in d)
    idf = {
        term: math.log(1.0 + (len(live) - n + 0.5) / (n + 0.5)) for term, n in frequency.items()
    }
    out: dict[str, list[tuple[str, float]]] = {}
    for recital in recitals:
        query = set(_terms(recital.text)) & idf.keys()
        scored = []
        for section, terms, length in zip(live, documents, lengths, strict=True):
            norm = _BM25_K1 * (1.0 - _BM25_B + _BM25_B * length / average)
            score = sum(
                idf[t] * terms[t] * (_BM25_K1 + 1.0) / (terms[t] + norm)
                for t in query
                if t in terms
            )
            if score > 0.0:
                scored.append((section.key, score))
        scored.sort(key=lambda item: (-item[1], item[0]))
        out[recital.number] = [(key, round(score, 3)) for key, score in scored[:top]]
    return out


def _terms(text: str) -> list[str]:
    return [
        w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS and not w.isdigit()
    ]
