"""Hills & Sheep over HTTP: the tile under a hill is nobody's to see. No seat and no
spectator finds it in the events (pages, SSE, move answers), in a state view or by
rehashing an event; a client folding the log it receives gets the view the server
shows; and the game still verifies from the whole log."""

from __future__ import annotations

import psycopg

from service.rules import get_ruleset
from service.store import event_hash
from tests.client import Client, fold, play_to_end
from tests.e2e.test_sse import stream_until


def stored_hidden(database_url: str, game_id: str) -> dict[int, dict]:
    """The whole ``tile_hidden`` events, as only the server holds them."""
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT seq, data, visibility FROM events WHERE game_id = %s"
            " AND type = 'tile_hidden' ORDER BY seq",
            (game_id,),
        ).fetchall()
    return {seq: {"data": data, "visibility": visibility} for seq, data, visibility in rows}


def test_nobody_sees_the_tiles_under_the_hills(server, api_key, database_url):
    carcassonne = get_ruleset("carcassonne")
    client = Client(server.url, api_key)
    game = client.create("carcassonne", [{}, {}], {"expansions": ["hills_sheep"]})
    tokens = {t["seat"]: t["token"] for t in game["seat_tokens"]}
    _, mover_state = play_to_end(client, carcassonne, game, tokens)
    truth = stored_hidden(database_url, game["id"])
    assert truth and all(t["visibility"] == [] for t in truth.values())
    # The seats folded the answers to their own moves: those never named a hidden tile.
    assert mover_state.hidden == [] and mover_state.blind == len(truth)

    ids = [tile.id for tile in mover_state.catalogue.tiles]
    checkpoints = sorted({*truth, *(seq + 1 for seq in truth)})
    for viewer in (tokens[0], tokens[1], None):
        events = client.all_events(game["id"], viewer)
        hidden = [e for e in events if e["type"] == "tile_hidden"]
        assert [e["seq"] for e in hidden] == list(truth)
        for item in hidden:
            whole = truth[item["seq"]]["data"]
            assert item["redacted"] and item["visibility"] == []
            assert item["data"] == {"seat": whole["seat"], "tile": None, "under": whole["under"]}
            # Only the whole event, salt included, hashes to the published hash: trying
            # each tile id in the redacted data finds nothing.
            rehash = [item["prev_hash"], game["id"], item["seq"], "tile_hidden"]
            assert event_hash(*rehash, whole, []) == item["hash"]
            assert all(
                event_hash(*rehash, {**item["data"], "tile": t}, []) != item["hash"] for t in ids
            )
        # The stream sends the same redacted events as the pages.
        streamed = stream_until(server, game["id"], client.headers(viewer), len(events))
        assert streamed == events
        # The client's fold of what it received is the server's view, at every hill.
        for at in checkpoints:
            state = client.get(f"/v1/games/{game['id']}/state", viewer, at=at).json()["state"]
            assert carcassonne.view(fold(carcassonne, events[:at]), None) == state
            assert isinstance(state["hidden"], int)
        final = client.get(f"/v1/games/{game['id']}/state", viewer).json()["state"]
        assert final == carcassonne.view(mover_state, None) and final["hidden"] == len(truth)

    verified = client.get(f"/v1/games/{game['id']}/verify").json()
    assert verified["valid"], verified
