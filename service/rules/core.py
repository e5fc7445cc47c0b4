"""The decider protocol that every ruleset implements.

A game is a log of events. Its state is ``fold(ruleset, events)``: nothing else is
ever the truth. A ruleset is a *decider*:

- :meth:`Ruleset.setup` turns options and a seat count into the genesis events;
- :meth:`Ruleset.evolve` folds one event into the state (never fails on a valid log,
  never draws randomness);
- :meth:`Ruleset.decisions` lists the open decisions (:class:`Decision`: seat, kind,
  id, the commands that answer it);
- :meth:`Ruleset.decide` checks one command from one seat and returns the events it
  causes, or raises :class:`IllegalMove`. What every ruleset refuses the same way (a
  finished game, an unknown command, a seat nobody awaits, a command that answers no
  open decision) is refused here, once; the ruleset's :meth:`Ruleset.handle` sees only
  a command that answers one of its open decisions;
- :meth:`Ruleset.apply` decides and folds: the one path by which the service, the
  validator, bot games and tests move a game on;
- :meth:`Ruleset.menu`, :meth:`Ruleset.legal_commands`, :meth:`Ruleset.view` and
  :meth:`Ruleset.redact` answer what clients ask about a state.

Secrets are declared per event type (:attr:`Ruleset.secrets`) beside the fold, and
events carry the rules version they were written under (``game_started.rules_version``):
:meth:`Ruleset.upcast` turns an older event into the current shape before it is folded.

This module knows nothing about HTTP, JSON transport or databases: it is a library a
client can use to rebuild a game from its events.

Ownership: ``evolve`` may update the state it is given in place and return it (as
python-chess's ``Board.push`` does), because copying a board per event would dominate
the cost of a game. A caller that needs the earlier state keeps a
:meth:`Ruleset.copy_state` of it. ``decide``, ``legal_commands``, ``decisions`` and
``view`` never change the game a state holds (a ruleset may memoise what it derives
from it, keyed so that a fold invalidates the memo).
"""

from __future__ import annotations

import hashlib
import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from functools import cache, lru_cache
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar

from service.rules.clock import CLOCK, SEAT_TIMED_OUT, TIME_OUT
from service.rules.decisions import JSON, Decision
from service.rules.seating import (
    ABANDON,
    GAME_ABANDONED,
    HAND_TO_BOT,
    RESIGN,
    SEAT_HANDED_BACK,
    SEAT_HANDED_TO_BOT,
    SEAT_RESIGNED,
    SEATING_ONLY,
    TABLE_PART,
    TABLE_RULES,
    is_table_command,
)
from service.rules.shapes import INT, Part, Shape, merged
from service.rules.shapes import event as event_shape

State = TypeVar("State")

#: Where random outcomes come from: drawn by the server from the game's secret seed,
#: or sent by a client as commands and checked against what is still possible.
RANDOMNESS_MODES = ("internal", "external")


class _EventFields(NamedTuple):
    type: str
    data: JSON
    visible_to: tuple[int, ...] | None


class Event(_EventFields):
    """One consequence of a command, as stored in the log.

    ``visible_to`` is ``None`` for a public event. Otherwise it lists the seats that may
    read the whole event; every other viewer (other seats and spectators) gets what
    :meth:`Ruleset.redact` leaves of it.

    ``Event(type, data={}, visible_to=None)``: an immutable named tuple, compared field
    by field (a frozen dataclass cost twice as much to make, and a game makes
    thousands).
    """

    __slots__ = ()

    def __new__(
        cls, type: str, data: JSON | None = None, visible_to: tuple[int, ...] | None = None
    ) -> Event:
        return _tuple_new(cls, (type, {} if data is None else data, visible_to))

    def is_visible_to(self, seat: int | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)


_tuple_new = tuple.__new__


#: the longest message a refusal carries: one that quotes a client's value (an unknown
#: command type, a bad name) is cut there, so a huge value is not sent back whole
MESSAGE_LIMIT = 500


