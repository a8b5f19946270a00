"""What a server keeps beside each lifespan context: the other tenants' indexes (per bearer token) and the folder
watchers that re-index as files change."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR

from trident.server.context import TridentContext, make_lifespan
from trident.server.server_settings import TridentSettings
from trident.server.transport import TENANT_SCOPE_KEY
from trident.store.catalog import Catalog
from trident.store.remote.remote_catalog import RemoteCatalog

if TYPE_CHECKING:
    from trident.ingest.watch import FolderWatcher


class Runtime:
    """What a server keeps beside each lifespan context: the contexts of the other tenants named in
    TRIDENT_TOKENS, and (with TRIDENT_WATCH) one folder watcher per tenant."""

    def __init__(
        self,
        settings: TridentSettings,
        open_catalog: Callable[[], Catalog],
        close_catalog: bool,
        open_tenant: Callable[[str], Catalog] | None,
    ) -> None:
        self.settings = settings
        self._open_catalog = open_catalog
        self._close_catalog = close_catalog
        self._open_tenant = open_tenant
        self._tenants: dict[int, dict[str, TridentContext]] = {}
        self._watchers: dict[int, FolderWatcher] = {}

    @asynccontextmanager
    async def lifespan(self, server: Any) -> AsyncIterator[TridentContext]:
        async with AsyncExitStack() as stack:
            main_lifespan = make_lifespan(self.settings, self._open_catalog, close_catalog=self._close_catalog)
            main = await stack.enter_async_context(main_lifespan(server))
            contexts = {main.catalog.tenant: main}
            open_tenant = self._open_tenant or partial(_open_beside, main.catalog)
            served = self.settings.server
            by_token = set(served.tokens.values()) if served.transport != "stdio" else set()
            for tenant in sorted(by_token - {main.catalog.tenant}):  # stdio has no tokens: leave their indexes be
                lifespan = make_lifespan(self.settings, partial(open_tenant, tenant))
                contexts[tenant] = await stack.enter_async_context(lifespan(server))
            if served.watch:
                from trident.ingest.watch import FolderWatcher, catalog_reindexer  # the indexing side, when it watches

                for context in contexts.values():
                    reindex = catalog_reindexer(context.catalog, context.limits, context.warmed.wait_for)
                    watcher = FolderWatcher(reindex, exclude=[context.catalog.index_dir])
                    self._watchers[id(context)] = watcher
                    stack.callback(self._watchers.pop, id(context), None)
                    stack.callback(watcher.stop)  # before the catalogs close: the stack unwinds in reverse
            self._tenants[id(main)] = contexts
            stack.callback(self._tenants.pop, id(main), None)
            yield main

    async def route_tenant(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        """Middleware: answer an HTTP request from the tenant its bearer token names (set by the token guard)."""
        scope = getattr(ctx.request, "scope", None) or {}
        tenant = scope.get(TENANT_SCOPE_KEY)
        if tenant is None:
            return await call_next(ctx)
        chosen = self._tenants.get(id(ctx.lifespan_context), {}).get(tenant)
        if chosen is None:  # never fall back to another tenant's index
            raise MCPError(INTERNAL_ERROR, f"tenant '{tenant}' is not open on this server")
        return await call_next(replace(ctx, lifespan_context=chosen))

    def watcher(self, context: TridentContext) -> FolderWatcher | None:
        return self._watchers.get(id(context))


def _open_beside(catalog: Catalog, tenant: str) -> Catalog:
    """Another tenant's index next to this one (TRIDENT_HOME/tenants/<tenant>), sharing the loaded model: with
    TRIDENT_STORAGE, the cache of that tenant's shared index, as the main catalog is (pulled first, following what
    is published, writing through the lease)."""
    if isinstance(catalog, RemoteCatalog):
        return catalog.open_beside(tenant)
    return Catalog(catalog.index_dir.parent / tenant, tenant, catalog.embedder)
