"""Catan Seafarers scenario maps: loading, validation and the JSettlers conversion.

Each scenario and player count is one JSON file in ``data/seafarers/`` (scenario 9,
The New World, is one file for 3 and 4 players that holds a frame and the pools its
map is drawn from). A file extends the base board's JSON (:mod:`.board`)::

    {
      "scenario": 1, "name": "heading-for-new-shores", "players": 4,
      "title": {"fr": ..., "en": ...}, "victory_points": 14,
      "hexes": [{"hex": "0,-2", "terrain": "sea", "number": null}, ...],
      "harbours": [{"type": "generic", "corners": ["0,-2,N", "0,-3,S"]}, ...],
      "robber": "q,r" | null, "pirate": "q,r" | null,
      "areas": [{"name": "main", "hexes": [...], "start": true, "special_points": 0}, ...],
      "fog": null | {"hexes": [...], "terrains": {...}, "numbers": {...}},
      "setup": {...}, "components": {...}, "sources": [...], "jsettlers": {...}
    }

and, for The Forgotten Tribe (scenario 5), ``"unnumbered": [...]`` (land hexes without a
number token) and ``"tribe": {"gifts": [{"edge": ..., "gift": ...}, ...]}`` (see
:mod:`.tribe`); its ``setup`` may say ``"robber": "any_desert"`` and list
``"poor_numbers"`` hexes, which never get a 5, 6, 8 or 9. A ``setup`` may also name
``"poor_numbers_off"`` terrains, which never get a 2, 3, 11 or 12 (The Four Islands).

Differences from the base board, which :class:`~.board.Board` refuses today:

- terrains ``sea`` (no number) and ``gold`` (a number, like a producing hex);
- a harbour lies on an edge between a land hex and either a sea hex or the frame
  (no hex at all): the base board's "coastal edge" is one with a single hex on it,
  but on a Seafarers map the grid holds sea hexes, so a harbour edge has two;
- ``pirate``: a sea hex or ``null`` (off the board);
- ``areas``: the land areas that the special victory points and start rules name;
- ``fog``: empty spaces filled during play from face-down piles (scenario 3).

Coordinates are the axial ``(q, r)`` of :mod:`service.rules.hexes.geometry`. JSettlers2
writes a hex as ``0xRRCC`` (row, column) on a grid where a hex is 2 units wide and 2
tall, hex rows are odd and a hex's east neighbour is 2 columns on and its south-east
neighbour 2 rows down and 1 column on. With ``q`` growing east and ``r`` south-east::

    q = (2 * col - row - 3) / 4        r = (row - 11) / 2
    row = 2 * r + 11                   col = 2 * q + r + 7

which puts JSettlers' hex 0x0B07 (the centre of the base game's island in its
4-player sea layouts) on ``(0, 0)``; see :func:`from_jsettlers_hex`.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Final

from service.rules.catan import tribe
from service.rules.catan.board import (
    HARBOUR_TYPES,
    NUMBERS,
    RED_NUMBERS,
    Harbour,
    Tile,
    base_data,
)
from service.rules.hexes.geometry import (
    Edge,
    Hex,
    corner_name,
    edge_between,
    edge_hexes,
    hex_edges,
    hex_name,
    neighbours,
    parse_corner,
    parse_hex,
)

LAND_TERRAINS: Final = ("hills", "forest", "pasture", "fields", "mountains", "gold", "desert")
TERRAINS: Final = ("sea", *LAND_TERRAINS)
#: terrains that take a number token
NUMBERED: Final = frozenset({"hills", "forest", "pasture", "fields", "mountains", "gold"})
#: JSettlers' facings (SOCBoard.FACING_*), in the order of ``hex_edges``
FACINGS: Final = ("NE", "E", "SE", "SW", "W", "NW")
_EDGE_OFFSET: Final = {"NE": -0x100, "E": 1, "SE": 0x100}

DATA_DIR: Final = "data/seafarers"
#: the numbers a set-up's ``poor_numbers`` hexes never get (The Forgotten Tribe: "pas
#: de 5, 6, 8 ou 9" on the 3 hexes on the right)
GOOD_NUMBERS: Final = frozenset({5, 6, 8, 9})
#: the numbers a set-up's ``poor_numbers_off`` terrains never get (The Four Islands: no
#: "jetons numérotés à trop faibles probabilités" on forests and pastures): the tokens
#: of one and two dots
POOR_NUMBERS: Final = frozenset({2, 3, 11, 12})


# --- the JSettlers conversion -----------------------------------------------------------


def from_jsettlers_hex(coord: int) -> Hex:
    """JSettlers' sea-board hex ``0xRRCC`` -> axial ``(q, r)``; ``ValueError`` if not a hex."""
    row, col = coord >> 8, coord & 0xFF
    if row % 2 != 1 or (2 * col - row - 3) % 4 != 0:
        raise ValueError(f"0x{coord:04X} is not a hex on JSettlers' sea board")
    return ((2 * col - row - 3) // 4, (row - 11) // 2)


def to_jsettlers_hex(h: Hex) -> int:
    q, r = h
    return ((2 * r + 11) << 8) | (2 * q + r + 7)


def to_jsettlers_edge(edge: Edge) -> int:
    """An edge's JSettlers coordinate (``A_EDGE2HEX``: NE -0x100, E +1, SE +0x100 of its hex)."""
    return to_jsettlers_hex((edge.q, edge.r)) + _EDGE_OFFSET[edge.d]


def from_jsettlers_edge(coord: int) -> Edge:
    """JSettlers' sea-board edge ``0xRRCC`` -> the edge of the hex it is the NE, E or SE
    side of (at most one of the three candidate hexes is a hex); ``ValueError`` if none."""
    for d, offset in _EDGE_OFFSET.items():
        try:
            q, r = from_jsettlers_hex(coord - offset)
        except ValueError:
            continue
        return Edge(q, r, d)
    raise ValueError(f"0x{coord:04X} is not an edge on JSettlers' sea board")


def from_jsettlers_port(edge: int, facing: str) -> tuple[Hex, Edge]:
    """A JSettlers port (edge coordinate, facing towards its land hex) -> (land hex, edge).

    The edge is the land hex's side in the direction opposite the facing.
    """
    back = FACINGS[(FACINGS.index(facing) + 3) % 6]
    offset = {"NE": -0x100, "E": 1, "SE": 0x100, "SW": 0x100 - 1, "W": -1, "NW": -0x100 - 1}
    land = from_jsettlers_hex(edge - offset[back])
    return land, hex_edges(land)[FACINGS.index(back)]


def frame(size: int) -> tuple[Hex, ...]:
    """The reconstructed Seafarers frame: 35 hexes (4-5-6-5-6-5-4), 42 (5-6-7-6-7-6-5)
    or 49 (6-7-8-7-8-7-6).

    Rows 3..15 of JSettlers' grid; rows 3, 7, 11, 15 span odd columns 3..13 (15, 17
    for the larger frames), rows 5, 9, 13 even columns 4..12 (14, 16); the four corner hexes of
    the first and last rows are left out. It holds every scenario's land hexes and,
    around them, exactly the rulebook's number of sea hexes (see the tests).
    """
    last = {35: 13, 42: 15, 49: 17}[size]
    hexes = []
    for row in range(3, 16, 2):
        cols = range(3, last + 1, 2) if row % 4 == 3 else range(4, last, 2)
        for col in cols:
            if row in (3, 15) and col in (3, last):
                continue
            hexes.append(from_jsettlers_hex((row << 8) | col))
    return tuple(hexes)


#: the two frames by size
FRAMES: Final = MappingProxyType({size: frame(size) for size in (35, 42, 49)})


# --- the data ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Area:
    """A land area: start areas take the initial settlements; settling a foreign area
    first earns ``special_points``."""

    name: str
    hexes: frozenset[Hex]
    start: bool
    special_points: int


@dataclass(frozen=True, slots=True)
class Fog:
    """Empty spaces filled during play from two face-down piles (tiles and numbers)."""

    hexes: tuple[Hex, ...]
    terrains: Mapping[str, int]
    numbers: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class Scenario:
    """One scenario map for one player count, validated on construction."""

    number: int
    name: str
    title_fr: str
    title_en: str
    players: tuple[int, ...]
    victory_points: int
    hexes: Mapping[Hex, Tile]
    harbours: tuple[Harbour, ...]
    robber: Hex | None
    pirate: Hex | None
    areas: tuple[Area, ...]
    fog: Fog | None
    #: land hexes laid without a number token (The Forgotten Tribe's and Cloth for
    #: Catan's small islands; The Pirate Islands, line 545)
    unnumbered: frozenset[Hex] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "hexes", MappingProxyType(dict(self.hexes)))
        validate(self)

    @property
    def land(self) -> frozenset[Hex]:
        return frozenset(h for h, t in self.hexes.items() if t.terrain != "sea")

    @property
    def sea(self) -> frozenset[Hex]:
        return frozenset(h for h, t in self.hexes.items() if t.terrain == "sea")

    def counts(self) -> dict[str, Any]:
        """Terrains (fog spaces not included), number tokens and harbours on the map."""
        return {
            "terrains": dict(Counter(t.terrain for t in self.hexes.values())),
            "numbers": dict(Counter(t.number for t in self.hexes.values() if t.number)),
            "harbours": dict(Counter(h.type for h in self.harbours)),
        }