class RulesError(Exception):
    """Base of every error the rules core raises on bad input."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        if len(message) > MESSAGE_LIMIT:
            message = message[: MESSAGE_LIMIT - 1] + "…"
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule


class IllegalMove(RulesError):
    """A command that the rules forbid in this state.

    ``code`` is a stable machine word (``not_your_turn``, ``tile_does_not_fit``...);
    ``message`` says what is wrong; ``rule`` quotes the rule that forbids it.
    """


#: The event that marks where a log written under an older rules version goes on in the
#: current one (see :meth:`Ruleset.upcast_log`).
RULES_UPGRADED = "rules_upgraded"

#: the shape of :data:`RULES_UPGRADED`, which any ruleset's log may hold
RULES_UPGRADED_SHAPE = event_shape(
    "The events after this one were written under a newer rules version.",
    {"from": INT, "to": INT},
)

#: The rules every ruleset enforces the same way, in plain words; a ruleset's own
#: :attr:`Ruleset.rules` may word them for its game.
CORE_RULES: dict[str, str] = {
    "game_over": "No move is made once the game has ended.",
    "unknown_command": "Only the commands the ruleset describes are accepted.",
    "not_your_turn": "Only a seat that is awaited may act.",
    "unexpected_command": "A command must answer one of the decisions open now.",
    "decision_closed": "A command that names a decision must answer one that is still open.",
    "bad_command": "The command is missing a field or has one of the wrong type.",
    **TABLE_RULES,
}


def illegal(rules: Mapping[str, str], code: str, message: str) -> IllegalMove:
    """The :class:`IllegalMove` for ``code``, quoting the rule as ``rules`` word it (or
    as :data:`CORE_RULES` does)."""
    return IllegalMove(code, message, rules.get(code) or CORE_RULES.get(code))


class InvalidOptions(RulesError):
    """Game options or a seat count that the ruleset does not accept.

    ``field`` names the option at fault.
    """

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__("invalid_options", message)
        self.field = field_name


def checked_options(table: Mapping[str, Mapping[str, Any]], options: Mapping[str, Any]) -> JSON:
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
        elif not (
            isinstance(value, bool) if spec["type"] == "boolean" else _listed(value, spec["enum"])
        ):
            raise InvalidOptions(name, f"{name} must be {spec.get('enum', 'a boolean')}")
        result[name] = value
    return result


def _listed(value: Any, enum: list[Any]) -> bool:
    """``value`` is one of ``enum``, of its type too: ``True`` and ``1.0`` equal ``1`` in
    Python but not in the JSON a game's log keeps."""
    return any(value == item and type(value) is type(item) for item in enum)


#: whose draws a game's stream borrows (its name ``random`` is a draw inside the class)
_Random = random.Random


class _HashStream:
    """A :class:`random.Random` whose bits come from SHA-256 in counter mode.

    The key is HMAC-SHA256(seed, seq as 8 big-endian bytes). Block ``i`` is
    SHA-256(key || i as 8 big-endian bytes), read as a big-endian
    integer; bits are taken from the low end of the blocks, in order. ``random()`` is
    ``getrandbits(53) / 2**53``, and every other draw of :class:`random.Random`
    (``randrange``, ``choice``, ``shuffle``, ``sample``, ``choices``...) is built on
    those two, so the stream is fully specified. It replaces seeding a Mersenne Twister
    per command, which cost more than deciding most moves. Only draws are supported.

    The draws are :class:`random.Random`'s own functions, borrowed rather than
    inherited: making a ``random.Random`` sets up a Mersenne Twister that nothing here
    uses, which cost more than the rest of a stream (two are made per move). So is
    ``_randbelow`` (``_randbelow_with_getrandbits``: ``k = n.bit_length()`` bits at a
    time until one is below ``n``), with ``choice`` and ``randint``, written out over the
    buffered bits because a game asks them on nearly every move; they draw exactly what
    random.Random's draw. ``gauss``, which keeps a value between calls, is left out.
    """

    __slots__ = ("_seed", "_seq", "_key", "_block", "_bits", "_count")

    def __init__(self, seed: bytes, seq: int) -> None:
        # The key is made at the first draw: most commands draw nothing.
        self._seed = seed
        self._seq = seq
        self._block = 0
        self._bits = 0
        self._count = 0

    def _fill(self, k: int) -> None:
        """Buffer at least ``k`` bits, a block of 256 at a time."""
        block = self._block
        if block == 0:  # (_hmac_sha256, written out: once per command that draws)
            inner, outer = _hmac_pads(bytes(self._seed))
            inner = inner.copy()
            inner.update(self._seq.to_bytes(8, "big"))
            outer = outer.copy()
            outer.update(inner.digest())
            self._key = outer.digest()
        key, bits, count = self._key, self._bits, self._count
        while count < k:
            digest = _sha256(key + block.to_bytes(8, "big")).digest()
            bits |= int.from_bytes(digest, "big") << count
            block += 1
            count += 256
        self._bits, self._count, self._block = bits, count, block

    def getrandbits(self, k: int, /) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if self._count < k:
            self._fill(k)
        drawn = self._bits & ((1 << k) - 1)
        self._bits >>= k
        self._count -= k
        return drawn

    def random(self) -> float:
        return self.getrandbits(53) * 2.0**-53

    def _randbelow(self, n: int) -> int:
        k = n.bit_length()
        mask = (1 << k) - 1
        while True:
            if self._count < k:
                self._fill(k)
            drawn = self._bits & mask
            self._bits >>= k
            self._count -= k
            if drawn < n:
                return drawn

    def choice(self, seq: Sequence[Any]) -> Any:
        n = len(seq)
        if not n:
            raise IndexError("Cannot choose from an empty sequence")
        return seq[self._randbelow(n)]

    def randint(self, a: int, b: int) -> int:
        if type(a) is int and type(b) is int and a <= b:
            return a + self._randbelow(b - a + 1)
        return self.randrange(a, b + 1)  # and its errors for anything else

    def randrange(self, start: int, stop: int | None = None, step: int | None = None) -> int:
        # randrange(n), what the draws ask, is random.Random's _randbelow(n) after its
        # checks of the arguments: taken straight; anything else goes through them
        if stop is None and step is None and type(start) is int and start > 0:
            return self._randbelow(start)
        # (a stand-in for random.Random by design: see the class docstring)
        return _Random.randrange(self, start, stop, *(() if step is None else (step,)))  # type: ignore[arg-type]

    shuffle = _Random.shuffle
    sample = _Random.sample
    choices = _Random.choices
    randbytes = _Random.randbytes
    uniform = _Random.uniform
    triangular = _Random.triangular
    normalvariate = _Random.normalvariate
    lognormvariate = _Random.lognormvariate
    expovariate = _Random.expovariate
    vonmisesvariate = _Random.vonmisesvariate
    gammavariate = _Random.gammavariate
    betavariate = _Random.betavariate
    paretovariate = _Random.paretovariate
    weibullvariate = _Random.weibullvariate

    def seed(self, *args: object, **kwargs: object) -> None:
        raise TypeError("a game's random stream is fixed by its seed and seq")

    def getstate(self) -> tuple:
        raise TypeError("a game's random stream has no Mersenne Twister state")


