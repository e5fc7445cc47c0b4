"""Board and tile pictures over HTTP, for every ruleset, every Carcassonne expansion and
every Seafarers scenario: each SVG is well-formed XML, holds one element per placed
tile, figure, building, road and ship the view lists, is byte-identical for the same
state, and never shows what the viewer may not see (another seat's hand, the tile
under a hill, what lies under the fog). Games are created over HTTP with bot seats; the
human seats play their ruleset's random bot on their own fold of the log they receive.
"""

from __future__ import annotations

import math
import random
import xml.etree.ElementTree as ET
from collections import Counter

import psycopg
import pytest

from service.pictures import squares
from service.pictures.carcassonne import all_tiles
from service.pictures.svg import num
from service.rules.catan.game import SCENARIOS
from service.rules.core import Event
from service.rules.registry import get_ruleset
from tests.api.conftest import Api

SVG = "{http://www.w3.org/2000/svg}"
EXPANSIONS = ["river", "inns_cathedrals", "traders_builders", "hills_sheep", "wheel_of_fortune"]


# -- helpers ---------------------------------------------------------------------------------


def parse(response) -> ET.Element:
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    assert response.mimetype == "image/svg+xml"
    root = ET.fromstring(response.data)
    assert root.tag == f"{SVG}svg"
    return root


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def words(element: ET.Element) -> str:
    return " ".join(t.text or "" for t in element.iter(f"{SVG}text"))


def received(api: Api, game: dict, headers: dict) -> list[Event]:
    items = api.client.get(
        f"/v1/games/{game['id']}/events", headers=headers, query_string={"limit": 1000}
    ).get_json()["events"]
    return [Event(e["type"], e["data"], tuple(e["visibility"] or ()) or None) for e in items]


def play(api: Api, game: dict, moves: int, seed: int = 7) -> int:
    """The human seats play the random bot on their own fold of what they receive; the
    bot seats answer inside each move. Returns the version reached."""
    ruleset = get_ruleset(game["ruleset"])
    version, awaiting = game["version"], game["awaiting"]
    rng = random.Random(seed)
    for _ in range(moves):
        humans = [d for d in awaiting if d["seat"] in game["tokens"]]
        if not humans:
            break
        seat = humans[0]["seat"]
        headers = {"X-Seat-Token": game["tokens"][seat]}
        state = ruleset.fold(received(api, game, headers))
        command = ruleset.bot_command(state, seat, "random", rng)
        response = api.move(game, seat, command, version)
        assert response.status_code == 200, response.get_json()
        version, awaiting = response.get_json()["version"], response.get_json()["awaiting"]
    return version


def board(api: Api, game: dict, headers: dict, at: int | None = None):
    query = {} if at is None else {"at": at}
    return api.client.get(f"/v1/games/{game['id']}/board.svg", headers=headers, query_string=query)


def view(api: Api, game: dict, headers: dict, at: int | None = None) -> dict:
    query = {} if at is None else {"at": at}
    response = api.client.get(f"/v1/games/{game['id']}/state", headers=headers, query_string=query)
    assert response.status_code == 200
    return response.get_json()["state"]


def viewers(api: Api, game: dict) -> list[tuple[int | None, dict]]:
    seats = [(seat, {"X-Seat-Token": token}) for seat, token in sorted(game["tokens"].items())]
    return [*seats, (None, api.key)]


def check_tiles(root: ET.Element, state: dict) -> None:
    """One tile element per placed tile, each where the view puts it."""
    drawn = Counter(
        (
            int(t.get("data-x")),
            int(t.get("data-y")),
            t.get("data-tile"),
            int(t.get("data-rotation")),
        )
        for t in with_class(root, "tile")
    )
    listed = Counter((t["x"], t["y"], t["tile"], t["rotation"]) for t in state["board"])
    assert drawn == listed
    check_grid_data(root)


