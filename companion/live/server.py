"""The live page's server: a few fixed pages, server-sent events, and firm limits.

It only looks: GET and HEAD of its own paths; anything else is 405 or 404. No file is served
from the disk (the CSS and script are in the code), so no path can reach outside. Limits keep
a misbehaving or hostile client from costing more than a little memory: short request lines and
headers, no request bodies, a cap on connections and on viewers, a bounded queue per viewer,
a time limit on every write (a client that stops reading is cut off), and connections that
send no request in time are closed. Clients from outside the home network are refused, and so
is a request for any name but the machine's own (a page elsewhere that rebinds its own name to
this address cannot read the game). One device cannot take the room: a few event streams per
address, and a refused one is closed at once.

Two threads work for it: one reads the journal, one draws (pygame, and the language of the
pages). A slow read (the records of many games) never holds up a picture.

The settings' `live` switch turns it on and off while it runs: off, it listens nowhere.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import config as settings
from ..errors import CompanionError
from ..i18n import LANGUAGES
from ..ui.loop import collecting, heap
from . import address, page
from .events import FolderWatch, Hub
from .reader import Look, ReadOnlyJournal
from .switch import SWITCHED_OFF
from .web import Limits, Request, Response, Router, Site

log = logging.getLogger(__name__)

MAX_VIEWERS = 64  # open pages at once (a table of eight, their phones, a TV or two)
STREAMS_PER_ADDRESS = 6  # open pages of one device (a phone with a few tabs); more are refused
MAX_CONNECTIONS = 128  # sockets at once, viewers included
HEAD_TIMEOUT_S = 10.0  # a connection must send its request within this
WRITE_TIMEOUT_S = 10.0  # a client that takes longer to take a write is cut off
KEEPALIVE_S = 15.0
HEARTBEAT_S = 20.0  # a comment down each event stream: dead connections are found
CHUNK = 32 * 1024  # pictures are sent in pieces of this size
RESCAN_S = 60.0  # the home-network addresses are looked up again this often
# a change heard that showed nothing new is read once more this much later: a commit can be
# heard with its -wal written but its index not yet (a writer held up between the two)
LATE_S = 0.3


SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self'; "
    "font-src 'self'; style-src 'self' 'unsafe-inline'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
BUSY_RETRY_S = 5


def _busy_answer() -> bytes:
    """The whole answer a connection over the cap gets: a small page that loads itself again."""
    body = page.busy_page(BUSY_RETRY_S).encode()
    head = {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Length": str(len(body)),
        "Retry-After": str(BUSY_RETRY_S),
        "Cache-Control": "no-store",
        "Connection": "close",
        **SECURITY_HEADERS,
    }
    return (
        "HTTP/1.1 503 Service Unavailable\r\n" + "".join(f"{k}: {v}\r\n" for k, v in head.items()) + "\r\n"
    ).encode() + body


BUSY = _busy_answer()


@dataclass
class Options:
    db: Path
    config: Path | None
    host: str | None = None  # None: loopback and the home-network addresses
    port: int | None = None  # None: the settings' live_port
    always: bool = False  # serve whatever the settings say (tests, a desktop try-out)
    head_timeout: float = HEAD_TIMEOUT_S
    write_timeout: float = WRITE_TIMEOUT_S


class LiveServer:
    def __init__(self, options: Options):
        heap.give_back_large_blocks(arenas=1)
        self.options = options
        self.journal = ReadOnlyJournal(options.db)
        self.hub = Hub(MAX_VIEWERS)
        self.boot = os.urandom(3).hex()  # versions of an earlier run never match this run's
        self.number = 0
        self.look = Look()
        self.config = settings.Config()
        self.bound: tuple[list[str], int] | None = None
        self.url: str | None = None
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-draw")
        self.reads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-read")
        self._painter = None
        self._queued = 0  # drawing jobs asked for and not yet done (the painter rests at none)
        self._queue_lock = threading.Lock()
        # this version's pages and pictures (emptied at each new version: a few per language)
        self._cache: dict[tuple, asyncio.Future] = {}
        # the records page per language, for one state of the journal's results
        self._records: tuple[Any, dict[str, asyncio.Future]] = (None, {})
        self._streams: dict[str, int] = {}  # open event streams per client address
        self.names: set[str] = set()  # the Host names this page answers to
        self._refreshing: asyncio.Task | None = None
        self._again = False
        self._started = self._missed = False
        self.watch: FolderWatch | None = None
        self._rescan: asyncio.TimerHandle | None = None
        self._late: asyncio.TimerHandle | None = None
        self._late_round = False
        self.stopped = asyncio.Event()
        self.router = self._make_router()
        self.site = Site(
            self._answer,
            Limits(
                max_connections=MAX_CONNECTIONS,
                head_timeout=options.head_timeout,
                keepalive=KEEPALIVE_S,
                write_timeout=options.write_timeout,
                busy=BUSY,
                refusal_headers=SECURITY_HEADERS,
            ),
        )

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
                self._painter.follow(self.config)
            try:
                return fn(self._painter, *args)
            finally:
                with self._queue_lock:
                    self._queued -= 1
                    last = self._queued == 0
                if last:  # nothing more to draw for now: the frame is let go until then
                    self._painter.rest()
                self._tidy()

        with self._queue_lock:
            self._queued += 1
        return asyncio.get_running_loop().run_in_executor(self.pool, job)

    def _tidy(self) -> None:
        """After each drawing job, on the drawing thread: the pictures' garbage collected and
        the heap's free pages handed back. A drawn screen's widgets hold their pictures in
        cycles, which only Python's oldest collection frees, and Python waits for that until a
        quarter more objects than it already holds were made: the page grew by megabytes a
        game until it did. What lives as long as the page (its modules, the type) is frozen
        after the first job, so each full collection looks only at what came after."""
        collecting.settle()  # once: later calls do nothing
        collecting.tidy(at_rest=True)
        heap.trim()

    def _read(self, fn: Callable[[], Any]) -> Awaitable[Any]:
        """Run fn() on the reading thread (the journal's reads: never in the drawing's way)."""
        return asyncio.get_running_loop().run_in_executor(self.reads, fn)

    def _shared(self, key: tuple, make: Callable[[], Awaitable[Any]], cache: dict | None = None) -> asyncio.Future:
        """One job per key and version, whoever asks: fifty viewers, one picture."""
        cache = self._cache if cache is None else cache
        key = (self.version, *key) if cache is self._cache else key
        found = cache.get(key)
        if found is None or (found.done() and (found.cancelled() or found.exception() is not None)):
            found = cache[key] = asyncio.ensure_future(make())
        return found

    def _new_version(self) -> None:
        self.number += 1
        self._cache.clear()
        self.hub.publish(event(self.version, self.config.language))

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
        look = await self._read(self.journal.look)
        if look.key != self.look.key or self.number == 0 or force:
            await self._draw(lambda painter: painter.show(look))
            self.look = look
            self._new_version()
            return True
        return False

    async def _apply_settings(self) -> None:
        path = self.options.config
        loaded = (
            (await asyncio.get_running_loop().run_in_executor(None, lambda: settings.load(path, move_aside=False)))[0]
            if path
            else settings.Config()
        )
        before, self.config = self.config, loaded
        if self.number and _shown_settings(before) != _shown_settings(loaded):
            # the table's language or what its screen shows changed: every page follows
            await self._draw(lambda painter: painter.follow(loaded))
            self._new_version()
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
    async def _listen(self, hosts: list[str], port: int) -> None:
        for host in hosts:
            try:
                await self.site.listen(host, port)
            except OSError as exc:
                if host == hosts[0]:  # the first (loopback, or the one asked for) must work
                    await self._stop_listening()
                    raise CannotListen(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
                log.warning("cannot listen on %s:%s: %s", host, port, exc.strerror or exc)
        self.bound = (hosts, port)
        self.url = address.page_url(list(hosts), port)
        self.names = address.own_names(hosts, self.url)
        address.publish(self.url)
        log.warning("the live page is at %s", self.url)

    async def _stop_listening(self) -> None:
        self.bound, self.url = None, None
        self.hub.drop_all()
        await self.site.close()
        address.publish(None)

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        files = [self.options.db] + ([self.options.config] if self.options.config else [])
        self.watch = FolderWatch(loop, files, self.changed)
        await self._apply_settings()  # a port already taken ends the start, in one line
        self._started = True
        if self._missed:
            self.changed()
        if self.bound is None and not self.options.always and not self.config.live:
            log.warning(SWITCHED_OFF)
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
        self.reads.shutdown(wait=True)
        self.pool.shutdown(wait=True)

    # --- the pages ----------------------------------------------------------------------------
    def _make_router(self) -> Router:
        router = Router()
        for path, handler in (
            ("/", self.game),
            ("/fragment", self.fragment),
            ("/history", self.history),
            ("/records", self.records),
            ("/events", self.events),
            ("/style.css", self.style),
            ("/live.js", self.script),
            ("/favicon.svg", self.icon),
            ("/favicon.ico", self.icon),
        ):
            router.add(path, handler)
        router.add_pattern(
            r"/picture/(?P<version>[0-9a-f]+-[0-9]+)/(?P<orientation>landscape|portrait)\.png", self.picture
        )
        router.add_pattern(r"/font/(?P<weight>regular|bold)\.ttf", self.font)
        return router

    async def _answer(self, request: Request) -> Response | None:
        """Every request: its route's answer, within the page's rules (_guard)."""
        return await self._guard(request, self.router.find(request) or _not_found)

    async def _guard(self, request: Request, handler) -> Response | None:
        if not address.allowed_client(request.remote):
            return _with_headers(Response.text(403, "only the home network may look\n"))
        if not self._own_name(request.headers.get("host")):
            return _with_headers(Response.text(421, "this page answers to its own names only\n"))
        if request.method not in ("GET", "HEAD"):
            return _with_headers(Response.text(405, "this page can only be looked at\n", {"Allow": "GET, HEAD"}))
        if request.has_body:  # a look carries nothing; its body is never read
            return _with_headers(Response.text(413, "a request to this page has no body\n", close=True))
        response = await handler(request)
        return None if response is None else _with_headers(response)

    def _own_name(self, host: str | None) -> bool:
        """A request without a Host (not a browser's) or for one of this machine's own names."""
        return host is None or address.host_name(host) in self.names

    @staticmethod
    def _fixed(body: str | bytes, kind: str) -> Response:
        return Response(
            200,
            body.encode() if isinstance(body, str) else body,
            {"Content-Type": kind, "Cache-Control": "max-age=300"},
        )

    async def style(self, request: Request) -> Response:
        return self._fixed(page.STYLE, "text/css; charset=utf-8")

    async def script(self, request: Request) -> Response:
        return self._fixed(page.SCRIPT, "text/javascript; charset=utf-8")

    async def icon(self, request: Request) -> Response:
        return self._fixed(page.ICON, "image/svg+xml")

    async def font(self, request: Request) -> Response:
        return self._fixed(page.font(request.match["weight"]), "font/ttf")

    def _language(self, request: Request) -> tuple[str, bool]:
        """The page's language, and whether the viewer chose it (else it is the table's)."""
        asked = request.query.get("lang", "")
        return (asked, True) if asked in LANGUAGES else (self.config.language, False)

    @staticmethod
    def _html(html: str) -> Response:
        return Response(200, html.encode(), {"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"})

    async def _game_html(self, request: Request, kind: str) -> Response:
        language, chosen = self._language(request)
        whole = page.game_page if kind == "page" else page.game_part
        look = self.look
        version = self.version

        async def make():
            text = await self._draw(lambda p: p.text(language))
            return await self._draw(lambda p: _in(language, whole, language, chosen, version, text, look.problem))

        return self._html(await self._shared((kind, language, chosen), make))

    async def game(self, request: Request) -> Response:
        return await self._game_html(request, "page")

    async def fragment(self, request: Request) -> Response:
        return await self._game_html(request, "part")

    async def history(self, request: Request) -> Response:
        language, chosen = self._language(request)

        async def make():
            try:
                games, problem = await self._read(self.journal.games), None
            except Exception as exc:  # a damaged journal: said on the page
                games, problem = [], str(exc)
            return await self._draw(
                lambda p: _in(language, page.history_page, language, chosen, p.history(language, games), problem)
            )

        return self._html(await self._shared(("history", language, chosen), make))

    async def records(self, request: Request) -> Response:
        """Worked out once for each state of the journal's results (a game ended or was
        undone), on the reading thread, whoever asks, in whichever language, however often."""
        language, chosen = self._language(request)
        try:
            state = await self._read(self.journal.results_state)
        except Exception:  # no state to go by: once for this version
            state = None
        state = state if state is not None else self.version
        if self._records[0] != state:
            self._records = (state, {})

        async def work_out():
            from ..insights.records import journal_records

            try:
                return (await self._read(lambda: journal_records(self.journal, keep=False))).records, None
            except Exception as exc:
                return {}, str(exc)

        async def make():
            records, problem = await self._shared(("records",), work_out, self._records[1])
            return await self._draw(
                lambda p: _in(language, page.records_page, language, chosen, p.records(language, records), problem)
            )

        return self._html(await self._shared(("page", language, chosen), make, self._records[1]))

    async def picture(self, request: Request) -> None:
        language, _chosen = self._language(request)
        orientation = request.match["orientation"]
        current = request.match["version"] == self.version
        png = await self._shared(
            ("png", language, orientation), lambda: self._draw(lambda p: p.png(language, orientation))
        )
        stream = await request.stream(
            200,
            {
                "Content-Type": "image/png",
                "Content-Length": str(len(png)),
                "Cache-Control": "max-age=86400, immutable" if current else "no-store",
                **SECURITY_HEADERS,
            },
        )
        for start in range(0, len(png), CHUNK):
            if not await stream.write(png[start : start + CHUNK]):
                return None
        await stream.end()
        return None

    @staticmethod
    def _refuse_stream(text: str) -> Response:
        """A stream that cannot be had: said, and its connection closed at once (a refused
        connection kept alive would hold a place another device needs)."""
        return Response.text(503, text, {"Retry-After": "10"}, close=True)

    async def events(self, request: Request) -> Response | None:
        client = request.remote or ""
        if self._streams.get(client, 0) >= STREAMS_PER_ADDRESS:
            return self._refuse_stream("too many pages open on this device\n")
        viewer = self.hub.join()
        if viewer is None:
            return self._refuse_stream("too many viewers\n")
        self._streams[client] = self._streams.get(client, 0) + 1
        request.on_lost(lambda: self.hub.drop(viewer))  # a page closed: its place is free at once
        try:
            stream = await request.stream(
                200, {"Content-Type": "text/event-stream", "Cache-Control": "no-store", **SECURITY_HEADERS}
            )
            viewer.on_drop = stream.cut
            if not await stream.write(b"retry: 2000\n" + event(self.version, self.config.language)):
                return None
            while not viewer.dropped.is_set():
                try:
                    message = await asyncio.wait_for(viewer.queue.get(), HEARTBEAT_S)
                except TimeoutError:
                    message = b": still here\n\n"
                if not message or viewer.dropped.is_set():
                    break
                if not await stream.write(message):
                    break
        finally:
            self.hub.leave(viewer)
            left = self._streams.get(client, 1) - 1
            if left:
                self._streams[client] = left
            else:
                self._streams.pop(client, None)
        return None


def _shown_settings(config: settings.Config) -> tuple:
    """The settings that change what the table's screen shows (the page follows them)."""
    return config.language, config.show_odds, config.show_forecast


def _with_headers(response: Response) -> Response:
    response.headers.update(SECURITY_HEADERS)
    return response


async def _not_found(request: Request) -> Response:
    return Response.text(404, "404 Not Found\n")


def _in(language: str, fn, *args):
    """fn(*args) with the page's language current (on the drawing thread)."""
    from .. import i18n

    i18n.set_language(language)
    return fn(*args)


def event(version: str, language: str) -> bytes:
    """A change: the version shown now, and the table's language (a page whose viewer chose
    none follows it)."""
    return f"event: change\ndata: {json.dumps({'version': version, 'language': language})}\n\n".encode()


class CannotListen(CompanionError):
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