try:  # CPython's own SHA-256: the same digests as OpenSSL's, and for the few bytes a
    # stream hashes, cheaper (its copy is a struct copy, not an EVP context's)
    _sha256: Any = importlib.import_module("_sha256").sha256
except ImportError:  # (a build without it)
    _sha256 = hashlib.sha256
#: a byte XOR-ed with HMAC's inner and outer pads (RFC 2104)
_INNER_PAD = bytes(x ^ 0x36 for x in range(256))
_OUTER_PAD = bytes(x ^ 0x5C for x in range(256))


@lru_cache(maxsize=1024)
def _hmac_pads(seed: bytes) -> tuple[Any, Any]:
    """SHA-256 with HMAC's inner and outer padded keys already absorbed, so that a
    game's many streams hash only their own 8 bytes (the seed is the same each time)."""
    key = _sha256(seed).digest() if len(seed) > 64 else seed
    key = key.ljust(64, b"\0")
    return _sha256(key.translate(_INNER_PAD)), _sha256(key.translate(_OUTER_PAD))


def _hmac_sha256(seed: bytes, seq: int) -> bytes:
    """HMAC-SHA256(seed, seq as 8 big-endian bytes), as :func:`hmac.digest` computes it."""
    inner, outer = _hmac_pads(bytes(seed))
    inner = inner.copy()
    inner.update(seq.to_bytes(8, "big"))
    outer = outer.copy()
    outer.update(inner.digest())
    return outer.digest()


def secret_salt(rng: random.Random) -> str:
    """128 random bits, in hex, that an event with a secret carries beside it and that
    its redaction drops: the event's published hash covers its whole data, so without
    the salt anybody could hash each value the secret may take and find the one that
    matches (a tile, a development card, a resource)."""
    return f"{rng.getrandbits(128):032x}"


def rng_for(seed: bytes, seq: int) -> random.Random:
    """The deterministic random source for the command that will write event ``seq``.

    HMAC-SHA256(seed, seq as 8 big-endian bytes) keys the SHA-256 counter stream of
    :class:`_HashStream`; so each step draws independent outcomes that nobody
    can predict without the seed and everybody can check once it is published.
    """
    # (_HashStream(seed, seq) without the call to __init__: a stream is made per command)
    stream = _new_stream(_HashStream)
    stream._seed = seed
    stream._seq = seq
    stream._block = stream._bits = stream._count = 0
    return stream  # type: ignore[return-value]  # (duck-typed: see the class)


_new_stream = object.__new__


class _BotStream(_HashStream):
    """The draws of :class:`_HashStream` over cheaper bits, for bots: block ``i`` is
    keyed BLAKE2b-512 (key: the bots' key, :func:`_bots_key`) of ``seq`` and ``i``,
    each as 8 big-endian bytes, read as a big-endian integer; bits are taken from the
    low end of the blocks, in order. One hash call makes a block of 512 bits, where
    the game's stream spends an HMAC and a SHA-256 block on 256: a bot draws on nearly
    every move, and nothing is checked against its draws (the service stores the
    commands bots send), so only their unpredictability without the seed matters."""

    __slots__ = ()

    def _fill(self, k: int) -> None:
        block, bits, count = self._block, self._bits, self._count
        keyed, prefix = _bots_blake2b(self._seed), self._seq.to_bytes(8, "big")
        while count < k:
            hashing = keyed.copy()
            hashing.update(prefix + block.to_bytes(8, "big"))
            digest = hashing.digest()
            bits |= int.from_bytes(digest, "big") << count
            block += 1
            count += 512
        self._bits, self._count, self._block = bits, count, block


