"""Hills & Sheep (Moutons & Collines): 18 tiles, a shepherd each, 18 sheep and wolf tokens.

Rulebook:

- **Hills.** "Si un joueur pioche une tuile Colline, il pioche immédiatement une autre
  tuile (sans la regarder) et la place sous la tuile Colline": the tile under it is out
  of play (``tile_hidden``, which nobody sees whole: see ``Carcassonne.secrets``); the
  last tile of the game goes without one. On a tie for a
  feature, "le joueur ayant un partisan qui occupe une tuile Colline, parmi les joueurs
  à égalité, remporte la victoire": option ``hill_tiebreak`` ``"any"`` (the rulebook:
  every tied player with at least one follower on a hill still wins, the others lose)
  or ``"most"`` (the variant the reference names: the tied players with the most
  followers on hills win).
- **Vineyards.** A completed cloister scores 3 more per vineyard among its 8
  neighbours; nothing at the end.
- **Shepherd.** Placed in a field of the tile just placed instead of a follower, also
  where a farmer stands, never where another shepherd stands; it draws a token at once
  (a wolf sends it home). Each time its owner places a tile that extends its field, the
  owner chooses, before placing a figure ("avant de pouvoir placer un partisan", this
  box's rulebook; option ``flock_timing: after_figure`` for the later rulebooks'
  "after"), to grow (draw a token) or to gather (every shepherd in the field
  scores 1 per sheep in it, the tokens go back to the bag, the shepherds home). A wolf
  loses the field's whole flock. A field closed all round gathers at once. Shepherds
  score nothing at the end and never count for a majority (weight 0).

Tokens: 4x one sheep, 5x two, 5x three, 2x four, 2 wolves, drawn from the game's seed or,
with external randomness, sent by the active seat as ``draw_sheep`` commands. Hills and
vineyards are features that take no figure (tile data ``hill``, ``vineyard``).
"""

from __future__ import annotations

import random
from functools import cache
from typing import TYPE_CHECKING, Any

from service.rules.carcassonne.figures import Prospect
from service.rules.carcassonne.modules import (
    PHASE_END,
    PHASE_FIGURE,
    FigureType,
    Module,
    Score,
    Scoring,
    Step,
)
from service.rules.carcassonne.scoring import sorted_tiles
from service.rules.core import JSON, Event, Turn, illegal
from service.rules.tiling.features import Feature, Figure
from service.rules.tiling.geometry import OFFSETS, Pos, around
from service.rules.tiling.tiles import TileType

if TYPE_CHECKING:
    from service.rules.carcassonne.game import Carcassonne
    from service.rules.carcassonne.state import State

TITLE = "Hills & Sheep (Moutons & Collines)"
SUMMARY = (
    "18 tiles (8 hills, 8 vineyards), a shepherd per player and 18 sheep and wolf tokens. "
    "A tile goes blind under each hill, and a follower on a hill wins a tie; a completed "
    "cloister scores 3 more per neighbouring vineyard; shepherds grow or gather flocks."
)
TOKENS = {"1": 4, "2": 5, "3": 5, "4": 2, "wolf": 2}
WOLF = "wolf"
PHASE_TEND = "tend_flock"
PHASE_SHEEP = "draw_sheep"
ACTIONS = ("grow", "gather")
CLOSED = "flock gathered, its field is closed"


@cache
def has_kind(tile: TileType, kind: str) -> bool:
    return any(segment.kind.name == kind for segment in tile.segments)


# -- hills --------------------------------------------------------------------------------


def is_hill(tile: TileType) -> bool:
    return has_kind(tile, "hill")


def hill_tiebreak(state: State, figures: list[Figure], tied: list[int]) -> list[int]:
    """Among tied seats, those with followers on hill tiles win (see the module doc)."""
    assert state.board is not None
    tiles = state.board.tiles
    on_hills = dict.fromkeys(tied, 0)
    for f in figures:
        if f.weight and f.seat in on_hills and is_hill(tiles[f.pos].tile):
            on_hills[f.seat] += 1
    if state.options["hill_tiebreak"] == "most":
        best = max(on_hills.values())
        winners = [seat for seat in tied if best and on_hills[seat] == best]
    else:
        winners = [seat for seat in tied if on_hills[seat]]
    return winners or tied


