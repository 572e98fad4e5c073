"""The optional LLM step against a local stand-in for an OpenAI-compatible server
(tests/llm_stub.py, a real HTTP server process), with the PDPA on the real graph server and
the embedded vector index: its keywords join the search, its intents join those the
question's words say, and a server that fails leaves the deterministic search as it is.
"""

from __future__ import annotations

import json
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from services.core import retrieval
from services.core.embedding import OfflineEmbedder
from services.core.ingestion import ingest_paths
from services.core.llm import LLMKeywords
from services.core.neo4j_local import LocalNeo4j, free_port
from services.core.settings import REPO_ROOT, Settings
from services.core.vector_index import EdgeVectorIndex
from tests.live_stack import PDPA, empty_store, spawn, stop, wait_for

pytestmark = pytest.mark.integration

# Health data kept without asking: a penalty question whose words name no penalty.
QUESTION = "บริษัทเก็บข้อมูลสุขภาพของลูกค้าไว้โดยไม่ได้ขอ"
REPLY = {"keywords": ["ข้อมูลส่วนบุคคลที่อ่อนไหว", "โทษทางอาญา"], "intents": ["penalty"]}


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture(scope="module")
def stack(
    neo4j_server: LocalNeo4j, graph_settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    graph = empty_store(neo4j_server)
    vectors = EdgeVectorIndex(
        tmp_path_factory.mktemp("vectors"), dense_weight=graph_settings.hybrid_dense_weight
    )
    try:
        assert ingest_paths([PDPA], graph=graph, vectors=vectors, embedder=OfflineEmbedder()).ok
        yield {"graph": graph, "vectors": vectors, "settings": graph_settings}
    finally:
        vectors.close()
        graph.close()


def _stub(folder: Path, status: int = 200) -> tuple[Any, int, Path]:
    reply, log = folder / "reply.json", folder / "requests.jsonl"
    reply.write_text(json.dumps(REPLY, ensure_ascii=False), encoding="utf-8")
    port = free_port()
    proc = spawn(
        [sys.executable, str(REPO_ROOT / "tests" / "llm_stub.py"), str(port), str(reply),
         str(log), str(status)],
        env={"PATH": "/usr/bin:/bin"}, cwd=REPO_ROOT, log=folder / "stub.log",
    )  # fmt: skip
    wait_for(lambda: _listening(port), 20, "the LLM stub")
    return proc, port, log


def _search(stack: dict[str, Any], keywords: LLMKeywords | None) -> retrieval.SearchResult:
    return retrieval.search(
        QUESTION,
        graph=stack["graph"],
        vectors=stack["vectors"],
        embedder=OfflineEmbedder(),
        settings=stack["settings"],
        keywords=keywords,
    )


def test_the_llm_s_keywords_and_intents_join_the_search(
    stack: dict[str, Any], tmp_path: Path
) -> None:
    plain = _search(stack, None)
    assert "penalty" not in plain.intents  # nothing in its words or meaning says penalty
    proc, port, log = _stub(tmp_path)
    try:
        settings = Settings(
            llm_keywords_url=f"http://127.0.0.1:{port}/v1", llm_keywords_model="stub-model"
        )
        llm = LLMKeywords(settings)
        result = _search(stack, llm)
        llm.close()
    finally:
        stop(proc)
    [request] = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert request["body"]["model"] == "stub-model"
    assert request["body"]["messages"][-1]["content"] == QUESTION
    assert set(REPLY["keywords"]) <= set(result.keywords)
    assert "penalty" in result.intents
    keys = [item.key for item in result.sections]
    assert "th-pdpa-2562:s:26" in keys  # the duty, and now what punishes it
    assert any(key in keys for key in ("th-pdpa-2562:s:79", "th-pdpa-2562:s:83")), keys


def test_a_failing_llm_server_leaves_the_search_as_without_it(
    stack: dict[str, Any], tmp_path: Path
) -> None:
    proc, port, log = _stub(tmp_path, status=500)
    try:
        llm = LLMKeywords(Settings(llm_keywords_url=f"http://127.0.0.1:{port}/v1"))
        result = _search(stack, llm)
        llm.close()
    finally:
        stop(proc)
    assert log.read_text(encoding="utf-8").count("\n") == 1  # it was asked, once
    plain = _search(stack, None)
    assert [i.key for i in result.sections] == [i.key for i in plain.sections]
    assert result.intents == plain.intents
