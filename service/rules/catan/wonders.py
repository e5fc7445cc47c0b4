"""The Wonders of Catan (Seafarers scenario 8): its rules, on the state's ``wonders`` slot.

The rulebook (shared/rules/catan-seafarers.fr.md, lines 629-689) adds to the Seafarers
rules:

- the set-up: no start settlement on the small islands (they are areas where no one
  starts) nor on the marked intersections: the red and purple squares and the yellow
  "!" (JSettlers' special nodes N1, N2 and N3: the desert's edge, the strait and the
  intersections beside it), :func:`marked`;
- a settlement built on a small island gives its owner a Catan chit worth 1 point,
  once per small island (each small island is an area worth 1 special point, paid by
  the Seafarers rule for a first settlement in an area);
- the five Wonder cards: a seat whose conditions for a wonder are met may start it
  (``start_wonder``), putting one of its ships from its supply on the card; the first
  seat chooses among five, the others among those left, one wonder a seat
  (:func:`start_problem`). Each of the 4 levels costs the card's five resources, and
  a seat may build several levels in a turn (``build_wonder``, :func:`build_problem`);
- no pirate (the map has none, and the robber's decision offers no ``move_pirate``);
- the end (:func:`has_won`): a seat wins during its turn when it completes its wonder
  (level 4), or when it has the target (10 points) and its wonder is further than
  every other seat's ("plus avancé que ses adversaires": strictly more levels than each
  of them; a seat without a wonder is at level 0);
- where the rulebook is silent: once nobody has started a wonder and no seat has a ship
  left to start one with, no seat can ever win; the game then ends at the end of the
  turn, won by the most points (:func:`out_of_reach`).

The cards come with the game's ``scenario`` data (from the map file), so a log
replays without the data files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from service.rules.catan.pieces import can_pay, counts_of, named

if TYPE_CHECKING:
    from service.rules.catan.state import State

#: the commands the scenario adds to the turn
COMMANDS: Final = ("start_wonder", "build_wonder")


@dataclass(frozen=True, slots=True)
class Card:
    """A Wonder card: its conditions to start it and what each level costs."""

    wonder: str
    title: Mapping[str, str]
    #: each condition one of {"cities": n, "at"?}, {"settlements": n, "at"?},
    #: {"route": n}, {"points": n}; "at" is "harbour" or a name of ``intersections``
    requires: tuple[Mapping[str, Any], ...]
    cost: tuple[int, ...]


@dataclass(slots=True)
class Wonders:
    """The cards of a game (fixed) and, per seat, its wonder and the level reached."""

    cards: Mapping[str, Card]
    levels: int
    #: name -> the intersections (corner names) a condition may name
    intersections: Mapping[str, frozenset[str]]
    #: the intersections where no start settlement goes
    no_start: frozenset[str]
    wonder: list[str | None]
    level: list[int]

    @classmethod
    def started(cls, data: Mapping[str, Any], seats: int) -> Wonders:
        """The wonders of ``game_started``'s scenario data, none started yet."""
        intersections = {k: frozenset(v) for k, v in data["intersections"].items()}
        cards = {
            card["wonder"]: Card(
                card["wonder"],
                dict(card["title"]),
                tuple(card["requires"]),
                tuple(counts_of(card["cost"])),
            )
            for card in data["cards"]
        }
        no_start = frozenset().union(*(intersections[name] for name in data["no_start"]))
        return cls(cards, data["levels"], intersections, no_start, [None] * seats, [0] * seats)

    def copy(self) -> Wonders:
        return Wonders(
            self.cards,
            self.levels,
            self.intersections,
            self.no_start,
            list(self.wonder),
            list(self.level),
        )


def wonders_part(state: State) -> Wonders:
    """The scenario's part of the state, where the game is The Wonders of Catan."""
    part = state.wonders
    assert part is not None, "not The Wonders of Catan"
    return part


def marked(state: State, corner: int) -> bool:
    """Whether the corner is a marked intersection, where no start settlement goes."""
    return state.laid().corner_names[corner] in wonders_part(state).no_start


