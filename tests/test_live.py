"""The live page, served for real on loopback by `cloud-companion live`, the journal written by
`cloud-companion replay --follow`: what it shows, how it learns of actions, what it refuses, and
that a damaged journal, slow or hostile clients and many viewers cannot bring it down."""

from __future__ import annotations

import contextlib
import io
import re
import socket
import sqlite3
import time

import pygame
import pytest

from companion.live import address
from livepage import HOST, Events, Live, Writer, device, example, free_port, get, raw, status_of

C9 = example("cloud9-four-players-tie-break.jsonl")
MINE = example("cloudmine-six-players.jsonl")


@pytest.fixture
def place(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("live = true\n")
    return tmp_path / "journal.sqlite3", config


@pytest.fixture
def game(place):
    """A Cloud 9 game half way through, the writer still at work, and the live page on it."""
    db, config = place
    writer = Writer(db, C9[0])
    for line in C9[1:10]:
        writer.send(line)
    live = Live(db, config)
    yield live, writer
    writer.close()
    live.stop()


def version_of(html: bytes) -> str:
    return re.search(rb'id="live" data-version="([^"]+)"', html).group(1).decode()


def test_the_page_shows_the_game_its_scores_and_whose_turn(game):
    live, _writer = game
    status, headers, body = get(live.url, "/")
    html = body.decode()
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert "Cloud 9" in html and all(
        f'<span class="name">{name}</span>' in html for name in ("Ann", "Ben", "Cat", "Dan")
    )
    assert re.search(r'class="player turn">.*?<span class="name">(\w+)</span>', html)
    assert 'class="prompt"' in html and 'class="story"' in html
    assert "script-src 'self'" in headers["Content-Security-Policy"]


@pytest.mark.parametrize("orientation,size", [("landscape", (1920, 1080)), ("portrait", (1080, 1920))])
def test_the_picture_is_the_apps_screen_at_tv_and_phone_size(game, orientation, size):
    live, _writer = game
    version = version_of(get(live.url, "/fragment")[2])
    status, headers, png = get(live.url, f"/picture/{version}/{orientation}.png")
    assert status == 200 and headers["Content-Type"] == "image/png"
    picture = pygame.image.load(io.BytesIO(png), "x.png")
    assert picture.get_size() == size
    # the sky of the app's theme, not an empty picture: many colours
    colours = {picture.get_at((x, y))[:3] for x in range(0, size[0], 40) for y in range(0, size[1], 40)}
    assert len(colours) > 20


def test_each_action_reaches_every_viewer_and_the_page_follows(game):
    live, writer = game
    before = version_of(get(live.url, "/fragment")[2])
    viewers = [Events(live.port, source=device(n)) for n in range(3)]
    try:
        for viewer in viewers:
            assert viewer.wait(1)[0][0] == before  # the version shown now, as soon as it connects
        writer.send(C9[10])
        for viewer in viewers:
            seen = viewer.wait(2)
            assert len(seen) >= 2 and seen[-1][0] != before
        after = get(live.url, "/fragment")[2]
        assert version_of(after) == viewers[0].versions[-1][0] != before
    finally:
        for viewer in viewers:
            viewer.close()


def test_the_page_speaks_german_and_hungarian(game):
    live, _writer = game
    english = get(live.url, "/?lang=en")[2].decode()
    german = get(live.url, "/?lang=de")[2].decode()
    hungarian = get(live.url, "/?lang=hu")[2].decode()
    assert 'lang="de"' in german and "Punkte" in german and "Fahrt" in german
    assert 'lang="hu"' in hungarian and "Pontok" in hungarian
    assert "Scores" in english and "Scores" not in german
    # an unknown language is the table's own (the settings'), not an error
    assert get(live.url, "/?lang=xx")[0] == 200


def test_the_end_screen_and_its_recap(place):
    db, config = place
    writer = Writer(db, MINE[0])
    for line in MINE[1:]:
        writer.send(line)
    writer.close()
    live = Live(db, config)
    try:
        html = get(live.url, "/")[2].decode()
        assert 'class="end"' in html and "Game over" in html and 'class="ranking"' in html
        assert re.search(r'<li><span class="place">1\.</span>', html)
    finally:
        live.stop()


def test_history_and_records_are_read_only_pages(place):
    db, config = place
    for lines in (MINE, C9):
        writer = Writer(db, lines[0])
        for line in lines[1:]:
            writer.send(line)
        writer.close()
    live = Live(db, config)
    try:
        history = get(live.url, "/history")[2].decode()
        assert history.count("<tr>") == 3 and "The Cloud Mine" in history and "won by" in history
        records = get(live.url, "/records?lang=de")[2].decode()
        assert "<h1>Rekorde</h1>" in records and "Cloud 9" in records
    finally:
        live.stop()


def test_no_journal_yet_then_a_game_appears(place):
    db, config = place
    live = Live(db, config)
    try:
        assert "No game yet" in get(live.url, "/")[2].decode()
        viewer = Events(live.port)
        viewer.wait(1)
        writer = Writer(db, C9[0])
        writer.send(C9[1])
        deadline = time.monotonic() + 30
        while "Cloud 9" not in get(live.url, "/fragment")[2].decode() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "Cloud 9" in get(live.url, "/")[2].decode()
        assert len(viewer.wait(2)) >= 2 and "cannot be shown" not in get(live.url, "/")[2].decode()
        writer.close()
        viewer.close()
    finally:
        live.stop()


def test_a_damaged_journal_is_said_on_the_page_and_the_server_goes_on(place):
    db, config = place
    writer = Writer(db, C9[0])
    for line in C9[1:5]:
        writer.send(line)
    writer.close()
    conn = sqlite3.connect(db)
    conn.execute("UPDATE actions SET action = '{cut' WHERE seq = 3")
    conn.commit()
    conn.close()
    live = Live(db, config)
    try:
        html = get(live.url, "/")[2].decode()
        assert "cannot be shown" in html and "damaged" in html
        assert get(live.url, "/history")[0] == 200
        db.with_name("other.sqlite3")
        # the file itself garbled: still a page, still running
        with open(db, "r+b") as f:
            f.seek(100)
            f.write(b"\xff" * 4000)
        time.sleep(0.5)
        for path in ("/", "/history", "/records", "/fragment"):
            assert get(live.url, path)[0] == 200, path
        assert live.process.poll() is None
    finally:
        live.stop()


def test_the_journal_is_never_written_and_the_writers_lock_never_taken(game):
    live, writer = game
    db = live.db
    before = {p.name: p.stat().st_mtime_ns for p in db.parent.iterdir() if p.name.startswith("journal")}
    for path in ("/", "/history", "/records", "/fragment"):
        get(live.url, path)
    after = {p.name: p.stat().st_mtime_ns for p in db.parent.iterdir() if p.name.startswith("journal")}
    assert after == before  # no file of the journal's touched, none made (the records' cache neither)
    writer.send(C9[10])  # and the app keeps writing while the page looks
    assert writer.saved == 10


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "BREW"])
def test_anything_but_looking_is_refused(game, method):
    live, _writer = game
    target = f"{HOST}:{live.port}" if method == "CONNECT" else "/"
    answer = raw(
        live.port,
        f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\nConnection: close\r\n\r\nundo".encode(),
    )
    assert status_of(answer) in (400, 405), answer[:200]
    assert get(live.url, "/")[0] == 200


