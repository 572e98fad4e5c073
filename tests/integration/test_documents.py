"""A firm's documents beside the statutes, end to end on real parts: the app served by
uvicorn over HTTP on 127.0.0.1 (in this process, so the test can also query the stores
the app uses), the test Neo4j over Bolt, the embedded qdrant-edge store and the offline
embedder, with the PDPA ingested. Keys are real keys whose SHA-256 hashes are in the
settings (`LEXGRAPH_API_PRINCIPALS`), as in production.

- upload -> searchable -> delete -> gone from both stores, counts back to before;
- bad input is refused by name and stores nothing;
- the PDPA health-data question finds s.26, s.84 and a tenant's policy citing s.26, and
  no policy for another tenant's principal;
- a leak probe: two tenants, three groups, ~50 documents (some quoting each other's
  text verbatim), a few hundred randomised searches and related reads by every
  principal: nothing outside the caller's scope; the caller's top 10 passages are exactly
  the top 10 of the same query over the documents the caller may see (a document-id
  filter the test computes from what it uploaded); the related reads list exactly the
  visible documents citing the section; and, in each single ranked list, no passage of
  the caller's that a scope-free search ranks in the top 10 is missing;
- the MCP tools act for the key's principal: `search` and `get_related_sections` return
  the tenant's policy to its readers and to no other tenant, and are audited.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import anyio
import httpx
import httpx2
import pytest
import uvicorn
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from services.api.deps import Clients
from services.api.main import create_app
from services.core import bootstrap, documents
from services.core.access import Principal
from services.core.documents import COLLECTION, document_counts
from services.core.errors import GraphUnavailable
from services.core.ingestion import ingest_paths
from services.core.neo4j_local import LocalNeo4j, free_port
from services.core.settings import REPO_ROOT, Settings
from tests.document_files import docx_bytes, pdf_bytes
from tests.live_stack import PDPA, empty_store, wait_for

pytestmark = pytest.mark.integration

LAW = "th-pdpa-2562"
S = f"{LAW}:s:"
PROBLEM = "application/problem+json"
HEALTH_QUESTION = "บริษัทเก็บข้อมูลสุขภาพของพนักงานโดยไม่ได้รับความยินยอมโดยชัดแจ้งได้ไหม ถ้าทำผิดมีโทษอะไร"

# name -> (tenant, groups, roles)
PRINCIPALS = {
    "a-admin": ("firm-a", [], ["admin"]),
    "a-m1-editor": ("firm-a", ["m1"], ["editor"]),
    "a-m2-reader": ("firm-a", ["m2"], ["reader"]),
    "a-team-reader": ("firm-a", ["m1", "team"], ["reader"]),
    "a-plain-reader": ("firm-a", [], ["reader"]),
    "b-admin": ("firm-b", [], ["admin"]),
    "b-m1-editor": ("firm-b", ["m1"], ["editor"]),  # the same group name in another firm
}


def _key(name: str) -> str:
    return f"test-key-{name}"


def _headers(name: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {_key(name)}"}


@dataclass
class Stack:
    url: str
    graph: Any
    vectors: Any
    embedder: Any
    client: httpx.Client = field(default_factory=lambda: httpx.Client(timeout=120))

    def post(self, who: str, path: str, **kwargs: Any) -> httpx.Response:
        return self.client.post(self.url + path, headers=_headers(who), **kwargs)

    def get(self, who: str, path: str) -> httpx.Response:
        return self.client.get(self.url + path, headers=_headers(who))

    def upload(self, who: str, name: str, data: bytes, *, title: str, scopes: str = "",
               date: str = "2026-11-30", method: str = "POST", doc: str = "") -> httpx.Response:  # fmt: skip
        return self.client.request(
            method, f"{self.url}/v1/documents{'/' + doc if doc else ''}", headers=_headers(who),
            files={"file": (name, data)}, data={"title": title, "date": date, "scopes": scopes},
        )  # fmt: skip

    def search(self, who: str, query: str, **extra: Any) -> dict[str, Any]:
        r = self.post(who, "/v1/search", json={"query": query, **extra})
        assert r.status_code == 200, r.text
        return r.json()

    def counts(self) -> dict[str, int]:
        return document_counts(self.graph) | {"points": self.vectors.count(COLLECTION)}


@pytest.fixture(scope="module")
def stack(neo4j_server: LocalNeo4j, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    root = tmp_path_factory.mktemp("documents")
    settings = Settings(
        environment="production",
        data_dir=root,
        graph_uri=neo4j_server.bolt_uri,
        graph_user=neo4j_server.user,
        graph_password=neo4j_server.password,  # type: ignore[arg-type]
        graph_database=neo4j_server.database,
        graph_manage_local=False,
        store_timeout_s=30,
        api_principals={
            hashlib.sha256(_key(n).encode()).hexdigest(): {"tenant": t, "groups": g, "roles": r}
            for n, (t, g, r) in PRINCIPALS.items()
        },
    )
    empty_store(neo4j_server).close()
    graph = bootstrap.build_graph_store(settings)
    vectors = bootstrap.build_worker_vectors(settings)
    embedder = bootstrap.build_worker_embedder(settings)
    report = ingest_paths([PDPA], graph=graph, vectors=vectors, embedder=embedder)
    assert report.ok and vectors.count("chunks") > 0, report.errors
    app = create_app(settings, clients=Clients(graph, vectors, embedder, settings))
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_for(lambda: server.started, 60, "uvicorn to start")
        yield Stack(f"http://127.0.0.1:{port}", graph, vectors, embedder)
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        vectors.close()
        graph.close()


POLICY = """# Health-data policy