def condition_met(state: State, seat: int, condition: Mapping[str, Any]) -> bool:
    """One condition of a card: buildings (somewhere, at a harbour or on named
    intersections), a trade route's length, or victory points. A city counts as a
    settlement: it is one, upgraded."""
    if "route" in condition:
        return state.road_length[seat] >= condition["route"]
    if "points" in condition:
        return state.points(seat) >= condition["points"]
    kind = "cities" if "cities" in condition else "settlements"
    corners = [c for c in state.buildings_of[seat] if kind == "settlements" or state.city[c]]
    at = condition.get("at")
    if at == "harbour":
        harbours = state.laid().harbours
        corners = [c for c in corners if c in harbours]
    elif at is not None:
        names, corner_names = wonders_part(state).intersections[at], state.laid().corner_names
        corners = [c for c in corners if corner_names[c] in names]
    return len(corners) >= condition[kind]


def start_problem(state: State, seat: int, wonder: object) -> str | None:
    """Why the seat may not start ``wonder`` now, or ``None``."""
    wonders = wonders_part(state)
    card = wonders.cards.get(wonder) if isinstance(wonder, str) else None
    if card is None:
        return "unknown_wonder"
    if wonders.wonder[seat] is not None:
        return "one_wonder_each"
    if wonder in wonders.wonder:
        return "wonder_taken"
    if state.pieces[seat]["ship"] < 1:
        return "no_ship_for_wonder"
    if not all(condition_met(state, seat, c) for c in card.requires):
        return "wonder_conditions"
    return None


def build_problem(state: State, seat: int) -> str | None:
    """Why the seat may not build the next level of its wonder now, or ``None``."""
    wonder = wonders_part(state).wonder[seat]
    if wonder is None:
        return "no_wonder_started"
    if not can_pay(state.hands[seat], wonders_part(state).cards[wonder].cost):
        return "cannot_afford_wonder"
    return None


def level_data(state: State, seat: int) -> dict[str, Any]:
    """The ``wonder_built`` event of the seat's next level: what it pays and reaches."""
    wonders = wonders_part(state)
    wonder = wonders.wonder[seat]
    assert wonder is not None  # build_problem has checked it
    cost = named(wonders.cards[wonder].cost)
    return {"seat": seat, "wonder": wonder, "level": wonders.level[seat] + 1, "cost": cost}


def choices(state: State, seat: int) -> list[tuple[str, Any]]:
    """The turn's wonder commands the seat may send now: ``(type, argument)``."""
    wonders = wonders_part(state)
    if wonders.wonder[seat] is None:
        return [("start_wonder", w) for w in wonders.cards if start_problem(state, seat, w) is None]
    if build_problem(state, seat) is None:
        return [("build_wonder", None)]
    return []


def has_won(state: State, seat: int) -> bool:
    """Whether ``seat`` (whose turn it is) has won: its wonder complete, or the target
    in points with a wonder strictly further than every other seat's."""
    wonders = wonders_part(state)
    level = wonders.level[seat]
    if level >= wonders.levels:
        return True
    if state.points(seat) < state.options["victory_points"]:
        return False
    return all(level > other for s, other in enumerate(wonders.level) if s != seat)


def out_of_reach(state: State) -> bool:
    """Whether no seat can ever build a level: nobody has started a wonder and no seat
    still in the game has a ship in its supply to start one with (a ship on the board
    never goes back to the supply). Then nobody can win by the scenario's rule, and the
    game ends (:data:`OUT_OF_REACH`)."""
    if any(wonder is not None for wonder in wonders_part(state).wonder):
        return False
    absent = state.agenda.absent
    return all(state.pieces[s]["ship"] == 0 for s in range(state.seats) if s not in absent)


#: ``game_ended``'s reason when no wonder can be started any more (:func:`out_of_reach`)
OUT_OF_REACH: Final = "wonders_out_of_reach"


def view(wonders: Wonders) -> dict[str, Any]:
    """The cards (conditions, cost per level) and who builds which, at what level."""
    return {
        "levels": wonders.levels,
        "cards": [
            {
                "wonder": card.wonder,
                "title": dict(card.title),
                "requires": [dict(c) for c in card.requires],
                "cost": named(card.cost),
                "seat": next((s for s, w in enumerate(wonders.wonder) if w == card.wonder), None),
            }
            for card in wonders.cards.values()
        ],
        "levels_by_seat": list(wonders.level),
        "intersections": {k: sorted(v) for k, v in wonders.intersections.items()},
    }
