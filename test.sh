#!/usr/bin/env bash
# The whole test suite: unit, integration (a real Neo4j 5.26, Redis, ... started by the tests
# themselves on free 127.0.0.1 ports) and end-to-end (the API, Neo4j Browser in headless
# Chromium). Installs what the tests need first: Debian packages when missing (Java, Maven,
# Chromium and fonts, ...), the Python dev and bge extras into .venv, Neo4j's jars (Maven,
# once: `lexgraph stack build`), the npm packages of the Cypher linter and of the Browser
# test. Extra arguments go to pytest (e.g. ./test.sh tests/unit -k export).
set -euo pipefail
cd "$(dirname "$0")"

# --- system packages (redis-server, prometheus, docker-compose; Node.js for the linter) ---
missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
command -v prometheus >/dev/null || missing+=(prometheus)
command -v docker-compose >/dev/null || missing+=(docker-compose)
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
command -v javac >/dev/null || missing+=(openjdk-17-jdk-headless)  # javac: the launcher is compiled
command -v mvn >/dev/null || missing+=(maven)
[ -x /usr/bin/chromium ] || missing+=(chromium)
# Thai and Latin glyphs for the Browser screenshot (Chromium draws tofu without them).
[ -d /usr/share/fonts/truetype/noto ] || missing+=(fonts-noto-core)
[ -d /usr/share/fonts/truetype/tlwg ] || missing+=(fonts-thai-tlwg)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# --- Python ------------------------------------------------------------------------------
PYTHON="${PYTHON:-python3.11}"
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.lexgraph-install-dev
wanted="$(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  # pip's build backend is chatty even with --quiet: keep its log, show it on failure.
  # torch first, pinned: where a CPU wheel lies in pip's find-links it takes that one; where
  # none does (this machine kind: /opt/wheels is empty) it is PyPI's default Linux build
  # with its CUDA wheels, 4.7 GB, measured 249 s to install into a fresh venv (2026-12-02).
  # The `bge` extra lets the tests run the real BGE-M3 loading code on a tiny model.
  if ! { .venv/bin/python -m pip install --quiet --upgrade pip \
         && .venv/bin/python -m pip install --quiet torch==2.13.0 \
         && .venv/bin/python -m pip install --quiet -e '.[dev,bge]'; } > .venv/pip-install.log 2>&1; then
    cat .venv/pip-install.log >&2
    exit 1
  fi
  echo "$wanted" > "$stamp"
fi

# --- Neo4j 5.26 Community: its jars from the Maven registry, once (then offline) ---------
.venv/bin/lexgraph stack build

# --- npm: the Cypher linter (Neo4j's parser) and the Browser test (playwright-core) ----------
for npm_dir in tools/cypher-lint tests/e2e/browser; do
  if [ ! -f "$npm_dir/node_modules/.package-lock.json" ] \
     || [ "$npm_dir/package-lock.json" -nt "$npm_dir/node_modules/.package-lock.json" ]; then
    (cd "$npm_dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
done

# --- tests ---------------------------------------------------------------------------------
.venv/bin/ruff check .
.venv/bin/mypy
status=0
.venv/bin/python -m pytest -q "$@" || status=$?
if [ "$status" -eq 5 ]; then
  echo "test.sh: pytest collected no tests; that is a failure" >&2
fi
exit "$status"
