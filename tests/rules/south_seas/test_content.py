"""The provisional components and operator-supplied catalogues.

The publisher's per-tile and ship lists were not found; the packaged files must still
satisfy everything the rulebook and the research notes state, and say plainly that
they are provisional.
"""

from __future__ import annotations

import copy

import pytest

from service.rules.core import InvalidOptions
from service.rules.south_seas import SOUTH_SEAS
from service.rules.south_seas.content import content_for
from service.rules.south_seas.evaluation import icons
from tests.rules.south_seas.table import Table, evaluated, packaged

CONTENT = content_for(None, None)
TILES = CONTENT.catalogue.tiles


def segments(kind: str):
    return [(t, s) for t in TILES for s in t.segments if s.kind.name == kind]


def test_73_sea_tiles_with_one_start_tile():
    assert sum(t.count for t in TILES) == 73
    assert [(t.id, t.start) for t in TILES if t.start] == [("SS/IB=", 1)]


def test_24_ships_worth_2_to_6_with_every_kind_of_demand():
    ships = CONTENT.ships
    assert len(ships) == 24 and {s.points for s in ships} == {2, 3, 4, 5, 6}
    assert any(s.fixed and not s.any and not s.same for s in ships)
    assert any(s.any and not s.fixed for s in ships)
    assert any(s.same == (4,) for s in ships) and any(s.same == (3, 1) for s in ships)


def test_the_ships_shown_in_the_rulebook_and_reviews_are_in_the_list():
    shown = [
        (5, {"shell": 2, "fish": 1, "banana": 1}),
        (5, {"any": 6}),
        (3, {"same": [4]}),
        (4, {"any": 5}),
        (3, {"same": [3, 1]}),
        (4, {"shell": 3, "banana": 1}),
        (3, {"fish": 2, "banana": 1}),
    ]
    described = [(s.points, s.describe()["demand"]) for s in CONTENT.ships]
    assert all(ship in described for ship in shown)


def test_bridges_carry_shells_and_end_at_junctions_islands_or_markets():
    bridges = segments("bridge")
    assert any(s.attrs.get("shell") for _, s in bridges)
    ends = {t.id for t, s in bridges if len({p // 3 for p in s.ports}) == 1}
    kinds = {t.id: {s.kind.name for s in t.segments} for t in TILES}
    assert any(sum(s.kind.name == "bridge" for s in t.segments) >= 3 for t in TILES)  # junction
    assert any("island" in kinds[t] for t in ends) and any("market" in kinds[t] for t in ends)


def test_islands_with_and_without_bananas():
    bananas = {s.attrs.get("banana", 0) for _, s in segments("island")}
    assert 0 in bananas and max(bananas) >= 2


def test_tiles_with_two_or_more_separate_sea_regions():
    assert any(sum(s.kind.name == "sea" for s in t.segments) >= 2 for t in TILES)
    assert any(sum(s.kind.name == "sea" for s in t.segments) == 4 for t in TILES)


def test_fish_come_in_groups_of_one_or_two_and_some_seas_have_fishing_boats():
    attrs = [s.attrs for _, s in segments("sea")]
    assert any(a.get("fish1") for a in attrs) and any(a.get("fish2") for a in attrs)
    assert set().union(*attrs) <= {"fish1", "fish2", "boat"}
    boats = sum(t.count for t in TILES if any(s.attrs.get("boat") for s in t.segments))
    assert 0 < boats <= 19


def test_markets():
    assert sum(t.count for t in TILES if any(s.kind.name == "market" for s in t.segments)) > 0


def test_both_files_say_they_are_a_provisional_distribution():
    for name in ("tiles.json", "ships.json"):
        assert packaged(name)["provisional"].startswith("PROVISIONAL DISTRIBUTION")


def test_an_operator_catalogue_is_played_instead_of_the_packaged_one():
    tiles = packaged("tiles.json")
    for tile in tiles["tiles"]:
        if tile["id"] == "SS/I.1":
            tile["features"][0]["banana"] = 5
    table = Table(tiles=tiles)
    (island,) = evaluated(table.turn("SS/I.1", 0, -1, 180, spot="island:S"))
    assert island["wares"] == 6
    view = SOUTH_SEAS.view(table.state, None)
    assert view["custom_catalogue"] == {"tiles": True, "ships": False}
    # Replaying the log needs nothing but the log: the catalogue travels in the options.
    assert icons(SOUTH_SEAS.fold(table.events).graph.feature(0)) == icons(
        table.state.graph.feature(0)
    )


def broken(name: str, change) -> dict:
    data = copy.deepcopy(packaged(name))
    change(data)
    return data


@pytest.mark.parametrize(
    ("field", "data"),
    [
        ("tiles", broken("tiles.json", lambda d: d["tiles"][0].update(edges="SSSS"))),
        ("tiles", broken("tiles.json", lambda d: d["tiles"][16].pop("start"))),
        ("tiles", broken("tiles.json", lambda d: d["kinds"].pop("market"))),
        ("tiles", broken("tiles.json", lambda d: d.update(format=2))),
        ("ships", broken("ships.json", lambda d: d["ships"][0].update(points=0))),
        ("ships", broken("ships.json", lambda d: d["ships"][1].update(id="S01"))),
        ("ships", broken("ships.json", lambda d: d["ships"][2].update(demand={"gold": 1}))),
        ("ships", broken("ships.json", lambda d: d.update(ships=d["ships"][:3]))),
    ],
)
def test_an_operator_catalogue_is_validated_when_the_game_is_created(field, data):
    with pytest.raises(InvalidOptions) as caught:
        SOUTH_SEAS.normalize_options({field: data})
    assert caught.value.field == field
