"""The decider protocol's own rules: decisions and the agenda, the refusals every
ruleset shares, apply, the turn emitter, secrets per event type and upcasting. Driven
through the test rulesets in tests/fixtures, which exercise what the games need."""

from __future__ import annotations

import random

import pytest

from service.rules.catan.game import CATAN
from service.rules.core import Event, IllegalMove, Turn
from service.rules.decisions import Agenda, Pending
from service.rules.play import NoEnd, play_game
from tests.fixtures.council import RULESET as COUNCIL
from tests.fixtures.secret_cards import RULESET as CARDS

ANSWERS = {"discard": ("discard",), "move_robber": ("move_robber",), "turn": ("build", "end")}


def started(ruleset, seats: int = 3, **options):
    events = ruleset.setup(ruleset.normalize_options(options), seats, random.Random(1))
    return events, ruleset.fold(events)


# -- the agenda -----------------------------------------------------------------------


def test_decisions_opened_together_are_all_open_with_distinct_ids():
    agenda = Agenda(ANSWERS)
    agenda.push(Pending(1, "discard", {"count": 4}), Pending(2, "discard", {"count": 5}))
    assert [(d.seat, d.kind, d.details) for d in agenda.open] == [
        (1, "discard", {"count": 4}),
        (2, "discard", {"count": 5}),
    ]
    assert len({d.id for d in agenda.open}) == 2
    assert agenda.open[0].commands == ("discard",)


def test_an_interrupt_suspends_the_open_decisions_until_it_is_answered():
    """A 7: the discards come first, then the robber, then the turn resumes."""
    agenda = Agenda(ANSWERS)
    agenda.push(Pending(0, "turn"))
    agenda.interrupt([Pending(1, "discard"), Pending(2, "discard")], [Pending(0, "move_robber")])
    first, second = agenda.open
    agenda.close(second)
    assert agenda.open == [first]  # the other discard stays open, same id
    agenda.close(first)
    assert [d.kind for d in agenda.open] == ["move_robber"]
    agenda.close(agenda.open[0])
    assert [d.kind for d in agenda.open] == ["turn"]


def test_an_interrupt_with_no_one_to_ask_goes_straight_to_the_next_group():
    """A 7 with nobody holding more than 7 cards: the robber at once."""
    agenda = Agenda(ANSWERS)
    agenda.push(Pending(0, "turn"))
    agenda.interrupt([], [Pending(0, "move_robber")])
    assert [d.kind for d in agenda.open] == ["move_robber"]


def test_a_queued_group_opens_at_once_when_nothing_is_open():
    agenda = Agenda(ANSWERS)
    agenda.then(Pending(0, "turn"))
    assert [d.kind for d in agenda.open] == ["turn"]


def test_a_reopened_decision_gets_a_new_id():
    agenda = Agenda(ANSWERS)
    agenda.push(Pending(0, "turn"))
    before = agenda.open[0].id
    agenda.interrupt([Pending(1, "discard")])
    agenda.close(agenda.open[0])
    assert agenda.open[0].kind == "turn" and agenda.open[0].id != before


def test_an_agenda_copy_is_independent():
    agenda = Agenda(ANSWERS)
    agenda.push(Pending(0, "turn"))
    agenda.then(Pending(1, "discard"))
    other = agenda.copy()
    other.close(other.open[0])
    assert [d.kind for d in agenda.open] == ["turn"] and len(agenda.queue) == 1


# -- refusals every ruleset shares --------------------------------------------------


def refused(ruleset, state, seat, command, decision=None) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        ruleset.decide(state, seat, command, random.Random(0), decision)
    return caught.value


def test_an_unknown_command_is_refused_with_the_rulesets_wording():
    _, state = started(CARDS, seats=2)
    error = refused(CARDS, state, 0, {"type": "dance"})
    assert error.code == "unknown_command" and error.rule == "Send reveal or keep."
    assert refused(CARDS, state, 0, ["not", "an", "object"]).code == "unknown_command"


def test_a_seat_not_awaited_is_refused_not_your_turn():
    _, state = started(CARDS, seats=2)
    assert refused(CARDS, state, 1, {"type": "keep"}).code == "not_your_turn"


def test_a_command_answering_no_open_decision_is_unexpected():
    _, state = started(COUNCIL)
    assert refused(COUNCIL, state, 1, {"type": "tally"}).code == "unexpected_command"


def test_a_closed_decision_is_refused_decision_closed():
    _, state = started(COUNCIL)
    mine = state["agenda"].find(0, "vote").id
    COUNCIL.apply(state, 0, {"type": "vote", "vote": "yes"}, random.Random(0), mine)
    assert refused(COUNCIL, state, 0, {"type": "vote", "vote": "no"}, mine).code == (
        "decision_closed"
    )


def test_a_game_that_is_over_refuses_every_command():
    _, state = started(CARDS, seats=2, rounds=1)
    for seat in (0, 1):
        CARDS.apply(state, seat, {"type": "keep"}, random.Random(0))
    assert refused(CARDS, state, 0, {"type": "keep"}).code == "game_over"
    assert CARDS.decisions(state) == [] and CARDS.awaiting(state) == []


