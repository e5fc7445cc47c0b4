"""Loading and validating tile data: kinds are data, contradictions are refused."""

from __future__ import annotations

import copy

import pytest

from service.rules.tiling.tiles import Catalogue, TileDataError

KINDS = {
    "city": {"edge": "C", "span": "side", "completion": "sides"},
    "road": {"edge": "R", "span": "centre", "completion": "sides"},
    "field": {"edge": "F", "span": "half", "completion": "never"},
}
START = {
    "id": "T/RCr",
    "count": 1,
    "start": 1,
    "edges": "CRFR",
    "features": [
        {"kind": "city", "at": "N"},
        {"kind": "road", "at": "W E"},
        {"kind": "field", "at": "EL WR", "touches": [0]},
        {"kind": "field", "at": "ER SL SR WL"},
    ],
}


def data(*tiles: dict, **extra: object) -> dict:
    return {"format": 1, "kinds": KINDS, "tiles": list(tiles), **extra}


def test_a_valid_set_loads_with_per_rotation_tables():
    catalogue = Catalogue()
    catalogue.add_set(data(START))
    tile = catalogue.get("T/RCr")
    assert tile.spots[1] == ("city:E", "road:N,S", "field:NR,SL", "field:NL,SR,WL,WR")


def broken(change) -> dict:
    tile = copy.deepcopy(START)
    change(tile)
    return data(tile)


@pytest.mark.parametrize(
    "bad",
    [
        broken(lambda t: t.update(edges="CRRR")),  # edges contradict the features
        broken(lambda t: t["features"].pop()),  # a port left uncovered
        broken(lambda t: t["features"].append({"kind": "road", "at": "N"})),  # claimed twice
        broken(lambda t: t["features"][0].update(kind="lake")),  # unknown kind
        broken(lambda t: t["features"][0].update(shield=1)),  # undeclared attribute
        broken(lambda t: t["features"][2].update(touches=[9])),
        broken(lambda t: t.update(wheel=[4])),
        broken(lambda t: t.update(start=2)),
    ],
)
def test_contradictory_tile_data_is_refused(bad):
    with pytest.raises(TileDataError):
        Catalogue().add_set(bad)


def test_a_new_kind_is_just_data():
    # A South Seas-like bridge: road-like, closed by its ends.
    kinds = {**KINDS, "bridge": {"edge": "B", "span": "centre", "completion": "sides"}}
    tile = {
        "id": "SS/B",
        "count": 1,
        "edges": "FBFB",
        "features": [
            {"kind": "bridge", "at": "E W"},
            {"kind": "field", "at": "NL NR EL WR"},
            {"kind": "field", "at": "ER SL SR WL"},
        ],
    }
    catalogue = Catalogue()
    catalogue.add_set({"format": 1, "kinds": kinds, "tiles": [tile]})
    assert catalogue.get("SS/B").spots[0][0] == "bridge:E,W"


def test_a_kind_cannot_be_redefined_differently():
    catalogue = Catalogue()
    catalogue.add_set(data(START))
    other = {**KINDS, "road": {"edge": "R", "span": "side", "completion": "sides"}}
    with pytest.raises(TileDataError):
        catalogue.add_set({"format": 1, "kinds": other, "tiles": []})
