"""Check a stored game end to end: hash chain, genesis from the seed, replay.

- chain: seqs run 1..version without gaps and each ``hash`` recomputes from the
  previous one and the event's content (see :mod:`service.store.hashing`; the store
  keeps no separate ``prev_hash``, it is the previous row's hash);
- seed: its SHA-256 is the ``seed_sha256`` the game published when it was created, so
  the seed the rest is checked against is the one the players were promised;
- genesis: ``setup(options, seats, rng_for(seed, 1))`` reproduces the first events, so
  the starting stacks were not rigged;
- replay: every event folds through the ruleset, and the result agrees with the
  game's stored status.
"""

from __future__ import annotations

import hashlib
from typing import Any

from service.app.games import GameService, Outcome, to_new_event, to_rules_event
from service.app.genesis import rules_options
from service.app.seats import seat_of
from service.rules.core import rng_for
from service.store import GENESIS_HASH, GameRecord, event_hash


def verify_game(service: GameService, game_id: str, token: str | None) -> Outcome:
    with service.db.connection() as conn:
        # One snapshot for the row and the log: a move committed between the two reads
        # would otherwise make a good log look one step longer than its game.
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        game = service.load_game(conn, game_id)
        seat_of(game.seats, token)
        events = service.store.read_events(conn, game.id)
    ruleset = service.ruleset(game.ruleset)
    checks: list[dict[str, Any]] = []
    first_bad: int | None = None

    prev, expected_seq, chain_ok, detail = GENESIS_HASH, 1, True, "ok"
    for event in events:
        digest = event_hash(prev, game.id, event.seq, event.type, event.data, event.visibility)
        problem = None
        if event.seq != expected_seq:
            problem = f"expected seq {expected_seq}, found {event.seq}"
        elif event.hash != digest:
            problem = f"seq {event.seq}: hash does not match its content"
        if problem:
            chain_ok, detail, first_bad = False, problem, event.seq
            break
        prev, expected_seq = event.hash, expected_seq + 1
    if chain_ok and expected_seq - 1 != game.version:
        # the first seq the log and the game disagree on: missing, or one too many
        chain_ok, first_bad = False, min(expected_seq, game.version + 1)
        detail = f"log ends at {expected_seq - 1}, game is at {game.version}"
    elif chain_ok and prev != game.head_hash:
        chain_ok, first_bad = False, game.version
        detail = f"the log's last hash is not the game's head_hash ({game.head_hash})"
    checks.append({"name": "hash_chain", "ok": chain_ok, "detail": detail})
    checks.append(_head_signature_check(service, game, prev))

    seed_ok = hashlib.sha256(game.seed).hexdigest() == game.seed_hash
    seed_detail = "ok" if seed_ok else "the seed is not the one whose SHA-256 the game published"
    checks.append({"name": "seed_commitment", "ok": seed_ok, "detail": seed_detail})

    genesis_detail = "setup from the seed differs from the stored start"
    try:
        options = rules_options(game.options)
        genesis = [
            to_new_event(e) for e in ruleset.setup(options, len(game.seats), rng_for(game.seed, 1))
        ]
        stored_genesis = [
            to_new_event(e) for e in ruleset.upcast_log(map(to_rules_event, events[: len(genesis)]))
        ]
        genesis_ok = genesis == stored_genesis
    except Exception as exc:  # a corrupt start (say, its rules_version) may break it anyhow
        genesis_ok, genesis_detail = False, f"the stored start does not read: {exc}"
    checks.append(
        {
            "name": "genesis_from_seed",
            "ok": genesis_ok,
            "detail": "ok" if genesis_ok else genesis_detail,
        }
    )

    replay_ok, replay_detail = True, "ok"
    try:
        state = ruleset.fold(to_rules_event(e) for e in events)
        if ruleset.is_over(state) != (game.status == "finished"):
            replay_ok, replay_detail = False, f"replay disagrees with status {game.status!r}"
    except Exception as exc:  # a corrupt log may break a fold in any way
        replay_ok, replay_detail = False, f"replay failed: {type(exc).__name__}: {exc}"
    checks.append({"name": "replay", "ok": replay_ok, "detail": replay_detail})

    body = {
        "game_id": game.id,
        "valid": all(check["ok"] for check in checks),
        "version": game.version,
        "events": len(events),
        "head_hash": game.head_hash,
        "head_signature": game.head_signature,
        "first_bad_seq": first_bad,
        "checks": checks,
    }
    return Outcome(200, body)


def _head_signature_check(service: GameService, game: GameRecord, head: str) -> dict[str, Any]:
    """Whether the stored signature is the service's for the head the log recomputes
    to: a log rewritten with recomputed hashes by someone holding only database rights
    has a head its signature does not match."""
    signer = service.store.signer
    if signer is None:
        detail = "not checked: this service has no HEAD_SIGNING_KEY"
        return {"name": "head_signature", "ok": True, "detail": detail}
    if game.head_signature is None:
        detail = "the head carries no signature (written without a signing key, or erased)"
        return {"name": "head_signature", "ok": False, "detail": detail}
    ok = signer.matches(game.head_signature, game.id, game.version, head)
    detail = "ok" if ok else "the signature does not match the log's head: the log was rewritten"
    return {"name": "head_signature", "ok": ok, "detail": detail}