@lru_cache(maxsize=1024)
def _keyed_blake2b(key: bytes) -> Any:
    """BLAKE2b-512 with ``key`` already absorbed, copied per block: a keyed hash costs
    one compression more to start than a copy of it (the key's own block)."""
    return hashlib.blake2b(key=key)


def bot_rng_for(seed: bytes, seq: int) -> random.Random:
    """The random source of a bot choosing the command that will write event ``seq``.

    Derived from the game's seed but apart from :func:`rng_for` (its own key and its
    own hash, :class:`_BotStream`), so that bots' choices never shift the game's own
    draws; with it, a seed replays a bot game exactly.
    """
    # (made as rng_for makes its stream; its _seed is the game's seed, and the bots' key
    # is made from it at the first draw: a third of moves draw nothing)
    stream = _new_stream(_BotStream)
    stream._seed = seed
    stream._seq = seq
    stream._block = stream._bits = stream._count = 0
    return stream  # type: ignore[return-value]  # (duck-typed)


@lru_cache(maxsize=1024)
def _bots_blake2b(seed: bytes) -> Any:
    """:func:`_keyed_blake2b` of the bots' key of a game's seed."""
    return _keyed_blake2b(_bots_key(seed))


@lru_cache(maxsize=1024)
def _bots_key(seed: bytes) -> bytes:
    # Asked once per bot move: worth remembering per game.
    return hashlib.sha256(b"bots" + seed).digest()


#: redactor(data, seat) -> what ``seat`` (``None``: a spectator) may see of an event of
#: one type that is not visible to it
Redactor = Callable[[JSON, "int | None"], JSON]
#: upcaster(data) -> the data of an event of one type in the next rules version's shape
Upcaster = Callable[[JSON], JSON]


