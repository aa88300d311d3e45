"""HTTP/1.1 for the live page: asyncio's own transports and h11's parser, with firm limits.

The page serves a dozen fixed paths to a room of phones and a TV, so it needs no more than
this: h11 reads requests and frames answers (keep-alive, chunked streams, HEAD), and this
module adds the limits of a server on a home network. A request head is at most 16 KiB, its
request line and each header 2 KiB, at most 32 headers; a request with a body is never read
(answered and the connection closed); a connection over the cap is told "busy" at once and
closed; one that sends no request in time is closed; a write a client does not take in time
ends the connection. A request it cannot read is one line in the log and a short answer, never
a traceback or the request's bytes.

aiohttp did this before at 16 MiB of memory more (its client side, ssl, its many modules):
a third of what the page holds.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from urllib.parse import parse_qsl, urlsplit

import h11

from ..errors import CompanionError

log = logging.getLogger(__name__)

HEAD_LIMIT = 16 * 1024  # a whole request head
LINE_LIMIT = 2048  # the request line, and each header
MAX_HEADERS = 32
READ_SIZE = 4096
LINGER_S = 1.0  # a refused connection's unread bytes are taken for this long before it is cut


class Unreadable(CompanionError):
    """A request the page cannot read (its reason is one line in the log)."""


@dataclass
class Response:
    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    close: bool = False  # the connection ends after it

    @classmethod
    def text(cls, status: int, text: str, headers: dict[str, str] | None = None, close: bool = False) -> Response:
        return cls(status, text.encode(), {"Content-Type": "text/plain; charset=utf-8", **(headers or {})}, close)


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]  # lower-case names, the first of each
    remote: str | None
    has_body: bool
    match: dict[str, str] = field(default_factory=dict)  # the route's named parts
    _exchange: _Exchange | None = field(default=None, repr=False)

    async def stream(self, status: int, headers: dict[str, str]) -> Stream:
        """Start an answer sent in pieces (a picture, an event stream)."""
        assert self._exchange is not None  # made by a connection
        return await self._exchange.start(status, headers, self.method == "HEAD")

    def on_lost(self, callback: Callable[[], None]) -> None:
        """Call `callback` when the client's connection ends (an event stream waits on a queue)."""
        assert self._exchange is not None
        self._exchange.connection.lost_callbacks.append(callback)


Handler = Callable[[Request], Awaitable[Response | None]]  # None: it streamed its own answer


class Stream:
    """An answer under way: each write taken by the client within the time limit, or the
    connection cut."""

    def __init__(self, exchange: _Exchange, head_only: bool):
        self.exchange, self.head_only = exchange, head_only

    async def write(self, data: bytes) -> bool:
        """False (and the connection cut) when the client did not take it in time."""
        if self.head_only:
            return True
        return await self.exchange.send(h11.Data(data=data))

    async def end(self) -> bool:
        return await self.exchange.send(h11.EndOfMessage())

    def cut(self) -> None:
        """End the connection at once (a viewer dropped: its pending write may never go)."""
        self.exchange.connection.abort()


class _Exchange:
    """One request's answer on its connection."""

    def __init__(self, connection: _Connection, h11_connection: h11.Connection, timeout: float):
        self.connection, self.h11, self.timeout = connection, h11_connection, timeout
        self.started = False

    async def start(self, status: int, headers: dict[str, str], head_only: bool) -> Stream:
        self.started = True
        await self.send(h11.Response(status_code=status, headers=list(headers.items()), reason=_phrase(status)))
        return Stream(self, head_only)

    async def send(self, *events: h11.Event) -> bool:
        """The events' bytes in one write (a whole answer in one packet)."""
        transport = self.connection.transport
        if transport is None or transport.is_closing():
            return False
        data = b"".join(self.h11.send(event) or b"" for event in events)
        if data:
            transport.write(data)
        try:
            await asyncio.wait_for(self.connection.drained(), self.timeout)
            return True
        except (TimeoutError, ConnectionError):
            transport.abort()
            return False


