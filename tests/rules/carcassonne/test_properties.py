"""Properties of thousands of whole base games between bots, from random seeds, seat
counts (2 to 8) and options, both randomness modes included."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.carcassonne import CARCASSONNE
from service.rules.core import RANDOMNESS_MODES
from service.rules.play import play_game
from tests.rules.carcassonne.properties import CarcassonneWatch
from tests.rules.properties import (
    all_tiles_played,
    assert_events_json_compatible,
    assert_replay_gives_the_live_state,
    assert_same_seed_same_events,
    batches,
    bots,
    play_watched,
    seeds,
)

#: games per hypothesis example, so the example's own overhead does not dominate
BATCH = 10

games = st.fixed_dictionaries(
    {
        "seed": seeds,
        "seats": st.integers(2, 8),
        "options": st.fixed_dictionaries(
            {
                "farmers": st.booleans(),
                "small_cities": st.booleans(),
                "randomness": st.sampled_from(RANDOMNESS_MODES),
            }
        ),
        #: the seat a greedy bot plays, if any (a whole greedy table is slow)
        "greedy": st.none() | st.integers(0, 7),
    }
)


@settings(max_examples=200, deadline=None)
@given(batches(games, BATCH))
def test_random_games_conserve_tiles_and_followers_and_replay_to_the_live_state(batch):
    """2,000 random-bot games: after every command tiles and followers are conserved,
    scores never fall and a seat is awaited until the end; every game ends with all
    tiles placed or set aside; its log folds to the live state, at the end and at
    intermediate counts."""
    for game in batch:
        played = play_watched(
            CarcassonneWatch(), game["options"], game["seats"], game["seed"], ["random"] * 8
        )
        assert all_tiles_played(played.state)
        assert played.watch.commands > 72  # a draw and a placement per tile at least
        assert_replay_gives_the_live_state(played)


@settings(max_examples=30, deadline=None)
@given(games)
def test_the_same_seed_and_bots_give_the_same_events(game):
    assert_same_seed_same_events(CarcassonneWatch(), game)


@settings(max_examples=3, deadline=None)
@given(batches(games, BATCH))
def test_events_survive_a_json_round_trip(batch):
    assert_events_json_compatible(CARCASSONNE, batch)


@settings(max_examples=20, deadline=None)
@given(games)
def test_the_views_after_every_command_show_followers_and_tiles_conserved(game):
    """What a client sees: the view's supplies, followers on the board, board, set
    aside tiles, tile in hand and stack count add up after every command."""
    seats = game["seats"]
    views = []
    play_game(
        CARCASSONNE,
        game["options"],
        seats,
        game["seed"],
        bots(game),
        observe=lambda state, _: views.append(CARCASSONNE.view(state, None)),
    )
    previous = [0] * seats
    for view in views:
        on_board = [0] * seats
        for figure in view["followers"]:
            on_board[figure["seat"]] += 1
        followers = [s["follower"] + n for s, n in zip(view["supply"], on_board, strict=True)]
        assert followers == [7] * seats
        in_hand = view["tile"] is not None
        assert len(view["board"]) + len(view["set_aside"]) + in_hand + view["remaining"] == 72
        assert all(now >= before for now, before in zip(view["scores"], previous, strict=True))
        previous = view["scores"]
        assert bool(view["awaiting"]) != view["over"]
    assert views[-1]["over"] and views[-1]["remaining"] == 0
