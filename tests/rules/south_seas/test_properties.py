"""Properties of whole games between bots, from random seeds and options."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.play import play_game
from service.rules.south_seas import SOUTH_SEAS
from service.rules.south_seas.state import DISPLAY, ISLANDERS, State

TILES = 73
SHIPS = 24

games = st.fixed_dictionaries(
    {
        "seed": st.binary(min_size=1, max_size=8),
        "seats": st.integers(2, 5),
        "options": st.fixed_dictionaries(
            {
                "randomness": st.sampled_from(["internal", "external"]),
                "retrieve": st.sampled_from(["empty_supply", "instead_of_placing"]),
            }
        ),
        "bots": st.lists(st.sampled_from(["random", "greedy"]), min_size=5, max_size=5),
    }
)
quick = settings(max_examples=12, deadline=None)


def replay(game: dict) -> tuple[list, State, list[State]]:
    """The game's events, final state, and the state after every command."""
    events, state = play_game(
        SOUTH_SEAS, game["options"], game["seats"], game["seed"], game["bots"][: game["seats"]]
    )
    states, current = [], SOUTH_SEAS.initial_state()
    for event in events:
        SOUTH_SEAS.evolve(current, event)
        if event.type in ("turn_ended", "game_ended", "delivery_offered"):
            states.append(SOUTH_SEAS.copy_state(current))
    return events, state, states


def check_invariants(state: State) -> None:
    on_board = [0] * state.seats
    for feature in state.graph.features.values():
        for figure in feature.figures:
            on_board[figure.seat] += 1
    assert all(s + b == ISLANDERS for s, b in zip(state.supply, on_board, strict=True))
    placed = len(state.board.tiles)
    in_hand = 1 if state.tile is not None else 0
    assert placed + state.remaining + len(state.set_aside) + in_hand == TILES
    held = [ship for ships in state.held for ship in ships]
    assert len(held) == len(set(held))  # a ship is held by at most one player
    assert len(held) + len(state.display) + len(state.ship_stack) == SHIPS
    assert all(n >= 0 for wares in state.wares for n in wares.values())
    if state.ship_stack:
        assert len(state.display) == DISPLAY  # 4 face up while the stack lasts
    for seat in range(state.seats):
        assert state.score(seat) == state.ship_points(seat) + sum(state.wares[seat].values()) // 3


@quick
@given(games)
def test_every_game_ends_and_replaying_its_log_gives_the_live_state(game):
    events, state, _ = replay(game)
    assert SOUTH_SEAS.is_over(state) and SOUTH_SEAS.awaiting(state) == []
    assert state.ended_because in ("tiles_exhausted", "ships_exhausted")
    assert SOUTH_SEAS.view(SOUTH_SEAS.fold(events), None) == SOUTH_SEAS.view(state, None)


@quick
@given(games)
def test_islanders_tiles_ships_and_wares_are_conserved_at_every_step(game):
    events, state, states = replay(game)
    for each in states:
        check_invariants(each)
    ended = events[-1].data
    assert ended["scores"] == [state.score(s) for s in range(state.seats)]
    assert set(ended["winners"]) == {
        s for s, points in enumerate(ended["scores"]) if points == max(ended["scores"])
    }


@settings(max_examples=5, deadline=None)
@given(games)
def test_the_same_seed_and_commands_give_the_same_events(game):
    first, _, _ = replay(game)
    second, _, _ = replay(game)
    assert first == second