def _phrase(status: int) -> bytes:
    return HTTPStatus(status).phrase.encode() if status in HTTPStatus._value2member_map_ else b"Error"


class _Connection(asyncio.Protocol):
    """One client's connection: its bytes go to h11 through a small buffer read by its task."""

    def __init__(self, site: Site):
        self.site = site
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.eof = False
        self.arrived = asyncio.Event()  # bytes or the end came
        self.paused = False  # reading stopped: a head's worth is waiting unread
        self.writable = asyncio.Event()
        self.writable.set()
        self.served = False  # a whole request came: the silent check leaves it be
        self.lost_callbacks: list[Callable[[], None]] = []
        self.lost = asyncio.Event()
        self.task: asyncio.Task | None = None

    # --- asyncio's side -----------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.site.connections.add(self)
        self.task = asyncio.get_running_loop().create_task(self.site._converse(self))

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        self.arrived.set()
        if len(self.buffer) > HEAD_LIMIT and self.transport is not None and not self.paused:
            self.paused = True  # no more than a head's worth waits in memory
            self.transport.pause_reading()

    def eof_received(self) -> bool:
        self.eof = True
        self.arrived.set()
        return False  # the client is done: the connection closes (a stream waiting on it ends)

    def pause_writing(self) -> None:
        self.writable.clear()

    def resume_writing(self) -> None:
        self.writable.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.site.connections.discard(self)
        self.transport = None
        self.eof = True
        self.arrived.set()
        self.writable.set()
        self.lost.set()
        callbacks, self.lost_callbacks = self.lost_callbacks, []
        for callback in callbacks:
            callback()

    # --- the task's side ----------------------------------------------------------------------
    async def drained(self) -> None:
        await self.writable.wait()
        if self.transport is None:
            raise ConnectionError("the connection ended")

    async def read(self) -> bytes:
        """What came since the last read (b"" at the end)."""
        while not self.buffer and not self.eof:
            self.arrived.clear()
            await self.arrived.wait()
        data, self.buffer = bytes(self.buffer), bytearray()
        if self.paused and self.transport is not None:
            self.paused = False
            self.transport.resume_reading()
        return data

    def abort(self) -> None:
        """Cut at once (what is not yet sent is dropped)."""
        if self.transport is not None:
            self.transport.abort()

    def close(self) -> None:
        """Close once what is written has gone."""
        if self.transport is not None:
            self.transport.close()


class _Busy(asyncio.Protocol):
    """A connection over the cap: told so at once and closed (no parser, no buffer). What it
    sent is read and dropped for a moment first: closing with unread data would reset the
    connection, and the client might never see the answer."""

    def __init__(self, answer: bytes):
        self.answer = answer

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        transport.write(self.answer)
        transport.write_eof()
        asyncio.get_running_loop().call_later(LINGER_S, transport.abort)

    def data_received(self, data: bytes) -> None:
        pass

    def eof_received(self) -> bool:
        return False  # the client is done too: close now


@dataclass
class Limits:
    max_connections: int
    head_timeout: float  # the first request must come within this
    keepalive: float  # each later one within this
    write_timeout: float
    busy: bytes  # the whole answer over the cap
    refusal_headers: dict[str, str]  # on every answer to a request it cannot read


