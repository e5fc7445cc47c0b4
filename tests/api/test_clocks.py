"""Clocks over HTTP against PostgreSQL, with limits of a fraction of a second: the
option ``clock``, each seat's time in the summary and in ``clock`` events, the timeout
applied lazily on a read or a write and by the sweep, once however many callers race,
and what ``on_timeout`` says (a bot takes over, the seat skips, it forfeits)."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime

import psycopg

from service.store.migrate import migrations_dir
from tests.api.test_errors import assert_problem
from tests.api.test_export import assert_replays_to_the_game, get

LIMIT = 0.6  # seconds per move in these tests: short, yet longer than a busy request
PAST = LIMIT + 0.3


def clocked(api, n: int = 3, ruleset: str = "carcassonne", **clock) -> dict:
    seats = [{"name": name} for name in ("Ada", "Brendan", "Kai")[:n]]
    return api.create(ruleset=ruleset, seats=seats, options={"clock": clock})


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def events_of(api, game: dict) -> list[dict]:
    return get(api, game, "/events?limit=1000")["events"]


def place_tile(api, game: dict, seat: int):
    moves = api.client.get(
        f"/v1/games/{game['id']}/legal-moves", headers={"X-Seat-Token": game["tokens"][seat]}
    ).get_json()
    place = moves["commands"]["decisions"][0]["commands"]["place_tile"]["placements"][0]
    command = {"type": "place_tile", "x": place["x"], "y": place["y"]}
    return api.move(game, seat, {**command, "rotation": place["rotation"]}, moves["version"])


def test_a_clock_is_an_option_checked_with_the_others(api):
    response = api.client.post(
        "/v1/games",
        json={"ruleset": "carcassonne", "seats": [{}, {}], "options": {"clock": {"bonus": 1}}},
        headers=api.key,
    )
    body = assert_problem(response, 422, "validation_error")
    assert body["errors"][0]["field"] == "options.clock"


def test_the_summary_and_the_events_show_each_seats_time(api):
    game = clocked(api, total=60, per_move=30, increment=5)
    assert game["options"]["clock"] == {
        "per_move": 30,
        "total": 60,
        "increment": 5,
        "on_timeout": "forfeit",
        "bot": None,
    }
    clocks = get(api, game)["clocks"]
    assert [c["running"] for c in clocks] == [True, False, False]
    assert 0 < clocks[0]["remaining_ms"] <= 60000 and clocks[1]["remaining_ms"] == 60000
    assert 0 < clocks[0]["move_remaining_ms"] <= 30000 and clocks[1]["move_remaining_ms"] is None
    (first,) = [e for e in events_of(api, game) if e["type"] == "clock"]
    assert first["data"]["remaining_ms"] == [60000] * 3 and list(first["data"]["running"]) == ["0"]
    body = place_tile(api, game, 0).get_json()
    reading = body["events"][-1]
    assert reading["type"] == "clock"
    # seat 0 is still awaited (its follower): its move's clock starts again
    assert list(reading["data"]["running"]) == ["0"]
    assert 55000 < reading["data"]["remaining_ms"][0] <= 65000  # charged, plus 5 s


def test_a_seat_out_of_time_skips_its_turn_when_the_game_is_next_read(api):
    game = clocked(api, per_move=LIMIT, on_timeout="skip")
    time.sleep(PAST)
    summary = get(api, game)  # the read finds the time run out and applies it first
    assert summary["awaiting"][0]["seat"] == 1
    events = events_of(api, game)
    log = types(events)
    # Seat 0's timeout was applied once. (This read comes 0.6 s after the first only on a
    # stalled machine, and would then rightly apply seat 1's own timeout too.)
    out = [e["data"]["seat"] for e in events if e["type"] == "seat_timed_out"]
    assert out[0] == 0 and out.count(0) == 1, out
    timed_out = log.index("seat_timed_out")
    assert log[timed_out + 1 : timed_out + 3] == ["tile_set_aside", "turn_ended"]
    assert summary["clocks"][1]["running"] and not summary["clocks"][0]["running"]
    assert not summary["seats"][0]["resigned"]


def test_a_move_sent_after_the_time_ran_out_is_refused_and_the_timeout_stands(api):
    game = clocked(api, per_move=LIMIT, on_timeout="skip")
    version = game["version"]
    time.sleep(PAST)
    response = api.move(game, 0, {"type": "place_tile", "x": 1, "y": 0, "rotation": 0}, version)
    problem = assert_problem(response, 409, "version_conflict")
    timed_out = next(e for e in events_of(api, game) if e["type"] == "seat_timed_out")
    # the player is told why the move no longer counts
    assert problem["detail"].endswith(f"; seat 0's time ran out at version {timed_out['seq']}")
    assert get(api, game)["awaiting"][0]["seat"] == 1
    # named by its decision, the same
    decision = f"d{version}"
    late = {"command": {"type": "place_tile", "x": 1, "y": 0, "rotation": 0}, "decision": decision}
    response = api.client.post(
        f"/v1/games/{game['id']}/moves", json=late, headers={"X-Seat-Token": game["tokens"][0]}
    )
    problem = assert_problem(response, 409, "decision_closed")
    assert problem["detail"].endswith(f"; seat 0's time ran out at version {timed_out['seq']}")


def test_a_seat_out_of_time_that_forfeits_resigns_and_the_last_seat_wins(api):
    game = clocked(api, n=2, per_move=LIMIT, on_timeout="forfeit")
    time.sleep(PAST)
    summary = get(api, game)
    assert summary["status"] == "finished"
    assert summary["result"]["winners"] == [1]
    assert summary["seats"][0]["resigned"]
    assert assert_replays_to_the_game(api, game)["record"][-2]["command"]["type"] == "time_out"


def test_a_seat_out_of_time_is_taken_over_by_the_bot_the_clock_names(api):
    game = clocked(api, n=2, per_move=LIMIT, on_timeout="bot", bot="greedy")
    time.sleep(PAST)
    summary = get(api, game, "/state")  # any read applies it
    assert summary["awaiting"][0]["seat"] == 1  # the bot played seat 0's turn
    summary = get(api, game)
    assert summary["seats"][0]["bot"] == "greedy"
    log = types(events_of(api, game))
    assert log[log.index("seat_timed_out") + 1] == "seat_handed_to_bot"
    assert not summary["clocks"][0]["running"]  # a bot's seat never waits


def test_racing_replicas_apply_one_timeout_once(api):
    """Six callers (as on several replicas) decide the same timeout at once: one
    writes it. A forfeit ends the game, so no later timeout can follow."""
    game = clocked(api, n=2, per_move=LIMIT, on_timeout="forfeit")
    time.sleep(PAST)
    games = api.client.application.extensions["tilegames"].games
    results = []
    threads = [
        threading.Thread(target=lambda: results.append(games.time_out(game["id"])))
        for _ in range(6)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results.count(True) == 1
    assert types(events_of(api, game)).count("seat_timed_out") == 1
    assert get(api, game, "/verify")["valid"]


def test_the_sweep_applies_the_timeouts_of_games_nobody_touches(api):
    idle = clocked(api, per_move=LIMIT, on_timeout="skip")
    relaxed = clocked(api, per_move=60, on_timeout="skip")
    time.sleep(PAST)
    games = api.client.application.extensions["tilegames"].games
    assert games.sweep_clocks() >= 1
    raw = api.client.get(f"/v1/games/{idle['id']}/events?limit=1000", headers=api.key)
    assert "seat_timed_out" in types(raw.get_json()["events"])
    assert "seat_timed_out" not in types(events_of(api, relaxed))


def test_the_sweep_finds_a_due_game_behind_any_number_of_games_not_due(api):
    """The sweep asks for the games whose row says a clock has run out, not for the
    least recently updated clocked games: games that are not due, however many and
    however old, never hide one that is."""
    relaxed = [clocked(api, per_move=60, on_timeout="skip") for _ in range(3)]
    idle = clocked(api, per_move=LIMIT, on_timeout="skip")
    time.sleep(PAST)
    games = api.client.application.extensions["tilegames"].games
    with games.db.connection() as conn:
        due = {game_id for game_id, _ in games.store.clocked_games_due(conn, 10_000)}
    assert idle["id"] in due
    assert not due & {game["id"] for game in relaxed}
    for _ in range(len(due)):  # one game a sweep: the longest overdue first
        games.sweep_clocks(limit=1)
    raw = api.client.get(f"/v1/games/{idle['id']}/events?limit=1000", headers=api.key)
    assert "seat_timed_out" in types(raw.get_json()["events"])


def test_a_game_the_sweep_cannot_time_out_does_not_stop_it(api, monkeypatch, caplog):
    broken, idle = (clocked(api, per_move=LIMIT, on_timeout="skip") for _ in range(2))
    time.sleep(PAST)
    games = api.client.application.extensions["tilegames"].games
    expire_due = games.expire_due

    def failing(game_id: str) -> int:
        if game_id == broken["id"]:
            raise RuntimeError("cannot time this game out")
        return expire_due(game_id)

    monkeypatch.setattr(games, "expire_due", failing)
    with caplog.at_level("ERROR", logger="service.app.games"):
        games.sweep_clocks(limit=10_000)
    raw = api.client.get(f"/v1/games/{idle['id']}/events?limit=1000", headers=api.key)
    assert "seat_timed_out" in types(raw.get_json()["events"])
    assert f"could not time out game {broken['id']}" in caplog.text


def clock_deadline(database_url: str, game: dict):
    with psycopg.connect(database_url) as conn:
        row = conn.execute("SELECT clock_deadline FROM games WHERE id = %s", (game["id"],))
        return row.fetchone()[0]


def test_the_game_row_keeps_when_its_first_running_clock_runs_out(api, database_url):
    game = clocked(api, per_move=60, on_timeout="skip")
    summary = get(api, game)
    (clock, *_) = summary["clocks"]
    deadline = clock_deadline(database_url, game)
    left = (deadline - datetime.now(UTC)).total_seconds()
    assert clock["running"] and 55 < left <= 60
    assert place_tile(api, game, 0).status_code == 200
    assert clock_deadline(database_url, game) >= deadline
    unclocked = api.create(ruleset="carcassonne", seats=[{"name": "Ada"}, {"name": "Bo"}])
    assert clock_deadline(database_url, unclocked) is None
    abandoned = api.client.post(f"/v1/games/{game['id']}/abandon", headers=api.key)
    assert abandoned.status_code == 200
    assert clock_deadline(database_url, game) is None


def test_a_deadline_guessed_by_migration_0014_is_corrected_by_the_sweep(api, database_url):
    """0014 cannot compute the deadline of a game written before it: it sets the last
    update's time, so the sweep looks at the game once and writes the real one."""
    game = clocked(api, per_move=60, on_timeout="skip")
    migration = (migrations_dir() / "0014_clock_deadline.sql").read_text().splitlines()
    (guess,) = [line for line in migration if line.startswith("UPDATE games")]
    with psycopg.connect(database_url) as conn:  # as a row written before 0014
        conn.execute("UPDATE games SET clock_deadline = NULL WHERE id = %s", (game["id"],))
        conn.execute(guess)
    assert clock_deadline(database_url, game) < datetime.now(UTC)
    games = api.client.application.extensions["tilegames"].games
    games.sweep_clocks(limit=10_000)
    assert "seat_timed_out" not in types(events_of(api, game))
    assert (clock_deadline(database_url, game) - datetime.now(UTC)).total_seconds() > 55


