"""What happens at the table rather than on the board, the same for every ruleset: a
seat resigns, the game is abandoned, a seat is handed to a bot and back.

These are commands like any other (so a game's record replays them) but they answer no
decision: a seat may resign at any time, and the game's owner abandons it or hands a
seat over whoever is awaited. The rules core decides them (:meth:`Ruleset.table_events`);
who may send them (the seat's token, the owning API key) is the service's business.

Events:

- ``seat_resigned {seat}``: the seat has left the game. Each ruleset folds it and says
  what follows (its figures stay; it is skipped in turn order and never awaited; with
  one seat left the game ends and that seat wins);
- ``game_abandoned {}``: the owner stopped the game; the ruleset's ``game_ended``
  follows, with no winner;
- ``seat_handed_to_bot {seat, bot}`` and ``seat_handed_back {seat}``: who plays the
  seat, a bot or its person. Nothing in the game changes, so no ruleset folds them
  (:data:`SEATING_ONLY`); :class:`Seating` does;
- ``clock`` and ``seat_timed_out``: the server's clock (:mod:`service.rules.clock`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from service.rules.clock import CLOCK, ON_TIMEOUT, SEAT_TIMED_OUT, TIME_OUT
from service.rules.shapes import (
    INT,
    SEAT,
    STR,
    Part,
    about,
    array,
    command,
    event,
    mapping,
    nullable,
    one_of,
    optional,
)

RESIGN = "resign"
ABANDON = "abandon"
HAND_TO_BOT = "hand_to_bot"
HAND_BACK = "hand_back"
#: the commands of the table, which answer no decision (``clock`` and ``time_out`` are
#: the server's: see :mod:`service.rules.clock`)
TABLE_COMMANDS = frozenset({RESIGN, ABANDON, HAND_TO_BOT, HAND_BACK, CLOCK, TIME_OUT})

SEAT_RESIGNED = "seat_resigned"
GAME_ABANDONED = "game_abandoned"
SEAT_HANDED_TO_BOT = "seat_handed_to_bot"
SEAT_HANDED_BACK = "seat_handed_back"
#: events that change who plays a seat or whether it plays on
SEAT_CHANGES = frozenset({SEAT_RESIGNED, SEAT_HANDED_TO_BOT, SEAT_HANDED_BACK})
#: events that change who plays or the clock, not the game: rulesets never fold them
SEATING_ONLY = frozenset(
    {GAME_ABANDONED, SEAT_HANDED_TO_BOT, SEAT_HANDED_BACK, CLOCK, SEAT_TIMED_OUT}
)

TABLE_RULES = {
    "resigned": "A seat that has resigned is out of the game: it sends no more commands.",
    "resign_unsupported": "This game has no resignation.",
    "unknown_seat": "A command of the table names one of the game's seats.",
    "unknown_bot": "A seat is handed to one of the ruleset's bots.",
    "bad_clock": "A clock reading gives each seat's time left and the seats it runs for.",
    "bad_timeout": "A seat out of time is handed to a bot, skips or forfeits.",
}


def is_table_command(command: Any) -> bool:
    # (a dict is by far the usual command: spared the abstract Mapping check)
    kind = command.get("type") if type(command) is dict or isinstance(command, Mapping) else None
    return isinstance(kind, str) and kind in TABLE_COMMANDS


def next_seated(seat: int, seats: int, resigned: Collection[int]) -> int:
    """The seat after ``seat`` in turn order, passing over the seats that resigned."""
    following = (seat + 1) % seats
    while following in resigned and following != seat:
        following = (following + 1) % seats
    return following


@dataclass(slots=True)
class SeatControl:
    """Who plays one seat now: ``bot`` (None: its person) and whether it has resigned.
    ``person`` says whether the seat has a person to hand back to (a seat created as a
    bot has none)."""

    bot: str | None
    person: bool
    resigned: bool = False


@dataclass(slots=True)
class Seating:
    """Who plays each seat, folded from the log over the seats the game was created
    with (a seat created for a bot is played by that bot until handed over)."""

    seats: list[SeatControl] = field(default_factory=list)
    abandoned: bool = False

    @classmethod
    def of(cls, created: Sequence[Mapping[str, Any]]) -> Seating:
        return cls([SeatControl(s.get("bot"), not s.get("bot")) for s in created])

    def copy(self) -> Seating:
        return Seating(
            [SeatControl(s.bot, s.person, s.resigned) for s in self.seats], self.abandoned
        )

    def evolve(self, event_type: str, data: Mapping[str, Any]) -> None:
        if event_type == SEAT_HANDED_TO_BOT:
            self.seats[data["seat"]].bot = data["bot"]
        elif event_type == SEAT_HANDED_BACK:
            self.seats[data["seat"]].bot = None
        elif event_type == SEAT_RESIGNED:
            self.seats[data["seat"]].resigned = True
        elif event_type == GAME_ABANDONED:
            self.abandoned = True

    def controls(self) -> list[dict[str, Any]]:
        """Who plays each seat, as JSON in seat order: ``{bot, resigned}``."""
        return [{"bot": s.bot, "resigned": s.resigned} for s in self.seats]

    def bot_of(self, seat: int) -> str | None:
        """The bot that plays ``seat`` now (None: a person, or nobody once resigned)."""
        control = self.seats[seat]
        return None if control.resigned else control.bot


#: the shapes of the table's commands and events (:mod:`service.rules.shapes`), which
#: every ruleset accepts and writes besides its own parts
TABLE_PART = Part(
    "table",
    "The table (every ruleset)",
    commands={
        RESIGN: command("The sending seat leaves the game, at any time."),
        ABANDON: command(
            "The game's owner ends the game with no winner (no seat); or the server does,"
            " when bots play 9,000 commands of one move with no person to answer."
        ),
        HAND_TO_BOT: command(
            "The game's owner hands the seat to one of the ruleset's bots.",
            {"bot": about(STR, "one of the ruleset's bots")},
        ),
        HAND_BACK: command("The game's owner hands the seat back to its person."),
        CLOCK: command(
            "The server's clock reading (games with a time control; sent by the server).",
            {
                "remaining_ms": array(nullable(INT), "each seat's time left, by seat"),
                "running": mapping(STR, "seat (as text) -> since when its clock runs"),
            },
        ),
        TIME_OUT: command(
            "The server applies a timeout to the seat (sent by the server).",
            {
                "action": one_of(*ON_TIMEOUT),
                "bot": optional(about(STR, "the bot that takes the seat over")),
            },
        ),
    },
    events={
        SEAT_RESIGNED: event("A seat left the game.", {"seat": SEAT}),
        GAME_ABANDONED: event(
            "The game's owner abandoned the game, or the server did: its bots played"
            " 9,000 commands of one move without an end."
        ),
        SEAT_HANDED_TO_BOT: event("A bot plays the seat from now on.", {"seat": SEAT, "bot": STR}),
        SEAT_HANDED_BACK: event("The seat's person plays it again.", {"seat": SEAT}),
        CLOCK: event(
            "Each seat's time left, and whose clock runs since when.",
            {
                "remaining_ms": array(nullable(INT), "each seat's time left, by seat"),
                "running": mapping(STR, "seat (as text) -> since when its clock runs"),
            },
        ),
        SEAT_TIMED_OUT: event(
            "A seat ran out of time; what follows is its game's on_timeout.",
            {"seat": SEAT, "action": one_of(*ON_TIMEOUT)},
        ),
    },
)
