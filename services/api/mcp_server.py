"""The retrieval tools over MCP (streamable HTTP, stateless) at `/mcp` on the API app.

An agent connects with any MCP client (`Accept: application/json, text/event-stream`) and
gets five tools. Their docstrings are the agent's manual, read before every decision (seed
article, step 5), so they state the workflow: `search` first, then walk the graph with
`get_related_sections` / `get_penalties`, and read `get_section_text` before citing.

The server retrieves; the agent reasons. Tools return JSON objects (also as text content,
so `jq '.result.content[0].text | fromjson'` works) and raise `ToolError` with a hint the
agent can act on when a key is unknown or a store is down.

Scoped and audited as the HTTP routes are: the tools act for the principal of the
request's key (services/api/security.py puts it on the request; in development the
default tenant's admin), `search` returns that principal's visible passages of its firm's
documents beside the sections, `get_related_sections` the visible documents citing the
section, and both are audited (services/api/audit.py, `channel="mcp"`).

Stateless (`stateless_http=True`): no MCP session lives in a replica, so any API replica
behind the proxy can answer any request. The tools share the API's clients (built once in
its lifespan) through the `clients` callable given to `mount_mcp`.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import asdict, dataclass
from typing import Any

import anyio.to_thread
from fastapi import FastAPI
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.transport_security import TransportSecuritySettings
from starlette.requests import Request

from services.api import audit, metrics
from services.api.admission import SearchAdmission
from services.api.security import request_access
from services.core import documents, retrieval
from services.core.access import Principal
from services.core.analysis import KeywordSource
from services.core.errors import InvalidQuery, NotFound, Overloaded, StoreUnavailable
from services.core.ports import Embedder, GraphStore, VectorIndex
from services.core.retrieval import lookups
from services.core.settings import Settings

MCP_PATH = "/mcp"
_LOOPBACK = ("127.0.0.1", "localhost", "::1")

INSTRUCTIONS = """\
lexgraph retrieves statute text (Thai PDPA and other laws) together with the legal links
between sections: citations, penalties, definitions and exemptions. It does not answer;
you do, from the text it returns.
Workflow: 1) call `search` with the user's question (any language; "มาตรา ๒๖" or
"Section 26" may be named). 2) For each relevant section key, walk the graph:
`get_related_sections` for what it cites and what cites it, `get_penalties` with the
VIOLATED section's key for the penalties that apply. 3) Call `get_section_text` for every
section you will cite and quote from that text only. Cite sections by label and key, with
the index version. `get_law_summary` describes a law or lists the laws available.
"""


@dataclass(frozen=True)
class ToolClients:
    """What the tools need; the API passes the clients it built in its lifespan."""

    graph: GraphStore
    vectors: VectorIndex
    embedder: Embedder
    settings: Settings
    # The API's bound on concurrent searches, shared with POST /v1/search (None: no bound).
    admission: SearchAdmission | None = None
    keywords: KeywordSource | None = None  # the optional LLM keyword step


def build_mcp_server(clients: Callable[[], ToolClients]) -> MCPServer:
    server = _quietly_built_server()

    @server.tool()
    async def search(
        ctx: Context,
        question: str,
        laws: list[str] | None = None,
        top_k: int = 5,
        as_of: str | None = None,
        jurisdictions: list[str] | None = None,
    ) -> dict[str, Any]:
        """Search the statutes for a question; returns sections with their text, how each
        was reached in the citation graph, and related penalty/definition/exemption nodes;
        and `passages`, those of your firm's documents you may see that the question finds
        or that cite a section returned.

        ALWAYS call this first for any legal question. Then, for the sections found, call
        get_related_sections to follow citations and get_penalties (with the section that
        was violated) to find the penalties, and get_section_text before citing any section.

        Args:
            question: the question in the user's words, Thai or English.
            laws: optional law ids to search in (e.g. ["th-pdpa-2562"]); all laws if omitted.
            top_k: how many sections to return (1-20).
            as_of: the day of the facts (YYYY-MM-DD): the laws in force then, and the decrees
                that kept a section from applying then (each section's `applicability`);
                today if omitted.
            jurisdictions: optional jurisdiction codes to search in (e.g. ["TH"], ["EU"]);
                pass the user's country when the question does not name one, since a
                question on consent or marketing fits several countries' laws alike.
        """
        with _tool_call("search"):
            c = clients()
            access = _access(ctx)
            top_k = max(1, min(top_k, 20))

            def run() -> dict[str, Any]:
                result = retrieval.search(
                    question,
                    graph=c.graph,
                    vectors=c.vectors,
                    embedder=c.embedder,
                    settings=c.settings,
                    laws=laws,
                    top_k=top_k,
                    mode="graph",
                    keywords=c.keywords,
                    as_of=as_of,
                    jurisdictions=jurisdictions,
                )
                passages = documents.find_passages(
                    result.query,
                    [(s.key, s.label) for s in result.sections],
                    access=access,
                    stores=documents.Stores.of(c.graph, c.vectors, c.embedder),
                    limit=top_k,
                )
                return _search_payload(result) | {"passages": passages}

            if c.admission is None:
                payload = await anyio.to_thread.run_sync(run)
            else:
                payload = await c.admission.run(run, timeout_s=c.settings.store_timeout_s)
            ids = [p["key"] for p in payload["passages"]] + [s["key"] for s in payload["sections"]]
            audit.record("search", access, ids=ids, channel="mcp")
            return payload

    @server.tool()
    def get_section_text(
        section: str, law: str | None = None, as_of: str | None = None
    ) -> dict[str, Any]:
        """The full, exact text of one section, with its chapter/part and index version.

        Call this before you cite or quote a section: answer only from this text, never
        from a summary or a graph label. `section` is a key as search returns it
        ("th-pdpa-2562:s:26"), or a number ("26", "๒๖", "มาตรา ๒๖") together with `law`.
        `as_of` (YYYY-MM-DD, default today): whether its law was in force that day, and the
        decrees then in force that kept it from applying to some (`applicability`).
        """
        with _tool_call("get_section_text"):
            law_id, number = _section_ref(section, law)
            payload = lookups.section_text(clients().graph, law_id, number, as_of)
            payload["cite_as"] = (
                f"{payload.get('label')} ({payload.get('key')}, index version "
                f"{payload.get('version')})"
            )
            return payload

    @server.tool()
    def get_related_sections(
        ctx: Context, section: str, law: str | None = None, as_of: str | None = None
    ) -> dict[str, Any]:
        """The sections and nodes directly linked to one section, grouped by relationship
        type in both directions: what it cites (outgoing REFERENCES), what cites it
        (incoming REFERENCES/PENALIZES, e.g. penalty sections), the terms it defines or
        uses, the exemptions it grants; the acts that amended it (`amended_by`); and
        `documents`, your firm's documents you may see that cite it.

        Use it after search to walk the graph one hop at a time; follow the links that
        matter to the question, then read those sections with get_section_text.
        `section`: a key like "th-pdpa-2562:s:26", or a number together with `law`.
        `as_of` (YYYY-MM-DD, default today): only links to laws in force that day, and the
        regulations then in force issued under it (`issued_under`).
        """
        with _tool_call("get_related_sections"):
            law_id, number = _section_ref(section, law)
            access = _access(ctx)
            graph = clients().graph
            payload = lookups.related_sections(graph, law_id, number, as_of)
            rows = documents.citing_passages([payload["key"]], access=access, graph=graph)
            payload["documents"] = documents.by_document(rows)
            audit.record("related", access, ids=[d["document"] for d in payload["documents"]],
                         section=payload["key"], channel="mcp")  # fmt: skip
            payload["next_steps"] = (
                "Read the linked sections that matter with get_section_text before citing."
            )
            return payload

    @server.tool()
    def get_penalties(
        section: str, law: str | None = None, as_of: str | None = None
    ) -> dict[str, Any]:
        """The penalties that apply when a section is violated: the penalty sections that
        punish a breach of it (directly, or through a section that cites it), their Penalty
        nodes (kind, maximum fine, maximum prison term) and the path that links them.

        Pass the VIOLATED section, not the penalty section: "what is the penalty for
        breaking section 26" -> get_penalties("th-pdpa-2562:s:26"), not ...:s:84.
        Then read the penalty sections with get_section_text before citing them.
        `as_of` (YYYY-MM-DD, default today): the penalties in force that day, each with the
        decrees then in force that kept it from applying to some (`applicability`).
        """
        with _tool_call("get_penalties"):
            law_id, number = _section_ref(section, law)
            payload = lookups.section_penalties(clients().graph, law_id, number, as_of)
            payload["penalties_found"] = len(payload.get("penalty_sections", []))
            payload["next_steps"] = (
                "Read each penalty section with get_section_text before citing it."
            )
            return payload

    @server.tool()
    def get_section_history(section: str, law: str | None = None) -> dict[str, Any]:
        """A section's versions with their dates, the acts that amended it or its law
        (`amended_by`, with the markers that say so), the regulations issued under it and
        every decree that kept it from applying, with each one's period: for "what was the
        law on the date of the facts". `section`: a key, or a number together with `law`."""
        with _tool_call("get_section_history"):
            law_id, number = _section_ref(section, law)
            return lookups.section_history(clients().graph, law_id, number)

    @server.tool()
    def get_law_summary(law: str | None = None) -> dict[str, Any]:
        """What a law holds: its published index version, node and link counts by type, and
        its most-cited sections (good starting points). Without `law`: the laws available,
        with their ids (use them in search's `laws` filter and in the other tools).
        """
        with _tool_call("get_law_summary"):
            graph = clients().graph
            if not law:
                return {
                    "laws": lookups.list_laws(graph),
                    "next_steps": "Call search with a question; pass law ids in `laws`.",
                }
            return lookups.law_summary(graph, law)

    return server


def mount_mcp(app: FastAPI, clients: Callable[[], ToolClients], settings: Settings) -> MCPServer:
    """Serve the MCP tools at `/mcp` on `app` and run the MCP session manager inside the
    app's own lifespan (wrapped, so the app's startup and shutdown stay as they are)."""
    server = build_mcp_server(clients)
    sub_app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,
        json_response=True,
        transport_security=_transport_security(settings),
    )
    for route in sub_app.routes:
        app.router.routes.append(route)
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[Any]:
        async with inner(a) as state, server.session_manager.run():
            yield state

    app.router.lifespan_context = lifespan
    return server