def validate(s: Scenario) -> None:
    """What holds on every Seafarers map; raises ``ValueError``."""
    fog = set(s.fog.hexes) if s.fog else set()
    for h, (terrain, number) in s.hexes.items():
        where = f"hex {hex_name(h)}"
        if terrain not in TERRAINS:
            raise ValueError(f"{where}: unknown terrain {terrain!r}")
        if terrain in NUMBERED and h not in s.unnumbered:
            if type(number) is not int or number not in NUMBERS:
                raise ValueError(f"{where}: {number!r} is not a number token (2-6, 8-12)")
        elif number is not None:
            raise ValueError(f"{where}: {terrain} takes no number token")
        if h in fog:
            raise ValueError(f"{where}: a fog space is laid during play, not at the start")
    seen: set[Edge] = set()
    for harbour in s.harbours:
        where = f"harbour on {harbour.edge}"
        if harbour.type not in HARBOUR_TYPES:
            raise ValueError(f"{where}: unknown type {harbour.type!r}")
        if not on_coast(s.hexes, harbour.edge):
            raise ValueError(f"{where}: not between land and sea or frame")
        if harbour.edge in seen:
            raise ValueError(f"{where}: two harbours on one edge")
        seen.add(harbour.edge)
    if s.robber is not None and s.hexes.get(s.robber, Tile("sea", None)).terrain == "sea":
        raise ValueError(f"robber on {hex_name(s.robber)}, which is not a land hex")
    if s.pirate is not None and s.hexes.get(s.pirate, Tile("", None)).terrain != "sea":
        raise ValueError(f"pirate on {hex_name(s.pirate)}, which is not a sea hex")
    if s.areas:
        owners = Counter(h for area in s.areas for h in area.hexes)
        if any(n > 1 for n in owners.values()):
            raise ValueError("a hex lies in two land areas")
        if set(owners) != set(s.land) | fog:
            raise ValueError("the land areas do not cover exactly the land and fog hexes")


