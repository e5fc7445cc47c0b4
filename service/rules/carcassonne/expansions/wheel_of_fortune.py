"""The Wheel of Fortune (La Roue de la Fortune): 12 tiles, the wheel board and the pig.

Rulebook:

- The wheel board is a large start tile whose edges are ordinary terrain; the pig
  starts on Fortune. With the River, the board comes first and the spring is placed
  against it, flowing away ("de façon à ce qu'elle coule vers l'extérieur du plateau").
- A drawn tile with a wheel icon (1, 2 or 3; the base tiles of this edition carry some
  too) moves the pig that many sectors clockwise before the tile is placed; the
  sector's action happens, then the followers on that sector's crown spaces score
  ("seul dans une section ne contenant qu'une case, il marque 3 points", 6 alone in a
  two-space sector, 3 each when two share one) and return; then the turn goes on.
- Actions: Fortune, the active player scores 3; Taxes, each knight scores 1 per banner
  (shield) in its city and 1 per knight of its owner there; Famine, each farmer scores
  1 per completed city in its field, no majority needed; Storm, 1 per follower in one's
  supply; Inquisition, 2 per monk; Plague, every player, the active one first then
  clockwise, takes back one of his followers from the land (not from the wheel).
- A player who places no follower on the tile may instead put one from his supply on
  a free crown space (one follower per space); crown followers score nothing at the end.

The board's terrain and crown spaces were not found in text form: the package's
``data/wheel_of_fortune.json`` holds a PROVISIONAL board that fits every statement of
the rulebook, and an operator may pass a corrected one as the game option
``wheel_board`` (it travels in ``game_started``, so a log replays without the package
file). The board's spaces are generated as start tiles (``WF/wheel.x.y``) whose inner
sides are ``wheel``, a kind no figure stands on.

Readings: followers are partisans (follower, big follower), not the builder, pig or
shepherd; a big follower counts as one knight, monk or farmer for the wheel's actions,
and only a follower goes on a crown space. A tile that fits nowhere does not turn the
wheel (it goes back in the box as if never drawn). Crown spaces are scored right after
the action, before the Plague's decisions (nothing a player takes back can change them).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from service.rules.carcassonne.modules import Module, Step
from service.rules.carcassonne.scoring import completed_cities
from service.rules.core import JSON, Event, InvalidOptions, Turn, illegal
from service.rules.tiling.features import Feature, Figure
from service.rules.tiling.geometry import SIDES
from service.rules.tiling.tiles import TileType

if TYPE_CHECKING:
    from service.rules.carcassonne.game import Carcassonne
    from service.rules.carcassonne.state import State

TITLE = "The Wheel of Fortune (La Roue de la Fortune)"
SUMMARY = (
    "12 tiles and the wheel board, a large start tile. A tile with a wheel icon (the base "
    "tiles of this edition carry some) moves the pig 1 to 3 sectors: Fortune, Taxes, "
    "Famine, Storm, Inquisition or Plague happens, then the followers on that sector's "
    "crown spaces score. A follower may go on a free crown space instead of the tile. "
    "The board's terrain and crown spaces are PROVISIONAL."
)
DATA = Path(__file__).parent.parent / "data" / "wheel_of_fortune.json"
ACTIONS = ("fortune", "taxes", "famine", "storm", "inquisition", "plague")
PHASE_PLAGUE = "plague"
#: figures that are partisans (the actions count them); special figures are not
PARTISANS = ("follower", "big_follower")
#: where the spring goes beside a side of the board, turned to flow away from it
OUTWARD = {"N": ((0, -1), 270), "E": ((1, 0), 0), "S": ((0, 1), 90), "W": ((-1, 0), 180)}


# -- the board: validation and the start tiles it is made of --------------------------------


def board_problem(board: Any) -> str | None:
    """Why a wheel board spec contradicts the rulebook, or ``None``."""
    if not isinstance(board, Mapping):
        return "the wheel board is an object"
    size, sectors, edges = board.get("size"), board.get("sectors"), board.get("edges")
    if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= 6:
        return "size is the board's width in tile spaces, 1 to 6"
    if not isinstance(sectors, list) or not all(isinstance(s, Mapping) for s in sectors):
        return "sectors is a list of {name, crowns}"
    if sorted(str(s.get("name")) for s in sectors) != sorted(ACTIONS):
        return f"sectors are the six actions {ACTIONS}, each once"
    if sectors[0]["name"] != "fortune":
        return "the sectors are listed clockwise from Fortune, where the pig starts"
    crowns = [s.get("crowns") for s in sectors]
    if sectors[0]["crowns"] != 0 or any(c not in (1, 2) for c in crowns[1:]):
        return "Fortune has no crown space; every other sector has one or two"
    if not isinstance(edges, Mapping) or set(edges) != set(SIDES):
        return "edges gives the terrain of each side N, E, S, W"
    for side, letters in edges.items():
        if not isinstance(letters, str) or len(letters) != size or set(letters) - set("FRC"):
            return f"edges {side}: {size} letters among F (field), R (road), C (city)"
    spring = board.get("spring")
    if not isinstance(spring, Mapping) or spring.get("side") not in SIDES:
        return "spring names the side and index where the River's spring goes"
    index = spring.get("index")
    if not isinstance(index, int) or not 0 <= index < size:
        return "spring index is a position along its side"
    if edges[spring["side"]][index] != "F":
        return "the spring goes against a field edge"
    return None


def _edge_position(side: str, index: int, size: int) -> tuple[int, int]:
    """The board space at position ``index`` (clockwise) along ``side``."""
    last = size - 1
    return {
        "N": (index, 0),
        "E": (last, index),
        "S": (last - index, last),
        "W": (0, last - index),
    }[side]


def board_tiles(board: Mapping[str, Any]) -> dict[str, Any]:
    """The tile set of the board's spaces: each space a start tile whose outer sides
    carry the board's terrain and whose inner sides are the wheel."""
    size = board["size"]
    outer: dict[tuple[int, int], dict[str, str]] = {}
    for side, letters in board["edges"].items():
        for index, letter in enumerate(letters):
            outer.setdefault(_edge_position(side, index, size), {})[side] = letter
    tiles = []
    for y in range(size):
        for x in range(size):
            sides = outer.get((x, y), {})
            features: list[dict[str, Any]] = []
            cities = []
            for side, letter in sorted(sides.items(), key=lambda item: SIDES.index(item[0])):
                if letter == "C":
                    cities.append(len(features))
                    features.append({"kind": "city", "at": side})
            for side, letter in sorted(sides.items(), key=lambda item: SIDES.index(item[0])):
                if letter == "R":
                    features.append({"kind": "road", "at": side})
                    halves = [f"{side}L", f"{side}R"]
                elif letter == "F":
                    halves = [f"{side}L {side}R"]
                else:
                    continue
                for at in halves:
                    features.append({"kind": "field", "at": at, "touches": cities})
            inner = [side for side in SIDES if side not in sides]
            if inner:
                features.append({"kind": "wheel", "at": " ".join(inner)})
            edges = "".join(sides.get(side, "X") for side in SIDES)
            tile = {"id": f"WF/wheel.{x}.{y}", "count": 1, "start": 1, "edges": edges}
            tiles.append({**tile, "features": features})
    kinds = {
        "city": {"edge": "C", "span": "side", "completion": "sides"},
        "road": {"edge": "R", "span": "centre", "completion": "sides"},
        "field": {"edge": "F", "span": "half", "completion": "never"},
        "wheel": {"edge": "X", "span": "side", "completion": "never", "figures": False},
    }
    return {"format": 1, "set": "wheel_board", "kinds": kinds, "tiles": tiles}


