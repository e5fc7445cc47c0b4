"""``/play/``, the browser client, in a real headless Chromium against the running
service (gunicorn), used as a person would: the API key typed in, a Carcassonne game
against the greedy bot created from the form, several turns played by clicking the
board (a ghost cell, the rotation, a follower or none), the bot's answers arriving,
the replay taken back to move 1 and forward again, a second page spectating the same
board live and reconnecting when its stream is cut (an error met meanwhile goes with
it); and a Catan game whose set-up settlements and roads are placed by clicking the
board. Then: a Catan proposal shown with its terms, an offer form that gives only what
the seat holds, a move made while the service cannot be reached (the controls stay
usable and are read afresh once it is back) and the final points; the rings to take a
figure back drawn on the figure's own tile (South Seas, the plague); the page on a
phone (the board the whole width, zoomed in its own box, marks a fingertip wide, the
page left where it is by a move); two bots of one name told apart; the Pirate Islands'
steal offered as a button per victim and one for nobody; a control for every command
and a sentence for every event that bot games of every ruleset and scenario meet. The log always
shows its newest line. No request leaves the server's origin, nothing breaks the
page's Content-Security-Policy, no script error. A screenshot of each step lands in
``test-output/`` (git-ignored) for a person to look at, at 1280 x 800 or 390 x 844. The
browser is the one the /docs test uses; without one this test fails, never skips.
"""

from __future__ import annotations

import functools
import json
import os
import re
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.client import Client
from tests.e2e.test_docs_browser import OUTPUT, Watched, browser  # noqa: F401 (fixture)

WAIT_MS = 20_000
#: the screens the pages are looked at on
DESK = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


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


def newest_in_view(page) -> bool:
    """Whether the log shows its newest line inside its own box (it scrolls on its own),
    once the page has drawn a frame (and followed any change of its layout)."""
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => setTimeout(done)))")
    return page.evaluate(
        "() => { const log = document.querySelector('#log');"
        " const box = log.getBoundingClientRect();"
        " const last = log.lastElementChild.getBoundingClientRect();"
        " return last.top >= box.top - 1 && last.bottom <= box.bottom + 1; }"
    )


def scrolled(page) -> bool:
    """Whether the log is longer than its box."""
    return page.evaluate(
        "() => { const log = document.querySelector('#log');"
        " return log.scrollHeight > log.clientHeight; }"
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
    # the chosen cell, focused, leaves the tile previewed in it as it is
    chosen = page.locator(".ghost.chosen")
    assert chosen.evaluate("g => g === document.activeElement")
    assert chosen.evaluate("g => getComputedStyle(g).fillOpacity") == "0"
    if turn == 0:  # the arrow keys on a mark of the board leave the replay and the choice
        page.keyboard.press("ArrowLeft")
        assert page.inner_text("#moment-label").startswith("Now: move ")
        assert page.locator("#place-tile").is_visible()
    preview = page.locator(".preview image")
    seen = {preview.get_attribute("href")}
    while page.locator("#turn-tile").count():
        page.click("#turn-tile")
        href = preview.get_attribute("href")
        if href in seen:
            break
        seen.add(href)
    assert all("?rotation=" in href for href in seen)
    # the choice in words, without the tile's code
    assert re.fullmatch(r"The tile at \(-?\d+, -?\d+\), turned \d+°", page.inner_text(".placing p"))
    assert newest_in_view(page)  # the controls grew (the tile chosen): the log follows
    shot(page, f"carcassonne-turn-{turn}-tile")
    version = board_version(page)
    page.click("#place-tile")
    after_move(page, version)
    page.wait_for_selector("[data-command=skip]")
    # "Place no figure" comes first, in view however many choices follow
    assert page.locator("#controls button").first.get_attribute("data-command") == "skip"
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


def seat_at_desk(pages, server, api_key: str, game_id: str, token: str):
    """A page at the desktop size playing the seat of ``token``."""
    page = pages().page
    page.set_viewport_size(DESK)
    open_seat(page, server, api_key, game_id, token)
    return page


def click_and_read_in_the_log(page, ring, words: str) -> None:
    """Click ``ring``, wait for the move's answer, and for a log line starting with
    ``words``."""
    version = board_version(page)
    ring.click()
    after_move(page, version)
    page.wait_for_function(
        "words => [...document.querySelectorAll('#log li')]"
        ".some(li => li.textContent.startsWith(words))",
        arg=words,
    )


def back_online(page, server) -> None:
    """The service is back and the page online again: the page says it reconnected and
    the error it showed while the service could not be reached is gone."""
    server.wait_ready()
    page.context.set_offline(False)
    page.wait_for_selector("#connection.ok")
    assert "Reconnected" in page.inner_text("#connection")
    page.wait_for_selector("#error", state="hidden")


def test_play_carcassonne_against_a_bot_replay_and_spectate(pages, server, api_key):
    player = pages()
    page = player.page
    page.set_viewport_size(DESK)
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
        settled(page)
        assert newest_in_view(page)

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
    assert newest_in_view(page)
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
    watcher.set_viewport_size(DESK)
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

    # a lost stream: every worker killed, and the spectator's network down meanwhile; the
    # page says so, and a replay step that cannot reach the service says that too; back
    # online, it reconnects after the last event it has (Last-Event-ID), the error goes,
    # and it follows the next turn
    resumed: list[str | None] = []
    watcher.on("request", lambda request: resumed.append(last_event_id(request)))
    watcher.context.set_offline(True)
    kill_workers(server.process.pid)
    watcher.wait_for_selector("#connection.warn")
    assert "Connection lost" in watcher.inner_text("#connection")
    watcher.click("#back")
    assert error_words(watcher).startswith("The service cannot be reached")
    shot(watcher, "carcassonne-spectator-lost")
    back_online(watcher, server)
    assert str(moved) in resumed  # asked for what follows the last event it had
    watcher.wait_for_selector(f"#board svg[data-version='{moved - 1}']")  # the replay drawn
    shot(watcher, "carcassonne-spectator-back-online")
    watcher.click("#live")
    for cut in (player, spectator):  # the browser reports each cut stream: expected here
        cut.errors = [e for e in cut.errors if "net::ERR_INCOMPLETE_CHUNKED_ENCODING" not in e]
    expect_errors(spectator, "net::ERR_INTERNET_DISCONNECTED")
    place_a_tile(page, 4)
    moved = board_version(page)
    watcher.wait_for_selector(f"#board svg[data-version='{moved}']")
    assert log_lines(watcher) == log_lines(page)
    settled(watcher)
    shot(watcher, "carcassonne-spectator-reconnected")
    settled(page)
    assert scrolled(page)  # the log is longer than its box...
    assert newest_in_view(page)  # ...and shows its newest line below the controls
    shot(page, "carcassonne-after-five-turns")


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
    # places named by the hexes they touch, as players name them, not by their codes
    assert sum(line.startswith("Ada built a settlement by ") for line in lines) == 2
    assert sum(line.startswith("Ada built a road between ") for line in lines) == 2
    assert sum(line.startswith("value bot built a settlement by ") for line in lines) == 2
    assert not [line for line in lines if re.search(r"-?\d+,-?\d+", line)]


class Seats:
    """The seats of a game created over the API, each sending its moves as a client
    would, at the game's version."""

    def __init__(self, client: Client, game: dict) -> None:
        self.client = client
        self.game_id = game["id"]
        self.tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}

    def send(self, seat: int, command: dict) -> dict:
        version = self.client.get(f"/v1/games/{self.game_id}").json()["version"]
        answer = self.client.move(self.game_id, self.tokens[seat], command, version)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def menu(self, seat: int) -> dict:
        """The commands of the seat's first open decision."""
        moves = self.client.get(f"/v1/games/{self.game_id}/legal-moves", self.tokens[seat])
        return moves.json()["commands"]["decisions"][0]["commands"]