def on_coast(hexes: Mapping[Hex, Tile], edge: Edge) -> bool:
    """An edge with a land hex on one side and a sea hex or nothing on the other."""
    sides = [hexes.get(h) for h in edge_hexes(edge)]
    land = [t for t in sides if t is not None and t.terrain != "sea"]
    return len(land) == 1


# --- loading ----------------------------------------------------------------------------


def _files() -> list[str]:
    folder = resources.files(__package__).joinpath(DATA_DIR)
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".json"))


@cache
def raw(filename: str) -> dict[str, Any]:
    """A scenario file as JSON (``data/seafarers/<filename>``)."""
    text = resources.files(__package__).joinpath(f"{DATA_DIR}/{filename}").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def files() -> tuple[str, ...]:
    return tuple(_files())


def parse_harbours(items: list[dict[str, Any]]) -> tuple[Harbour, ...]:
    out = []
    for item in items:
        a, b = (parse_corner(c) for c in item["corners"])
        out.append(Harbour(item["type"], edge_between(a, b)))
    return tuple(out)


def from_json(doc: Mapping[str, Any]) -> Scenario:
    """A scenario file with a laid-out map (not scenario 9's pools) -> :class:`Scenario`."""
    hexes: dict[Hex, Tile] = {}
    for entry in doc["hexes"]:
        h = parse_hex(entry["hex"])
        if h in hexes:
            raise ValueError(f"hex {entry['hex']} appears twice")
        hexes[h] = Tile(entry["terrain"], entry["number"])
    fog = None
    if doc.get("fog"):
        f = doc["fog"]
        fog = Fog(
            tuple(parse_hex(h) for h in f["hexes"]),
            MappingProxyType(dict(f["terrains"])),
            MappingProxyType({int(n): c for n, c in f["numbers"].items()}),
        )
    areas = tuple(
        Area(
            a["name"], frozenset(parse_hex(h) for h in a["hexes"]), a["start"], a["special_points"]
        )
        for a in doc.get("areas") or ()
    )
    players = doc["players"]
    return Scenario(
        number=doc["scenario"],
        name=doc["name"],
        title_fr=doc["title"]["fr"],
        title_en=doc["title"]["en"],
        players=tuple(players) if isinstance(players, list) else (players,),
        victory_points=doc["victory_points"],
        hexes=hexes,
        harbours=parse_harbours(doc["harbours"]),
        robber=None if doc["robber"] is None else parse_hex(doc["robber"]),
        pirate=None if doc["pirate"] is None else parse_hex(doc["pirate"]),
        areas=areas,
        fog=fog,
        unnumbered=frozenset(parse_hex(h) for h in doc.get("unnumbered", ())),
    )


