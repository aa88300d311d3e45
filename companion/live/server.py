"""The live page's server (aiohttp): a few fixed pages, server-sent events, and firm limits.

It only looks: GET and HEAD of its own paths; anything else is 405 or 404. No file is served
from the disk (the CSS and script are in the code), so no path can reach outside. Limits keep
a misbehaving or hostile client from costing more than a little memory: short request lines and
headers, no request bodies, a cap on connections and on viewers, a bounded queue per viewer,
a time limit on every write (a client that stops reading is cut off), and connections that
send no request in time are closed. Clients from outside the home network are refused.

The settings' `live` switch turns it on and off while it runs: off, it listens nowhere.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import signal
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable

from aiohttp import web

from .. import config as settings
from ..i18n import LANGUAGES
from . import address, page
from .events import FolderWatch, Hub
from .reader import Look, ReadOnlyJournal

log = logging.getLogger(__name__)

MAX_VIEWERS = 64          # open pages at once (a table of eight, their phones, a TV or two)
MAX_CONNECTIONS = 128     # sockets at once, viewers included
HEAD_TIMEOUT_S = 10.0     # a connection must send its request within this
WRITE_TIMEOUT_S = 10.0    # a client that takes longer to take a write is cut off
KEEPALIVE_S = 15.0
HEARTBEAT_S = 20.0        # a comment down each event stream: dead connections are found
CHUNK = 32 * 1024         # pictures are sent in pieces of this size
RESCAN_S = 60.0           # the home-network addresses are looked up again this often
# a change heard that showed nothing new is read once more this much later: a commit can be
# heard with its -wal written but its index not yet (a writer held up between the two)
LATE_S = 0.3
LIMITS = {"max_line_size": 2048, "max_field_size": 2048, "max_headers": 32}
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self'; "
                               "style-src 'self' 'unsafe-inline'; base-uri 'none'; form-action 'none'; "
                               "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n"
        b"Retry-After: 5\r\nConnection: close\r\n\r\nbusy\n")


class _Busy(asyncio.Protocol):
    """A connection over the cap: told so at once and closed (no parser, no buffer). What it
    sent is read and dropped for a moment first: closing with unread data would reset the
    connection, and the client might never see the answer."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport.write(BUSY)  # type: ignore[attr-defined]
        transport.write_eof()  # type: ignore[attr-defined]
        asyncio.get_running_loop().call_later(1.0, transport.abort)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        pass

    def eof_received(self) -> bool:
        return False  # the client is done too: close now


@dataclass
class Options:
    db: Path
    config: Path | None
    host: str | None = None      # None: loopback and the home-network addresses
    port: int | None = None      # None: the settings' live_port
    always: bool = False         # serve whatever the settings say (tests, a desktop try-out)
    head_timeout: float = HEAD_TIMEOUT_S
    write_timeout: float = WRITE_TIMEOUT_S


def tame_malloc() -> None:
    """glibc's allocator told to give memory back: large blocks (a picture's pixels, 8 MiB at
    1080p) mapped on their own and returned when freed, rather than left in the heap where
    smaller ones keep it from shrinking, and one arena for every thread. Elsewhere: nothing."""
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return
    M_MMAP_THRESHOLD, M_ARENA_MAX = -3, -8
    mallopt(M_MMAP_THRESHOLD, 256 * 1024)
    mallopt(M_ARENA_MAX, 1)