def test_a_total_runs_down_only_while_the_seat_is_awaited(api):
    game = clocked(api, n=2, total=LIMIT * 2, increment=LIMIT, on_timeout="skip")
    assert place_tile(api, game, 0).status_code == 200
    skip = api.move(game, 0, {"type": "skip"}, get(api, game)["version"])
    assert skip.status_code == 200
    time.sleep(PAST)  # seat 1's move: seat 0's clock is stopped
    clocks = get(api, game)["clocks"]
    assert clocks[0]["remaining_ms"] > LIMIT * 2 * 1000  # the turn's increment, little spent
    assert clocks[1]["remaining_ms"] < LIMIT * 2 * 1000


def test_a_clocked_catan_game_skips_a_seat_in_its_set_up(api):
    game = clocked(api, ruleset="catan", per_move=LIMIT, on_timeout="skip")
    time.sleep(PAST)
    summary = get(api, game)
    assert "seat_timed_out" in types(events_of(api, game))
    assert summary["status"] == "active" and summary["awaiting"]


def test_a_seat_skipped_and_awaited_again_gets_a_fresh_move_time(api):
    """Against a bot, a skipped seat is awaited again in the write that skipped it: its
    time for the new move starts then, so it is skipped once, not again and again."""
    seats = [{"name": "Ada"}, {"name": "bot", "bot": "random"}]
    clock = {"per_move": LIMIT, "on_timeout": "skip"}
    game = api.create(ruleset="carcassonne", seats=seats, options={"clock": clock})
    time.sleep(PAST)
    summary = get(api, game)
    out = [e["data"]["seat"] for e in events_of(api, game) if e["type"] == "seat_timed_out"]
    assert out == [0]
    assert summary["awaiting"][0]["seat"] == 0
    (clock, _) = summary["clocks"]
    assert clock["running"] and clock["move_remaining_ms"] > 0


