"""Running the server: stdio, streamable HTTP, or SSE, with Host/Origin checks and an optional bearer token."""

from __future__ import annotations

import hmac
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings

from trident.server.event_store import RETRY_MILLISECONDS, SessionEventStore, SessionMarks
from trident.server.server_settings import ServerSettings, is_loopback

Scope = dict[str, Any]


TENANT_SCOPE_KEY = "trident.tenant"


class BearerTokenGuard:
    """ASGI middleware: every HTTP request must carry `Authorization: Bearer <token>` with a known token.

    The token also picks the tenant: its name goes into the request's scope under TENANT_SCOPE_KEY (None for the
    server's own tenant), where the MCP layer reads it.
    """

    def __init__(self, app: Any, tokens: dict[str, str | None]) -> None:
        if not tokens:
            raise ValueError("BearerTokenGuard needs at least one token")
        self._app = app
        self._tenants = [(f"Bearer {token}".encode(), tenant) for token, tenant in tokens.items()]

    def _tenant_of(self, given: bytes) -> tuple[bool, str | None]:
        found: tuple[bool, str | None] = (False, None)
        for expected, tenant in self._tenants:  # compare with every token, so timing tells nothing
            if hmac.compare_digest(given, expected):
                found = (True, tenant)
        return found

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            known, tenant = self._tenant_of(given)
            if not known:
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [(b"content-type", b"text/plain"), (b"www-authenticate", b"Bearer")],
                    }
                )
                await send({"type": "http.response.body", "body": b"missing or wrong bearer token\n"})
                return
            scope = {**scope, TENANT_SCOPE_KEY: tenant}
        await self._app(scope, receive, send)


def transport_security(settings: ServerSettings) -> TransportSecuritySettings:
    """Refuse requests whose Host or Origin is not this server (DNS rebinding)."""
    hosts = {settings.host, f"{settings.host}:{settings.port}"}
    if is_loopback(settings.host):
        hosts |= {f"{name}:{settings.port}" for name in ("127.0.0.1", "localhost", "[::1]")}
        hosts |= {"127.0.0.1", "localhost", "[::1]"}
    origins = {f"http://{host}" for host in hosts}
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=sorted(hosts), allowed_origins=sorted(origins)
    )


def http_app(server: MCPServer[Any], settings: ServerSettings) -> Any:
    """The ASGI app for an HTTP transport (streamable HTTP with resumable streams), wrapped in the token guard when a
    token is set."""
    security = transport_security(settings)
    app: Any
    if settings.transport == "sse":
        app = server.sse_app(
            max_request_body_size=settings.max_body_bytes, transport_security=security, host=settings.host
        )
    else:
        app = SessionMarks(
            server.streamable_http_app(
                max_request_body_size=settings.max_body_bytes,
                transport_security=security,
                host=settings.host,
                event_store=SessionEventStore(),
                retry_interval=RETRY_MILLISECONDS,
            )
        )
    tokens = settings.tenant_tokens()
    if tokens:
        return BearerTokenGuard(app, tokens)
    return app


def run(server: MCPServer[Any], settings: ServerSettings) -> None:
    """Serve until interrupted. On stdio, stdout carries protocol messages only; logs go to stderr."""
    if settings.transport == "stdio":
        anyio.run(server.run_stdio_async)
        return
    import uvicorn

    config = uvicorn.Config(
        http_app(server, settings), host=settings.host, port=settings.port, log_level="warning", lifespan="on"
    )
    anyio.run(uvicorn.Server(config).serve)
