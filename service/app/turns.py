"""Turns starting, derived from the log for webhooks (``turn_started``).

No ruleset logs a "turn started" event: a turn starts inside the events of the command
that ended the one before (Carcassonne's ``tile_drawn`` after ``turn_ended``, Catan's
next seat simply being awaited to roll), and the set-up rounds of Catan have no turn
events at all. So the notice is derived the same way for every ruleset, from who is
awaited: a seat starts a turn when a command leaves it awaited and it was not awaited
before that command, or when the command's ``turn_ended`` names it as the next seat
(a seat playing again, as with Carcassonne's builder). "Awaited" counts every open
decision, so a seat asked to act outside its own turn (a discard on a 7, an answer to
a trade offer) gets a notice too: whatever the reason, it must act now, and the notice
lists the decisions it must make.

Commands are the steps: the moving seat's, then each bot's answer. The notice follows
the last event of the command that started the turn (its ``seq``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.rules.core import Event, Ruleset
from service.store.webhooks import Notice

TURN_STARTED = "turn_started"


class TurnWatch:
    """Follows who is awaited, command by command, while a write is prepared, and
    collects a ``turn_started`` notice for each turn that starts."""

    def __init__(
        self, ruleset: Ruleset, seats: Sequence[dict[str, Any]], state: Any | None
    ) -> None:
        """From ``state``, the game before the first command watched (None: before the
        game has begun, nobody awaited)."""
        self.ruleset = ruleset
        self.seats = seats
        self.awaited = set()
        if state is not None:
            self.awaited = {decision.seat for decision in ruleset.decisions(state)}
        self.notices: list[Notice] = []

    def step(self, state: Any, events: Sequence[Event], last_seq: int) -> None:
        """After one command: ``state`` with its ``events`` folded in, the last of them
        at ``last_seq``."""
        decisions = self.ruleset.decisions(state)
        awaited = {decision.seat for decision in decisions}
        again = {e.data.get("next") for e in events if e.type == "turn_ended"}
        for seat in sorted(awaited):
            if seat in self.awaited and seat not in again:
                continue
            data = {
                "seat": seat,
                "name": self.seats[seat].get("name"),
                "bot": self.seats[seat].get("bot"),
                "decisions": [d.to_json() for d in decisions if d.seat == seat],
            }
            self.notices.append(Notice(last_seq, TURN_STARTED, seat, data))
        self.awaited = awaited