class Ruleset(ABC, Generic[State]):
    """A game's rules as a decider. Subclasses are stateless singletons."""

    #: stable identifier used in URLs and records, e.g. ``"carcassonne"``
    name: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    #: decision kind -> the command types that answer it; every command type the
    #: ruleset accepts appears here (anything else is ``unknown_command``)
    answers: ClassVar[Mapping[str, tuple[str, ...]]]
    #: IllegalMove code -> the rule in plain words, for this game
    rules: ClassVar[Mapping[str, str]] = {}
    #: event type -> what a seat that may not see such an event learns of it. An event
    #: type not listed here has no secret part: hidden from a seat, it shows nothing.
    secrets: ClassVar[Mapping[str, Redactor]] = {}
    #: the shape of this ruleset's events; written into ``game_started`` and raised
    #: whenever an event's shape changes, with an upcaster from the version before
    rules_version: ClassVar[int] = 1
    #: ``(version, event type) -> upcaster`` from that version's shape to the next's
    upcasters: ClassVar[Mapping[tuple[int, str], Upcaster]] = {}
    #: the base game, then each expansion or scenario that adds commands or events, with
    #: their shapes (:mod:`service.rules.shapes`), which ``describe`` and the API's
    #: document show
    parts: ClassVar[Sequence[Part]] = ()
    #: the shape of :meth:`view` (its top-level keys and the parts clients read)
    view_shape: ClassVar[Shape | None] = None

    # -- catalogue -------------------------------------------------------------

    @abstractmethod
    def describe(self) -> JSON:
        """What ``GET /v1/rulesets`` shows: options with types, defaults and meaning,
        expansions, seat counts, command shapes."""

    def description(
        self, options: JSON, commands: JSON | None = None, expansions: Sequence[JSON] = ()
    ) -> JSON:
        """A :meth:`describe` answer: the class attributes (name, title, seats, bots,
        decision kinds and the rules in words) with the ruleset's ``options``,
        ``commands`` (by default each described command's fields) and ``expansions``."""
        if commands is None:
            commands = {name: shape.hints() for name, shape in self.command_shapes().items()}
        return {
            "name": self.name,
            "title": self.title,
            "seats": {"min": self.min_seats, "max": self.max_seats},
            "options": options,
            "expansions": list(expansions),
            "bots": list(self.bots),
            "commands": commands,
            "decisions": {kind: list(commands) for kind, commands in self.answers.items()},
            "rules": {**CORE_RULES, **self.rules},
            "rules_version": self.rules_version,
        }

    @abstractmethod
    def normalize_options(self, options: Mapping[str, Any]) -> JSON:
        """Validate options and fill in defaults; raise :class:`InvalidOptions`.

        The result always has ``"randomness"`` set to one of :data:`RANDOMNESS_MODES`.
        """

    def illegal(self, code: str, message: str) -> IllegalMove:
        """The :class:`IllegalMove` for ``code``, quoting this game's rule."""
        return illegal(self.rules, code, message)

    # -- the decider -----------------------------------------------------------

    @abstractmethod
    def setup(self, options: JSON, seats: int, rng: random.Random) -> list[Event]:
        """The genesis events for a new game (options already normalised). The first is
        ``game_started``, whose data names the ``rules_version``."""

    @abstractmethod
    def initial_state(self) -> State:
        """The state before the first event."""

    @abstractmethod
    def evolve(self, state: State, event: Event) -> State:
        """Fold one event (in the current shape) into the state; may update ``state``
        in place."""

    @abstractmethod
    def decisions(self, state: State) -> list[Decision]:
        """The decisions open now, in the order they opened. Empty once the game is
        over."""

    @abstractmethod
    def handle(
        self, state: State, decision: Decision, command: JSON, rng: random.Random
    ) -> list[Event]:
        """The events ``command`` causes as the answer to ``decision`` (which is open,
        belongs to the seat that sent it and accepts its type); raises
        :class:`IllegalMove` for a command the rules forbid."""

    def decide(
        self,
        state: State,
        seat: int,
        command: JSON,
        rng: random.Random,
        decision_id: str | None = None,
    ) -> list[Event]:
        """Check ``command`` sent by ``seat`` and return the events it causes.

        Raises :class:`IllegalMove` (``not_your_turn`` when the seat is not awaited).
        Draws any randomness from ``rng`` and writes the outcome into the events.
        ``decision_id``, if given, names the decision the command answers. A command of
        the table (:mod:`service.rules.seating`) answers no decision: see
        :meth:`table_events`.
        """
        if is_table_command(command):
            return self.table_events(state, seat, command, rng)
        return self.handle(state, self.answered(state, seat, command, decision_id), command, rng)

    def answered(
        self, state: State, seat: int | None, command: JSON, decision_id: str | None = None
    ) -> Decision:
        """The open decision ``command`` from ``seat`` answers, or the IllegalMove that
        every ruleset gives: ``game_over``, ``unknown_command``, ``not_your_turn``,
        ``decision_closed``, ``unexpected_command``."""
        # (a dict is by far the usual command: spared the abstract Mapping check)
        kind = (
            command.get("type") if type(command) is dict or isinstance(command, Mapping) else None
        )
        open_now = self.decisions(state)
        if decision_id is None and type(kind) is str:
            # The common case, on every move, looked up first: the seat's first decision
            # taking the command (a game over has none open).
            for decision in open_now:
                if decision.seat == seat and kind in decision.commands:
                    return decision
        if self.is_over(state):
            raise self.illegal("game_over", "the game is over")
        if not isinstance(kind, str) or kind not in self.command_types():
            raise self.illegal("unknown_command", f"unknown command type {kind!r}")
        if decision_id is not None:
            named = [d for d in open_now if d.id == decision_id]
            if not named:
                raise self.illegal("decision_closed", f"decision {decision_id!r} is not open")
            if all(d.seat != seat for d in named):
                own = [d.id for d in open_now if d.seat == seat]
                raise self.illegal(
                    "not_your_turn",
                    f"decision {decision_id!r} awaits seat {named[0].seat}, not seat {seat}"
                    + (f" (seat {seat}'s own: {', '.join(own)})" if own else ""),
                )
            open_now = named
        mine = [d for d in open_now if d.seat == seat]
        if not mine:
            awaited = sorted({d.seat for d in open_now})
            why = "has resigned" if self._has_resigned(state, seat) else "is not awaited now"
            raise self.illegal("not_your_turn", f"seat {seat} {why} (awaited: {awaited})")
        for decision in mine:
            if kind in decision.commands:
                return decision
        kinds = ", ".join(d.kind for d in mine)
        raise self.illegal("unexpected_command", f"awaiting {kinds}, not {kind}")

    def apply(
        self,
        state: State,
        seat: int | None,
        command: JSON,
        rng: random.Random,
        decision_id: str | None = None,
    ) -> list[Event]:
        """Decide ``command`` and fold its events into ``state`` (in place); the events.
        On an IllegalMove nothing is folded."""
        if is_table_command(command):
            return self.fold_table(state, self.table_events(state, seat, command, rng))
        # decide's other path, written out: apply runs on every move
        events = self.handle(state, self.answered(state, seat, command, decision_id), command, rng)
        for event in events:
            self.evolve(state, event)
        if self.awaits_resigned(state):
            events = [*events, *self.moved_on(state, rng)]
        return events

    @abstractmethod
    def copy_state(self, state: State) -> State:
        """An independent copy, for callers that keep an earlier state."""

    def scratch_copy(self, state: State) -> State:
        """A copy that a decider may fold this command's events into while it works
        out what follows (:class:`Turn`); rulesets with cheap partial copies override
        it."""
        return self.copy_state(state)

    # -- questions about a state -------------------------------------------------

    def awaiting(self, state: State) -> list[JSON]:
        """The open decisions as JSON: ``[{"id", "seat", "kind", "commands", ...}]``."""
        return [decision.to_json() for decision in self.decisions(state)]

    @abstractmethod
    def menu(self, state: State, decision: Decision) -> JSON:
        """``{command type: options}`` for one open decision: every command that answers
        it now, compactly (a list of choices, or a description of what may be sent where
        the space is unbounded, such as a trade offer)."""

    def legal_commands(self, state: State, seat: int) -> JSON:
        """Every command ``seat`` may send now: ``{seat, decisions: [{id, kind,
        commands: {type: options}}]}``, one shape for every ruleset."""
        return {
            "seat": seat,
            "decisions": [
                {"id": d.id, "kind": d.kind, "commands": self.menu(state, d)}
                for d in self.decisions(state)
                if d.seat == seat
            ],
        }

    @abstractmethod
    def view(self, state: State, seat: int | None) -> JSON:
        """The state as ``seat`` (or a spectator, ``None``) may see it. It must equal the
        view of the fold of the log as that seat reads it (:meth:`seat_log`)."""

    def redact(self, event: Event, seat: int | None) -> JSON:
        """The data of ``event`` as ``seat`` may see it: whole if it is visible to the
        seat, else what :attr:`secrets` declares for its type, else nothing."""
        if event.is_visible_to(seat):
            return event.data
        redactor = self.secrets.get(event.type)
        return redactor(event.data, seat) if redactor is not None else {}

    def seat_log(self, events: Iterable[Event], seat: int | None) -> list[Event]:
        """The log as ``seat`` reads it: each event redacted for it."""
        return [
            event if event.is_visible_to(seat) else Event(event.type, self.redact(event, seat))
            for event in events
        ]

    @abstractmethod
    def is_over(self, state: State) -> bool:
        """True once the game has ended (final scoring done)."""

    @abstractmethod
    def result(self, state: State) -> JSON:
        """Scores so far and, once over, the winners."""

    # -- versions --------------------------------------------------------------

    def upcast(self, event: Event, version: int) -> Event:
        """``event``, written under rules ``version``, in the current shape. A
        ``game_started`` comes out naming the current version, so a genesis replayed by
        today's setup compares equal to an older stored one."""
        data = event.data
        for step in range(version, self.rules_version):
            upcaster = self.upcasters.get((step, event.type))
            if upcaster is not None:
                data = upcaster(data)
        if event.type == "game_started" and data.get("rules_version") != self.rules_version:
            data = {**data, "rules_version": self.rules_version}
        return event if data is event.data else Event(event.type, data, event.visible_to)

    def upcast_log(self, events: Iterable[Event], version: int | None = None) -> Iterator[Event]:
        """The events of a log in the current shape, for ``evolve``. ``version`` is the
        rules version they were written under; ``None`` reads it from the log's
        ``game_started`` (a log without one must then be current). A
        :data:`RULES_UPGRADED` marker says the events after it were written under a
        newer version; it changes nothing in the game, so it is not passed on, nor are
        the events of :data:`~service.rules.seating.SEATING_ONLY` (who plays a seat)."""
        current = self.rules_version if version is None else version
        for event in events:
            if event.type == "game_started":
                current = self.version_of(event)
            elif event.type == RULES_UPGRADED:
                current = int(event.data["to"])
                continue
            elif event.type in SEATING_ONLY:
                continue
            yield self.upcast(event, current)

    def upgrade_marker(self, written_under: int) -> Event:
        """The event a release writes before the first event it appends to a log that an
        earlier rules version wrote, so that readers upcast only what came before."""
        return Event(RULES_UPGRADED, {"from": written_under, "to": self.rules_version})

    @staticmethod
    def version_of(started: Event) -> int:
        """The rules version a game's log was written under, from its ``game_started``
        (games stored before versions were recorded are version 1)."""
        return int(started.data.get("rules_version", 1))

    # -- the table: resigning, abandoning, handing a seat over ------------------
    #
    # A ruleset whose seats may resign and whose games may be abandoned overrides
    # seat_count, resigned_seats, seat_left and end_game, and folds seat_resigned.

    def seat_count(self, state: State) -> int:
        """How many seats the game has."""
        raise self.illegal("resign_unsupported", f"{self.name} has no table commands")

    def resigned_seats(self, state: State) -> Collection[int]:
        """The seats that have resigned (folded from ``seat_resigned``)."""
        raise self.illegal("resign_unsupported", f"{self.name} has no table commands")

    def _has_resigned(self, state: State, seat: int | None) -> bool:
        try:
            return seat in self.resigned_seats(state)
        except IllegalMove:  # (a ruleset without the table's commands)
            return False

    def seat_left(self, turn: Turn[State], seat: int, rng: random.Random) -> None:
        """``seat`` has just resigned (``turn.state`` has folded it) and at least two
        seats play on: emit what the game needs to go on without it (end its turn if
        it was playing one, drop what was awaited from it). By default, :meth:`play_on`."""
        self.play_on(turn, rng)

    def awaits_resigned(self, state: State) -> bool:
        """Whether a decision open now is awaited from a seat that resigned (which a
        command of another seat may open, as a ship owed to it): then :meth:`apply`
        moves the game on past it in the same command. Never, by default."""
        return False

    def play_on(self, turn: Turn[State], rng: random.Random) -> None:
        """Emit what moves the game past the decisions open now that are awaited from
        seats that resigned (a ruleset that may open one overrides this)."""

    def moved_on(self, state: State, rng: random.Random) -> list[Event]:
        """:meth:`play_on` from ``state``, its events folded into ``state``."""
        turn = Turn(self, state)
        self.play_on(turn, rng)
        for event in turn.events:
            self.evolve(state, event)
        return turn.events

    def end_game(self, turn: Turn[State], winners: list[int], reason: str) -> None:
        """Emit the end of the game now, naming ``winners`` (none when abandoned) and
        ``reason`` (``"resigned"``: one seat is left; ``"abandoned"``)."""
        raise self.illegal("resign_unsupported", f"{self.name} cannot be ended early")

    def skip(self, turn: Turn[State], seat: int, rng: random.Random) -> None:
        """``seat`` ran out of time and misses what it is awaited for now (``turn.state``
        awaits it): its turn passes, or its decisions out of turn are answered as
        little as the rules allow."""
        raise self.illegal("bad_timeout", f"{self.name} has no skip on a timeout")

    def table_events(
        self, state: State, seat: int | None, command: JSON, rng: random.Random
    ) -> list[Event]:
        """The events of a command of the table (:mod:`service.rules.seating`):
        ``resign`` (from ``seat``), ``abandon`` (no seat), ``hand_to_bot {bot}`` and
        ``hand_back`` (for ``seat``); the server's ``clock`` (no seat) and ``time_out
        {action, bot}`` (for ``seat``)."""
        kind = command["type"]
        if kind == CLOCK:  # a reading, also at the end
            return [Event(CLOCK, self._clock_reading(state, command))]
        if self.is_over(state):
            raise self.illegal("game_over", "the game is over")
        if kind == ABANDON:
            turn = Turn(self, state)
            self.end_game(turn, [], "abandoned")
            return [Event(GAME_ABANDONED, {}), *turn.events]
        resigned = self.resigned_seats(state)
        if type(seat) is not int or not 0 <= seat < self.seat_count(state):
            raise self.illegal("unknown_seat", f"no seat {seat!r} in this game")
        if seat in resigned:
            raise self.illegal("resigned", f"seat {seat} has resigned")
        if kind == TIME_OUT:
            return self._timed_out(state, seat, command, rng)
        if kind == HAND_TO_BOT:
            return [self._handed_to_bot(seat, command.get("bot"))]
        if kind != RESIGN:
            return [Event(SEAT_HANDED_BACK, {"seat": seat})]
        return self._resigned(state, seat, rng)

    def _resigned(self, state: State, seat: int, rng: random.Random) -> list[Event]:
        turn = Turn(self, state)
        turn.emit(Event(SEAT_RESIGNED, {"seat": seat}))
        resigned = self.resigned_seats(state)
        playing = [s for s in range(self.seat_count(state)) if s not in resigned and s != seat]
        if len(playing) == 1:
            self.end_game(turn, playing, "resigned")
        else:
            self.seat_left(turn, seat, rng)
        return turn.events

    def _handed_to_bot(self, seat: int, bot: Any) -> Event:
        if bot not in self.bots:
            raise self.illegal("unknown_bot", f"{self.name} has no bot named {bot!r}")
        return Event(SEAT_HANDED_TO_BOT, {"seat": seat, "bot": bot})

    def _timed_out(self, state: State, seat: int, command: JSON, rng: random.Random):
        """``seat_timed_out``, then what the action does: the seat handed to a bot,
        skipping what it is awaited for, or resigning."""
        action = command.get("action")
        if not any(d.seat == seat for d in self.decisions(state)):
            raise self.illegal("bad_timeout", f"seat {seat} is not awaited: its clock is stopped")
        timed_out = Event(SEAT_TIMED_OUT, {"seat": seat, "action": action})
        if action == "bot":
            return [timed_out, self._handed_to_bot(seat, command.get("bot"))]
        if action == "forfeit":
            return [timed_out, *self._resigned(state, seat, rng)]
        if action != "skip":
            raise self.illegal("bad_timeout", f"no timeout action {action!r}")
        turn = Turn(self, state)
        self.skip(turn, seat, rng)
        return [timed_out, *turn.events]

    def _clock_reading(self, state: State, command: JSON) -> JSON:
        """A ``clock`` event's data, checked for shape: each seat's ``remaining_ms``
        (an integer or None) and ``running``, seat (as text) -> since when (ISO 8601)."""
        remaining, running = command.get("remaining_ms"), command.get("running")
        seats = self.seat_count(state)
        if not (
            isinstance(remaining, list)
            and len(remaining) == seats
            and all(r is None or (type(r) is int and r >= 0) for r in remaining)
            and isinstance(running, Mapping)
            and all(k in _seat_keys(seats) and _is_instant(v) for k, v in running.items())
        ):
            raise self.illegal("bad_clock", "a clock reading is {remaining_ms, running}")
        return {"remaining_ms": list(remaining), "running": dict(running)}

    def fold_table(self, state: State, events: list[Event]) -> list[Event]:
        """Fold the events of a command of the table into ``state`` (in place), but
        those that change only who plays a seat; the events."""
        for event in events:
            if event.type not in SEATING_ONLY:
                self.evolve(state, event)
        return events

    #: kinds of decision a seat may leave open without holding the game up (a Catan
    #: seat's chance to propose a trade in another's turn): no clock runs for them
    optional_decisions: ClassVar[frozenset[str]] = frozenset()

    # -- bots ------------------------------------------------------------------

    #: names of the bots this ruleset provides, e.g. ``("random", "greedy")``
    bots: ClassVar[tuple[str, ...]] = ()
    #: the module whose ``BOTS`` table plays the bots named in :attr:`bots`
    bots_module: ClassVar[str | None] = None
    #: whether the bots play with external randomness too, sending the outcomes their
    #: commands need (a drawn tile); a timeout's ``skip`` may answer as a bot does
    bots_play_external: ClassVar[bool] = True

    def bot_command(self, state: State, seat: int, bot: str, rng: random.Random) -> JSON:
        """The command bot ``bot`` sends for ``seat`` now (seat must be awaited): the
        ``BOTS`` table (name -> player) of :attr:`bots_module`, imported on first use so
        that loading the rules never loads the bots."""
        players = self.__dict__.get("_bot_players")
        if players is None:
            module = self.bots_module
            players = importlib.import_module(module).BOTS if module else {}
            self.__dict__["_bot_players"] = players
        player = players.get(bot)
        if player is None:
            raise IllegalMove("unknown_bot", f"{self.name} has no bot named {bot!r}")
        return player(self, state, seat, rng)

    # -- conveniences built on the protocol ------------------------------------

    def command_types(self) -> frozenset[str]:
        """Every command type this ruleset accepts (worked out once per ruleset)."""
        found = self.__dict__.get("_command_types")
        if found is None:
            found = frozenset(c for commands in self.answers.values() for c in commands)
            self.__dict__["_command_types"] = found
        return found

    def command_shapes(self) -> Mapping[str, Shape]:
        """Command type -> its shape, from :attr:`parts` and the table's commands."""
        return merged((*self.parts, TABLE_PART), "commands") if self.parts else {}

    def menu_shapes(self) -> Mapping[str, JSON]:
        """Command type -> the schema of its :meth:`menu` entry, where described."""
        return merged(self.parts, "menus")

    def event_shapes(self) -> Mapping[str, Shape]:
        """Event type -> the shape of its data, from :attr:`parts`, with the table's
        events and the core's :data:`RULES_UPGRADED` marker."""
        found = merged((*self.parts, TABLE_PART), "events") if self.parts else {}
        if found:
            found[RULES_UPGRADED] = RULES_UPGRADED_SHAPE
        return found

    def fold(self, events: Iterable[Event]) -> State:
        """The state after ``events``, a whole log from ``game_started`` written under
        any rules version (older events are upcast first)."""
        state = self.initial_state()
        for event in self.upcast_log(events):
            state = self.evolve(state, event)
        return state


