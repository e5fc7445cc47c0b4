"""``/play/``, the browser client, in a real headless Chromium against the running
service (gunicorn), used as a person would: the API key typed in, a Carcassonne game
against the greedy bot created from the form, several turns played by clicking the
board (a ghost cell, the rotation, a follower or none), the bot's answers arriving,
the replay taken back to move 1 and forward again, a second page spectating the same
board live and reconnecting when its stream is cut; and a Catan game whose set-up
settlements and roads are placed by clicking the board. No request leaves the server's
origin, nothing breaks the page's Content-Security-Policy, no script error. A
screenshot of each step lands in ``test-output/`` (git-ignored) for a person to look
at. The browser is the one the /docs test uses; without one this test fails, never
skips.
"""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.client import Client
from tests.e2e.test_docs_browser import OUTPUT, Watched, browser  # noqa: F401 (fixture)

WAIT_MS = 20_000


@pytest.fixture
def pages(browser, server) -> Iterator:  # noqa: F811 (the imported fixture)
    """Opens watched pages, each in its own context (its own sessionStorage), and
    checks on the way out that none of them broke a rule."""
    opened: list[Watched] = []

    def open_page() -> Watched:
        page = Watched(browser, server.url)
        page.context.set_default_timeout(WAIT_MS)
        opened.append(page)
        return page

    yield open_page
    try:
        for page in opened:
            assert page.outside == []
            assert page.violations() == []
            assert page.errors == []
    finally:
        for page in opened:
            page.close()


def expect_errors(watched: Watched, *fragments: str) -> None:
    """The browser reports each failed request on the console: those a test caused on
    purpose must be there, and are then no longer counted as errors."""
    for fragment in fragments:
        assert any(fragment in error for error in watched.errors), (fragment, watched.errors)
    watched.errors = [e for e in watched.errors if not any(f in e for f in fragments)]


def error_words(page) -> str:
    page.wait_for_selector("#error:not([hidden])")
    words = page.inner_text("#error")
    assert "{" not in words and "urn:" not in words  # the problem in words, not its JSON
    return words


def settled(page) -> None:
    """Waits for the board of the last event the log shows (the page has caught up)."""
    page.wait_for_function(
        "() => { const items = document.querySelectorAll('#log li');"
        " const board = document.querySelector('#board svg');"
        " return items.length && board && board.dataset.version == items[items.length - 1].value"
        " && !document.querySelector('#controls button:disabled'); }"
    )


def shot(page, name: str) -> None:
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"play-{name}.png"), full_page=True)


def start(page, server, api_key: str) -> None:
    response = page.goto(f"{server.url}/play/", wait_until="load")
    assert response.status == 200
    page.fill("#api-key", api_key)
    page.click("#key-form button")
    page.wait_for_selector("#key-status:has-text('kept for this tab')")
    page.wait_for_selector("#ruleset option", state="attached")


def create(page, ruleset: str, bot: str) -> str:
    """Creates a game of Ada against one bot from the form; the game's id."""
    page.select_option("#ruleset", ruleset)
    page.fill(".seat:nth-of-type(1) .seat-name", "Ada")
    page.select_option(".seat:nth-of-type(2) .seat-kind", bot)
    page.click("#create")
    page.wait_for_url(lambda url: "#game=" in url and url.endswith("&seat=0"))
    return page.url.split("#game=")[1].split("&")[0]


def board_version(page) -> int:
    return int(page.get_attribute("#board svg", "data-version"))


def after_move(page, version: int) -> None:
    """Waits for the board drawn after ``version`` (the page's answer to a move)."""
    page.wait_for_function(
        "v => Number(document.querySelector('#board svg')?.dataset.version) > v", arg=version
    )


def log_lines(page) -> list[str]:
    return page.locator("#log li").all_inner_texts()


def tiles_drawn(page) -> list[tuple[str, ...]]:
    return sorted(
        tuple(t.get_attribute(a) for a in ("data-x", "data-y", "data-tile", "data-rotation"))
        for t in page.locator("#board g.tile").all()
    )


