"""Board pictures in a real headless Chromium against the running service (gunicorn):
games in progress (Carcassonne, with and without its expansions, South Seas, Catan, its
first Seafarers scenario and the scenarios that add pieces of their own) are drawn by
``GET .../board.svg`` and opened as the browser's page, under the picture's own
Content-Security-Policy. The browser must find the SVG document with every tile, figure
and piece the state lists, laid out with a real size and visible, with nothing refused
and no error; a screenshot of each lands in ``test-output/``
(git-ignored) for a person to look at.

The browser is the one the /docs test uses (``make browser``); without one this test
fails, never skips.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from service.rules import get_ruleset
from tests.client import Client, fold
from tests.e2e.test_docs_browser import OUTPUT, chromium_executable

GAMES = {
    "carcassonne": ("carcassonne", {}, [{"name": "Ada"}, {"bot": "greedy"}, {"bot": "random"}], 30),
    "carcassonne-expansions": (
        "carcassonne",
        {"expansions": ["river", "inns_cathedrals", "traders_builders", "hills_sheep",
                        "wheel_of_fortune"]},
        [{"name": "Ada"}, {"bot": "greedy"}, {"bot": "greedy"}, {"bot": "random"}],
        40,
    ),
    "south-seas": (
        "carcassonne-south-seas", {}, [{"name": "Ada"}, {"bot": "greedy"}, {"bot": "random"}], 40
    ),
    # Catan: few enough of seat 0's commands (the set-up and some 6 rounds) that the value
    # bots, on a board of the server's drawing, cannot have won yet (50 sometimes let them)
    "catan": ("catan", {"scenario": None}, [{"name": "Ada"}, {"bot": "value"}, {"bot": "value"}],
              22),
    "seafarers-1": (
        "catan",
        {"scenario": 1},
        [{"name": "Ada"}, {"bot": "value"}, {"bot": "value"}, {"bot": "value"}],
        24,
    ),
    # the scenarios that add pieces of their own to the board
    "seafarers-5": ("catan", {"scenario": 5}, [{"name": "Ada"}, {"bot": "value"}, {"bot": "value"}],
                    24),
    "seafarers-7": (
        "catan",
        {"scenario": 7},
        [{"name": "Ada"}, {"bot": "value"}, {"bot": "value"}, {"bot": "value"}],
        24,
    ),
    "seafarers-8": ("catan", {"scenario": 8}, [{"name": "Ada"}, {"bot": "value"}, {"bot": "value"}],
                    24),
}  # fmt: skip

#: what a scenario's picture holds besides: the Forgotten Tribe's gifts, the Pirate
#: Islands' fortresses, routes and warships, the Wonders' marked intersections
SCENARIO_COUNTS = {
    "seafarers-5": [("g.gift", lambda s: len(s["tribe"]["gifts"]))],
    "seafarers-7": [
        ("g.fortress", lambda s: sum(not c["conquered"] for c in s["pirate_islands"]["colours"])),
        ("g.sea-route", lambda s: len(s["pirate_islands"]["colours"])),
        ("g.fleet-path", lambda s: 1),
        (
            "g.ship[data-warship]",
            lambda s: sum(len(c["warships"]) for c in s["pirate_islands"]["colours"]),
        ),
    ],
    "seafarers-8": [
        ("g.wonder-mark", lambda s: sum(map(len, s["wonders"]["intersections"].values())))
    ],
}

#: what each picture must hold, by the state's lists: (CSS selector, count from state)
COUNTS = {
    "carcassonne": [
        ("g.tile", lambda s: len(s["board"])),
        ("g.figure[data-spot]", lambda s: len(s.get("followers", s.get("islanders", [])))),
    ],
    "catan": [
        ("g.hex", lambda s: len(s["board"]["hexes"])),
        ("g.building", lambda s: len(s["buildings"])),
        ("g.road", lambda s: len(s["roads"])),
        ("g.ship", lambda s: len(s.get("ships", []))),
    ],
}


def play(client: Client, game: dict, moves: int) -> dict:
    """Seat 0 plays its ruleset's random bot on its own fold of the log; the service's
    bots answer. The game stays in progress."""
    ruleset = get_ruleset(game["ruleset"])
    token = game["seat_tokens"][0]["token"]
    version, awaiting = game["version"], game["awaiting"]
    rng = random.Random(11)
    for _ in range(moves):
        if not any(d["seat"] == 0 for d in awaiting):
            break
        state = fold(ruleset, client.all_events(game["id"], token))
        command = ruleset.bot_command(state, 0, "random", rng)
        response = client.move(game["id"], token, command, version)
        assert response.status_code == 200, response.text
        version, awaiting = response.json()["version"], response.json()["awaiting"]
    return client.get(f"/v1/games/{game['id']}/state").json()


@pytest.fixture(scope="module")
def browser() -> Iterator:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_executable())
        yield launched
        launched.close()


@pytest.mark.parametrize("name", list(GAMES))
def test_board_pictures_render_in_chromium(browser, server, api_key, name):
    ruleset, options, seats, moves = GAMES[name]
    client = Client(server.url, api_key)
    game = client.create(ruleset, seats, options)
    read = play(client, game, moves)
    assert read["status"] == "active", "the picture is of a game in progress"
    state = read["state"]

    context = browser.new_context(
        viewport={"width": 800, "height": 600}, extra_http_headers={"X-API-Key": api_key}
    )
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.add_init_script(
            "window.__violations = [];"
            "document.addEventListener('securitypolicyviolation', e =>"
            " window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));"
        )
        response = page.goto(f"{server.url}/v1/games/{game['id']}/board.svg", wait_until="load")
        assert response.status == 200
        assert response.headers["content-type"].startswith("image/svg+xml")
        assert page.evaluate("document.documentElement.localName") == "svg"
        width, height = page.evaluate(
            "[document.documentElement.width.baseVal.value,"
            " document.documentElement.height.baseVal.value]"
        )
        page.set_viewport_size({"width": int(width) + 1, "height": int(height) + 1})
        box = page.evaluate(
            "(() => { const b = document.querySelector('g.board-area').getBBox();"
            " return [b.width, b.height]; })()"
        )
        assert box[0] > 200 and box[1] > 200
        family = "catan" if ruleset == "catan" else "carcassonne"
        for selector, expected in COUNTS[family] + SCENARIO_COUNTS.get(name, []):
            assert page.locator(selector).count() == expected(state), selector
            if expected(state):
                assert page.locator(selector).first.is_visible(), selector
        assert page.locator(".last-move").count() >= 1
        assert page.locator("g.score").count() == len(seats)
        OUTPUT.mkdir(exist_ok=True)
        page.screenshot(path=str(OUTPUT / f"board-{name}.png"))
        assert page.evaluate("window.__violations") == []
        assert errors == []
    finally:
        context.close()


def test_tile_pictures_render_in_chromium(browser, server):
    context = browser.new_context(viewport={"width": 240, "height": 272})
    try:
        page = context.new_page()
        for path, shot in [
            ("/v1/rulesets/carcassonne/tiles/IC/CcRr+.i.svg?rotation=90", "tile-carcassonne"),
            ("/v1/rulesets/carcassonne-south-seas/tiles/SS/IB=.svg", "tile-south-seas"),
            ("/v1/rulesets/catan/tiles/forest.svg?number=8", "tile-catan"),
        ]:
            response = page.goto(server.url + path, wait_until="load")
            assert response.status == 200
            assert page.evaluate("document.documentElement.localName") == "svg"
            page.screenshot(path=str(OUTPUT / f"{shot}.png"))
    finally:
        context.close()