class Turn(Generic[State]):
    """The events of one command as it is worked out: each event emitted is folded at
    once into a scratch copy of the state, so what follows is decided on the state the
    earlier events lead to (no list of pending events passed from step to step).

    The copy is made at the first emit: commands that emit nothing pay nothing.
    """

    __slots__ = ("ruleset", "origin", "_state", "events")

    def __init__(self, ruleset: Ruleset[State], state: State) -> None:
        self.ruleset = ruleset
        self.origin = state
        self._state: State | None = None
        self.events: list[Event] = []

    @property
    def state(self) -> State:
        """The state after the events emitted so far."""
        return self.origin if self._state is None else self._state

    def emit(self, *events: Event) -> None:
        for event in events:
            if self._state is None:
                self._state = self.ruleset.scratch_copy(self.origin)
            self.events.append(event)
            self.ruleset.evolve(self._state, event)


@cache
def _seat_keys(seats: int) -> frozenset[str]:
    """The seats as a clock reading's ``running`` names them: "0", "1", ..."""
    return frozenset(map(str, range(seats)))


def _is_instant(value: Any) -> bool:
    """Whether ``value`` is a time as a clock reading holds it (ISO 8601 with its offset)."""
    if not isinstance(value, str):
        return False
    try:
        return datetime.fromisoformat(value).tzinfo is not None
    except ValueError:
        return False