# -- vineyards ----------------------------------------------------------------------------


def cloister(state: State, feature: Feature, replaced: Scoring | None) -> Score:
    assert replaced is not None  # (it replaces the base game's scorer)
    score = replaced(state, feature)
    if not feature.complete:
        return score
    (pos,) = feature.tiles
    assert state.board is not None
    tiles = state.board.tiles
    vineyards = sum(has_kind(tiles[p].tile, "vineyard") for p in around(pos) if p in tiles)
    if not vineyards:
        return score
    reason = f"{score.reason} + 3 x {vineyards} vineyards"
    return Score(score.points + 3 * vineyards, reason, {**score.details, "vineyards": vineyards})


# -- shepherds and flocks -----------------------------------------------------------------


def shepherd(state: State, seat: int, feature: Feature | Prospect) -> str | None:
    if feature.kind.name != "field":
        return "shepherd_in_field"
    figures = feature.figures  # mostly none: then no generator is made
    if figures and any(f.kind == "shepherd" for f in figures):
        return "field_has_shepherd"
    return None


def _key(x: int, y: int, spot: str) -> str:
    return f"{x},{y},{spot}"


def _flocks(state: State) -> dict[str, dict[str, Any]]:
    return state.ext["hills_sheep"]["flocks"]


def _shepherds_in(state: State, root: int) -> list[tuple[str, dict[str, Any]]]:
    """The flocks whose shepherd stands in the field whose root is ``root``."""
    graph = state.graph
    return [
        (key, flock)
        for key, flock in sorted(_flocks(state).items())
        if graph.find(state.tile_node((flock["x"], flock["y"]), flock["spot"])) == root
    ]


def _draw(state: State, rng: random.Random) -> str:
    bag = state.ext["hills_sheep"]["bag"]
    tokens = [token for token, n in bag.items() if n]
    return rng.choices(tokens, [bag[t] for t in tokens])[0]


def _field_end(
    state: State, root: int, new: dict[str, Any] | None, token: str | None
) -> tuple[list[dict[str, Any]], list[str]]:
    """The shepherds of a field and every token its flock holds, counting a shepherd
    (``new``) and a token not yet folded into the state."""
    shepherds = [dict(flock, sheep=list(flock["sheep"])) for _, flock in _shepherds_in(state, root)]
    if new is not None and all(_key(s["x"], s["y"], s["spot"]) != new["key"] for s in shepherds):
        shepherds.append(
            {"seat": new["seat"], "x": new["x"], "y": new["y"], "spot": new["spot"], "sheep": []}
        )
    tokens = [str(n) for s in shepherds for n in s["sheep"]]
    if token is not None:
        tokens.append(token)
    figures = [{"seat": s["seat"], "x": s["x"], "y": s["y"], "spot": s["spot"]} for s in shepherds]
    return figures, tokens


def _gather(state: State, root: int, new: dict | None, token: str | None, why: str) -> Event:
    """Every shepherd of the field scores its tokens' sheep and the sheep painted on its
    tiles (the River's meadows: they stay, and may score again)."""
    shepherds, tokens = _field_end(state, root, new, token)
    field = state.graph.features[root]
    painted = field.attrs.get("sheep", 0)
    sheep = sum(int(t) for t in tokens) + painted
    return Event(
        "flock_scored",
        {
            "kind": "flock",
            "tiles": sorted_tiles(field),
            "shepherds": shepherds,
            "tokens": tokens,
            "painted": painted,
            "sheep": sheep,
            "winners": sorted({s["seat"] for s in shepherds}),
            "points": sheep,
            "reason": f"{why}: 1 point x {sheep} sheep",
        },
    )