def watch_game(pages, server, api_key: str, game_id: str):
    """A page watching a game on a desk's screen, as a spectator who typed its id in;
    the watched page."""
    watched = pages()
    page = watched.page
    page.set_viewport_size(DESK)
    start(page, server, api_key)
    page.fill("#open-game", game_id)
    page.click("#open")
    return watched


def open_seat(page, server, api_key: str, game_id: str, token: str) -> None:
    """Opens a game with a seat's token typed in, as a person given one would."""
    start(page, server, api_key)
    page.fill("#open-game", game_id)
    page.fill("#open-token", token)
    page.click("#open")
    page.wait_for_url(lambda url: "#game=" in url and "&seat=" in url)
    settled(page)


def inside(point: tuple[float, float], box: dict) -> bool:
    x, y = point
    return box["x"] <= x <= box["x"] + box["width"] and box["y"] <= y <= box["y"] + box["height"]


def centre(box: dict) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_catan_proposal_offer_form_lost_service_and_final_points(pages, server, api_key):
    """Ada (this page) and Bob (over the API) on the beginner board: Bob's proposal is
    shown with its terms and accepted; Ada's offer form lets her give only what she
    holds; her end of the turn meets a service that cannot be reached, and once it is
    back the controls work again; Bob resigns and the game's final points are said."""
    client = Client(server.url, api_key)
    options = {"layout": "beginner", "randomness": "external"}
    game = client.create("catan", [{"name": "Ada"}, {"name": "Bob"}], options)
    seats = Seats(client, game)
    for seat in (0, 1, 1, 0):  # the set-up, at the first places offered
        corners = seats.menu(seat)["build_settlement"]["corners"]
        seats.send(seat, {"type": "build_settlement", "corner": corners[0]})
        edges = seats.menu(seat)["build_road"]["edges"]
        seats.send(seat, {"type": "build_road", "edge": edges[0]})
    seats.send(0, {"type": "roll", "dice": [2, 4]})
    ada_holds = seats.menu(0)["offer_trade"]["may_give"]
    bob_holds = seats.menu(1)["propose_trade"]["may_give"]
    wanted = next(iter(ada_holds))
    offered = next(r for r in bob_holds if r != wanted)
    seats.send(1, {"type": "propose_trade", "give": {offered: 1}, "get": {wanted: 1}})

    watched = pages()
    page = watched.page
    page.set_viewport_size(DESK)
    open_seat(page, server, api_key, game["id"], seats.tokens[0])
    assert page.inner_text("#turn") == "Your move: accept or decline a proposed trade"
    assert page.inner_text("#controls .terms") == f"Bob offers 1 {offered} for 1 {wanted}."
    shot(page, "catan-proposal")
    version = board_version(page)
    page.click("#controls button:has-text('Accept the proposal')")
    after_move(page, version)
    page.wait_for_selector("[data-command=end_turn]")
    settled(page)
    assert log_lines(page)[-1] == f"Ada traded 1 {wanted} with Bob for 1 {offered}."

    # the offer form: at most what Ada holds of each resource to give, any to get
    holds = seats.menu(0)["offer_trade"]["may_give"]
    form = page.locator("form[data-command=offer_trade]")
    for resource in ("brick", "lumber", "wool", "grain", "ore"):
        most = form.locator(f"input[name=give-{resource}]").get_attribute("max")
        assert int(most) == holds.get(resource, 0), resource
        assert form.locator(f"input[name=get-{resource}]").get_attribute("max") == "19"
    lacking = next(r for r in ("brick", "lumber", "wool", "grain", "ore") if r not in holds)
    form.locator(f"input[name=give-{lacking}]").fill("1")
    form.locator(f"input[name=get-{offered}]").fill("1")
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    form.locator("button[type=submit]").click()
    assert not form.evaluate("f => f.checkValidity()")  # the browser keeps it back
    assert not any(url.endswith("/moves") for url in requests)
    form.locator(f"input[name=give-{lacking}]").fill("0")

    # the service cannot be reached (the stream cut, the network down): ending the turn
    # fails in words, and the controls stay usable; back online they are read afresh
    page.context.set_offline(True)
    kill_workers(server.process.pid)
    page.wait_for_selector("#connection.warn")
    page.click("[data-command=end_turn]")
    words = error_words(page)
    assert words.startswith("The service cannot be reached")
    assert "The board could not be read again either." in words
    page.wait_for_selector("[data-command=end_turn]:enabled")
    assert page.locator("#controls button:disabled").count() == 0
    shot(page, "catan-service-unreachable")
    back_online(page, server)
    settled(page)
    shot(page, "catan-service-back")
    version = board_version(page)
    page.click("[data-command=end_turn]")
    after_move(page, version)
    page.wait_for_function(
        "() => [...document.querySelectorAll('#log li')]"
        '.some(li => li.textContent === "Ada\'s turn ended; Bob plays next.")'
    )
    expect_errors(watched, "net::ERR_INTERNET_DISCONNECTED")
    watched.errors = [e for e in watched.errors if "net::ERR_INCOMPLETE_CHUNKED_ENCODING" not in e]

    # Bob resigns: the game ends with every seat's points
    seats.send(1, {"type": "resign"})
    page.wait_for_function(
        "() => [...document.querySelectorAll('#log li')]"
        ".some(li => li.textContent.startsWith('The game is over'))"
    )
    settled(page)
    lines = log_lines(page)
    assert "Bob resigned." in lines
    assert lines[-1] == "The game is over: Ada won. Final points: Ada 2, Bob 2."
    assert newest_in_view(page)
    shot(page, "catan-over")


