"""Request and response bodies of the public API (they make the OpenAPI document)."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StrictBool
from pydantic.json_schema import SkipJsonSchema

# Generous transport limits; the semantic limits (query length after cleaning, top_k,
# max_hops) are checked by the core so that the API, the CLI and MCP say the same thing.
MAX_QUERY_BYTES = 100_000
MAX_LAW_ID_CHARS = 200


def _utf8_text(value: str) -> str:
    """JSON lets a string hold a lone UTF-16 surrogate ("\\ud800"), which no UTF-8
    consumer (the Bolt driver, Redis, a file name) accepts: refuse it here, by field."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError(
            f"must be Unicode text; character {e.start} is a lone surrogate "
            f"(U+{ord(value[e.start]):04X})"
        ) from None
    return value


def _integer(value: Any) -> Any:
    """A JSON integer, or a number with nothing after the point (JSON Schema's "integer"
    includes 2.0); never true/false, a string or 2.5 (pydantic's lax mode took `false`
    as 0 and "2" as 2)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("must be an integer")
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError("must be an integer")
        return int(value)
    return value


def _iso_day(value: str) -> str:
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise ValueError("must be a calendar date as YYYY-MM-DD") from None


Text = Annotated[str, AfterValidator(_utf8_text)]
# A day as YYYY-MM-DD and nothing else (pydantic's lax `date` took 0 as 1970-01-01).
IsoDay = Annotated[
    str,
    Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", json_schema_extra={"format": "date"}),
    AfterValidator(_iso_day),
]
Integer = Annotated[int, BeforeValidator(_integer)]
LawIdText = Annotated[Text, Field(min_length=1, max_length=MAX_LAW_ID_CHARS)]
# A law's jurisdiction as the readers write it: "TH", "EU", "SG", "JP"
JurisdictionCode = Annotated[str, Field(pattern=r"^[A-Za-z]{2,3}$")]


class SearchRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "query": "บริษัทเก็บข้อมูลสุขภาพของพนักงานได้ไหม ถ้าทำผิดมีโทษอะไร",
                    "laws": ["th-pdpa-2562"],
                    "top_k": 10,
                    "max_hops": 2,
                }
            ]
        },
    )

    query: Text = Field(
        description="The question in everyday Thai or English; may name sections "
        '("มาตรา ๒๖", "Section 26"). At most 8,000 characters (LEXGRAPH_MAX_QUERY_CHARS).',
        max_length=MAX_QUERY_BYTES,
    )
    laws: list[LawIdText] | None = Field(
        default=None,
        max_length=50,
        description="Law ids to search in; all published laws if omitted.",
    )
    jurisdictions: list[JurisdictionCode] | None = Field(
        default=None,
        max_length=10,
        description='Search only the laws of these jurisdictions ("TH", "EU", "SG", "JP"; '
        "each law's `jurisdiction` in GET /v1/laws); with `laws`, the laws of both lists. "
        "A question that names no place can fit several countries' laws (an English question "
        "on consent fits the Thai PDPA, the GDPR and Singapore's PDPA alike): this says which.",
    )
    top_k: Integer = Field(default=10, ge=1, le=100, description="Sections to return.")
    max_hops: Integer = Field(default=2, ge=0, le=2, description="Graph hops from the seeds (0-2).")
    mode: Literal["graph", "hybrid", "dense", "bm25"] = Field(
        default="graph",
        description="graph: full pipeline; hybrid/dense/bm25: vector search only (for comparison).",
    )
    explain: StrictBool = Field(
        default=False,
        description="Add to every section and node the components of its score and the "
        "pipeline steps that set them (`explanation`).",
    )
    as_of: IsoDay | None = Field(
        default=None,
        description="Answer from the laws in force on this day (YYYY-MM-DD); today if omitted. "
        "Decrees in force then that keep a returned section from applying are listed in its "
        "`applicability`.",
    )


class PathStep(BaseModel):
    hop: int
    type: str
    direction: Literal["out", "in"] = Field(
        description="out: the edge points from the previous node to this one; in: the reverse."
    )
    key: str
    label: str


class Applicability(BaseModel):
    source: str = Field(
        description='The decree\'s provision, e.g. "th-pdpa-2562-rd-2563-cfe899:s:3".'
    )
    source_label: str | None = None
    law: str = Field(description="The decree's law id.")
    law_title: str | None = None
    law_kind: str | None = Field(default=None, description='"royal_decree", ...')
    via: str = Field(description="What the decree names: this section, or its chapter or part.")
    via_label: str | None = None
    scope: str | None = Field(default=None, description="To whom it does not apply, as printed.")
    valid_from: str | None = Field(default=None, description="First day, where the text gives it.")
    valid_to: str | None = Field(default=None, description="Last day, where it has one.")
    not_before: str | None = Field(
        default=None, description="valid_from, else the earliest day it can have started."
    )


class ContextItemOut(BaseModel):
    key: str = Field(description='Stable citation id, e.g. "th-pdpa-2562:s:84".')
    law: str
    kind: str = Field(description="section, definition, penalty, exemption, external_law, ...")
    label: str = Field(description='Display label, e.g. "มาตรา ๘๔".')
    number: str | None = None
    title: str | None = None
    text: str
    full_text: bool = Field(
        description="False when the text is an excerpt (beyond the full-text cap)."
    )
    score: float
    hops: int
    reached: str = Field(
        description='How it was reached: "[hop1][PENALIZES] มาตรา ๘๔" or "[seed][vector] …".'
    )
    path: str = Field(
        description='The chain from the seed, edge directions kept: "มาตรา ๒๖ <-[PENALIZES]- มาตรา ๘๔".'
    )
    steps: list[PathStep]
    seed: str | None = None
    version: str | None = None
    sources: list[str] = Field(
        description='What found it: "chunks" or "profiles" (vector search), "named_law" (the '
        'chunks of a law the question names), "placed" (the chunks of the laws of a '
        'jurisdiction it names), "asking" (the chunks that match what a long '
        'question asks), "english" (an English law\'s paragraphs by the English model), '
        '"citation" (the question cites it), "graph".'
    )
    explanation: dict[str, Any] | None = Field(
        default=None,
        description='With "explain": the score, the formula that combines its components '
        "(vector, law_focus, seed, companion, walk, follows, bonus), the rank it had in each "
        "vector list (0-based; dense and lexical: the chunk list's two halves searched "
        "apart) and the trace of the steps that touched it.",
    )
    applicability: list[Applicability] = Field(
        default_factory=list,
        description="Decrees in force on the day asked that keep this section (or its "
        "chapter or part) from applying, to whom, and for how long.",
    )


class SeedOut(BaseModel):
    key: str
    law: str
    source: str = Field(
        description='"citation" (the question names it), "clause" (cited by a clause the '
        'question names, e.g. "section 23(6)") or "vector".'
    )
    score: float
    label: str = ""
    hops: int = Field(default=2, description="How far the walk went from it: 2, or 1 (anchor).")
    kind: str = "section"
    certain: bool = Field(
        default=True,
        description="For a citation: false when the question names no law and several are "
        "loaded, so the law is a guess from where the vector hits landed.",
    )


class SearchResponse(BaseModel):
    query: str
    mode: str
    sections: list[ContextItemOut]
    nodes: list[ContextItemOut] = Field(
        description="Penalties, definitions, exemptions the walk reached."
    )
    seeds: list[SeedOut]
    keywords: list[str]
    citations: list[str] = Field(description="Sections the question names explicitly.")
    intents: list[str]
    index_versions: dict[str, str] = Field(
        description="law id -> index version the answer comes from."
    )
    timings_ms: dict[str, float]
    as_of: str = Field(description="The day the laws were read as of.")
    laws: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Graph mode over several laws: which laws the question is about, each "
        "with its routing probability, whether it was chosen (searched in a list of its own) "
        "and the features that gave it (its share of the vector evidence, whether it is "
        "named, whether its jurisdiction is).",
    )
    passages: list[PassageHit] = Field(
        default_factory=list,
        description="The caller's visible passages of its firm's documents, beside the "
        "sections: found by the question's words or citing a section returned, each with "
        "the path that reached it.",
    )


class LawOut(BaseModel):
    model_config = ConfigDict(extra="allow")

    law: str
    version: str
    title: str | None = None


class LawsResponse(BaseModel):
    laws: list[LawOut]


class CitedSection(BaseModel):
    key: str
    number: str | None = None
    label: str | None = None
    cited_by: int


class LawSummary(BaseModel):
    law: str
    version: str
    nodes: dict[str, int]
    edges: dict[str, int]
    most_cited: list[CitedSection]


class Division(BaseModel):
    kind: str
    key: str | None = None
    label: str | None = None
    title: str | None = None


class SectionText(BaseModel):
    key: str
    law: str
    number: str | None = None
    label: str | None = None
    title: str | None = None
    text: str
    version: str | None = None
    division: Division | None = None
    as_of: str
    in_force: bool = Field(description="Whether the section's law is in force on `as_of`.")
    applicability: list[Applicability]


class HistoryVersion(BaseModel):
    version: str | None = None
    published: bool = Field(description="Whether this is the law's latest text.")
    source: str | None = None
    valid_from: str | None = None
    valid_to: str | None = None
    not_before: str | None = None
    commencement: str | None = Field(default=None, description="The commencement text.")
    text: str | None = Field(
        default=None, description="The section's text in this version; null where it has none."
    )
    changed: bool = Field(
        default=False, description="Whether the text differs from the version before."
    )


class SectionHistory(BaseModel):
    key: str
    law: str
    label: str | None = None
    versions: list[HistoryVersion] = Field(
        description="The section's text in each kept version of its law, oldest first, with "
        "the days it applied (a version ingested with `valid_from` closes the one before)."
    )
    amended_by: list[dict[str, Any]] = Field(
        description="The acts that amended, inserted or repealed this section (`changed`: "
        "'section'), as a marker in a consolidated text says, and those that changed its law "
        "(`changed`: 'law', e.g. an act OCS appends to the text), each with its markers."
    )
    issued_under: list[dict[str, Any]] = Field(
        description="Regulations issued under this section, with their kind and dates."
    )
    effects: list[Applicability] = Field(
        description="Every decree that keeps this section from applying, whatever the day."
    )


class Related(BaseModel):
    key: str
    law: str
    outgoing: dict[str, list[dict[str, Any]]] = Field(
        description="relationship type -> nodes this section points to"
    )
    incoming: dict[str, list[dict[str, Any]]] = Field(
        description="relationship type -> nodes pointing to this section"
    )
    as_of: str
    issued_under: list[dict[str, Any]] = Field(
        description="Regulations in force on `as_of` issued under this section."
    )
    amended_by: list[dict[str, Any]] = Field(
        default_factory=list,
        description="The acts that amended, inserted or repealed this section (`change`), "
        "as a marker in a consolidated text says, with the markers.",
    )
    applicability: list[Applicability]
    documents: list[CitingDocument] = Field(
        default_factory=list, description="The caller's visible documents citing this section."
    )


class PenaltySection(BaseModel):
    key: str
    label: str | None = None
    law: str | None = None
    text: str
    hops: int | None = None
    path: str | None = None
    penalties: list[dict[str, Any]]
    applicability: list[Applicability]


class Penalties(BaseModel):
    key: str
    law: str
    as_of: str
    penalty_sections: list[PenaltySection]


class Health(BaseModel):
    status: str


class GraphServer(BaseModel):
    backend: str
    server: str | None = Field(
        None, description="what the server reports: product, version, edition"
    )


class Readiness(BaseModel):
    status: str
    checks: dict[str, str]
    graph: GraphServer | None = None


# --- bulk ingestion jobs ----------------------------------------------------------------

SourcePath = Annotated[Text, Field(min_length=1, max_length=4096)]


class IngestPaths(BaseModel):
    """`POST /v1/jobs/ingest` as JSON: files or folders under the server's source roots."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"paths": ["th-pdpa-2562/about.md"]}]},
    )

    paths: list[SourcePath] = Field(
        min_length=1,
        max_length=1000,
        description="Files or folders under a configured source root (LEXGRAPH_SOURCE_ROOTS): "
        "relative to a root (looked up under each in turn) or absolute under one. Folders "
        "expand to their .md .txt .json .jsonl files. Anything else is 403.",
    )
    valid_from: IsoDay | None = Field(
        default=None,
        description="The day these texts apply from: a law's earlier text is kept as the "
        "version before it (without it, a changed text replaces the latest version).",
    )


