"""Properties of whole games between bots, from random seeds and options."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.carcassonne import CARCASSONNE
from service.rules.core import rng_for
from service.rules.play import play_game

TILES = 72
FOLLOWERS = 7

games = st.fixed_dictionaries(
    {
        "seed": st.binary(min_size=1, max_size=8),
        "seats": st.integers(2, 5),
        "options": st.fixed_dictionaries(
            {
                "farmers": st.booleans(),
                "small_cities": st.booleans(),
                "randomness": st.sampled_from(["internal", "external"]),
            }
        ),
    }
)


def play_watching(
    seed: bytes, seats: int, options: dict, bot: str = "random"
) -> tuple[list, list[dict]]:
    """A game between bots of one kind, with the live view after every command."""
    events = CARCASSONNE.setup(CARCASSONNE.normalize_options(options), seats, rng_for(seed, 0))
    state = CARCASSONNE.fold(events)
    views = [(len(events), CARCASSONNE.view(state, None))]
    bots = random.Random(seed)
    while not CARCASSONNE.is_over(state):
        seat = CARCASSONNE.awaiting(state)[0]["seat"]
        command = CARCASSONNE.bot_command(state, seat, bot, bots)
        new = CARCASSONNE.decide(state, seat, command, rng_for(seed, len(events)))
        for event in new:
            CARCASSONNE.evolve(state, event)
        events += new
        views.append((len(events), CARCASSONNE.view(state, None)))
    return events, views


@settings(max_examples=100, deadline=None)
@given(games)
def test_random_games_keep_every_invariant(game):
    events, views = play_watching(game["seed"], game["seats"], game["options"])
    previous = [0] * game["seats"]
    for _, view in views:
        # Followers are conserved: in supply or on the board.
        on_board = [0] * game["seats"]
        for figure in view["followers"]:
            on_board[figure["seat"]] += 1
        assert [s["follower"] + n for s, n in zip(view["supply"], on_board, strict=True)] == [
            FOLLOWERS
        ] * game["seats"]
        # Tiles are conserved: on the board, set aside, drawn and in hand, or in the stack.
        in_hand = view["tile"] is not None
        assert len(view["board"]) + len(view["set_aside"]) + in_hand + view["remaining"] == TILES
        # Scores never fall.
        assert all(now >= before for now, before in zip(view["scores"], previous, strict=True))
        previous = view["scores"]
    final = views[-1][1]
    assert final["over"] and final["remaining"] == 0
    assert len(final["board"]) + len(final["set_aside"]) == TILES
    assert events[-1].type == "game_ended"


@settings(max_examples=30, deadline=None)
@given(games)
def test_replaying_the_events_gives_the_live_state(game):
    events, views = play_watching(game["seed"], game["seats"], game["options"])
    for count, view in views[:: max(1, len(views) // 6)] + views[-1:]:
        assert CARCASSONNE.view(CARCASSONNE.fold(events[:count]), None) == view


@settings(max_examples=20, deadline=None)
@given(games, st.sampled_from(["random", "greedy"]))
def test_same_seed_and_commands_give_the_same_events(game, bot):
    bots = [bot] * game["seats"]
    first, _ = play_game(CARCASSONNE, game["options"], game["seats"], game["seed"], bots)
    second, _ = play_game(CARCASSONNE, game["options"], game["seats"], game["seed"], bots)
    assert first == second


@settings(max_examples=10, deadline=None)
@given(games)
def test_events_are_json_compatible(game):
    import json

    events, _ = play_game(
        CARCASSONNE, game["options"], game["seats"], game["seed"], ["random"] * game["seats"]
    )
    for event in events:
        assert json.loads(json.dumps(event.data)) == event.data