def check_grid_data(root: ET.Element) -> None:
    """The root says where cell (x, y) lies (what /play/ draws its ghost cells by): each
    tile sits at origin + (x, y) x cell, left of where the board ends."""
    ox, oy = float(root.get("data-origin-x")), float(root.get("data-origin-y"))
    cell, board_width = float(root.get("data-cell")), float(root.get("data-board-width"))
    for tile in with_class(root, "tile"):
        x, y = int(tile.get("data-x")), int(tile.get("data-y"))
        left, top = ox + x * cell, oy + y * cell
        assert tile.get("transform") == f"translate({num(left)} {num(top)})"
        assert left + cell < board_width
    [panel] = with_class(root, "panel")
    assert panel.get("transform") == f"translate({root.get('data-board-width')} 0)"


def check_figures(root: ET.Element, figures: list[dict], extra: int = 0) -> None:
    drawn = [f for f in with_class(root, "figure") if f.get("data-spot") is not None]
    assert Counter(
        (int(f.get("data-seat")), int(f.get("data-x")), int(f.get("data-y")), f.get("data-spot"))
        for f in drawn
    ) == Counter((f["seat"], f["x"], f["y"], f["spot"]) for f in figures)
    assert len(with_class(root, "figure")) == len(figures) + extra


def check_scores(root: ET.Element, scores: list[int]) -> None:
    shown = {int(g.get("data-seat")): int(g.get("data-score")) for g in with_class(root, "score")}
    assert shown == dict(enumerate(scores))


def check_same_bytes_and_caching(api: Api, game: dict, headers: dict, version: int) -> None:
    first, second = board(api, game, headers), board(api, game, headers)
    assert first.data == second.data
    assert first.headers["ETag"] == second.headers["ETag"]
    assert first.headers["Cache-Control"] == "private, no-cache"
    assert "X-Seat-Token" in first.headers["Vary"]
    # ?at= the current version draws the same state: the same bytes, cached for long
    fixed = board(api, game, headers, at=version)
    assert fixed.data == first.data
    assert fixed.headers["Cache-Control"] == "private, max-age=604800"
    again = api.client.get(
        f"/v1/games/{game['id']}/board.svg",
        headers={**headers, "If-None-Match": first.headers["ETag"]},
    )
    assert again.status_code == 304 and again.data == b""


def hidden_tiles(database_url: str, game_id: str) -> list[str]:
    """The tiles under the hills, as only the server's table holds them."""
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT data->>'tile' FROM events WHERE game_id = %s AND type = 'tile_hidden'",
            (game_id,),
        ).fetchall()
    return [tile for (tile,) in rows]


# -- Carcassonne -----------------------------------------------------------------------------


def test_carcassonne_base_game_board(api):
    game = api.create("carcassonne", seats=[{"name": "Ada"}, {"bot": "greedy"}])
    version = play(api, game, 24)
    for _seat, headers in viewers(api, game):
        state = view(api, game, headers)
        root = parse(board(api, game, headers))
        check_tiles(root, state)
        check_figures(root, state["followers"])
        check_scores(root, state["scores"])
        assert len(with_class(root, "last-move")) >= 1
        assert "Ada" in words(root) and "greedy bot" in words(root)
        check_same_bytes_and_caching(api, game, headers, version)
    # and at an earlier version, the board as it was then
    early = parse(board(api, game, api.key, at=2))
    check_tiles(early, view(api, game, api.key, at=2))