def test_figures_taken_back_are_ringed_on_their_own_tiles(pages, server, api_key):
    """South Seas (an islander may be taken back whenever none is placed): the ring to
    take back Ada's islander is on her market, not on the tile she just placed; and the
    Wheel of Fortune's plague rings the follower Ada must remove on its own tile."""
    from tests.e2e.test_south_seas_http import MARKET_TURNS, turn_commands
    from tests.rules.south_seas.table import tiles_with

    client = Client(server.url, api_key)
    game = client.create(
        "carcassonne-south-seas",
        [{"name": "Ada"}, {"name": "Bob"}],
        {
            "randomness": "external",
            "retrieve": "instead_of_placing",
            "tiles": tiles_with({"SS/M": 1, "SS/B.1": 4, "SS/S": 3, "SS/S.b": 3, "SS/I.1": 4}),
        },
    )
    seats = Seats(client, game)
    for ship in ("S19", "S01", "S08", "S20"):
        seats.send(0, {"type": "reveal_ship", "ship": ship})
    for n, turn in enumerate(MARKET_TURNS[:2]):  # Ada's islander on her market at (0, 1)
        for command in turn_commands(*turn):
            seats.send(n % 2, command)
    seats.send(0, {"type": "draw_tile", "tile": "SS/B.1"})
    seats.send(0, {"type": "place_tile", "x": -1, "y": 0, "rotation": 90})

    page = seat_at_desk(pages, server, api_key, game["id"], seats.tokens[0])
    assert (
        page.inner_text("#turn")
        == "Your move: place an islander on the new tile or take one back, or neither"
    )
    label = "Take back the islander on the market at (0, 1)"
    assert label in page.locator("#controls button").all_inner_texts()
    ring = page.locator(".mark.spot[data-x='0'][data-y='1']")
    assert ring.get_attribute("data-spot") == "market"
    assert ring.locator("title").text_content() == label
    market = page.locator("#board g.tile[data-x='0'][data-y='1']").bounding_box()
    placed = page.locator("#board g.tile[data-x='-1'][data-y='0']").bounding_box()
    assert inside(centre(ring.bounding_box()), market)
    assert not inside(centre(ring.bounding_box()), placed)
    # the new tile's own spots are ringed on it
    assert page.locator(".mark.spot[data-x='-1'][data-y='0']").count() > 0
    shot(page, "south-seas-take-back")
    click_and_read_in_the_log(page, ring, "Ada took back the islander on the market at (0, 1).")

    # the plague (tests/rules/carcassonne/test_wheel_of_fortune.py's game): Bob takes
    # his monk back first, then Ada is asked for her robber at (-1, 2)
    game = client.create(
        "carcassonne",
        [{"name": "Ada"}, {"name": "Bob"}],
        {"randomness": "external", "expansions": ["wheel_of_fortune"]},
    )
    seats = Seats(client, game)
    for seat, command in [
        (0, {"type": "draw_tile", "tile": "U"}),
        (0, {"type": "place_tile", "x": -1, "y": 2, "rotation": 0}),
        (0, {"type": "place_follower", "spot": "road:E,W"}),
        (1, {"type": "draw_tile", "tile": "B"}),
        (1, {"type": "place_tile", "x": 3, "y": 4, "rotation": 0}),
        (1, {"type": "place_follower", "spot": "cloister"}),
        (0, {"type": "draw_tile", "tile": "U", "wheel": 2}),  # the pig to the Famine
        (0, {"type": "place_tile", "x": -2, "y": 2, "rotation": 0}),
        (0, {"type": "skip"}),
        (1, {"type": "draw_tile", "tile": "U", "wheel": 3}),  # on to the Plague
        (1, {"type": "remove_follower", "x": 3, "y": 4, "spot": "cloister"}),
    ]:
        seats.send(seat, command)
    page = seat_at_desk(pages, server, api_key, game["id"], seats.tokens[0])
    assert (
        page.inner_text("#turn") == "Your move: take back one follower from the land (the plague)"
    )
    label = "Remove the follower on the road (E, W) at (-1, 2)"
    assert page.locator("#controls button").all_inner_texts() == [label]
    page.wait_for_selector(".mark.spot")
    ring = page.locator(".mark.spot")
    assert ring.count() == 1
    assert (ring.get_attribute("data-x"), ring.get_attribute("data-y")) == ("-1", "2")
    road = page.locator("#board g.tile[data-x='-1'][data-y='2']").bounding_box()
    assert inside(centre(ring.bounding_box()), road)
    shot(page, "carcassonne-plague")
    click_and_read_in_the_log(page, ring, "Ada took the follower off the road (E, W) at (-1, 2)")