class Site:
    """Serves `handler` on any number of listening sockets, within `limits`."""

    def __init__(self, handler: Handler, limits: Limits):
        self.handler, self.limits = handler, limits
        self.connections: set[_Connection] = set()
        # asyncio makes the protocols of a burst of connections before any of them is
        # connected: those made but not yet connected count against the cap too
        self._arriving: set[_Connection] = set()
        self.listening: list[asyncio.AbstractServer] = []

    async def listen(self, host: str, port: int) -> None:
        loop = asyncio.get_running_loop()
        self.listening.append(await loop.create_server(self._factory, host, port, reuse_address=True, backlog=64))

    def _factory(self) -> asyncio.Protocol:
        if len(self.connections | self._arriving) >= self.limits.max_connections:
            return _Busy(self.limits.busy)
        connection = _Connection(self)
        self._arriving.add(connection)
        loop = asyncio.get_running_loop()
        # the transport schedules connection_made right after this returns: two turns of the
        # loop later it is connected, or already closed (and then must not count, however recent)
        loop.call_soon(loop.call_soon, self._arriving.discard, connection)
        loop.call_later(self.limits.head_timeout, self._silent_check, connection)
        return connection

    def _silent_check(self, connection: _Connection) -> None:
        """A connection that has sent no whole request yet is closed (a slow-loris)."""
        if not connection.served:
            connection.abort()

    async def close(self) -> None:
        """Stop listening and cut every connection."""
        for server in self.listening:
            server.close()
        self.listening.clear()
        for connection in list(self.connections):
            connection.abort()
        tasks = [c.task for c in self.connections if c.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=1.0)

    # --- one connection -----------------------------------------------------------------------
    async def _converse(self, connection: _Connection) -> None:
        conversation = h11.Connection(h11.SERVER, max_incomplete_event_size=HEAD_LIMIT)
        peer = connection.transport.get_extra_info("peername") if connection.transport else None
        remote = peer[0] if isinstance(peer, tuple) and peer else None
        first = True
        try:
            while connection.transport is not None:
                try:
                    request = await asyncio.wait_for(
                        self._next_request(connection, conversation, remote),
                        None if first else self.limits.keepalive,
                    )
                except TimeoutError:
                    break
                if request is None:
                    break
                first, connection.served = False, True
                if not await self._answer(connection, conversation, request):
                    break
                if conversation.our_state is not h11.DONE or conversation.their_state is not h11.DONE:
                    break  # a body left unread, or an answer that closes
                conversation.start_next_cycle()
        except Unreadable as exc:
            await self._refuse(connection, conversation, remote, str(exc))
            return
        except Exception:
            log.exception("the live page's answer failed")
            connection.abort()
        connection.close()

    async def _next_request(self, connection: _Connection, conversation: h11.Connection, remote: str | None):
        fresh = conversation.their_state is h11.IDLE  # its first bytes not yet seen
        while True:
            try:
                event = conversation.next_event()
            except h11.RemoteProtocolError as exc:
                raise Unreadable(str(exc)) from None
            if event is h11.NEED_DATA:
                data = await connection.read()
                if fresh and data:
                    fresh = False
                    if not _REQUEST_START.match(data):  # a TLS hello, or noise: refused now, not timed out
                        raise Unreadable("not an HTTP request")
                try:
                    conversation.receive_data(data)
                except h11.RemoteProtocolError as exc:
                    raise Unreadable(str(exc)) from None
                continue
            if isinstance(event, h11.Request):
                request = _request(event, remote)
                if not request.has_body:  # its end, read now: the connection can serve the next one
                    ended = conversation.next_event()
                    assert isinstance(ended, h11.EndOfMessage), ended  # no length, no body
                return request
            if isinstance(event, h11.ConnectionClosed):
                return None
            raise Unreadable(f"unexpected {type(event).__name__}")

    async def _answer(self, connection: _Connection, conversation: h11.Connection, request: Request) -> bool:
        exchange = _Exchange(connection, conversation, self.limits.write_timeout)
        request._exchange = exchange
        response = await self.handler(request)
        if response is None:  # streamed: ended by the handler, or the connection cut
            return exchange.started and conversation.our_state is h11.DONE
        headers = dict(response.headers)
        headers["Content-Length"] = str(len(response.body))
        if response.close or request.has_body:  # a body never read: the connection cannot go on
            headers["Connection"] = "close"
        exchange.started = True
        head = h11.Response(status_code=response.status, headers=list(headers.items()), reason=_phrase(response.status))
        body = [] if request.method == "HEAD" else [h11.Data(data=response.body)]
        return await exchange.send(head, *body, h11.EndOfMessage()) and not response.close

    async def _refuse(
        self, connection: _Connection, conversation: h11.Connection, remote: str | None, reason: str
    ) -> None:
        """One line in the log (the reason cut short, never raw bytes), a 400 with the page's
        headers, and the connection closed gently (its unread bytes taken for a moment)."""
        transport = connection.transport
        if transport is None or transport.is_closing():
            return  # the client left, or was cut off for its silence: nothing to refuse
        reason = reason.splitlines()[0][:120] if reason else ""
        log.warning("refused a request from %s: 400 %s", remote, reason.encode("unicode_escape").decode())
        if conversation.our_state not in (h11.IDLE, h11.SEND_RESPONSE):
            transport.abort()  # an answer was under way already
            return
        body = b"400 Bad Request\n"
        head = {
            **self.limits.refusal_headers,
            "Content-Type": "text/plain; charset=utf-8",
            "Content-Length": str(len(body)),
            "Connection": "close",
        }
        transport.write(
            b"HTTP/1.1 400 Bad Request\r\n"
            + "".join(f"{name}: {value}\r\n" for name, value in head.items()).encode()
            + b"\r\n"
            + body
        )
        transport.write_eof()
        if connection.paused:
            connection.paused = False
            transport.resume_reading()
        connection.buffer.clear()
        try:
            await asyncio.wait_for(connection.lost.wait(), LINGER_S)
        except TimeoutError:
            connection.abort()


