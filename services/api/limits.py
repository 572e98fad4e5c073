"""Request bodies are bounded before anything parses them.

A pure ASGI middleware on `/v1` and `/mcp`: an upload (`multipart/form-data`) streams
through, counted, up to `max_upload_bytes` plus room for the multipart framing; any
other body is read whole up to `max_json_body_bytes` and, when it looks like JSON, its
nesting is measured (brackets outside strings) and refused past `max_json_depth`. Only
then does the app see the body (a 50,000-deep JSON array made Python's parser raise
RecursionError, a 500 that also dropped the connection). Answers: 413 for a body too
large (at once when Content-Length says so), 400 for one nested too deep, both
problem+json like every other error.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from services.api.problems import problem

GUARDED_PREFIXES = ("/v1", "/mcp")
# Multipart framing around the files: part headers, boundaries, a few form fields.
MULTIPART_OVERHEAD_BYTES = 1024 * 1024
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")


def json_too_deep(body: bytes, max_depth: int) -> bool:
    """True when `body` (JSON text, valid or not) opens more than `max_depth` arrays or
    objects inside each other. Linear in the body; free for a body with few brackets."""
    if body.count(b"[") + body.count(b"{") <= max_depth:
        return False
    depth = 0
    for bracket in _BRACKET.findall(_STRING.sub(b'""', body)):
        if bracket in (b"[", b"{"):
            depth += 1
            if depth > max_depth:
                return True
        else:
            depth = max(depth - 1, 0)
    return False


class BodyLimitMiddleware:
    def __init__(
        self,
        app: ASGIApp,
        *,
        max_json_bytes: int,
        max_upload_bytes: int,
        max_depth: int,
        prefixes: Iterable[str] = GUARDED_PREFIXES,
    ) -> None:
        self.app = app
        self.max_json_bytes = max_json_bytes
        self.max_upload_bytes = max_upload_bytes + MULTIPART_OVERHEAD_BYTES
        self.max_depth = max_depth
        self.prefixes = tuple(prefixes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _under(scope["path"], self.prefixes):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        upload = headers.get("content-type", "").lower().startswith("multipart/form-data")
        limit = self.max_upload_bytes if upload else self.max_json_bytes
        declared = _declared_length(headers)
        if declared is not None and declared > limit:
            await _too_large(scope, send, limit)
            return
        if upload:
            await self._stream_counted(scope, receive, send, limit)
            return
        body = await _read_body(receive, limit)
        if body is None:
            await _too_large(scope, send, limit)
            return
        if body.lstrip()[:1] in (b"[", b"{") and json_too_deep(body, self.max_depth):
            response = problem(
                400,
                f"the request body nests arrays or objects deeper than {self.max_depth} levels",
                instance=scope["path"],
            )
            await response(scope, receive, send)
            return
        await self.app(scope, _replay(body, receive), send)

    async def _stream_counted(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        """Pass an upload through while counting; past `limit` the app is told the client
        left (it stops reading) and the client gets the 413 instead of the app's answer."""
        seen = 0
        overflow = False
        started = False

        async def counted() -> Message:
            nonlocal seen, overflow
            if overflow:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    overflow = True
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if overflow:
                return  # the app's answer to a cut-off body is replaced by the 413 below
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, guarded_send)
        except Exception:
            if not overflow:
                raise
        if overflow and not started:
            await _too_large(scope, send, limit)


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole body, or None once it passes `limit` bytes."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break  # the client left; the app will see an empty body
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """The buffered body first, then the real channel (a disconnect, for streaming)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


async def _too_large(scope: Scope, send: Send, limit: int) -> None:
    response = problem(
        413,
        f"the request body is larger than this API accepts ({limit} bytes)",
        instance=scope["path"],
        headers={"Connection": "close"},
    )

    async def nothing() -> Message:
        return {"type": "http.disconnect"}

    await response(scope, nothing, send)


def _declared_length(headers: dict[str, str]) -> int | None:
    try:
        return int(headers["content-length"])
    except (KeyError, ValueError):
        return None


def _under(path: str, prefixes: tuple[str, ...]) -> bool:
    return any(path == p or path.startswith(p + "/") for p in prefixes)
