"""Time controls (service/rules/clock.py): the option ``clock``, how a reading charges
the seats that waited, when a seat's time runs out, and what each ruleset does with a
seat out of time (``time_out``: a bot takes over, the seat skips, or it forfeits)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from service.rules.carcassonne import CARCASSONNE
from service.rules.catan.game import CATAN
from service.rules.clock import Clocks, TimeControl, TimeControlError, charged, normalize_clock
from service.rules.core import IllegalMove, bot_rng_for, rng_for
from service.rules.south_seas import SOUTH_SEAS

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def control(**clock) -> TimeControl:
    return TimeControl.of({"clock": normalize_clock(clock, ("random", "greedy"))})


# -- the option -----------------------------------------------------------------------


def test_a_clock_needs_a_per_move_limit_or_a_total():
    with pytest.raises(TimeControlError):
        normalize_clock({"increment": 5}, ("random",))
    assert normalize_clock({"per_move": 0.5}, ("random",)) == {
        "per_move": 0.5,
        "total": None,
        "increment": None,
        "on_timeout": "forfeit",
        "bot": None,
    }


@pytest.mark.parametrize(
    "clock",
    [
        {"per_move": 0},
        {"per_move": -1},
        {"per_move": "10"},
        {"per_move": True},
        {"total": 10**9},
        {"per_move": 5, "increment": 2},
        {"total": 60, "on_timeout": "pause"},
        {"total": 60, "on_timeout": "bot", "bot": "chess"},
        {"total": 60, "bot": "random"},
        {"total": 60, "overtime": 5},
        [60],
    ],
)
def test_bad_clocks_are_refused(clock):
    with pytest.raises(TimeControlError):
        normalize_clock(clock, ("random", "greedy"))


def test_a_bot_taking_over_defaults_to_the_rulesets_first_bot():
    assert normalize_clock({"total": 60, "on_timeout": "bot"}, ("random", "greedy"))["bot"] == (
        "random"
    )


# -- readings ---------------------------------------------------------------------------


def test_the_first_reading_gives_every_seat_its_total_and_runs_the_awaited_clocks():
    data = charged(control(total=60), None, 3, T0, {0}, ())
    assert data == {"remaining_ms": [60000] * 3, "running": {"0": T0.isoformat()}}


def test_a_reading_charges_the_waiting_seats_and_adds_the_increment_to_the_mover():
    clock = control(total=60, increment=2)
    first = Clocks.read(charged(clock, None, 2, T0, {0, 1}, ()), T0)
    data = charged(clock, first, 2, at(10), {1}, (0,))
    # both waited 10 s; seat 0 moved (+2 s) and waits no more; seat 1 waits on
    assert data == {"remaining_ms": [52000, 50000], "running": {"1": T0.isoformat()}}


def test_a_seat_runs_out_of_time_at_its_per_move_limit_or_its_total():
    per_move = control(per_move=30)
    clocks = Clocks.read(charged(per_move, None, 2, T0, {0}, ()), T0)
    assert clocks.overdue(per_move, at(29.9)) == []
    assert clocks.overdue(per_move, at(30)) == [0]
    total = control(total=20, per_move=30)
    clocks = Clocks.read(charged(total, None, 2, T0, {1}, ()), T0)
    assert clocks.overdue(total, at(20)) == [1]
    assert clocks.deadline(total, 0) is None  # seat 0's clock is stopped


def test_the_seat_that_ran_out_first_times_out_first_whatever_its_number():
    """Both seats must discard at once; seat 1 runs out first. Read only once both have
    run out, seat 1's timeout still comes first (seat 0 might yet be in time after it)."""
    clock = control(total=60, per_move=30)
    earlier = Clocks.read(charged(clock, None, 2, T0, {1}, ()), T0)
    both = Clocks.read(charged(clock, earlier, 2, at(10), {0, 1}, ()), at(10))
    assert both.running == {0: at(10), 1: T0}
    assert both.overdue(clock, at(45)) == [1, 0]


def test_a_seat_timed_out_and_awaited_again_waits_afresh_with_no_increment():
    """A skip ends the seat's wait; if the seat is awaited again in the same write (the
    other seats are bots), its per-move time starts over rather than being spent."""
    clock = control(per_move=30, total=600, increment=5)
    waiting = Clocks.read(charged(clock, None, 2, T0, {0}, ()), T0)
    data = charged(clock, waiting, 2, at(31), {0}, (), timed_out=(0,))
    assert data["running"] == {"0": at(31).isoformat()}
    assert data["remaining_ms"] == [569000, 600000]  # charged the 31 s, no increment
    again = Clocks.read(data, at(31))
    assert again.overdue(clock, at(31)) == [] and again.overdue(clock, at(61)) == [0]


def test_a_client_sees_the_time_left_now():
    clock = control(total=60, per_move=10)
    clocks = Clocks.read(charged(clock, None, 2, T0, {0}, ()), T0)
    assert clocks.shown(clock, at(4)) == [
        {"seat": 0, "remaining_ms": 56000, "move_remaining_ms": 6000, "running": True},
        {"seat": 1, "remaining_ms": 60000, "move_remaining_ms": None, "running": False},
    ]


# -- what a ruleset does with a seat out of time ------------------------------------------

