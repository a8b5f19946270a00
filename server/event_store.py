"""Resumable streams over streamable HTTP: the SDK's `EventStore`, kept in memory and bounded, with each event kept
to the session that produced it.

With a store, the SDK opens every stream a POST starts with a priming event (an event id and a retry interval) and
numbers each message it sends; a client whose connection drops reconnects with `Last-Event-ID` and gets what it
missed. The SDK shares one store between all sessions and names a request's stream by its JSON-RPC id, which two
sessions both use ("1", "2", ...): `SessionMarks` (ASGI middleware) tags every HTTP request with the session it
belongs to, the store files each event under that session, and a replay answers only the session that asks.
"""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp_types import JSONRPCMessage

SESSION_HEADER = b"mcp-session-id"
KEPT_EVENTS = 2_000  # across all sessions; the oldest go first (a replay from one of them finds nothing)
RETRY_MILLISECONDS = 2_000  # sent in each priming event: how long a client waits before it reconnects


@dataclass(eq=False)
class SessionMark:
    """The session an HTTP request belongs to. A session's first request (initialize) has no id yet: the mark
    learns it from the response's header, and the tasks that request started (which answer the session's later
    requests) keep the same mark."""

    session: str | None = None

    def key(self) -> str:
        return self.session if self.session is not None else f"unnamed-{id(self)}"


_mark: ContextVar[SessionMark | None] = ContextVar("trident_session_mark", default=None)


class SessionMarks:
    """ASGI middleware: give each HTTP request the `SessionMark` of its `Mcp-Session-Id`."""

    def __init__(self, app: Any) -> None:
        self._app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return
        given = dict(scope.get("headers") or []).get(SESSION_HEADER)
        mark = SessionMark(given.decode("latin-1") if given else None)
        _mark.set(mark)

        async def learn(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start" and mark.session is None:
                named = dict(message.get("headers") or []).get(SESSION_HEADER)
                if named:
                    mark.session = named.decode("latin-1")
            await send(message)

        await self._app(scope, receive, learn)


@dataclass
class _Event:
    session: SessionMark
    stream: StreamId
    message: JSONRPCMessage | None = field(repr=False)


class SessionEventStore(EventStore):
    """The latest `KEPT_EVENTS` events of every session, in memory (a restart forgets them: a client then starts a
    new session, as it must when the server restarts)."""

    def __init__(self, kept: int = KEPT_EVENTS) -> None:
        self._kept = kept
        self._events: OrderedDict[EventId, _Event] = OrderedDict()
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        mark = _mark.get() or SessionMark()
        with self._lock:
            event_id = str(next(self._numbers))
            self._events[event_id] = _Event(mark, stream_id, message)
            while len(self._events) > self._kept:
                self._events.popitem(last=False)
        return event_id

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> StreamId | None:
        """Send the events of `last_event_id`'s stream that came after it; None when the id is unknown (or
        forgotten), or belongs to another session than the one asking."""
        asking = _mark.get()
        with self._lock:
            last = self._events.get(last_event_id)
            if last is None or asking is None or asking.key() != last.session.key():
                return None
            later = list(itertools.dropwhile(lambda item: item[0] != last_event_id, self._events.items()))[1:]
        for event_id, event in later:
            if event.session.key() == last.session.key() and event.stream == last.stream and event.message:
                await send_callback(EventMessage(event.message, event_id))
        return last.stream
