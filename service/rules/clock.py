"""Time controls: the referee's clock beside the board, the same for every ruleset.

A game created with the option ``clock`` gives each seat a time budget: ``per_move``
(seconds for each move, from the moment the seat is awaited: everything it sends while
it stays awaited is one move) and/or ``total`` (seconds for the whole game, with
``increment`` added after each of its moves). What happens to
a seat whose time runs out is ``on_timeout``: ``bot`` (the seat is handed to ``bot``),
``skip`` (it misses what it was awaited for: its turn passes) or ``forfeit`` (it
resigns).

The clock is kept by the server from its own transaction times, and written into the
log: after every write to a clocked game, a ``clock`` event says each seat's remaining
total time as of that event's ``recorded_at`` and, for each seat whose clock runs now,
since when it has been waiting. So a client reads every seat's time from the events
alone (the last ``clock`` event and its ``recorded_at``), and a replay has the same
events. A seat whose time ran out gets ``seat_timed_out {seat, action}`` and then what
the action does. This module is pure: the caller passes the times.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

CLOCK = "clock"
TIME_OUT = "time_out"
SEAT_TIMED_OUT = "seat_timed_out"
ON_TIMEOUT = ("bot", "skip", "forfeit")
#: the longest budget accepted, in seconds (30 days): more is no clock
LONGEST = 30 * 24 * 3600
#: the shortest move time accepted, in seconds: a shorter one runs out while the
#: server still writes the move before it, and the seats time out one after another
SHORTEST_MOVE = 0.5


class TimeControlError(ValueError):
    """An option ``clock`` that is not a valid time control."""


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A game's time control, in milliseconds."""

    per_move_ms: int | None
    total_ms: int | None
    increment_ms: int
    on_timeout: str
    bot: str | None

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> TimeControl | None:
        """The time control of normalised game options, if they have one."""
        clock = options.get("clock")
        if clock is None:
            return None
        return cls(
            _ms(clock["per_move"]),
            _ms(clock["total"]),
            _ms(clock["increment"]) or 0,
            clock["on_timeout"],
            clock["bot"],
        )


def _ms(seconds: float | None) -> int | None:
    return None if seconds is None else round(seconds * 1000)