CASES = [(CARCASSONNE, {}), (SOUTH_SEAS, {}), (CATAN, {}), (CATAN, {"scenario": 1})]
IDS = ["carcassonne", "south-seas", "catan", "seafarers"]


def start(ruleset, options, seats=3, seed=b"clock"):
    events = ruleset.setup(ruleset.normalize_options(options), seats, rng_for(seed, 1))
    return events, ruleset.fold(events)


def bot_move(ruleset, state, events, seed=b"clock"):
    seat = ruleset.decisions(state)[0].seat
    seq = len(events) + 1
    command = ruleset.bot_command(state, seat, "random", bot_rng_for(seed, seq))
    events += ruleset.apply(state, seat, command, rng_for(seed, seq))


def time_out(ruleset, state, events, seat, action, **extra):
    command = {"type": "time_out", "action": action, **extra}
    new = ruleset.apply(state, seat, command, rng_for(b"clock", len(events) + 1))
    events += new
    return new


@pytest.mark.parametrize(("ruleset", "options"), CASES, ids=IDS)
def test_a_seat_out_of_time_that_skips_misses_its_turn_and_the_game_goes_on(ruleset, options):
    events, state = start(ruleset, options)
    for step in range(400):
        if ruleset.is_over(state):
            break
        if step % 7 == 3:
            seat = ruleset.decisions(state)[0].seat
            new = time_out(ruleset, state, events, seat, "skip")
            assert new[0].type == "seat_timed_out" and new[0].data == {
                "seat": seat,
                "action": "skip",
            }
            assert ruleset.view(ruleset.fold(events), None) == ruleset.view(state, None)
        else:
            bot_move(ruleset, state, events)
    assert ruleset.view(ruleset.fold(events), None) == ruleset.view(state, None)


@pytest.mark.parametrize(("ruleset", "options"), CASES, ids=IDS)
def test_a_seat_out_of_time_that_forfeits_resigns(ruleset, options):
    events, state = start(ruleset, options)
    for _ in range(10):
        bot_move(ruleset, state, events)
    seat = ruleset.decisions(state)[0].seat
    new = time_out(ruleset, state, events, seat, "forfeit")
    assert [e.type for e in new[:2]] == ["seat_timed_out", "seat_resigned"]
    assert seat in ruleset.resigned_seats(state)
    assert all(d.seat != seat for d in ruleset.decisions(state))


@pytest.mark.parametrize(("ruleset", "options"), CASES, ids=IDS)
def test_a_seat_out_of_time_handed_to_a_bot_changes_nothing_in_the_game(ruleset, options):
    events, state = start(ruleset, options)
    bot_move(ruleset, state, events)
    seat = ruleset.decisions(state)[0].seat
    before = ruleset.view(state, None)
    new = time_out(ruleset, state, events, seat, "bot", bot="random")
    assert [e.type for e in new] == ["seat_timed_out", "seat_handed_to_bot"]
    assert ruleset.view(state, None) == before


def test_only_an_awaited_seat_runs_out_of_time():
    events, state = start(CARCASSONNE, {})
    with pytest.raises(IllegalMove) as caught:
        time_out(CARCASSONNE, state, events, 1, "skip")
    assert caught.value.code == "bad_timeout"


def test_a_clock_reading_is_checked_for_its_shape():
    events, state = start(CARCASSONNE, {})
    bad = {"type": "clock", "remaining_ms": [1, 2], "running": {"0": "x"}}
    with pytest.raises(IllegalMove) as caught:
        CARCASSONNE.apply(state, None, bad, rng_for(b"clock", 9))
    assert caught.value.code == "bad_clock"
    good = {"type": "clock", "remaining_ms": [1, None, 3], "running": {"2": T0.isoformat()}}
    (event,) = CARCASSONNE.apply(state, None, good, rng_for(b"clock", 9))
    assert event.type == "clock" and event.data == {k: good[k] for k in ("remaining_ms", "running")}


@pytest.mark.parametrize("options", [{}, {"scenario": 1}], ids=["catan", "seafarers"])
def test_a_catan_skip_in_the_set_up_makes_one_placement_not_two(options):
    """The last seat of the snake places twice in a row: one timeout places one
    settlement and its road, and the seat is awaited for its second placement."""
    events, state = start(CATAN, options, seats=3)
    for _ in range(4):  # seats 0 and 1: a settlement and a road each
        bot_move(CATAN, state, events)
    assert [(d.seat, d.kind) for d in CATAN.decisions(state)] == [(2, "place_settlement")]
    new = time_out(CATAN, state, events, 2, "skip")
    assert [e.type for e in new if e.type.endswith("_built")] in (
        ["settlement_built", "road_built"],
        ["settlement_built", "ship_built"],
    )
    assert [(d.seat, d.kind) for d in CATAN.decisions(state)] == [(2, "place_settlement")]


def test_a_move_time_shorter_than_a_write_is_refused():
    """Shorter than the server takes to write a move, every seat would be out of time
    as soon as it is awaited, one timeout after another."""
    with pytest.raises(TimeControlError, match="clock.per_move must be at least 0.5"):
        normalize_clock({"per_move": 0.001}, ("random",))
    # nor a whole game's time, which one move spends at least
    with pytest.raises(TimeControlError, match="clock.total must be at least 0.5"):
        normalize_clock({"total": 0.2}, ("random",))
    assert normalize_clock({"total": 0.5}, ("random",))["total"] == 0.5