@pytest.mark.parametrize(
    "path",
    [
        "/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/picture/../../../etc/passwd",
        "/style.css/../../etc/passwd",
        "//etc/passwd",
        "/picture/abc-1/landscape.png/../x",
        "/picture/0-1/sideways.png",
        "/..%2f..%2fetc%2fpasswd",
        "/static/",
        "/.git/config",
    ],
)
def test_no_path_reaches_outside_its_pages(game, path):
    live, _writer = game
    answer = raw(live.port, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    assert status_of(answer) in (400, 404), answer[:200]
    assert b"root:" not in answer


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Huge: " + b"a" * 100_000 + b"\r\n\r\n",
        b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: y\r\n" % n for n in range(500)) + b"\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(256)) * 4,  # a TLS hello
        b"GET / HTTP/9.9\r\n\r\n",
        b"GET\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nabc",
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999999\r\n\r\n",
        bytes(range(256)) * 40,
    ],
)
def test_malformed_and_oversized_requests_are_refused(game, request_bytes):
    live, _writer = game
    answer = raw(live.port, request_bytes)
    assert status_of(answer) in (0, 400, 405, 413, 414, 431, 505), answer[:200]
    assert get(live.url, "/")[0] == 200  # and it goes on serving


def test_only_the_home_network_may_look():
    assert all(
        address.allowed_client(a)
        for a in (
            "127.0.0.1",
            "::1",
            "192.168.1.20",
            "10.0.0.7",
            "172.16.4.1",
            "169.254.3.3",
            "fe80::1",
            "fd12::5",
            "::ffff:192.168.0.2",
        )
    )
    assert not any(
        address.allowed_client(a)
        for a in (
            "8.8.8.8",
            "172.32.0.1",
            "100.64.0.1",
            "2001:db8::1",
            "::ffff:1.1.1.1",
            "0.0.0.0",
            "",
            None,
            "nonsense",
        )
    )