def packaged_board() -> dict[str, Any]:
    return json.loads(DATA.read_text(encoding="utf-8"))["wheel_board"]


# -- drawing: which copy, and the wheel's turn ------------------------------------------------


def _part(state: State) -> dict[str, Any]:
    return state.ext["wheel_of_fortune"]


def icons_left(state: State, tile: TileType) -> list[int]:
    """The wheel icons of the copies of ``tile`` not drawn yet."""
    left = list(tile.wheel)
    for icon in _part(state)["drawn"].get(tile.id, ()):
        left.remove(icon)
    return left


def _copies(state: State, tile: TileType) -> tuple[int, list[int]]:
    """How many copies of ``tile`` may be the one drawn, and the icons they carry.

    The copy drawn is any of those nobody has seen, those under hills included: which
    copies lie there is as unknown as which tiles, so the icons drawn tell nothing of
    them. Never more icons than those copies (a start copy stays in the box)."""
    copies = state.stack[tile.id] + state.hidden.count(tile.id)
    return copies, icons_left(state, tile)[:copies]


def draw_menu(state: State, tiles: Mapping[str, int]) -> dict[str, Any]:
    """What an external draw names of the copy drawn: for each tile that may be drawn
    with an icon, the icons left and how many copies carry none (with none, ``wheel``
    must name one)."""
    found = {}
    for tile_id in tiles:
        tile = state.catalogue.by_name[tile_id]
        if tile.wheel:
            copies, left = _copies(state, tile)
            found[tile_id] = {"icons": left, "plain": copies - len(left)}
    return {"wheel": found} if found else {}


