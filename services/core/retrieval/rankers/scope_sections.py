"""A question whether a law reaches someone at all ("does the privacy law even apply to our
news site?") is answered by the law's own scope sections: those among its first sections
that say what it applies to and what it does not (PDPA s.4 and s.5, GDPR Arts. 2 and 3, the
Singapore Act's s.4). Read from the statutes' words, not listed by hand."""

from __future__ import annotations

import re
from collections.abc import Sequence

from services.core.ports import GraphStore
from services.core.retrieval.context import SearchContext
from services.core.retrieval.laws import keep_per_version, law_of
from services.core.retrieval.models import Candidate, Law
from services.core.retrieval.select import last_in_answer
from services.core.retrieval.stage import Stage

# How a scope section opens: "พระราชบัญญัตินี้(ไม่)ใช้บังคับแก่…" (this Act applies / does not
# apply to), "This Regulation applies to…", "Parts 3 to 6 do not impose any obligation on…".
# A commencement section ("ให้ใช้บังคับตั้งแต่…", in force from) is none.
SCOPE_OPENING = re.compile(
    r"^\W*(?:\d+\.?\s*)?(?:[—-]\s*)?(?:\(\d+\)\s*)?"
    r"(?:(?:พระราชบัญญัตินี้|พระราชกำหนดนี้|ประมวลกฎหมายนี้|กฎหมายนี้)\s*(?:ให้)?\s*(?:ไม่)?ใช้บังคับแก่"
    r"|this (?:act|regulation|law|code)\s+(?:shall\s+|does\s+not\s+|shall\s+not\s+)?appl(?:y|ies)\s+to"
    r"|parts?\b[^.;]{0,60}?\bdo(?:es)?\s+not\s+impose\s+any\s+obligation)",
    re.IGNORECASE,
)

# law version -> its scope sections, in the law's order
SCOPE_SECTIONS: dict[str, tuple[str, ...]] = {}


class ScopeSections(Stage):
    """When the intent model gives `scope` at least `ScopeTuning.threshold`, the answer's
    first law's scope section ends the answer, unless one of them is in it already: of
    several (the PDPA's exclusions in s.4, its territorial reach in s.5), the one the vector
    search scored highest, else the first. Reads the graph once per law version."""

    name = "scope_sections"
    optional = True

    def run(self, ctx: SearchContext) -> None:
        if ctx.intent_probabilities.get("scope", 0.0) < ctx.tuning.scope.threshold:
            return
        top_k = ctx.query.top_k
        sections = [c for c in ctx.ranked if c.kind == "section"]
        law = ctx.in_force.get(law_of(sections[0].key)) if sections else None
        if law is None or not law.version:
            return
        found = scope_sections(ctx.graph, [law], ctx.tuning.scope.first).get(law.law_version, ())
        answer = {c.key for c in sections[:top_k]}
        if not found or answer & set(found):
            return
        best = max(found, key=lambda key: (ctx.deep_scores.get(key, 0.0), -found.index(key)))
        candidate = next((c for c in ctx.ranked if c.key == best), None) or Candidate(
            best, "section"
        )
        candidate.sources.add("graph")
        candidate.note("scope_sections: the question asks whether its law applies")
        ctx.ranked = last_in_answer(ctx.ranked, candidate, top_k)


def scope_sections(
    graph: GraphStore, laws: Sequence[Law], first: int
) -> dict[str, tuple[str, ...]]:
    """law version -> the keys of its scope sections among its `first` sections."""

    def read(missing: list[Law]) -> dict[str, tuple[str, ...]]:
        rows = graph.run_read(
            "retrieval_scope_sections", versions=[law.law_version for law in missing], first=first
        )
        found: dict[str, list[tuple[int, str]]] = {law.law_version: [] for law in missing}
        for row in rows:
            if SCOPE_OPENING.match(str(row["head"] or "")):
                found[str(row["law_version"])].append((int(row["order"]), str(row["section"])))
        return {lv: tuple(key for _, key in sorted(keys)) for lv, keys in found.items()}

    keep_per_version(SCOPE_SECTIONS, laws, read)
    return {law.law_version: SCOPE_SECTIONS[law.law_version] for law in laws}