def test_a_client_from_outside_the_home_network_is_refused():
    import asyncio
    from pathlib import Path

    from companion.live.server import LiveServer, Options
    from companion.live.web import Request, Response

    async def ask(peer):
        server = LiveServer(Options(db=Path("/nonexistent"), config=None))
        request = Request("GET", "/", {}, {}, peer, has_body=False)

        async def page(_request):
            return Response.text(200, "the page")

        answer = await server._guard(request, page)
        server.pool.shutdown()
        return answer.status

    assert asyncio.run(ask("8.8.8.8")) == 403
    assert asyncio.run(ask("192.168.1.9")) == 200


def test_it_is_off_until_switched_on_in_the_settings(place):
    db, config = place
    config.write_text("live = false\n")
    writer = Writer(db, C9[0])
    writer.send(C9[1])
    live = Live(db, config, wait=False)
    try:
        deadline = time.monotonic() + 30
        while "switched off" not in live.logged() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "switched off" in live.logged()
        with pytest.raises(OSError):
            socket.create_connection((HOST, live.port), timeout=1).close()
        config.write_text("live = true\n")  # what the Settings screen does (it writes the file)
        live.wait_listening(30)
        assert get(live.url, "/")[0] == 200
        assert db.with_name("live-url").read_text().strip() == f"http://{HOST}:{live.port}/"
        config.write_text("live = false\n")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection((HOST, live.port), timeout=1).close()
                time.sleep(0.1)
            except OSError:
                break
        else:
            pytest.fail("still listening after being switched off")
        assert not db.with_name("live-url").exists()
    finally:
        writer.close()
        live.stop()


def test_a_port_already_taken_is_one_line(place):
    db, config = place
    with socket.socket() as taken:
        taken.bind((HOST, 0))
        taken.listen()
        port = taken.getsockname()[1]
        live = Live(db, config, port=port, wait=False)
        assert live.process.wait(timeout=60) == 1
        said = live.stop().strip()
    assert said.startswith("cloud-companion: cannot listen on 127.0.0.1:") and "\n" not in said


