"""The live page's figures for `cloud-companion bench`, measured from outside, on loopback:
the page in its own process as its unit runs it (`python -m companion.live`), a journal
written as the app writes it, and viewers in a process of their own (plain asyncio clients: event streams, each change fetched as a
browser does it, the page's part and its picture, on a kept-alive connection).

- action_to_update_p99_ms: from an action saved in the journal to a viewer holding the new
  page part and picture (inotify, the read, the drawing, the event, both fetches);
- rss_mb_1_viewer, rss_mb_50_viewers: the server's resident memory, once warm;
- idle_cpu_percent: % of one core while one viewer watches and nothing happens;
- cpu_ms_per_action_1_viewer, cpu_ms_per_viewer_per_action: the server's CPU for each action
  with one viewer, and what each further viewer adds (fifty of them measured);
- start_s: from starting the process to serving the first page;
- reporting_viewer_reconnects: how often the measuring viewer's event stream was cut and opened
  again, as a page does (a change is still awaited; 0 when nothing was cut);
- rss_mb_evening_game_10, rss_mb_evening_end, rss_growth_mb_evening: the server's memory over an
  evening of fifty games (the three titles in turn, every tenth the same Cloud Mine game played to its end, so the
  records change, and the two readings are of the same screen), fifty viewers on their own addresses watching in three languages, as TVs and
  as phones: what it holds once warm, and what it gains from game 10 to game 50 (nothing, when
  every cache has its bound), each read once the server has gone quiet after the game's last
  change (not while it still draws that change's pictures for the other shapes and languages);
- press_to_frame_p99_ms_50_viewers: the app's own seat press to frame (devices/bench.py), its
  journal watched by the page and fifty viewers fetching every change meanwhile (all on this
  machine: on the Pi the viewers are phones); _no_page: the same with no page, to compare.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from ..ui.loop.heap import status_kib

ACTIONS = 60
GAP_S = 0.25  # between two actions: one change at a time
CHANGE_TIMEOUT_S = 30.0  # an action the page never shows ends the bench with an error
IDLE_S = 8.0
HOST = "127.0.0.1"
EVENING_GAMES = 50
SHORT_GAME = 4  # actions of most of the evening's games: each a new state drawn in every shape
EVENING = (
    {"game": "cloud9", "players": ["Ann", "Ben", "Cat"]},
    {"game": "cloudship", "players": ["Ann", "Ben", "Cat"]},
    {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan"]},
)

VIEWERS_SCRIPT = r"""
import asyncio, json, re, sys, time

LANGUAGES, SHAPES = ("en", "de", "hu"), ("landscape", "portrait")


class Device:
    # a device of its own (its own loopback address: the page allows a few streams per device),
    # fetching on one kept-alive connection, as a browser does
    def __init__(self, host, port, source):
        self.host, self.port, self.source, self.kept = host, port, source, None

    async def connect(self):
        return await asyncio.open_connection(self.host, self.port, local_addr=(self.source, 0))

    def request(self, path):
        return f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\n\r\n".encode()

    async def get(self, path):
        for again in (False, True):  # a kept connection the server closed meanwhile: once more
            if self.kept is None:
                self.kept = await self.connect()
            reader, writer = self.kept
            try:
                writer.write(self.request(path))
                head = await reader.readuntil(b"\r\n\r\n")
                body = await reader.readexactly(int(re.search(rb"(?i)content-length: *(\d+)", head).group(1)))
                if re.search(rb"(?i)connection: *close", head):
                    writer.close()
                    self.kept = None
                return body
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                writer.close()
                self.kept = None
                if again:
                    raise

    async def events(self):
        # the event stream's lines (chunk sizes among them: only its data lines are read)
        reader, writer = await self.connect()
        try:
            writer.write(self.request("/events"))
            if b" 200 " not in await reader.readline():
                return
            async for line in reader:
                yield line
        finally:
            writer.close()


