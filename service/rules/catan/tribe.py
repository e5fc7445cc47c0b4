"""The Forgotten Tribe (Seafarers scenario 5, "Les bons voisins"): the gifts of the
small islands' people, and where the robber and settlements may not go.

Rules (shared/rules/catan-seafarers.fr.md, lines 394-455):

- the start settlements go on the big central island (a ship may replace the set-up
  road at a coastal one, as in every scenario); no settlement is ever built on the
  small islands, which carry no number token and produce nothing;
- the robber starts on a random desert (the three deserts lie on the small islands),
  never goes onto the small islands and, once it has left its starting desert, never
  returns to it; the pirate starts on the marked sea;
- gifts lie on coast paths of the small islands: 8 Catan chits, the top 4 development
  cards (set aside face down at the start) and the 6 harbour markers (laid face down,
  shuffled, then turned up). The first seat to *build* a ship on such a path takes the
  gift (a ship moved there takes nothing: "construire un bateau"):

  - a chit is 1 victory point;
  - a development card is the seat's, as if bought: not played the turn it is taken,
    a victory point card hidden until the end, its identity as secret as a bought one;
  - a harbour marker is placed at once on a coast path one of whose ends holds one of
    the seat's settlements or cities; with no such path free the seat keeps it, and the
    placing opens right after the seat's next settlement that gives it one. At most one
    harbour per sea hex, never two on a path (stacked); a placed harbour works at once;
- the game ends when a seat has 13 victory points during its own turn.

The set-aside development cards are drawn when a gift is taken, from every card not
yet seen (the deck and the cards on the paths together): each is a uniform draw
among the unseen cards either way, so the game is the same as with the four set aside
at the start, and no secret has to sit in the public ``game_started``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from service.rules.catan.board import HARBOUR_TYPES, SEA
from service.rules.catan.layout import layout_of
from service.rules.catan.pieces import take_development
from service.rules.core import Event, secret_salt
from service.rules.decisions import Pending
from service.rules.hexes.geometry import Hex, corner_name, edge_corners, hex_name, parse_hex

if TYPE_CHECKING:
    from service.rules.catan.state import State

#: the gifts that are not harbour markers (a marker is named by its harbour type)
CHIT, DEVELOPMENT = "chit", "development"

RULES: Final = {
    "settlement_on_small_island": "The Forgotten Tribe: no settlement is built on the "
    "small islands.",
    "robber_on_small_island": "The Forgotten Tribe: the robber never goes onto the small islands.",
    "robber_back_to_desert": "The Forgotten Tribe: once the robber has left its starting "
    "desert it never returns to it.",
    "harbour_not_beside_settlement": "The Forgotten Tribe: a harbour marker goes on a coast "
    "path one of whose ends holds one of the player's settlements or cities.",
    "harbour_taken": "The Forgotten Tribe: harbour markers are never stacked: one per path.",
    "one_harbour_per_sea_hex": "The Forgotten Tribe: at most one harbour per sea hex.",
}


@dataclass(slots=True)
class Tribe:
    """The scenario's part of the state (``State.tribe``)."""

    #: the big island's hexes: where settlements and the robber may go
    main: frozenset[Hex]
    #: the desert the robber started on (it never returns there)
    robber_start: Hex | None
    #: path index -> the gift still lying there (CHIT, DEVELOPMENT or a harbour type)
    gifts: dict[int, str]
    #: per seat: chits taken (1 victory point each)
    chits: list[int]
    #: per seat: harbour markers taken and not placed yet, in the order taken
    held: list[list[str]]

    def copy(self) -> Tribe:
        return Tribe(
            self.main,
            self.robber_start,
            dict(self.gifts),
            list(self.chits),
            [list(h) for h in self.held],
        )


def tribe_part(state: State) -> Tribe:
    """The scenario's part of the state, where the game is The Forgotten Tribe."""
    part = state.tribe
    assert part is not None, "not The Forgotten Tribe"
    return part


# -- the set-up -----------------------------------------------------------------------


def deal(data: Mapping[str, Any], rng: random.Random, *, shuffle: bool) -> dict[str, Any]:
    """The gifts for ``game_started``'s scenario: the file's paths, the harbour markers'
    types shuffled over the markers' paths with ``shuffle`` (laid face down, then turned
    up), else in the file's order."""
    gifts = [dict(g) for g in data["gifts"]]
    markers = [g for g in gifts if g["gift"] in HARBOUR_TYPES]
    types = [g["gift"] for g in markers]
    if shuffle:
        rng.shuffle(types)
    for gift, kind in zip(markers, types, strict=True):
        gift["gift"] = kind
    return {"gifts": gifts}


def start(state: State) -> None:
    """The board is laid: the gifts go on their paths, the development cards among them
    leave the deck (they are not for sale), the robber's desert is noted."""
    layout, scenario = state.laid(), state.seafarers()
    edge_by_name = layout.edge_by_name
    gifts = {edge_by_name[g["edge"]]: g["gift"] for g in scenario["tribe"]["gifts"]}
    main = frozenset(parse_hex(h) for a in scenario["areas"] if a["start"] for h in a["hexes"])
    state.tribe = Tribe(
        main, state.robber, gifts, [0] * state.seats, [[] for _ in range(state.seats)]
    )
    state.deck_left -= sum(1 for g in gifts.values() if g == DEVELOPMENT)


