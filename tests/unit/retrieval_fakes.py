"""In-memory fakes behind the ports for retrieval and API unit tests.

`FakeGraphStore` answers the named retrieval/API queries with Python equivalents of the
Cypher files (same parameters, same row shapes; the walk is the production path rebuild);
the Cypher itself runs on the real graph server in tests/integration and tests/e2e.
`FakeEmbedder` + `FakeVectorIndex` score by shared tokens, deterministically.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from services.core.analysis import tokenize
from services.core.errors import GraphUnavailable
from services.core.ports import Embedding, PassageModel, SparseVector, VectorHit, VectorPoint
from services.core.retrieval.models import Seed
from services.core.retrieval.walk import rebuild_paths

WALK = {
    "REFERENCES", "PENALIZES", "PRESCRIBES", "DEFINES", "USES_TERM", "GRANTS_EXEMPTION",
    "EXEMPTS_FROM", "CITES_EXTERNAL",
}  # fmt: skip


@dataclass
class FakeNode:
    labels: list[str]
    props: dict[str, Any]


@dataclass
class FakeEdge:
    type: str
    source: str
    target: str
    props: dict[str, Any] = field(default_factory=dict)


class FakeGraphStore:
    def __init__(self) -> None:
        self.nodes: dict[str, FakeNode] = {}
        self.edges: list[FakeEdge] = []
        self.calls: list[str] = []
        self.down = False

    # building
    def add_law(
        self, law: str, version: str | None, pending: str | None = None, **props: Any
    ) -> None:
        self.nodes[law] = FakeNode(
            ["Law"], {"key": law, "published_version": version, "pending_version": pending, **props}
        )

    def add(self, node_label: str, key: str, version: str, **props: Any) -> None:
        law = key.split(":", 1)[0]
        self.nodes[key] = FakeNode(
            [node_label],
            {
                "key": key,
                "law": law,
                "version": version,
                "law_version": f"{law}@{version}",
                **props,
            },
        )

    def link(self, rel: str, source: str, target: str, **props: Any) -> None:
        self.edges.append(FakeEdge(rel, source, target, props))

    # port
    def run_read(self, query_name: str, **params: Any) -> list[dict[str, Any]]:
        if self.down:
            raise GraphUnavailable("fake graph is down")
        self.calls.append(query_name)
        return list(getattr(self, f"_q_{query_name}")(**params))

    def ping(self) -> None:
        if self.down:
            raise GraphUnavailable("fake graph is down")

    def close(self) -> None:
        pass

    def apply_schema(self) -> None:
        pass

    def counts(self, law_id: str | None = None) -> dict[str, dict[str, int]]:
        return {}

    # queries
    def _visible(self, key: str, published: Sequence[str]) -> bool:
        node = self.nodes.get(key)
        return node is not None and (
            node.props.get("law_version") is None or node.props["law_version"] in published
        )

    def _q_retrieval_laws(self) -> list[dict[str, Any]]:
        laws = [
            [
                n.props["key"],
                n.props.get("published_version"),
                n.props.get("pending_version"),
                n.props.get("language"),
                n.props.get("not_before"),
                n.props.get("valid_to"),
                n.props.get("disapplies"),
                n.props.get("expressions"),
                n.props.get("expression_from"),
                n.props.get("jurisdiction"),
            ]
            for n in self.nodes.values()
            if "Law" in n.labels
        ]
        return [{"laws": laws}]

    def _q_retrieval_law_names(self, laws: list[str]) -> list[dict[str, Any]]:
        return [
            {
                "law": n.props["key"],
                "title": n.props.get("title"),
                "short_name": n.props.get("short_name"),
                "aliases": n.props.get("aliases"),
            }
            for n in self.nodes.values()
            if "Law" in n.labels and n.props["key"] in laws
        ]

    def _q_laws_list(self) -> list[dict[str, Any]]:
        return [
            {"law": n.props["key"], "version": n.props["published_version"], "props": dict(n.props)}
            for n in sorted(self.nodes.values(), key=lambda n: n.props["key"])
            if "Law" in n.labels and n.props.get("published_version")
        ]

    def _q_retrieval_walk(
        self,
        seeds: list[str],
        anchors: list[str],
        published: list[str],
        max_hops: int,
        limit: int,
    ) -> list[dict[str, Any]]:
        """One row per branch of the query, each with the distinct relationships of its
        paths collected as [type, start key, end key]. The paths are the production
        rebuild's (`retrieval.walk.rebuild_paths`) over the visible walk edges: the one
        Python walk, which the integration tests check against the Cypher."""
        visible = {
            (e.type, e.source, e.target)
            for e in self.edges
            if e.type in WALK
            and self._visible(e.source, published)
            and self._visible(e.target, published)
        }
        applied = {
            (e.source, e.target)
            for e in self.edges
            if e.type == "PENALIZES" and e.props.get("applied")
        }
        seed_labels = {"Section", "Definition", "Penalty", "Exemption"}
        branches = [(seed_labels, seeds, 2), ({"Section"}, anchors, 1)]
        rows = []
        for labels, keys, hops in branches:
            starts = [
                Seed(key, key.split(":", 1)[0], "vector", 1.0, hops=hops)
                for key in keys
                if (node := self.nodes.get(key))
                and labels & set(node.labels)
                and node.props.get("law_version") in published
            ]
            paths = sorted(rebuild_paths(starts, visible, max_hops), key=lambda p: len(p.steps))
            edges = {
                (
                    step.type,
                    *(
                        (before.key, step.key)
                        if step.direction == "out"
                        else (step.key, before.key)
                    ),
                )
                for path in paths[:limit]
                for before, step in pairwise(path.steps)
            }
            rows.append(
                {
                    "edges": [list(edge) for edge in sorted(edges)],
                    "applied": [
                        [a, b]
                        for t, a, b in sorted(edges)
                        if t == "PENALIZES" and (a, b) in applied
                    ],
                }
            )
        return rows

    def _q_retrieval_part_definitions(self, laws: list[list[str]]) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        for law, law_version in laws:
            for defines in self.edges:
                if defines.type != "DEFINES" or not self._of(
                    defines.target, "Definition", law, law_version
                ):
                    continue
                head = str(self.nodes[defines.source].props.get("text", ""))[:60]
                rows.extend(
                    {"law_version": law_version, "section": uses.source,
                     "term": defines.target, "defines": defines.source, "head": head}
                    for uses in self.edges
                    if uses.type == "USES_TERM" and uses.target == defines.target
                    and uses.source != defines.source
                    and self._of(uses.source, "Section", law, law_version)
                    and self._of(defines.source, "Section", law, law_version)
                )  # fmt: skip
        return rows

    def _q_retrieval_scope_sections(self, versions: list[str], first: int) -> list[dict[str, Any]]:
        return [
            {"law_version": n.props["law_version"], "section": key,
             "order": n.props["order"], "head": str(n.props.get("text", ""))[:160]}
            for key, n in self.nodes.items()
            if "Section" in n.labels
            and n.props["law_version"] in versions
            and 0 <= n.props.get("order", -1) <= first
        ]  # fmt: skip

    def _of(self, key: str, label: str, law: str, law_version: str) -> bool:
        node = self.nodes.get(key)
        return bool(
            node
            and label in node.labels
            and node.props.get("law") == law
            and node.props.get("law_version") in (None, law_version)
        )

    def _q_retrieval_nodes(
        self, keys: list[str], full: list[str], published: list[str]
    ) -> list[dict[str, Any]]:
        rows = []
        for k in keys:
            if not self._visible(k, published) or "Law" in self.nodes[k].labels:
                continue
            props = self.nodes[k].props
            name = next(
                (props[n] for n in ("label", "term", "name", "title") if props.get(n)), None
            )
            rows.append(
                {"key": k, "labels": list(self.nodes[k].labels), "name": name,
                 "number": props.get("number"), "node": dict(props) if k in full else None}
            )  # fmt: skip
        return rows

    def _q_retrieval_cited_places(
        self, keys: list[str], published: list[str]
    ) -> list[dict[str, Any]]:
        return [
            {
                "source": edge.source,
                "target": edge.target,
                "paragraphs": edge.props.get("from_paragraphs", []),
                "clauses": edge.props.get("from_clauses", []),
            }
            for edge in self.edges
            if edge.type == "REFERENCES"
            and edge.source in keys
            and self._visible(edge.source, published)
            and self._visible(edge.target, published)
        ]

    def _q_section_text(self, key: str, published: list[str]) -> list[dict[str, Any]]:
        node = self.nodes.get(key)
        if (
            not node
            or "Section" not in node.labels
            or node.props.get("law_version") not in published
        ):
            return []
        return [{"node": dict(node.props), "division": None, "division_labels": None}]

    def _q_section_related(
        self, key: str, published: list[str], in_force_laws: list[str]
    ) -> list[dict[str, Any]]:
        if not self._q_section_text(key, published):
            return []
        rows = []
        for edge in self.edges:
            if key not in (edge.source, edge.target):
                continue
            other = edge.target if edge.source == key else edge.source
            if not self._visible(other, published):
                continue
            if "Law" in self.nodes[other].labels and other not in in_force_laws:
                continue
            node = self.nodes[other]
            rows.append(
                {
                    "section": key,
                    "type": edge.type,
                    "outgoing": edge.source == key,
                    "key": other,
                    "labels": node.labels,
                    "label": node.props.get("label", other),
                    "law": node.props.get("law"),
                    "props": dict(edge.props),
                }  # fmt: skip
            )
        rows.sort(key=lambda r: (r["type"], r["key"]))
        return rows or [{"section": key, "type": None, "outgoing": None, "key": None,
                         "labels": None, "label": None, "law": None, "props": None}]  # fmt: skip

    def _q_section_penalties(self, key: str, published: list[str]) -> list[dict[str, Any]]:
        if not self._q_section_text(key, published):
            return []
        rows = []
        incoming = [e for e in self.edges if e.type in ("PENALIZES", "REFERENCES")]
        paths = [([key], [])]
        for _ in range(2):
            grown = []
            for keys, rels in paths:
                for e in incoming:
                    if (
                        e.target == keys[-1]
                        and e.source not in keys
                        and self._visible(e.source, published)
                    ):
                        grown.append(([*keys, e.source], [*rels, e]))
            for keys, rels in grown:
                ps = keys[-1]
                if not any(e.type == "PENALIZES" and e.source == ps for e in self.edges):
                    continue
                pens = [e.target for e in self.edges if e.type == "PRESCRIBES" and e.source == ps]
                for pen in pens or [None]:
                    rows.append(
                        {
                            "section": key,
                            "penalty_section": dict(self.nodes[ps].props),
                            "path_keys": keys,
                            "path_labels": [self.nodes[k].props.get("label", k) for k in keys],
                            "path_types": [r.type for r in rels],
                            "path_starts": [r.source for r in rels],
                            "penalty": dict(self.nodes[pen].props) if pen else None,
                        }  # fmt: skip
                    )
            paths = grown
        return rows or [{"section": key, "penalty_section": None, "path_keys": None,
                         "path_labels": None, "path_types": None, "path_starts": None,
                         "penalty": None}]  # fmt: skip

    def _q_law_summary_nodes(self, law: str, law_version: str) -> list[dict[str, Any]]:
        counts: dict[str, int] = {}
        for n in self.nodes.values():
            if n.props.get("law_version") == law_version:
                counts[n.labels[0]] = counts.get(n.labels[0], 0) + 1
        return [{"label": k, "count": v} for k, v in sorted(counts.items())]

    def _q_law_summary_edges(self, law: str, law_version: str) -> list[dict[str, Any]]:
        counts: dict[str, int] = {}
        for e in self.edges:
            if self.nodes[e.source].props.get("law_version") == law_version:
                counts[e.type] = counts.get(e.type, 0) + 1
        return [{"type": k, "count": v} for k, v in sorted(counts.items())]

    def _q_document_citing_passages(self, **params: Any) -> list[dict[str, Any]]:
        return []  # the fake graph holds statutes only

    def _q_document_passages(self, **params: Any) -> list[dict[str, Any]]:
        return []  # the fake graph holds statutes only

    def _q_law_most_cited(
        self, law: str, law_version: str, published: list[str], limit: int
    ) -> list[dict[str, Any]]:
        counts: dict[str, int] = {}
        for e in self.edges:
            target = self.nodes[e.target]
            if (
                e.type in ("REFERENCES", "PENALIZES")
                and target.props.get("law_version") == law_version
            ):
                counts[e.target] = counts.get(e.target, 0) + 1
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
        return [
            {"key": k, "number": self.nodes[k].props.get("number"),
             "label": self.nodes[k].props.get("label"), "cited": c}
            for k, c in ranked
        ]  # fmt: skip


class FakeEmbedder:
    name = "fake"
    sparse_idf = False
    english: PassageModel | None = None

    def __init__(self) -> None:
        self.calls = 0
        self.down = False

    @property
    def dense_size(self) -> int:
        return 1

    def embed_documents(self, texts: Sequence[str]) -> list[Embedding]:
        return [_embed(t) for t in texts]

    def embed_query(self, text: str) -> Embedding:
        return self.embed_queries([text])[0]

    def embed_queries(self, texts: Sequence[str]) -> list[Embedding]:
        if self.down:
            from services.core.errors import EmbedderUnavailable

            raise EmbedderUnavailable("fake embedder is down")
        self.calls += 1  # model calls, each of any number of texts
        return [_embed(t) for t in texts]


class FakeEnglishModel:
    """A bag of words hashed into 64 dimensions, normalised: cosine is word overlap."""

    size = 64

    def __init__(self) -> None:
        self.queries: list[str] = []

    def documents(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        return [_bag(t) for t in texts]

    def query(self, text: str) -> tuple[float, ...]:
        self.queries.append(text)
        return _bag(text)


def _bag(text: str) -> tuple[float, ...]:
    vector = [0.0] * FakeEnglishModel.size
    for word in re.findall(r"[a-z]{3,}", text.lower()):
        vector[zlib.crc32(word.encode()) % FakeEnglishModel.size] += 1.0
    norm = sum(x * x for x in vector) ** 0.5 or 1.0
    return tuple(x / norm for x in vector)


def _embed(text: str) -> Embedding:
    ids = sorted({zlib.crc32(t.encode()) % 100_000 for t in tokenize(text) if len(t) > 1})
    return Embedding((1.0,), SparseVector(tuple(ids), tuple(1.0 for _ in ids)))


def _matches(value: Any, allowed: Sequence[str]) -> bool:
    """Qdrant's MatchAny: a list-valued payload field matches when any element does."""
    values = value if isinstance(value, list) else [value]
    return any(v in allowed for v in values)