def first_legal(api, game: dict, seat: int):
    """Send the first command listed for ``seat``'s first decision (Catan's set-up:
    a settlement's first corner, a road's first path; then the roll)."""
    moves = api.client.get(
        f"/v1/games/{game['id']}/legal-moves", headers={"X-Seat-Token": game["tokens"][seat]}
    ).get_json()
    kind, options = next(iter(moves["commands"]["decisions"][0]["commands"].items()))
    field, choices = next(((k, v) for k, v in options.items() if isinstance(v, list)), (None, []))
    command = {"type": kind} if field is None else {"type": kind, field[:-1]: choices[0]}
    response = api.move(game, seat, command, moves["version"])
    assert response.status_code == 200, response.get_json()


def test_a_catan_seat_that_may_propose_a_trade_is_not_on_the_clock(api):
    """After a roll every other seat may propose a trade to the active seat: a chance,
    not a decision the game waits for, so their clocks stand still."""
    for _ in range(20):  # the server rolls: a 7 (the robber first) means another game
        game = clocked(api, n=2, ruleset="catan", per_move=30, on_timeout="forfeit")
        for seat in (0, 0, 1, 1, 1, 1, 0, 0):  # the set-up, in snake order
            first_legal(api, game, seat)
        first_legal(api, game, 0)  # seat 0 rolls
        summary = get(api, game)
        kinds = {(d["seat"], d["kind"]) for d in summary["awaiting"]}
        if (1, "propose_trade") in kinds:
            break
    assert kinds == {(0, "turn"), (1, "propose_trade")}
    assert [c["running"] for c in summary["clocks"]] == [True, False]


