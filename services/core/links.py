"""Citations between laws, kept right whichever law is ingested when.

A citation of law B from law A can only be resolved when B is known: its names (title,
short name, aliases) let the citation parser find where a cited law's name ends, and its
section order expands ranges. So the resolution depends on which laws are stored, and it
is redone whenever that changes:

- every published version keeps its parsed law on a `LawSource` node (publish.py);
- `stored_laws` reads them back (cached per process by law and version);
- `relink(graph, touched)` rebuilds the graph of each touched law and of every stored law
  whose text names a touched law, against all stored laws (in law-id order, so the result
  does not depend on the order laws arrived in), and replaces each one's cross-law
  relationships with the rebuilt ones (`ingest.export.cross_law_statements`: targets are
  matched in their law's published version only, so the graph never holds a citation of
  an unpublished version);
- `relink` also moves the CITES edges of a firm's passages (services/core/documents.py)
  to the published version of each touched law;
- `check(graph, laws)` compares the cross-law relationships in the graph with a fresh
  resolution of the same stored laws and reports every difference.

A law stored before LawSource nodes existed has no stored source: it is reported by
`check` (`unchecked`) and is linked again once it is re-ingested.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ingest.build import build_graph
from ingest.corpus import CorpusIndex, law_name_aliases, normalise_law_name
from ingest.export import CROSS_LAW_TYPES, cross_law_statements
from ingest.graph import LawGraph, RelType
from ingest.models import Law
from ingest.serial import FORMAT, law_from_text
from services.core.ports import GraphStore

log = logging.getLogger(__name__)

# Decoded laws kept per process; the 36 NitiBench laws decode in ~1.2 s, so a worker that
# relinks after every law reads each stored law once per version, not once per law.
_CACHE_MAX = 2048


@dataclass(frozen=True)
class StoredLaw:
    law: Law
    version: str


@dataclass(frozen=True)
class CrossLink:
    type: str
    source: str  # node key
    source_law: str
    target: str  # section key
    target_law: str


@dataclass
class RelinkReport:
    laws: list[str] = field(default_factory=list)  # laws whose cross-law edges were rewritten
    edges: int = 0  # cross-law relationships (and CITES_EXTERNAL) those laws now have
    seconds: float = 0.0


@dataclass
class CheckReport:
    """Cross-law citations in the graph against a fresh resolution of the stored laws."""

    laws: list[str]  # the laws checked
    expected: dict[str, int]  # relationship type -> count, fresh resolution
    found: dict[str, int]  # relationship type -> count, in the graph (published versions)
    missing: list[CrossLink] = field(default_factory=list)
    extra: list[CrossLink] = field(default_factory=list)
    unpublished_targets: int = 0  # edges from a published version to an unpublished one
    unchecked: list[str] = field(default_factory=list)  # published laws without a source

    @property
    def ok(self) -> bool:
        return not self.missing and not self.extra and not self.unpublished_targets

    def as_dict(self, *, examples: int = 10) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "laws": len(self.laws),
            "expected": dict(sorted(self.expected.items())),
            "found": dict(sorted(self.found.items())),
            "missing": len(self.missing),
            "extra": len(self.extra),
            "unpublished_targets": self.unpublished_targets,
            "unchecked": list(self.unchecked),
            "missing_examples": [_link_dict(x) for x in self.missing[:examples]],
            "extra_examples": [_link_dict(x) for x in self.extra[:examples]],
        }


# --- public API --------------------------------------------------------------------------


def stored_laws(graph: GraphStore) -> dict[str, StoredLaw]:
    """law id -> the parsed law of its published version, for every published law whose
    source is stored in a format this code reads."""
    rows = graph.run_read("law_sources")
    wanted = {
        r["law"]: r["version"]
        for r in rows
        if r.get("source_version") == r["version"] and r.get("format") == FORMAT
    }
    missing = sorted(law_id for law_id, v in wanted.items() if (law_id, v) not in _cache)
    if missing:
        for row in graph.run_read("law_source_models", laws=missing):
            if row.get("format") == FORMAT and row.get("model"):
                _remember(row["law"], row["version"], law_from_text(row["model"]))
    with _lock:
        return {
            law_id: StoredLaw(_cache[(law_id, v)], v)
            for law_id, v in sorted(wanted.items())
            if (law_id, v) in _cache
        }


def unsourced_laws(graph: GraphStore) -> list[str]:
    """Published laws without a readable stored source (stored before LawSource nodes)."""
    return [
        r["law"]
        for r in graph.run_read("law_sources")
        if r.get("source_version") != r["version"] or r.get("format") != FORMAT
    ]


def corpus_of(laws: Iterable[Law]) -> CorpusIndex:
    """The corpus index citations resolve against, in law-id order: a name two laws share
    goes to the same law however the laws arrived."""
    return CorpusIndex.from_laws(sorted(laws, key=lambda law: law.id))


def build_corpus(laws: Collection[Law], graph: GraphStore) -> CorpusIndex:
    """The corpus a run builds its laws against: `laws` and every stored law (a law of the
    run replaces its stored version)."""
    ids = {law.id for law in laws}
    stored = [item.law for law_id, item in stored_laws(graph).items() if law_id not in ids]
    return corpus_of([*stored, *laws])


def citing_laws(stored: Mapping[str, StoredLaw], named: Collection[Law]) -> set[str]:
    """Stored laws (other than `named`) whose text contains a name of a law in `named`:
    the only ones whose citations a change of `named` can change."""
    names = {normalise_law_name(a) for law in named for a in law_name_aliases(law)}
    names.discard("")
    own = {law.id for law in named}
    return {
        law_id
        for law_id, item in stored.items()
        if law_id not in own and any(n in _normalised_text(item) for n in names)
    }


def relink(graph: GraphStore, touched: Collection[str]) -> RelinkReport:
    """Resolve again the citations from and into `touched` laws (those published) and
    replace the cross-law relationships of every law concerned."""
    started = time.perf_counter()
    stored = stored_laws(graph)
    corpus = _stored_corpus(stored)
    present = [stored[law_id].law for law_id in touched if law_id in stored]
    concerned = {law.id for law in present} | citing_laws(stored, present)
    owner = _section_owner(corpus)
    report = RelinkReport()
    for law_id in sorted(concerned):
        item = stored[law_id]
        built = build_graph(item.law, corpus)
        graph.execute(cross_law_statements(built, item.version))
        report.laws.append(law_id)
        report.edges += len(_cross_links(built, owner))
    if present:
        # A firm's passages cite sections too (services/core/documents.py): their CITES
        # edges follow each law to its published version.
        graph.run_write("document_relink", laws=sorted(law.id for law in present))
    report.seconds = time.perf_counter() - started
    log.info(
        "relinked %d laws (%d cross-law relationships) for %s in %.2f s",
        len(report.laws),
        report.edges,
        ", ".join(sorted(touched)) or "-",
        report.seconds,
    )
    return report


def check(graph: GraphStore, laws: Collection[str] | None = None) -> CheckReport:
    """Cross-law relationships touching `laws` (every published law when None) in the graph
    against a fresh resolution of the stored laws; a clean check has no difference."""
    stored = stored_laws(graph)
    corpus = _stored_corpus(stored)
    scope = set(stored) if laws is None else {x for x in laws if x in stored}
    sources = scope | citing_laws(stored, [stored[x].law for x in scope])
    owner = _section_owner(corpus)
    expected: set[CrossLink] = set()
    for law_id in sorted(sources):
        for link in _cross_links(build_graph(stored[law_id].law, corpus), owner):
            if link.source_law in scope or link.target_law in scope:
                expected.add(link)
    published = {law_id: item.version for law_id, item in stored.items()}
    published.update({r["law"]: r["version"] for r in graph.run_read("published_laws")})
    found: set[CrossLink] = set()
    unpublished = 0
    rows = graph.run_read("cross_law_edges", laws=None if laws is None else sorted(scope))
    for row in rows:
        if published.get(row["source_law"]) != row["source_version"]:
            continue  # pending, stale (removed by its law's next run) or an earlier expression
        if published.get(row["target_law"]) != row["target_version"]:
            unpublished += 1
            continue
        link = CrossLink(
            row["type"], row["source"], row["source_law"], row["target"], row["target_law"]
        )
        if link.source_law in scope or link.target_law in scope:
            found.add(link)
    return CheckReport(
        laws=sorted(scope),
        expected=dict(Counter(x.type for x in expected)),
        found=dict(Counter(x.type for x in found)),
        missing=sorted(expected - found, key=_link_order),
        extra=sorted(found - expected, key=_link_order),
        unpublished_targets=unpublished,
        unchecked=unsourced_laws(graph) if laws is None else [],
    )


def cross_law_counts(graph: GraphStore) -> dict[str, int]:
    """Relationship type -> cross-law relationships between published versions."""
    published = {r["law"]: r["version"] for r in graph.run_read("published_laws")}
    counts: dict[str, int] = defaultdict(int)
    for row in graph.run_read("cross_law_edges", laws=None):
        if (
            published.get(row["source_law"]) == row["source_version"]
            and published.get(row["target_law"]) == row["target_version"]
        ):
            counts[row["type"]] += 1
    return dict(sorted(counts.items()))


# --- helpers -----------------------------------------------------------------------------

_cache: dict[tuple[str, str], Law] = {}
_text_cache: dict[tuple[str, str], str] = {}
_lock = threading.Lock()


_corpus_cache: dict[tuple[tuple[str, str], ...], CorpusIndex] = {}


def _stored_corpus(stored: Mapping[str, StoredLaw]) -> CorpusIndex:
    """`corpus_of` the stored laws, kept while the same versions are stored (a job's laws
    relink one after another against a corpus that changes by one law each time)."""
    key = tuple(sorted((law_id, item.version) for law_id, item in stored.items()))
    with _lock:
        corpus = _corpus_cache.get(key)
    if corpus is None:
        corpus = corpus_of(item.law for item in stored.values())
        with _lock:
            _corpus_cache.clear()
            _corpus_cache[key] = corpus
    return corpus


def _remember(law_id: str, version: str, law: Law) -> None:
    with _lock:
        if len(_cache) >= _CACHE_MAX:
            _cache.clear()
            _text_cache.clear()
        _cache[(law_id, version)] = law


def _normalised_text(item: StoredLaw) -> str:
    key = (item.law.id, item.version)
    text = _text_cache.get(key)
    if text is None:
        text = normalise_law_name(
            "\n".join([*(s.text for s in item.law.sections), *item.law.notes])
        )
        _text_cache[key] = text
    return text


def _section_owner(corpus: CorpusIndex) -> dict[str, str]:
    """section key -> law id, over the corpus."""
    return {
        key: law_id for law_id, numbers in corpus.section_keys.items() for key in numbers.values()
    }


def _cross_links(built: LawGraph, owner: Mapping[str, str]) -> list[CrossLink]:
    own = {node.key for node in built.nodes}
    return [
        CrossLink(
            e.type.value, e.source, built.law_id, e.target, owner.get(e.target, _law_of(e.target))
        )
        for e in built.edges
        if e.type in CROSS_LAW_TYPES and e.type != RelType.CITES_EXTERNAL and e.target not in own
    ]


def _law_of(key: str) -> str:
    """The law of a chapter or part key ("th-pdpa-2562:ch:7"): law ids hold no ":"."""
    return key.split(":", 1)[0]


def _link_order(link: CrossLink) -> tuple[str, str, str]:
    return (link.type, link.source, link.target)


def _link_dict(link: CrossLink) -> dict[str, str]:
    return {"type": link.type, "source": link.source, "target": link.target}
