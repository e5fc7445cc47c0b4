"""The service's gunicorn worker (``framing.BoundedThreadWorker``): keep-alive
connections served request after request, pipelined requests, idle connections closed
after the keep-alive timeout, a request under way answered when the worker is told to
stop, and every answer's ``Date``."""

from __future__ import annotations

import signal
import socket
import threading
import time
from email.utils import formatdate

from service.api.framing import DateOfThisSecond
from tests.client import Client
from tests.conftest import Server

HEALTH = b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n"
#: gunicorn_conf.keepalive, and the worker's sweep of idle connections once a second
KEEPALIVE_SECONDS = 5


def answers(sock: socket.socket, count: int) -> list[bytes]:
    """``count`` whole answers (heads with their bodies) read from ``sock``."""
    buffer, found = b"", []
    while len(found) < count:
        end = buffer.find(b"\r\n\r\n")
        if end >= 0:
            head = buffer[:end].lower()
            length = int(head.split(b"content-length:")[1].split(b"\r\n")[0])
            if len(buffer) >= end + 4 + length:
                found.append(buffer[: end + 4 + length])
                buffer = buffer[end + 4 + length :]
                continue
        chunk = sock.recv(65536)
        assert chunk, f"closed after {len(found)} answers"
        buffer += chunk
    return found


def test_a_kept_alive_connection_is_served_request_after_request_and_pipelined(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        for _ in range(20):
            sock.sendall(HEALTH)
            (answer,) = answers(sock, 1)
            assert answer.startswith(b"HTTP/1.1 200 ") and b"Connection: keep-alive" in answer
        sock.sendall(HEALTH * 3)  # the next two are read ahead with the first
        assert [a.split(b"\r\n")[0] for a in answers(sock, 3)] == [b"HTTP/1.1 200 OK"] * 3


def test_an_idle_kept_alive_connection_is_closed_after_the_keep_alive_timeout(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(HEALTH)
        answers(sock, 1)
        answered = time.monotonic()
        assert sock.recv(1) == b""
        idle = time.monotonic() - answered
    assert KEEPALIVE_SECONDS - 0.5 <= idle <= KEEPALIVE_SECONDS + 2.5


def test_a_request_under_way_is_answered_when_the_worker_is_told_to_stop(
    database_url, api_key, tmp_path
):
    stopping = Server(database_url, tmp_path, workers=1, TILEGAMES_TEST_PAUSE_SECONDS="2")
    try:
        client = Client(stopping.url, api_key)
        game = client.create("secret-cards", [{}, {}])
        token, version = game["seat_tokens"][0]["token"], game["version"]
        answered: list = []

        def paused_move() -> None:
            headers = {"X-Test-Pause": "before-commit"}
            answered.append(client.move(game["id"], token, {"type": "reveal"}, version, **headers))

        thread = threading.Thread(target=paused_move)
        thread.start()
        deadline = time.monotonic() + 20
        while not any(stopping.pause_dir.glob("*")) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert any(stopping.pause_dir.glob("*")), "the move never reached its pause"
        stopping.process.send_signal(signal.SIGTERM)  # gunicorn's graceful stop
        thread.join(20)
        assert answered and answered[0].status_code == 200
        # the kept-alive connection lingers a moment: a request on it is answered, last
        after = client.http.get(stopping.url + "/healthz", timeout=5)
        assert after.status_code == 200 and after.headers["Connection"] == "close"
        assert stopping.process.wait(15) == 0
    finally:
        if stopping.process.poll() is None:
            stopping.stop()


def test_answers_are_dated_to_the_second_as_gunicorn_dates_them():
    date = DateOfThisSecond()
    for _ in range(3):  # again if the second turned meanwhile
        second, text = int(time.time()), date()
        if int(time.time()) == second:
            break
    assert text == formatdate(second, usegmt=True)
    assert date(1e9) == formatdate(1e9, usegmt=True) == "Sun, 09 Sep 2001 01:46:40 GMT"
