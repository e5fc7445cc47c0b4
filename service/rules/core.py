"""The decider protocol that every ruleset implements.

A game is a log of events. Its state is ``fold(ruleset, events)``: nothing else is
ever the truth. A ruleset is a *decider*:

- :meth:`Ruleset.setup` turns options and a seat count into the genesis events;
- :meth:`Ruleset.evolve` folds one event into the state (never fails on a valid log,
  never draws randomness);
- :meth:`Ruleset.decide` checks one command from one seat and returns the events it
  causes, or raises :class:`IllegalMove`;
- :meth:`Ruleset.awaiting`, :meth:`Ruleset.legal_commands`, :meth:`Ruleset.view` and
  :meth:`Ruleset.redact` answer what clients ask about a state.

This module knows nothing about HTTP, JSON transport or databases: it is a library a
client can use to rebuild a game from its events.

Ownership: ``evolve`` may update the state it is given in place and return it (as
python-chess's ``Board.push`` does), because copying a board per event would dominate
the cost of a game. A caller that needs the earlier state keeps a
:meth:`Ruleset.copy_state` of it. ``decide``, ``legal_commands``, ``awaiting`` and
``view`` never modify the state.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

JSON = dict[str, Any]
State = TypeVar("State")

#: Where random outcomes come from: drawn by the server from the game's secret seed,
#: or sent by a client as commands and checked against what is still possible.
RANDOMNESS_MODES = ("internal", "external")


@dataclass(frozen=True, slots=True)
class Event:
    """One consequence of a command, as stored in the log.

    ``visible_to`` is ``None`` for a public event. Otherwise it lists the seats that may
    read the whole event; every other viewer (other seats and spectators) gets what
    :meth:`Ruleset.redact` leaves of it.
    """

    type: str
    data: JSON = field(default_factory=dict)
    visible_to: tuple[int, ...] | None = None

    def is_visible_to(self, seat: int | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)


class RulesError(Exception):
    """Base of every error the rules core raises on bad input."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule


class IllegalMove(RulesError):
    """A command that the rules forbid in this state.

    ``code`` is a stable machine word (``not_your_turn``, ``tile_does_not_fit``...);
    ``message`` says what is wrong; ``rule`` quotes the rule that forbids it.
    """


class InvalidOptions(RulesError):
    """Game options or a seat count that the ruleset does not accept.

    ``field`` names the option at fault.
    """

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__("invalid_options", message)
        self.field = field_name


def checked_options(table: Mapping[str, JSON], options: Mapping[str, Any]) -> JSON:
    """``options`` checked against a ruleset's option ``table`` (as ``describe`` shows it)
    and completed with its defaults, in the table's order; an array comes back in its
    ``items`` order. Raises :class:`InvalidOptions` naming the option at fault."""
    unknown = sorted(set(options) - set(table))
    if unknown:
        raise InvalidOptions(unknown[0], f"unknown option {unknown[0]!r}")
    result: JSON = {}
    for name, spec in table.items():
        value = options.get(name, spec["default"])
        if spec["type"] == "array":
            if not isinstance(value, list | tuple) or not all(
                isinstance(item, str) and item in spec["items"] for item in value
            ):
                raise InvalidOptions(name, f"{name} must be a list drawn from {spec['items']}")
            value = [item for item in spec["items"] if item in value]
        elif spec["type"] == "object":
            if value is not None and not isinstance(value, Mapping):
                raise InvalidOptions(name, f"{name} must be an object or null")
        elif not (isinstance(value, bool) if spec["type"] == "boolean" else value in spec["enum"]):
            raise InvalidOptions(name, f"{name} must be {spec.get('enum', 'a boolean')}")
        result[name] = value
    return result


class _HashStream(random.Random):
    """A :class:`random.Random` whose bits come from SHA-256 in counter mode.

    The key is HMAC-SHA256(seed, seq as 8 big-endian bytes). Block ``i`` is
    SHA-256(key || i as 8 big-endian bytes), read as a big-endian
    integer; bits are taken from the low end of the blocks, in order. ``random()`` is
    ``getrandbits(53) / 2**53``, and every other draw of :class:`random.Random`
    (``randrange``, ``choice``, ``shuffle``, ``sample``, ``choices``...) is built on
    those two, so the stream is fully specified. It replaces seeding a Mersenne Twister
    per command, which cost more than deciding most moves. Only draws are supported.
    """

    def __init__(self, seed: bytes, seq: int) -> None:
        # random.Random.__init__ would seed a Mersenne Twister; nothing here uses one.
        # The key is made at the first draw: most commands draw nothing.
        self._seed = seed
        self._seq = seq
        self._key = b""
        self._block = 0
        self._bits = 0
        self._count = 0

    def getrandbits(self, k: int, /) -> int:
        if not self._key:
            self._key = hmac.digest(self._seed, self._seq.to_bytes(8, "big"), "sha256")
        while self._count < k:
            block = hashlib.sha256(self._key + self._block.to_bytes(8, "big")).digest()
            self._bits |= int.from_bytes(block, "big") << self._count
            self._block += 1
            self._count += 256
        drawn = self._bits & ((1 << k) - 1)
        self._bits >>= k
        self._count -= k
        return drawn

    def random(self) -> float:
        return self.getrandbits(53) * 2.0**-53

    def seed(self, *args: object, **kwargs: object) -> None:
        raise TypeError("a game's random stream is fixed by its seed and seq")

    def getstate(self) -> tuple:
        raise TypeError("a game's random stream has no Mersenne Twister state")