def place_a_tile(page, turn: int, competing: Callable[[], None] | None = None) -> None:
    """Clicks a ghost cell, turns the tile through every rotation allowed there (the
    preview on the board follows), places it, then on the first turn puts a follower on
    the first spot ringed on the board, later none; ``competing`` sends another move for
    the seat just before the page's figure step reaches the service."""
    page.wait_for_selector(".ghost")
    ghosts = page.locator(".ghost")
    ghosts.nth(turn % ghosts.count()).click()
    preview = page.locator(".preview image")
    seen = {preview.get_attribute("href")}
    while page.locator("#turn-tile").count():
        page.click("#turn-tile")
        href = preview.get_attribute("href")
        if href in seen:
            break
        seen.add(href)
    assert all("?rotation=" in href for href in seen)
    shot(page, f"carcassonne-turn-{turn}-tile")
    version = board_version(page)
    page.click("#place-tile")
    after_move(page, version)
    page.wait_for_selector("[data-command=skip]")
    if turn == 0:  # nobody has a follower yet: the new tile has a free spot
        page.wait_for_selector(".mark.spot")
    shot(page, f"carcassonne-turn-{turn}-figure")
    version = board_version(page)
    if competing is not None:
        page.route("**/moves", lambda route: (competing(), route.continue_()), times=1)
    if turn == 0:  # a follower, by its ring on the tile just placed
        page.locator(".mark.spot").first.click()
    else:
        page.click("[data-command=skip]")
    after_move(page, version)


def test_play_carcassonne_against_a_bot_replay_and_spectate(pages, server, api_key):
    player = pages()
    page = player.page
    start(page, server, api_key)
    shot(page, "start")
    game_id = create(page, "carcassonne", "greedy")
    page.wait_for_selector(".ghost")
    assert "tgs_" not in page.url and "tgk_" not in page.url  # credentials stay out
    shot(page, "carcassonne-created")

    for turn in range(2):
        place_a_tile(page, turn)
        # the bot's answer arrives in words: its tile and its turn's end
        page.wait_for_function(
            "n => [...document.querySelectorAll('#log li')]"
            ".filter(li => li.textContent.startsWith('greedy bot placed')).length > n",
            arg=turn,
        )

    # the third turn meets a move sent first by another client of the same seat: the
    # page says so in words (409) and shows the game as it now is
    client = Client(server.url, api_key)
    token = page.evaluate(
        "id => JSON.parse(sessionStorage.getItem('tilegames.tokens.' + id))[0]", game_id
    )

    def skip_first() -> None:
        summary = client.get(f"/v1/games/{game_id}").json()
        answer = client.move(game_id, token, {"type": "skip"}, summary["version"])
        assert answer.status_code == 200, answer.text

    place_a_tile(page, 2, competing=skip_first)
    assert error_words(page).startswith("The game has moved on: expected version ")
    expect_errors(player, "status of 409")
    page.wait_for_selector(".ghost")
    settled(page)
    shot(page, "carcassonne-conflict")
    lines = log_lines(page)
    assert any(line.startswith("Ada put a follower on the") for line in lines)
    assert sum(line.startswith("Ada placed ") for line in lines) == 3
    assert sum(line.startswith("greedy bot placed ") for line in lines) == 3
    assert not any("{" in line for line in lines)  # words, not JSON
    settled(page)
    shot(page, "carcassonne-after-three-turns")

    state = client.get(f"/v1/games/{game_id}/state").json()
    version = state["version"]
    assert board_version(page) == version
    now = tiles_drawn(page)
    assert len(now) == len(state["state"]["board"])

    # replay: to move 1 (the start tile alone), a step on with the arrow key, back live
    page.click("#first")
    page.wait_for_selector("#board svg[data-version='1']")
    assert len(tiles_drawn(page)) == 1
    assert page.locator(".ghost").count() == 0
    assert page.inner_text("#moment-label") == f"Replay: move 1 of {version}"
    shot(page, "carcassonne-replay-move-1")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#board svg[data-version='2']")
    page.click("#live")
    page.wait_for_selector(f"#board svg[data-version='{version}']")
    assert tiles_drawn(page) == now
    page.wait_for_selector(".ghost")

    # a spectator on another page (no seat token, only the key) sees the same board...
    spectator = pages()
    watcher = spectator.page
    start(watcher, server, api_key)
    watcher.fill("#open-game", "00000000-0000-4000-8000-000000000000")
    watcher.click("#open")
    assert error_words(watcher).startswith("No such game: no game with id 00000000-")
    expect_errors(spectator, "status of 404")
    watcher.fill("#open-game", game_id)
    watcher.click("#open")
    watcher.wait_for_selector(f"#board svg[data-version='{version}']")
    assert tiles_drawn(watcher) == now
    assert watcher.locator(".ghost").count() == 0
    assert log_lines(watcher) == log_lines(page)
    shot(watcher, "carcassonne-spectator")

    # ...and the next turn live, over its stream
    place_a_tile(page, 3)
    moved = board_version(page)
    watcher.wait_for_selector(f"#board svg[data-version='{moved}']")
    assert tiles_drawn(watcher) == tiles_drawn(page)
    settled(watcher)
    shot(watcher, "carcassonne-spectator-live")

    # a lost stream: every worker killed; the page says so, reconnects after the last
    # event it has (Last-Event-ID) and follows the next turn
    resumed: list[str | None] = []
    watcher.on("request", lambda request: resumed.append(last_event_id(request)))
    kill_workers(server.process.pid)
    watcher.wait_for_selector("#connection.warn")
    assert "Connection lost" in watcher.inner_text("#connection")
    shot(watcher, "carcassonne-spectator-lost")
    server.wait_ready()
    watcher.wait_for_selector("#connection.ok")
    assert "Reconnected" in watcher.inner_text("#connection")
    assert str(moved) in resumed  # asked for what follows the last event it had
    for cut in (player, spectator):  # the browser reports each cut stream: expected here
        cut.errors = [e for e in cut.errors if "net::ERR_INCOMPLETE_CHUNKED_ENCODING" not in e]
    place_a_tile(page, 4)
    moved = board_version(page)
    watcher.wait_for_selector(f"#board svg[data-version='{moved}']")
    assert log_lines(watcher) == log_lines(page)
    settled(watcher)
    shot(watcher, "carcassonne-spectator-reconnected")