class IngestUpload(BaseModel):
    """`POST /v1/jobs/ingest` as multipart/form-data (the OpenAPI document's request body;
    the route reads the form itself, to stream the files to disk)."""

    files: list[bytes] = Field(
        min_length=1,
        description="One or more statute files, at most LEXGRAPH_MAX_UPLOAD_BYTES in all.",
    )
    # a form field is text: absent, or a day (never null)
    valid_from: IsoDay | SkipJsonSchema[None] = Field(
        default=None, description="As for the JSON body: the day these texts apply from."
    )


class JobLaws(BaseModel):
    total: int
    done: int = Field(description="Succeeded or unchanged.")
    unchanged: int
    failed: int
    cancelled: int


class JobSections(BaseModel):
    total: int
    done: int


class JobLawEntry(BaseModel):
    law_id: str
    status: Literal["pending", "running", "succeeded", "unchanged", "failed", "cancelled"]
    source: str = Field(description="The source's path under its root, or the upload's name.")
    sections: int
    version: str | None = None
    error: str | None = None


class JobOut(BaseModel):
    id: str
    state: Literal["queued", "running", "succeeded", "failed", "cancelled"]
    sources: list[str] = Field(
        description="Each source's path relative to its source root, or the upload's name."
    )
    created_at: float
    started_at: float | None = None
    finished_at: float | None = None
    laws: JobLaws
    sections: JobSections
    eta_s: float | None = None
    cancel_requested: bool
    retry_of: str | None = None
    error: str | None = None
    errors: dict[str, str] = Field(description="law id (or source:<file>) -> why it failed")
    valid_from: str | None = Field(
        default=None, description="The day the job's texts apply from, when it was given."
    )
    kind: Literal["laws", "document"] = Field(
        default="laws",
        description="laws (a bulk ingestion), or document (one upload of POST/PUT "
        "/v1/documents: its one law entry is the document, its sections its passages)",
    )
    document: dict[str, str] | None = Field(
        default=None, description="A document job's document: {id}."
    )
    links: dict[str, str] | None = None
    check: dict[str, Any] | None = Field(
        default=None,
        description="Once the job is final: its laws' cross-law citations in the graph "
        "against a fresh resolution (ok, expected/found per type, missing, extra, "
        "unpublished_targets, examples).",
    )
    law_entries: list[JobLawEntry] | None = Field(
        default=None, description="Every law of the job (with `?laws=true`)."
    )