def draw_detail(
    state: State, tile: TileType, rng: random.Random, command: JSON | None
) -> dict[str, Any]:
    """Which copy of ``tile`` was drawn: ``{"wheel": n}`` for one with an icon."""
    if not tile.wheel:
        if command is not None and command.get("wheel") is not None:
            raise illegal(RULES, "no_such_wheel_icon", f"no {tile.name} has a wheel icon")
        return {}
    copies, left = _copies(state, tile)
    if command is None:
        pick = rng.randrange(copies) if left else copies
        return {"wheel": left[pick]} if pick < len(left) else {}
    icon = command.get("wheel")
    if icon is None:
        if copies <= len(left):
            raise illegal(RULES, "wheel_icon_required", f"every {tile.name} left has a wheel icon")
        return {}
    if icon not in left:
        raise illegal(
            RULES, "no_such_wheel_icon", f"no {tile.name} left has the wheel icon {icon!r}"
        )
    return {"wheel": icon}


def turn_the_wheel(
    ruleset: Carcassonne,
    turn: Turn[State],
    seat: int,
    drawn: dict[str, Any],
    rng: random.Random,
) -> None:
    """After a tile with an icon is drawn: the pig moves, the sector acts, its crown
    spaces score, all read on the state the command's earlier events lead to."""
    icon = drawn.get("wheel")
    if not icon:
        return
    now = turn.state
    names = _part(now)["sectors"]
    sector = names[(names.index(_part(now)["pig"]) + icon) % len(names)]
    data = {"seat": seat, "icon": icon, "from": _part(now)["pig"], "to": sector}
    events = [Event("wheel_turned", data)]
    events += ACTION_EVENTS[sector](now, seat)
    crowns = _part(now)["crowns"].get(sector, [])
    occupants = [(space, s) for space, s in enumerate(crowns) if s is not None]
    if occupants:
        alone = len(occupants) == 1
        points = (3 if len(crowns) == 1 else 6) if alone else 3
        why = "alone on the sector's" if alone else "sharing the sector's"
        spaces = f"{len(crowns)} crown space{'s' if len(crowns) > 1 else ''}"
        events.append(
            Event(
                "crown_scored",
                {
                    "sector": sector,
                    "figures": [{"seat": s, "space": space} for space, s in occupants],
                    "winners": sorted({s for _, s in occupants}),
                    "points": points,
                    "reason": f"crown: {points} points for a follower {why} {spaces}",
                    "returned": True,
                },
            )
        )
    if sector == "plague":
        queue = plague_queue(now, seat)
        if queue:
            events.append(Event("plague", {"seat": seat, "queue": queue}))
    turn.emit(*events)


# -- the six actions --------------------------------------------------------------------------


def _occupied(state: State) -> list[Feature]:
    """The features with figures on them, in the order of their roots (the order the
    events list figures in): the few a scan of the land needs to look at."""
    features = state.graph.features
    return [features[root] for root in sorted([r for r, f in features.items() if f.figures])]


def _partisans(state: State, kind: str) -> Iterator[tuple[Figure, Feature]]:
    """Each partisan on the land standing on a feature of ``kind``, with the feature."""
    for feature in _occupied(state):
        if feature.kind.name == kind:
            for figure in feature.figures:
                if figure.kind in PARTISANS:
                    yield figure, feature


def _scored(sector: str, points: list[int], reason: str, figures: list[dict]) -> Event:
    return Event(
        "wheel_scored", {"sector": sector, "points": points, "reason": reason, "figures": figures}
    )