@pytest.mark.parametrize("expansion", EXPANSIONS)
def test_carcassonne_expansion_board(api, database_url, expansion):
    game = api.create(
        "carcassonne",
        seats=[{"name": "Ada"}, {"name": "Bob"}, {"bot": "greedy"}],
        options={"expansions": [expansion]},
    )
    version = play(api, game, 40)
    while expansion == "hills_sheep" and not hidden_tiles(database_url, game["id"]):
        game = {**game, **api.client.get(f"/v1/games/{game['id']}", headers=api.key).get_json()}
        assert game["status"] == "active", "a whole game without a hill"
        version = play(api, game, 20)
    for _seat, headers in viewers(api, game):
        state = view(api, game, headers)
        root = parse(board(api, game, headers))
        check_tiles(root, state)
        on_board = with_class(root, "tile")
        crowned = 0
        wheel = state["expansions"].get("wheel_of_fortune")
        if wheel is not None:
            crowned = sum(s is not None for seats in wheel["crowns"].values() for s in seats)
        check_figures(root, state["followers"], extra=crowned)
        check_scores(root, state["scores"])
        check_same_bytes_and_caching(api, game, headers, version)
        kinds = Counter(g.get("data-kind") for t in on_board for g in with_class(t, "segment"))
        icons = Counter(g.get("data-icon") for t in on_board for g in with_class(t, "icon"))
        tiles = [t["tile"] for t in state["board"]]
        if expansion == "river":
            rivers = [t for t in tiles if t.startswith("RI")]
            assert rivers and kinds["river"] == len(rivers)
        if expansion == "inns_cathedrals":
            assert icons["inn"] == sum(t.endswith(".i") for t in tiles)
        if expansion == "traders_builders":
            goods = sum(icons[g] for g in ("wine", "grain", "cloth"))
            assert goods == sum(t.startswith("TB/") and t[-2] == "." for t in tiles)
            assert "goods:" in words(root)
        if expansion == "hills_sheep":
            assert kinds["hill"] == sum(".h" in t for t in tiles)
            assert kinds["vineyard"] == sum(".v" in t for t in tiles)
            flocks = state["expansions"]["hills_sheep"]["flocks"]
            assert len(with_class(root, "flock")) == len(flocks)
        if expansion == "wheel_of_fortune":
            (drawn,) = with_class(root, "wheel")
            assert [s.get("data-sector") for s in with_class(drawn, "sector")] == wheel["sectors"]
            spaces = sum(len(seats) for seats in wheel["crowns"].values())
            assert len(with_class(drawn, "crown")) == spaces
            (pig,) = with_class(drawn, "wheel-pig")
            assert pig.get("data-sector") == wheel["pig"]
    if expansion == "hills_sheep":
        # The tiles under the hills are nobody's to see: each is drawn exactly as often
        # as the view lists it on the board (never for being under a hill).
        hidden = hidden_tiles(database_url, game["id"])
        assert hidden, "no hill was drawn in this game: play longer"
        for _, headers in viewers(api, game):
            state = view(api, game, headers)
            root = parse(board(api, game, headers))
            drawn = Counter(t.get("data-tile") for t in with_class(root, "tile"))
            listed = Counter(t["tile"] for t in state["board"])
            for tile in hidden:
                assert drawn[tile] == listed[tile]
            next_tile = with_class(root, "next-tile")
            in_hand = [state["tile"]] if state["tile"] and not state["over"] else []
            assert [t.get("data-tile") for t in next_tile] == in_hand
            # every tile the picture names anywhere (attributes, words) is one the view
            # shows on the board or in hand
            named = Counter(e.get("data-tile") for e in root.iter() if e.get("data-tile"))
            assert named == listed + Counter(in_hand)
            catalogue = {t.id for t in all_tiles().tiles}
            said = {w.strip(",:()") for w in words(root).split()} & catalogue
            assert said <= set(listed) | set(in_hand)
            assert b"tile_hidden" not in board(api, game, headers).data


def test_south_seas_board(api):
    game = api.create("carcassonne-south-seas", seats=[{"name": "Ada"}, {"bot": "greedy"}])
    version = play(api, game, 40)
    for _seat, headers in viewers(api, game):
        state = view(api, game, headers)
        root = parse(board(api, game, headers))
        check_tiles(root, state)
        check_figures(root, state["islanders"])
        check_scores(root, state["scores"])
        assert len(with_class(root, "covered")) == len(state["covered"])
        kinds = Counter(g.get("data-kind") for g in with_class(root, "segment"))
        assert kinds["island"] + kinds["bridge"] + kinds["market"] > 0
        check_same_bytes_and_caching(api, game, headers, version)