def last_event_id(request) -> str | None:
    """The Last-Event-ID a request for the events stream sends, if it is one."""
    if not request.url.endswith("/events"):
        return None
    return request.all_headers().get("last-event-id")


def kill_workers(master: int) -> None:
    """SIGKILL every gunicorn worker of ``master`` (it starts new ones)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended meanwhile
        if int(fields[1]) == master:
            os.kill(int(stat.parent.name), signal.SIGKILL)


#: the service's own answer over its rate limit (service/api/problems.py)
RATE_LIMITED = {
    "status": 429,
    "headers": {"Content-Type": "application/problem+json", "Retry-After": "7"},
    "body": json.dumps(
        {
            "type": "urn:tilegames:problem:rate_limited",
            "title": "Too Many Requests",
            "status": 429,
            "detail": "rate limit exceeded (6000 per 1 minute)",
            "code": "rate_limited",
        }
    ),
}


def test_catan_set_up_by_clicking_the_board(pages, server, api_key):
    watched = pages()
    page = watched.page
    start(page, server, api_key)
    create(page, "catan", "value")
    for round_ in (1, 2):
        page.wait_for_selector(".mark.corner")
        shot(page, f"catan-settlement-{round_}")
        version = board_version(page)
        page.locator(".mark.corner").nth(7 * round_).click()
        after_move(page, version)
        page.wait_for_selector(".mark.edge")
        shot(page, f"catan-road-{round_}")
        version = board_version(page)
        road = page.locator(".mark.edge").first
        if round_ == 1:
            road.click()
        else:  # the marks take the keyboard too
            road.focus()
            page.keyboard.press("Enter")
        after_move(page, version)
        page.wait_for_function(
            "n => document.querySelectorAll('#board g.building[data-seat=\"0\"]').length == n"
            " && document.querySelectorAll('#board g.road[data-seat=\"0\"]').length == n",
            arg=round_,
        )
    # the set-up is over: Ada rolls with a button built from legal-moves; the first
    # try meets the rate limit, the second a network failure, both said in words
    page.route("**/moves", lambda route: route.fulfill(**RATE_LIMITED), times=1)
    page.click("[data-command=roll]")
    assert error_words(page) == (
        "Too Many Requests: rate limit exceeded (6000 per 1 minute). Try again in 7 seconds."
    )
    page.route("**/moves", lambda route: route.abort("internetdisconnected"), times=1)
    page.click("[data-command=roll]")
    assert error_words(page).startswith("The service cannot be reached")
    expect_errors(watched, "status of 429", "net::ERR_INTERNET_DISCONNECTED")
    settled(page)
    shot(page, "catan-network-error")
    page.click("[data-command=roll]")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#log li')]"
        ".some(li => li.textContent.includes(' rolled '))"
    )
    settled(page)
    shot(page, "catan-rolled")
    lines = log_lines(page)
    assert sum(line.startswith("Ada built a settlement at ") for line in lines) == 2
    assert sum(line.startswith("Ada built a road at ") for line in lines) == 2
    assert sum(line.startswith("value bot built a settlement at ") for line in lines) == 2