## 4.2 Health data

We never collect employees' health data without their explicit consent, as มาตรา ๒๖ แห่งพระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล
requires; s.84 PDPA sets the fine for a breach.
"""


def _passage_docs(body: dict[str, Any]) -> set[str]:
    return {p["document"] for p in body["passages"]}


def test_upload_is_searchable_then_delete_leaves_both_stores_as_before(stack: Stack) -> None:
    before = stack.counts()
    r = stack.upload("a-m1-editor", "policy.md", POLICY.encode(), title="Health-data policy",
                     scopes="m1")  # fmt: skip
    assert r.status_code == 201, r.text
    doc = r.json()
    assert doc["tenant"] == "firm-a" and doc["scopes"] == ["m1"] and doc["created"]
    cites = {c["key"] for p in doc["passages"] for c in p["cites"]}
    assert cites == {S + "26", S + "84"}, doc
    after = stack.counts()
    assert after["documents"] == before["documents"] + 1
    assert after["passages"] == before["passages"] + len(doc["passages"])
    assert after["cites"] == before["cites"] + 2
    assert after["points"] == before["points"] + len(doc["passages"])

    again = stack.upload("a-m1-editor", "same.md", POLICY.encode(), title="Other title")
    assert again.status_code == 200 and again.json()["id"] == doc["id"]
    assert not again.json()["created"] and stack.counts() == after

    body = stack.search("a-team-reader", "health data explicit consent employees")
    assert doc["id"] in _passage_docs(body)
    assert stack.get("a-team-reader", f"/v1/documents/{doc['id']}").status_code == 200
    assert stack.get("a-m2-reader", f"/v1/documents/{doc['id']}").status_code == 404
    assert stack.get("b-admin", f"/v1/documents/{doc['id']}").status_code == 404
    # Another tenant's editor cannot delete it, and learns nothing from trying.
    assert stack.client.delete(f"{stack.url}/v1/documents/{doc['id']}",
                               headers=_headers("b-admin")).status_code == 404  # fmt: skip

    gone = stack.client.delete(f"{stack.url}/v1/documents/{doc['id']}",
                               headers=_headers("a-m1-editor"))  # fmt: skip
    assert gone.status_code == 200, gone.text
    assert stack.counts() == before
    assert stack.get("a-admin", f"/v1/documents/{doc['id']}").status_code == 404
    assert doc["id"] not in _passage_docs(stack.search("a-admin", "health data explicit consent"))


def test_replace_keeps_the_id_and_swaps_passages_and_points(stack: Stack) -> None:
    before = stack.counts()
    first = stack.upload("a-admin", "memo.docx", docx_bytes([("1 Scope", "Staff files.")]),
                         title="Memo")  # fmt: skip
    assert first.status_code == 201, first.text
    doc = first.json()["id"]
    text = ["1. Scope", "Staff files.", "2. Transfers", "Article 28 under section 28 PDPA."]
    put = stack.upload("a-admin", "memo.pdf", pdf_bytes(text), title="Memo v2", method="PUT",
                       doc=doc, scopes="team")  # fmt: skip
    assert put.status_code == 200, put.text
    body = put.json()
    assert body["id"] == doc and body["format"] == "pdf" and body["scopes"] == ["team"]
    assert [p["label"] for p in body["passages"]] == ["1", "2"]
    assert stack.counts()["points"] == before["points"] + 2
    assert stack.get("a-m2-reader", f"/v1/documents/{doc}").status_code == 404
    assert stack.get("a-team-reader", f"/v1/documents/{doc}").status_code == 200
    assert stack.client.delete(f"{stack.url}/v1/documents/{doc}",
                               headers=_headers("a-admin")).status_code == 200  # fmt: skip
    assert stack.counts() == before


@pytest.mark.parametrize(
    ("who", "name", "data", "form", "status", "field"),
    [
        ("a-m1-editor", "x.exe", b"MZ", {}, 422, "file"),
        ("a-m1-editor", "x.pdf", b"%PDF-1.4 junk", {}, 422, "file"),
        ("a-m1-editor", "x.md", b"", {}, 422, "file"),
        ("a-m1-editor", "x.md", b"# ok\n\ntext", {"date": "30/11/2026"}, 422, "date"),
        ("a-m1-editor", "x.md", b"# ok\n\ntext", {"title": "  "}, 422, "title"),
        ("a-m1-editor", "x.md", b"# ok\n\ntext", {"scopes": "m2"}, 403, None),
        ("a-m2-reader", "x.md", b"# ok\n\ntext", {}, 403, None),
    ],
)
def test_bad_uploads_are_refused_by_name_and_store_nothing(
    stack: Stack, who: str, name: str, data: bytes, form: dict[str, str], status: int,
    field: str | None,
) -> None:  # fmt: skip
    before = stack.counts()
    fields = {"title": "T", "date": "2026-11-30", "scopes": "m1"} | form
    r = stack.client.post(f"{stack.url}/v1/documents", headers=_headers(who),
                          files={"file": (name, data)}, data=fields)  # fmt: skip
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    if field:
        assert r.json()["errors"][0]["field"] == field, r.json()
    assert stack.counts() == before


def test_pdpa_health_question_finds_the_policy_only_for_its_tenant(stack: Stack) -> None:
    r = stack.upload("a-admin", "policy.md", POLICY.encode(), title="Health-data policy")
    assert r.status_code == 201, r.text
    doc = r.json()["id"]
    try:
        mine = stack.search("a-plain-reader", HEALTH_QUESTION)
        keys = [s["key"] for s in mine["sections"]]
        assert S + "26" in keys and S + "84" in keys, keys
        policy = [p for p in mine["passages"] if p["document"] == doc]
        assert policy, mine["passages"]
        assert any(path.startswith("มาตรา ๒๖ <-[CITES]- Health-data policy 4.2")
                   for p in policy for path in p["paths"]), policy  # fmt: skip
        assert all(p["kind"] == "passage" for p in mine["passages"])
        theirs = stack.search("b-admin", HEALTH_QUESTION)
        assert {s["key"] for s in theirs["sections"]} >= {S + "26", S + "84"}
        assert theirs["passages"] == []
        related = stack.get("a-plain-reader", f"/v1/laws/{LAW}/sections/26/related").json()
        assert [d["document"] for d in related["documents"]] == [doc]
        assert stack.get("b-admin", f"/v1/laws/{LAW}/sections/26/related").json()["documents"] == []
        # Statute edges never include a firm's passages, whoever asks.
        incoming = related["incoming"]
        assert all(e["kind"] != "passage" for edges in incoming.values() for e in edges)
        # The Browser kit's query shows the policy citing s.26, for its tenant alone
        browser = REPO_ROOT / "cypher" / "browser" / "08_documents_citing_section.cypher"
        text = browser.read_text(encoding="utf-8")
        rows = stack.graph.run_cypher(text, law=LAW, section="26", tenant="firm-a")
        assert {r["document"] for r in rows} == {"Health-data policy"}
        assert any("มาตรา ๒๖" in (r["cited_as"] or "") for r in rows), rows
        assert stack.graph.run_cypher(text, law=LAW, section="26", tenant="firm-b") == []
    finally:
        stack.client.delete(f"{stack.url}/v1/documents/{doc}", headers=_headers("a-admin"))


def test_citing_passages_are_the_best_top_k_of_those_citing_the_returned_sections(
    stack: Stack,
) -> None:
    """Many passages cite the sections a search returns: the answer holds the best `top_k`
    of them (a passage citing two returned sections, or a higher-ranked one, first), each
    with a path per section, beside the best `top_k` by the question's words."""
    texts = [f"Invoices of client {i} are filed with the matter (s.26 PDPA)." for i in range(6)]
    texts += ["Health files and fines (s.26 PDPA, s.84 PDPA).", "Fines only (s.84 PDPA)."]
    docs: list[str] = []
    try:
        for i, text in enumerate(texts):
            r = stack.upload("a-admin", f"memo-{i}.md", f"# Memo {i}\n\n## 1 Note\n\n{text}".encode(),
                             title=f"Memo {i}")  # fmt: skip
            assert r.status_code == 201, r.text
            docs.append(r.json()["id"])
        body = stack.search("a-admin", HEALTH_QUESTION, top_k=3)
        rank = {s["key"]: i for i, s in enumerate(body["sections"])}
        assert {S + "26", S + "84"} <= set(rank), list(rank)
        passages = [p for p in body["passages"] if p["document"] in docs]
        by_vector = [p for p in passages if p["reached"] == "vector"]
        by_cites = [p for p in passages if p["reached"] == "cites"]
        assert len(by_vector) == 3 and len(by_cites) == 3, passages
        cited = {doc: ["26", "84"] if "s.84" in t and "s.26" in t else ["84"] if "s.84" in t
                 else ["26"] for doc, t in zip(docs, texts, strict=True)}  # fmt: skip
        weight = {doc: sum(0.5 / (rank[S + n] + 1) for n in cited[doc]) for doc in docs}
        rest = sorted(set(docs) - {p["document"] for p in by_vector}, key=lambda d: (-weight[d], d))
        assert [p["document"] for p in by_cites] == rest[:3]
        for p in passages:
            assert len([x for x in p["paths"] if "<-[CITES]-" in x]) == len(cited[p["document"]])
        scores = [p["score"] for p in body["passages"]]
        assert scores == sorted(scores, reverse=True)
    finally:
        for doc in docs:
            stack.client.delete(f"{stack.url}/v1/documents/{doc}", headers=_headers("a-admin"))


