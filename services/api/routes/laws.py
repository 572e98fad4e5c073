"""GET /v1/laws...: the published laws, their structure, one section's text, its links
and the penalties for breaking it. Deterministic: the same index version, the same answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Path, Query

from services.api import audit
from services.api.deps import AccessDep, ClientsDep, call_store
from services.api.problems import problem_responses
from services.api.schemas import (
    IsoDay,
    LawsResponse,
    LawSummary,
    Penalties,
    Related,
    SectionHistory,
    SectionText,
)
from services.core import documents
from services.core.errors import InvalidQuery, NotFound
from services.core.retrieval import lookups

router = APIRouter(prefix="/v1/laws", tags=["laws"])
T = TypeVar("T")

LawId = Annotated[
    str, Path(description='Law id, e.g. "th-pdpa-2562"', max_length=200, examples=["th-pdpa-2562"])
]
# What the schema promises is what is checked here (422 otherwise): at most 40 characters
# (the core's limit) and no control characters. Text within that which names no section
# of the law ("abc", "-") is a 404, like a number the law does not have.
SectionNumber = Annotated[
    str,
    Path(
        description='Section number: "26", "๒๖", "26/1", "มาตรา ๒๖"',
        max_length=40,
        pattern=r"^[^\u0000-\u001f\u007f]+$",
        examples=["26"],
    ),
]

AsOf = Annotated[
    IsoDay | None,
    Query(description="Read the law as in force on this day (YYYY-MM-DD); today if omitted."),
]


def _section(law: str, section: str, lookup: Callable[[], T]) -> Callable[[], T]:
    """`lookup`, with a section text that is no section number answered as not found."""

    def run() -> T:
        try:
            return lookup()
        except InvalidQuery as e:
            if e.field != "section":
                raise
            raise NotFound(
                f"law {law} has no section {section[:50]!r} (a section number looks like "
                "26, ๒๖, 26/1 or มาตรา ๒๖)"
            ) from e

    return run


@router.get("", response_model=LawsResponse, responses=problem_responses(503))
async def list_laws(clients: ClientsDep) -> dict[str, Any]:
    """Every published law with its index version."""
    laws = await call_store(clients.settings, lambda: lookups.list_laws(clients.graph))
    return {"laws": laws}


@router.get(
    "/{law}/summary", response_model=LawSummary, responses=problem_responses(404, 422, 503)
)
async def law_summary(law: LawId, clients: ClientsDep) -> dict[str, Any]:
    """Node counts by label, relationship counts by type, the most-cited sections."""
    return await call_store(clients.settings, lambda: lookups.law_summary(clients.graph, law))


# The sub-resources come before the plain section route: a section number may contain
# "/" ("26/1"), so `{section:path}` would otherwise swallow "/related".
@router.get(
    "/{law}/sections/{section:path}/related",
    response_model=Related,
    responses=problem_responses(404, 422, 503),
)
async def related(
    law: LawId,
    section: SectionNumber,
    clients: ClientsDep,
    access: AccessDep,
    as_of: AsOf = None,
) -> dict[str, Any]:
    """What the section cites, what cites it, the terms it defines or uses, the
    exemptions it grants: in- and out-edges grouped by relationship type; and
    `documents`, the caller's visible documents citing it (audited)."""

    def lookup() -> dict[str, Any]:
        found = lookups.related_sections(clients.graph, law, section, as_of)
        rows = documents.citing_passages([found["key"]], access=access, graph=clients.graph)
        return found | {"documents": documents.by_document(rows)}

    found = await call_store(clients.settings, _section(law, section, lookup))
    audit.record("related", access, ids=[d["document"] for d in found["documents"]],
                 section=found["key"])  # fmt: skip
    return found


@router.get(
    "/{law}/sections/{section:path}/history",
    response_model=SectionHistory,
    responses=problem_responses(404, 422, 503),
)
async def history(law: LawId, section: SectionNumber, clients: ClientsDep) -> dict[str, Any]:
    """The section's versions with their dates, the regulations issued under it, and every
    decree that kept it from applying, with each one's period."""
    return await call_store(
        clients.settings,
        _section(law, section, lambda: lookups.section_history(clients.graph, law, section)),
    )


@router.get(
    "/{law}/sections/{section:path}/penalties",
    response_model=Penalties,
    responses=problem_responses(404, 422, 503),
)
async def penalties(
    law: LawId, section: SectionNumber, clients: ClientsDep, as_of: AsOf = None
) -> dict[str, Any]:
    """Penalties for violating this section: the penalty sections that punish a breach of
    it (directly, or through a section that cites it) and their Penalty nodes, within 3
    hops. Pass the violated section (26), not the penalty section (84)."""
    return await call_store(
        clients.settings,
        _section(
            law,
            section,
            lambda: lookups.section_penalties(clients.graph, law, section, as_of),
        ),
    )


@router.get(
    "/{law}/sections/{section:path}",
    response_model=SectionText,
    responses=problem_responses(404, 422, 503),
)
async def section_text(
    law: LawId, section: SectionNumber, clients: ClientsDep, as_of: AsOf = None
) -> dict[str, Any]:
    """The full text of one section, with the chapter or part that contains it."""
    return await call_store(
        clients.settings,
        _section(law, section, lambda: lookups.section_text(clients.graph, law, section, as_of)),
    )