async def viewer(n, host, port, report):
    # in one of the three languages, a TV (landscape) or a phone (portrait); as a page's
    # EventSource does, a stream that ends is opened again, and a version already shown (the
    # greeting on reconnecting) is not fetched again
    language, shape = LANGUAGES[n % 3], SHAPES[n // 3 % 2]
    device = Device(host, port, f"127.0.{n // 200}.{n % 200 + 2}")
    last = None
    while True:
        try:
            async for line in device.events():
                if not line.startswith(b"data: "):
                    continue
                version = json.loads(line[6:])["version"]
                if version == last:
                    continue
                html = (await device.get(f"/fragment?lang={language}")).decode()
                shown = re.search(r'/picture/([^/]+)/landscape', html)
                if shown:
                    await device.get(f"/picture/{shown.group(1)}/{shape}.png?lang={language}")
                last = version
                if report:
                    print(json.dumps({"version": version, "at": time.monotonic()}), flush=True)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        if report:
            print(json.dumps({"reconnect": time.monotonic()}), flush=True)
        await asyncio.sleep(0.5)


async def main(host, port, count):
    await asyncio.gather(*(viewer(n, host, port, n == 0) for n in range(count)))

asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _rss_mb(pid: int) -> float:
    return (status_kib("VmRSS", pid) or 0) / 1024


class _Server:
    def __init__(self, scratch: Path, db: Path):
        self.port = _free_port()
        config = scratch / "config.toml"
        config.write_text("live = true\n")
        env = dict(os.environ, CLOUD_COMPANION_LIVE_URL_FILE=str(scratch / "live-url"))
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [  # as its unit runs it (the whole command line would load every command's modules too)
                sys.executable,
                "-m",
                "companion.live",
                "--db",
                str(db),
                "--config",
                str(config),
                "--host",
                HOST,
                "--port",
                str(self.port),
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.start_s = self._first_page()

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def _first_page(self) -> float:
        import urllib.request

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/", timeout=5) as answer:
                    answer.read()
                return time.perf_counter() - self.started
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("the live page never answered")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


class _Viewers:
    def __init__(self, port: int, count: int):
        self.process = subprocess.Popen(
            [sys.executable, "-c", VIEWERS_SCRIPT, HOST, str(port), str(count)], stdout=subprocess.PIPE, text=True
        )
        # read on a thread of its own, so that a change that never comes ends the bench, not hangs it
        self.lines: queue.Queue[str] = queue.Queue()
        self.reconnects = 0
        threading.Thread(target=self._read, daemon=True).start()
        self.next_change()  # the version shown when it connected

    def _read(self) -> None:
        assert self.process.stdout is not None  # stdout=PIPE
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put("")  # the viewers ended

    def next_change(self) -> tuple[str, float]:
        try:
            line = self.lines.get(timeout=CHANGE_TIMEOUT_S)
        except queue.Empty:
            raise RuntimeError(f"the live page showed no change within {CHANGE_TIMEOUT_S:.0f} s") from None
        if not line:
            raise RuntimeError("the viewers ended")
        seen = json.loads(line)
        if "reconnect" in seen:  # its stream was cut: counted, and the change still awaited
            self.reconnects += 1
            return self.next_change()
        return seen["version"], seen["at"]

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def _cpu_seconds(pid: int) -> float:
    from ..ui.tools.bench import cpu_seconds

    return cpu_seconds(pid)


def _until_quiet(pid: int, poll_s: float = 0.25, longest_s: float = 10.0) -> None:
    """Wait until the server has drawn and sent what the last change asked of it (its CPU time
    still for two polls): what it holds, not what a picture being drawn holds for a moment."""
    deadline, last, still = time.monotonic() + longest_s, _cpu_seconds(pid), 0
    while still < 2 and time.monotonic() < deadline:
        time.sleep(poll_s)
        now = _cpu_seconds(pid)
        still = still + 1 if now - last < 0.002 else 0
        last = now


def _evening(controller, viewers: _Viewers, pid: int, games: int) -> dict[str, float]:
    """`games` games watched by the crowd; the server's memory at game 10 (or sooner) and at the end."""
    from ..rules.simulate import random_game

    held, warm = {}, min(10, games)
    for n in range(1, games + 1):
        # every tenth the same Cloud Mine game played to its end (the records change): game 10
        # and game 50, where the memory is read, show the same screen, its pictures in every shape
        whole = n % 10 == 0
        setup = EVENING[2] if whole else EVENING[n % 3]
        actions = random_game(setup, seed=1000 if whole else 1000 + n)
        if not whole:
            actions = actions[:SHORT_GAME]
        controller.new_game(setup)
        viewers.next_change()
        for action in actions:
            controller.submit(action)
            viewers.next_change()
        if n in (warm, games):
            _until_quiet(pid)
            held[n] = _rss_mb(pid)
    return {
        "live.rss_mb_evening_game_10": round(held[warm], 1),
        "live.rss_mb_evening_end": round(held[games], 1),
        "live.rss_growth_mb_evening": round(held[games] - held[warm], 1),
    }


def bench(
    actions: int = ACTIONS, idle: float = IDLE_S, presses: int = 150, crowd: int = 50, games: int = EVENING_GAMES
) -> dict[str, float]:
    from ..controller import GameController
    from ..journal import Journal
    from ..rules.simulate import random_game

    setup = {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]}
    played = random_game(setup, seed=3)[:actions]
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        db = scratch / "journal.sqlite3"
        journal = Journal.open(db)
        controller = GameController(journal)
        controller.new_game(setup)
        server = _Server(scratch, db)
        try:
            figures["live.start_s"] = round(server.start_s, 3)
            one = _Viewers(server.port, 1)
            latencies = []
            cpu_before = _cpu_seconds(server.process.pid)
            for action in played:
                controller.submit(action)  # durable when it returns
                saved = time.monotonic()
                _version, at = one.next_change()
                latencies.append((at - saved) * 1000)
                time.sleep(GAP_S)
            one_viewer_ms = 1000 * (_cpu_seconds(server.process.pid) - cpu_before) / len(played)
            figures["live.action_to_update_median_ms"] = round(statistics.median(latencies), 1)
            figures["live.action_to_update_p99_ms"] = round(statistics.quantiles(latencies, n=100)[98], 1)
            figures["live.rss_mb_1_viewer"] = round(_rss_mb(server.process.pid), 1)
            time.sleep(1.0)
            before = _cpu_seconds(server.process.pid)
            began = time.monotonic()
            time.sleep(idle)
            figures["live.idle_cpu_percent"] = round(
                100 * (_cpu_seconds(server.process.pid) - before) / (time.monotonic() - began), 3
            )
            one.stop()
            many = _Viewers(server.port, crowd)
            controller.new_game(setup)
            many.next_change()
            crowd_actions = random_game(setup, seed=4)[:10]
            cpu_before = _cpu_seconds(server.process.pid)
            for action in crowd_actions:
                controller.submit(action)
                many.next_change()
                time.sleep(GAP_S)
            crowd_ms = 1000 * (_cpu_seconds(server.process.pid) - cpu_before) / len(crowd_actions)
            # what one more viewer costs the server for each action (its fetches and its events)
            figures["live.cpu_ms_per_action_1_viewer"] = round(one_viewer_ms, 2)
            figures["live.cpu_ms_per_viewer_per_action"] = round(max(0.0, crowd_ms - one_viewer_ms) / (crowd - 1), 2)
            figures["live.rss_mb_50_viewers"] = round(_rss_mb(server.process.pid), 1)
            figures.update(_evening(controller, many, server.process.pid, games))
            figures["live.reporting_viewer_reconnects"] = one.reconnects + many.reconnects
            # the app's own loop meanwhile: seat presses saved to the journal the page watches
            from ..devices.bench import bench as seats_bench

            def press_to_frame_p99() -> float:
                with contextlib.closing(Journal.open(db)) as app_journal:
                    return seats_bench(presses=presses, journal=app_journal, games=("cloudmine",))[
                        "seats.press_to_frame_p99_ms"
                    ]

            journal.close()
            figures["live.press_to_frame_p99_ms_50_viewers"] = press_to_frame_p99()
            many.stop()
            server.stop()
            # the same presses with no page and no viewers, at the same moment, to compare
            figures["live.press_to_frame_p99_ms_no_page"] = press_to_frame_p99()
        finally:
            server.stop()
            if journal is not None:
                journal.close()
    return figures


if __name__ == "__main__":
    for name, value in bench().items():
        print(f"{name:44s} {value}")
