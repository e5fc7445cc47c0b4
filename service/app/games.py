"""Game use cases: create, submit a command (then let bot seats play), read views.

A command runs in one transaction: lock the game row, replay an idempotent retry or
check the expected version, fold the state, decide, let bots answer, append, record
the idempotency key, NOTIFY, commit. The row lock serialises writers of one game, so
the loser of a race waits, sees the new version and gets ``version_conflict``; the
``(game_id, seq)`` key is the second line of defence. A seat's move naming the version
this process last wrote or read is first decided on what it knows and written in one
statement without taking the lock first (one round trip instead of four): the
statement's version bump waits for the row lock like a locked writer and aborts the
statement if the game has moved on, and then the move is decided again the locked way.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus

from service.app import hooks
from service.app.cache import StateCache
from service.app.errors import (
    AppError,
    BotsBusy,
    DecisionClosed,
    Forbidden,
    GameOver,
    IdempotencyKeyReused,
    IllegalMoveError,
    NotYourTurn,
    SeatConflict,
    UnknownGameError,
    ValidationFailed,
    VersionConflictError,
)
from service.app.genesis import (
    NO_BOTS_EXTERNAL,
    RulesetLookup,
    bots_may_play,
    find_ruleset,
    genesis,
)
from service.app.seats import prepare_seats, seat_of, seated
from service.app.turns import TurnWatch
from service.rules.clock import CLOCK, SEAT_TIMED_OUT, TIME_OUT, Clocks, TimeControl, charged
from service.rules.core import (
    Event,
    IllegalMove,
    RulesError,
    Ruleset,
    bot_rng_for,
    rng_for,
)
from service.rules.decisions import opened_at
from service.rules.seating import (
    ABANDON,
    HAND_BACK,
    HAND_TO_BOT,
    RESIGN,
    SEAT_CHANGES,
    Seating,
    is_table_command,
)
from service.rules.shapes import EXTERNAL_ONLY
from service.store import (
    Command,
    Database,
    EventStore,
    GameRecord,
    HeadSigner,
    IdempotencyKeyTaken,
    NewEvent,
    NewGame,
    StoredEvent,
    UnknownGame,
    VersionConflict,
    canonical_json,
)

#: commands the bots may play in one move; bots alone that play this many without an
#: end (bots may never reach a Catan target of 20 points) abandon the game instead. It
#: leaves such a game's record room, for people's commands and clock readings, within
#: the 10,000 steps that validate takes (export.MAX_RECORD_STEPS), whose body fits the
#: 1 MiB a request may have
MAX_BOT_STEPS = 9_000
#: CPU seconds of bot play a request may take on its own: a round of bots after a move
#: takes far less. Past them (a whole game of bots, say: all five expansions and eight
#: greedy bots take seconds), it plays on only while it holds the process's one slot
#: for long bot play, so that such requests never take every thread of a worker
LONG_BOT_PLAY_SECONDS = 0.5

log = logging.getLogger(__name__)
#: the bot that answers for another whose command the rules refused
FALLBACK_BOT = "random"
#: the commands decided on the game as it is, without the timeouts due applied first
_NOT_AFTER_TIMEOUTS = (TIME_OUT, ABANDON)


@contextmanager
def _autocommit(conn: psycopg.Connection) -> Iterator[None]:
    """``conn`` in autocommit for the block (each statement its own transaction), then
    back as the pool hands it out; or closed, so the pool drops it, if it was lost or cut
    off mid-statement (switching it back would then raise over the error that did so)."""
    conn.autocommit = True
    try:
        yield
    finally:
        if conn.info.transaction_status == TransactionStatus.IDLE:
            conn.autocommit = False
        else:
            conn.close()


@dataclass(frozen=True, slots=True)
class Precondition:
    """What a move was decided against: the game's ``version`` (If-Match or
    ``expected_version``), the ``decision`` id it answers, or both."""

    version: int | None = None
    decision: str | None = None

    def key(self) -> dict[str, Any]:
        """The part of an idempotent request's identity that this precondition is."""
        if self.decision is None:  # the shape of keys stored before decision ids
            return {"expected": self.version}
        return {"expected": self.version, "decision": self.decision}


@dataclass(frozen=True, slots=True)
class Step:
    """One command to decide: from ``seat`` (None: the game's owner, for a command of
    the table), answering the ``decision`` it names, if any."""

    seat: int | None
    command: dict[str, Any]
    decision: str | None = None


@dataclass(frozen=True, slots=True)
class Folded:
    """A folded state, the rules version its log was written under (the cache keeps
    both, so the rest of the log is upcast the same way) and who plays each seat."""

    state: Any
    written_under: int
    seating: Seating
    #: the last clock reading, in a game with a time control
    clocks: Clocks | None = None


@dataclass(frozen=True, slots=True)
class Viewed:
    """A game's state at one version, for one viewer (``seat`` None: a spectator)."""

    game: GameRecord
    ruleset: Ruleset
    seat: int | None
    version: int
    state: Any
    #: the last events up to ``version``, as stored (when asked for)
    recent: list[StoredEvent]


#: an answer's body as JSON text, as the API sends it (sorted keys, compact, ASCII: what
#: Flask's JSON provider writes); made once, as json.dumps with options makes one a call
_ANSWER_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class Outcome:
    """A use case's answer: HTTP-agnostic status and body, and whether it was replayed."""

    status: int
    body: dict[str, Any]
    replayed: bool = False
    #: the body as JSON text (:data:`_ANSWER_JSON`), when the use case wrote it already
    #: for the idempotency record: the answer sends it instead of encoding it again
    text: str | None = None


@dataclass(frozen=True, slots=True)
class _Fields:
    """What a command type's shape says of its fields."""

    takes: frozenset[str]  # every field it may have, ``type`` included
    needs: tuple[str, ...]  # those it must have
    outcomes: tuple[str, ...]  # those sent only with external randomness


@functools.cache
def _command_fields(ruleset: Ruleset) -> dict[str, _Fields]:
    """Each command type of ``ruleset`` -> its fields (``describe``'s shapes)."""
    shapes = ruleset.command_shapes()
    found = {}
    for kind, fields in ruleset.describe()["commands"].items():
        shape = shapes.get(kind)
        schemas = shape.fields if shape is not None else {}
        outcomes = tuple(name for name, schema in schemas.items() if schema.get(EXTERNAL_ONLY))
        needs = shape.required if shape is not None else ()
        found[kind] = _Fields(frozenset(fields) | {"type"}, needs, outcomes)
    return found


