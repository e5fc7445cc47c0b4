"""Properties of hundreds of whole Catan games between bots ("random" and "value"), 2 to 4
seats, internal randomness, from random seeds.

After every command: resources, development cards and pieces are conserved; a seat's
public points fall only when it loses an award; open decision ids are unique; some
seat is awaited exactly while the game is not over. At the end: the log replays to the
live state, every seat's (and a spectator's) fold of the log as it reads it gives the
view the live state shows it, and a seat won with the winning points. And each game,
its drawn outcomes sent as commands, replays in external randomness to the same game.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.catan.game import CATAN
from service.rules.catan.pieces import BANK, DECK, DEVELOPMENT_CARDS, PIECES
from service.rules.catan.state import NOBODY, State
from service.rules.core import Event, rng_for
from service.rules.play import play_game
from tests.rules.catan.external import Recording, external, without_salts
from tests.rules.properties import (
    VIEW_EVERY,
    Played,
    assert_replay_gives_the_live_state,
    batches,
    seeds,
)

#: the cards that leave a hand when played (victory points are never played)
PLAYED = {
    "knight_played": "knight",
    "road_building_played": "road_building",
    "year_of_plenty_played": "year_of_plenty",
    "monopoly_played": "monopoly",
    "warship_converted": "knight",  # The Pirate Islands: a knight spent on a warship
}


class Watch:
    """``play_game``'s observer: the invariants after setup and after every command,
    and a spectator's view every :data:`VIEW_EVERY` commands for the replay check."""

    ruleset = CATAN

    def __init__(self) -> None:
        self.views: list[tuple[int, dict[str, Any]]] = []
        self.commands = 0
        self.seen = 0  # events looked at so far
        self.played: Counter[str] = Counter()
        self.points: list[int] = []
        self.awards: tuple[int, int] = (NOBODY, NOBODY)
        self.knights = 0  # knights played as knights

    def starting_deck(self, state: State) -> tuple[int, ...]:
        """The development deck the game starts with."""
        return DECK

    def settlements_aside(self, state: State, seat: int) -> int:
        """A seat's settlements neither in supply nor among its buildings (none here)."""
        return 0

    @staticmethod
    def cards_aside(state: State) -> int:
        """Development cards out of the deck that nobody has drawn yet (none here)."""
        return 0

    def __call__(self, state: State, events: list[Event]) -> None:
        if self.commands % VIEW_EVERY == 0:
            self.views.append((len(events), CATAN.view(state, None)))
        self.commands += 1
        for event in events[self.seen :]:
            if event.type in PLAYED:
                self.played[PLAYED[event.type]] += 1
            self.knights += event.type == "knight_played"
        self.seen = len(events)
        seats = state.seats
        # resources: 19 of each, in the bank or in hands
        for r in range(5):
            assert state.bank[r] + sum(state.hands[s][r] for s in range(seats)) == BANK
            assert state.bank[r] >= 0 and all(state.hands[s][r] >= 0 for s in range(seats))
        # development cards: in the deck, held (old or new) or played: 14/5/2/2/2
        deck = self.starting_deck(state)
        for i, card in enumerate(DEVELOPMENT_CARDS):
            held = sum(state.devs[s][i] + state.new_devs[s][i] for s in range(seats))
            assert state.deck[i] + held + self.played[card] == deck[i], card
        assert state.deck_left + self.cards_aside(state) == sum(state.deck)
        assert sum(state.knights) == self.knights
        # pieces: in supply or on the board
        for s in range(seats):
            cities = sum(1 for c in state.buildings_of[s] if state.city[c])
            settlements = len(state.buildings_of[s]) - cities
            assert state.pieces[s]["road"] + len(state.roads_of[s]) == PIECES["road"]
            aside = self.settlements_aside(state, s)
            assert state.pieces[s]["settlement"] + settlements + aside == PIECES["settlement"]
            assert state.pieces[s]["city"] + cities == PIECES["city"]
        # public points fall only with an award lost, by 2 per award
        points = [state.public_points(s) for s in range(seats)]
        awards = (state.longest, state.army)
        for s, (now, before) in enumerate(zip(points, self.points, strict=False)):
            lost = sum(1 for was, is_ in zip(self.awards, awards, strict=True) if was == s != is_)
            assert now >= before - 2 * lost, (s, before, now)
        self.points, self.awards = points, awards
        # decisions
        ids = [d.id for d in CATAN.decisions(state)]
        assert len(ids) == len(set(ids))
        assert bool(ids) != CATAN.is_over(state)


def assert_every_reader_folds_its_own_view(events: list[Event], state: State) -> None:
    """The whole log replays to the live state, and each seat (and a spectator) folding
    the log as it reads it sees what the live state shows it."""
    replayed = CATAN.fold(events)
    for seat in [None, *range(state.seats)]:
        live = CATAN.view(state, seat)
        assert CATAN.view(replayed, seat) == live
        assert CATAN.view(CATAN.fold(CATAN.seat_log(events, seat)), seat) == live


