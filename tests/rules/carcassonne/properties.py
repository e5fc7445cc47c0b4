"""The watch of a Carcassonne game's invariants, the base game's and the expansions'."""

from __future__ import annotations

from collections import Counter

from service.rules.carcassonne import CARCASSONNE
from service.rules.carcassonne.expansions.hills_sheep import TOKENS, WOLF
from service.rules.carcassonne.state import State
from tests.rules.properties import Watch


class CarcassonneWatch(Watch):
    """Tiles hidden under hills count as out of play; followers on the wheel's crown
    spaces are in play; sheep go back to the bag; goods and supplies never go negative."""

    ruleset = CARCASSONNE

    def tiles_accounted(self, state: State) -> int:
        return super().tiles_accounted(state) + len(state.hidden)

    def figures_held(self, state: State) -> Counter[tuple[int, str]]:
        held = self.on_board(state)
        for seat, supply in enumerate(state.supply):
            for kind, n in supply.items():
                assert n >= 0
                held[seat, kind] += n
        wheel = state.ext.get("wheel_of_fortune")
        if wheel:
            for spaces in wheel["crowns"].values():
                for seat in spaces:
                    if seat is not None:
                        held[seat, "follower"] += 1
        return held

    def scores(self, state: State) -> list[int]:
        return list(state.scores)

    def check(self, state: State) -> None:
        sheep = state.ext.get("hills_sheep")
        if sheep:
            assert min(sheep["bag"].values()) >= 0
            bag = dict(sheep["bag"])
            for flock in sheep["flocks"].values():
                for n in flock["sheep"]:
                    bag[str(n)] += 1
            assert bag == {**TOKENS, WOLF: bag[WOLF]} and 0 <= bag[WOLF] <= TOKENS[WOLF]
        traders = state.ext.get("traders_builders")
        if traders:
            assert min(min(goods.values()) for goods in traders["goods"]) >= 0
