"""The production stack's files agree with each other and with the Settings.

`docker-compose config -q` (Debian's docker-compose 1.29 validates without an engine) must
accept the compose file, and every variable the Settings read (`LEXGRAPH_<field>`) must be
named in docker-compose.yml (passed to the api and worker), in .env.example, and nowhere
misspelt: a LEXGRAPH_* name that is not a Settings field fails the test.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from services.core.settings import REPO_ROOT, Settings

COMPOSE = REPO_ROOT / "docker-compose.yml"
DOCKERFILE = REPO_ROOT / "Dockerfile"
ENV_EXAMPLE = REPO_ROOT / ".env.example"
SETTING_VARS = {f"LEXGRAPH_{name.upper()}" for name in Settings.model_fields}
VAR_NAME = re.compile(r"\bLEXGRAPH_[A-Z0-9_]+\b")
# Secrets compose must refuse to start without.
REQUIRED_SECRETS = {
    "LEXGRAPH_GRAPH_PASSWORD",
    "LEXGRAPH_QDRANT_API_KEY",
    "LEXGRAPH_API_KEYS_SHA256",
    "GRAFANA_ADMIN_PASSWORD",
    "BGE_M3_DIR",
}

pytestmark = pytest.mark.integration


def _compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))


def _env_example() -> dict[str, str]:
    """Variables in .env.example, set or commented out (`# LEXGRAPH_X=...`)."""
    found: dict[str, str] = {}
    for line in ENV_EXAMPLE.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\s*#?\s*([A-Z][A-Z0-9_]*)=(.*)$", line)
        if m:
            found[m.group(1)] = m.group(2)
    return found


def _docker_compose() -> str:
    exe = shutil.which("docker-compose")
    if exe is None:
        pytest.skip("docker-compose is not installed (Debian package docker-compose)")
    return exe


def _run_config(env_file: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            _docker_compose(),
            "--project-directory",
            str(REPO_ROOT),
            "-f",
            str(COMPOSE),
            "--env-file",
            str(env_file),
            "config",
            "-q",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO_ROOT,
        env={"PATH": "/usr/bin:/bin"},
    )


def test_compose_file_is_valid_with_the_example_env() -> None:
    result = _run_config(ENV_EXAMPLE)
    assert result.returncode == 0, result.stderr


def test_compose_refuses_to_start_without_each_required_secret(tmp_path: Path) -> None:
    lines = ENV_EXAMPLE.read_text(encoding="utf-8").splitlines()
    for secret in sorted(REQUIRED_SECRETS):
        env_file = tmp_path / f"{secret}.env"
        env_file.write_text(
            "\n".join(line for line in lines if not line.startswith(f"{secret}=")) + "\n",
            encoding="utf-8",
        )
        result = _run_config(env_file)
        assert result.returncode != 0, f"compose started without {secret}"
        assert secret in result.stderr


def test_api_and_worker_receive_every_setting() -> None:
    services = _compose()["services"]
    for name in ("api", "worker"):
        env = services[name]["environment"]
        names = set(env) if isinstance(env, dict) else {e.split("=", 1)[0] for e in env}
        missing = SETTING_VARS - names
        assert not missing, f"{name} lacks {sorted(missing)}"


def test_production_backends_are_the_server_ones() -> None:
    env = _compose()["services"]["api"]["environment"]
    assert env["LEXGRAPH_ENVIRONMENT"] == "production"
    assert env["LEXGRAPH_GRAPH_BACKEND"] == "neo4j"
    assert env["LEXGRAPH_VECTOR_BACKEND"] == "qdrant"
    assert env["LEXGRAPH_BROKER_URL"] == "redis://redis:6379/0"
    assert env["LEXGRAPH_EMBEDDER"].endswith("bge-m3}") or env["LEXGRAPH_EMBEDDER"] == "bge-m3"
    for field in ("environment", "graph_backend", "vector_backend", "embedder"):
        Settings.model_validate({field: _plain(env[f"LEXGRAPH_{field.upper()}"])})


def test_env_example_names_every_setting() -> None:
    names = set(_env_example())
    missing = SETTING_VARS - names
    assert not missing, f".env.example lacks {sorted(missing)}"
    for secret in REQUIRED_SECRETS:
        assert secret in names


def test_env_example_values_are_valid_settings() -> None:
    settings = Settings(_env_file=ENV_EXAMPLE)  # type: ignore[call-arg]
    assert settings.environment == "production"
    assert settings.api_keys_sha256, "the example must show the JSON list format"


@pytest.mark.parametrize("path", [COMPOSE, DOCKERFILE, ENV_EXAMPLE], ids=lambda p: p.name)
def test_no_lexgraph_variable_outside_the_settings(path: Path) -> None:
    unknown = set(VAR_NAME.findall(path.read_text(encoding="utf-8"))) - SETTING_VARS
    assert not unknown, f"{path.name} names variables Settings never reads: {sorted(unknown)}"


def test_dockerfile_defaults_agree_with_compose() -> None:
    compose_env = _compose()["services"]["api"]["environment"]
    dockerfile = DOCKERFILE.read_text(encoding="utf-8").replace("\\\n", " ")
    pairs = dict(re.findall(r"\b(LEXGRAPH_[A-Z0-9_]+)=(\S+)", dockerfile))
    assert pairs, "the Dockerfile sets no production defaults"
    for name, value in pairs.items():
        assert _plain(str(compose_env[name])) == value, name


def test_dockerfile_builds_api_and_worker_targets() -> None:
    text = DOCKERFILE.read_text(encoding="utf-8")
    stages = re.findall(r"^FROM\s+\S+\s+AS\s+(\S+)", text, flags=re.MULTILINE | re.IGNORECASE)
    assert {"build", "runtime", "api", "worker"} <= set(stages)
    services = _compose()["services"]
    assert services["api"]["build"]["target"] == "api"
    assert services["worker"]["build"]["target"] == "worker"


def test_services_wait_for_healthy_dependencies() -> None:
    services = _compose()["services"]
    for name in ("neo4j", "qdrant", "redis", "api", "worker", "prometheus", "grafana"):
        assert "healthcheck" in services[name], name
    for name in ("api", "worker"):
        deps = services[name]["depends_on"]
        assert {d: deps[d]["condition"] for d in deps} == {
            "neo4j": "service_healthy",
            "qdrant": "service_healthy",
            "redis": "service_healthy",
        }


def _plain(value: str) -> str:
    """`${VAR:-default}` -> default; anything else unchanged."""
    m = re.fullmatch(r"\$\{[A-Z0-9_]+:-(.*)\}", value)
    return m.group(1) if m else value
