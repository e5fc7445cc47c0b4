"""What every tile game's property tests share: a game played between bots through
``play_game`` with its cheap invariants checked after setup and after every command,
and the checks on a finished game (replay, determinism, JSON).

Each game's tests subclass :class:`Watch` to say where its tiles, figures and scores
are; the per-command checks read the state's fields directly (a ``view`` per command
would cost as much as the game), and a few views are kept to compare with replays.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any, ClassVar

from hypothesis import strategies as st

from service.rules.core import Event
from service.rules.play import play_game

#: 8 random bytes: shorter seeds (as few as one byte) made hypothesis play the same
#: few games again and again (b"\x00" alone was some 14% of them)
seeds = st.binary(min_size=8, max_size=8)


def batches(games: st.SearchStrategy[dict[str, Any]], size: int) -> st.SearchStrategy:
    """``size`` games of ``games`` with distinct seeds (hypothesis likes repeating a
    list's elements), played as one example so its overhead does not dominate."""
    return st.lists(games, min_size=size, max_size=size, unique_by=lambda game: game["seed"])


#: a view is kept for the replay check every this many commands (and after setup)
VIEW_EVERY = 50


class Watch:
    """``play_game``'s observer: checks one game's invariants after every command.

    Conserved, whatever happens: the tiles (on the board, out of play, in hand or in
    the stack) and each seat's figures of each type (in supply or anywhere in play).
    Scores never fall, and some seat is awaited exactly while the game is not over.
    """

    ruleset: ClassVar[Any]

    def __init__(self) -> None:
        self.commands = 0
        self.views: list[tuple[int, dict[str, Any]]] = []
        self.tiles = 0
        self.figures: dict[tuple[int, str], int] = {}
        self.best: list[int] = []

    # -- what each game says about its state ------------------------------------------

    def start(self, started: dict[str, Any]) -> None:
        """Learn the totals from ``game_started``."""
        self.tiles = 1 + len(started.get("layout", ())) + sum(started["stack"].values())

    def tiles_accounted(self, state: Any) -> int:
        """Tiles on the board, out of play, in hand and in the stack."""
        in_hand = state.tile is not None
        return len(state.board.tiles) + len(state.set_aside) + in_hand + state.remaining

    def figures_held(self, state: Any) -> Counter[tuple[int, str]]:
        """Each seat's figures by ``(seat, type)``, in supply or anywhere in play."""
        raise NotImplementedError

    def on_board(self, state: Any) -> Counter[tuple[int, str]]:
        """Each seat's figures by ``(seat, type)`` standing on the board's features."""
        features = state.graph.features.values()
        return Counter(
            [(f.seat, f.kind) for feature in features if feature.figures for f in feature.figures]
        )

    def scores(self, state: Any) -> list[int]:
        raise NotImplementedError

    def check(self, state: Any) -> None:
        """The game's own invariants (wares, ships, goods...)."""

    # -- the observer ---------------------------------------------------------------

    def __call__(self, state: Any, events: list[Event]) -> None:
        if self.commands == 0:
            self.start(events[0].data)
            self.figures = dict(self.figures_held(state))
        if self.commands % VIEW_EVERY == 0:
            self.views.append((len(events), self.ruleset.view(state, None)))
        self.commands += 1
        assert self.tiles_accounted(state) == self.tiles
        # every (seat, type) is a key from the start: the supplies list each type
        assert dict(self.figures_held(state)) == self.figures
        scores = self.scores(state)
        assert all(now >= before for now, before in zip(scores, self.best, strict=False))
        self.best = scores
        assert bool(self.ruleset.awaiting(state)) != self.ruleset.is_over(state)
        self.check(state)


@dataclass
class Played:
    """A finished game and what its watch kept."""

    events: list[Event]
    state: Any
    watch: Watch


def play_watched(
    watch: Watch, options: dict[str, Any], seats: int, seed: bytes, bots: list[str]
) -> Played:
    """One game between ``bots``, every command watched; it must end."""
    events, state = play_game(watch.ruleset, options, seats, seed, bots, observe=watch)
    assert watch.ruleset.is_over(state) and events[-1].type == "game_ended"
    return Played(events, state, watch)


def all_tiles_played(state: Any) -> bool:
    """Every tile placed or set aside (or hidden): none left in the stack or in hand."""
    return state.remaining == 0 and state.tile is None and not any(state.stack.values())


def assert_replay_gives_the_live_state(played: Played) -> None:
    """Folding the log gives the live final state (view and result), and folding each
    prefix the watch kept a view at gives that view.

    One pass: ``fold`` is ``evolve`` from ``initial_state`` in order, so the state after
    ``count`` events of the pass is ``fold(events[:count])``."""
    ruleset, events, state = played.watch.ruleset, played.events, played.state
    checkpoints = dict(played.watch.views)
    replayed = ruleset.initial_state()
    for count, event in enumerate(events, 1):
        replayed = ruleset.evolve(replayed, event)
        if count in checkpoints:
            assert ruleset.view(replayed, None) == checkpoints[count]
    assert ruleset.view(replayed, None) == ruleset.view(state, None)
    assert ruleset.result(replayed) == ruleset.result(state)


def bots(game: dict[str, Any]) -> list[str]:
    """A random bot in every seat of ``game`` but its ``greedy`` one, if any (a whole
    greedy table is slow)."""
    return ["greedy" if s == game["greedy"] else "random" for s in range(game["seats"])]


def assert_same_seed_same_events(watch: Watch, game: dict[str, Any]) -> None:
    """``game`` (seed, seats, options, greedy seat) played twice gives the same log."""
    args = (game["options"], game["seats"], game["seed"], bots(game))
    first, _ = play_game(watch.ruleset, *args)
    second, _ = play_game(watch.ruleset, *args, observe=watch)
    assert first == second


def assert_events_json_compatible(ruleset: Any, batch: list[dict[str, Any]]) -> None:
    """Every event of each game of ``batch`` (random bots) survives a JSON round trip."""
    for game in batch:
        seats = game["seats"]
        events, _ = play_game(ruleset, game["options"], seats, game["seed"], ["random"] * seats)
        for event in events:
            assert json.loads(json.dumps(event.data)) == event.data