def test_on_a_phone_the_board_is_usable(pages, server, api_key):
    """At 390 x 844: the start screen fits; the board alone takes the width (its panel
    below), its marks are a fingertip wide, it zooms and scrolls in its own box; a move
    leaves the page where it was (only the log scrolls), and the log shows the newest."""
    watched = pages()
    page = watched.page
    page.set_viewport_size(PHONE)
    start(page, server, api_key)
    page.select_option("#ruleset", "catan")
    card = page.locator("#start section").first.bounding_box()
    for select in page.locator("#start select").all():
        box = select.bounding_box()
        assert box["x"] + box["width"] <= card["x"] + card["width"] + 0.5
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "phone-start")

    create(page, "catan", "value")
    page.wait_for_selector(".mark.corner")
    settled(page)
    box = page.locator("#board").bounding_box()
    picture = page.locator("#board svg.picture").bounding_box()
    panel = page.locator("#board svg.panel-picture").bounding_box()
    assert picture["width"] >= box["width"] - 20  # the whole width (but a scroll bar's)
    assert panel["y"] >= picture["y"] + picture["height"] - 1  # the scores below it,
    assert panel["y"] + panel["height"] <= box["y"] + box["height"] + 0.5  # all of them
    widths = page.locator(".mark.corner").evaluate_all(
        "marks => marks.map(m => m.getBoundingClientRect().width)"
    )
    assert min(widths) >= 24 - 0.01
    shot(page, "phone-catan-settlement")

    # a settlement tapped at the top of the page, the log below the screen: the page
    # stays where it is, on the board (the log scrolls in its own box)
    page.evaluate("window.scrollTo(0, 0)")
    log = page.locator("#log li").last.bounding_box()
    assert log["y"] > PHONE["height"]
    version = board_version(page)
    page.locator(".mark.corner").nth(7).click()
    after_move(page, version)
    page.wait_for_selector(".mark.edge")
    settled(page)
    assert page.evaluate("scrollY") == 0
    thickness = page.locator(".mark.edge").evaluate_all(
        "marks => marks.map(m => { const svg = m.ownerSVGElement;"
        " return m.width.baseVal.value * svg.getBoundingClientRect().width"
        " / svg.viewBox.baseVal.width; })"
    )
    assert min(thickness) >= 24 - 0.01
    shot(page, "phone-catan-road")

    # zoomed in, the board grows in its own box, which scrolls to the marks; the page
    # does not grow wider
    page.click("#zoom-in")
    zoomed = page.locator("#board svg.picture").bounding_box()
    assert zoomed["width"] > 1.4 * picture["width"]
    assert page.evaluate(
        "() => { const b = document.querySelector('#board');"
        " return b.scrollWidth > b.clientWidth; }"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = page.locator("#board").bounding_box()
    edges = [e.bounding_box() for e in page.locator(".mark.edge").all()]
    assert any(inside(centre(edge), box) for edge in edges)
    road = page.locator(".mark.edge").first
    road.scroll_into_view_if_needed()
    version = board_version(page)
    road.click()
    place = page.evaluate("scrollY")
    after_move(page, version)
    page.wait_for_function(  # the bot's set-up follows
        "() => [...document.querySelectorAll('#log li')]"
        ".filter(li => li.textContent.startsWith('value bot built a road')).length == 2"
    )
    settled(page)
    assert page.evaluate("scrollY") == place
    assert newest_in_view(page)
    shot(page, "phone-catan-zoomed")
    page.click("#zoom-fit")
    assert page.locator("#board svg.picture").bounding_box()["width"] >= box["width"] - 20


def test_two_bots_of_one_name_are_told_apart(pages, server, api_key):
    """A game of two greedy bots, played to its end as it is created, watched: each
    bot is named with its seat, down to the final scores."""
    game = Client(server.url, api_key).create(
        "carcassonne", [{"bot": "greedy"}, {"bot": "greedy"}], {}
    )
    page = watch_game(pages, server, api_key, game["id"]).page
    page.wait_for_function(
        "() => document.querySelector('#log li:last-child')?.textContent"
        ".startsWith('The game is over')"
    )
    settled(page)
    lines = log_lines(page)
    assert any(line.startswith("greedy bot (seat 0) placed ") for line in lines)
    assert any(line.startswith("greedy bot (seat 1) placed ") for line in lines)
    assert not any(line.startswith("greedy bot placed") for line in lines)
    assert re.fullmatch(
        r"The game is over: greedy bot \(seat [01]\)( and greedy bot \(seat 1\))? won\."
        r" Final scores: greedy bot \(seat 0\) \d+, greedy bot \(seat 1\) \d+\.",
        lines[-1],
    ), lines[-1]
    assert scrolled(page) and newest_in_view(page)
    shot(page, "carcassonne-two-greedy-bots")


def test_seats_passing_on_trades_one_after_another_share_one_line_of_the_log(
    pages, server, api_key
):
    """After each roll every other seat may propose a trade: when Ada rolls, her three
    bots pass one after another, and the log tells that in one line, which stands for
    each of their moves when the game is replayed."""
    client = Client(server.url, api_key)
    game = client.create("catan", [{"name": "Ada"}] + [{"bot": "random"}] * 3, {})
    seats = Seats(client, game)
    for _ in range(2):  # the set-up, at the first places offered; the bots answer at once
        corners = seats.menu(0)["build_settlement"]["corners"]
        seats.send(0, {"type": "build_settlement", "corner": corners[0]})
        edges = seats.menu(0)["build_road"]["edges"]
        seats.send(0, {"type": "build_road", "edge": edges[0]})
    for _ in range(2):  # two of Ada's turns: she rolls, moves the robber on a 7, ends
        seats.send(0, {"type": "roll"})
        menu = seats.menu(0)
        if "move_robber" in menu:
            place = menu["move_robber"]["hexes"][0]
            victim = place["victims"][0] if place["victims"] else None
            seats.send(0, {"type": "move_robber", "hex": place["hex"], "victim": victim})
        seats.send(0, {"type": "end_turn"})

    page = watch_game(pages, server, api_key, game["id"]).page
    settled(page)
    items = page.eval_on_selector_all(
        "#log li",
        "items => items.map(li => [li.textContent, Number(li.dataset.from),"
        " Number(li.dataset.seq)])",
    )
    # the lines tell every event once, in order
    assert [item[1] for item in items] == [1] + [item[2] + 1 for item in items[:-1]]
    passes = [(text, first, last) for text, first, last in items if "no trade" in text]
    bot = r"random bot \(seat [1-3]\)"
    for text, first, last in passes:
        assert re.fullmatch(rf"({bot}, )*{bot} (and {bot} propose|proposes) no trade\.", text)
        assert text.count("random bot") == last - first + 1, text
    # after each of Ada's rolls her three bots pass, in one line each time
    three = [item for item in passes if item[2] == item[1] + 2]
    assert len(three) >= 2, passes
    # replayed to the middle of that line's moves, the line is the move shown
    _, first, last = three[0]
    page.eval_on_selector(
        "#moment", "(m, v) => { m.value = v; m.dispatchEvent(new Event('input')); }", first + 1
    )
    page.wait_for_function(
        "n => document.querySelector('#log li.current')?.dataset.from == n", arg=first
    )
    later = page.eval_on_selector_all("#log li.later", "items => items.length")
    assert later == sum(1 for item in items if item[1] > first + 1)
    shot(page, "catan-passes-in-one-line")


def test_the_pirate_islands_steal_is_offered_as_one_button_per_victim_and_nobody(
    pages, server, api_key, monkeypatch
):
    """The Pirate Islands (Seafarers 7): on a 7 the roller may steal from any seat that
    holds a card, or from nobody. The game of the rules test, played up to that roll
    over the API; the page offers a button for each choice, each the command it says."""
    from tests.rules.catan import table as catan_table
    from tests.rules.catan.test_pirate_islands import opened

    sent: list[tuple[int, dict]] = []
    send = catan_table.Table.send

    def recorded(table, command, seat=None, decision=None, rng=None):
        seat = table.awaiting()[0]["seat"] if seat is None else seat
        events = send(table, command, seat, decision, rng)
        sent.append((seat, command))
        return events

    monkeypatch.setattr(catan_table.Table, "send", recorded)
    table = opened()
    table.roll(0, 0, [1, 6])  # a 7
    client = Client(server.url, api_key)
    people = [{"name": name} for name in ("Ada", "Bob", "Cy", "Dee")]
    game = client.create("catan", people, dict(table.options))
    seats = Seats(client, game)
    for seat, command in sent:
        seats.send(seat, command)
    assert seats.menu(0) == {"steal": {"victims": [1, 2, 3]}}

    page = seat_at_desk(pages, server, api_key, game["id"], seats.tokens[0])
    assert page.inner_text("#turn") == "Your move: choose whom to steal a card from"
    buttons = page.locator("#controls button").all_inner_texts()
    assert [b for b in buttons if b.startswith("Steal")] == [
        "Steal a card from Bob",
        "Steal a card from Cy",
        "Steal a card from Dee",
        "Steal from nobody",
    ]
    shot(page, "catan-pirate-islands-steal")
    # in external randomness the stolen card is the client's to name: the page asks
    # only for the victim, so the answer is read back by the module that makes them
    made = page.evaluate(
        """async () => {
            const main = document.querySelector("script[type=module]").src;
            const { choices } = await import(main.replace(/main[.]js$/, "commands.js"));
            return choices("steal", { victims: [1, 3] }, (s) => `seat ${s}`).map((c) => c.command);
        }"""
    )
    assert made == [
        {"type": "steal", "victim": 1},
        {"type": "steal", "victim": 3},
        {"type": "steal", "victim": None},
    ]


@functools.cache
def met_in_bot_games() -> tuple[list[dict], list[dict]]:
    """One decision of each kind, command and shape of options that legal-moves gives a
    seat, and one event of each type, in bot games of every ruleset, expansion and
    scenario (the value and greedy bots trade and wait on answers the random bots never
    bring about)."""
    from service.rules import get_ruleset
    from service.rules.carcassonne.expansions import EXPANSIONS
    from service.rules.catan.game import SCENARIOS
    from service.rules.play import play_game

    cases = [
        ("carcassonne", {"expansions": list(EXPANSIONS)}, 4, "greedy"),
        ("carcassonne-south-seas", {}, 4, "greedy"),
        ("catan", {}, 4, "value"),
        *(("catan", {"scenario": n}, max(info.players), "value") for n, info in SCENARIOS.items()),
    ]
    found: dict[tuple, dict] = {}
    events: dict[str, dict] = {}
    for name, options, seats, other in cases:
        ruleset = get_ruleset(name)

        def observe(state, events, ruleset=ruleset, seats=seats, name=name) -> None:
            for seat in range(seats):
                for decision in ruleset.legal_commands(state, seat)["decisions"]:
                    for kind, menu in decision["commands"].items():
                        shape = sorted(menu) if isinstance(menu, dict) else "list"
                        key = (name, decision["kind"], kind, json.dumps(shape))
                        found.setdefault(key, {"kind": decision["kind"], "commands": {kind: menu}})

        for bot in ("random", other):
            seed = f"offered-{bot}".encode()
            played, _ = play_game(ruleset, options, seats, seed, [bot] * seats, observe)
            for event in played:
                events.setdefault(event.type, {"type": event.type, "data": event.data})
    return list(found.values()), list(events.values())


def test_every_command_a_seat_is_offered_has_a_control_on_the_page(pages, server):
    """What the steal lacked, for every decision bots meet: each command is drawn on the
    board (Catan's places, a tile's cells) or has buttons or a form, never 'not offered
    by this page'."""
    decisions, _ = met_in_bot_games()
    page = pages().page
    assert page.goto(f"{server.url}/play/", wait_until="load").status == 200
    missing = page.evaluate(
        """async (decisions) => {
            const main = document.querySelector("script[type=module]").src;
            const module = (name) => import(main.replace(/main[.]js$/, name));
            const { commandControls } = await module("commands.js");
            const { ON_BOARD } = await module("catan.js");
            const missing = [];
            for (const decision of decisions) {
                const onBoard = new Set(ON_BOARD);
                if (decision.commands.place_tile) onBoard.add("place_tile");
                const controls = commandControls(decision, {
                    who: (seat) => `seat ${seat}`, send: () => {}, onBoard,
                });
                const words = controls.map((control) => control.textContent).join(" | ");
                if (words.includes("not offered by this page")) missing.push([decision, words]);
            }
            return missing;
        }""",
        decisions,
    )
    assert len(decisions) > 40
    assert missing == []


def test_every_decision_a_seat_may_be_awaited_for_is_told_in_words(pages, server):
    """The turn line ("Your move: ...", "Waiting for ...") says what each decision of
    every ruleset asks, in words of its own rather than its kind's code."""
    from service.rules import get_ruleset

    kinds = sorted(
        {
            kind
            for name in ("carcassonne", "carcassonne-south-seas", "catan")
            for kind in get_ruleset(name).describe()["decisions"]
        }
    )
    page = pages().page
    assert page.goto(f"{server.url}/play/", wait_until="load").status == 200
    told = page.evaluate(
        """async (kinds) => {
            const main = document.querySelector("script[type=module]").src;
            const { DECISION_WORDS } = await import(main.replace(/main[.]js$/, "words.js"));
            return kinds.map((kind) => [kind, DECISION_WORDS[kind] ?? null]);
        }""",
        kinds,
    )
    assert len(told) > 20
    assert [kind for kind, words in told if words is None] == []
    assert [words for _, words in told if "_" in words] == []


#: what the table writes (resigning, bots, clocks), which bot games never do
TABLE_EVENTS = [
    {"type": "game_abandoned", "data": {}},
    {"type": "seat_handed_to_bot", "data": {"seat": 1, "bot": "greedy"}},
    {"type": "seat_handed_back", "data": {"seat": 1}},
    {"type": "seat_timed_out", "data": {"seat": 1, "action": "skip"}},
    {"type": "clock", "data": {"remaining_ms": [245000, None], "running": {}}},
]


def test_every_event_a_game_writes_is_told_in_words_in_the_log(pages, server):
    """Each event type of bot games of every ruleset, expansion and scenario, and the
    table's, has a sentence of its own (not the plain type and fields the page falls
    back to), which reads its data: no 'undefined', 'NaN' or '[object Object]'."""
    _, events = met_in_bot_games()
    events = events + TABLE_EVENTS
    page = pages().page
    assert page.goto(f"{server.url}/play/", wait_until="load").status == 200
    told = page.evaluate(
        """async (events) => {
            const main = document.querySelector("script[type=module]").src;
            const { SENTENCES, eventWords } = await import(main.replace(/main[.]js$/, "words.js"));
            return events.map((event) => [
                event.type, event.type in SENTENCES, eventWords(event, (seat) => `Seat ${seat}`),
            ]);
        }""",
        events,
    )
    assert len(told) > 60
    assert [type_ for type_, known, _ in told if not known] == []
    garbled = [words for _, _, words in told if re.search(r"undefined|NaN|\[object", words)]
    assert garbled == []


def test_the_log_tells_tiles_set_aside_by_their_reason_and_the_hill_without_its_secret(
    pages, server
):
    """A tile is set aside because it fits nowhere (its seat draws again), because its
    seat resigned or because the game ended; the tile under a hill stays unnamed (the
    viewer's event has no tile); a person reads no tile codes."""
    aside = [(0, "fits nowhere on the board"), (1, "its seat resigned"), (0, "the game ended")]
    events = [
        *(
            {"type": "tile_set_aside", "data": {"seat": seat, "tile": "BA/C", "reason": reason}}
            for seat, reason in aside
        ),
        {"type": "tile_hidden", "data": {"seat": 1, "tile": None, "under": "HS/CRr.h"}},
        {"type": "tile_drawn", "data": {"seat": 0, "tile": "BA/CRr"}},
        {
            "type": "tile_placed",
            "data": {"seat": 0, "tile": "BA/CRr", "x": 1, "y": -2, "rotation": 0},
        },
        {
            "type": "tile_placed",
            "data": {"seat": 1, "tile": "BA/R", "x": 0, "y": 1, "rotation": 90},
        },
    ]
    page = pages().page
    assert page.goto(f"{server.url}/play/", wait_until="load").status == 200
    told = page.evaluate(
        """async (events) => {
            const main = document.querySelector("script[type=module]").src;
            const { eventWords } = await import(main.replace(/main[.]js$/, "words.js"));
            return events.map((event) => eventWords(event, (seat) => "AB"[seat]));
        }""",
        events,
    )
    assert told == [
        "The tile A drew fits nowhere on the board: it is set aside, and A draws again.",
        "The tile B drew is set aside: its seat resigned.",
        "The tile A drew is set aside: the game ended.",
        "B put a tile face down, unseen, under the hill just placed.",
        "A drew a tile.",
        "A placed a tile at (1, -2).",
        "B placed a tile at (0, 1), turned 90°.",
    ]


def test_catan_places_are_named_by_their_hexes_in_the_log(pages, server):
    """An intersection by the hexes around it, a path by the two it separates, a hex by its
    terrain and number; the sea and the fog as such; the fog's find once turned up; a
    place on a board not yet seen keeps its code."""
    board = {
        "hexes": [
            {"hex": "0,0", "terrain": "forest", "number": 10},
            {"hex": "1,-1", "terrain": "pasture", "number": 8},
            {"hex": "0,-1", "terrain": "hills", "number": 6},
            {"hex": "1,0", "terrain": "sea", "number": None},
            {"hex": "-1,1", "terrain": "desert", "number": None},
            {"hex": "0,1", "terrain": "fog", "number": None},
        ]
    }
    events = [
        {"type": "settlement_built", "data": {"seat": 0, "corner": "0,0,N"}},  # no board yet
        {"type": "game_started", "data": {"seats": 2, "board": board}},
        {"type": "settlement_built", "data": {"seat": 0, "corner": "0,0,N"}},
        {"type": "road_built", "data": {"seat": 0, "edge": "0,0,NE"}},
        {"type": "ship_built", "data": {"seat": 1, "edge": "0,0,E"}},
        {"type": "city_built", "data": {"seat": 1, "corner": "0,0,S"}},
        {"type": "robber_moved", "data": {"seat": 0, "hex": "-1,1", "victim": 1}},
        {"type": "pirate_moved", "data": {"seat": 1, "hex": "1,0", "victim": None}},
        {"type": "hex_revealed", "data": {"seat": 1, "hex": "0,1", "terrain": "gold", "number": 5}},
        {"type": "road_built", "data": {"seat": 1, "edge": "0,0,SE"}},
    ]
    page = pages().page
    assert page.goto(f"{server.url}/play/", wait_until="load").status == 200
    told = page.evaluate(
        """async (events) => {
            const main = document.querySelector("script[type=module]").src;
            const { PlaceNames, eventWords } = await import(main.replace(/main[.]js$/, "words.js"));
            const places = new PlaceNames();
            return events.map((event) => {
                places.learn(event);
                return eventWords(event, (seat) => "AB"[seat], places);
            });
        }""",
        events,
    )
    assert told == [
        "A built a settlement at 0,0,N.",
        "The game began with 2 seats.",
        "A built a settlement by forest 10, hills 6 and pasture 8.",
        "A built a road between forest 10 and pasture 8.",
        "B built a ship between forest 10 and the sea.",
        "B built a city by forest 10, the desert and fog.",
        "A moved the robber to the desert and robbed B.",
        "B moved the pirate to the sea by fog, forest 10 and pasture 8.",
        "B sailed into the fog and found gold 5.",
        "B built a road between forest 10 and gold 5.",
    ]


def test_the_new_game_form_names_the_scenarios_and_sends_what_is_chosen(pages, server, api_key):
    """Seafarers scenarios are listed by name; choosing one gives the form the seats it
    is played with at least (a bot seat added: 3 for scenario 1); the victory points left
    at the game's own play to the scenario's target (14 for scenario 1), and 10 chosen is
    10."""
    page = pages().page
    page.set_viewport_size(DESK)
    start(page, server, api_key)
    page.select_option("#ruleset", "catan")
    scenarios = page.locator("#option-scenario option").all_inner_texts()
    assert scenarios[:3] == [
        "none: the base game (the default)",
        "none: the base game",
        "1: Heading for New Shores (3/4 players, 14 points)",
    ]
    assert page.locator("#option-victory_points option").first.inner_text() == (
        "the game's own: 10, or the scenario's target"
    )
    client = Client(server.url, api_key)
    for chosen, target in ((None, 14), ("10", 10)):
        start(page, server, api_key)
        page.select_option("#ruleset", "catan")
        assert page.locator("#seat-list .seat").count() == 2
        page.select_option("#option-scenario", "1")
        assert page.locator("#seat-list .seat").count() == 3
        assert page.locator("#seat-list .seat .seat-kind").nth(2).input_value() != ""  # a bot
        page.select_option("#option-scenario", "null")
        assert page.locator("#seat-list .seat").count() == 3  # nothing taken away
        page.select_option("#option-scenario", "1")
        if chosen is not None:
            page.select_option("#option-victory_points", chosen)
        page.click("#add-seat")
        page.click("#create")
        page.wait_for_url(lambda url: "#game=" in url)
        game_id = page.url.split("#game=")[1].split("&")[0]
        options = client.get(f"/v1/games/{game_id}").json()["options"]
        assert (options["scenario"], options["victory_points"]) == (1, target)


def test_the_log_counts_wares_and_points_in_plain_english(pages, server):
    page = pages().page
    assert page.goto(f"{server.url}/play/", wait_until="load").status == 200
    delivered = {
        "seat": 0,
        "wares": {"shell": 2, "banana": 1, "fish": 3},
        "ship": "S01",
        "points": 1,
    }
    took = {"winners": [1], "wares": 2, "ware": "shell", "complete": True, "kind": "island"}
    told = page.evaluate(
        """async (events) => {
            const main = document.querySelector("script[type=module]").src;
            const { eventWords } = await import(main.replace(/main[.]js$/, "words.js"));
            return events.map((event) => eventWords(event, (seat) => `Seat ${seat}`));
        }""",
        [
            {"type": "wares_delivered", "data": delivered},
            {"type": "feature_evaluated", "data": took},
        ],
    )
    assert told == [
        "Seat 0 delivered 2 shells, 1 banana and 3 fish to ship S01 for 1 point.",
        "Seat 1 took 2 shells from a completed island.",
    ]
