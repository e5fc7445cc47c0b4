"""Requests gunicorn refuses before the application sees them (bad framing, a URL or a
header block over its limits) are answered as problem+json, like every other error."""

from __future__ import annotations

import json
import socket
from urllib.parse import urlsplit

import pytest


def raw(server, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send bytes as they are and read the whole answer (the server closes)."""
    url = urlsplit(server.url)
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        sock.sendall(request)
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
    assert headers["x-content-type-options"] == "nosniff"
    problem = json.loads(body)
    assert problem["status"] == status and problem["code"] == code
    assert problem["type"].endswith(code) and problem["detail"]
