"""Which laws a search covers: the published catalogue, the caller's scope, the laws a
question names, and how much of the vector evidence each law holds.

Published versions are read on every request (never cached: publishing flips them, and a
half-ingested law must stay invisible). A published version's names never change, so they
are kept per law version.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TypeVar

from services.core.analysis import qualifying_places
from services.core.errors import InvalidQuery, NotFound
from services.core.ports import GraphStore, VectorHit
from services.core.retrieval.models import Law

# What retrieval keeps per law version (its names here, its part definitions in
# rankers.part_definitions): versions are content hashes, so an entry is never stale; a
# cache past this many law versions starts over.
VERSION_CACHE_MAX = 20_000
_T = TypeVar("_T")


@dataclass(frozen=True)
class LawNames:
    """What a question may call a law: its names, lower-cased."""

    names: tuple[str, ...] = ()


# law version -> its names
LAW_NAMES: dict[str, LawNames] = {}


def read_catalogue(graph: GraphStore) -> dict[str, Law]:
    catalogue: dict[str, Law] = {}
    for row in graph.run_read("retrieval_laws"):
        for (
            law_id, version, pending, language, not_before, valid_to, disapplies,
            expressions, expression_from, jurisdiction,
        ) in row.get("laws") or []:  # fmt: skip
            kept = tuple(zip(expressions or (), expression_from or (), strict=True))
            if version not in {v for v, _ in kept}:
                kept = ()  # published by hand (a Cypher export): that version alone
            if law_id:
                catalogue[law_id] = Law(
                    law_id,
                    version,
                    pending,
                    language or "",
                    not_before or "",
                    valid_to or "",
                    bool(disapplies),
                    kept,
                    jurisdiction or "",
                )
    return catalogue


def as_of_day(value: str | date | None) -> str:
    """An `as_of` value as an ISO day: today when None or ""; a clear error otherwise."""
    if value is None or value == "":
        return date.today().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    try:
        return date.fromisoformat(str(value).strip()).isoformat()
    except ValueError:
        raise InvalidQuery(
            "as_of", f"must be a date as YYYY-MM-DD, got {str(value)[:40]!r}"
        ) from None


def in_force(catalogue: Mapping[str, Law], day: str) -> dict[str, Law]:
    """The published laws in force on `day` (ISO date), each as it read that day."""
    return {law_id: law.on(day) for law_id, law in catalogue.items() if law.in_force_on(day)}


def published_law_versions(graph: GraphStore) -> dict[str, str]:
    """law id -> published version, read fresh (never cached: publishing flips it)."""
    return {law.id: law.version for law in read_catalogue(graph).values() if law.version}


def caller_scope(
    catalogue: Mapping[str, Law],
    laws: Sequence[str] | None,
    jurisdictions: Sequence[str] | None = None,
) -> list[str] | None:
    """The published laws a caller restricted the search to: the laws it named, those of
    the jurisdictions it named ("TH", "EU"), or, given both, the named laws of those
    jurisdictions. An unknown law, a jurisdiction with no published law, or nothing left is
    a 404."""
    if not laws and not jurisdictions:
        return None
    every_published = [law for law in catalogue.values() if law.version]
    published = every_published
    if laws:
        unknown = [law for law in laws if law not in catalogue or not catalogue[law].version]
        if unknown:
            raise NotFound(f"unknown law: {', '.join(unknown[:5])}")
        published = [catalogue[law] for law in dict.fromkeys(laws)]
    if jurisdictions:
        held = {law.jurisdiction for law in every_published}
        missing = [code for code in jurisdictions if code not in held]
        if missing:
            raise NotFound(f"no published law of jurisdiction: {', '.join(missing[:5])}")
        published = [law for law in published if law.jurisdiction in jurisdictions]
        if not published:
            raise NotFound(
                f"none of the laws asked for is of jurisdiction {', '.join(jurisdictions)}"
            )
    return [law.id for law in published]


def visible_laws(catalogue: Mapping[str, Law], scope: list[str] | None) -> list[Law]:
    """The published laws searched: the caller's scope, else every published law."""
    return [law for law in catalogue.values() if law.version and (not scope or law.id in scope)]


def keep_per_version(
    cache: dict[str, _T], laws: Sequence[Law], read: Callable[[list[Law]], dict[str, _T]]
) -> None:
    """Add to `cache` (law version -> what `read` found) the laws it lacks, in one read."""
    missing = [law for law in laws if law.law_version not in cache]
    if missing:
        if len(cache) > VERSION_CACHE_MAX:
            cache.clear()
        cache.update(read(missing))