def test_play_game_refuses_a_game_left_with_no_decision_open_and_not_over(monkeypatch):
    """The bot loop runs while a decision is open; a ruleset that closes every decision
    of a game not over is broken, and play_game says so rather than stopping early."""
    monkeypatch.setattr(CARDS, "decisions", lambda state: [])
    with pytest.raises(RuntimeError, match="no decision open in a game not over"):
        play_game(CARDS, {}, 2, b"seed", ["random", "random"])


def test_apply_folds_the_decided_events_and_folds_nothing_on_a_refusal():
    events, state = started(COUNCIL)
    new = COUNCIL.apply(state, 1, {"type": "vote", "vote": "yes"}, random.Random(0))
    assert COUNCIL.view(state, 1) == COUNCIL.view(COUNCIL.fold(events + new), 1)
    before = COUNCIL.view(state, None)
    with pytest.raises(IllegalMove):
        COUNCIL.apply(state, 1, {"type": "vote", "vote": "maybe"}, random.Random(0))
    assert COUNCIL.view(state, None) == before


def test_legal_commands_have_one_shape_listing_the_seats_open_decisions():
    _, state = started(COUNCIL)
    assert COUNCIL.legal_commands(state, 2) == {
        "seat": 2,
        "decisions": [
            {
                "id": state["agenda"].find(2, "vote").id,
                "kind": "vote",
                "commands": {"vote": {"vote": ["yes", "no"]}, "object": {}},
            }
        ],
    }
    _, cards = started(CARDS, seats=2)
    assert CARDS.legal_commands(cards, 1) == {"seat": 1, "decisions": []}


# -- the turn emitter -----------------------------------------------------------------


def test_a_turn_folds_each_event_into_a_copy_made_at_the_first_emit():
    _, state = started(COUNCIL, seats=2)
    turn = Turn(COUNCIL, state)
    assert turn.state is state  # nothing emitted: no copy
    turn.emit(Event("voted", {"seat": 0, "vote": "yes"}, (0,)))
    assert turn.state is not state
    assert [d.seat for d in COUNCIL.decisions(turn.state) if d.kind == "vote"] == [1]
    assert [d.seat for d in COUNCIL.decisions(state) if d.kind == "vote"] == [0, 1]
    assert [e.type for e in turn.events] == ["voted"]


# -- secrets and versions ------------------------------------------------------------


def test_an_event_hidden_from_a_seat_shows_only_what_its_type_declares():
    dealt = Event("dealt", {"seat": 0, "card": "card-1"}, (0,))
    assert CARDS.redact(dealt, 0) == {"seat": 0, "card": "card-1"}
    assert CARDS.redact(dealt, 1) == {"seat": 0}
    assert CARDS.redact(dealt, None) == {"seat": 0}
    assert CARDS.redact(Event("secret", {"x": 1}, (0,)), 1) == {}


def test_each_seats_fold_of_its_own_log_gives_the_view_the_server_shows_it():
    events, state = started(CARDS, seats=3)
    for seat in range(3):
        events += CARDS.apply(state, seat, {"type": "reveal"}, random.Random(seat))
    for seat in (0, 1, 2, None):
        assert CARDS.view(CARDS.fold(CARDS.seat_log(events, seat)), seat) == CARDS.view(state, seat)


def test_a_log_without_a_rules_version_is_version_1_and_upcast_on_fold():
    class Renamed(type(CARDS)):
        rules_version = 2
        upcasters = {(1, "revealed"): lambda data: {**data, "card": data["card"].upper()}}

    renamed = Renamed()
    old = [Event("game_started", {"seats": 2, "rounds": 1})]
    old += [Event("revealed", {"seat": 0, "card": "card-a"})]
    assert renamed.fold(old)["revealed"] == ["CARD-A"]
    upcast = list(renamed.upcast_log(old))
    assert upcast[0].data["rules_version"] == 2
    marker = renamed.upgrade_marker(1)
    mixed = [*old, marker, Event("revealed", {"seat": 1, "card": "card-b"})]
    assert renamed.fold(mixed)["revealed"] == ["CARD-A", "card-b"]


def test_a_bot_game_that_does_not_end_in_its_command_budget_is_an_error_not_a_hang():
    with pytest.raises(NoEnd, match="catan: no end after 10 commands"):
        play_game(CATAN, {}, 4, b"budget", ["random"] * 4, max_commands=10)
    events, state = play_game(CATAN, {}, 4, b"budget", ["random"] * 4)
    assert CATAN.is_over(state) and events[-1].type == "game_ended"


def test_a_decision_id_tells_how_many_events_were_folded_when_it_opened():
    from service.rules.decisions import _decision_id, opened_at

    assert [opened_at(_decision_id(n)) for n in (0, 12, 70_000)] == [0, 12, 70_000]
    assert [opened_at(text) for text in ("x3", "d", "d-1", "d٣", "")] == [None] * 5