# -- rules ----------------------------------------------------------------------------


def settlement_problem(state: State, corner: int) -> str | None:
    """No settlement on the small islands: the corner must touch the big island."""
    main = tribe_part(state).main
    if any(h in main for h in state.laid().grid.corner_hexes[corner]):
        return None
    return "settlement_on_small_island"


def robber_problem(state: State, target: Hex) -> str | None:
    """The robber never returns to its starting desert, nor goes onto the small islands."""
    tribe = tribe_part(state)
    if target == tribe.robber_start:
        return "robber_back_to_desert"
    if target not in tribe.main:
        return "robber_on_small_island"
    return None


def gift_taken(state: State, seat: int, edge: int, card: str | None, rng: random.Random) -> Event:
    """The gift on ``edge`` goes to ``seat``, which just built a ship there; ``card`` is
    the development card it turns out to be (a secret of the seat's, as a bought card,
    salted as one)."""
    data: dict[str, Any] = {
        "seat": seat,
        "edge": state.laid().edge_names[edge],
        "gift": tribe_part(state).gifts[edge],
    }
    if card is None:
        return Event("gift_taken", data)
    return Event("gift_taken", {**data, "card": card, "salt": secret_salt(rng)}, (seat,))


def gift_points(event: Event) -> int:
    """The victory points a gift brings at once: a chit, or a victory point card."""
    return int(event.data["gift"] == CHIT or event.data.get("card") == "victory_point")


def harbour_problem(state: State, seat: int, edge: int) -> str | None:
    """Why the seat may not place its harbour marker on ``edge`` (``None`` if it may)."""
    layout = state.laid()
    grid, board = layout.grid, layout.board
    if not board.is_coast(edge):
        return "harbour_not_on_coast"
    corners = grid.edge_corners[edge]
    if not any(state.owner[c] == seat for c in corners):
        return "harbour_not_beside_settlement"
    if any(harbour.edge == grid.edges[edge] for harbour in board.harbours):
        return "harbour_taken"
    taken = {
        h
        for harbour in board.harbours
        for h in grid.edge_hexes[grid.edge_index[harbour.edge]]
        if board.hexes[h].terrain == SEA
    }
    if any(h in taken for h in grid.edge_hexes[edge]):
        return "one_harbour_per_sea_hex"
    return None


def harbour_places(state: State, seat: int) -> list[int]:
    """Every path where the seat may place a harbour marker now."""
    grid = state.laid().grid
    candidates = {e for c in state.buildings_of[seat] for e in grid.corner_edges[c]}
    return sorted(e for e in candidates if harbour_problem(state, seat, e) is None)


def harbour_placed(state: State, seat: int, edge: int) -> Event:
    """The seat's first held marker placed on ``edge`` (already checked)."""
    data = {
        "seat": seat,
        "edge": state.laid().edge_names[edge],
        "type": tribe_part(state).held[seat][0],
    }
    return Event("harbour_marker_placed", data)


def view(state: State) -> dict[str, Any]:
    """What everyone sees: the gifts still on their paths (a development card face
    down), the chits and the harbour markers each seat holds."""
    tribe, names = tribe_part(state), state.laid().edge_names
    return {
        "gifts": [{"edge": names[e], "gift": g} for e, g in sorted(tribe.gifts.items())],
        "chits": list(tribe.chits),
        "harbours_held": [list(h) for h in tribe.held],
        "robber_start": None if tribe.robber_start is None else hex_name(tribe.robber_start),
    }


# -- evolvers ---------------------------------------------------------------------------


def offer_harbour(state: State, seat: int) -> None:
    """Open the placing of the seat's first held marker if it has a place for it now
    (after it takes one, places one, or builds a settlement)."""
    held = tribe_part(state).held[seat]
    if held and harbour_places(state, seat):
        details = {"harbour": held[0]}
        state.agenda.interrupt([Pending(seat, "place_harbour", details)])


def _gift_taken(state: State, data: dict[str, Any]) -> None:
    seat, gift = data["seat"], data["gift"]
    tribe = tribe_part(state)
    del tribe.gifts[state.laid().edge_by_name[data["edge"]]]
    if gift == CHIT:
        tribe.chits[seat] += 1
    elif gift == DEVELOPMENT:
        take_development(state, seat, data.get("card"))
    else:
        tribe.held[seat].append(gift)
        offer_harbour(state, seat)


def _harbour_marker_placed(state: State, data: dict[str, Any]) -> None:
    seat, kind = data["seat"], data["type"]
    state.answered(seat, "place_harbour")
    tribe_part(state).held[seat].remove(kind)
    layout = state.laid()
    corners = edge_corners(layout.grid.edges[layout.edge_by_name[data["edge"]]])
    board = layout.board.to_json()
    board["harbours"].append({"type": kind, "corners": [corner_name(c) for c in corners]})
    state.layout = layout = layout_of(board)
    for c in (layout.grid.corner_index[c] for c in corners):
        if state.owner[c] == seat:  # it works at once
            state.rates[seat] = layout.rates_with(state.rates[seat], c)
    offer_harbour(state, seat)


EVOLVERS: Final = {
    "gift_taken": _gift_taken,
    "harbour_marker_placed": _harbour_marker_placed,
}

__all__ = ["CHIT", "DEVELOPMENT", "EVOLVERS", "RULES", "Tribe"]
