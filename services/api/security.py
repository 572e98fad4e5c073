"""API keys: outside development every `/v1` and `/mcp` request carries a key.

Keys are never stored: settings hold the hex SHA-256 of each accepted key
(`LEXGRAPH_API_KEYS_SHA256`, a JSON list), and a request's key is hashed and compared in
constant time. A client sends its key as `Authorization: Bearer <key>` (what MCP clients
send) or `X-API-Key: <key>`. `/healthz`, `/readyz` and `/metrics` stay open unless
`LEXGRAPH_OPEN_OPS_ENDPOINTS=false`. A request with a valid key carries its principal
(`key:` and the first 16 hex of the key's hash) in `scope["state"]["principal"]`: bulk
jobs belong to it. In development no key is checked and every caller is the one
principal `development`. Make a key and its hash with:

    python -c "import secrets, hashlib; k = secrets.token_urlsafe(32); \
print(k, hashlib.sha256(k.encode()).hexdigest())"
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable

from fastapi import FastAPI, Request
from starlette.types import ASGIApp, Receive, Scope, Send

from services.api import metrics
from services.core.errors import ConfigurationError
from services.core.settings import Settings

PROTECTED_PREFIXES = ("/v1", "/mcp")
OPS_PATHS = ("/healthz", "/readyz", "/metrics")
UNAUTHORIZED_TYPE = "https://lexgraph.dev/problems/unauthorized"
DEVELOPMENT_PRINCIPAL = "development"


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


class ApiKeyMiddleware:
    """Pure ASGI middleware, so it guards the mounted MCP endpoint as well as the routes."""

    def __init__(self, app: ASGIApp, *, accepted_sha256: Iterable[str], open_ops: bool) -> None:
        self.app = app
        self.accepted = tuple(h.strip().lower() for h in accepted_sha256 if h.strip())
        self.open_ops = open_ops

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            principal = self._principal(scope)
            if principal is None and self._needs_key(scope["path"]):
                await _send_unauthorized(scope, send)
                return
            if principal is not None:
                scope.setdefault("state", {})["principal"] = principal
        await self.app(scope, receive, send)

    def _needs_key(self, path: str) -> bool:
        if _under(path, PROTECTED_PREFIXES):
            return True
        return not self.open_ops and _under(path, OPS_PATHS)

    def _principal(self, scope: Scope) -> str | None:
        """Who the request's key belongs to; None without a valid key."""
        presented = _presented_key(scope)
        if not presented:
            return None
        digest = hash_key(presented)
        # Compare against every accepted hash so timing does not tell which one matched.
        matches = [hmac.compare_digest(digest, accepted) for accepted in self.accepted]
        return f"key:{digest[:16]}" if any(matches) else None


def request_principal(request: Request) -> str:
    """The principal of a request the middleware let through (see the module doc)."""
    principal = request.scope.get("state", {}).get("principal")
    if isinstance(principal, str) and principal:
        return principal
    return DEVELOPMENT_PRINCIPAL


def install_api_keys(app: FastAPI, settings: Settings) -> None:
    """Guard the app unless it runs in development; refuse to start without any key."""
    if settings.environment == "development":
        return
    if not settings.api_keys_sha256:
        raise ConfigurationError(
            "LEXGRAPH_API_KEYS_SHA256 is empty: outside development the API needs at least one "
            "accepted key hash (see services/api/security.py for how to make one)"
        )
    app.add_middleware(
        ApiKeyMiddleware,
        accepted_sha256=settings.api_keys_sha256,
        open_ops=settings.open_ops_endpoints,
    )


def _under(path: str, prefixes: Iterable[str]) -> bool:
    return any(path == p or path.startswith(p + "/") for p in prefixes)


def _presented_key(scope: Scope) -> str | None:
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
    authorization = headers.get("authorization", "")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    api_key = headers.get("x-api-key", "").strip()
    return api_key or None


async def _send_unauthorized(scope: Scope, send: Send) -> None:
    problem = {
        "type": UNAUTHORIZED_TYPE,
        "title": "API key required",
        "status": 401,
        "detail": "Send a valid key as 'Authorization: Bearer <key>' or 'X-API-Key: <key>'.",
        "instance": scope["path"],
    }
    body = json.dumps(problem).encode("utf-8")
    metrics.record_problem(UNAUTHORIZED_TYPE, 401)
    await send(
        {
            "type": "http.response.start",
            "status": 401,
            "headers": [
                (b"content-type", b"application/problem+json"),
                (b"content-length", str(len(body)).encode("ascii")),
                (b"www-authenticate", b'Bearer realm="lexgraph"'),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
