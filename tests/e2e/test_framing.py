"""Requests gunicorn refuses before the application sees them (bad framing, a URL or a
header block over its limits) are answered as problem+json, like every other error."""

from __future__ import annotations

import json
import re
import select
import socket
import time
from urllib.parse import urlsplit

import pytest

from service.api.headers import PROTECTIVE
from tests.client import Client


def raw(server, request: bytes, half_close: bool = False) -> tuple[int, dict[str, str], bytes]:
    """Send bytes as they are and read the whole answer (the server closes). A server
    that refuses a request may answer and close before taking all of it: sending stops
    once the answer is there or the server has stopped reading. ``half_close``: the
    client then says it sends nothing more (FIN), and waits for the answer."""
    url = urlsplit(server.url)
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        unsent = memoryview(request)
        while unsent and not select.select([sock], [], [], 0)[0]:
            try:
                unsent = unsent[sock.send(unsent[:65536]) :]
            except (BrokenPipeError, ConnectionResetError):
                break
        if half_close:
            sock.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return status, headers, body


@pytest.mark.parametrize(
    ("request_bytes", "status", "code"),
    [
        (b"NOT A REQUEST LINE\r\n\r\n", 400, "bad_request_framing"),
        (
            b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
            400,
            "bad_request_framing",
        ),
        (b"GET /" + b"a" * 10_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri_too_long"),
        (
            b"GET /v1/rulesets HTTP/1.1\r\nHost: x\r\n"
            + b"".join(b"X-Filler-%d: y\r\n" % i for i in range(200))
            + b"\r\n",
            431,
            "headers_too_large",
        ),
    ],
    ids=["request_line", "content_length", "long_url", "many_headers"],
)
def test_gunicorns_own_refusals_are_problem_json(server, request_bytes, status, code):
    got, headers, body = raw(server, request_bytes)
    assert got == status
    assert headers["content-type"] == "application/problem+json"
    for name, value in PROTECTIVE.items():  # as on every other answer
        assert headers[name.lower()] == value
    problem = json.loads(body)
    assert problem["status"] == status and problem["code"] == code
    assert problem["type"].endswith(code) and problem["detail"]
    # an id to quote, in the body and the header, as for the application's errors
    assert re.fullmatch("[0-9a-f]{32}", problem["request_id"])
    assert headers["x-request-id"] == problem["request_id"]


def test_a_body_shorter_than_its_content_length_gets_408_in_bounded_time(server, api_key):
    """The server's read timeout is 3 s here (REQUEST_READ_TIMEOUT)."""
    start = time.monotonic()
    got, headers, body = raw(
        server,
        b"POST /v1/games HTTP/1.1\r\nHost: x\r\nX-API-Key: " + api_key.encode() + b"\r\n"
        b'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a": 1}',
    )
    assert got == 408 and time.monotonic() - start < 8
    assert headers["content-type"] == "application/problem+json"
    assert json.loads(body)["code"] == "body_timeout"


def test_a_chunked_body_over_the_limit_gets_413(server, api_key):
    mib = b"100000\r\n" + b" " * 0x100000 + b"\r\n"
    got, headers, body = raw(
        server,
        b"POST /v1/games HTTP/1.1\r\nHost: x\r\nX-API-Key: " + api_key.encode() + b"\r\n"
        b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        + mib * 5
        + b"0\r\n\r\n",
    )
    assert got == 413, body
    assert json.loads(body)["code"] == "payload_too_large"


def chunked(api_key: str, body: bytes) -> bytes:
    return (
        b"POST /v1/games HTTP/1.1\r\nHost: x\r\nX-API-Key: " + api_key.encode() + b"\r\n"
        b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + body
    )


@pytest.mark.parametrize(
    ("body", "half_close"),
    [
        (b"zz\r\n{}\r\n0\r\n\r\n", False),  # a size that is not hexadecimal
        (b"2\r\n{}XX0\r\n\r\n", False),  # a chunk without its CRLF
        (b"2;\x01\r\n{}\r\n0\r\n\r\n", False),  # a control byte in an extension
        (b"20\r\n{}", True),  # cut short: the client sends nothing more
    ],
    ids=["size", "terminator", "extension", "cut_short"],
)
def test_a_malformed_chunked_body_is_a_framing_problem_not_a_server_error(
    server, api_key, body, half_close
):
    got, headers, answer = raw(server, chunked(api_key, body), half_close)
    assert got == 400, answer
    assert headers["content-type"] == "application/problem+json"
    assert json.loads(answer)["code"] == "bad_request_framing"


@pytest.mark.parametrize("path", ["moves", "moves?through=flask"])
def test_a_move_whose_body_ends_before_its_content_length_is_not_acted_on(server, api_key, path):
    """The whole command is there, but the client announced 500 bytes more and then
    closed its side: the request did not arrive as sent, so nothing is written. (With
    a query the move goes through Flask rather than the fast path.)"""
    client = Client(server.url, api_key)
    game = client.create("carcassonne", [{"name": "a"}, {"name": "b"}])
    token = game["seat_tokens"][0]["token"]
    body = b'{"command": {"type": "resign"}}'
    got, headers, answer = raw(
        server,
        f"POST /v1/games/{game['id']}/moves HTTP/1.1\r\nHost: x\r\nX-Seat-Token: {token}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body) + 500}\r\n\r\n".encode()
        + body,
        half_close=True,
    )
    assert got == 408, answer
    assert json.loads(answer)["code"] == "body_timeout"
    assert client.get(f"/v1/games/{game['id']}").json()["version"] == game["version"]
