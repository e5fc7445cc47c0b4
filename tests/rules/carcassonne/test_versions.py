"""Rules version 2: ``flock_to_tend`` and ``sheep_due`` lost the ``then`` that version 1
wrote into them (what follows them is now folded into the state). A game stored by a
version-1 release still folds to the state the live game reached."""

from __future__ import annotations

import pytest

from service.rules.carcassonne import CARCASSONNE
from service.rules.core import Event
from service.rules.play import play_game


def as_version_1(events: list[Event]) -> list[Event]:
    """The log as a version-1 release stored it: no ``rules_version`` in
    ``game_started``, and the continuation each flock event then carried."""
    state = CARCASSONNE.initial_state()
    old = []
    for event in events:
        data = dict(event.data)
        if event.type == "game_started":
            del data["rules_version"]
        elif event.type == "flock_to_tend":
            before = state.options["flock_timing"] == "before_figure"
            data["then"] = "place_follower" if before else "end_turn"
        elif event.type == "sheep_due":
            if state.phase != "tend_flock":
                data["then"] = "end_turn"  # a shepherd's first token
            elif state.options["flock_timing"] == "before_figure":
                data["then"] = "tended"
            else:
                data["then"] = "tended_end_turn"
        CARCASSONNE.evolve(state, event)
        old.append(Event(event.type, data, event.visible_to))
    return old


@pytest.mark.parametrize("timing", ["before_figure", "after_figure"])
def test_a_version_1_log_folds_to_the_live_state(timing):
    options = {"expansions": ["hills_sheep"], "flock_timing": timing, "randomness": "external"}
    events, live = play_game(CARCASSONNE, options, 3, b"v1", ["random", "greedy", "random"])
    old = as_version_1(events)
    thens = {e.data["then"] for e in old if "then" in e.data}
    assert thens >= {"end_turn", "tended" if timing == "before_figure" else "tended_end_turn"}
    assert CARCASSONNE.version_of(old[0]) == 1
    # Part way, where a flock decision is open, and at the end.
    cut = next(i for i, e in enumerate(events) if e.type == "sheep_due") + 1
    for upto in (cut, len(events)):
        now = CARCASSONNE.fold(events[:upto])
        folded = CARCASSONNE.fold(old[:upto])
        assert (folded.phase, folded.resume, folded.folded) == (now.phase, now.resume, now.folded)
        assert CARCASSONNE.awaiting(folded) == CARCASSONNE.awaiting(now)
        for seat in (0, 1, 2, None):
            assert CARCASSONNE.view(folded, seat) == CARCASSONNE.view(now, seat)
    assert CARCASSONNE.view(live, None) == CARCASSONNE.view(CARCASSONNE.fold(old), None)
    assert [e.data for e in CARCASSONNE.upcast_log(old)] == [e.data for e in events]