def check_fields(ruleset: Ruleset, command: dict[str, Any], external: bool) -> None:
    """A command sent by a seat names every field its type needs and none it does not
    take, nor with internal randomness (not ``external``) an outcome the service draws
    itself: the log keeps every command as sent, for ever, and a missing field is named
    here rather than as the value the rules could not read, a drawn one rather than
    left unread. (An unknown type is the rules' to refuse.)"""
    kind = command.get("type")
    if not isinstance(kind, str):
        raise ValidationFailed(
            "command.type",
            "a command names its type: one that legal-moves lists for the decision it answers",
        )
    fields = _command_fields(ruleset).get(kind)
    if fields is None:
        return
    extra = sorted(set(command) - fields.takes)
    if extra:
        listed = ", ".join(sorted(fields.takes - {"type"})) or "no field but type"
        raise ValidationFailed(f"command.{extra[0]}", f"{kind} takes {listed}: not {extra[0]!r}")
    missing = [name for name in fields.needs if name not in command]
    if missing:
        raise ValidationFailed(f"command.{missing[0]}", f"{kind} needs {' and '.join(missing)}")
    drawn = [] if external else [name for name in fields.outcomes if name in command]
    if drawn:
        raise ValidationFailed(
            f"command.{drawn[0]}",
            f"this game draws its own chance (randomness: internal): {kind} takes no"
            f" {drawn[0]}, which is sent only with external randomness",
        )


#: the table's commands a seat may not send, and who does
_NOT_A_SEATS = {
    ABANDON: "abandon is the game's owner's: POST /v1/games/{id}/abandon with its API key",
    HAND_TO_BOT: "hand_to_bot is the game's owner's: PUT /v1/games/{id}/seats/{seat}/bot",
    HAND_BACK: "hand_back is the game's owner's: DELETE /v1/games/{id}/seats/{seat}/bot",
    CLOCK: "clock is written by the service itself, from the game's time control",
    TIME_OUT: "time_out is written by the service itself, when a seat's time runs out",
}


def to_rules_event(event: StoredEvent) -> Event:
    visible = tuple(event.visibility) if event.visibility is not None else None
    return Event(event.type, event.data, visible)


def to_new_event(event: Event) -> NewEvent:
    """The event as it will read back from jsonb (tuples become lists, keys strings), so
    its hash and the response match what verify recomputes from the table."""
    visible = list(event.visible_to) if event.visible_to is not None else None
    return NewEvent(event.type, json.loads(json.dumps(event.data)), visible)


def event_item(ruleset: Ruleset, event: StoredEvent, seat: int | None) -> dict[str, Any]:
    """An event as ``seat`` may see it."""
    rules_event = to_rules_event(event)
    whole = rules_event.is_visible_to(seat)
    return {
        "seq": event.seq,
        "type": event.type,
        "data": event.data if whole else ruleset.redact(rules_event, seat),
        "redacted": not whole,
        "visibility": event.visibility,
        "prev_hash": event.prev_hash,
        "hash": event.hash,
        "recorded_at": event.recorded_at.isoformat(),
    }


def bot_awaited(ruleset: Ruleset, seating: Seating, state: Any) -> int | None:
    """A seat a bot plays that the game awaits now, if any (none once it is over)."""
    if ruleset.is_over(state):
        return None
    awaited = (d.seat for d in ruleset.decisions(state))
    return next((seat for seat in awaited if seating.bot_of(seat)), None)


def recorded(command: Command, events: list[Event]) -> list[Command]:
    """The command to record for the events it caused: none if it caused none (it
    changed nothing, so a replay needs no trace of it)."""
    return [command] if events else []


def game_item(game: GameRecord) -> dict[str, Any]:
    """What the game row says of a game, without folding its log: a list item, and the
    part of the summary that does not need the state."""
    finished = game.status == "finished"
    return {
        "id": game.id,
        "ruleset": game.ruleset,
        "options": game.options,
        "seats": seated(game.seats, game.seats_now),
        "status": game.status,
        "version": game.version,
        "head_hash": game.head_hash,
        "head_signature": game.head_signature,
        "seed_sha256": game.seed_hash,
        "seed": game.seed.hex() if finished else None,
        "created_at": game.created_at.isoformat(),
        "updated_at": game.updated_at.isoformat(),
    }


class TimeoutsDue(Exception):
    """A write found a seat's time run out: the timeouts go first, in their own
    transaction, and the write is decided again on the game they leave."""


def due(game: GameRecord, folded: Folded, now: datetime | None = None) -> bool:
    """Whether a seat's time has run out at ``now`` (default: this process's clock; a
    timeout itself is decided on the database's, in :meth:`GameService.time_out`)."""
    control = TimeControl.of(game.options)
    if control is None or folded.clocks is None or game.status != "active":
        return False
    return bool(folded.clocks.overdue(control, now or datetime.now(UTC)))


def next_deadline(control: TimeControl | None, clocks: Clocks | None) -> datetime | None:
    """When the first running clock of a game runs out, for its row (None: none runs)."""
    return None if control is None or clocks is None else clocks.next_deadline(control)


def scoped_key(caller: str, key: str) -> str:
    """An Idempotency-Key as stored: in the namespace of the ``caller`` that sent it
    (``seat 0``, ..., or ``owner``, the game's API key), so that two callers who pick
    the same key neither refuse each other's requests nor learn that it was used. The
    caller's name holds no ``:``, so the first one ends it."""
    return f"{caller}:{key}"


def replayed(stored: tuple[str, int, Any], request_hash: str, ruleset: str) -> Outcome:
    """The stored answer to an earlier request under the same Idempotency-Key, if it
    was this same request. An answer stored before answers named their game's
    ``ruleset`` gets it, as the contract requires."""
    if stored[0] != request_hash:
        raise IdempotencyKeyReused("this Idempotency-Key was used with a different request")
    body = stored[2]
    if "ruleset" not in body:
        body = {**body, "ruleset": ruleset}
    return Outcome(stored[1], body, replayed=True)


