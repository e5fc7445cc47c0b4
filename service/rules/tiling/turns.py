"""The tile steps of a turn shared by the Carcassonne family: draw, set aside, place.

A turn starts by drawing a tile (at random from what is left, or named by the client in
external randomness mode); a tile that fits nowhere is set aside and another is drawn;
then the tile is placed where it continues every neighbour. These functions check and
word those steps; which tiles may be drawn and where a tile fits stay the game's (a
river drawn apart, extra placement rules).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from service.rules.core import Event, IllegalMove, Ruleset, Turn, illegal
from service.rules.decisions import JSON, Decision
from service.rules.seating import is_table_command
from service.rules.tiling.board import Board
from service.rules.tiling.geometry import Pos, quarter_turns
from service.rules.tiling.state import TileGameState
from service.rules.tiling.tiles import Catalogue, TileType


class TileStepError(ValueError):
    """A draw or placement the rules forbid; ``code`` is the IllegalMove code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def illegal(self, rules: Mapping[str, str]) -> IllegalMove:
        """The IllegalMove to raise, quoting the game's wording of the rule (``rules``)."""
        return illegal(rules, self.code, self.message)


def draw_random(
    tiles: Iterable[TileType], stack: Mapping[str, int], pool: int, rng: random.Random
) -> TileType:
    """A tile drawn uniformly from the ``pool`` copies that ``stack`` (counts by id)
    holds of ``tiles``."""
    pick = rng.randrange(pool)
    for tile in tiles:
        pick -= stack[tile.id]
        if pick < 0:
            return tile
    raise ValueError("the stack holds fewer tiles than the pool says")


def named_draw(catalogue: Catalogue, stack: Mapping[str, int], name: Any) -> TileType:
    """The tile a client says it drew (external randomness), if the stack still holds it."""
    tile = catalogue.get(name)
    if tile is None:
        raise TileStepError("unknown_tile", f"no tile named {name!r}")
    if stack.get(tile.id, 0) < 1:
        raise TileStepError("tile_not_in_stack", f"no {tile.name} is left in the stack")
    return tile


def drawn(
    seat: int, tile: TileType, fits: bool, details: Mapping[str, Any] | None = None
) -> list[Event]:
    """``tile_drawn`` (with the game's ``details``, such as a wheel icon), and
    ``tile_set_aside`` too when the tile ``fits`` nowhere."""
    data = {"seat": seat, "tile": tile.id}
    if details:
        data.update(details)
    events = [Event("tile_drawn", data)]
    if not fits:
        reason = "fits nowhere on the board"
        events.append(Event("tile_set_aside", {"seat": seat, "tile": tile.id, "reason": reason}))
    return events


#: a game's own reason to refuse a placement the board allows (the river's turns), or None
PlacementCheck = Callable[[TileType, Pos, int], str | None]


def placement(
    board: Board,
    tile: TileType,
    command: Mapping[str, Any],
    extra_check: PlacementCheck | None = None,
) -> tuple[Pos, int]:
    """The position and quarter turns of a ``place_tile`` command, checked on ``board``
    and then by ``extra_check``."""
    x: Any  # (an int once checked)
    y: Any
    x, y, rotation = command.get("x"), command.get("y"), command.get("rotation")
    if not (type(x) is int and type(y) is int) and not all(  # (plain ints: the usual case)
        isinstance(v, int) and not isinstance(v, bool) for v in (x, y)
    ):
        raise TileStepError("bad_command", "place_tile needs integer x and y")
    q = quarter_turns(rotation)
    if q is None:
        raise TileStepError("bad_rotation", f"rotation {rotation!r} is not 0, 90, 180 or 270")
    problem = board.problem(tile, (x, y), q)
    if not problem and extra_check is not None:
        problem = extra_check(tile, (x, y), q)
    if problem:
        raise TileStepError(problem, f"{tile.name} cannot go at {(x, y)} turned {rotation}")
    return (x, y), q


class FoldingInPlace(Ruleset):
    """:meth:`Ruleset.apply` for the tile games, folding each event once: the command's
    :class:`Turn` folds what it emits into ``state`` itself rather than into a scratch
    copy (``scratch_copy`` returns the state itself while ``state.in_place``), and the
    events a handler returns without emitting them (a tile placed) are folded after.
    Every handler refuses a command before it emits anything, so an IllegalMove still
    leaves ``state`` as it was. A command of the table takes the core's path; after any
    other, a resigned seat awaited now is played on without. The state counts the events
    folded (``folded``) and says whether a command is being worked out (``in_place``)."""

    def apply(
        self,
        state: Any,
        seat: int | None,
        command: JSON,
        rng: random.Random,
        decision_id: str | None = None,
    ) -> list[Event]:
        if is_table_command(command):
            return super().apply(state, seat, command, rng, decision_id)
        decision = self.answered(state, seat, command, decision_id)
        folded = state.folded
        state.in_place = True
        try:
            events = self.handle(state, decision, command, rng)
        except IllegalMove as error:
            if state.folded != folded:  # a handler broke the rule above: say so loudly
                raise RuntimeError(
                    f"{command['type']} was refused after some of its events were folded"
                ) from error
            raise
        finally:
            state.in_place = False
        for event in events[state.folded - folded :]:
            self.evolve(state, event)
        if state.resigned and self.awaits_resigned(state):
            events = [*events, *self.moved_on(state, rng)]
        return events


class SeatsLeaving(Ruleset):
    """What the tile games do alike with seats that resign or run out of time: the
    seat count, the seats gone (``TileGameState.resigned``), whether the one decision
    open now is one of theirs, and moving past such decisions one by one, each passed
    as the game says (:meth:`pass_decision`)."""

    def pass_decision(
        self, turn: Turn, decision: Decision, reason: str, rng: random.Random
    ) -> None:
        """Move past ``decision`` with its seat doing nothing (for ``reason``)."""
        raise NotImplementedError

    def play_on(self, turn: Turn, rng: random.Random) -> None:
        """The game goes on without the seats that resigned: while the open decision is
        one of theirs, it is passed."""
        for _ in range(8 * turn.state.seats):
            found = self.decisions(turn.state)
            if not found or found[0].seat not in turn.state.resigned:
                return
            self.pass_decision(turn, found[0], "its seat resigned", rng)

    def skip(self, turn: Turn, seat: int, rng: random.Random) -> None:
        """A seat out of time misses its turn, as a resigned seat's turn ends."""
        for _ in range(8 * turn.state.seats):
            found = self.decisions(turn.state)
            if not found or found[0].seat != seat:
                return
            self.pass_decision(turn, found[0], "its seat ran out of time", rng)

    def seat_count(self, state: TileGameState) -> int:
        return state.seats

    def resigned_seats(self, state: TileGameState) -> tuple[int, ...]:
        return state.resigned

    def awaits_resigned(self, state: TileGameState) -> bool:
        found: Sequence[Decision] = self.decisions(state) if state.resigned else ()
        return bool(found) and found[0].seat in state.resigned
