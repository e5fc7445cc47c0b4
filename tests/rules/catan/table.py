"""A Catan test table: a game in external-randomness mode where the test rolls the dice,
draws the development cards and picks the stolen cards, on the beginner board (or a
board the test brings).

Everything goes through the public decider path (``apply``: decide, then fold each
event), command by command, as a client would send it. Nothing is put into a hand by
hand: resources come from production, by choosing the dice (:meth:`Table.rolls`,
:meth:`Table.gather`), and positions are built with the commands themselves.

Places are named as the rules docs name them: a hex ``"q,r"``, an intersection
``"q,r,N"`` / ``"q,r,S"``; a road is given by the two intersections it joins
(:meth:`Table.road`), so a test reads as a walk along the board.

The beginner board, as the tests use it (terrain, number)::

    row r=-2:            0,-2 mountains 10   1,-2 pasture 2    2,-2 forest 9
    row r=-1:   -1,-1 fields 12   0,-1 hills 6   1,-1 pasture 4   2,-1 hills 10
    row r= 0:  -2,0 fields 9  -1,0 forest 11  0,0 desert  1,0 forest 3  2,0 mountains 8
    row r= 1:       -2,1 forest 8   -1,1 mountains 3   0,1 fields 4   1,1 pasture 5
    row r= 2:            -2,2 hills 5    -1,2 fields 6     0,2 pasture 11
"""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

import pytest

from service.pictures import board_svg
from service.rules.catan.game import CATAN
from service.rules.catan.state import State
from service.rules.core import Event, IllegalMove
from service.rules.decisions import Decision
from service.rules.hexes.geometry import (
    corner_hexes,
    edge_between,
    edge_name,
    hex_corners,
    parse_corner,
    parse_hex,
)

RESOURCES = ("brick", "lumber", "wool", "grain", "ore")
TERRAIN_RESOURCE = {
    "hills": "brick",
    "forest": "lumber",
    "pasture": "wool",
    "fields": "grain",
    "mountains": "ore",
}

# The costs as the rulebook's building costs card gives them.
ROAD = {"brick": 1, "lumber": 1}
SETTLEMENT = {"brick": 1, "lumber": 1, "wool": 1, "grain": 1}
CITY = {"grain": 2, "ore": 3}
DEVELOPMENT = {"wool": 1, "grain": 1, "ore": 1}

#: The two-seat opening most tests start from, in snake order: (settlement, the
#: intersection its road leads to). Both seats can produce all five resources:
#:
#: - seat 0 "0,-1,N" (hills 6, mountains 10, pasture 2) and, second, "-1,-1,S"
#:   (fields 12, fields 9, forest 11): brick on 6, ore on 10, wool on 2, grain on 9 and
#:   12, lumber on 11; it starts with 2 grain and 1 lumber;
#: - seat 1 "2,-1,S" (hills 10, forest 3, mountains 8) and, second, "0,2,N"
#:   (pasture 11, fields 4, pasture 5): brick on 10, lumber on 3, ore on 8, wool on 5
#:   and 11, grain on 4; it starts with 2 wool and 1 grain.
STANDARD = (
    ("0,-1,N", "1,-2,S"),  # seat 0
    ("2,-1,S", "1,0,N"),  # seat 1
    ("0,2,N", "1,0,S"),  # seat 1, second
    ("-1,-1,S", "-1,0,N"),  # seat 0, second
)


def dice(total: int) -> list[int]:
    """Two dice that make ``total``."""
    first = min(6, total - 1)
    return [first, total - first]


def corner(hex_name: str, direction: str) -> str:
    """The canonical name of a hex's corner given by compass direction (N, NE, SE, S,
    SW, NW): the rules docs' picture, read from the hex."""
    directions = ("N", "NE", "SE", "S", "SW", "NW")
    c = hex_corners(parse_hex(hex_name))[directions.index(direction)]
    return f"{c.q},{c.r},{c.d}"


def path(a: str, b: str) -> str:
    """The canonical name of the path between two neighbouring intersections."""
    return edge_name(edge_between(parse_corner(a), parse_corner(b)))