def test_too_many_viewers_are_told_to_come_back_later(game):
    from companion.live.server import MAX_VIEWERS

    live, _writer = game
    viewers = [Events(live.port, source=device(n)) for n in range(MAX_VIEWERS)]
    try:
        for viewer in viewers:
            viewer.wait(1)
        extra = raw(live.port, b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", timeout=5)
        assert status_of(extra) == 503
        assert get(live.url, "/")[0] == 200  # the pages still load
    finally:
        for viewer in viewers:
            viewer.close()


def half_requests(port: int, count: int, socks: list) -> None:
    """`count` connections that each send half a request and then nothing, kept in `socks`."""
    for _ in range(count):
        s = socket.create_connection((HOST, port), timeout=10)
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        socks.append(s)


@contextlib.contextmanager
def held_open(place, count: int):
    """The live page with `count` connections that sent half a request and wait (they are
    not timed out meanwhile): the page, and those connections."""
    db, config = place
    live = Live(db, config, extra=("--head-timeout", "120"))
    socks: list = []
    try:
        half_requests(live.port, count, socks)
        yield live, socks
    finally:
        for s in socks:
            s.close()
        live.stop()


def test_too_many_connections_are_turned_away_at_once(place):
    from companion.live.server import MAX_CONNECTIONS

    with held_open(place, MAX_CONNECTIONS + 5) as (_live, socks):
        for s in socks[-5:]:
            assert status_of(s.recv(200)) == 503  # past the cap: told at once


def test_connections_already_closed_do_not_count_against_the_cap(place):
    from companion.live.server import MAX_CONNECTIONS

    with held_open(place, MAX_CONNECTIONS - 8) as (live, _crowd):  # a crowd of connections that stay open
        # pages asked for one after another, each closed before the next: the room the crowd
        # leaves is enough for all of them, however quickly they come
        assert [get(live.url, "/")[0] for _ in range(30)] == [200] * 30


def test_connections_that_send_no_request_in_time_are_closed(place):
    db, config = place
    live = Live(db, config, extra=("--head-timeout", "1"))
    socks = []
    try:
        for start in (b"", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n", b"GE"):  # nothing, half a head, two letters
            s = socket.create_connection((HOST, live.port), timeout=20)
            s.sendall(start)
            socks.append(s)
        for s in socks:
            assert s.recv(100) == b""  # closed, without an answer, once its time was up
        assert get(live.url, "/")[0] == 200
    finally:
        for s in socks:
            s.close()
        live.stop()


def test_viewers_that_never_read_are_dropped_and_memory_stays_flat(game):
    live, writer = game
    reader = Events(live.port)
    reader.wait(1)
    for _ in range(3):  # warm: every page and picture drawn once
        version = version_of(get(live.url, "/fragment")[2])
        get(live.url, f"/picture/{version}/landscape.png")
    before = live.rss_mb()
    stuck = []
    for _ in range(40):  # event streams and pictures asked for, never read
        for path in ("/events", f"/picture/{version}/portrait.png", f"/picture/{version}/landscape.png"):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            s.connect((HOST, live.port))
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            stuck.append(s)
    try:
        for line in C9[10:]:
            writer.send(line)
        # the viewer that reads keeps up: it hears of the end of the game (bursts are folded)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            part = get(live.url, "/fragment")[2]
            if b'class="end"' in part and reader.versions[-1][0] == version_of(part):
                break
            time.sleep(0.2)
        else:
            pytest.fail("the reading viewer did not hear of the end of the game")
        after = live.rss_mb()
        assert after - before < 40, (before, after)
        assert get(live.url, "/")[0] == 200
    finally:
        for s in stuck:
            s.close()
        reader.close()


def test_fifty_viewers_at_once_get_every_change_and_memory_stays_flat(game):
    live, writer = game
    viewers = [Events(live.port, source=device(n)) for n in range(50)]
    try:
        for viewer in viewers:
            viewer.wait(1)
        version = version_of(get(live.url, "/fragment")[2])
        get(live.url, f"/picture/{version}/landscape.png")
        before = live.rss_mb()
        for line in C9[10:16]:
            writer.send(line)
            time.sleep(0.5)  # one change at a time (closer ones are folded into one)
        # one deadline for all fifty: changes that came close together are folded into one, so
        # a viewer may rightly hear fewer than seven, and must not be waited for in turn
        deadline = time.monotonic() + 30
        for viewer in viewers:
            assert len(viewer.wait(7, timeout=max(0.0, deadline - time.monotonic()))) >= 5
        for viewer in viewers[:10]:  # and each of them fetches the new picture
            version = viewer.versions[-1][0]
            assert get(live.url, f"/picture/{version}/portrait.png")[0] == 200
        assert live.rss_mb() - before < 40
    finally:
        for viewer in viewers:
            viewer.close()


def test_a_folder_for_a_journal_is_one_line(tmp_path):
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "companion", "live", "--db", str(tmp_path), "--port", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (
        done.returncode == 1 and done.stderr.strip() == f"cloud-companion: {tmp_path} is a folder, not a journal file"
    )
    wrong = subprocess.run(
        [sys.executable, "-m", "companion", "live", "--port", "http"], capture_output=True, text=True, timeout=60
    )
    assert wrong.returncode == 2 and len(wrong.stderr.strip().splitlines()) == 1
    assert wrong.stderr.startswith("cloud-companion")


def test_one_device_cannot_take_the_room(game):
    """A flood of event streams from one address: a handful are let in, the rest refused and
    closed at once (not held open for a keep-alive), and every other device still gets its page
    and its stream."""
    live, _writer = game
    streams, refused = [], []
    try:
        for _ in range(80):
            s = socket.create_connection((HOST, live.port), timeout=5)
            s.sendall(f"GET /events HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
            answer, began = s.recv(4096), time.monotonic()
            if status_of(answer) == 200:
                streams.append(s)
                continue
            while chunk := s.recv(4096):
                answer += chunk
            assert status_of(answer) == 503 and time.monotonic() - began < 2  # closed at once
            refused.append(s)
        assert 1 <= len(streams) <= 8 and len(refused) == 80 - len(streams)
        tv = Events(live.port, source=device(7))  # another device: let in
        assert tv.wait(1) and tv.status == 200
        assert get(live.url, "/")[0] == 200
        tv.close()
    finally:
        for s in streams + refused:
            s.close()


def test_a_device_over_the_cap_gets_a_page_that_tries_again_by_itself(place):
    from companion.live.server import MAX_CONNECTIONS, SECURITY_HEADERS

    with held_open(place, MAX_CONNECTIONS) as (live, _socks):
        answer = raw(live.port, f"GET / HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
        head, _, body = answer.partition(b"\r\n\r\n")
        assert status_of(answer) == 503 and b"Content-Type: text/html" in head
        assert re.search(rb'<meta http-equiv="refresh" content="\d+">', body)
        assert all(name.encode() in head for name in SECURITY_HEADERS)
        assert 'lang="de"' in body.decode() and "von selbst" in body.decode()  # every language's line


@pytest.mark.parametrize(
    "host",
    [
        "evil.example.com",
        "evil.example.com:8019",
        "192.0.2.7",
        "[2001:db8::1]:80",
        "127.0.0.1.evil.example.com",
        "localhost.evil",
    ],
)
def test_it_answers_only_to_its_own_names(game, host):
    live, _writer = game
    status, headers, body = get(live.url, "/", headers={"Host": host})
    assert status == 421 and b"Ann" not in body
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    for path in ("/fragment", "/events", "/history", "/records"):
        assert get(live.url, path, headers={"Host": host}, timeout=5)[0] == 421
    for own in (
        f"{HOST}:{live.port}",
        "localhost",
        f"{socket.gethostname()}.local:{live.port}",
        socket.gethostname().upper(),
    ):
        assert get(live.url, "/", headers={"Host": own})[0] == 200, own


def test_a_bad_request_is_one_line_in_the_log_and_an_answer_with_the_pages_headers(place):
    from companion.live.server import SECURITY_HEADERS

    db, config = place
    live = Live(db, config)
    bad = [
        b"GET / HTTP/1.1\r\nHost: x\r\nX-Huge: " + b"<script>" * 400 + b"\r\n\r\n",
        b"GET /<script>alert(1)</script>" + b"a" * 3000 + b" HTTP/1.1\r\n\r\n",
        b"GET / HTTP/9.9\r\n\r\n",
        b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: y\r\n" % n for n in range(100)) + b"\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nabc",
    ]
    try:
        for request in bad:
            answer = raw(live.port, request)
            head, _, body = answer.partition(b"\r\n\r\n")
            assert status_of(answer) == 400, answer[:200]
            assert all(name.encode() in head for name in SECURITY_HEADERS), head
            assert b"script" not in body and b"aaaa" not in body and len(body) < 100
    finally:
        logged = live.stop()
    lines = [line for line in logged.splitlines() if "refused a request" in line]
    assert len(lines) == len(bad), logged
    assert "Traceback" not in logged and "<script>" not in logged


def test_the_icon_and_the_apps_typeface_are_served(game):
    live, _writer = game
    for path in ("/favicon.ico", "/favicon.svg"):
        status, headers, body = get(live.url, path)
        assert status == 200 and headers["Content-Type"] == "image/svg+xml" and body.startswith(b"<svg")
    for weight in ("regular", "bold"):
        status, headers, body = get(live.url, f"/font/{weight}.ttf")
        assert status == 200 and headers["Content-Type"] == "font/ttf" and body[:4] == b"\x00\x01\x00\x00"
    assert "Atkinson Hyperlegible" in get(live.url, "/style.css")[2].decode()
    assert get(live.url, "/font/../../etc/passwd.ttf")[0] == 404


def test_records_are_worked_out_once_per_state_of_the_results_off_the_drawing_thread(place, monkeypatch):
    """Eight pages asking for the records at once, and again: the journal's games are replayed
    once, on the reading thread, and a picture asked for meanwhile does not wait for them."""
    import asyncio
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from companion.insights import records as insights
    from companion.live.server import LiveServer, Options

    db, config = place
    for lines in (MINE, C9):
        writer = Writer(db, lines[0])
        for line in lines[1:]:
            writer.send(line)
        writer.close()
    threads = []
    real = insights.journal_records

    def counted(*args, **kwargs):
        threads.append(threading.current_thread().name)
        time.sleep(0.5)  # as slow as many games on a Pi: what waits for it shows
        return real(*args, **kwargs)

    monkeypatch.setattr(insights, "journal_records", counted)
    monkeypatch.setenv(address.URL_FILE_ENV, str(db.with_name("live-url")))

    async def scenario():
        server = LiveServer(Options(db=db, config=config, host=HOST, port=free_port(), always=True))
        await server.start()
        url = f"http://{HOST}:{server.bound[1]}"
        clients = ThreadPoolExecutor(max_workers=16)  # plain clients, each on its own thread

        async def fetch(path):
            answer = asyncio.get_running_loop().run_in_executor(clients, get, url, path)
            status, _headers, body = await answer
            return status, body.decode(errors="replace"), time.monotonic()

        try:
            version = re.search(r'data-version="([^"]+)"', (await fetch("/fragment"))[1]).group(1)
            began = time.monotonic()
            asked = [asyncio.ensure_future(fetch("/records?lang=" + lang)) for lang in ("en", "de") * 4]
            await asyncio.sleep(0.05)
            picture = await fetch(f"/picture/{version}/portrait.png")
            pages = await asyncio.gather(*asked)
            again = await asyncio.gather(*(fetch("/records") for _ in range(8)))
        finally:
            clients.shutdown()
            await server.close()
        return began, picture, pages, again

    began, picture, pages, again = asyncio.run(scenario())
    assert all(status == 200 and "Cloud 9" in text for status, text, _ in pages + again)
    assert threads == ["live-read_0"]  # once, whoever asked and however often
    assert picture[0] == 200 and picture[2] < max(at for _, _, at in pages)  # not queued behind them