@dataclass(frozen=True, slots=True)
class ScenarioInfo:
    number: int
    name: str
    title_fr: str
    title_en: str
    players: tuple[int, ...]
    victory_points: int
    #: no printed map: it is drawn for each game (The New World)
    drawn: bool


def available() -> tuple[ScenarioInfo, ...]:
    """Every scenario with its player counts (one entry per scenario)."""
    found: dict[int, dict[str, Any]] = {}
    for name in files():
        doc = raw(name)
        players = doc["players"] if isinstance(doc["players"], list) else [doc["players"]]
        entry = found.setdefault(doc["scenario"], {"doc": doc, "players": set(), "vp": set()})
        entry["players"].update(players)
        entry["vp"].add(doc["victory_points"])
    out = []
    for number, entry in sorted(found.items()):
        doc = entry["doc"]
        (vp,) = entry["vp"]
        out.append(
            ScenarioInfo(
                number,
                doc["name"],
                doc["title"]["fr"],
                doc["title"]["en"],
                tuple(sorted(entry["players"])),
                vp,
                doc["hexes"] is None,
            )
        )
    return tuple(out)


def filename(number: int, players: int) -> str:
    """The file of scenario ``number`` for ``players``; ``KeyError`` if none."""
    for name in files():
        doc = raw(name)
        counts = doc["players"] if isinstance(doc["players"], list) else [doc["players"]]
        if doc["scenario"] == number and players in counts:
            return name
    raise KeyError(f"no scenario {number} for {players} players")