def _per_figure(state: State, sector: str, kind: str, reason: str, value) -> list[Event]:
    points = [0] * state.seats
    figures = []
    for figure, feature in _partisans(state, kind):
        gain = value(figure, feature)
        points[figure.seat] += gain
        where = {"seat": figure.seat, "x": figure.pos[0], "y": figure.pos[1], "spot": figure.spot}
        figures.append({**where, "points": gain})
    return [_scored(sector, points, reason, figures)]


def fortune(state: State, seat: int) -> list[Event]:
    points = [3 if s == seat else 0 for s in range(state.seats)]
    return [_scored("fortune", points, "fortune: 3 points to the active player", [])]


def taxes(state: State, seat: int) -> list[Event]:
    def value(figure, feature) -> int:
        knights = sum(f.seat == figure.seat and f.kind in PARTISANS for f in feature.figures)
        return feature.attrs.get("shield", 0) + knights

    reason = "taxes: each knight 1 per banner in its city + 1 per knight of its owner there"
    return _per_figure(state, "taxes", "city", reason, value)


def famine(state: State, seat: int) -> list[Event]:
    reason = "famine: each farmer 1 per completed city in its field, no majority needed"
    return _per_figure(
        state, "famine", "field", reason, lambda f, feature: len(completed_cities(state, feature))
    )


def storm(state: State, seat: int) -> list[Event]:
    points = [sum(supply.get(p, 0) for p in PARTISANS) for supply in state.supply]
    return [_scored("storm", points, "storm: 1 point per follower in one's supply", [])]


def inquisition(state: State, seat: int) -> list[Event]:
    return _per_figure(
        state, "inquisition", "cloister", "inquisition: 2 points per monk", lambda f, feature: 2
    )


def plague(state: State, seat: int) -> list[Event]:
    return []  # the decisions follow the crown scoring (see turn_the_wheel)


ACTION_EVENTS = {
    "fortune": fortune,
    "taxes": taxes,
    "famine": famine,
    "storm": storm,
    "inquisition": inquisition,
    "plague": plague,
}


def _land_partisans(state: State, seat: int) -> list[dict[str, Any]]:
    return [
        {"x": f.pos[0], "y": f.pos[1], "spot": f.spot, "figure": f.kind}
        for feature in _occupied(state)
        for f in feature.figures
        if f.seat == seat and f.kind in PARTISANS
    ]


def plague_queue(state: State, seat: int) -> list[int]:
    """The seats that take back a follower, the active one first then clockwise; a seat
    with no follower on the land has nothing to take back, nor has a seat that resigned
    (its followers stay)."""
    order = [(seat + n) % state.seats for n in range(state.seats)]
    on_land = {
        f.seat for feature in _occupied(state) for f in feature.figures if f.kind in PARTISANS
    }
    return [s for s in order if s not in state.resigned and s in on_land]


def _remove_follower(
    ruleset: Carcassonne, state: State, seat: int, command: JSON, rng: random.Random
) -> list[Event]:
    x: Any  # (those of a follower of the seat, once chosen)
    y: Any
    spot: Any
    x, y, spot = command.get("x"), command.get("y"), command.get("spot")
    chosen = [
        p for p in _land_partisans(state, seat) if (p["x"], p["y"], p["spot"]) == (x, y, spot)
    ]
    if not chosen:
        raise illegal(
            RULES, "no_follower_there", f"seat {seat} has no follower at {x}, {y}, {spot}"
        )
    events = [Event("follower_removed", {"seat": seat, **chosen[0], "reason": "plague"})]
    feature = state.graph.feature(state.tile_node((x, y), spot))
    others = [f for f in feature.figures if f.seat == seat and f.kind in PARTISANS]
    if len(others) == 1:  # that was the seat's last follower there: its builder, pig go
        for f in feature.figures:
            if f.seat == seat and f.kind in ("builder", "pig"):
                where = {"x": f.pos[0], "y": f.pos[1], "spot": f.spot}
                reason = f"no follower of its owner is left on the {feature.kind.name}"
                events.append(
                    Event(
                        "figure_returned",
                        {"seat": seat, "figure": f.kind, **where, "reason": reason},
                    )
                )
    return events


def _plague_seat(state: State) -> int:
    """The plague's decisions are taken in turn: the first seat of its queue decides."""
    return _part(state)["plague"][0]