# --- helpers ---------------------------------------------------------------------------


def _quietly_built_server() -> MCPServer:
    """The SDK's constructor calls `logging.basicConfig`; logging is configured only by
    entrypoints here, so a placeholder handler on the root logger makes that call a no-op."""
    root = logging.getLogger()
    placeholder = logging.NullHandler()
    root.addHandler(placeholder)
    try:
        return MCPServer("lexgraph", instructions=INSTRUCTIONS)
    finally:
        root.removeHandler(placeholder)


def _transport_security(settings: Settings) -> TransportSecuritySettings:
    """DNS-rebinding protection for a development server on loopback (a web page must not
    reach a local MCP server); in production the API keys guard /mcp and the proxy sets
    whatever Host the firm uses, so the host check is off."""
    if settings.environment == "development" and settings.api_host in _LOOPBACK:
        return TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=[
                "127.0.0.1:*",
                "localhost:*",
                "[::1]:*",
                "127.0.0.1",
                "localhost",
                "testserver",
            ],
            allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
        )
    return TransportSecuritySettings(enable_dns_rebinding_protection=False)


@contextmanager
def _tool_call(tool: str) -> Iterator[None]:
    """Count the call and turn lexgraph errors into messages the agent can act on."""
    try:
        yield
    except NotFound as e:
        metrics.record_tool_call(tool, ok=False)
        raise ToolError(
            f"not found: {e}. Use a key exactly as search returns it, e.g. "
            "'th-pdpa-2562:s:26'; call get_law_summary() to list law ids."
        ) from e
    except InvalidQuery as e:
        metrics.record_tool_call(tool, ok=False)
        raise ToolError(f"invalid argument {e.field}: {e.problem}") from e
    except StoreUnavailable as e:
        metrics.record_tool_call(tool, ok=False)
        raise ToolError(f"the index is temporarily unavailable ({e}); retry shortly") from e
    except Overloaded as e:
        metrics.record_tool_call(tool, ok=False)
        raise ToolError(f"the server is busy ({e}); retry in {e.retry_after_s} s") from e
    except Exception:
        metrics.record_tool_call(tool, ok=False)
        raise
    metrics.record_tool_call(tool, ok=True)


