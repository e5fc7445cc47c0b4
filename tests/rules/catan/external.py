"""Replaying a game played with internal randomness in external randomness: the commands
``play_game`` applied, recorded with their events, and each command with the outcomes the
server drew for it (read from those events) put in it, as a client of an external
randomness game sends them (docs/rulesets/catan.md and catan-seafarers.md, "External
randomness")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.rules.catan.state import State
from service.rules.core import Event, Ruleset


class Recording:
    """The ruleset, recording every command ``play_game`` applies with its events."""

    def __init__(self, ruleset: Ruleset[State]) -> None:
        self.ruleset = ruleset
        self.steps: list[tuple[int | None, dict[str, Any], list[Event]]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.ruleset, name)

    def apply(self, state: State, seat: int | None, command: Any, rng: Any) -> list[Event]:
        events = self.ruleset.apply(state, seat, command, rng)
        self.steps.append((seat, command, events))
        return events


def _field(name: str) -> Callable[[list[Event]], Any]:
    """The outcome is the first such event's ``name`` (one per command)."""
    return lambda events: events[0].data.get(name)


def _plunder(events: list[Event]) -> Any:
    """The Pirate Islands: seat -> the cards the fleet took from it, per seat it beat."""
    lost = {str(e.data["seat"]): e.data["lost"] for e in events if "lost" in e.data}
    return lost or None


def _reveal(events: list[Event]) -> Any:
    """The Fog Islands: each space turned up, in the order of the events (reading order)."""
    return [{k: e.data[k] for k in ("hex", "terrain", "number")} for e in events]


def _types(events: list[Event]) -> Any:
    """The New World: the harbour types, in the order the markers were placed."""
    harbours = events[0].data.get("harbours")
    return None if harbours is None else [h["type"] for h in harbours]


_STOLEN = ("card_stolen", "resource", _field("resource"))
_FOG = ("hex_revealed", "reveal", _reveal)

#: where each outcome the server draws goes in a command of an external randomness game:
#: command type -> (the event that shows it, the command's field, how to read it from
#: the command's events of that type; ``None``: nothing to send)
OUTCOMES: dict[str, tuple[tuple[str, str, Callable[[list[Event]], Any]], ...]] = {
    "roll": (("dice_rolled", "dice", _field("dice")), ("pirates_attacked", "plunder", _plunder)),
    # (The Pirate Islands' deck counts its victory point cards as knights: it says knight)
    "buy_development": (("development_bought", "card", _field("card")),),
    "move_robber": (_STOLEN,),
    "move_pirate": (_STOLEN,),
    "steal": (_STOLEN,),
    "build_road": (_FOG,),
    "build_ship": (_FOG, ("gift_taken", "card", _field("card"))),
    "move_ship": (_FOG,),
    "attack_fortress": (("fortress_attacked", "die", _field("die")),),
    "place_harbour": (("harbour_placed", "types", _types),),
}


def external(command: dict[str, Any], events: list[Event]) -> dict[str, Any]:
    """``command`` with the outcomes the server drew for it (in ``events``) in it."""
    sent = command
    for shown, field, read in OUTCOMES.get(command["type"], ()):
        matching = [e for e in events if e.type == shown]
        value = read(matching) if matching else None
        if value is not None:
            sent = {**sent, field: value}
    return sent


def without_salts(events: list[Event]) -> list[tuple[str, dict[str, Any]]]:
    return [(e.type, {k: v for k, v in e.data.items() if k != "salt"}) for e in events]