# -- Catan -----------------------------------------------------------------------------------


def check_catan(root: ET.Element, state: dict) -> None:
    hexes = {h.get("data-hex"): h for h in with_class(root, "hex")}
    assert len(hexes) == len(state["board"]["hexes"])
    for entry in state["board"]["hexes"]:
        drawn = hexes[entry["hex"]]
        assert drawn.get("data-terrain") == entry["terrain"]
        assert drawn.get("data-number") == (
            None if entry["number"] is None else str(entry["number"])
        )
    assert Counter(
        (b.get("data-corner"), int(b.get("data-seat")), b.get("data-kind"))
        for b in with_class(root, "building")
    ) == Counter((b["corner"], b["seat"], b["kind"]) for b in state["buildings"])
    assert Counter(
        (r.get("data-edge"), int(r.get("data-seat"))) for r in with_class(root, "road")
    ) == Counter((r["edge"], r["seat"]) for r in state["roads"])
    assert Counter(
        (s.get("data-edge"), int(s.get("data-seat"))) for s in with_class(root, "ship")
    ) == Counter((s["edge"], s["seat"]) for s in state.get("ships", []))
    assert len(with_class(root, "harbour")) == len(state["board"]["harbours"])
    robber = state["robber"]  # none beside the board, nor in The Pirate Islands
    assert [r.get("data-hex") for r in with_class(root, "robber")] == ([robber] if robber else [])
    pirate = state.get("pirate")
    assert [p.get("data-hex") for p in with_class(root, "pirate")] == ([pirate] if pirate else [])
    check_scores(root, [p["points"] for p in state["players"]])
    check_hex_data(root)


def check_hex_data(root: ET.Element) -> None:
    """The root says where hex (q, r) lies (what /play/ draws its marks by): the board
    is moved by the origin, and each hex's top corner is its centre, W (q + r / 2),
    1.5 R r, one size R above."""
    [area] = with_class(root, "board-area")
    assert area.get("transform") == (
        f"translate({root.get('data-origin-x')} {root.get('data-origin-y')})"
    )
    size = float(root.get("data-hex-size"))
    for drawn in with_class(root, "hex"):
        q, r = (int(n) for n in drawn.get("data-hex").split(","))
        top = drawn.find(f"{SVG}polygon").get("points").split()[0]
        x, y = (q + r / 2) * math.sqrt(3) * size, 1.5 * size * r - size
        assert top == f"{num(x)},{num(y)}"


def test_catan_base_game_board_shows_no_other_seats_hand(api):
    game = api.create(
        "catan",
        seats=[{"name": "Ada"}, {"name": "Bob"}, {"bot": "value"}],
        options={"scenario": None},
    )
    version = play(api, game, 150)
    assert version > 60
    for seat, headers in viewers(api, game):
        state = view(api, game, headers)
        root = parse(board(api, game, headers))
        check_catan(root, state)
        # a seat's hand is in its own picture only, exactly as its view lists it
        hands = {int(g.get("data-seat")): words(g) for g in with_class(root, "score")}
        showing = {s for s, text in hands.items() if "your hand" in text}
        assert showing == (set() if seat is None else {seat})
        if seat is not None:
            text = " ".join(hands[seat].split())
            shown = text.split("your hand: ")[1].split(" your ")[0]
            counts = {} if shown == "none" else dict(_count(item) for item in shown.split(", "))
            assert counts == {k: n for k, n in state["players"][seat]["resources"].items() if n}
        check_same_bytes_and_caching(api, game, headers, version)


def _count(item: str) -> tuple[str, int]:
    number, name = item.split(" ", 1)
    return name, int(number)


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_seafarers_scenario_board(api, scenario):
    seats = [{"name": "Ada"}, {"bot": "value"}, {"bot": "value"}]
    if scenario == 9:
        seats.append({"bot": "value"})
    game = api.create("catan", seats=seats, options={"scenario": scenario})
    version = play(api, game, 80)
    for _seat, headers in viewers(api, game):
        state = view(api, game, headers)
        root = parse(board(api, game, headers))
        check_catan(root, state)
        sea = [h for h in with_class(root, "hex") if h.get("data-terrain") == "sea"]
        assert sea, "a Seafarers board has sea hexes"
        check_same_bytes_and_caching(api, game, headers, version)