def _after_draw(state: State, seat: int, new: dict[str, Any], token: str) -> list[Event]:
    """``sheep_drawn`` and what it causes: a wolf loses the field's flock; in a field
    closed all round, the flock is gathered at once."""
    events = [Event("sheep_drawn", {"seat": seat, **_where(new), "token": token})]
    root = state.graph.find(new["node"])
    if token == WOLF:
        shepherds, tokens = _field_end(state, root, new, token)
        events.append(
            Event(
                "flock_lost",
                {
                    "tiles": sorted_tiles(state.graph.features[root]),
                    "shepherds": shepherds,
                    "tokens": tokens,
                    "reason": "a wolf: the flock is lost, the shepherds go home",
                },
            )
        )
    elif state.graph.features[root].open == 0:
        events.append(_gather(state, root, new, token, CLOSED))
    return events


def _where(new: dict[str, Any]) -> dict[str, Any]:
    return {"x": new["x"], "y": new["y"], "spot": new["spot"]}


def _own_shepherd(state: State, seat: int) -> dict[str, Any] | None:
    if state.supply[seat]["shepherd"]:
        return None  # still in the supply: asked after every tile, so spare the search
    for key, flock in _flocks(state).items():
        if flock["seat"] == seat:
            node = state.tile_node((flock["x"], flock["y"]), flock["spot"])
            return {"key": key, "seat": seat, "node": node, **_where(flock)}
    return None


def after_figure_step(
    ruleset: Carcassonne,
    turn: Turn[State],
    seat: int,
    figure: str | None,
    node: int | None,
    rng: random.Random,
) -> None:
    """After the figure step: a shepherd just placed draws a token at once (or awaits
    ``draw_sheep``); with ``flock_timing: after_figure``, a seat whose tile extended its
    shepherd's field tends its flock now, before the turn's scoring."""
    state = turn.state
    if figure != "shepherd":
        if state.options["flock_timing"] != "after_figure":
            return
        own = _own_shepherd(state, seat)
        if own and state.placed in state.graph.feature(own["node"]).tiles:
            turn.emit(Event("flock_to_tend", {"seat": seat, **_where(own)}))
        return
    assert state.placed is not None and node is not None  # (a shepherd just placed)
    x, y = state.placed
    assert state.board is not None
    placed = state.board.tiles[state.placed]
    spot = placed.tile.spots[placed.q][node - placed.node]
    new = {"key": _key(x, y, spot), "seat": seat, "node": node, "x": x, "y": y, "spot": spot}
    if state.options["randomness"] == "external":
        turn.emit(Event("sheep_due", {"seat": seat, **_where(new)}))
    else:
        turn.emit(*_after_draw(state, seat, new, _draw(state, rng)))


def extended_flock(state: State, seat: int, tile: TileType, pos: Pos, q: int) -> list[Event]:
    """After tile: the seat must tend its flock if the tile extends its shepherd's field
    (``flock_timing: before_figure``, this box's rulebook)."""
    if state.options["flock_timing"] != "before_figure":
        return []
    own = _own_shepherd(state, seat)
    if own is None:
        return []
    root = state.graph.find(own["node"])
    field = state.graph.features[root].tiles
    x, y = pos
    if field.isdisjoint([(x + dx, y + dy) for dx, dy in OFFSETS]):
        return []  # the usual case, told without looking at the tile's connections
    assert state.board is not None
    for link, other in state.board.connections(pos, tile, q):
        if tile.segments[link.segment].kind.name == "field" and state.graph.find(other) == root:
            return [Event("flock_to_tend", {"seat": seat, **_where(own)})]
    return []


def gather_closed_fields(state: State, seat: int) -> list[Event]:
    """After scoring: flocks in fields this turn closed all round are gathered."""
    roots = []
    for flock in _flocks(state).values():
        root = state.graph.find(state.tile_node((flock["x"], flock["y"]), flock["spot"]))
        if state.graph.features[root].open == 0 and root not in roots:
            roots.append(root)
    return [_gather(state, root, None, None, CLOSED) for root in roots]


# -- the steps: tend the flock, draw a sheep (external randomness) ---------------------------