def _plague_details(state: State) -> JSON:
    return {"followers": _land_partisans(state, _plague_seat(state))}


def _plague_menu(state: State, seat: int) -> JSON:
    where = [{k: p[k] for k in ("x", "y", "spot")} for p in _land_partisans(state, seat)]
    return {"remove_follower": where}


def _plague_bot(state: State, seat: int, rng: random.Random) -> JSON:
    chosen = rng.choice(_land_partisans(state, seat))
    return {"type": "remove_follower", "x": chosen["x"], "y": chosen["y"], "spot": chosen["spot"]}


# -- crown spaces -----------------------------------------------------------------------------


def _free_crowns(state: State) -> list[tuple[str, int]]:
    return [
        (sector, space)
        for sector, spaces in _part(state)["crowns"].items()
        for space, seat in enumerate(spaces)
        if seat is None
    ]


def crown_problem(state: State, seat: int, sector: Any, space: Any) -> str | None:
    """Why ``seat`` may not put a follower on crown space ``space`` of ``sector``, or
    ``None``: the check behind ``place_on_wheel`` (its menu, :func:`crown_menu`, lists
    the free spaces when the seat has a follower, which is what this allows)."""
    crowns = _part(state)["crowns"]
    if (
        type(sector) is not str
        or sector not in crowns
        or type(space) is not int
        or not 0 <= space < len(crowns[sector])
    ):
        return "unknown_crown_space"
    if (sector, space) not in _free_crowns(state):
        return "crown_not_free"
    if state.supply[seat]["follower"] < 1:
        return "crown_needs_follower"
    return None


def crown_menu(state: State, seat: int) -> JSON:
    if state.supply[seat]["follower"] < 1:
        return {}  # crown_problem refuses every space then: spare asking it for each
    # crown_problem allows every free space to a seat with a follower in its supply
    spaces = [{"sector": sector, "space": space} for sector, space in _free_crowns(state)]
    return {"place_on_wheel": spaces} if spaces else {}


def _place_on_wheel(
    ruleset: Carcassonne, state: State, seat: int, command: JSON, rng: random.Random
) -> list[Event]:
    sector, space = command.get("sector"), command.get("space")
    problem = crown_problem(state, seat, sector, space)
    if problem == "unknown_crown_space":
        spaces = ", ".join(
            f"{name} 0-{len(held) - 1}" for name, held in _part(state)["crowns"].items() if held
        )
        raise illegal(RULES, problem, f"no crown space {space!r} in sector {sector!r}: {spaces}")
    if problem:
        where = f"crown space {space!r} of sector {sector!r}"
        raise illegal(RULES, problem, f"seat {seat} may not put a follower on {where}")
    turn = Turn(ruleset, state)
    turn.emit(Event("crown_taken", {"seat": seat, "sector": sector, "space": space}))
    # The crown is this turn's figure step: what follows one (a flock to tend) follows it.
    return ruleset.figure_step_done(turn, seat, None, None, rng)


# -- evolvers ---------------------------------------------------------------------------------


def _tile_drawn(state: State, data: dict[str, Any]) -> None:
    if "wheel" in data:
        _part(state)["drawn"].setdefault(data["tile"], []).append(data["wheel"])


def _wheel_turned(state: State, data: dict[str, Any]) -> None:
    _part(state)["pig"] = data["to"]


def _wheel_scored(state: State, data: dict[str, Any]) -> None:
    for seat, points in enumerate(data["points"]):
        state.scores[seat] += points


def _crown_scored(state: State, data: dict[str, Any]) -> None:
    crowns = _part(state)["crowns"][data["sector"]]
    for figure in data["figures"]:
        state.scores[figure["seat"]] += data["points"]
        state.supply[figure["seat"]]["follower"] += 1
        crowns[figure["space"]] = None


def _crown_taken(state: State, data: dict[str, Any]) -> None:
    _part(state)["crowns"][data["sector"]][data["space"]] = data["seat"]
    state.supply[data["seat"]]["follower"] -= 1


def _plague(state: State, data: dict[str, Any]) -> None:
    """The plague interrupts the turn before its tile is placed, which follows."""
    _part(state)["plague"] = list(data["queue"])
    state.pause(PHASE_PLAGUE, state.phase)