# --- the leak probe ----------------------------------------------------------------------

TOPICS = [
    ("health", "Health data of staff is sensitive; we collect it only with explicit consent",
     ["มาตรา ๒๖ แห่งพระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล", "s.84 PDPA"], ["26", "84"]),
    ("consent", "Consent must be freely given, recorded and as easy to withdraw as to give",
     ["section 19 PDPA"], ["19"]),
    ("breach", "A personal data breach is reported to the office within seventy-two hours",
     ["s.37 PDPA"], ["37"]),
    ("transfer", "Transfers abroad need a destination with adequate protection",
     ["มาตรา ๒๘ แห่งพระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล"], ["28"]),
    ("dpo", "The data protection officer advises the firm and checks compliance",
     ["s.41 PDPA", "s.42 PDPA"], ["41", "42"]),
    ("retention", "Client files are kept for ten years after the matter closes", [], []),
    ("billing", "Invoices are issued monthly and payable within thirty days", [], []),
    ("criminal", "Criminal records are handled under the rules for sensitive data",
     ["s.26 PDPA"], ["26"]),
]  # fmt: skip
GROUP_CHOICES = ["", "m1", "m2", "team", "m1,team"]


@dataclass
class ProbeDoc:
    id: str
    tenant: str
    scopes: list[str]
    cites: set[str]