class FakeVectorIndex:
    def __init__(self) -> None:
        self.points: dict[str, list[VectorPoint]] = {
            "chunks": [],
            "profiles": [],
            "passages": [],
            "english": [],
        }
        self.calls: list[tuple[str, str]] = []
        self.down = False

    def add(self, collection: str, key: str, text: str, **payload: Any) -> None:
        self.points[collection].append(VectorPoint(key, _embed(text), {"key": key, **payload}))

    def add_english(self, key: str, text: str, **payload: Any) -> None:
        """A paragraph point of the English model's collection (dense only)."""
        embedding = Embedding(_bag(text), SparseVector((), ()))
        self.points["english"].append(VectorPoint(key, embedding, {"key": key, **payload}))

    def hybrid_search(
        self,
        collection: str,
        query: Embedding,
        *,
        limit: int,
        laws: Sequence[str] | None = None,
        kinds: Sequence[str] | None = None,
        mode: str = "hybrid",
        law_versions: Sequence[str] | None = None,
        exclude_law_versions: Sequence[str] | None = None,
        where: Mapping[str, Sequence[str]] | None = None,
    ) -> list[VectorHit]:
        if self.down:
            from services.core.errors import VectorsUnavailable

            raise VectorsUnavailable("fake vectors are down")
        self.calls.append((collection, mode))
        wanted = set(query.sparse.indices)
        hits = []
        for point in self.points[collection]:
            payload = point.payload
            if laws and payload.get("law") not in laws:
                continue
            if exclude_law_versions and payload.get("law_version") in exclude_law_versions:
                continue
            if not all(_matches(payload.get(f), allowed) for f, allowed in (where or {}).items()):
                continue
            if collection == "english":  # the English model's vectors: cosine
                score = sum(a * b for a, b in zip(query.dense, point.embedding.dense, strict=True))
            else:
                score = len(wanted & set(point.embedding.sparse.indices))
            if score:
                hits.append(VectorHit(point.key, float(score), payload))
        hits.sort(key=lambda h: (-h.score, h.key))
        return hits[:limit]

    def count(
        self, collection: str, law_id: str | None = None, *, version: str | None = None
    ) -> int:
        if self.down:
            from services.core.errors import VectorsUnavailable

            raise VectorsUnavailable("fake vectors are down")
        return len(self.points[collection])

    def count_where(self, collection: str, where: Mapping[str, Sequence[str]]) -> int:
        return sum(
            all(_matches(p.payload.get(f), allowed) for f, allowed in where.items())
            for p in self.points[collection]
        )

    def delete_where(self, collection: str, where: Mapping[str, Sequence[str]]) -> None:
        self.points[collection] = [
            p
            for p in self.points[collection]
            if not all(_matches(p.payload.get(f), allowed) for f, allowed in where.items())
        ]

    def optimize(self) -> None:
        pass

    def close(self) -> None:
        pass