def _take_back(state: State, data: dict[str, Any]) -> None:
    pos = (data["x"], data["y"])
    feature = state.feature_to_change(state.tile_node(pos, data["spot"]))
    (figure,) = [
        f
        for f in feature.figures
        if f.seat == data["seat"]
        and f.pos == pos
        and f.spot == data["spot"]
        and f.kind == data["figure"]
    ]
    feature.figures.remove(figure)
    state.supply[data["seat"]][data["figure"]] += 1


def _follower_removed(state: State, data: dict[str, Any]) -> None:
    _take_back(state, data)
    queue = _part(state)["plague"]
    queue.pop(0)
    if not queue:
        state.go_on()


RULES = {
    "wheel_icon_required": "The tile drawn is a copy with a wheel icon: name it in 'wheel'.",
    "no_such_wheel_icon": "The wheel icon must be one that a copy of this tile left in the "
    "stack carries.",
    "no_follower_there": "On the Plague, each player takes back one of his followers from "
    "the land (not from the wheel).",
    "unknown_crown_space": "The wheel's crown spaces are numbered from 0 in each sector that"
    " has them.",
    "crown_not_free": "A follower goes on a free crown space of the wheel; each space holds "
    "one follower.",
    "crown_needs_follower": "A follower from its owner's supply goes on a crown space.",
}


@cache
def _module(board_json: str) -> Module:
    board = json.loads(board_json)
    names = [s["name"] for s in board["sectors"]]
    spring = board["spring"]
    (dx, dy), rotation = OUTWARD[spring["side"]]
    sx, sy = _edge_position(spring["side"], spring["index"], board["size"])
    size = board["size"]
    layout = tuple(
        {"tile": f"WF/wheel.{x}.{y}", "x": x, "y": y, "rotation": 0}
        for y in range(size)
        for x in range(size)
    )
    crowns = {s["name"]: s["crowns"] for s in board["sectors"]}
    return Module(
        name="wheel_of_fortune",
        tile_files=("wheel_of_fortune.json",),
        tile_data=(board_tiles(board),),
        layout=layout,
        attach={"x": sx + dx, "y": sy + dy, "rotation": rotation},
        draw_detail=draw_detail,
        draw_menu=draw_menu,
        after_draw=(turn_the_wheel,),
        observers={"tile_drawn": _tile_drawn},
        figure_commands={"place_on_wheel": _place_on_wheel},
        figure_menu=crown_menu,
        steps={
            PHASE_PLAGUE: Step(
                {"remove_follower": _remove_follower},
                _plague_menu,
                _plague_details,
                _plague_seat,
                _plague_bot,
            )
        },
        evolvers={
            "wheel_turned": _wheel_turned,
            "wheel_scored": _wheel_scored,
            "crown_scored": _crown_scored,
            "crown_taken": _crown_taken,
            "plague": _plague,
            "follower_removed": _follower_removed,
            "figure_returned": _take_back,
        },
        initial=lambda seats: {
            "sectors": names,
            "pig": names[0],
            "crowns": {name: [None] * n for name, n in crowns.items() if n},
            "drawn": {},
            "plague": [],
        },
        options={
            "wheel_board": {
                "type": "object",
                "default": None,
                "description": "Wheel of Fortune: a corrected wheel board (size, sectors "
                "clockwise from Fortune with their crown spaces, the terrain of each edge, "
                "where the River's spring goes) in the format of the package's "
                "data/wheel_of_fortune.json 'wheel_board'; null for the packaged board, "
                "which is PROVISIONAL.",
            }
        },
        rules=RULES,
    )


def module_for(options: Mapping[str, Any]) -> Module:
    """The module for a game's (normalised) options: its wheel board or the package's
    (asked at each game's start and fold, so the package's is read once)."""
    board = options.get("wheel_board")
    return _module(json.dumps(board, sort_keys=True)) if board else _packaged_module()


@cache
def _packaged_module() -> Module:
    return _module(json.dumps(packaged_board(), sort_keys=True))


def check_options(options: Mapping[str, Any]) -> None:
    """Raise InvalidOptions if an operator's wheel board contradicts the rulebook."""
    board = options.get("wheel_board")
    problem = None if board is None else board_problem(board)
    if problem:
        raise InvalidOptions("wheel_board", problem)


MODULE = module_for({})