_REQUEST_START = re.compile(rb"[\r\n]*(?:[A-Za-z]|$)")  # a method's first letter (after blank lines)


def _request(event: h11.Request, remote: str | None) -> Request:
    """The request h11 read, held to the page's limits."""
    if event.http_version not in (b"1.0", b"1.1"):
        raise Unreadable(f"HTTP/{event.http_version.decode('ascii', 'replace')} is not spoken here")
    if len(event.method) + len(event.target) + 10 > LINE_LIMIT:
        raise Unreadable("the request line is too long")
    if len(event.headers) > MAX_HEADERS:
        raise Unreadable("too many headers")
    headers: dict[str, str] = {}
    for name, value in event.headers:
        if len(name) + len(value) + 2 > LINE_LIMIT:
            raise Unreadable("a header is too long")
        headers.setdefault(name.decode("ascii").lower(), value.decode("latin-1"))
    if "transfer-encoding" in headers and "content-length" in headers:
        raise Unreadable("both a length and a transfer encoding")
    target = event.target.decode("ascii", "replace")
    parts = urlsplit(target)
    if not target.startswith("/") or target.startswith("//"):  # no absolute or authority forms
        parts = urlsplit("")
    has_body = "transfer-encoding" in headers or headers.get("content-length", "0").strip() not in ("", "0")
    try:
        query = dict(parse_qsl(parts.query, max_num_fields=16))
    except ValueError:
        raise Unreadable("too many query fields") from None
    return Request(
        method=event.method.decode("ascii", "replace"),
        path=parts.path,
        query=query,
        headers=headers,
        remote=remote,
        has_body=has_body,
    )


class Router:
    """Exact paths, and patterns whose named groups the handler reads (`request.match`)."""

    def __init__(self) -> None:
        self.exact: dict[str, Handler] = {}
        self.patterns: list[tuple[re.Pattern[str], Handler]] = []

    def add(self, path: str, handler: Handler) -> None:
        self.exact[path] = handler

    def add_pattern(self, pattern: str, handler: Handler) -> None:
        self.patterns.append((re.compile(pattern), handler))

    def find(self, request: Request) -> Handler | None:
        found = self.exact.get(request.path)
        if found is not None:
            return found
        for pattern, handler in self.patterns:
            match = pattern.fullmatch(request.path)
            if match:
                request.match = match.groupdict()
                return handler
        return None