def normalize_clock(value: Any, bots: Sequence[str]) -> dict[str, Any] | None:
    """The option ``clock`` checked and completed, or None for no clock:
    ``{per_move, total, increment, on_timeout, bot}`` with times in seconds (numbers,
    fractions allowed), at least one of ``per_move`` and ``total``; ``bot`` defaults to
    the ruleset's first bot when ``on_timeout`` is ``bot``."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise TimeControlError("clock must be an object or null")
    unknown = sorted(set(value) - {"per_move", "total", "increment", "on_timeout", "bot"})
    if unknown:
        raise TimeControlError(f"clock has no field {unknown[0]!r}")
    times = {}
    for name in ("per_move", "total", "increment"):
        seconds = value.get(name)
        if seconds is not None and (
            isinstance(seconds, bool)
            or not isinstance(seconds, int | float)
            or not 0 < seconds <= LONGEST
        ):
            raise TimeControlError(f"clock.{name} must be seconds, above 0 and at most {LONGEST}")
        times[name] = seconds
    if times["per_move"] is None and times["total"] is None:
        raise TimeControlError("clock needs per_move or total (seconds)")
    for name in ("per_move", "total"):  # (a total is spent on a move at least)
        time = times[name]
        if time is not None and time < SHORTEST_MOVE:
            raise TimeControlError(f"clock.{name} must be at least {SHORTEST_MOVE} seconds")
    if times["increment"] is not None and times["total"] is None:
        raise TimeControlError("clock.increment adds to a total: give total")
    on_timeout = value.get("on_timeout", "forfeit")
    if on_timeout not in ON_TIMEOUT:
        raise TimeControlError(f"clock.on_timeout must be one of {list(ON_TIMEOUT)}")
    bot = value.get("bot")
    if on_timeout == "bot":
        bot = bots[0] if bot is None and bots else bot
        if bot not in bots:
            raise TimeControlError(f"clock.bot must be one of {list(bots)}")
    elif bot is not None:
        raise TimeControlError("clock.bot is for on_timeout: bot")
    return {**times, "on_timeout": on_timeout, "bot": bot}


@dataclass(frozen=True, slots=True)
class Clocks:
    """The last ``clock`` event: each seat's remaining total time (ms, None without a
    total) as of ``at`` (its ``recorded_at``), and since when each running seat waits."""

    remaining_ms: tuple[int | None, ...]
    running: Mapping[int, datetime]
    at: datetime

    @classmethod
    def read(cls, data: Mapping[str, Any], at: datetime) -> Clocks:
        running = {int(s): datetime.fromisoformat(t) for s, t in data["running"].items()}
        return cls(tuple(data["remaining_ms"]), running, at)

    @staticmethod
    def started(control: TimeControl, seats: int) -> tuple[int | None, ...]:
        """Each seat's budget before its first move."""
        return (control.total_ms,) * seats

    def deadline(self, control: TimeControl, seat: int) -> datetime | None:
        """When ``seat``'s time runs out, if its clock runs."""
        since = self.running.get(seat)
        if since is None:
            return None
        ends = []
        if control.per_move_ms is not None:
            ends.append(since + timedelta(milliseconds=control.per_move_ms))
        left = self.remaining_ms[seat]
        if left is not None:
            ends.append(self.at + timedelta(milliseconds=left))
        return min(ends)

    def total_spent(self, seat: int, now: datetime) -> bool:
        """Whether ``seat``'s time for the whole game is gone at ``now`` (it runs down
        from the reading while the seat waits)."""
        left = self.remaining_ms[seat]
        if left is None:
            return False
        return left - (_elapsed_ms(self.at, now) if seat in self.running else 0) <= 0

    def next_deadline(self, control: TimeControl) -> datetime | None:
        """When the first running seat's time runs out (None if no clock runs): the
        game row keeps it, so that the sweep finds the games that are due."""
        deadlines = [
            deadline
            for seat in self.running
            if (deadline := self.deadline(control, seat)) is not None
        ]
        return min(deadlines, default=None)

    def overdue(self, control: TimeControl, now: datetime) -> list[int]:
        """The running seats whose time has run out at ``now``, the first to run out
        first (then by seat): that one's timeout comes first, whoever is read late."""
        due = [
            (deadline, seat)
            for seat in self.running
            if (deadline := self.deadline(control, seat)) is not None and now >= deadline
        ]
        return [seat for _, seat in sorted(due)]

    def shown(self, control: TimeControl, now: datetime) -> list[dict[str, Any]]:
        """Each seat's clock as a client sees it at ``now``: ``remaining_ms`` (total
        left, None without a total), ``move_remaining_ms`` (left for the move under way,
        None unless the clock runs and there is a per-move limit) and ``running``."""
        shown = []
        for seat, left in enumerate(self.remaining_ms):
            since = self.running.get(seat)
            move = None
            if since is not None:
                if left is not None:
                    left = max(0, left - _elapsed_ms(self.at, now))
                if control.per_move_ms is not None:
                    move = max(0, control.per_move_ms - _elapsed_ms(since, now))
            shown.append(
                {
                    "seat": seat,
                    "remaining_ms": left,
                    "move_remaining_ms": move,
                    "running": since is not None,
                }
            )
        return shown


def charged(
    control: TimeControl,
    before: Clocks | None,
    seats: int,
    now: datetime,
    awaited: Collection[int],
    movers: Collection[int],
    timed_out: Collection[int] = (),
) -> dict[str, Any]:
    """The data of the ``clock`` event that ends a write at ``now``: the seats whose
    clock ran since ``before`` are charged the time that passed, those that moved
    (``movers``) get the increment, and the clocks of the ``awaited`` seats run from
    now (or from when they began waiting, for a seat that waits on and did not move).
    A seat whose wait a timeout just ended (``timed_out``: skipped, or its move made by
    a bot) waits afresh from now if it is awaited again, with no increment."""
    if before is None:
        remaining = list(Clocks.started(control, seats))
        running_before: Mapping[int, datetime] = {}
    else:
        remaining = list(before.remaining_ms)
        running_before = before.running
        spent = _elapsed_ms(before.at, now)
        for seat in running_before:
            left = remaining[seat]
            if left is not None:
                remaining[seat] = max(0, left - spent)
    for seat in movers:
        left = remaining[seat]
        if left is not None and seat in running_before:
            remaining[seat] = left + control.increment_ms
    running = {
        str(seat): (
            running_before[seat]
            if seat in running_before and seat not in movers and seat not in timed_out
            else now
        ).isoformat()
        for seat in sorted(awaited)
    }
    return {"remaining_ms": remaining, "running": running}


def _elapsed_ms(since: datetime, now: datetime) -> int:
    return max(0, round((now - since).total_seconds() * 1000))