class Table:
    """A Catan game driven command by command; the seat defaults to the first awaited."""

    def __init__(self, seats: int = 2, **options: Any) -> None:
        options = {"randomness": "external", "layout": "beginner", **options}
        self.options = CATAN.normalize_options(options)
        self.events: list[Event] = CATAN.setup(self.options, seats, random.Random(0))
        self.state: State = CATAN.fold(self.events)
        self.seats = seats

    # -- sending ---------------------------------------------------------------------

    def send(
        self,
        command: dict[str, Any],
        seat: int | None = None,
        decision: str | None = None,
        rng: random.Random | None = None,
    ) -> list[Event]:
        if seat is None:
            seat = self.awaiting()[0]["seat"]
        rng = random.Random(len(self.events)) if rng is None else rng
        new = CATAN.apply(self.state, seat, command, rng, decision)
        self.events += new
        return new

    def refused(
        self, command: dict[str, Any], seat: int | None = None, decision: str | None = None
    ) -> str:
        """The code of the IllegalMove ``command`` raises (every refusal quotes its rule);
        nothing is written."""
        return self.refusal(command, seat, decision).code

    def refusal(
        self, command: dict[str, Any], seat: int | None = None, decision: str | None = None
    ) -> IllegalMove:
        """The IllegalMove ``command`` raises, which quotes its rule; nothing is written."""
        before = len(self.events)
        view = CATAN.view(self.state, None)
        with pytest.raises(IllegalMove) as caught:
            self.send(command, seat, decision)
        assert caught.value.rule, "every refusal quotes the rule"
        assert len(self.events) == before and CATAN.view(self.state, None) == view
        return caught.value

    # -- what the table shows ----------------------------------------------------------

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return CATAN.view(self.state, seat)

    def picture(self, seat: int | None = None) -> ET.Element:
        """The board picture as ``seat`` sees it (``None``: a spectator), parsed; drawn
        from the view as the API sends it (JSON)."""
        view = json.loads(json.dumps(self.view(seat)))
        names = [f"Seat {s}" for s in range(self.seats)]
        svg = board_svg(
            "catan", view, seat=seat, names=names, version=len(self.events), options=self.options
        )
        return ET.fromstring(svg)

    def awaiting(self) -> list[dict[str, Any]]:
        return CATAN.awaiting(self.state)

    def awaited(self, proposals: bool = False) -> list[tuple[int, str]]:
        """The open decisions as ``(seat, kind)``, in the order they opened; without the
        other seats' standing chance to propose a trade to the active seat (which is
        open beside every turn) unless ``proposals``."""
        return [
            (d["seat"], d["kind"])
            for d in self.awaiting()
            if proposals or d["kind"] != "propose_trade"
        ]

    def decision(self, seat: int, kind: str) -> Decision:
        found = [d for d in CATAN.decisions(self.state) if d.seat == seat and d.kind == kind]
        assert len(found) == 1, self.awaited()
        return found[0]

    def menu(self, seat: int, kind: str | None = None) -> dict[str, Any]:
        decisions = CATAN.legal_commands(self.state, seat)["decisions"]
        found = [d for d in decisions if kind is None or d["kind"] == kind]
        assert len(found) == 1, decisions
        return found[0]["commands"]

    def hand(self, seat: int) -> Counter[str]:
        """The seat's resource cards, as its own view shows them."""
        return Counter(self.view(seat)["players"][seat]["resources"])

    def cards(self, seat: int) -> int:
        return self.view(None)["players"][seat]["cards"]

    def bank(self) -> dict[str, int]:
        return self.view(None)["bank"]

    def points(self, seat: int) -> int:
        """Public points (buildings and awards), as everyone sees them."""
        return self.view(None)["players"][seat]["points"]

    @property
    def current(self) -> int:
        return self.view(None)["current"]

    # -- the set-up ------------------------------------------------------------------

    def place(self, settlement: str, toward: str) -> list[Event]:
        """One set-up step: a settlement, and its road toward a neighbouring intersection."""
        return self.send({"type": "build_settlement", "corner": settlement}) + self.send(
            {"type": "build_road", "edge": path(settlement, toward)}
        )

    def setup(self, *placements: tuple[str, str]) -> Table:
        """The whole set-up in snake order, ``(settlement, toward)`` per step."""
        assert len(placements) == 2 * self.seats
        for settlement, toward in placements:
            self.place(settlement, toward)
        assert self.awaited() == [(0, "roll")]
        return self

    # -- turns -----------------------------------------------------------------------

    def roll(self, total: int, seat: int | None = None) -> list[Event]:
        return self.send({"type": "roll", "dice": dice(total)}, seat)

    def end_turn(self) -> list[Event]:
        return self.send({"type": "end_turn"}, self.current)

    def rolls(self, *totals: int) -> list[Event]:
        """Turn after turn, each seat in order rolls the next total (ending the turn
        before, if the seat in turn has rolled). Returns the events."""
        events = []
        for total in totals:
            if self.view()["rolled"]:
                events += self.end_turn()
            events += self.roll(total)
        return events

    def next_turn(self, seat: int) -> None:
        """End the turn under way (if rolled), then play on, each seat rolling the total
        that produces least, until ``seat``'s next turn has rolled."""
        if self.view()["rolled"]:
            self.end_turn()
        for _ in range(2 * self.seats):
            if self.current == seat and self.view()["rolled"]:
                return
            self.rolls(self.idle_total())
        raise AssertionError("the turn never came")

    def production(self, total: int) -> dict[int, Counter[str]]:
        """What each seat's buildings earn on ``total`` on this board (the robber's hex
        excepted), read from the board as printed, not from the rules code."""
        view = self.view()
        owed: dict[int, Counter[str]] = {s: Counter() for s in range(self.seats)}
        built = {b["corner"]: b for b in view["buildings"]}
        for tile in view["board"]["hexes"]:
            if tile["number"] != total or tile["hex"] == view["robber"]:
                continue
            for c in hex_corners(parse_hex(tile["hex"])):
                b = built.get(f"{c.q},{c.r},{c.d}")
                if b is not None:
                    owed[b["seat"]][TERRAIN_RESOURCE[tile["terrain"]]] += (
                        2 if b["kind"] == "city" else 1
                    )
        return owed

    def idle_total(self) -> int:
        """A total (not 7) that produces least, for turns that only pass."""
        totals = [t for t in range(2, 13) if t != 7]
        return min(totals, key=lambda t: (sum(map(len, self.production(t).values())), t))

    def gather(self, seat: int, **needs: int) -> None:
        """Roll turn after turn, each time the total that gives ``seat`` most of what it
        still lacks, until it holds ``needs`` and it is its turn, rolled."""
        for _ in range(300):
            hand = self.hand(seat)
            lacking = Counter({r: n - hand[r] for r, n in needs.items() if hand[r] < n})
            if not lacking and self.current == seat and self.view()["rolled"]:
                return
            if self.view()["rolled"]:
                self.end_turn()
            total = self._best_total(seat, lacking) if lacking else self.idle_total()
            self.roll(total)
        raise AssertionError(f"seat {seat} never gathered {needs}")

    def _best_total(self, seat: int, lacking: Counter[str]) -> int:
        """The total (not 7) that gives ``seat`` most of what it lacks, the bank allowing;
        among those, the one that gives others least."""
        bank = self.bank()

        def worth(total: int) -> tuple[int, int]:
            gains = self.production(total)
            useful = sum(min(gains[seat][r], lacking[r], bank[r]) for r in lacking)
            return (useful, -sum(sum(c.values()) for c in gains.values()))

        total = max((t for t in range(2, 13) if t != 7), key=worth)
        assert worth(total)[0] > 0, f"nothing gives seat {seat} {dict(lacking)}"
        return total

    # -- building and cards ------------------------------------------------------------

    def road(self, a: str, b: str, seat: int | None = None) -> list[Event]:
        return self.send({"type": "build_road", "edge": path(a, b)}, seat)

    def settle(self, at: str, seat: int | None = None) -> list[Event]:
        return self.send({"type": "build_settlement", "corner": at}, seat)

    def city(self, at: str, seat: int | None = None) -> list[Event]:
        return self.send({"type": "build_city", "corner": at}, seat)

    def buy(self, card: str, seat: int | None = None) -> list[Event]:
        return self.send({"type": "buy_development", "card": card}, seat)

    def build_roads(self, seat: int, *corners: str) -> list[Event]:
        """Roads along consecutive intersections, each paid for by production."""
        events = []
        for a, b in zip(corners, corners[1:], strict=False):
            self.gather(seat, **ROAD)
            events += self.road(a, b, seat)
        return events

    def buy_cards(self, seat: int, *cards: str) -> list[Event]:
        """Development cards bought in one turn, paid for by production."""
        n = len(cards)
        self.gather(seat, wool=n, grain=n, ore=n)
        return [e for card in cards for e in self.buy(card, seat)]

    def knight(self, robber_to: str, seat: int | None = None) -> list[Event]:
        """Play a knight and move the robber to a hex where nobody can be robbed."""
        return self.send({"type": "play_knight"}, seat) + self.send(
            {"type": "move_robber", "hex": robber_to}, seat
        )


def standard(**options: Any) -> Table:
    """Two seats after the :data:`STANDARD` set-up, seat 0 to roll."""
    return Table(2, **options).setup(*STANDARD)


def drawn(picture: ET.Element, name: str) -> list[ET.Element]:
    """The picture's elements of the class ``name``."""
    return [e for e in picture.iter() if name in (e.get("class") or "").split()]


def written(element: ET.Element) -> str:
    """The words an element of a picture writes, its titles left out."""
    return " ".join(t.text or "" for t in element.iter("{http://www.w3.org/2000/svg}text"))


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def only(events: list[Event], kind: str) -> Event:
    found = [e for e in events if e.type == kind]
    assert len(found) == 1, types(events)
    return found[0]


def hexes_of(at: str) -> list[str]:
    """The hexes (on or off the board) that meet at an intersection."""
    return [f"{q},{r}" for q, r in corner_hexes(parse_corner(at))]
