"""Game use cases: create, submit a command (then let bot seats play), read views.

A command runs in one transaction: lock the game row, replay an idempotent retry or
check the expected version, fold the state, decide, let bots answer, append, record
the idempotency key, NOTIFY, commit. The row lock serialises writers of one game, so
the loser of a race waits, sees the new version and gets ``version_conflict``; the
``(game_id, seq)`` key is the second line of defence.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg

from service.app import hooks
from service.app.cache import StateCache
from service.app.errors import (
    AppError,
    DecisionClosed,
    Forbidden,
    GameOver,
    IdempotencyKeyReused,
    IllegalMoveError,
    NotYourTurn,
    UnknownGameError,
    ValidationFailed,
    VersionConflictError,
)
from service.app.genesis import RulesetLookup, find_ruleset, genesis
from service.app.seats import prepare_seats, public_seats, seat_of
from service.rules.core import Event, RulesError, Ruleset, bot_rng_for, rng_for
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

MAX_BOT_STEPS = 10_000


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
class Folded:
    """A folded state and the rules version its log was written under (the cache
    keeps both, so the rest of the log is upcast the same way)."""

    state: Any
    written_under: int


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


@dataclass(frozen=True, slots=True)
class Outcome:
    """A use case's answer: HTTP-agnostic status and body, and whether it was replayed."""

    status: int
    body: dict[str, Any]
    replayed: bool = False


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
        "seats": public_seats(game.seats),
        "status": game.status,
        "version": game.version,
        "head_hash": game.head_hash,
        "head_signature": game.head_signature,
        "seed_sha256": game.seed_hash,
        "seed": game.seed.hex() if finished else None,
        "created_at": game.created_at.isoformat(),
        "updated_at": game.updated_at.isoformat(),
    }