def _visible(doc: ProbeDoc, who: str) -> bool:
    tenant, groups, roles = PRINCIPALS[who]
    if doc.tenant != tenant:
        return False
    return "admin" in roles or any(s in ["@tenant", *groups] for s in doc.scopes)


def _principal(who: str) -> Principal:
    tenant, groups, roles = PRINCIPALS[who]
    return Principal(who, tenant, tuple(groups), tuple(roles))  # type: ignore[arg-type]


def _probe_documents(rng: random.Random) -> list[tuple[str, str, str, set[str]]]:
    """(tenant, scopes, markdown, cited section numbers) of ~50 documents; every fourth
    quotes a passage of an earlier one, often of the other firm, verbatim."""
    made: list[tuple[str, str, str, set[str]]] = []
    bodies: list[str] = []
    for i in range(50):
        tenant = "firm-a" if i % 5 < 3 else "firm-b"
        scopes = rng.choice(GROUP_CHOICES if tenant == "firm-a" else ["", "m1"])
        sections, cited = [], set()
        for n, (name, sentence, refs, numbers) in enumerate(rng.sample(TOPICS, 2), start=1):
            ref = f" ({'; '.join(refs)})" if refs else ""
            body = f"{sentence}{ref}. Reference {tenant}-{i}-{n}."
            sections.append(f"## {n} {name.title()}\n\n{body}")
            bodies.append(body)
            cited |= set(numbers)
        if i % 4 == 3 and len(bodies) > 4:
            quoted = rng.choice(bodies[:-2])
            sections.append(f"## 9 Quoted\n\n{quoted}")
            cited |= {num for _, s, _, nums in TOPICS if quoted.startswith(s) for num in nums}
        made.append((tenant, scopes, f"# Policy {i}\n\n" + "\n\n".join(sections), cited))
    return made


