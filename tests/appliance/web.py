"""The live page seen from here, the way a phone on the home network sees it: through the port
QEMU forwards from loopback to the guest's live page."""

from __future__ import annotations

import http.client
import json
import re
import socket
import threading
import time


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(port: int, path: str, timeout: float = 20) -> tuple[int, bytes]:
    """(status, body); raises OSError (or http.client's errors) when nothing answers."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def answers(port: int, path: str = "/", timeout: float = 10) -> tuple[int, bytes] | None:
    """(status, body), or None when no page answers (refused, reset, closed at once)."""
    try:
        return get(port, path, timeout)
    except (OSError, http.client.HTTPException):
        return None


def version(fragment: bytes) -> str | None:
    found = re.search(rb'data-version="([0-9a-f]+-[0-9]+)"', fragment)
    return found.group(1).decode() if found else None


def players(fragment: bytes) -> int:
    return len(re.findall(rb'<li class="player', fragment))


def story(fragment: bytes) -> list[str]:
    found = re.search(rb'<ol class="story">(.*?)</ol>', fragment, re.S)
    return [line.decode() for line in re.findall(rb"<li>(.*?)</li>", found.group(1))] if found else []


def told(line: bytes) -> str | None:
    """The version an event stream's data line tells of (None for its other lines)."""
    return json.loads(line[len(b"data: ") :])["version"] if line.startswith(b"data: ") else None


class Events(threading.Thread):
    """One viewer's event stream (/events), read in the background: the versions it was told of."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port, self.versions, self.error = port, [], None
        self.connected = threading.Event()
        self.connection: http.client.HTTPConnection | None = None

    def run(self) -> None:
        try:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            self.connection.request("GET", "/events")
            response = self.connection.getresponse()
            assert response.status == 200, response.status
            self.connected.set()
            while True:
                line = response.fp.readline()
                if not line:
                    break
                version = told(line)
                if version:
                    self.versions.append((time.monotonic(), version))
        except Exception as exc:  # the stream ended: said by the check that reads it
            self.error = exc
        finally:
            self.connected.set()

    def close(self) -> None:
        if self.connection is not None and self.connection.sock is not None:
            try:
                self.connection.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


class FirstServed(threading.Thread):
    """Polls the page from `since` (QEMU's start) until it shows a game: when that first was."""

    def __init__(self, port: int, since: float, want=lambda fragment: players(fragment) > 0, limit: float = 600):
        super().__init__(daemon=True)
        self.port, self.since, self.want, self.limit = port, since, want, limit
        self.seconds: float | None = None
        self.fragment = b""
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set() and time.monotonic() - self.since < self.limit:
            found = answers(self.port, "/fragment", timeout=5)
            if found and found[0] == 200 and self.want(found[1]):
                self.seconds, self.fragment = time.monotonic() - self.since, found[1]
                return
            self.stop.wait(1)


def post(port: int, path: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        connection.request("POST", path, body=b"")
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()
