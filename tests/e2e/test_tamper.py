"""Editing a stored event (as a superuser who disables the trigger) breaks verify: the
hash chain if the hashes are left alone, the head's signature if they are recomputed."""

from __future__ import annotations

import psycopg
from psycopg.types.json import Json

from service.store import GENESIS_HASH, HeadSigner, event_hash
from tests.client import Client
from tests.conftest import HEAD_SIGNING_KEY


def edit_event(database_url: str, game_id: str, seq: int, changes: dict) -> None:
    """Merge ``changes`` into a stored event's data, as a superuser who disables the
    append-only trigger for it; the hashes are left as they were."""
    with psycopg.connect(database_url) as conn:
        conn.execute("ALTER TABLE events DISABLE TRIGGER events_no_update_delete")
        conn.execute(
            "UPDATE events SET data = (data::jsonb || %s::jsonb)::json"
            " WHERE game_id = %s AND seq = %s",
            (Json(changes), game_id, seq),
        )
        conn.execute("ALTER TABLE events ENABLE TRIGGER events_no_update_delete")


def test_tampered_event_makes_verify_fail_at_that_seq(server, api_key, database_url):
    client = Client(server.url, api_key)
    game = client.create("carcassonne", [{"bot": "random"}, {"bot": "random"}])
    assert client.get(f"/v1/games/{game['id']}/verify").json()["valid"]

    edit_event(database_url, game["id"], 5, {"tampered_by_test": True})

    report = client.get(f"/v1/games/{game['id']}/verify").json()
    assert not report["valid"] and report["first_bad_seq"] == 5
    chain = next(c for c in report["checks"] if c["name"] == "hash_chain")
    assert not chain["ok"] and "seq 5" in chain["detail"]


def test_a_log_rewritten_with_recomputed_hashes_fails_on_its_head_signature(
    server, api_key, database_url
):
    """Database rights alone (the owner's, here) can rewrite an event, recompute the
    chain and move the head; they cannot sign the new head, for the key is not in the
    database. The chain then checks out and the signature does not."""
    client = Client(server.url, api_key)
    game = client.create("carcassonne", [{"bot": "random"}, {"bot": "random"}])
    signer = HeadSigner(HEAD_SIGNING_KEY)
    assert signer.matches(game["head_signature"], game["id"], game["version"], game["head_hash"])

    with psycopg.connect(database_url) as conn:
        conn.execute("ALTER TABLE events DISABLE TRIGGER events_no_update_delete")
        rows = conn.execute(
            "SELECT seq, type, data, visibility FROM events WHERE game_id = %s ORDER BY seq",
            (game["id"],),
        ).fetchall()
        prev = GENESIS_HASH
        for seq, kind, data, visibility in rows:
            if seq == 5:
                data = {**data, "rewritten": True}
            digest = event_hash(prev, game["id"], seq, kind, data, visibility)
            conn.execute(
                "UPDATE events SET data = %s, hash = %s WHERE game_id = %s AND seq = %s",
                (Json(data), bytes.fromhex(digest), game["id"], seq),
            )
            prev = digest
        conn.execute("ALTER TABLE events ENABLE TRIGGER events_no_update_delete")
        conn.execute("UPDATE games SET head_hash = %s WHERE id = %s", (prev, game["id"]))

    report = client.get(f"/v1/games/{game['id']}/verify").json()
    checks = {c["name"]: c for c in report["checks"]}
    assert checks["hash_chain"]["ok"]
    assert not checks["head_signature"]["ok"] and "rewritten" in checks["head_signature"]["detail"]
    assert not report["valid"]


def test_every_write_returns_the_signed_head_and_verify_checks_it(server, api_key):
    client = Client(server.url, api_key)
    game = client.create("secret-cards", [{}, {}])
    token = game["seat_tokens"][0]["token"]
    moved = client.move(game["id"], token, {"type": "reveal"}, game["version"]).json()
    signer = HeadSigner(HEAD_SIGNING_KEY)
    assert signer.matches(moved["head_signature"], game["id"], moved["version"], moved["head_hash"])
    summary = client.get(f"/v1/games/{game['id']}").json()
    assert (summary["head_hash"], summary["head_signature"]) == (
        moved["head_hash"],
        moved["head_signature"],
    )
    report = client.get(f"/v1/games/{game['id']}/verify").json()
    assert (
        report["valid"]
        and {"name": "head_signature", "ok": True, "detail": "ok"} in (report["checks"])
    )


def test_a_start_that_no_longer_reads_fails_verify_instead_of_erroring(
    server, api_key, database_url
):
    """A tampered game_started whose rules_version is not a number breaks the genesis
    check and the replay: verify answers valid: false with why, not a 500."""
    client = Client(server.url, api_key)
    game = client.create("carcassonne", [{"bot": "random"}, {"bot": "random"}])
    edit_event(database_url, game["id"], 1, {"rules_version": "x"})

    response = client.get(f"/v1/games/{game['id']}/verify")
    assert response.status_code == 200, response.text
    report = response.json()
    checks = {check["name"]: check for check in report["checks"]}
    assert not report["valid"] and report["first_bad_seq"] == 1
    assert not checks["genesis_from_seed"]["ok"]
    assert "does not read" in checks["genesis_from_seed"]["detail"]


def test_a_seed_that_is_not_the_published_one_fails_verify(server, api_key, database_url):
    """The seed's hash is published when the game is created; a seed swapped in the
    row afterwards, whatever it would replay to, is not the one the players were
    promised."""
    client = Client(server.url, api_key)
    game = client.create("carcassonne", [{"bot": "random"}, {"bot": "random"}])
    with psycopg.connect(database_url) as conn:
        conn.execute("UPDATE games SET seed_hash = %s WHERE id = %s", ("0" * 64, game["id"]))

    report = client.get(f"/v1/games/{game['id']}/verify").json()
    checks = {check["name"]: check for check in report["checks"]}
    assert not report["valid"] and not checks["seed_commitment"]["ok"]
    assert "published" in checks["seed_commitment"]["detail"]
    assert checks["hash_chain"]["ok"] and checks["genesis_from_seed"]["ok"]


def test_a_log_cut_short_or_a_head_moved_names_where_the_log_and_the_game_part(
    server, api_key, database_url
):
    client = Client(server.url, api_key)
    game = client.create("carcassonne", [{"bot": "random"}, {"bot": "random"}])
    version = game["version"]
    with psycopg.connect(database_url) as conn:
        conn.execute("ALTER TABLE events DISABLE TRIGGER events_no_update_delete")
        conn.execute("DELETE FROM events WHERE game_id = %s AND seq = %s", (game["id"], version))
        conn.execute("ALTER TABLE events ENABLE TRIGGER events_no_update_delete")
    report = client.get(f"/v1/games/{game['id']}/verify").json()
    chain = next(c for c in report["checks"] if c["name"] == "hash_chain")
    assert not chain["ok"] and chain["detail"] == f"log ends at {version - 1}, game is at {version}"
    assert report["first_bad_seq"] == version

    other = client.create("carcassonne", [{"bot": "random"}, {"bot": "random"}])
    with psycopg.connect(database_url) as conn:
        conn.execute("UPDATE games SET head_hash = %s WHERE id = %s", ("0" * 64, other["id"]))
    report = client.get(f"/v1/games/{other['id']}/verify").json()
    chain = next(c for c in report["checks"] if c["name"] == "hash_chain")
    assert not chain["ok"] and "head_hash" in chain["detail"]
    assert report["first_bad_seq"] == other["version"]