class LiveServer:
    def __init__(self, options: Options):
        tame_malloc()
        self.options = options
        self.journal = ReadOnlyJournal(options.db)
        self.hub = Hub(MAX_VIEWERS)
        self.boot = secrets.token_hex(3)  # versions of an earlier run never match this run's
        self.number = 0
        self.look = Look()
        self.config = settings.Config()
        self.listening: list[asyncio.AbstractServer] = []
        self.bound: tuple[list[str], int] | None = None
        self.url: str | None = None
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-draw")
        self._painter = None
        self._cache: dict[tuple, asyncio.Future] = {}
        self._served: set = set()
        self._arriving: set[Any] = set()  # protocols made for connections not yet connected
        self._refreshing: asyncio.Task | None = None
        self._again = False
        self._started = self._missed = False
        self.watch: FolderWatch | None = None
        self._rescan: asyncio.TimerHandle | None = None
        self._late: asyncio.TimerHandle | None = None
        self._late_round = False
        self.stopped = asyncio.Event()
        self.app = self._make_app()
        self.runner = web.AppRunner(self.app, handle_signals=False, access_log=None,
                                    keepalive_timeout=KEEPALIVE_S, **LIMITS)

    @property
    def version(self) -> str:
        return f"{self.boot}-{self.number}"

    # --- the drawing thread -----------------------------------------------------------------
    def _draw(self, fn: Callable[..., Any], *args: Any) -> Awaitable[Any]:
        """Run fn(painter, *args) on the drawing thread (pygame and gettext are its alone)."""
        def job():
            if self._painter is None:
                from .picture import Painter  # pygame loads here, off the event loop

                self._painter = Painter()
            return fn(self._painter, *args)
        return asyncio.get_running_loop().run_in_executor(self.pool, job)

    def _shared(self, key: tuple, make: Callable[[], Awaitable[Any]]) -> asyncio.Future:
        """One job per key and version, whoever asks: fifty viewers, one picture."""
        key = (self.version, *key)
        found = self._cache.get(key)
        if found is None or (found.done() and (found.cancelled() or found.exception() is not None)):
            found = self._cache[key] = asyncio.ensure_future(make())
        return found

    # --- hearing of changes ------------------------------------------------------------------
    def changed(self) -> None:
        """The journal's or the settings' folder changed (debounced): read again."""
        if not self._started:
            self._missed = True  # heard while starting: read again once started
            return
        if self._refreshing is not None and not self._refreshing.done():
            self._again = True
            return
        self._refreshing = asyncio.ensure_future(self._refresh())

    async def _refresh(self) -> None:
        late, self._late_round = self._late_round, False
        while True:
            self._again = False
            shown = False
            try:
                await self._apply_settings()
                shown = await self._read_journal()
            except CannotListen as exc:
                log.warning("%s", exc)
            except Exception:  # never the end of the page: said in the log, tried again shortly
                log.exception("the live page could not read the journal")
            if not self._again:
                break
        if not shown and not late and self.bound is not None and self._late is None:
            self._late = asyncio.get_running_loop().call_later(LATE_S, self._read_late)

    def _read_late(self) -> None:
        self._late = None
        if self._refreshing is not None and not self._refreshing.done():
            self._again = True  # a read is under way: it reads once more
            return
        self._late_round = True  # once: a late read that finds nothing new asks for no other
        self.changed()

    async def _read_journal(self, force: bool = False) -> bool:
        """Read the journal and draw what changed: only while serving (switched off, nothing is
        read and pygame is not even loaded), or before serving starts (`force`). True when a
        new version was published."""
        if self.bound is None and not force:
            return False
        look = await asyncio.get_running_loop().run_in_executor(self.pool, self.journal.look)
        if look.key != self.look.key or self.number == 0 or force:
            await self._draw(lambda painter: painter.show(look))
            self.look = look
            self.number += 1
            self._cache.clear()
            self.hub.publish(event(self.version))
            return True
        return False

    async def _apply_settings(self) -> None:
        path = self.options.config
        loaded = (await asyncio.get_running_loop().run_in_executor(
            None, lambda: settings.load(path, move_aside=False)))[0] if path else settings.Config()
        self.config = loaded
        wanted = self.options.always or loaded.live
        port = self.options.port or loaded.live_port
        hosts = address.hosts_to_bind(self.options.host)
        if wanted and self.bound != (hosts, port):
            await self._stop_listening()
            await self._read_journal(force=True)  # the game is ready before the first viewer comes
            await self._listen(hosts, port)
        elif not wanted and self.bound is not None:
            await self._stop_listening()
            log.warning("the live page is switched off in the settings")

    # --- listening ----------------------------------------------------------------------------
    def _factory(self) -> asyncio.Protocol:
        server = self.runner.server
        if server is None:
            return _Busy()
        # asyncio makes the protocols of a burst of connections before any of them is
        # connected: those made but not yet among the server's connections count too
        connected = set(server.connections)
        if len(connected) + len(self._arriving - connected) >= MAX_CONNECTIONS:
            return _Busy()
        handler = server()
        self._arriving.add(handler)
        loop = asyncio.get_running_loop()
        # the transport schedules connection_made right after this returns: two turns of the
        # loop later the handler is among the server's connections, or already closed (a
        # closed one must not count against the cap, however recent)
        loop.call_soon(loop.call_soon, self._arriving.discard, handler)
        loop.call_later(self.options.head_timeout, self._silent_check, handler)
        return handler

    def _silent_check(self, handler) -> None:
        """A connection that has sent no whole request yet is closed (a slow-loris)."""
        if handler not in self._served and handler.transport is not None:
            handler.transport.abort()

    async def _listen(self, hosts: list[str], port: int) -> None:
        loop = asyncio.get_running_loop()
        for host in hosts:
            try:
                self.listening.append(await loop.create_server(self._factory, host, port, reuse_address=True,
                                                               backlog=64))
            except OSError as exc:
                if host == hosts[0]:  # the first (loopback, or the one asked for) must work
                    await self._stop_listening()
                    raise CannotListen(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
                log.warning("cannot listen on %s:%s: %s", host, port, exc.strerror or exc)
        self.bound = (hosts, port)
        self.url = address.page_url([h for h in hosts], port)
        address.publish(self.url)
        log.warning("the live page is at %s", self.url)

    async def _stop_listening(self) -> None:
        for server in self.listening:
            server.close()
        self.listening.clear()
        self.bound, self.url = None, None
        self.hub.drop_all()
        if self.runner.server is not None:
            for handler in self.runner.server.connections:
                if handler.transport is not None:
                    handler.transport.abort()
        address.publish(None)

    async def start(self) -> None:
        await self.runner.setup()
        loop = asyncio.get_running_loop()
        files = [self.options.db] + ([self.options.config] if self.options.config else [])
        self.watch = FolderWatch(loop, files, self.changed)
        await self._apply_settings()  # a port already taken ends the start, in one line
        self._started = True
        if self._missed:
            self.changed()
        if self.bound is None and not self.options.always and not self.config.live:
            log.warning("the live page is switched off in the settings: it starts when it is switched on")
        self._rescan = loop.call_later(RESCAN_S, self._rescan_addresses)

    def _rescan_addresses(self) -> None:
        """A home network that came up after us (Wi-Fi later than the service): listen there too."""
        if self.bound is not None and address.hosts_to_bind(self.options.host) != self.bound[0]:
            self.changed()
        self._rescan = asyncio.get_running_loop().call_later(RESCAN_S, self._rescan_addresses)

    async def close(self) -> None:
        if self._rescan is not None:
            self._rescan.cancel()
        if self._late is not None:
            self._late.cancel()
        if self.watch is not None:
            self.watch.close()
        await self._stop_listening()
        await self.runner.cleanup()
        self.pool.shutdown(wait=True)

    # --- the pages ----------------------------------------------------------------------------
    def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard], client_max_size=1024)
        app.router.add_get("/", self.game)
        app.router.add_get("/fragment", self.fragment)
        app.router.add_get("/history", self.history)
        app.router.add_get("/records", self.records)
        app.router.add_get("/events", self.events)
        app.router.add_get(r"/picture/{version:[0-9a-f]+-[0-9]+}/{orientation:landscape|portrait}.png", self.picture)
        app.router.add_get("/style.css", self.style)
        app.router.add_get("/live.js", self.script)
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler):
        self._served.add(request.protocol)
        if len(self._served) > 4 * MAX_CONNECTIONS:  # forget connections long gone
            live = set(self.runner.server.connections) if self.runner.server else set()
            self._served &= live
        if not address.allowed_client(request.remote):
            return self._headers(web.Response(status=403, text="only the home network may look\n"))
        if request.method not in ("GET", "HEAD"):
            return self._headers(web.Response(status=405, text="this page can only be looked at\n",
                                              headers={"Allow": "GET, HEAD"}))
        if request.body_exists:  # a look carries nothing; its body is never read
            return self._headers(web.Response(status=413, text="a request to this page has no body\n",
                                              headers={"Connection": "close"}))
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            response = web.Response(status=exc.status, text=f"{exc.status} {exc.reason}\n", headers=exc.headers)
        return self._headers(response)

    @staticmethod
    def _headers(response: web.StreamResponse) -> web.StreamResponse:
        if not response.prepared:
            response.headers.update(SECURITY_HEADERS)
        return response

    @staticmethod
    def _text(text: str, kind: str) -> web.Response:
        return web.Response(text=text, content_type=kind, headers={"Cache-Control": "max-age=300"})

    async def style(self, request: web.Request) -> web.Response:
        return self._text(page.STYLE, "text/css")

    async def script(self, request: web.Request) -> web.Response:
        return self._text(page.SCRIPT, "text/javascript")

    def _language(self, request: web.Request) -> str:
        asked = request.query.get("lang", "")
        return asked if asked in LANGUAGES else self.config.language

    def _html(self, html: str) -> web.Response:
        return web.Response(text=html, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def _game_text(self, language: str):
        look = self.look
        return await self._shared(("text", language), lambda: self._draw(lambda p: p.text(language))), look

    async def game(self, request: web.Request) -> web.Response:
        language = self._language(request)
        version = self.version
        text, look = await self._game_text(language)
        html = await self._draw(lambda p: _in(language, page.game_page, language, version, text, look.problem))
        return self._html(html)

    async def fragment(self, request: web.Request) -> web.Response:
        language = self._language(request)
        version = self.version
        text, look = await self._game_text(language)
        html = await self._draw(lambda p: _in(language, page.game_part, language, version, text, look.problem))
        return self._html(html)

    async def history(self, request: web.Request) -> web.Response:
        language = self._language(request)
        loop = asyncio.get_running_loop()
        try:
            games, problem = await loop.run_in_executor(self.pool, self.journal.games), None
        except Exception as exc:  # a damaged journal: said on the page
            games, problem = [], str(exc)
        html = await self._draw(lambda p: _in(language, page.history_page, language, p.history(language, games), problem))
        return self._html(html)

    async def records(self, request: web.Request) -> web.Response:
        from ..insights.records import journal_records

        language = self._language(request)
        loop = asyncio.get_running_loop()
        try:
            found = await loop.run_in_executor(self.pool, lambda: journal_records(self.journal, keep=False))
            records, problem = found.records, None
        except Exception as exc:
            records, problem = {}, str(exc)
        html = await self._draw(lambda p: _in(language, page.records_page, language, p.records(language, records), problem))
        return self._html(html)

    async def picture(self, request: web.Request) -> web.StreamResponse:
        language = self._language(request)
        orientation = request.match_info["orientation"]
        current = request.match_info["version"] == self.version
        png = await self._shared(("png", language, orientation), lambda: self._draw(lambda p: p.png(language, orientation)))
        response = web.StreamResponse(headers={"Content-Type": "image/png", "Content-Length": str(len(png)),
                                               "Cache-Control": "max-age=86400, immutable" if current else "no-store"})
        self._headers(response)
        await response.prepare(request)
        if request.method == "HEAD":
            return response
        for start in range(0, len(png), CHUNK):
            if not await _write(request, response, self.options.write_timeout, png[start:start + CHUNK]):
                return response
        await response.write_eof()
        return response

    async def events(self, request: web.Request) -> web.StreamResponse:
        viewer = self.hub.join()
        if viewer is None:
            return web.Response(status=503, text="too many viewers\n", headers={"Retry-After": "10"})
        viewer.on_drop = request.transport.abort if request.transport else None
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
        self._headers(response)
        try:
            await response.prepare(request)
            if not await _write(request, response, self.options.write_timeout, b"retry: 2000\n" + event(self.version)):
                return response
            while not viewer.dropped.is_set():
                try:
                    message = await asyncio.wait_for(viewer.queue.get(), HEARTBEAT_S)
                except asyncio.TimeoutError:
                    message = b": still here\n\n"
                if not message or viewer.dropped.is_set():
                    break
                if not await _write(request, response, self.options.write_timeout, message):
                    break
        except ConnectionError:
            pass
        finally:
            self.hub.leave(viewer)
        return response


def _in(language: str, fn, *args):
    """fn(*args) with the page's language current (on the drawing thread)."""
    from .. import i18n

    i18n.set_language(language)
    return fn(*args)


async def _write(request: web.Request, response: web.StreamResponse, timeout: float, data: bytes) -> bool:
    """One write, within `timeout` seconds; False (and the connection cut) when it did not go."""
    try:
        await asyncio.wait_for(response.write(data), timeout)
        return True
    except (asyncio.TimeoutError, ConnectionError, RuntimeError):
        if request.transport is not None:
            request.transport.abort()
        return False


def event(version: str) -> bytes:
    return f"event: change\ndata: {json.dumps({'version': version})}\n\n".encode()


class CannotListen(Exception):
    pass


async def serve(options: Options, ready: Callable[[LiveServer], None] | None = None) -> None:
    """Serve until SIGTERM or SIGINT."""
    server = LiveServer(options)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, server.stopped.set)
    try:
        await server.start()
        if ready:
            ready(server)
        await server.stopped.wait()
    finally:
        await server.close()


def pid_rss_mb(pid: int | None = None) -> float:
    """Resident memory of a process, in MiB (from /proc)."""
    with open(f"/proc/{pid or os.getpid()}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0
