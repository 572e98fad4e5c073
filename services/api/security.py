"""API keys: outside development every `/v1` and `/mcp` request carries a key.

Keys are never stored: settings hold the hex SHA-256 of each accepted key
(`LEXGRAPH_API_KEYS_SHA256`, a JSON list, and `LEXGRAPH_API_PRINCIPALS`, a JSON object
hash -> {tenant, groups, roles}), and a request's key is hashed and compared in
constant time. The key's principal (services/core/access.py) rides in
`scope["state"]["access"]`; no header or body can name a tenant or a group. A client sends its key as `Authorization: Bearer <key>` (what MCP clients
send) or `X-API-Key: <key>`. `/healthz`, `/readyz` and `/metrics` stay open unless
`LEXGRAPH_OPEN_OPS_ENDPOINTS=false`. A request with a valid key carries its principal
(`key:` and the first 16 hex of the key's hash) in `scope["state"]["principal"]`: bulk
jobs belong to it. In development no key is checked and every caller is the one
principal `development`, an admin of `LEXGRAPH_DEFAULT_TENANT`. Make a key and its hash with:

    python -c "import secrets, hashlib; k = secrets.token_urlsafe(32); \
print(k, hashlib.sha256(k.encode()).hexdigest())"
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Mapping

from fastapi import FastAPI, Request
from starlette.types import ASGIApp, Receive, Scope, Send

from services.api import metrics
from services.core.access import Principal, development_principal, principals_by_hash
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

    def __init__(
        self, app: ASGIApp, *, principals: Mapping[str, Principal], open_ops: bool
    ) -> None:
        self.app = app
        self.principals = dict(principals)  # key hash -> principal
        self.accepted = tuple(self.principals)
        self.open_ops = open_ops

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            access = self._access(scope)
            if access is None and self._needs_key(scope["path"]):
                await _send_unauthorized(scope, send)
                return
            if access is not None:
                state = scope.setdefault("state", {})
                state["principal"] = access.id
                state["access"] = access
        await self.app(scope, receive, send)

    def _needs_key(self, path: str) -> bool:
        if _under(path, PROTECTED_PREFIXES):
            return True
        return not self.open_ops and _under(path, OPS_PATHS)

    def _access(self, scope: Scope) -> Principal | None:
        """Who the request's key belongs to; None without a valid key."""
        presented = _presented_key(scope)
        if not presented:
            return None
        digest = hash_key(presented)
        # Compare against every accepted hash so timing does not tell which one matched.
        matched = None
        for accepted in self.accepted:
            if hmac.compare_digest(digest, accepted):
                matched = accepted
        return self.principals[matched] if matched is not None else None


def request_principal(request: Request) -> str:
    """The principal of a request the middleware let through (see the module doc)."""
    principal = request.scope.get("state", {}).get("principal")
    if isinstance(principal, str) and principal:
        return principal
    return DEVELOPMENT_PRINCIPAL


def request_access(request: Request) -> Principal:
    """The principal (tenant, groups, roles) of a request the middleware let through; in
    development, where no key is checked, the admin of the default tenant."""
    access = request.scope.get("state", {}).get("access")
    if isinstance(access, Principal):
        return access
    return development_principal(request.app.state.settings.default_tenant)


def install_api_keys(app: FastAPI, settings: Settings) -> None:
    """Guard the app unless it runs in development; refuse to start without any key."""
    if settings.environment == "development":
        return
    if not settings.api_keys_sha256 and not settings.api_principals:
        raise ConfigurationError(
            "LEXGRAPH_API_KEYS_SHA256 and LEXGRAPH_API_PRINCIPALS are empty: outside "
            "development the API needs at least one accepted key hash (see "
            "services/api/security.py for how to make one)"
        )
    principals = principals_by_hash(
        {h: spec.model_dump() for h, spec in settings.api_principals.items()},
        settings.api_keys_sha256,
        settings.default_tenant,
    )
    app.add_middleware(
        ApiKeyMiddleware, principals=principals, open_ops=settings.open_ops_endpoints
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
