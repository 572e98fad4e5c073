"""`as_of` over HTTP: the API under uvicorn on the PDPA and its two royal decrees
(data/th-pdpa-2562/decrees/), ingested into a real Neo4j server and the embedded vectors,
as `./run.sh` loads them."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from services.core.neo4j_local import LocalNeo4j, free_port
from tests.live_stack import PDPA, REPO, empty_store, ingest_inline, stack_env, start_api, stop

pytestmark = [pytest.mark.e2e, pytest.mark.integration]

LAW = "th-pdpa-2562"
DECREE_2563 = "th-pdpa-2562-rd-2563-cfe899"
DECREE_2566 = "th-pdpa-2562-rd-2566-0a81ad"
DECREES = REPO / "data" / "th-pdpa-2562" / "decrees"
QUESTION = "บริษัทเก็บข้อมูลสุขภาพของพนักงานโดยไม่ได้รับความยินยอม มีโทษอย่างไร"


@pytest.fixture(scope="module")
def api(neo4j_server: LocalNeo4j, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("as-of-stack")
    port = free_port()
    env = stack_env(root, neo4j_server, LEXGRAPH_API_PORT=str(port))
    empty_store(neo4j_server).close()
    report = ingest_inline(env, PDPA, DECREES)
    assert report.ok, report.errors
    proc = start_api(root, env, port)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(proc)


def _decrees(effects: list[dict[str, object]]) -> set[object]:
    return {effect["law"] for effect in effects}


def test_section_84_as_of_2021_comes_with_the_2563_decree(api: str) -> None:
    then = httpx.get(f"{api}/v1/laws/{LAW}/sections/84", params={"as_of": "2021-06-01"})
    assert then.status_code == 200, then.text
    body = then.json()
    assert body["as_of"] == "2021-06-01" and body["in_force"] is True
    assert DECREE_2563 in _decrees(body["applicability"])
    later = httpx.get(f"{api}/v1/laws/{LAW}/sections/84", params={"as_of": "2023-01-01"}).json()
    assert DECREE_2563 not in _decrees(later["applicability"])


def test_search_as_of_marks_the_penalty_section_with_the_decree_of_that_day(api: str) -> None:
    body = {"query": QUESTION, "laws": [LAW], "as_of": "2021-06-01"}
    found = httpx.post(f"{api}/v1/search", json=body, timeout=60)
    assert found.status_code == 200, found.text
    s84 = next(s for s in found.json()["sections"] if s["key"] == f"{LAW}:s:84")
    assert DECREE_2563 in _decrees(s84["applicability"])
    today = httpx.post(f"{api}/v1/search", json={**body, "as_of": None}, timeout=60).json()
    assert all(DECREE_2563 not in _decrees(s["applicability"]) for s in today["sections"])


def test_history_and_related_list_the_decrees_with_their_dates(api: str) -> None:
    history = httpx.get(f"{api}/v1/laws/{LAW}/sections/4/history")
    assert history.status_code == 200, history.text
    issued = {x["law"]: x for x in history.json()["issued_under"]}
    assert issued[DECREE_2563]["valid_to"] == "2022-05-31"
    assert issued[DECREE_2566]["not_before"] == "2023-01-01"
    related = httpx.get(f"{api}/v1/laws/{LAW}/sections/4/related", params={"as_of": "2024-01-01"})
    assert [x["key"] for x in related.json()["issued_under"]] == [DECREE_2566]


@pytest.mark.parametrize("bad", ["2021-13-01", "1 June 2021", "0"])
def test_a_bad_as_of_is_a_422_naming_the_field(api: str, bad: str) -> None:
    r = httpx.get(f"{api}/v1/laws/{LAW}/sections/84", params={"as_of": bad})
    assert r.status_code == 422 and "as_of" in r.text
    r = httpx.post(f"{api}/v1/search", json={"query": QUESTION, "as_of": bad}, timeout=60)
    assert r.status_code == 422 and "as_of" in r.text