V = "abc123def456"


def mini_pdpa() -> tuple[FakeGraphStore, FakeVectorIndex, FakeEmbedder]:
    """A small PDPA-shaped corpus: s.26 (sensitive data) cited by s.27, penalised by s.84
    (hop 1) and by s.79 through s.27 (hop 2); a definition, an exemption, filler sections,
    and a second law whose only version is still pending (must stay invisible)."""
    graph, vectors = FakeGraphStore(), FakeVectorIndex()
    law = "th-pdpa-2562"
    graph.add_law(
        law,
        V,
        title="พระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. 2562",
        short_name="PDPA",
        jurisdiction="TH",
    )
    texts = {
        "6": "ในพระราชบัญญัตินี้ ข้อมูลส่วนบุคคล หมายความว่า ข้อมูลเกี่ยวกับบุคคล",
        "24": "ห้ามมิให้ผู้ควบคุมข้อมูลส่วนบุคคลทำการเก็บรวบรวมข้อมูลส่วนบุคคล โดยไม่ได้รับความยินยอม",
        "26": "ห้ามมิให้เก็บรวบรวมข้อมูลส่วนบุคคลเกี่ยวกับ ข้อมูลสุขภาพ ความพิการ ศาสนา "
        "โดยไม่ได้รับความยินยอมโดยชัดแจ้ง เว้นแต่ (1) เพื่อป้องกันอันตรายต่อชีวิต",
        "27": "ห้ามมิให้ผู้ควบคุมข้อมูลส่วนบุคคลใช้หรือเปิดเผยข้อมูลส่วนบุคคล ตามมาตรา 24 หรือมาตรา 26",
        "30": "เจ้าของข้อมูลส่วนบุคคลมีสิทธิขอเข้าถึงและขอรับสำเนา",
        "31": "เจ้าของข้อมูลส่วนบุคคลมีสิทธิขอรับข้อมูลส่วนบุคคล",
        "79": "ผู้ควบคุมข้อมูลส่วนบุคคลผู้ใดฝ่าฝืนบทบัญญัติมาตรา 27 ต้องระวางโทษจำคุกไม่เกินหกเดือน",
        "84": "ผู้ควบคุมข้อมูลส่วนบุคคลผู้ใดฝ่าฝืนมาตรา 26 วรรคหนึ่ง ต้องระวางโทษปรับทางปกครองไม่เกินห้าล้านบาท",
    }
    thai = str.maketrans("0123456789", "๐๑๒๓๔๕๖๗๘๙")
    for number, text in texts.items():
        key = f"{law}:s:{number}"
        label = f"มาตรา {number.translate(thai)}"
        graph.add("Section", key, V, number=number, label=label, text=text)
        vectors.add("chunks", key, f"{label} {text}", law=law, version=V,
                    law_version=f"{law}@{V}", kind="section", label=label, number=number)  # fmt: skip
    graph.add("Definition", f"{law}:def:ข้อมูลส่วนบุคคล", V, term="ข้อมูลส่วนบุคคล", text="ข้อมูลเกี่ยวกับบุคคล")
    graph.add(
        "Exemption", f"{law}:ex:26:1", V, label="ข้อยกเว้น มาตรา ๒๖ (๑)", text="เพื่อป้องกันอันตรายต่อชีวิต"
    )
    graph.add("Penalty", f"{law}:pen:84:1", V, label="โทษปรับทางปกครอง", kind="administrative_fine")
    graph.link("REFERENCES", f"{law}:s:27", f"{law}:s:24")
    graph.link("REFERENCES", f"{law}:s:27", f"{law}:s:26")
    graph.link("PENALIZES", f"{law}:s:84", f"{law}:s:26", paragraphs=["1"])
    graph.link("PRESCRIBES", f"{law}:s:84", f"{law}:pen:84:1")
    graph.link("PENALIZES", f"{law}:s:79", f"{law}:s:27")
    graph.link("DEFINES", f"{law}:s:6", f"{law}:def:ข้อมูลส่วนบุคคล")
    graph.link("USES_TERM", f"{law}:s:26", f"{law}:def:ข้อมูลส่วนบุคคล")
    graph.link("GRANTS_EXEMPTION", f"{law}:s:26", f"{law}:ex:26:1")
    graph.link("NEXT", f"{law}:s:26", f"{law}:s:27")
    # A law mid-ingestion: nodes and points exist, nothing is published.
    other = "th-health-2550"
    graph.add_law(other, None, pending="fff000fff000", title="พระราชบัญญัติสุขภาพแห่งชาติ พ.ศ. 2550")
    graph.add("Section", f"{other}:s:7", "fff000fff000", number="7", label="มาตรา ๗",
              text="ข้อมูลสุขภาพของบุคคลเป็นความลับส่วนบุคคล")  # fmt: skip
    graph.link("REFERENCES", f"{other}:s:7", f"{law}:s:26")
    vectors.add("chunks", f"{other}:s:7", "ข้อมูลสุขภาพ ของ พนักงาน บริษัท", law=other,
                version="fff000fff000", law_version=f"{other}@fff000fff000", kind="section")  # fmt: skip
    return graph, vectors, FakeEmbedder()
