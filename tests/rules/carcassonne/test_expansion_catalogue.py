"""The expansions in the ruleset catalogue (what GET /v1/rulesets serves)."""

from __future__ import annotations

from service.rules.carcassonne import CARCASSONNE


def test_the_rulesets_catalogue_lists_each_expansion_with_its_tile_count_and_figures():
    listed = {e["name"]: e for e in CARCASSONNE.describe()["expansions"]}
    assert {name: e["tiles"] for name, e in listed.items()} == {
        "river": 12,
        "inns_cathedrals": 18,
        "traders_builders": 24,
        "hills_sheep": 18,
        "wheel_of_fortune": 12,
    }
    assert listed["wheel_of_fortune"]["options"] == ["wheel_board"]
    assert listed["hills_sheep"]["options"] == ["flock_timing", "hill_tiebreak"]
    assert listed["hills_sheep"]["figures"] == {"shepherd": {"count": 1, "weight": 0}}
    assert listed["inns_cathedrals"]["figures"] == {"big_follower": {"count": 1, "weight": 2}}
    assert set(listed["traders_builders"]["figures"]) == {"builder", "pig"}
    assert CARCASSONNE.describe()["options"]["expansions"]["items"] == list(listed)