def test_fog_islands_fog_is_drawn_grey_with_nothing_of_what_lies_under_it(api):
    """The Fog Islands: a fog space shows nothing of what will be turned up there (the
    view says only "fog"): a grey hexagon named "fog", with no number, no other words,
    no other shape."""
    game = api.create(
        "catan",
        seats=[{"name": "Ada"}, {"bot": "value"}, {"bot": "value"}],
        options={"scenario": 3},
    )
    play(api, game, 60)
    for _, headers in viewers(api, game):
        state = view(api, game, headers)
        root = parse(board(api, game, headers))
        check_catan(root, state)
        fog = [h for h in with_class(root, "hex") if h.get("data-terrain") == "fog"]
        assert len(fog) == sum(h["terrain"] == "fog" for h in state["board"]["hexes"]) > 0
        for hexagon in fog:
            assert hexagon.get("data-number") is None
            assert [child.tag for child in hexagon] == [f"{SVG}polygon", f"{SVG}text"]
            assert hexagon[0].get("fill") == "#b9b9b9" and hexagon[1].text == "fog"


# -- errors, credentials, tiles ----------------------------------------------------------------


def test_board_pictures_check_credentials_like_the_state(api):
    game = api.create("carcassonne", seats=[{"name": "Ada"}, {"bot": "random"}])
    other = api.create("carcassonne", seats=[{"name": "Bob"}, {"bot": "random"}])
    path = f"/v1/games/{game['id']}/board.svg"
    assert api.client.get(path).status_code == 401
    foreign = api.client.get(path, headers={"X-Seat-Token": other["tokens"][0]})
    assert foreign.status_code == 403 and foreign.get_json()["code"] == "forbidden"
    beyond = api.client.get(path, headers=api.key, query_string={"at": game["version"] + 1})
    assert beyond.status_code == 422 and beyond.get_json()["code"] == "validation_error"
    missing = api.client.get(
        "/v1/games/00000000-0000-0000-0000-000000000000/board.svg", headers=api.key
    )
    assert missing.status_code == 404 and missing.get_json()["code"] == "unknown_game"


def test_a_ruleset_without_pictures_answers_not_found(api):
    game = api.create("secret-cards")
    response = api.client.get(f"/v1/games/{game['id']}/board.svg", headers=api.key)
    assert response.status_code == 404 and response.get_json()["code"] == "not_found"


@pytest.mark.parametrize(
    ("path", "query", "tile", "rotation"),
    [
        ("/v1/rulesets/carcassonne/tiles/BA/RCr.svg", {"rotation": 90}, "BA/RCr", "90"),
        ("/v1/rulesets/carcassonne/tiles/BA%2FRCr.svg", {}, "BA/RCr", "0"),
        ("/v1/rulesets/carcassonne/tiles/D.svg", {"rotation": 270}, "BA/RCr", "270"),
        ("/v1/rulesets/carcassonne/tiles/HS/CFC.h.svg", {}, "HS/CFC.h", "0"),
        ("/v1/rulesets/carcassonne/tiles/RI.1/CICI.svg", {"rotation": 180}, "RI.1/CICI", "180"),
        ("/v1/rulesets/carcassonne-south-seas/tiles/SS/MB.svg", {}, "SS/MB", "0"),
    ],
)
def test_one_tile_picture(client, path, query, tile, rotation):
    response = client.get(path, query_string=query)
    root = parse(response)
    (drawn,) = with_class(root, "tile")
    assert (drawn.get("data-tile"), drawn.get("data-rotation")) == (tile, rotation)
    check_spot_points(path, drawn)
    assert response.headers["Cache-Control"] == "public, max-age=86400"
    assert client.get(path, query_string=query).data == response.data
    cached = client.get(
        path, query_string=query, headers={"If-None-Match": response.headers["ETag"]}
    )
    assert cached.status_code == 304


