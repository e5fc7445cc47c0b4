"""Properties of hundreds of whole bot games with random combinations of the
expansions (all five together in about half of them), and the expansions option."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.carcassonne import CARCASSONNE
from service.rules.carcassonne.expansions import EXPANSIONS
from service.rules.core import RANDOMNESS_MODES, InvalidOptions
from tests.rules.carcassonne.properties import CarcassonneWatch
from tests.rules.properties import (
    all_tiles_played,
    assert_events_json_compatible,
    assert_replay_gives_the_live_state,
    assert_same_seed_same_events,
    batches,
    play_watched,
    seeds,
)

ALL = list(EXPANSIONS)
#: games per hypothesis example
BATCH = 5

games = st.fixed_dictionaries(
    {
        "seed": seeds,
        "seats": st.integers(2, 8),
        "options": st.fixed_dictionaries(
            {
                "expansions": st.just(ALL) | st.lists(st.sampled_from(ALL), unique=True),
                "farmers": st.booleans(),
                "small_cities": st.booleans(),
                "flock_timing": st.sampled_from(["before_figure", "after_figure"]),
                "hill_tiebreak": st.sampled_from(["any", "most"]),
                "randomness": st.sampled_from(RANDOMNESS_MODES),
            }
        ),
        #: the seat a greedy bot plays, if any (a whole greedy table is slow)
        "greedy": st.none() | st.integers(0, 7),
    }
)


@settings(max_examples=100, deadline=None)
@given(batches(games, BATCH))
def test_games_with_expansions_conserve_tiles_and_figures_and_replay_to_the_live_state(batch):
    """500 random-bot games: after every command tiles (hidden ones included) and each
    seat's figures of every type (crown spaces included) are conserved, sheep go back
    to the bag, goods and supplies never go negative, scores never fall and a seat is
    awaited until the end; every game ends with all tiles played; its log folds to the
    live state, at the end and at intermediate counts."""
    for game in batch:
        played = play_watched(
            CarcassonneWatch(), game["options"], game["seats"], game["seed"], ["random"] * 8
        )
        assert all_tiles_played(played.state)
        assert_replay_gives_the_live_state(played)


@settings(max_examples=6, deadline=None)
@given(games)
def test_the_same_seed_and_bots_give_the_same_events_with_expansions(game):
    assert_same_seed_same_events(CarcassonneWatch(), game)


@settings(max_examples=3, deadline=None)
@given(batches(games, BATCH))
def test_events_with_expansions_survive_a_json_round_trip(batch):
    assert_events_json_compatible(CARCASSONNE, batch)


@settings(max_examples=1, deadline=None)
@given(seeds)
def test_a_greedy_bot_finishes_games_with_every_expansion(seed):
    played = play_watched(CarcassonneWatch(), {"expansions": ALL}, 2, seed, ["greedy", "random"])
    assert all_tiles_played(played.state)


@pytest.mark.parametrize("expansions", [["dragon"], "river", [1]])
def test_unknown_expansions_are_refused_naming_the_option(expansions):
    with pytest.raises(InvalidOptions) as caught:
        CARCASSONNE.normalize_options({"expansions": expansions})
    assert caught.value.field == "expansions"


def test_expansions_are_put_in_their_canonical_order():
    options = CARCASSONNE.normalize_options({"expansions": ["traders_builders", "river"]})
    assert options["expansions"] == ["river", "traders_builders"]
