"""The base tile data against the reference table (shared/reference/carcassonne.md §2.1)."""

from __future__ import annotations

import json

from service.rules.carcassonne.base import BASE
from service.rules.carcassonne.state import DATA, game_rules

# letter: (C1 count, edges N E S W), transcribed from the reference table
REFERENCE = {
    "A": (2, "FFRF"), "B": (4, "FFFF"), "C": (1, "CCCC"), "D": (4, "CRFR"),
    "E": (5, "CFFF"), "F": (2, "FCFC"), "G": (1, "FCFC"), "H": (3, "CFCF"),
    "I": (2, "CFFC"), "J": (3, "CRRF"), "K": (3, "CFRR"), "L": (3, "CRRR"),
    "M": (2, "CFFC"), "N": (3, "CFFC"), "O": (2, "CRRC"), "P": (3, "CRRC"),
    "Q": (1, "CCFC"), "R": (3, "CCFC"), "S": (2, "CCRC"), "T": (1, "CCRC"),
    "U": (8, "FRFR"), "V": (9, "FFRR"), "W": (4, "FRRR"), "X": (1, "RRRR"),
}  # fmt: skip
SHIELDED = {"C": 1, "F": 1, "M": 1, "O": 1, "Q": 1, "S": 1}

catalogue = game_rules((BASE,)).catalogue
tiles = catalogue.tiles


def test_counts_per_letter_match_the_reference():
    assert {t.letter: (t.count, t.edges) for t in tiles} == REFERENCE


def test_72_tiles_in_all_including_one_start_tile_d():
    assert sum(t.count for t in tiles) == 72
    assert [(t.letter, t.start) for t in tiles if t.start] == [("D", 1)]


def test_10_shields():
    shields = {
        t.letter: sum(s.attrs.get("shield", 0) for s in t.segments)
        for t in tiles
        if any(s.attrs for s in t.segments)
    }
    assert shields == SHIELDED
    assert sum(n * catalogue.get(letter).count for letter, n in shields.items()) == 10


def test_6_cloisters():
    cloisters = [t for t in tiles for s in t.segments if s.kind.name == "cloister"]
    assert sum(t.count for t in cloisters) == 6
    assert {t.letter for t in cloisters} == {"A", "B"}


def test_letters_are_aliases_of_ids():
    assert catalogue.get("D") is catalogue.get("BA/RCr")
    assert catalogue.get("Z") is None


def test_fields_touch_the_cities_of_the_reference():
    # The reference gives the city each field touches; spot-check the subtle tiles.
    def touched(letter: str) -> list[list[str]]:
        tile = catalogue.get(letter)
        return [
            sorted(tile.spots[0][t] for t in s.touches)
            for s in tile.segments
            if s.kind.name == "field"
        ]

    assert touched("D") == [["city:N"], []]
    assert touched("H") == [["city:N", "city:S"]]
    assert touched("L") == [["city:N"], [], []]
    assert touched("S") == [["city:N,E,W"], ["city:N,E,W"]]


def test_16_wheel_of_fortune_icons_marked_provisional():
    raw = json.loads((DATA / "base.json").read_text())
    assert "PROVISIONAL" in raw["provisional"]["wheel"]
    icons = [n for t in tiles for n in t.wheel]
    assert len(icons) == 16
    assert set(icons) <= {1, 2, 3}
    assert all(len(t.wheel) <= t.count - t.start for t in tiles)
