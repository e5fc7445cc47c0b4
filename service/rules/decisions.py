"""Pending decisions as first-class objects, and the agenda that holds them.

A game is a sequence of small decisions: place a tile, place a figure, choose a ship,
discard on a 7, answer a trade offer. Each open decision names the seat that must
make it, its kind, the commands that answer it and an ``id`` that stays the same for as
long as the decision is open. Several decisions may be open at once (every seat with
too many cards discards on a 7), and a seat may be awaited outside its own turn.

The ``id`` is what a client names when it answers a decision while other seats are
answering theirs: a command for a decision that is still open is accepted whatever
else was written meanwhile; one for a decision that has closed is refused.

:class:`Agenda` is the part of a game's state that holds open decisions and what
follows them (interrupt and resume: discards, then the robber, then the steal, then
back to the turn). It is changed only by ``evolve``, so it is folded from events like
everything else, and never written into events as a continuation.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple

JSON = dict[str, Any]


#: the details of a decision that needs none (read-only: every such decision shares it)
NO_DETAILS: Mapping[str, Any] = MappingProxyType({})


class Decision(NamedTuple):
    """One open decision.

    ``details`` is what the seat needs to know to decide (the tile to place, the
    ships offered, how many cards to discard); it is public, like the decision itself.

    A named tuple (immutable, compared field by field) rather than a frozen dataclass:
    a Catan game opens some 1,500 decisions, and a frozen dataclass costs several
    times a tuple to make.
    """

    id: str
    seat: int
    kind: str
    commands: tuple[str, ...]
    details: Mapping[str, Any] = NO_DETAILS

    def to_json(self) -> JSON:
        """The decision as ``awaiting`` lists it. ``decision`` repeats ``kind`` under
        the name clients of earlier releases read."""
        return {
            "id": self.id,
            "seat": self.seat,
            "kind": self.kind,
            "decision": self.kind,
            "commands": list(self.commands),
            **self.details,
        }


class Pending(NamedTuple):
    """A decision to open later, once the ones open now are all answered."""

    seat: int
    kind: str
    details: Mapping[str, Any] = NO_DETAILS


_tuple_new = tuple.__new__

#: decision ids by number (``_ids[n] == f"d{n}"``), made once per process and shared by
#: every game (formatting an int is a good part of opening a decision). Only ever
#: replaced by a longer table, never changed, and every entry depends on its index
#: alone, so two threads extending it at once make equal tables: no lock is needed.
_ids: tuple[str, ...] = ()
#: ids from this number on are formatted per decision (the table stays under ~4 MB)
_IDS_MAX = 1 << 16


def _decision_id(n: int) -> str:
    """``f"d{n}"``, extending the table of ids to hold it (below ``_IDS_MAX``)."""
    global _ids
    if n >= _IDS_MAX:
        return f"d{n}"
    ids = _ids
    if len(ids) <= n:
        size = min(max(2 * len(ids), n + 1, 1024), _IDS_MAX)
        _ids = ids = ids + tuple(f"d{i}" for i in range(len(ids), size))
    return ids[n]


def opened_at(decision_id: str) -> int | None:
    """How many events were folded when the decision ``decision_id`` opened (its id is
    ``d`` and that number), or ``None`` for a string that is no decision id."""
    number = decision_id[1:]
    return int(number) if decision_id[:1] == "d" and number.isascii() and number.isdigit() else None


class Agenda:
    """The open decisions of a game and the groups queued after them.

    ``answers`` maps each decision kind to the commands that answer it (the ruleset's
    table), so a decision's commands are never written twice. Ids are numbered in the
    order decisions open, which the fold makes the same for every reader of the log.
    """

    __slots__ = ("answers", "open", "queue", "opened", "absent")

    def __init__(self, answers: Mapping[str, tuple[str, ...]]) -> None:
        self.answers = answers
        self.open: list[Decision] = []
        #: groups of decisions opened together, in order, once ``open`` is empty
        self.queue: list[list[Pending]] = []
        self.opened = 0
        #: the seats that have left the game (resigned): no decision opens for them
        self.absent: frozenset[int] = frozenset()

    def copy(self) -> Agenda:
        other = Agenda(self.answers)
        other.open = list(self.open)
        other.queue = [list(group) for group in self.queue]
        other.opened = self.opened
        other.absent = self.absent
        return other

    def push(self, *pending: Pending) -> None:
        """Open these decisions now, together, beside any that are open (none for a
        seat that has left the game)."""
        answers, open_now, opened, absent = self.answers, self.open, self.opened, self.absent
        ids = _ids
        for seat, kind, details in pending:
            if absent and seat in absent:
                continue
            opened += 1
            try:
                id_ = ids[opened]
            except IndexError:  # (the table's end: a few times a process)
                id_ = _decision_id(opened)
            # details are shared, not copied: neither Pending nor Decision changes them
            decision = (id_, seat, kind, answers[kind], details)
            open_now.append(_tuple_new(Decision, decision))
        self.opened = opened

    def then(self, *pending: Pending) -> None:
        """Queue a group of decisions to open once every decision open now (and every
        group queued before) is answered; opens it at once if nothing is open."""
        if self.open or self.queue:
            self.queue.append(list(pending))
            self._advance()
        else:
            self.push(*pending)

    def interrupt(self, *groups: Sequence[Pending]) -> None:
        """Open these groups of decisions, one group after the other, in front of the
        decisions open now, which wait until they are all answered: a 7 interrupts the
        turn with the discards (several seats at once), then the robber. Empty groups
        are skipped."""
        waiting = [Pending(d.seat, d.kind, d.details) for d in self.open]
        self.open = []
        ahead = [list(group) for group in groups if group]
        self.queue[:0] = ahead + ([waiting] if waiting else [])
        self._advance()

    def close(self, decision: Decision | str) -> None:
        """The decision has been answered; open the next queued group if none is left."""
        wanted = decision if isinstance(decision, str) else decision.id
        open_now = self.open
        for i, d in enumerate(open_now):
            if d.id == wanted:
                del open_now[i]
                break
        if not open_now and self.queue:
            self._advance()

    def close_open(self) -> None:
        """Every decision open now has been answered (as closing each in turn): open the
        next queued group."""
        self.open = []
        self._advance()

    def close_open_then(self, *pending: Pending) -> None:
        """:meth:`close_open`, then :meth:`then` of ``pending`` (the end of a turn, a
        roll), without the queue's round trips when nothing is queued."""
        if self.queue:
            self.close_open()
            self.then(*pending)
        else:
            self.open = []
            self.push(*pending)

    def close_all(self) -> None:
        """Drop every open and queued decision (the game is over)."""
        self.open = []
        self.queue = []

    def leave(self, seat: int, heir: int, passed: Collection[str] = ()) -> None:
        """``seat`` has left the game: no decision opens for it again. Its open and
        queued decisions of a kind in ``passed`` (those the game cannot go on without,
        such as the first roll) go to ``heir``; the others are dropped."""
        self.absent = self.absent | {seat}

        def kept(group: Sequence[Pending]) -> list[Pending]:
            return [
                Pending(heir, p.kind, p.details) if p.seat == seat else p
                for p in group
                if p.seat != seat or p.kind in passed
            ]

        handed = [
            Pending(heir, d.kind, d.details)
            for d in self.open
            if d.seat == seat and d.kind in passed
        ]
        self.open = [d for d in self.open if d.seat != seat]
        self.queue = [kept(group) for group in self.queue]
        self.push(*handed)
        self._advance()

    def for_seat(self, seat: int) -> list[Decision]:
        return [d for d in self.open if d.seat == seat]

    def find(self, seat: int, kind: str) -> Decision | None:
        for d in self.open:
            if d.seat == seat and d.kind == kind:
                return d
        return None

    def _advance(self) -> None:
        while not self.open and self.queue:
            self.push(*self.queue.pop(0))


def single(seat: int, kind: str, opened: int, commands: Sequence[str], **details: Any) -> Decision:
    """The one decision of a game whose turns await one seat at a time, computed from the
    state rather than held in an agenda. ``opened`` is the number of events folded when
    it opened (any event closes such a decision), which makes its id unique in the game."""
    return _tuple_new(Decision, (f"d{opened}", seat, kind, tuple(commands), details))
