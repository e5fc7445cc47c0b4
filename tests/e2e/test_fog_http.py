"""The Fog Islands over HTTP: what lies under a fog space is nobody's to know before a
road or ship turns it up. The server draws the tile (and number) from the piles only
then, so no event, page, stream, state or ``state?at=`` before it names it, for any
seat or a spectator; rehashing what a viewer received against every candidate tile
finds nothing; and a client folding what it received gets the view the server shows."""

from __future__ import annotations

import psycopg

from service.rules import get_ruleset
from service.store import event_hash
from tests.client import Client, fold, play_to_end
from tests.e2e.test_sse import stream_until


def stored_log(database_url: str, game_id: str) -> list[dict]:
    """The whole log as only the server holds it."""
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT seq, type, data FROM events WHERE game_id = %s ORDER BY seq", (game_id,)
        ).fetchall()
    return [{"seq": seq, "type": kind, "data": data} for seq, kind, data in rows]


def tiles_named(value: object, found: list[dict]) -> list[dict]:
    """Every ``{"hex", "terrain", ...}`` object anywhere inside ``value``."""
    if isinstance(value, dict):
        if "hex" in value and "terrain" in value:
            found.append(value)
        for item in value.values():
            tiles_named(item, found)
    elif isinstance(value, list):
        for item in value:
            tiles_named(item, found)
    return found


#: games played until the bots turn up a fog space: the server picks each game's seed, and
#: 2 of 6,000 simulated games ended (or ran 2,000 moves) with every fog space still down
GAMES = 3


def test_nobody_learns_a_fog_space_before_it_is_turned_up(server, api_key, database_url):
    catan = get_ruleset("catan")
    client = Client(server.url, api_key)
    for _ in range(GAMES):
        game = client.create("catan", [{}, {}, {}], {"scenario": 3})
        tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
        play_to_end(client, catan, game, tokens)
        truth = stored_log(database_url, game["id"])
        genesis = truth[0]["data"]
        fog = {t["hex"] for t in genesis["board"]["hexes"] if t["terrain"] == "fog"}
        turned = {e["data"]["hex"]: e["seq"] for e in truth if e["type"] == "hex_revealed"}
        if turned:
            break
    assert len(fog) == 12 and turned, f"the bots turned up no fog space in {GAMES} games"
    # The server itself wrote no tile of a fog space before turning it up.
    for event in truth:
        for tile in tiles_named(event["data"], []):
            if tile["hex"] in fog and event["seq"] < turned.get(tile["hex"], 10**9):
                assert tile["terrain"] == "fog", (event["seq"], tile)

    piles = genesis["scenario"]["fog"]
    candidates = [
        {"terrain": terrain, "number": None if terrain == "sea" else int(number)}
        for terrain in piles["terrains"]
        for number in piles["numbers"]
    ]
    for viewer in (*tokens.values(), None):
        events = client.all_events(game["id"], viewer)
        assert [e["seq"] for e in events] == [e["seq"] for e in truth]
        for item in events:
            for tile in tiles_named(item["data"], []):
                if tile["hex"] in fog and item["seq"] < turned.get(tile["hex"], 10**9):
                    assert tile["terrain"] == "fog"
            if item["type"] == "hex_revealed":
                assert not item["redacted"]  # turned up for everyone at once
            if not item["redacted"]:
                continue
            # A redacted event (a stolen or bought card) never hides a fog tile: no
            # fog space still face down, with any tile of the piles, rehashes to it.
            rehash = [item["prev_hash"], game["id"], item["seq"], item["type"]]
            hidden = [h for h in fog if turned.get(h, 10**9) > item["seq"]]
            visibility = item["visibility"] or []
            for h in hidden:
                for tile in candidates:
                    data = {**item["data"], "hex": h, **tile}
                    assert event_hash(*rehash, data, visibility) != item["hash"]
        # The stream sends what the pages send.
        streamed = stream_until(server, game["id"], client.headers(viewer), len(events))
        assert streamed == events
        # Just before and at each turn-up, the state shows what the log has said.
        for h, seq in sorted(turned.items(), key=lambda item: item[1]):
            for at, fogged in ((seq - 1, True), (seq, False)):
                shown = client.get(f"/v1/games/{game['id']}/state", viewer, at=at).json()
                tiles = {t["hex"]: t for t in shown["state"]["board"]["hexes"]}
                assert (tiles[h]["terrain"] == "fog") is fogged
                seat = (
                    None
                    if viewer is None
                    else next(s for s, token in tokens.items() if token == viewer)
                )
                assert shown["state"] == catan.view(fold(catan, events[:at]), seat)

    verified = client.get(f"/v1/games/{game['id']}/verify").json()
    assert verified["valid"], verified