def illegal(exc: RulesError, version: int) -> Exception:
    """The API error for a refused command; ``version`` is the game's."""
    if exc.code == "not_your_turn":
        return NotYourTurn(exc.message, reason=exc.code, rule=exc.rule)
    if exc.code == "decision_closed":
        return DecisionClosed(exc.message, rule=exc.rule, current_version=version)
    if exc.code == "game_over":
        return GameOver(exc.message, reason=exc.code, rule=exc.rule)
    return IllegalMoveError(exc.message, reason=exc.code, rule=exc.rule)


class GameService:
    def __init__(
        self,
        db: Database,
        rulesets: RulesetLookup,
        cache_size: int = 512,
        signer: HeadSigner | None = None,
    ) -> None:
        self.db = db
        self.rulesets = rulesets
        self.store = EventStore(signer)
        self.cache = StateCache(cache_size)
        self.long_bot_play = threading.BoundedSemaphore(1)

    # -- helpers ---------------------------------------------------------------

    def ruleset(self, name: str) -> Ruleset:
        return find_ruleset(self.rulesets, name)

    def load_game(self, conn: psycopg.Connection, game_id: str, lock: bool = False) -> GameRecord:
        """The game row (locked FOR UPDATE if asked); unknown_game if there is none."""
        try:
            return self.store.get_game(conn, game_id, lock=lock)
        except UnknownGame as exc:
            raise UnknownGameError(f"no game with id {game_id}") from exc

    def _fold(
        self,
        conn: psycopg.Connection,
        game: GameRecord,
        ruleset: Ruleset,
        upto: int,
        start: tuple[int, Folded] | None,
    ) -> Folded:
        """The game at version ``upto``, evolved from ``start`` (a version and its
        folded game, which this changes) or from the beginning: the rest of the log is
        read and upcast from the rules version it was written under; who plays each
        seat and the clocks are folded beside the state."""
        if start is not None:
            after, folded = start
            state, written_under = folded.state, folded.written_under
            seating, clocks = folded.seating, folded.clocks
        else:
            after, state, written_under = 0, ruleset.initial_state(), None
            seating, clocks = Seating.of(game.seats), None
        if after < upto:
            stored = self.store.read_events(conn, game.id, after=after, upto=upto)
            if written_under is None and stored:
                written_under = ruleset.version_of(to_rules_event(stored[0]))
            for event in ruleset.upcast_log(map(to_rules_event, stored), written_under):
                state = ruleset.evolve(state, event)
            for record in stored:
                seating.evolve(record.type, record.data)
                if record.type == CLOCK:
                    clocks = Clocks.read(record.data, record.recorded_at)
        version = ruleset.rules_version if written_under is None else written_under
        return Folded(state, version, seating, clocks)

    @contextmanager
    def _reading(
        self, conn: psycopg.Connection, game: GameRecord, ruleset: Ruleset, upto: int
    ) -> Iterator[Folded]:
        """The game at version ``upto``, to read and never to change: the cached fold
        itself when the cache holds that version (shared with other readers, kept from
        the writer while the block runs), else one of this request's own, from a copy
        of an earlier cached version or from the log; remembered afterwards if it is
        the game's current version."""
        fresh = None
        with self.cache.reading(game.id, upto) as cached:
            if cached is not None and cached[0] == upto:
                yield cached[1]
            else:
                if cached is not None:
                    cached = cached[0], self._copy(ruleset)(cached[1])
                fresh = self._fold(conn, game, ruleset, upto, cached)
                yield fresh
        if fresh is not None and upto == game.version:
            self._remember(game.id, upto, fresh)

    def _taken(self, conn: psycopg.Connection, game: GameRecord, ruleset: Ruleset) -> Folded:
        """The game now, for the writer that holds its row lock to change: the cached
        fold itself (a copy only while a reader holds it), or folded from the log. Put
        it back with :meth:`_remember` if the command is refused (a refused command
        folds nothing); on any other failure it is dropped."""
        taken = self.cache.take(game.id, game.version, self._copy(ruleset))
        return self._fold(conn, game, ruleset, game.version, taken)

    def _remember(self, game_id: str, version: int, folded: Folded) -> None:
        self.cache.put(game_id, version, folded)

    @staticmethod
    def _copy(ruleset: Ruleset) -> Callable[[Folded], Folded]:
        return lambda folded: Folded(
            ruleset.copy_state(folded.state),
            folded.written_under,
            folded.seating.copy(),
            folded.clocks,
        )

    def play_bots(
        self,
        ruleset: Ruleset,
        seating: Seating,
        seed: bytes,
        state: Any,
        next_seq: int,
        turns: TurnWatch | None = None,
    ) -> tuple[list[Event], list[Command]]:
        """Let the seats a bot plays now answer every decision awaited from them;
        return their events (folded into ``state``) and the commands they sent.
        ``turns`` sees each bot's command. :class:`BotsBusy` if they play longer than
        :data:`LONG_BOT_PLAY_SECONDS` while another request's bots do so too (the
        state is then part-played: the caller drops it). Bots still playing after
        :data:`MAX_BOT_STEPS` commands play with no person to wait for (bots alone, or
        every person resigned) and may never end: the game is abandoned, as its owner
        would abandon it, rather than left waiting for a move nobody will send."""
        produced: list[Event] = []
        commands: list[Command] = []

        def record(seat: int | None, command: dict[str, Any], events: list[Event]) -> None:
            seq = next_seq + len(produced)
            commands.extend(recorded(Command(seq, seat, command), events))
            produced.extend(events)
            if turns is not None:
                turns.step(state, events, seq + len(events) - 1)

        started, slot = time.thread_time(), False
        try:
            for _ in range(MAX_BOT_STEPS):
                bot_seat = bot_awaited(ruleset, seating, state)
                if bot_seat is None:
                    break
                if not slot and time.thread_time() - started > LONG_BOT_PLAY_SECONDS:
                    if not self.long_bot_play.acquire(blocking=False):
                        raise BotsBusy(
                            "this process's bots are playing a long game for another"
                            " request; nothing was written: send this again shortly"
                        )
                    slot = True
                seq = next_seq + len(produced)
                command, events = self._bot_move(ruleset, seating, seed, state, bot_seat, seq)
                record(bot_seat, command, events)
            else:
                if bot_awaited(ruleset, seating, state) is not None:
                    abandon = {"type": ABANDON}
                    seq = next_seq + len(produced)
                    events = ruleset.apply(state, None, abandon, rng_for(seed, seq))
                    for event in events:
                        seating.evolve(event.type, event.data)
                    record(None, abandon, events)
        finally:
            if slot:
                self.long_bot_play.release()
        return produced, commands

    def _bot_move(
        self,
        ruleset: Ruleset,
        seating: Seating,
        seed: bytes,
        state: Any,
        bot_seat: int,
        seq: int,
    ) -> tuple[dict[str, Any], list[Event]]:
        """The command of the bot that plays ``bot_seat``, its first event numbered
        ``seq``, and its events, folded into ``state``."""
        bot = seating.bot_of(bot_seat)
        assert bot is not None  # (the seat was chosen for its bot)
        command = ruleset.bot_command(state, bot_seat, bot, bot_rng_for(seed, seq))
        try:
            return command, ruleset.apply(state, bot_seat, command, rng_for(seed, seq))
        except IllegalMove as refused:
            if bot == FALLBACK_BOT or FALLBACK_BOT not in ruleset.bots:
                raise
            # A bot's mistake must not stop the game for good (every write and
            # read would fail on it): it is logged, and the random bot, which
            # picks from the menus, answers instead.
            log.error(
                "a bot's command was refused; the random bot answers instead",
                extra={"bot": bot, "command": command, "refusal": refused.code},
            )
            command = ruleset.bot_command(state, bot_seat, FALLBACK_BOT, bot_rng_for(seed, seq))
            return command, ruleset.apply(state, bot_seat, command, rng_for(seed, seq))

    def summary_body(self, game: GameRecord, ruleset: Ruleset, folded: Folded) -> dict[str, Any]:
        """The game summary: its row (:func:`game_item`) with what the folded log
        adds: who plays each seat now, the open decisions and, once finished, the
        result."""
        finished = game.status == "finished"
        state = folded.state
        return {
            **game_item(game),
            "seats": seated(game.seats, folded.seating.controls()),
            "abandoned": folded.seating.abandoned,
            "clocks": self.clocks_now(game, folded),
            "awaiting": ruleset.awaiting(state),
            "result": ruleset.result(state) if finished else None,
        }

    @staticmethod
    def clocks_now(game: GameRecord, folded: Folded) -> list[dict[str, Any]] | None:
        """Each seat's time left now, in a game with a time control (else None)."""
        control = TimeControl.of(game.options)
        if control is None or folded.clocks is None:
            return None
        return folded.clocks.shown(control, datetime.now(UTC))

    # -- use cases -------------------------------------------------------------

    def create_game(
        self,
        api_key_id: str | None,
        ruleset_name: str,
        options: dict[str, Any],
        seat_specs: list[dict[str, Any]],
    ) -> Outcome:
        ruleset = self.ruleset(ruleset_name)
        seats, tokens = prepare_seats(ruleset, seat_specs)
        seed = secrets.token_bytes(32)
        normalized, events = genesis(ruleset, options, len(seats), seed)
        for index, seat in enumerate(seats):
            if seat["bot"] is not None and not bots_may_play(ruleset, normalized):
                raise ValidationFailed(f"seats.{index}.bot", NO_BOTS_EXTERNAL)
        state = ruleset.fold(events)
        seating = Seating.of(seats)
        turns = TurnWatch(ruleset, seats, seating, None)
        turns.step(state, events, len(events))
        bot_events, commands = self.play_bots(ruleset, seating, seed, state, len(events) + 1, turns)
        events += bot_events
        control = TimeControl.of(normalized)
        new = NewGame(
            ruleset=ruleset.name,
            options=normalized,
            seats=seats,
            seed=seed,
            seed_hash=hashlib.sha256(seed).hexdigest(),
            api_key_id=api_key_id,
        )
        status = "finished" if ruleset.is_over(state) else "active"
        clocks = None
        with self.db.connection() as conn:
            record = self.store.create_game(conn, new)
            if control is not None:  # the clocks start with the game
                now = self.store.transaction_time(conn)
                reading = self._clock_reading(ruleset, control, None, state, seating, now, ())
                events.append(Event(CLOCK, reading))
                commands.append(Command(len(events), None, {"type": CLOCK, **reading}))
                clocks = Clocks.read(reading, now)
            self.store.append(
                conn,
                record,
                0,
                [to_new_event(e) for e in events],
                status=status,
                commands=commands,
                notices=turns.notices,
                clock_deadline=next_deadline(control, clocks),
            )
            game = self.store.get_game(conn, record.id)
        folded = Folded(state, ruleset.rules_version, seating, clocks)
        self._remember(game.id, game.version, folded)
        body = self.summary_body(game, ruleset, folded)
        body["seat_tokens"] = [
            {"seat": i, "token": token} for i, token in enumerate(tokens) if token is not None
        ]
        return Outcome(201, body)

    def summary(self, game_id: str, token: str | None, expire: bool = True) -> Outcome:
        """The game summary; timeouts that are due are applied first (``expire``)."""
        with ExitStack() as reading:
            with self.db.connection() as conn:
                game = self.load_game(conn, game_id)
                seat_of(game.seats, token)
                ruleset = self.ruleset(game.ruleset)
                folded = reading.enter_context(self._reading(conn, game, ruleset, game.version))
            if not (expire and due(game, folded)):
                return Outcome(200, self.summary_body(game, ruleset, folded))
        self.expire_due(game_id)
        return self.summary(game_id, token, expire=False)

    @contextmanager
    def viewed(
        self,
        game_id: str,
        token: str | None,
        at: int | None,
        recent: int = 0,
        expire: bool = True,
    ) -> Iterator[Viewed]:
        """The game at version ``at`` (default: now, after the timeouts that are due)
        as the caller may see it, to read while the block runs: the one path by which
        the state and the board picture read a game, so both check the same credentials
        and show the same view. ``recent`` asks for up to that many of the last events
        up to that version, as stored (redact them per viewer)."""
        if expire and at is None:
            with self.db.connection() as conn:
                game = self.load_game(conn, game_id)
                seat_of(game.seats, token)
            if TimeControl.of(game.options) is not None:
                self.expire_due(game_id)
        with ExitStack() as reading:
            with self.db.connection() as conn:
                game = self.load_game(conn, game_id)
                seat = seat_of(game.seats, token)
                ruleset = self.ruleset(game.ruleset)
                if at is not None and at > game.version:
                    raise ValidationFailed("at", f"the game is at version {game.version}")
                version = game.version if at is None else at
                folded = reading.enter_context(self._reading(conn, game, ruleset, version))
                stored = []
                if recent:
                    after = max(0, version - recent)
                    stored = self.store.read_events(conn, game.id, after=after, upto=version)
            yield Viewed(game, ruleset, seat, version, folded.state, stored)

    def state(self, game_id: str, token: str | None, at: int | None) -> Outcome:
        with self.viewed(game_id, token, at) as viewed:
            ruleset, state, seat = viewed.ruleset, viewed.state, viewed.seat
            body = {
                "game_id": viewed.game.id,
                "ruleset": ruleset.name,
                "version": viewed.version,
                "seat": seat,
                "status": "finished" if ruleset.is_over(state) else "active",
                "awaiting": ruleset.awaiting(state),
                "state": ruleset.view(state, seat),
            }
        return Outcome(200, body)

    def events(self, game_id: str, token: str | None, after: int, limit: int) -> Outcome:
        with self.db.connection() as conn:
            game = self.load_game(conn, game_id)
            seat = seat_of(game.seats, token)
            ruleset = self.ruleset(game.ruleset)
            stored = self.store.read_events(conn, game.id, after=after, limit=limit)
        items = [event_item(ruleset, e, seat) for e in stored]
        last = items[-1]["seq"] if items else after
        body = {
            "game_id": game.id,
            "ruleset": ruleset.name,
            "version": game.version,
            "seat": seat,
            "events": items,
            "next_after": last if last < game.version else None,
        }
        return Outcome(200, body)

    def viewer(self, game_id: str, token: str | None) -> tuple[GameRecord, Ruleset, int | None]:
        """The game, its ruleset and the caller's seat (for streaming)."""
        with self.db.connection() as conn:
            game = self.load_game(conn, game_id)
        return game, self.ruleset(game.ruleset), seat_of(game.seats, token)

    def read_after(self, game_id: str, after: int, limit: int = 1000) -> list[StoredEvent]:
        with self.db.connection() as conn:
            return self.store.read_events(conn, game_id, after=after, limit=limit)

    def legal_moves(self, game_id: str, token: str | None, expire: bool = True) -> Outcome:
        with ExitStack() as reading:
            with self.db.connection() as conn:
                game = self.load_game(conn, game_id)
                seat = seat_of(game.seats, token)
                if seat is None:
                    raise Forbidden("legal moves are private to a seat: send its seat token")
                ruleset = self.ruleset(game.ruleset)
                folded = reading.enter_context(self._reading(conn, game, ruleset, game.version))
            if not (expire and due(game, folded)):
                state = folded.state
                body = {
                    "game_id": game.id,
                    "ruleset": ruleset.name,
                    "version": game.version,
                    "seat": seat,
                    "awaiting": ruleset.awaiting(state),
                    "commands": ruleset.legal_commands(state, seat),
                }
                return Outcome(200, body)
        self.expire_due(game_id)
        return self.legal_moves(game_id, token, expire=False)

    def submit(self, *args: Any) -> Outcome:
        """:meth:`submit_once`; if timeouts were due, they are applied first, then the
        command is decided on the game they leave."""
        return self._after_timeouts(self.submit_once, *args)

    def submit_once(
        self,
        game_id: str,
        token: str | None,
        claimed_seat: int | None,
        command: dict[str, Any],
        precondition: Precondition,
        idempotency_key: str | None,
    ) -> Outcome:
        """Apply one command, with the bots' answers, in one transaction.

        ``precondition`` names the version the client decided on, or the open decision
        its command answers, or both: a version must be the game's; a decision must
        still be open, whatever else was written meanwhile (several seats answering
        decisions open at the same time do not conflict). Of the commands of the table
        a seat sends only ``resign``; the others are the game's owner's
        (:meth:`owner_command`)."""
        with self.db.connection() as conn:
            known = self._decidable_unlocked(game_id, precondition)
            if known is not None:
                args = (token, claimed_seat, command, precondition, idempotency_key)
                outcome = self._submit_unlocked(conn, known, *args)
                if outcome is not None:
                    return outcome
            game, tx_now = self._locked(conn, game_id)
            seat, step, remember = self._seat_step(
                game, token, claimed_seat, command, precondition, idempotency_key
            )
            try:
                expected = precondition.version
                # (a finished game says so, whatever version the client last saw)
                if expected is not None and game.version != expected and game.status != "finished":
                    raise VersionConflictError(
                        f"expected version {expected}, the game is at {game.version}",
                        current_version=game.version,
                    )
                outcome, folded = self._write_step(conn, game, tx_now, step, seat, remember)
            except (AppError, IdempotencyKeyTaken) as refused:
                if isinstance(refused, VersionConflictError | DecisionClosed | NotYourTurn):
                    self._say_if_timed_out(conn, game, seat, precondition, refused)
                return self._answered_before(conn, game, remember, refused)
        self._written(game, tx_now, outcome, folded)
        return outcome

    def _say_if_timed_out(
        self,
        conn: psycopg.Connection,
        game: GameRecord,
        seat: int,
        precondition: Precondition,
        refused: AppError,
    ) -> None:
        """A move refused because its seat ran out of time meanwhile says so: its client
        saw the game as it was before the timeout (at the version or the decision it
        names) and the player should be told why the move no longer counts."""
        if TimeControl.of(game.options) is None:
            return
        since = precondition.version
        if since is None and precondition.decision is not None:
            since = opened_at(precondition.decision)
        if since is None:
            since = game.version - 1
        timed_out = self.store.last_of_seat(conn, game.id, SEAT_TIMED_OUT, seat, since)
        if timed_out is not None:
            refused.detail += f"; seat {seat}'s time ran out at version {timed_out}"

    def _submit_unlocked(
        self,
        conn: psycopg.Connection,
        known: GameRecord,
        token: str | None,
        claimed_seat: int | None,
        command: dict[str, Any],
        precondition: Precondition,
        idempotency_key: str | None,
    ) -> Outcome | None:
        """The command decided on the game as this process knows it and written in one
        statement, which commits itself: one round trip to the database instead of
        four. ``None`` if it was refused, the key was taken or the game has moved on
        (nothing written then): the caller decides it again under the row lock."""
        at = datetime.now(UTC)
        try:
            with _autocommit(conn):
                seat, step, remember = self._seat_step(
                    known, token, claimed_seat, command, precondition, idempotency_key
                )
                outcome, folded = self._write_step(
                    conn, known, at, step, seat, remember, unlocked=True
                )
        except BotsBusy:
            raise  # decided again under the lock, its bots would be just as long
        except (AppError, IdempotencyKeyTaken):
            return None
        self._written(known, at, outcome, folded)
        return outcome

    def _decidable_unlocked(self, game_id: str, precondition: Precondition) -> GameRecord | None:
        """The game row as this process last wrote or read it, if a command may be
        decided on it and written without the row lock (:meth:`EventStore.write`,
        ``unlocked``): an active game without a time control (its clocks are read at the
        transaction's time, which a lock-free write has no way to read first), at the
        version the client names, and no test pause asked for. The write aborts itself
        if the game has moved on since, and any refusal is decided again under the lock:
        what this process knew may be stale. A command naming only its decision goes to
        the lock: it is how seats answer at the same time, when what one worker knows is
        often stale, and a conflicting write costs the fold it changed."""
        if precondition.version is None or hooks.pausing():
            return None
        known = self.store.known.get(game_id)
        if known is None or known.version != precondition.version:
            return None
        if known.status != "active" or TimeControl.of(known.options) is not None:
            return None
        return known

    def _seat_step(
        self,
        game: GameRecord,
        token: str | None,
        claimed_seat: int | None,
        command: dict[str, Any],
        precondition: Precondition,
        idempotency_key: str | None,
    ) -> tuple[int, Step, tuple[str, str] | None]:
        """The seat the token plays, the step to decide and, under an Idempotency-Key,
        the key and the request's hash (its identity); Forbidden if the token may not
        send it."""
        seat = seat_of(game.seats, token)
        if seat is None:
            raise Forbidden("moving needs the seat token of the seat that moves")
        if claimed_seat is not None and claimed_seat != seat:
            raise Forbidden(f"this seat token belongs to seat {seat}, not {claimed_seat}")
        if is_table_command(command) and command["type"] != RESIGN:
            raise Forbidden(_NOT_A_SEATS.get(command["type"], "the game's owner sends it"))
        external = game.options.get("randomness") == "external"
        check_fields(self.ruleset(game.ruleset), command, external)
        request_hash = hashlib.sha256(
            canonical_json({"seat": seat, "command": command, **precondition.key()})
        ).hexdigest()
        remember = None
        if idempotency_key is not None:
            remember = (scoped_key(f"seat {seat}", idempotency_key), request_hash)
        return seat, Step(seat, command, precondition.decision), remember

    def _written(self, game: GameRecord, at: datetime, outcome: Outcome, folded: Folded) -> None:
        """After a write of ``game`` at ``at`` has committed: its fold and its row as
        they are now, for the next command to be decided on."""
        body = outcome.body
        seats_now = game.seats_now
        if any(item["type"] in SEAT_CHANGES for item in body["events"]):
            seats_now = folded.seating.controls()
        self.store.known.remember(
            dataclasses.replace(
                game,
                version=body["version"],
                head_hash=body["head_hash"],
                head_signature=body["head_signature"],
                status=body["status"],
                updated_at=at,
                seats_now=seats_now,
            )
        )
        self._remember(game.id, body["version"], folded)

    def owner_command(self, game_id: str, *args: Any) -> Outcome:
        """:meth:`owner_command_once`, after the timeouts that are due (applied first:
        a hand-over is checked against the seats as the timeouts leave them)."""
        self.expire_due(game_id)
        return self._after_timeouts(self.owner_command_once, game_id, *args)

    def _after_timeouts(self, write: Any, game_id: str, *args: Any) -> Outcome:
        """``write(game_id, *args)``; while it finds timeouts due, apply them and
        decide it again. Timeouts that keep falling due (a machine so slow that a
        seat's move time runs out between two tries) leave the write undone, and say
        so, as for any game that moved on."""
        for _ in range(3):
            try:
                return write(game_id, *args)
            except TimeoutsDue:
                self.apply_timeouts(game_id)
        try:
            return write(game_id, *args)
        except TimeoutsDue as exc:
            raise VersionConflictError(
                "seats kept running out of time while this was decided; nothing was"
                " written: read the game and send it again",
                current_version=None,
            ) from exc

    def owner_command_once(
        self,
        game_id: str,
        api_key_id: str,
        seat: int | None,
        command: dict[str, Any],
        idempotency_key: str | None,
    ) -> Outcome:
        """A command of the table from the API key that created the game: ``abandon``
        (no seat), ``hand_to_bot {bot}`` or ``hand_back`` (for ``seat``). Decided on
        the game as it is, under its row lock, with the bots' answers after it (a seat
        handed to a bot that is awaited plays at once)."""
        with self.db.connection() as conn:
            game, tx_now = self._locked(conn, game_id)
            if game.api_key_id is None or game.api_key_id != api_key_id:
                raise Forbidden("only the API key that created the game may do this")
            request_hash = hashlib.sha256(
                canonical_json({"owner": True, "seat": seat, "command": command})
            ).hexdigest()
            if seat is not None and not 0 <= seat < len(game.seats):
                raise ValidationFailed("seat", f"the game has seats 0 to {len(game.seats) - 1}")
            remember = None
            if idempotency_key is not None:
                remember = (scoped_key("owner", idempotency_key), request_hash)
            try:
                if command["type"] != "abandon" and game.status != "finished":
                    self._check_handover(conn, game, seat, command)
                step = Step(seat, command)
                outcome, folded = self._write_step(conn, game, tx_now, step, None, remember)
            except (AppError, IdempotencyKeyTaken) as refused:
                return self._answered_before(conn, game, remember, refused)
        self._written(game, tx_now, outcome, folded)
        return outcome

    def _locked(self, conn: psycopg.Connection, game_id: str) -> tuple[GameRecord, datetime]:
        """The game row, locked for this transaction's write, and the transaction's
        time."""
        try:
            return self.store.lock_for_command(conn, game_id)
        except UnknownGame as exc:
            raise UnknownGameError(f"no game with id {game_id}") from exc

    def _answered_before(
        self,
        conn: psycopg.Connection,
        game: GameRecord,
        remember: tuple[str, str] | None,
        refused: Exception,
    ) -> Outcome:
        """For a command ``refused`` (or whose key's row is taken already): the stored
        answer if this request was answered before under its Idempotency-Key, else the
        refusal itself. The record is looked
        up only here: a request answered before always lands here, since its command
        moved the game on, so a command that goes ahead costs no lookup; under the row
        lock a concurrent duplicate waits for the first to commit, finds its
        precondition stale (or its key taken), and replays the first's answer."""
        if remember is None:
            raise refused
        conn.rollback()  # after IdempotencyKeyTaken the transaction is aborted
        stored = self.store.idempotency_record(conn, game.id, remember[0])
        if stored is None:
            raise refused
        return replayed(stored, remember[1], game.ruleset)

    def _check_handover(
        self, conn: psycopg.Connection, game: GameRecord, seat: int | None, command: dict[str, Any]
    ) -> None:
        """A seat handed to a bot is a person's seat that is not a bot's already (or a
        bot seat given another bot); a seat handed back is played by a bot and has a
        person to hand it back to."""
        assert seat is not None  # (both come with the seat of their URL)
        ruleset = self.ruleset(game.ruleset)
        with self._reading(conn, game, ruleset, game.version) as folded:
            control = folded.seating.seats[seat]
            resigned = seat in ruleset.resigned_seats(folded.state)
        if resigned:
            return  # the rules refuse it, naming their rule (422 resigned)
        if command["type"] == "hand_back":
            if not control.person:
                raise SeatConflict(f"seat {seat} was created for a bot: it has no person")
            if control.bot is None:
                raise SeatConflict(f"seat {seat} is played by its person already")
        elif control.bot == command.get("bot"):
            raise SeatConflict(f"seat {seat} is played by the {control.bot} bot already")
        elif not bots_may_play(ruleset, game.options):
            raise ValidationFailed("bot", NO_BOTS_EXTERNAL)

    def _write_step(
        self,
        conn: psycopg.Connection,
        game: GameRecord,
        tx_now: datetime,
        step: Step,
        viewer: int | None,
        remember: tuple[str, str] | None,
        *,
        unlocked: bool = False,
    ) -> tuple[Outcome, Folded]:
        """Decide ``step`` on the game as it is (its row locked, or ``unlocked``: as this
        process knew it, ``conn`` in autocommit), let the bots answer, read the clocks (a
        game with a time control), and write the events, the commands and
        (``remember``: key and request hash) the idempotency record in one statement,
        recorded at ``tx_now``. The answer, its body as ``viewer`` sees it, and the
        folded game after it."""
        ruleset = self.ruleset(game.ruleset)
        if game.status == "finished":
            over = ruleset.illegal("game_over", "the game has ended; no more moves")
            raise illegal(over, game.version)
        folded = self._taken(conn, game, ruleset)
        # (an abandon ends the game as it is: no timeout that is due need go first,
        # however many keep falling due)
        if step.command.get("type") not in _NOT_AFTER_TIMEOUTS and due(game, folded, tx_now):
            self._remember(game.id, game.version, folded)
            raise TimeoutsDue(game.id)
        state, seating = folded.state, folded.seating
        events = []
        if folded.written_under != ruleset.rules_version:
            events.append(ruleset.upgrade_marker(folded.written_under))
        next_seq = game.version + len(events) + 1
        rng = rng_for(game.seed, next_seq)
        turns = TurnWatch(ruleset, game.seats, seating, state)
        try:
            own = ruleset.apply(state, step.seat, step.command, rng, step.decision)
        except RulesError as exc:
            self._remember(game.id, game.version, folded)
            raise illegal(exc, game.version) from exc
        seats_now = None  # the row's seats_now, when this step changes it
        for event in own:
            seating.evolve(event.type, event.data)
            if event.type in SEAT_CHANGES:
                seats_now = seating.controls()
        events += own
        turns.step(state, own, game.version + len(events))
        commands = recorded(Command(next_seq, step.seat, step.command, step.decision), own)
        control = TimeControl.of(game.options)
        # a seat still awaited after its command moves on within one move: its clock
        # runs on from when its wait began, and the increment comes when the wait ends
        waits_on = (
            control is not None
            and step.seat is not None
            and any(
                d.seat == step.seat and d.kind not in ruleset.optional_decisions
                for d in ruleset.decisions(state)
            )
        )
        bot_events, bot_commands = self.play_bots(
            ruleset, seating, game.seed, state, game.version + len(events) + 1, turns
        )
        events += bot_events
        commands += bot_commands
        clocks = folded.clocks
        if control is not None:
            seat = step.seat
            moved: tuple[int, ...] = ()
            if seat is not None and not is_table_command(step.command) and not waits_on:
                moved = (seat,)
            timed_out: tuple[int, ...] = ()
            if seat is not None and step.command.get("type") == TIME_OUT:
                timed_out = (seat,)
            reading = self._clock_reading(
                ruleset, control, clocks, state, seating, tx_now, moved, timed_out
            )
            command = {"type": CLOCK, **reading}
            seq = game.version + len(events) + 1
            own = ruleset.apply(state, None, command, rng_for(game.seed, seq))
            events += own
            commands += recorded(Command(seq, None, command), own)
            clocks = Clocks.read(reading, tx_now)
        status = "finished" if ruleset.is_over(state) else "active"
        # The events' hashes and times are known before writing (recorded_at is the
        # transaction's time), so the response, and with it the idempotency record,
        # is built first and everything is written in one statement.
        chained = self.store.chain(game, game.version, [to_new_event(e) for e in events], tx_now)
        version = game.version + len(events)
        head = chained[-1].hash if chained else game.head_hash
        body = {
            "game_id": game.id,
            "ruleset": game.ruleset,
            "seat": viewer,
            "version": version,
            "head_hash": head,
            "head_signature": self.store.head_signature(game.id, version, head),
            "status": status,
            "events": [event_item(ruleset, e, viewer) for e in chained],
            "awaiting": ruleset.awaiting(state),
            "result": ruleset.result(state) if status == "finished" else None,
        }
        text = _ANSWER_JSON.encode(body)
        idempotency = None if remember is None else (*remember, 200, text)
        try:
            self.store.write(
                conn,
                game,
                game.version,
                chained,
                status=status,
                idempotency=idempotency,
                commands=commands,
                notices=turns.notices,
                unlocked=unlocked,
                seats_now=seats_now,
                clock_deadline=next_deadline(control, clocks),
            )
        except VersionConflict as exc:
            raise VersionConflictError(str(exc), current_version=None) from exc
        hooks.pause_point("before-commit")
        return Outcome(200, body, text=text), Folded(state, ruleset.rules_version, seating, clocks)

    @staticmethod
    def _clock_reading(
        ruleset: Ruleset,
        control: TimeControl,
        before: Clocks | None,
        state: Any,
        seating: Seating,
        now: datetime,
        moved: tuple[int, ...],
        timed_out: tuple[int, ...] = (),
    ) -> dict[str, Any]:
        """The clocks after a write at ``now``: the time since the last reading charged
        to the seats that were waiting, the increment to the seat that ``moved``, and
        the clocks of the seats its people must answer now running (a seat a bot plays
        never waits; one that ``timed_out`` waits afresh; a decision the ruleset calls
        optional holds nobody up)."""
        awaited = set()
        if not ruleset.is_over(state):
            optional = ruleset.optional_decisions
            awaited = {
                d.seat
                for d in ruleset.decisions(state)
                if d.kind not in optional and not seating.bot_of(d.seat)
            }
        return charged(control, before, len(seating.seats), now, awaited, moved, timed_out)

    # -- clocks ----------------------------------------------------------------

    def expire_due(self, game_id: str) -> int:
        """Apply the timeouts that are due in a game with a time control: the lazy
        check before every read and write of the game (and the sweep's). Cheap when
        nothing is due: the game row and its cached fold. The timeouts applied."""
        running = self._running_clocks(game_id)
        if running is None:
            return 0
        _, control, clocks = running
        if not clocks.overdue(control, datetime.now(UTC)):
            return 0
        return self.apply_timeouts(game_id)

    def _running_clocks(self, game_id: str) -> tuple[GameRecord, TimeControl, Clocks] | None:
        """An active game with a time control as this process knows it: its row, its
        time control and its clocks (None for any other game)."""
        with self.db.connection() as conn:
            try:
                game = self.store.get_game(conn, game_id)
            except UnknownGame:
                return None
            control = TimeControl.of(game.options)
            if control is None or game.status != "active":
                return None
            ruleset = self.ruleset(game.ruleset)
            with self._reading(conn, game, ruleset, game.version) as folded:
                clocks = folded.clocks
        return None if clocks is None else (game, control, clocks)

    def apply_timeouts(self, game_id: str) -> int:
        """Every timeout due now, one transaction each (:meth:`time_out`); how many."""
        applied = 0
        while applied < 64 and self.time_out(game_id):
            applied += 1
        return applied

    def time_out(self, game_id: str) -> bool:
        """One timeout, decided in a transaction: lock the game, read its clocks at the
        version locked, and if a seat's time has run out by the transaction's time,
        apply the game's ``on_timeout`` to it (``time_out`` step, then the bots and a
        new clock reading), written with the version read as the expected one. Two
        replicas never apply the same timeout twice: the second waits for the lock and
        finds the clocks read anew. Whether one was applied."""
        with self.db.connection() as conn:
            try:
                game, tx_now = self.store.lock_for_command(conn, game_id)
            except UnknownGame:
                return False
            control = TimeControl.of(game.options)
            if control is None or game.status != "active":
                return False
            ruleset = self.ruleset(game.ruleset)
            with self._reading(conn, game, ruleset, game.version) as folded:
                clocks = folded.clocks
            overdue = clocks.overdue(control, tx_now) if clocks else []
            if clocks is None or not overdue:
                return False
            seat, action = overdue[0], control.on_timeout
            if action == "skip" and clocks.total_spent(seat, tx_now):
                # no time left at all: skipped, the seat would be out of time again at
                # once each time it is awaited, and the game would never end
                action = "forfeit"
            command = {"type": TIME_OUT, "action": action}
            if control.bot is not None:
                command["bot"] = control.bot
            step = Step(seat, command)
            outcome, folded = self._write_step(conn, game, tx_now, step, None, None)
        self._written(game, tx_now, outcome, folded)
        return True

    def sweep_clocks(self, limit: int = 1000) -> int:
        """The timeouts due in the active games with a time control, for games nobody
        reads or moves (``service.cli sweep-clocks``): the games whose row says a clock
        has run out, the longest overdue first, at most ``limit``. The timeouts
        applied."""
        with self.db.connection() as conn:
            due = self.store.clocked_games_due(conn, limit)
        applied = 0
        for game_id, _ in due:
            try:
                found = self.expire_due(game_id)
                if not found:  # the row's deadline was a guess (migration 0014): correct it
                    self._keep_clock_deadline(game_id)
            except Exception:  # one game's failure must not keep the others waiting
                log.exception("the clock sweep could not time out game %s", game_id)
                continue
            applied += found
        return applied

    def _keep_clock_deadline(self, game_id: str) -> None:
        running = self._running_clocks(game_id)
        if running is not None:
            game, control, clocks = running
            with self.db.connection() as conn:
                self.store.keep_clock_deadline(
                    conn, game.id, game.version, clocks.next_deadline(control)
                )

    def status(self, game_id: str) -> tuple[str, int]:
        """(status, version) of a game, for followers deciding whether to keep waiting."""
        with self.db.connection() as conn:
            game = self.load_game(conn, game_id)
        return game.status, game.version