def illegal(exc: RulesError, version: int) -> Exception:
    """The API error for a refused command; ``version`` is the game's."""
    if exc.code == "not_your_turn":
        return NotYourTurn(exc.message, reason=exc.code, rule=exc.rule)
    if exc.code == "decision_closed":
        return DecisionClosed(exc.message, rule=exc.rule, current_version=version)
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
        """The state at version ``upto``, evolved from ``start`` (a version and its
        state, which this changes) or from the beginning: the rest of the log is read
        and upcast from the rules version it was written under."""
        if start is not None:
            after, folded = start
            state, written_under = folded.state, folded.written_under
        else:
            after, state, written_under = 0, ruleset.initial_state(), None
        if after < upto:
            stored = self.store.read_events(conn, game.id, after=after, upto=upto)
            if written_under is None and stored:
                written_under = ruleset.version_of(to_rules_event(stored[0]))
            for event in ruleset.upcast_log(map(to_rules_event, stored), written_under):
                state = ruleset.evolve(state, event)
        return Folded(state, ruleset.rules_version if written_under is None else written_under)

    @contextmanager
    def _reading(
        self, conn: psycopg.Connection, game: GameRecord, ruleset: Ruleset, upto: int
    ) -> Iterator[Folded]:
        """The state at version ``upto``, to read and never to change: the cached state
        itself when the cache holds that version (shared with other readers, kept from
        the writer while the block runs), else a state of this request's own, from a
        copy of an earlier cached version or from the log; remembered afterwards if it
        is the game's current version."""
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

    def _remember(self, game_id: str, version: int, folded: Folded) -> None:
        self.cache.put(game_id, version, folded)

    @staticmethod
    def _copy(ruleset: Ruleset) -> Callable[[Folded], Folded]:
        return lambda folded: Folded(ruleset.copy_state(folded.state), folded.written_under)

    def play_bots(
        self, ruleset: Ruleset, seats: list[dict], seed: bytes, state: Any, next_seq: int
    ) -> tuple[list[Event], list[Command]]:
        """Let bot seats answer every decision awaited from them; return their events
        (folded into ``state``) and the commands they sent."""
        produced: list[Event] = []
        commands: list[Command] = []
        for _ in range(MAX_BOT_STEPS):
            if ruleset.is_over(state):
                break
            awaited = (d.seat for d in ruleset.decisions(state))
            bot_seat = next((s for s in awaited if seats[s].get("bot")), None)
            if bot_seat is None:
                break
            seq = next_seq + len(produced)
            bot = seats[bot_seat]["bot"]
            command = ruleset.bot_command(state, bot_seat, bot, bot_rng_for(seed, seq))
            events = ruleset.apply(state, bot_seat, command, rng_for(seed, seq))
            commands += recorded(Command(seq, bot_seat, command), events)
            produced += events
        return produced, commands

    def summary_body(self, game: GameRecord, ruleset: Ruleset, state: Any) -> dict[str, Any]:
        """The game summary: its row (:func:`game_item`) with what the folded state
        adds, the open decisions and, once finished, the result."""
        finished = game.status == "finished"
        return {
            **game_item(game),
            "awaiting": ruleset.awaiting(state),
            "result": ruleset.result(state) if finished else None,
        }

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
        state = ruleset.fold(events)
        bot_events, commands = self.play_bots(ruleset, seats, seed, state, len(events) + 1)
        events += bot_events
        new = NewGame(
            ruleset=ruleset.name,
            options=normalized,
            seats=seats,
            seed=seed,
            seed_hash=hashlib.sha256(seed).hexdigest(),
            api_key_id=api_key_id,
        )
        status = "finished" if ruleset.is_over(state) else "active"
        with self.db.connection() as conn:
            record = self.store.create_game(conn, new)
            self.store.append(
                conn,
                record,
                0,
                [to_new_event(e) for e in events],
                status=status,
                commands=commands,
            )
            game = self.store.get_game(conn, record.id)
        self._remember(game.id, game.version, Folded(state, ruleset.rules_version))
        body = self.summary_body(game, ruleset, state)
        body["seat_tokens"] = [
            {"seat": i, "token": token} for i, token in enumerate(tokens) if token is not None
        ]
        return Outcome(201, body)

    def summary(self, game_id: str, token: str | None) -> Outcome:
        with ExitStack() as reading:
            with self.db.connection() as conn:
                game = self.load_game(conn, game_id)
                seat_of(game.seats, token)
                ruleset = self.ruleset(game.ruleset)
                folded = reading.enter_context(self._reading(conn, game, ruleset, game.version))
            return Outcome(200, self.summary_body(game, ruleset, folded.state))

    @contextmanager
    def viewed(
        self, game_id: str, token: str | None, at: int | None, recent: int = 0
    ) -> Iterator[Viewed]:
        """The game at version ``at`` (default: now) as the caller may see it, to read
        while the block runs: the one path by which the state and the board picture
        read a game, so both check the same credentials and show the same view.
        ``recent`` asks for up to that many of the last events up to that version, as
        stored (redact them per viewer)."""
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

    def legal_moves(self, game_id: str, token: str | None) -> Outcome:
        with ExitStack() as reading:
            with self.db.connection() as conn:
                game = self.load_game(conn, game_id)
                seat = seat_of(game.seats, token)
                if seat is None:
                    raise Forbidden("legal moves are private to a seat: send its seat token")
                ruleset = self.ruleset(game.ruleset)
                folded = reading.enter_context(self._reading(conn, game, ruleset, game.version))
            state = folded.state
            body = {
                "game_id": game.id,
                "version": game.version,
                "seat": seat,
                "awaiting": ruleset.awaiting(state),
                "commands": ruleset.legal_commands(state, seat),
            }
        return Outcome(200, body)

    def submit(
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
        decisions open at the same time do not conflict).

        The ``idempotency_key``'s record is looked up only when the move cannot go ahead
        (its precondition fails, or the rules or the key's table refuse it): a request
        that was answered before always lands there, since its move moved the game on,
        so a move that goes ahead costs no lookup. Under the game row's lock, a
        concurrent duplicate waits for the first to commit, finds its precondition
        stale, and replays the first's answer."""
        with self.db.connection() as conn:
            try:
                game, tx_now = self.store.lock_for_command(conn, game_id)
            except UnknownGame as exc:
                raise UnknownGameError(f"no game with id {game_id}") from exc
            seat = seat_of(game.seats, token)
            if seat is None:
                raise Forbidden("moving needs the seat token of the seat that moves")
            if claimed_seat is not None and claimed_seat != seat:
                raise Forbidden(f"this seat token belongs to seat {seat}, not {claimed_seat}")
            request_hash = hashlib.sha256(
                canonical_json({"seat": seat, "command": command, **precondition.key()})
            ).hexdigest()
            remember = None if idempotency_key is None else (idempotency_key, request_hash)
            try:
                body, folded = self._move(conn, game, tx_now, seat, command, precondition, remember)
            except (AppError, IdempotencyKeyTaken) as refused:
                if idempotency_key is None:
                    raise
                conn.rollback()  # after IdempotencyKeyTaken the transaction is aborted
                stored = self.store.idempotency_record(conn, game.id, idempotency_key)
                if stored is None:
                    raise
                if stored[0] != request_hash:
                    raise IdempotencyKeyReused(
                        "this Idempotency-Key was used with a different request"
                    ) from refused
                return Outcome(stored[1], stored[2], replayed=True)
        self._remember(game.id, body["version"], folded)
        return Outcome(200, body)

    def _move(
        self,
        conn: psycopg.Connection,
        game: GameRecord,
        tx_now: datetime,
        seat: int,
        command: dict[str, Any],
        precondition: Precondition,
        remember: tuple[str, str] | None,
    ) -> tuple[dict[str, Any], Folded]:
        """Check the precondition, decide the command, let the bots answer and write it
        all (and the idempotency record ``(key, request hash)``, if any): the answer's
        body and the state after it, not yet committed."""
        expected = precondition.version
        if expected is not None and game.version != expected:
            raise VersionConflictError(
                f"expected version {expected}, the game is at {game.version}",
                current_version=game.version,
            )
        if game.status == "finished":
            raise GameOver("the game has ended; no more moves")
        ruleset = self.ruleset(game.ruleset)
        # The cached state becomes this request's to change (a copy only if another
        # request is reading it): put back if the command is refused (a refused
        # command folds nothing), dropped on any other failure.
        taken = self.cache.take(game.id, game.version, self._copy(ruleset))
        folded = self._fold(conn, game, ruleset, game.version, taken)
        state = folded.state
        events = []
        if folded.written_under != ruleset.rules_version:
            events.append(ruleset.upgrade_marker(folded.written_under))
        next_seq = game.version + len(events) + 1
        rng = rng_for(game.seed, next_seq)
        try:
            own = ruleset.apply(state, seat, command, rng, precondition.decision)
        except RulesError as exc:
            self._remember(game.id, game.version, folded)
            raise illegal(exc, game.version) from exc
        events += own
        commands = recorded(Command(next_seq, seat, command, precondition.decision), own)
        bot_events, bot_commands = self.play_bots(
            ruleset, game.seats, game.seed, state, game.version + len(events) + 1
        )
        events += bot_events
        commands += bot_commands
        status = "finished" if ruleset.is_over(state) else "active"
        # The events' hashes and times are known before writing (recorded_at is the
        # transaction's time), so the response, and with it the idempotency record,
        # is built first and everything is written in one statement.
        chained = self.store.chain(game, game.version, [to_new_event(e) for e in events], tx_now)
        version = game.version + len(events)
        head = chained[-1].hash if chained else game.head_hash
        body = {
            "game_id": game.id,
            "seat": seat,
            "version": version,
            "head_hash": head,
            "head_signature": self.store.head_signature(game.id, version, head),
            "status": status,
            "events": [event_item(ruleset, e, seat) for e in chained],
            "awaiting": ruleset.awaiting(state),
            "result": ruleset.result(state) if status == "finished" else None,
        }
        try:
            self.store.write(
                conn,
                game,
                game.version,
                chained,
                status=status,
                idempotency=None if remember is None else (*remember, 200, body),
                commands=commands,
            )
        except VersionConflict as exc:
            raise VersionConflictError(str(exc), current_version=None) from exc
        hooks.pause_point("before-commit")
        return body, Folded(state, ruleset.rules_version)

    def status(self, game_id: str) -> tuple[str, int]:
        """(status, version) of a game, for followers deciding whether to keep waiting."""
        with self.db.connection() as conn:
            game = self.load_game(conn, game_id)
        return game.status, game.version
