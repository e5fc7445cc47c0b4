"""Traders & Builders (Marchands & Bâtisseurs): 24 tiles, goods, a builder and a pig.

Rulebook:

- **Goods.** "Le joueur qui a placé la dernière tuile (complétant ainsi cette ville)
  prend un jeton Marchandise correspondant à chaque icône": whoever completes a city
  takes one token per goods icon in it, whoever owns the city, even an empty one. At
  the end the most tokens of each good scores 10; "les joueurs ex æquo marquent tous
  10 points".
- **Builder.** Placed instead of a follower on a road or city of the tile just placed
  where the player already has a follower. Each later turn whose tile extends that
  feature gives a second tile ("il pioche immédiatement une deuxième tuile"), never a
  third. It returns with the followers when the feature is scored, never counts for a
  majority, never goes in a field.
- **Pig.** Placed instead of a follower in a field of the tile just placed where the
  player already has a farmer. At the end, a player who wins that field scores 4 per
  completed city instead of 3; the pig never counts for the majority, and a pig whose
  owner does not win the field scores nothing ("son cochon est perdu").

Builder and pig weigh 0: they never occupy a feature nor win one. The pig's extra
point is its own ``feature_scored`` event after the field's, so the field event keeps
one ``points`` value for all its winners.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from service.rules.carcassonne import figures
from service.rules.carcassonne.figures import Prospect
from service.rules.carcassonne.modules import FigureType, Module
from service.rules.carcassonne.scoring import completed_cities, sorted_tiles
from service.rules.core import Event
from service.rules.tiling.features import Feature

if TYPE_CHECKING:
    from service.rules.carcassonne.state import State

TITLE = "Traders & Builders (Marchands & Bâtisseurs)"
SUMMARY = (
    "24 tiles, 20 goods tokens (9 wine, 6 grain, 5 cloth), a builder and a pig per player. "
    "Completing a city takes its goods; the most of each good scores 10 at the end (ties "
    "all score). Extending a feature with one's builder gives a second tile that turn. A "
    "pig in a field one wins makes each completed city worth 4 instead of 3."
)
GOODS = ("wine", "grain", "cloth")


def builder(state: State, seat: int, feature: Feature | Prospect) -> str | None:
    if feature.kind.name not in ("road", "city"):
        return "builder_on_road_or_city"
    return None if figures.has_follower(feature, seat) else "builder_needs_follower"


def pig(state: State, seat: int, feature: Feature | Prospect) -> str | None:
    if feature.kind.name != "field":
        return "pig_in_field"
    return None if figures.has_follower(feature, seat) else "pig_needs_farmer"


def take_goods(state: State, seat: int) -> list[Event]:
    """After scoring: the active seat takes the goods of every city its tile completed."""
    events = []
    for root in state.completed:
        feature = state.graph.feature(root)
        goods = {good: feature.attrs[good] for good in GOODS if feature.attrs.get(good)}
        if feature.kind.name == "city" and goods:
            data = {"seat": seat, "tiles": sorted_tiles(feature), "goods": goods}
            events.append(Event("goods_taken", data))
    return events


def _goods_taken(state: State, data: dict[str, Any]) -> None:
    tokens = state.ext["traders_builders"]["goods"][data["seat"]]
    for good, count in data["goods"].items():
        tokens[good] += count


def builder_turn(state: State, seat: int) -> str | None:
    """Extra turn: this turn's tile extended a road or city holding the seat's builder
    placed on an earlier turn (one placed now stands on this turn's tile), unless this
    turn is already the second tile."""
    if state.extra or state.supply[seat]["builder"]:
        return None  # a second tile already, or the builder is not on the board
    assert state.board is not None
    assert state.placed is not None
    placed = state.board.tiles[state.placed]
    for i in range(len(placed.tile.segments)):
        feature = state.graph.feature(placed.node + i)
        figures = feature.figures  # mostly none: then no generator is made
        if figures and any(
            f.kind == "builder" and f.seat == seat and f.pos != state.placed for f in figures
        ):
            return f"builder: the tile extended the {feature.kind.name} holding the builder"
    return None


def pig_bonus(state: State) -> list[dict[str, Any]]:
    """End of game: +1 per completed city to each winner of a field holding its pig."""
    found = []
    for _, feature in sorted(state.graph.features.items()):
        if feature.kind.name != "field":
            continue
        assert state.rules is not None
        winners = state.rules.winners(state, feature.figures)
        for f in feature.figures:
            if f.kind == "pig" and f.seat in winners:
                cities = completed_cities(state, feature)
                found.append(
                    {
                        "kind": "field",
                        "at": {"x": f.pos[0], "y": f.pos[1], "spot": f.spot},
                        "complete": False,
                        "tiles": sorted_tiles(feature),
                        "figures": [
                            {
                                "seat": f.seat,
                                "figure": "pig",
                                "weight": 0,
                                "x": f.pos[0],
                                "y": f.pos[1],
                                "spot": f.spot,
                            }
                        ],
                        "winners": [f.seat],
                        "points": len(cities),
                        "reason": f"pig: +1 point x {len(cities)} completed cities",
                        "cities": [sorted_tiles(c) for c in cities],
                        "returned": False,
                    }
                )
    return found


def goods_majorities(state: State) -> list[dict[str, Any]]:
    """End of game: 10 points to every seat with the most tokens of each good."""
    tokens = state.ext["traders_builders"]["goods"]
    found = []
    for good in GOODS:
        counts = [seat_tokens[good] for seat_tokens in tokens]
        best = max(counts)
        if best:
            found.append(
                {
                    "kind": "goods",
                    "good": good,
                    "counts": counts,
                    "complete": True,
                    "tiles": [],
                    "figures": [],
                    "winners": [seat for seat, n in enumerate(counts) if n == best],
                    "points": 10,
                    "reason": f"most {good} tokens ({best}): 10 points",
                    "returned": False,
                }
            )
    return found


MODULE = Module(
    name="traders_builders",
    tile_files=("traders_builders.json",),
    figures={
        "builder": FigureType(weight=0, count=1, rule=builder),
        "pig": FigureType(weight=0, count=1, rule=pig),
    },
    after_scoring=(take_goods,),
    extra_turns=(builder_turn,),
    end_of_game=(pig_bonus, goods_majorities),
    evolvers={"goods_taken": _goods_taken},
    initial=lambda seats: {"goods": [dict.fromkeys(GOODS, 0) for _ in range(seats)]},
    rules={
        "builder_on_road_or_city": "A builder goes on a road or a city, never in a field.",
        "builder_needs_follower": "A builder goes on a road or city where the player already "
        "has a follower.",
        "pig_in_field": "A pig goes in a field.",
        "pig_needs_farmer": "A pig goes in a field where the player already has a farmer.",
    },
)
