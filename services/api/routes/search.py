"""POST /v1/search: the question in, the sections to read (with their graph paths) out."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter

from services.api import audit
from services.api.deps import AccessDep, ClientsDep, SearchAdmissionDep
from services.api.problems import BODY_PROBLEMS, problem_responses
from services.api.schemas import SearchRequest, SearchResponse
from services.core import documents, retrieval

router = APIRouter(prefix="/v1", tags=["search"])


@router.post(
    "/search",
    response_model=SearchResponse,
    responses=problem_responses(*BODY_PROBLEMS, 404, 429, 503),
    summary="Hybrid vector seeding + a two-hop walk of the citation graph",
)
async def search(
    body: SearchRequest, clients: ClientsDep, admission: SearchAdmissionDep, access: AccessDep
) -> dict[str, Any]:
    """Seeds from hybrid (dense + sparse, RRF) search over section chunks and graph
    profiles plus sections the question names, walks at most `max_hops` hops of typed
    relationships (citations, penalties, definitions, exemptions) in both directions, and
    ranks what it reached by what the question asks for. Every section carries its text,
    score and the path by which it was reached. A process runs a bounded number of
    searches at once and queues a few more; beyond that the answer is 429 with
    Retry-After (LEXGRAPH_SEARCH_CONCURRENCY, _QUEUE, _QUEUE_WAIT_S).

    Beside the sections, `passages` holds the caller's visible passages of its firm's
    documents (services/core/documents.py): those the question's words find (the
    caller's tenant and groups filter every vector prefetch) and those citing a section
    returned (the same scope in the Cypher). Every search is audited."""

    def answer() -> dict[str, Any]:
        result = retrieval.search(
            body.query,
            graph=clients.graph,
            vectors=clients.vectors,
            embedder=clients.embedder,
            settings=clients.settings,
            laws=body.laws,
            top_k=body.top_k,
            max_hops=body.max_hops,
            mode=body.mode,
            explain=body.explain,
            keywords=clients.keywords,
            as_of=body.as_of,
            jurisdictions=body.jurisdictions,
        )
        passages = documents.find_passages(
            result.query,
            [(s.key, s.label) for s in result.sections],
            access=access,
            stores=documents.Stores.of(clients.graph, clients.vectors, clients.embedder),
            limit=body.top_k,
        )
        return asdict(result) | {"passages": passages}

    found = await admission.run(answer, timeout_s=clients.settings.store_timeout_s)
    ids = [p["key"] for p in found["passages"]] + [s["key"] for s in found["sections"]]
    audit.record("search", access, ids=ids)
    return found