def assert_hidden_cards_stay_hidden(events: list[Event], seats: int) -> None:
    """No seat reads another's drawn card or a steal it took no part in."""
    for seat in [None, *range(seats)]:
        for event in CATAN.seat_log(events, seat):
            # a development card bought, or taken from an island (The Forgotten Tribe)
            drawn = event.type == "development_bought" or event.data.get("gift") == "development"
            if drawn and event.data["seat"] != seat:
                assert "card" not in event.data
            if event.type == "card_stolen" and seat not in (
                event.data["thief"],
                event.data["victim"],
            ):
                assert "resource" not in event.data


games = st.fixed_dictionaries(
    {
        "seed": seeds,
        "bots": st.lists(st.sampled_from(["random", "value"]), min_size=2, max_size=4),
        "options": st.fixed_dictionaries(
            {
                "layout": st.sampled_from(["random", "beginner"]),
                "numbers": st.sampled_from(["spiral", "shuffled"]),
                "no_adjacent_red_numbers": st.booleans(),
                "discard_limit": st.sampled_from([5, 7, 9]),
                "victory_points": st.sampled_from([8, 10, 12]),
            }
        ),
    }
)


def play(game: dict[str, Any]) -> tuple[list[Event], State, Watch]:
    watch = Watch()
    seats = len(game["bots"])
    events, state = play_game(
        CATAN, game["options"], seats, game["seed"], game["bots"], observe=watch
    )
    return events, state, watch


@settings(max_examples=40, deadline=None)
@given(batches(games, 8))
def test_bot_games_conserve_cards_and_pieces_and_every_reader_folds_its_own_view(batch):
    """320 games between random and value bots, over the board, number, discard and
    target options; the log folds to the live state at every 50th command too."""
    for game in batch:
        events, state, watch = play(game)
        assert CATAN.is_over(state) and events[-1].type == "game_ended"
        assert watch.commands > 4 * len(game["bots"])
        ended = events[-1].data
        (winner,) = ended["winners"]
        totals = {entry["seat"]: entry["total"] for entry in ended["points"]}
        target = game["options"]["victory_points"]
        assert totals[winner] >= target and totals[winner] == max(totals.values())
        for entry in ended["points"]:
            assert sum(entry["sources"].values()) == entry["total"]
            assert (
                entry["total"]
                == CATAN.view(state, entry["seat"])["players"][entry["seat"]]["total_points"]
            )
        assert_every_reader_folds_its_own_view(events, state)
        assert_replay_gives_the_live_state(Played(events, state, watch))
        assert_hidden_cards_stay_hidden(events, len(game["bots"]))


@settings(max_examples=3, deadline=None)
@given(batches(games, 4))
def test_events_survive_a_json_round_trip(batch):
    """What the store writes and a client reads is JSON: every event's data comes back
    from it as it was (no tuples, no int keys, no sets)."""
    for game in batch:
        events, _, _ = play(game)
        for event in events:
            assert json.loads(json.dumps(event.data)) == event.data, event.type


@settings(max_examples=10, deadline=None)
@given(games)
def test_a_seed_replays_the_same_bot_game(game):
    first, _, _ = play(game)
    second, _, _ = play(game)
    assert first == second


@settings(max_examples=10, deadline=None)
@given(batches(games, 4))
def test_every_bot_game_replays_in_external_randomness_with_the_outcomes_as_commands(batch):
    """External randomness takes what the server would have drawn, and nothing it could
    not: the board sent as ``set_board``, each roll's dice, each card bought and each
    card stolen, all taken from a game the server played, make the same game."""
    for game in batch:
        recording = Recording(CATAN)
        seats = len(game["bots"])
        events, state = play_game(recording, game["options"], seats, game["seed"], game["bots"])
        options = CATAN.normalize_options({**game["options"], "randomness": "external"})
        replayed = CATAN.setup(options, seats, rng_for(b"never drawn from", 1))
        twin = CATAN.fold(replayed)
        if game["options"]["layout"] == "random":
            board = {"type": "set_board", "board": events[0].data["board"]}
            replayed += CATAN.apply(twin, 0, board, rng_for(b"never drawn from", 2))
        outcomes = Counter()
        for seat, command, caused in recording.steps:
            sent = external(command, caused)
            outcomes[command["type"]] += sent is not command
            replayed += CATAN.apply(twin, seat, sent, rng_for(b"", 0))
        assert outcomes["roll"] > 4 * seats
        assert without_salts(replayed[-len(events) + 1 :]) == without_salts(events[1:])
        assert CATAN.result(twin) == CATAN.result(state)
        for seat in (*range(seats), None):
            assert {**CATAN.view(twin, seat), "options": None} == {
                **CATAN.view(state, seat),
                "options": None,
            }


def test_value_bots_with_no_spot_to_build_and_an_empty_deck_build_roads_and_finish():
    """On this board both value bots once held cities and cards for ever: every
    settlement spot was out of reach, the deck was empty and neither built a road or
    played its progress cards. They now build toward new spots, and the game ends."""
    commands = Counter()

    def bounded(state: State, events: list[Event]) -> None:
        commands["n"] += 1
        assert commands["n"] < 5_000, "the game does not end"

    events, state = play_game(CATAN, {}, 2, b"\x07\x8cx$\x13", ["value", "value"], bounded)
    assert CATAN.is_over(state) and events[-1].type == "game_ended"