class JobList(BaseModel):
    jobs: list[JobOut]


class DeadLetterOut(BaseModel):
    job_id: str
    law_id: str
    source: str
    error: str
    at: float


class DeadLetters(BaseModel):
    dead_letters: list[DeadLetterOut]


# --- a firm's documents (services/core/documents.py) --------------------------------------


class CitedStatute(BaseModel):
    key: str
    law: str | None = None
    label: str | None = None
    cited_as: str | None = None


class PassageOut(BaseModel):
    key: str
    order: int
    label: str | None = None
    heading: str | None = None
    text: str
    cites: list[CitedStatute] = Field(description="Published sections the passage cites.")


class UnresolvedCitation(BaseModel):
    passage: str
    citation: str
    problem: str


class DocumentOut(BaseModel):
    id: str
    title: str | None = None
    date: str | None = None
    tenant: str | None = None
    scopes: list[str] = Field(description='Groups that may see it; "@tenant": the whole tenant.')
    format: str | None = None
    filename: str | None = None
    sha256: str | None = None
    passages: list[PassageOut]
    created: bool | None = None
    changed: bool | None = None
    unresolved: list[UnresolvedCitation] | None = None


class DocumentDeleted(BaseModel):
    id: str
    deleted: bool
    passages: int


class PassageHit(BaseModel):
    kind: str = Field(default="passage", description="Always passage (sections are sections).")
    key: str
    document: str
    title: str | None = None
    date: str | None = None
    label: str | None = None
    text: str
    score: float
    reached: str = Field(description="vector (the question's words) or cites (a section's)")
    path: str = Field(description='The best path, e.g. "มาตรา ๒๖ <-[CITES]- Policy 4.2".')
    paths: list[str]


class CitingDocument(BaseModel):
    document: str
    title: str | None = None
    date: str | None = None
    passages: list[dict[str, Any]]