def _tend(
    ruleset: Carcassonne, state: State, seat: int, command: JSON, rng: random.Random
) -> list[Event]:
    action = command.get("action")
    if action not in ACTIONS:
        raise illegal(RULES, "bad_flock_action", f"action must be one of {ACTIONS}")
    own = _own_shepherd(state, seat)
    assert own is not None  # (the flock to tend is the seat's shepherd's)
    turn = Turn(ruleset, state)
    if action == "gather":
        turn.emit(_gather(state, state.graph.find(own["node"]), None, None, "flock gathered"))
    elif state.options["randomness"] == "external":
        turn.emit(Event("sheep_due", {"seat": seat, **_where(own)}))
    else:
        turn.emit(*_after_draw(state, seat, own, _draw(state, rng)))
    return _tended(ruleset, turn, seat, action, rng)


def _tokens(state: State) -> dict[str, int]:
    """The tokens still in the bag, with how many of each: what a draw may take."""
    return {token: n for token, n in state.ext["hills_sheep"]["bag"].items() if n}


def _draw_sheep(
    ruleset: Carcassonne, state: State, seat: int, command: JSON, rng: random.Random
) -> list[Event]:
    token = command.get("token")
    bag = _tokens(state)
    if not isinstance(token, str) or token not in bag:
        left = ", ".join(f'"{name}"' for name in bag)
        raise illegal(
            RULES, "token_not_in_bag", f"no token {token!r} is in the bag; it holds {left}"
        )
    due = state.ext["hills_sheep"]["due"]
    node = state.tile_node((due["x"], due["y"]), due["spot"])
    new = {"key": _key(due["x"], due["y"], due["spot"]), "seat": seat, "node": node, **due}
    turn = Turn(ruleset, state)
    turn.emit(*_after_draw(state, seat, new, token))
    return _tended(ruleset, turn, seat, "grow", rng)


def _tended(
    ruleset: Carcassonne, turn: Turn[State], seat: int, action: str, rng: random.Random
) -> list[Event]:
    """Once the flock is gathered or its token drawn, the tending is over
    (``flock_tended``); then the turn goes on where the tending interrupted it."""
    if turn.state.phase == PHASE_TEND:
        turn.emit(Event("flock_tended", {"seat": seat, "action": action}))
    return ruleset.go_on(turn, seat, rng)


def _tend_menu(state: State, seat: int) -> JSON:
    return {"tend_flock": {"action": list(ACTIONS)}}


def _tend_details(state: State) -> JSON:
    return {**state.ext["hills_sheep"]["tending"], "actions": list(ACTIONS)}


def _sheep_menu(state: State, seat: int) -> JSON:
    return {"draw_sheep": {"tokens": _tokens(state)}}


def _tend_bot(state: State, seat: int, rng: random.Random) -> JSON:
    return {"type": "tend_flock", "action": rng.choice(ACTIONS)}


def _sheep_bot(state: State, seat: int, rng: random.Random) -> JSON:
    return {"type": "draw_sheep", "token": _draw(state, rng)}


# -- evolvers ------------------------------------------------------------------------------


def _sheep_due(state: State, data: dict[str, Any]) -> None:
    """A token to draw: for the flock being tended (the tending goes on), or for a
    shepherd just placed (the turn ends)."""
    state.ext["hills_sheep"]["due"] = _where(data)
    state.pause(PHASE_SHEEP, PHASE_TEND if state.phase == PHASE_TEND else PHASE_END)


def _sheep_drawn(state: State, data: dict[str, Any]) -> None:
    part = state.ext["hills_sheep"]
    part["bag"][data["token"]] -= 1
    part["due"] = None
    key = _key(data["x"], data["y"], data["spot"])
    flock = part["flocks"].setdefault(
        key,
        {"seat": data["seat"], "x": data["x"], "y": data["y"], "spot": data["spot"], "sheep": []},
    )
    if data["token"] != WOLF:
        flock["sheep"].append(int(data["token"]))
    if state.phase == PHASE_SHEEP:
        state.go_on()