def _access(ctx: Context) -> Principal:
    """The principal of the HTTP request carrying this tool call (see the module doc)."""
    request = ctx.request_context.request
    if not isinstance(request, Request):  # served only over streamable HTTP (mount_mcp)
        raise ToolError(
            "lexgraph's tools are served over HTTP only; no request came with this call"
        )
    return request_access(request)


def _section_ref(section: str, law: str | None) -> tuple[str, str]:
    """(law id, section number) from a key "th-pdpa-2562:s:26" or from a number + law."""
    raw = section.strip()
    if ":s:" in raw:
        key_law, _, number = raw.partition(":s:")
        if law and law != key_law:
            raise InvalidQuery("law", f"{law!r} differs from the law of key {raw!r}")
        return key_law, number
    if not law:
        raise InvalidQuery(
            "section",
            f"{section!r} is not a section key like 'th-pdpa-2562:s:26'; "
            "pass a key, or the number together with `law`",
        )
    return law, raw


def _search_payload(result: retrieval.SearchResult) -> dict[str, Any]:
    def item(ci: retrieval.ContextItem) -> dict[str, Any]:
        d = asdict(ci)
        d.pop("steps", None)
        return {k: v for k, v in d.items() if v not in (None, "", ())}

    return {
        "query": result.query,
        "sections": [item(s) for s in result.sections],
        "related_nodes": [item(n) for n in result.nodes],
        "seeds": [asdict(s) for s in result.seeds],
        "keywords": result.keywords,
        "citations_in_question": result.citations,
        "index_versions": result.index_versions,
        "as_of": result.as_of,
        "next_steps": (
            "Walk the graph from the relevant sections (get_related_sections, get_penalties "
            "with the violated section) and read each section with get_section_text before "
            "citing it."
        ),
    }