def rng_for(seed: bytes, seq: int) -> random.Random:
    """The deterministic random source for the command that will write event ``seq``.

    HMAC-SHA256(seed, seq as 8 big-endian bytes) keys the SHA-256 counter stream of
    :class:`_HashStream`; so each step draws independent outcomes that nobody
    can predict without the seed and everybody can check once it is published.
    """
    return _HashStream(seed, seq)


def bot_rng_for(seed: bytes, seq: int) -> random.Random:
    """The random source of a bot choosing the command that will write event ``seq``.

    Derived from the game's seed but apart from :func:`rng_for`, so that bots' choices
    never shift the game's own draws; with it, a seed replays a bot game exactly.
    """
    return rng_for(hashlib.sha256(b"bots" + seed).digest(), seq)


class Ruleset(ABC, Generic[State]):
    """A game's rules as a decider. Subclasses are stateless singletons."""

    #: stable identifier used in URLs and records, e.g. ``"carcassonne"``
    name: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]

    # -- catalogue -------------------------------------------------------------

    @abstractmethod
    def describe(self) -> JSON:
        """What ``GET /v1/rulesets`` shows: options with types, defaults and meaning,
        expansions, seat counts, command shapes."""

    def description(self, options: JSON, commands: JSON, expansions: Sequence[JSON] = ()) -> JSON:
        """A :meth:`describe` answer: the class attributes (name, title, seats, bots)
        with the ruleset's ``options``, ``commands`` and ``expansions``."""
        return {
            "name": self.name,
            "title": self.title,
            "seats": {"min": self.min_seats, "max": self.max_seats},
            "options": options,
            "expansions": list(expansions),
            "bots": list(self.bots),
            "commands": commands,
        }

    @abstractmethod
    def normalize_options(self, options: Mapping[str, Any]) -> JSON:
        """Validate options and fill in defaults; raise :class:`InvalidOptions`.

        The result always has ``"randomness"`` set to one of :data:`RANDOMNESS_MODES`.
        """

    # -- the decider -----------------------------------------------------------

    @abstractmethod
    def setup(self, options: JSON, seats: int, rng: random.Random) -> list[Event]:
        """The genesis events for a new game (options already normalised)."""

    @abstractmethod
    def initial_state(self) -> State:
        """The state before the first event."""

    @abstractmethod
    def evolve(self, state: State, event: Event) -> State:
        """Fold one event into the state; may update ``state`` in place."""

    @abstractmethod
    def decide(self, state: State, seat: int, command: JSON, rng: random.Random) -> list[Event]:
        """Check ``command`` sent by ``seat`` and return the events it causes.

        Raises :class:`IllegalMove` (with ``code == "not_your_turn"`` when the seat is
        not awaited). Draws any randomness from ``rng`` and writes the outcome into the
        events.
        """

    @abstractmethod
    def copy_state(self, state: State) -> State:
        """An independent copy, for callers that keep an earlier state."""

    # -- questions about a state -------------------------------------------------

    @abstractmethod
    def awaiting(self, state: State) -> list[JSON]:
        """The pending decisions: ``[{"seat": 0, "decision": "place_tile", ...}]``.

        Empty once the game is over.
        """

    @abstractmethod
    def legal_commands(self, state: State, seat: int) -> JSON:
        """Every command ``seat`` may send now, compactly (the client's menu)."""

    @abstractmethod
    def view(self, state: State, seat: int | None) -> JSON:
        """The state as ``seat`` (or a spectator, ``None``) may see it."""

    def redact(self, event: Event, seat: int | None) -> JSON:
        """The data of ``event`` as ``seat`` may see it. Public events pass whole;
        rulesets with secrets override this to say what an outsider may learn."""
        return event.data if event.is_visible_to(seat) else {}

    @abstractmethod
    def is_over(self, state: State) -> bool:
        """True once the game has ended (final scoring done)."""

    @abstractmethod
    def result(self, state: State) -> JSON:
        """Scores so far and, once over, the winners."""

    # -- bots ------------------------------------------------------------------

    #: names of the bots this ruleset provides, e.g. ``("random", "greedy")``
    bots: ClassVar[tuple[str, ...]] = ()

    def bot_command(self, state: State, seat: int, bot: str, rng: random.Random) -> JSON:
        """The command bot ``bot`` sends for ``seat`` now (seat must be awaited)."""
        raise IllegalMove("unknown_bot", f"{self.name} has no bot named {bot!r}")

    # -- conveniences built on the protocol ------------------------------------

    def fold(self, events: Iterable[Event]) -> State:
        state = self.initial_state()
        for event in events:
            state = self.evolve(state, event)
        return state