def _flock_ends(state: State, data: dict[str, Any]) -> None:
    part = state.ext["hills_sheep"]
    for token in data["tokens"]:
        part["bag"][token] += 1
    for s in data["shepherds"]:
        part["flocks"].pop(_key(s["x"], s["y"], s["spot"]), None)
        feature = state.feature_to_change(state.tile_node((s["x"], s["y"]), s["spot"]))
        feature.figures = [
            f
            for f in feature.figures
            if not (f.kind == "shepherd" and f.pos == (s["x"], s["y"]) and f.spot == s["spot"])
        ]
        state.supply[s["seat"]]["shepherd"] += 1


def _flock_scored(state: State, data: dict[str, Any]) -> None:
    for seat in data["winners"]:
        state.scores[seat] += data["points"]
    _flock_ends(state, data)


def _flock_to_tend(state: State, data: dict[str, Any]) -> None:
    """The flock to tend interrupts the turn: before the figure step (this box's
    rulebook), which follows; or after it, and the turn's end follows."""
    state.ext["hills_sheep"]["tending"] = _where(data)
    before = state.options["flock_timing"] == "before_figure"
    state.pause(PHASE_TEND, PHASE_FIGURE if before else PHASE_END)


def _flock_tended(state: State, data: dict[str, Any]) -> None:
    state.ext["hills_sheep"]["tending"] = None
    state.go_on()


def _without_then(data: dict[str, Any]) -> dict[str, Any]:
    """Rules version 1 wrote what follows into ``flock_to_tend`` and ``sheep_due``
    (``then``); the fold now works it out from the state."""
    return {k: v for k, v in data.items() if k != "then"}


#: (rules version, event type) -> its upcaster to the next version
UPCASTERS = {(1, "flock_to_tend"): _without_then, (1, "sheep_due"): _without_then}


RULES = {
    "shepherd_in_field": "A shepherd goes in a field.",
    "field_has_shepherd": "A shepherd may not go in a field where another shepherd stands.",
    "bad_flock_action": "When you extend your shepherd's field, you grow the flock (draw a "
    "token) or gather it (score it).",
    "token_not_in_bag": "Sheep and wolf tokens are drawn from those still in the bag.",
}

MODULE = Module(
    name="hills_sheep",
    tile_files=("hills_sheep.json",),
    figures={"shepherd": FigureType(weight=0, count=1, rule=shepherd)},
    scorers={"cloister": cloister},
    hides_under=is_hill,
    tie_break=hill_tiebreak,
    after_tile=(extended_flock,),
    after_figure=(after_figure_step,),
    after_scoring=(gather_closed_fields,),
    steps={
        PHASE_TEND: Step({"tend_flock": _tend}, _tend_menu, _tend_details, bot=_tend_bot),
        PHASE_SHEEP: Step({"draw_sheep": _draw_sheep}, _sheep_menu, bot=_sheep_bot),
    },
    evolvers={
        "sheep_due": _sheep_due,
        "sheep_drawn": _sheep_drawn,
        "flock_scored": _flock_scored,
        "flock_lost": _flock_ends,
        "flock_to_tend": _flock_to_tend,
        "flock_tended": _flock_tended,
    },
    initial=lambda seats: {"bag": dict(TOKENS), "flocks": {}, "due": None, "tending": None},
    options={
        "flock_timing": {
            "type": "string",
            "enum": ["before_figure", "after_figure"],
            "default": "before_figure",
            "description": "Hills & Sheep: when a tile extends your shepherd's field, you "
            "tend the flock before placing a figure ('before_figure', this box's rulebook) "
            "or after it ('after_figure', the later German and English rulebooks).",
        },
        "hill_tiebreak": {
            "type": "string",
            "enum": ["any", "most"],
            "default": "any",
            "description": "Hills & Sheep: on a tie, 'any' (the rulebook) lets every tied "
            "player with a follower on a hill win and the others lose; 'most' lets the tied "
            "players with the most followers on hills win.",
        },
    },
    rules=RULES,
)