def test_leak_probe_nothing_outside_scope_nothing_missing(stack: Stack) -> None:
    rng = random.Random(19)
    docs: list[ProbeDoc] = []
    for i, (tenant, scopes, text, cited) in enumerate(_probe_documents(rng)):
        uploader = "a-admin" if tenant == "firm-a" else "b-admin"
        r = stack.upload(uploader, f"policy-{i}.md", text.encode(), title=f"Policy {i}",
                         scopes=scopes)  # fmt: skip
        assert r.status_code == 201, r.text
        body = r.json()
        assert {c["key"] for p in body["passages"] for c in p["cites"]} == {S + n for n in cited}
        docs.append(ProbeDoc(body["id"], tenant, body["scopes"], cited))
    by_id = {d.id: d for d in docs}
    questions = [t[1] for t in TOPICS] + [HEALTH_QUESTION, "what are the fines", "ข้อมูลสุขภาพ"]
    leaks: list[str] = []
    missing: list[str] = []
    searches = related_reads = 0
    started = time.monotonic()
    for _ in range(25):
        for who in PRINCIPALS:
            question = rng.choice(questions) + rng.choice(["", " policy", " for our staff"])
            body = stack.search(who, question, top_k=10)
            searches += 1
            for p in body["passages"]:
                if not _visible(by_id[p["document"]], who):
                    leaks.append(f"{who} got {p['document']} for {question!r}")
            visible = [d.id for d in docs if _visible(d, who)]
            got = {p["key"] for p in body["passages"] if p["reached"] == "vector" or
                   any(x.startswith("[vector]") for x in p["paths"])}  # fmt: skip
            # Scope-free comparisons straight on the store: the caller's top 10 are exactly
            # the top 10 of the caller's documents, and none that a ranking of everything
            # would have put in the top 10 is missing.
            query = stack.embedder.embed_query(body["query"])
            among_visible = stack.vectors.hybrid_search(
                COLLECTION, query, limit=10, where={"document": visible}
            ) if visible else []  # fmt: skip
            if {h.key for h in among_visible} != got:
                missing.append(
                    f"{who} {question!r}: {sorted({h.key for h in among_visible} - got)}"
                )
            # Within one ranked list the order is the same with or without a filter, so
            # there a passage of the caller's that a scope-free search ranks in the top
            # 10 must be in the caller's top 10. (Fused lists are compared above, over
            # the caller's documents: RRF ranks shift when other points leave the lists.)
            for mode in ("dense", "sparse"):
                scoped = stack.vectors.hybrid_search(
                    COLLECTION, query, limit=10, mode=mode, where=_principal(who).vector_filter()
                )
                everything = stack.vectors.hybrid_search(COLLECTION, query, limit=10, mode=mode)
                for hit in everything:
                    if _visible(by_id[str(hit.payload["document"])], who) and hit not in scoped:
                        missing.append(f"{who} {question!r}: scope-free {mode} top-10 {hit.key}")
            if rng.random() < 0.6:
                number = rng.choice(["26", "84", "19", "37", "28", "41", "42", "5"])
                r = stack.get(who, f"/v1/laws/{LAW}/sections/{number}/related")
                assert r.status_code == 200, r.text
                related_reads += 1
                listed = {d["document"] for d in r.json()["documents"]}
                expected = {d.id for d in docs if number in d.cites and _visible(d, who)}
                leaks += [f"{who} related {number}: {d}" for d in listed - expected]
                missing += [f"{who} related {number}: {d}" for d in expected - listed]
    print(
        f"{searches} searches, {related_reads} related reads in {time.monotonic() - started:.0f} s"
    )
    assert searches + related_reads >= 250
    assert leaks == []
    assert missing == [], "\n".join(missing)
    for d in docs:
        owner = "a-admin" if d.tenant == "firm-a" else "b-admin"
        assert stack.client.delete(f"{stack.url}/v1/documents/{d.id}",
                                   headers=_headers(owner)).status_code == 200  # fmt: skip