def law_names(graph: GraphStore, laws: Sequence[Law]) -> dict[str, LawNames]:
    """The names a question may use for each law, lower-cased (on 429 laws the query costs
    10-40 ms, hence the cache)."""

    def read(missing: list[Law]) -> dict[str, LawNames]:
        by_id = {law.id: law for law in missing}
        names: dict[str, LawNames] = {}
        for row in graph.run_read("retrieval_law_names", laws=list(by_id)):
            found = [row.get("short_name"), row.get("title"), *(row.get("aliases") or [])]
            names[by_id[str(row["law"])].law_version] = LawNames(
                tuple(n.lower() for n in found if isinstance(n, str) and len(n) >= 3)
            )
        return names

    keep_per_version(LAW_NAMES, laws, read)
    return {law.id: LAW_NAMES.get(law.law_version, LawNames()) for law in laws}


def named_laws(
    names: Mapping[str, LawNames],
    normalised_question: str,
    places: Sequence[str] = (),
    jurisdictions: Mapping[str, str] | None = None,
) -> list[str]:
    """The laws the question names by title, short name or alias, in `names`' order. A
    name several laws share ("PDPA": Thailand's and Singapore's) means those of them whose
    jurisdiction (`jurisdictions`, law -> "TH") qualifies the name ("the Thai PDPA", "the
    PDPA of Singapore"), else those whose jurisdiction the question names elsewhere, else
    all of them: "Does the Thai PDPA apply to a Singapore company?" names Thailand's."""
    jurisdictions = jurisdictions or {}
    text = normalised_question.lower()
    sharing: dict[str, list[str]] = defaultdict(list)
    for law, known in names.items():
        for name in known.names:
            if name in text:
                sharing[name].append(law)
    named: set[str] = set()
    for name, found in sharing.items():
        if len(found) == 1:
            named.update(found)
            continue
        qualifying = {
            code
            for match in re.finditer(re.escape(name), text)
            for code in qualifying_places(text, match.start(), match.end())
        }
        qualified = [law for law in found if jurisdictions.get(law, "") in qualifying]
        placed = [law for law in found if jurisdictions.get(law, "") in places]
        named.update(qualified or placed or found)
    return [law for law in names if law in named]


def law_focus(
    scores: Mapping[str, float], named: Sequence[str] = (), *, floor: float = 0.25
) -> dict[str, float]:
    """law -> a weight from `floor` to 1: a question is about one law more than others, and
    the law most of the vector evidence lands in is that law (NitiBench-Tax: the Revenue
    Code ahead of the sections of other laws that share its words), unless the question
    names its laws: they weigh 1."""
    mass: dict[str, float] = defaultdict(float)
    for key, score in scores.items():
        mass[law_of(key)] += score
    top = max(mass.values(), default=1.0) or 1.0
    focus = {law: floor + (1.0 - floor) * m / top for law, m in mass.items()}
    return defaultdict(lambda: floor, focus | dict.fromkeys(named, 1.0))


def routed_focus(
    probabilities: Mapping[str, float], named: Sequence[str] = (), *, floor: float = 0.25
) -> dict[str, float]:
    """law -> a weight from `floor` to 1 by the law's routing probability over the most
    probable law's; the laws the question names weigh 1."""
    top = max(probabilities.values(), default=1.0) or 1.0
    focus = {law: floor + (1.0 - floor) * p / top for law, p in probabilities.items()}
    return defaultdict(lambda: floor, focus | dict.fromkeys(named, 1.0))


def citation_laws(
    visible: list[str], named: list[str], hits: Mapping[str, list[VectorHit]]
) -> tuple[list[str], bool]:
    """Which laws "มาตรา ๒๖" means, and whether that is certain: the caller's filter or
    the only law loaded, a law the question names, else (a guess) the laws the vector
    search landed in (a bare section number is ambiguous across laws)."""
    if len(visible) <= 1:
        return visible, True
    if named:
        return named, True
    searched = set(visible)
    landed: list[str] = []
    for found in hits.values():
        for hit in found:
            law = str(hit.payload.get("law", ""))
            if law in searched and law not in landed:
                landed.append(law)
    return landed[:2], False


def law_of(key: str) -> str:
    return key.split(":", 1)[0]
