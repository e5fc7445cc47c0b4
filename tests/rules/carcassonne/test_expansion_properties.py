"""Properties of whole bot games with every expansion switched on, and the options."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.carcassonne import CARCASSONNE
from service.rules.carcassonne.expansions import EXPANSIONS
from service.rules.core import InvalidOptions
from tests.rules.carcassonne.test_properties import play_watching

ALL = list(EXPANSIONS)

games = st.fixed_dictionaries(
    {
        "seed": st.binary(min_size=1, max_size=8),
        "seats": st.integers(2, 5),
        "bot": st.just("random"),
        "options": st.fixed_dictionaries(
            {
                "expansions": st.just(ALL) | st.lists(st.sampled_from(ALL), unique=True),
                "farmers": st.booleans(),
                "flock_timing": st.sampled_from(["before_figure", "after_figure"]),
                "hill_tiebreak": st.sampled_from(["any", "most"]),
                "randomness": st.sampled_from(["internal", "external"]),
            }
        ),
    }
)


@settings(max_examples=20, deadline=None)
@given(games)
def test_games_with_expansions_keep_every_invariant_and_end(game):
    events, views = play_watching(game["seed"], game["seats"], game["options"], game["bot"])
    started = events[0].data
    tiles = 1 + len(started.get("layout", ())) + sum(started["stack"].values())
    previous = [0] * game["seats"]
    for _, view in views:
        # Figures of every type are conserved: in supply or on the board.
        for figure, count in started["figures"].items():
            on_board = [0] * game["seats"]
            for placed in view["followers"]:
                on_board[placed["seat"]] += placed["figure"] == figure
            wheel = view["expansions"].get("wheel_of_fortune", {"crowns": {}})
            crowned = [s for spaces in wheel["crowns"].values() for s in spaces if s is not None]
            for seat in crowned:
                on_board[seat] += figure == "follower"
            assert [s[figure] + n for s, n in zip(view["supply"], on_board, strict=True)] == [
                count
            ] * game["seats"]
        # Tiles are conserved.
        in_hand = view["tile"] is not None
        out = len(view["board"]) + len(view["set_aside"]) + len(view["hidden"])
        assert out + in_hand + view["remaining"] == tiles
        # Scores never fall.
        assert all(now >= before for now, before in zip(view["scores"], previous, strict=True))
        previous = view["scores"]
    assert views[-1][1]["over"] and events[-1].type == "game_ended"
    for event in events:
        assert json.loads(json.dumps(event.data)) == event.data


@settings(max_examples=8, deadline=None)
@given(games)
def test_replaying_a_game_with_expansions_gives_the_live_state(game):
    events, views = play_watching(game["seed"], game["seats"], game["options"], game["bot"])
    for count, view in views[:: max(1, len(views) // 5)] + views[-1:]:
        assert CARCASSONNE.view(CARCASSONNE.fold(events[:count]), None) == view


@pytest.mark.parametrize("expansions", [["dragon"], "river", [1]])
def test_unknown_expansions_are_refused_naming_the_option(expansions):
    with pytest.raises(InvalidOptions) as caught:
        CARCASSONNE.normalize_options({"expansions": expansions})
    assert caught.value.field == "expansions"


def test_expansions_are_put_in_their_canonical_order():
    options = CARCASSONNE.normalize_options({"expansions": ["traders_builders", "river"]})
    assert options["expansions"] == ["river", "traders_builders"]


@settings(max_examples=3, deadline=None)
@given(games)
def test_greedy_bots_finish_games_with_every_expansion(game):
    events, views = play_watching(game["seed"], 2, {"expansions": ALL}, "greedy")
    assert views[-1][1]["over"] and events[-1].type == "game_ended"