def load(number: int, players: int, seed: int | None = None) -> Scenario:
    """Scenario ``number`` for ``players``; scenario 9 is drawn from ``seed``."""
    doc = raw(filename(number, players))
    if doc["hexes"] is None:
        if seed is None:
            raise ValueError(f"scenario {number} is generated: give a seed")
        return new_world(random.Random(seed), doc)
    return from_json(doc)


# --- scenario 9: the map drawn from a seed --------------------------------------------


def new_world(rng: random.Random, doc: Mapping[str, Any] | None = None) -> Scenario:
    """The New World: every tile shuffled over the frame, numbers shuffled over the
    land, drawn again until no 6 or 8 touches another or lies on gold. Harbours are
    left to the players (the rulebook has them placed in turn), so none are laid; the
    robber waits beside the board (no desert) and the pirate off it."""
    doc = doc or raw(filename(9, 4))
    gen = doc["generated"]
    cells = [parse_hex(h) for h in doc["frame"]]
    tiles = [t for t, n in gen["terrains"].items() for _ in range(n)]
    tokens = [int(k) for k, n in gen["numbers"].items() for _ in range(n)]
    while True:
        rng.shuffle(tiles)
        rng.shuffle(tokens)
        numbers = iter(tokens)
        hexes = {
            h: Tile(t, next(numbers) if t in NUMBERED else None)
            for h, t in zip(cells, tiles, strict=True)
        }
        if number_problem(hexes, NEW_WORLD_NUMBERS) is not None:
            continue
        return Scenario(
            9,
            doc["name"],
            doc["title"]["fr"],
            doc["title"]["en"],
            tuple(doc["players"]),
            doc["victory_points"],
            hexes,
            (),
            None,
            None,
            (),
            None,
        )


# --- a game's board and scenario data, dealt from a file ---------------------------------


def deal(number: int, players: int, rng: random.Random, *, shuffle: bool) -> dict[str, Any]:
    """The ``board`` and ``scenario`` parts of a Seafarers game's ``game_started``.

    With ``shuffle`` each set-up group of the file is laid out as the scenario's
    random set-up says (terrains and numbers shuffled within the group, or numbers
    along the base game's spiral, harbour types shuffled over the harbour places),
    drawn again until no red numbers touch, none lies on gold and none on the hexes
    the scenario names (``no_red_numbers_on``) where it asks; without it the file's own
    arrangement is played. Scenario 9 is always drawn from ``rng``. Fog spaces are on
    the board as ``"fog"``; what lies under them is not on the board at all (it is
    drawn when they are turned up).
    """
    doc = raw(filename(number, players))
    if doc["hexes"] is None:
        return _new_world_game(doc, rng)
    scenario = from_json(doc)
    hexes = dict(scenario.hexes)
    harbours = [h.type for h in scenario.harbours]
    setup = doc["setup"]
    if shuffle:
        hexes = _shuffled(hexes, setup, rng, scenario.unnumbered)
        if setup.get("harbours") == "shuffled":
            rng.shuffle(harbours)
    fog = scenario.fog
    board_hexes = [
        {"hex": hex_name(h), "terrain": t.terrain, "number": t.number}
        for h, t in sorted(hexes.items(), key=lambda item: item[0][::-1])
    ]
    if fog is not None:
        board_hexes += [{"hex": hex_name(h), "terrain": "fog", "number": None} for h in fog.hexes]
    board = {
        "hexes": board_hexes,
        "harbours": [
            {"type": kind, "corners": [corner_name(c) for c in harbour.corners]}
            for kind, harbour in zip(harbours, scenario.harbours, strict=True)
        ],
        "robber": None if scenario.robber is None else hex_name(scenario.robber),
        "pirate": None if scenario.pirate is None else hex_name(scenario.pirate),
    }
    if scenario.unnumbered:
        board["unnumbered"] = sorted(hex_name(h) for h in scenario.unnumbered)
    if shuffle and setup.get("robber") == "any_desert":
        deserts = sorted(h for h, t in hexes.items() if t.terrain == "desert")
        board["robber"] = hex_name(rng.choice(deserts))
    elif shuffle and scenario.robber is not None:
        # the robber starts on the desert, or on the 12 where the scenario has none
        board["robber"] = hex_name(_robber_start(hexes, scenario.robber))
    data = {
        "number": number,
        "name": scenario.name,
        "victory_points": scenario.victory_points,
        "areas": [
            {
                "name": area.name,
                "hexes": sorted(hex_name(h) for h in area.hexes),
                "start": area.start,
                "special_points": area.special_points,
            }
            for area in scenario.areas
        ],
        "fog": None
        if fog is None
        else {
            "terrains": dict(fog.terrains),
            "numbers": {str(n): c for n, c in sorted(fog.numbers.items())},
        },
        "harbours_to_place": [],
    }
    if doc.get("wonders") is not None:  # The Wonders of Catan: the cards and marked places
        data["wonders"] = doc["wonders"]
    if "cloth" in doc:  # Cloth for Catan: the villages and the reserve
        data["cloth"] = doc["cloth"]
    if "tribe" in doc:  # The Forgotten Tribe: the gifts on the small islands' coasts
        data["tribe"] = tribe.deal(doc["tribe"], rng, shuffle=shuffle)
    if "pirate_islands" in doc:  # The Pirate Islands: fleet path, colours, routes
        data["pirate_islands"] = doc["pirate_islands"]
    return {"board": board, "scenario": data}


