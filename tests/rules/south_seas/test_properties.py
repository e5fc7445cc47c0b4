"""Properties of a thousand whole games between bots, from random seeds, seat counts
(2 to 5) and options."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.core import RANDOMNESS_MODES
from service.rules.south_seas import SOUTH_SEAS
from service.rules.south_seas.game import RETRIEVE_EMPTY_SUPPLY, RETRIEVE_INSTEAD
from service.rules.south_seas.state import DISPLAY, ISLANDER, State
from tests.rules.properties import (
    Watch,
    all_tiles_played,
    assert_events_json_compatible,
    assert_replay_gives_the_live_state,
    assert_same_seed_same_events,
    batches,
    play_watched,
    seeds,
)

#: games per hypothesis example
BATCH = 10

games = st.fixed_dictionaries(
    {
        "seed": seeds,
        "seats": st.integers(2, 5),
        "options": st.fixed_dictionaries(
            {
                "randomness": st.sampled_from(RANDOMNESS_MODES),
                "retrieve": st.sampled_from([RETRIEVE_EMPTY_SUPPLY, RETRIEVE_INSTEAD]),
            }
        ),
        #: the seat a greedy bot plays, if any (a whole greedy table is slow)
        "greedy": st.none() | st.integers(0, 4),
    }
)


class SouthSeasWatch(Watch):
    """Islanders are in supply or on the board; every ship is face down, face up or
    held by exactly one seat, 4 face up while the stack lasts (but while an external
    reveal is awaited); wares never go negative; fishing boats are in the supply or
    on the board."""

    ruleset = SOUTH_SEAS

    def start(self, started: dict[str, Any]) -> None:
        super().start(started)
        self.ships = sorted(started["ships"])
        self.boats = started["fishing_boats"]

    def figures_held(self, state: State) -> Counter[tuple[int, str]]:
        held = self.on_board(state)
        for seat, n in enumerate(state.supply):
            assert n >= 0
            held[seat, ISLANDER] += n
        return held

    def scores(self, state: State) -> list[int]:
        return [state.score(seat) for seat in range(state.seats)]

    def check(self, state: State) -> None:
        held = [ship for ships in state.held for ship in ships]
        assert len(held) == len(set(held))  # a ship is held by at most one seat
        assert sorted(held + state.display + state.ship_stack) == self.ships
        if state.ship_stack and len(state.display) < DISPLAY:
            assert state.options["randomness"] == "external"
            assert SOUTH_SEAS.awaiting(state)[0]["kind"] == "reveal_ship"
        assert all(n >= 0 for wares in state.wares for n in wares.values())
        on_board = sum(n for groups in state.covered.values() for n in groups.values())
        assert state.boats >= 0 and state.boats + on_board == self.boats


@settings(max_examples=100, deadline=None)
@given(batches(games, BATCH))
def test_random_games_conserve_islanders_tiles_ships_and_replay_to_the_live_state(batch):
    """1,000 random-bot games: after every command islanders, tiles, ships and boats
    are conserved, wares never go negative, scores never fall and a seat is awaited
    until the end; every game ends with all tiles played (the other ending, the ships
    gone, never comes between random bots, who take few ships: its own rules test
    covers it), each seat scoring its ship points plus 1 per 3 wares, every seat with
    the best score winning; its log folds to the live state, at the end and at
    intermediate counts."""
    for game in batch:
        played = play_watched(
            SouthSeasWatch(), game["options"], game["seats"], game["seed"], ["random"] * 5
        )
        state = played.state
        if state.ended_because == "tiles_exhausted":
            assert all_tiles_played(state)
        else:
            assert state.ended_because == "ships_exhausted" and not state.ships_left()
        ended = played.events[-1].data
        # the rule: ship points plus 1 per 3 wares of any type
        assert ended["wares"] == [sum(state.wares[s].values()) for s in range(state.seats)]
        assert ended["scores"] == [
            points + wares // 3
            for points, wares in zip(ended["ship_points"], ended["wares"], strict=True)
        ]
        best = max(ended["scores"])
        assert set(ended["winners"]) == {s for s, n in enumerate(ended["scores"]) if n == best}
        assert_replay_gives_the_live_state(played)


@settings(max_examples=20, deadline=None)
@given(games)
def test_the_same_seed_and_bots_give_the_same_events(game):
    assert_same_seed_same_events(SouthSeasWatch(), game)


@settings(max_examples=3, deadline=None)
@given(batches(games, BATCH))
def test_events_survive_a_json_round_trip(batch):
    assert_events_json_compatible(SOUTH_SEAS, batch)
