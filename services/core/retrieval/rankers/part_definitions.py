"""The definitions of the part of a law the answer lies in end the answer."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence

from ingest.graph import RelType
from services.core.ports import GraphStore
from services.core.retrieval.context import SearchContext
from services.core.retrieval.laws import keep_per_version, law_of
from services.core.retrieval.models import Candidate, Law, Step
from services.core.retrieval.select import last_in_answer
from services.core.retrieval.stage import Stage

# A part's definitions: a defining section whose text says its definitions hold in one
# chapter or part ("ในหมวดนี้", "ในส่วนนี้", "In this Chapter", "この章において"), as the
# Revenue Code's s.77/1 (VAT) and s.39 (income tax) do; not one whose definitions hold in
# the whole law ("ในพระราชบัญญัตินี้", PDPA s.6), which every answer would otherwise end in.
PART_SCOPE = re.compile(
    r"^\W*(?:ในหมวดนี้|ในส่วนนี้|in this (?:chapter|part|title|division)\b"
    r"|for the purposes of this (?:chapter|part|title|division)\b|この(?:章|節|款)において)",
    re.IGNORECASE,
)

# law version -> section -> ((term, defining section), ...), the part definitions only
PART_DEFINITIONS: dict[str, dict[str, tuple[tuple[str, str], ...]]] = {}


class PartDefinitions(Stage):
    """A tax ruling on VAT turns on what s.77/1 calls a "sale" or a "service", though the
    question never says "definition". Added as the answer's last section when at least
    `support` of the top `from_top` sections use terms one section of their law defines
    for a part of it (`PART_SCOPE`), and the answer does not already hold it. The path says
    which section's term led there: s.82/3 -[USES_TERM]-> ผู้ประกอบการ <-[DEFINES]- s.77/1.
    Reads the graph once per law version."""

    name = "part_definitions"
    optional = True

    def run(self, ctx: SearchContext) -> None:
        tuning = ctx.tuning.part_definitions
        top_k = ctx.query.top_k
        ranked = ctx.ranked
        sections = [c for c in ranked if c.kind == "section"]
        top = sections[: tuning.from_top]
        laws = {law_of(c.key): ctx.in_force.get(law_of(c.key)) for c in top}
        published = [law for law in laws.values() if law and law.version]
        definitions = part_definitions(ctx.graph, published)
        support: dict[str, list[tuple[Candidate, str]]] = defaultdict(list)
        for candidate in top:
            law = laws[law_of(candidate.key)]
            uses = definitions.get(law.law_version, {}) if law else {}
            for term, defining in uses.get(candidate.key, ()):
                support[defining].append((candidate, term))
        if not support:
            return
        # the most support, then the one the higher-ranked sections use
        order = {c.key: i for i, c in enumerate(top)}
        best = min(support, key=lambda k: (-len(support[k]), order[support[k][0][0].key], k))
        if len(support[best]) < tuning.support or best in {c.key for c in sections[:top_k]}:
            return
        user, term = support[best][0]
        candidate = next((c for c in ranked if c.key == best), None) or Candidate(best, "section")
        candidate.sources.add("graph")
        if not candidate.seed_source and not candidate.steps:
            candidate.steps = (
                Step(0, "", "out", user.key, user.key),
                Step(1, RelType.USES_TERM, "out", term, term),
                Step(2, RelType.DEFINES, "in", best, best),
            )
        candidate.follows = max(candidate.follows, user.score * ctx.tuning.walk.hop_decay**2)
        candidate.note(f"part_definitions: defines {term!r}, used by {len(support[best])} of top")
        ctx.ranked = last_in_answer(ranked, candidate, top_k)


def part_definitions(
    graph: GraphStore, laws: Sequence[Law]
) -> dict[str, dict[str, tuple[tuple[str, str], ...]]]:
    """law version -> section -> the (term, defining section) pairs of the part
    definitions its text uses, one term per defining section. Kept per law version (a
    content hash, so never stale): the first read of a law costs ~30-400 ms (36 laws
    loaded, the Revenue Code the most)."""

    def read(missing: list[Law]) -> dict[str, dict[str, tuple[tuple[str, str], ...]]]:
        rows = graph.run_read(
            "retrieval_part_definitions", laws=[[law.id, law.law_version] for law in missing]
        )
        uses: dict[str, dict[str, dict[str, str]]] = {
            law.law_version: defaultdict(dict) for law in missing
        }
        for row in rows:
            if str(row["law_version"]) not in uses or not PART_SCOPE.match(row["head"] or ""):
                continue
            terms = uses[str(row["law_version"])][str(row["section"])]
            defining, term = str(row["defines"]), str(row["term"])
            terms[defining] = min(term, terms.get(defining, term))
        return {
            lv: {
                section: tuple(sorted((t, d) for d, t in terms.items()))
                for section, terms in by_section.items()
            }
            for lv, by_section in uses.items()
        }

    keep_per_version(PART_DEFINITIONS, laws, read)
    return {law.law_version: PART_DEFINITIONS[law.law_version] for law in laws}