def _robber_start(hexes: Mapping[Hex, Tile], printed: Hex) -> Hex:
    """Where the robber starts on a shuffled map: the printed desert if it is still
    one, else a desert, else the hex carrying the 12 (as the rulebook starts it on a
    map without a desert)."""
    if hexes[printed].terrain == "desert":
        return printed
    deserts = sorted(h for h, t in hexes.items() if t.terrain == "desert")
    if deserts:
        return deserts[0]
    return min(h for h, t in hexes.items() if t.number == 12)


def _shuffled(
    hexes: dict[Hex, Tile],
    setup: Mapping[str, Any],
    rng: random.Random,
    unnumbered: frozenset[Hex],
) -> dict:
    spiral_tokens = list(base_data()["number_spiral"])
    while True:
        laid = dict(hexes)
        for group in setup["groups"]:
            if group["terrains"] == group["numbers"] == "fixed":
                continue  # laid as printed (Cloth for Catan: gold islands without numbers)
            cells = [parse_hex(h) for h in group["hexes"]]
            terrains = [hexes[h].terrain for h in cells]
            tokens = [n for h in cells if (n := hexes[h].number) is not None]
            if group["terrains"] == "shuffled":
                rng.shuffle(terrains)
            numbered = [
                h
                for h, t in zip(cells, terrains, strict=True)
                if t in NUMBERED and h not in unnumbered
            ]
            if group["numbers"] == "spiral" and sorted(tokens) == sorted(spiral_tokens):
                tokens = list(spiral_tokens)
            elif group["numbers"] != "fixed":
                rng.shuffle(tokens)
            numbers = dict(zip(numbered, tokens, strict=True))
            for h, t in zip(cells, terrains, strict=True):
                laid[h] = Tile(t, numbers.get(h))
        if number_problem(laid, setup) is None:
            return laid


#: the New World's rules for its numbers, as a file's ``setup`` names them
NEW_WORLD_NUMBERS: Final = {"no_red_on_gold": True, "red_numbers_apart": True}


