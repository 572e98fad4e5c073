#!/usr/bin/env bash
# Quick start on one machine, no Docker: install lexgraph into .venv, start the local
# Neo4j 5.26 server (lexgraph stack up; its jars come from the Maven registry the first
# time, Java 17 and Maven needed), ingest the bundled Thai PDPA and its two royal
# decrees, then serve the API on 127.0.0.1 (Ctrl-C stops the API; `.venv/bin/lexgraph
# stack down` stops Neo4j). Neo4j Browser, with a guide through the PDPA: `lexgraph stack
# status` prints its address.
set -euo pipefail
cd "$(dirname "$0")"

# The local Neo4j's launcher is compiled and its jars fetched with Maven (once).
missing=()
command -v javac >/dev/null || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || missing+=(maven)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

PYTHON="${PYTHON:-python3.11}"
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
# Re-install only when the project metadata changed since the last install.
stamp=.venv/.lexgraph-install
wanted="$(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  # pip's build backend is chatty even with --quiet: keep its log, show it on failure.
  if ! { .venv/bin/python -m pip install --quiet --upgrade pip \
         && .venv/bin/python -m pip install --quiet -e .; } > .venv/pip-install.log 2>&1; then
    cat .venv/pip-install.log >&2
    exit 1
  fi
  echo "$wanted" > "$stamp"
fi

.venv/bin/lexgraph stack up
.venv/bin/lexgraph ingest data/th-pdpa-2562/about.md data/th-pdpa-2562/decrees/
exec .venv/bin/lexgraph serve
