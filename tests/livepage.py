"""The live page run for real in tests: `cloud-companion live` as its own process on loopback, the
journal written by `cloud-companion replay - --follow` (the real writer), and plain clients."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "companion" / "examples"
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def end(process: subprocess.Popen, timeout: float = 20) -> int:
    """Terminate a server started by a test (killed if it will not go); its exit status."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
    return process.wait()


def example(name: str) -> list[str]:
    return [line for line in (EXAMPLES / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


class Live:
    """`cloud-companion live` on a free loopback port; stop() ends it (and says what it logged)."""

    def __init__(self, db: Path, config: Path, port: int | None = None, extra: tuple[str, ...] = (), wait: bool = True):
        self.db, self.config, self.port = db, config, port or free_port()
        self.log_path = db.with_name(f"live-{self.port}-{time.monotonic_ns()}.log")
        command = [
            sys.executable,
            "-m",
            "companion",
            "live",
            "--db",
            str(db),
            "--config",
            str(config),
            "--host",
            HOST,
            "--port",
            str(self.port),
            *extra,
        ]
        env = dict(os.environ, CLOUD_COMPANION_LIVE_URL_FILE=str(db.with_name("live-url")))
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        if wait:
            self.wait_listening()

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def logged(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_listening(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the live server ended: {self.logged()}")
            try:
                socket.create_connection((HOST, self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"the live server never listened: {self.logged()}")

    def rss_mb(self) -> float:
        return rss_mb(self.process.pid)

    def stop(self) -> str:
        end(self.process)
        self.log.close()
        return self.logged()


class Writer:
    """`cloud-companion replay - --db DB --follow`: each line sent is journaled before `send` returns."""

    def __init__(self, db: Path, setup: str):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "replay", "-", "--db", str(db), "--follow"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.saved = 0
        self.process.stdin.write(setup.encode() + b"\n")
        self.process.stdin.flush()

    def send(self, line: str) -> float:
        """Journal one action; returns the moment (time.monotonic) the writer said it was saved."""
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise RuntimeError(f"the writer ended: {self.process.stderr.read().decode()}")
        self.saved = json.loads(answer)["ok"]
        return time.monotonic()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(timeout=30)


def get(url: str, path: str = "/", timeout: float = 10, headers: dict | None = None) -> tuple[int, dict, bytes]:
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url + path, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def raw(port: int, data: bytes, timeout: float = 10) -> bytes:
    """Send bytes as they are and read the answer until the server closes (or `timeout`)."""
    with socket.create_connection((HOST, port), timeout=timeout) as s:
        try:
            s.sendall(data)
        except (BrokenPipeError, ConnectionResetError):  # refused before it was all sent
            pass
        chunks = []
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                if b"\r\n\r\n" in b"".join(chunks):  # the answer's head: the rest comes at once
                    s.settimeout(0.5)
        except (TimeoutError, ConnectionResetError):
            pass
        return b"".join(chunks)


def status_of(answer: bytes) -> int:
    found = re.match(rb"HTTP/1\.[01] (\d{3})", answer)
    return int(found.group(1)) if found else 0


def device(n: int) -> str:
    """The n-th device of a household, as a loopback address of its own (all of 127/8 is
    loopback): the page counts event streams per address."""
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


class Events:
    """One viewer's event stream, read on a thread: every `change` event's version, and when.
    `source`: the address it comes from (a device of its own; default: 127.0.0.1)."""

    def __init__(self, port: int, timeout: float = 60, source: str | None = None):
        self.sock = socket.create_connection(
            (HOST, port), timeout=timeout, source_address=(source, 0) if source else None
        )
        self.sock.sendall(f"GET /events HTTP/1.1\r\nHost: {HOST}\r\nAccept: text/event-stream\r\n\r\n".encode())
        self.versions: list[tuple[str, float]] = []
        self.status = 0
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        buffer = b""
        try:
            while True:
                chunk = self.sock.recv(4096)
                if not chunk:
                    break
                buffer += chunk
                if not self.status:
                    self.status = status_of(buffer)
                for version in re.findall(rb'data: \{"version": "([^"]+)"[^\n]*\n\n', buffer):
                    with self.changed:
                        self.versions.append((version.decode(), time.monotonic()))
                        self.changed.notify_all()
                buffer = buffer[buffer.rfind(b"\n\n") + 2 :] if b"\n\n" in buffer else buffer
        except OSError:
            pass
        with self.changed:
            self.changed.notify_all()

    def wait(self, count: int, timeout: float = 30) -> list[tuple[str, float]]:
        """Until `count` versions have come (or the time is up); the versions seen."""
        with self.changed:
            self.changed.wait_for(lambda: len(self.versions) >= count or not self.thread.is_alive(), timeout)
            return list(self.versions)

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self.thread.join(5)