def check_spot_points(path: str, drawn: ET.Element) -> None:
    """The tile lists where a figure stands on each of its spots at that rotation, the
    points the boards draw figures at."""
    from service.pictures import carcassonne, south_seas

    catalogue = carcassonne.all_tiles() if "/carcassonne/" in path else south_seas.catalogue_for({})
    tile = catalogue.get(drawn.get("data-tile"))
    q = int(drawn.get("data-rotation")) // 90
    anchors = squares.draw(tile, q).anchors
    listed = {}
    for item in drawn.get("data-spots").split(";"):
        spot, x, y = item.split(" ")
        listed[spot] = (float(x), float(y))
    assert set(listed) == set(tile.spots[q])
    for spot, (x, y) in listed.items():
        assert (x, y) == pytest.approx(anchors[spot], abs=0.01)


def test_tile_pictures_draw_each_features_kind():
    """Every kind of feature in the tile data has its drawing (the tile endpoint and the
    boards share them)."""
    from service.pictures import carcassonne, south_seas

    expected = {
        "BA/LR": {"cloister", "road"},
        "BA/RCr": {"city", "road"},
        "HS/CFC.h": {"hill", "city"},
        "HS/Cc.v": {"vineyard", "city"},
        "RI.1/CICI": {"river", "city"},
        "SS/MB": {"market", "bridge"},
        "SS/IB=": {"island", "bridge"},
    }
    for tile, kinds in expected.items():
        maker = south_seas if tile.startswith("SS/") else carcassonne
        root = ET.fromstring(maker.tile_picture(tile, 0))
        assert {g.get("data-kind") for g in with_class(root, "segment")} == kinds, tile


@pytest.mark.parametrize(
    ("terrain", "number"), [("forest", 8), ("pasture", None), ("fog", None), ("sea", None)]
)
def test_one_catan_hex_picture(client, terrain, number):
    query = {} if number is None else {"number": number}
    root = parse(client.get(f"/v1/rulesets/catan/tiles/{terrain}.svg", query_string=query))
    (drawn,) = with_class(root, "hex")
    assert drawn.get("data-terrain") == terrain
    assert drawn.get("data-number") == (None if number is None else str(number))


@pytest.mark.parametrize(
    ("path", "query", "status"),
    [
        ("/v1/rulesets/carcassonne/tiles/BA/XYZ.svg", {}, 404),
        ("/v1/rulesets/chess/tiles/BA/RCr.svg", {}, 404),
        ("/v1/rulesets/secret-cards/tiles/A.svg", {}, 404),
        ("/v1/rulesets/catan/tiles/lava.svg", {}, 404),
        ("/v1/rulesets/carcassonne/tiles/BA/RCr.svg", {"rotation": 45}, 422),
        ("/v1/rulesets/carcassonne/tiles/BA/RCr.svg", {"number": 8}, 422),
        ("/v1/rulesets/catan/tiles/forest.svg", {"rotation": 90}, 422),
        ("/v1/rulesets/catan/tiles/forest.svg", {"number": 7}, 422),
    ],
)
def test_tile_picture_errors(client, path, query, status):
    response = client.get(path, query_string=query)
    assert response.status_code == status
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == ("not_found" if status == 404 else "validation_error")


def test_seat_names_are_written_as_text_whatever_they_hold(api):
    """A name is the caller's text: markup stays text and characters XML cannot hold
    are replaced, so the picture stays well-formed."""
    name = '<b>Ada</b> & "Bob" \x07\x1b'
    seats = [{"name": name}, {"bot": "value"}, {"bot": "value"}]
    game = api.create("catan", seats=seats, options={"scenario": 1})
    root = parse(board(api, game, api.key))
    assert '<b>Ada</b> & "Bob" \ufffd\ufffd' in words(root)
    assert not [e for e in root.iter() if e.tag == f"{SVG}b"]