def test_citations_follow_the_law_to_its_next_version(
    stack: Stack, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Re-ingesting a changed PDPA publishes a new version and removes the old one's
    nodes; the policy's CITES edges move to the new sections instead of vanishing."""
    r = stack.upload("a-admin", "policy.md", POLICY.encode(), title="Health-data policy")
    assert r.status_code == 201, r.text
    doc = r.json()["id"]
    try:
        old = stack.get("a-admin", "/v1/laws").json()["laws"]
        changed = tmp_path_factory.mktemp("pdpa-v2") / "about.md"
        text = PDPA.read_text(encoding="utf-8").replace("ข้อมูลสุขภาพ", "ข้อมูลด้านสุขภาพ", 1)
        changed.write_text(text, encoding="utf-8")
        report = ingest_paths([changed], graph=stack.graph, vectors=stack.vectors,
                              embedder=stack.embedder)  # fmt: skip
        assert report.ok, report.errors
        new = stack.get("a-admin", "/v1/laws").json()["laws"]
        assert [law["version"] for law in new] != [law["version"] for law in old]
        assert document_counts(stack.graph, doc)["cites"] == 2
        related = stack.get("a-plain-reader", f"/v1/laws/{LAW}/sections/84/related").json()
        assert [d["document"] for d in related["documents"]] == [doc]
    finally:
        stack.client.delete(f"{stack.url}/v1/documents/{doc}", headers=_headers("a-admin"))


def _audit_count(stack: Stack, tenant: str, action: str) -> float:
    text = stack.client.get(f"{stack.url}/metrics").text
    wanted = f'lexgraph_audit_events_total{{action="{action}",tenant="{tenant}"}} '
    lines = [line for line in text.splitlines() if line.startswith(wanted)]
    return float(lines[0].split()[-1]) if lines else 0.0


def test_searches_and_reads_are_audited_with_principal_tenant_and_ids(
    stack: Stack, caplog: pytest.LogCaptureFixture
) -> None:
    r = stack.upload("a-admin", "policy.md", POLICY.encode(), title="Health-data policy")
    assert r.status_code == 201, r.text
    doc = r.json()["id"]
    try:
        searches = _audit_count(stack, "firm-a", "search")
        reads = _audit_count(stack, "firm-a", "document.read")
        with caplog.at_level(logging.INFO, logger="lexgraph.audit"):
            body = stack.search("a-plain-reader", HEALTH_QUESTION)
            assert stack.get("a-plain-reader", f"/v1/documents/{doc}").status_code == 200
        events = [json.loads(r.getMessage()) for r in caplog.records if r.name == "lexgraph.audit"]
        principal = "key:" + hashlib.sha256(_key("a-plain-reader").encode()).hexdigest()[:16]
        search = next(e for e in events if e["action"] == "search")
        assert search["principal"] == principal and search["tenant"] == "firm-a"
        assert search["ids"] == [p["key"] for p in body["passages"]] + [
            s["key"] for s in body["sections"]
        ]
        read = next(e for e in events if e["action"] == "document.read")
        assert read["ids"] == [doc] and read["principal"] == principal
        assert _audit_count(stack, "firm-a", "search") == searches + 1
        assert _audit_count(stack, "firm-a", "document.read") == reads + 1
    finally:
        stack.client.delete(f"{stack.url}/v1/documents/{doc}", headers=_headers("a-admin"))


class _GraphFailingOn:
    """The real graph store, except that one write fails as an outage would."""

    def __init__(self, graph: Any, query: str) -> None:
        self.graph, self.query = graph, query

    def run_write(self, name: str, **params: Any) -> list[dict[str, Any]]:
        if name == self.query:
            raise GraphUnavailable("the graph went away mid-write")
        return self.graph.run_write(name, **params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.graph, name)


def test_a_replace_the_graph_refuses_leaves_the_document_as_it_was(stack: Stack) -> None:
    r = stack.upload("a-admin", "policy.md", POLICY.encode(), title="Health-data policy")
    assert r.status_code == 201, r.text
    doc = r.json()["id"]
    try:
        before = stack.counts()
        failing = documents.Stores(_GraphFailingOn(stack.graph, "document_store"), stack.vectors,
                                   stack.embedder)  # fmt: skip
        upload = documents.Upload("v2.md", b"# Other\n\n## 1 Billing\n\nInvoices monthly.",
                                  title="Billing", date="2026-12-01")  # fmt: skip
        with pytest.raises(GraphUnavailable):
            documents.store_document(upload, access=_principal("a-admin"), stores=failing,
                                     replace=doc)  # fmt: skip
        assert stack.counts() == before
        kept = stack.get("a-admin", f"/v1/documents/{doc}").json()
        assert kept["title"] == "Health-data policy" and kept["passages"][0]["label"] == "4.2"
    finally:
        stack.client.delete(f"{stack.url}/v1/documents/{doc}", headers=_headers("a-admin"))


# --- the MCP tools act for the key's principal -------------------------------------------


async def _mcp_calls(stack: Stack, who: str, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    async with (
        httpx2.AsyncClient(timeout=120, headers=_headers(who)) as http,
        streamable_http_client(stack.url + "/mcp", http_client=http) as streams,
        ClientSession(streams[0], streams[1]) as session,
    ):
        await session.initialize()
        results = [await session.call_tool(name, args) for name, args in calls]
    for result in results:
        assert result.is_error is False, result.content
    return [result.structured_content for result in results]


def test_mcp_tools_are_scoped_to_the_key_s_tenant_and_audited(
    stack: Stack, caplog: pytest.LogCaptureFixture
) -> None:
    r = stack.upload("a-admin", "policy.md", POLICY.encode(), title="Health-data policy")
    assert r.status_code == 201, r.text
    doc = r.json()["id"]
    calls = [
        ("search", {"question": HEALTH_QUESTION, "top_k": 10}),
        ("get_related_sections", {"section": S + "26"}),
    ]
    try:
        searches = _audit_count(stack, "firm-a", "search")
        with caplog.at_level(logging.INFO, logger="lexgraph.audit"):
            mine, related = anyio.run(_mcp_calls, stack, "a-plain-reader", calls)
        assert {S + "26", S + "84"} <= {s["key"] for s in mine["sections"]}
        assert doc in {p["document"] for p in mine["passages"]}, mine["passages"]
        assert [d["document"] for d in related["documents"]] == [doc]
        events = [json.loads(r.getMessage()) for r in caplog.records if r.name == "lexgraph.audit"]
        principal = "key:" + hashlib.sha256(_key("a-plain-reader").encode()).hexdigest()[:16]
        search = next(e for e in events if e["action"] == "search")
        assert (search["channel"], search["principal"], search["tenant"]) == (
            "mcp", principal, "firm-a")  # fmt: skip
        assert search["ids"] == [p["key"] for p in mine["passages"]] + [
            s["key"] for s in mine["sections"]
        ]
        read = next(e for e in events if e["action"] == "related")
        assert read["ids"] == [doc] and read["section"] == S + "26"
        assert _audit_count(stack, "firm-a", "search") == searches + 1
        theirs, their_related = anyio.run(_mcp_calls, stack, "b-admin", calls)
        assert theirs["passages"] == [] and their_related["documents"] == []
        # Without a key the endpoint is closed, as /v1 is.
        bare = stack.client.post(stack.url + "/mcp", json={"jsonrpc": "2.0", "id": 1,
                                                            "method": "tools/list"})  # fmt: skip
        assert bare.status_code == 401
    finally:
        stack.client.delete(f"{stack.url}/v1/documents/{doc}", headers=_headers("a-admin"))
