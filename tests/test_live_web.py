"""The live page's HTTP (companion/live/web.py) on its own, in this process on loopback: the
limits of a request's head, keep-alive, HEAD, bodies refused, and any bytes at all answered
with a short refusal or nothing, never echoed, and the server still serving."""

from __future__ import annotations

import asyncio
import socket
import threading

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.live.web import LINE_LIMIT, MAX_HEADERS, Limits, Request, Response, Site
from livepage import HOST, free_port, raw, status_of

REFUSAL_HEADERS = {"X-Content-Type-Options": "nosniff"}


async def _answer(request: Request) -> Response | None:
    if request.path == "/stream":
        stream = await request.stream(200, {"Content-Type": "text/plain"})
        for part in (b"one ", b"two"):
            await stream.write(part)
        await stream.end()
        return None
    if request.path == "/":
        return Response.text(200, f"hello {request.query.get('who', 'you')}\n")
    return Response.text(404, "no such page\n")


@pytest.fixture(scope="module")
def site():
    """A Site on a loopback port, its loop on a thread of its own: the port."""
    port, ready = free_port(), threading.Event()
    loop = asyncio.new_event_loop()
    limits = Limits(
        max_connections=16,
        head_timeout=2.0,
        keepalive=2.0,
        write_timeout=2.0,
        busy=b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        refusal_headers=REFUSAL_HEADERS,
    )
    served = Site(_answer, limits)

    def run():
        asyncio.set_event_loop(loop)
        loop.run_until_complete(served.listen(HOST, port))
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(10)
    yield port
    asyncio.run_coroutine_threadsafe(served.close(), loop).result(10)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


def ask(port: int, target: str = "/", headers: str = "") -> bytes:
    return raw(port, f"GET {target} HTTP/1.1\r\nHost: {HOST}\r\n{headers}Connection: close\r\n\r\n".encode())


def test_a_request_line_and_headers_within_the_limits_are_read_and_over_them_refused(site):
    fits = "/?who=" + "a" * (LINE_LIMIT - 40)
    assert status_of(ask(site, fits)) == 200
    assert status_of(ask(site, "/?who=" + "a" * LINE_LIMIT)) == 400
    many = "".join(f"X-{n}: y\r\n" for n in range(MAX_HEADERS - 2))  # with Host and Connection: the most
    assert status_of(ask(site, headers=many)) == 200
    assert status_of(ask(site, headers=many + "X-Last: y\r\n")) == 400
    assert status_of(ask(site, headers="X-Long: " + "b" * (LINE_LIMIT - 20) + "\r\n")) == 200
    assert status_of(ask(site, headers="X-Long: " + "b" * LINE_LIMIT + "\r\n")) == 400


def answer_on(s: socket.socket, request: bytes, ending: bytes) -> bytes:
    """Send a request on a kept connection and read until its answer ends with `ending`."""
    s.sendall(request)
    answer = b""
    while not answer.endswith(ending):
        chunk = s.recv(4096)
        assert chunk, answer  # the connection is kept for the next request
        answer += chunk
    return answer


def test_one_connection_serves_request_after_request_and_head_gets_no_body(site):
    with socket.create_connection((HOST, site), timeout=5) as s:
        first = answer_on(s, f"GET /?who=ann HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode(), b"hello ann\n")
        second = answer_on(s, f"HEAD /?who=ben HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode(), b"\r\n\r\n")
        s.sendall(f"GET /stream HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode())
        third = b""
        while chunk := s.recv(4096):
            third += chunk
    assert status_of(first) == 200 and first.endswith(b"\r\n\r\nhello ann\n")
    assert status_of(second) == 200 and b"Content-Length: 10\r\n" in second and second.endswith(b"\r\n\r\n")
    assert status_of(third) == 200 and b"one " in third and third.endswith(b"0\r\n\r\n")  # chunked, ended


def test_a_request_with_a_body_is_answered_and_its_connection_closed(site):
    answer = raw(site, f"GET / HTTP/1.1\r\nHost: {HOST}\r\nContent-Length: 5\r\n\r\nhello".encode())
    assert status_of(answer) == 200 and b"Connection: close" in answer


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.one_of(
        st.binary(min_size=1, max_size=3000),
        st.builds(
            lambda method, target, version, header: b"%s %s %s\r\n%s\r\n\r\n" % (method, target, version, header),
            st.sampled_from([b"GET", b"HEAD", b"G\x00T", b""]),
            st.binary(max_size=300),
            st.sampled_from([b"HTTP/1.1", b"HTTP/1.0", b"HTTP/2.0", b"HTTP/1.1 x", b""]),
            st.binary(max_size=300),
        ),
    )
)
def test_any_bytes_get_a_short_refusal_or_an_answer_never_an_echo(site, sent):
    answer = raw(site, sent, timeout=5)
    status = status_of(answer)
    assert status in (0, 200, 400, 404), answer[:200]
    if status == 400:
        head, _, body = answer.partition(b"\r\n\r\n")
        assert b"X-Content-Type-Options: nosniff" in head and body == b"400 Bad Request\n"
    assert status_of(ask(site)) == 200  # and it goes on serving