def test_a_seat_whose_whole_time_is_spent_forfeits_even_under_skip(api):
    """With no total left a skipped seat would be out of time again at once each time
    it is awaited, for ever (a Catan game of people never ended, its log growing by
    the sweep): it forfeits instead."""
    game = clocked(api, n=2, total=LIMIT, on_timeout="skip")
    time.sleep(PAST)
    summary = get(api, game)
    timed_out = [e["data"] for e in events_of(api, game) if e["type"] == "seat_timed_out"]
    assert timed_out == [{"seat": 0, "action": "forfeit"}]
    assert summary["status"] == "finished" and summary["result"]["winners"] == [1]
    assert_replays_to_the_game(api, game)


def test_a_seat_out_of_its_move_time_with_total_left_still_skips(api):
    game = clocked(api, n=2, per_move=LIMIT, total=60, on_timeout="skip")
    time.sleep(PAST)
    assert get(api, game)["status"] == "active"  # a read applies the timeout
    timed_out = [e["data"] for e in events_of(api, game) if e["type"] == "seat_timed_out"]
    assert timed_out == [{"seat": 0, "action": "skip"}]


def test_a_turn_of_several_commands_is_one_move_with_one_increment(api):
    """A seat still awaited after its command moves on within one move (a Carcassonne
    turn: the tile, then the figure): no increment until its wait ends, so sending more
    commands in a turn (or trade offers in Catan) banks no time."""
    game = clocked(api, n=2, total=60, increment=5, on_timeout="skip")
    assert place_tile(api, game, 0).status_code == 200
    assert get(api, game)["clocks"][0]["remaining_ms"] <= 60000  # no increment yet
    skip = api.move(game, 0, {"type": "skip"}, get(api, game)["version"])
    assert skip.status_code == 200
    assert get(api, game)["clocks"][0]["remaining_ms"] > 60000  # the turn's one increment


def test_the_move_time_runs_from_when_the_wait_began_not_from_the_last_command(api):
    """per_move counts from the moment the seat is awaited: placing the tile does not
    start the figure's time afresh."""
    game = clocked(api, n=2, per_move=LIMIT, on_timeout="skip")
    time.sleep(LIMIT * 0.6)
    assert place_tile(api, game, 0).status_code == 200
    time.sleep(LIMIT * 0.6)  # 1.2 limits since the turn began, 0.6 since the tile
    get(api, game)  # a read applies the timeouts due
    timed_out = [e["data"] for e in events_of(api, game) if e["type"] == "seat_timed_out"]
    assert timed_out[:1] == [{"seat": 0, "action": "skip"}]


def test_timeouts_that_keep_falling_due_leave_a_move_undone_with_a_409(api, monkeypatch):
    """Only a machine slower than any move time could make timeouts fall due again and
    again between the tries of one write: the write then is refused, whole, as for a
    game that moved on, never half-done and never a 500."""
    games = api.client.application.extensions["tilegames"].games
    game = clocked(api, per_move=60, on_timeout="skip")
    before = get(api, game)["version"]
    monkeypatch.setattr("service.app.games.due", lambda *_: True)
    monkeypatch.setattr(games, "apply_timeouts", lambda _game_id: 0)
    response = place_tile(api, game, 0)
    body = assert_problem(response, 409, "version_conflict")
    assert "running out of time" in body["detail"]
    monkeypatch.undo()
    assert get(api, game)["version"] == before
    assert place_tile(api, game, 0).status_code == 200