def number_problem(hexes: Mapping[Hex, Tile], setup: Mapping[str, Any]) -> str | None:
    """Why a random set-up's rules for numbers (a file's ``setup``) refuse these tiles
    (None: they take them): red numbers on gold or side by side, on hexes that must
    have none, good numbers where poor ones must be, poor ones where they must not."""
    red = {h for h, t in hexes.items() if t.number in RED_NUMBERS}
    if setup.get("no_red_on_gold") and any(hexes[h].terrain == "gold" for h in red):
        return "a 6 or an 8 lies on gold"
    if setup.get("red_numbers_apart") and any(n in red for h in red for n in neighbours(h)):
        return "a 6 or an 8 touches another"
    if any(parse_hex(h) in red for h in setup.get("no_red_numbers_on", ())):
        return "a 6 or an 8 lies where the scenario forbids them"
    poor = (parse_hex(h) for h in setup.get("poor_numbers", ()))
    if any(hexes[h].number in GOOD_NUMBERS for h in poor):
        return "a 5, 6, 8 or 9 lies where the scenario wants a poor number"
    spared = setup.get("poor_numbers_off", ())
    if any(t.terrain in spared and t.number in POOR_NUMBERS for t in hexes.values()):
        return f"a 2, 3, 11 or 12 lies on {' or '.join(spared)}"
    return None


def layout_problem(number: int, players: int, hexes: Mapping[Hex, Tile]) -> str | None:
    """Why the scenario's random set-up could not lay these tiles (None: it could):
    a hex outside the groups it shuffles as printed; a group's terrains and numbers not
    its own (or moved, where the group keeps them fixed); its rules for numbers."""
    doc = raw(filename(number, players))
    if doc["hexes"] is None:  # The New World: its whole frame shuffled
        return number_problem(hexes, NEW_WORLD_NUMBERS)
    printed = from_json(doc).hexes
    grouped: set[Hex] = set()
    for group in doc["setup"]["groups"]:
        cells = [parse_hex(h) for h in group["hexes"]]
        grouped.update(cells)
        for part, name in ((0, "terrains"), (1, "numbers")):
            mine = [hexes[h][part] for h in cells]
            theirs = [printed[h][part] for h in cells]
            moved = mine != theirs if group[name] == "fixed" else _sorted(mine) != _sorted(theirs)
            if moved:
                return f"the {name} of the {group['name']} are not as the set-up lays them"
    if any(hexes[h] != tile for h, tile in printed.items() if h not in grouped):
        return "a tile outside the shuffled groups is not as printed"
    return number_problem(hexes, doc["setup"])


def _sorted(values: list[Any]) -> list[Any]:
    """``values`` in order, None (a hex without a number) first."""
    return sorted(values, key=lambda v: (v is not None, v))


def _new_world_game(doc: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """Scenario 9: the map drawn; each island is an area (worked out from the board when
    it is laid: every island a seat settles in the set-up is one of its start islands,
    any other a foreign one), and the harbour markers are left for the seats to place,
    face down."""
    scenario = new_world(rng, doc)
    markers = [kind for kind, n in doc["generated"]["harbours"].items() for _ in range(n)]
    board = {
        "hexes": [
            {"hex": hex_name(h), "terrain": t.terrain, "number": t.number}
            for h, t in sorted(scenario.hexes.items(), key=lambda item: item[0][::-1])
        ],
        "harbours": [],
        "robber": None,
        "pirate": None,
    }
    data = {
        "number": 9,
        "name": doc["name"],
        "victory_points": doc["victory_points"],
        "areas": None,
        "island_points": NEW_WORLD_SPECIAL_POINTS,
        "fog": None,
        "harbours_to_place": sorted(markers),
    }
    return {"board": board, "scenario": data}


#: The New World: the points for a seat's first settlement on each foreign island. The
#: rulebook names foreign islands for this scenario but prints no amount; 2 is the
#: amount every other scenario of the book gives (see docs/rulesets/catan.md).
NEW_WORLD_SPECIAL_POINTS: Final = 2
