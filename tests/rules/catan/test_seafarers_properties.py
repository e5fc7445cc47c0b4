"""Properties of whole Seafarers games between bots, for every scenario and player
count, internal randomness, from random seeds.

After every command the base game's invariants hold (resources, development cards,
roads, settlements and cities conserved, points fall only with an award lost, one
decision id each, some seat awaited until the end: :class:`Watch`), and the ships
too: 15 per seat, in supply, on the board or (The Wonders of Catan) on a wonder's card,
never two on a path nor a ship and a road. At the end the log replays to the live
state, every reader's fold of it gives the view the live state shows it, and the winner
has the scenario's target (The Wonders of Catan: its wonder complete, or the target
and a wonder further than every other seat's).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.catan import pirate_islands
from service.rules.catan.cloth import EMPTY_VILLAGES_END, villages_empty
from service.rules.catan.game import CATAN, SCENARIOS
from service.rules.catan.pieces import DECK, SHIPS
from service.rules.catan.state import NOBODY, State
from service.rules.catan.tribe import CHIT, DEVELOPMENT
from service.rules.core import Event
from service.rules.play import play_game
from tests.rules.catan.test_catan_properties import (
    Watch,
    assert_every_reader_folds_its_own_view,
    assert_hidden_cards_stay_hidden,
)
from tests.rules.properties import Played, assert_replay_gives_the_live_state, batches, seeds


class SeaWatch(Watch):
    def __init__(self) -> None:
        super().__init__()
        self.cards_taken = 0  # The Forgotten Tribe: development cards taken from a path

    @staticmethod
    def cards_aside(state: State) -> int:
        """The Forgotten Tribe: the development cards still on the islands' paths."""
        return (
            0 if state.tribe is None else sum(g == DEVELOPMENT for g in state.tribe.gifts.values())
        )

    def starting_deck(self, state: State) -> tuple[int, ...]:
        if state.fleet is not None:  # The Pirate Islands: no victory point card
            return tuple(pirate_islands.deck(state.seats))
        return DECK

    def settlements_aside(self, state: State, seat: int) -> int:
        """The Pirate Islands: a fortress not yet conquered holds one of its colour's."""
        return int(state.fleet is not None and not state.fleet.conquered(seat))

    def __call__(self, state: State, events: list[Event]) -> None:
        self.cards_taken += sum(
            1
            for event in events[self.seen :]
            if event.type == "gift_taken" and event.data["gift"] == DEVELOPMENT
        )
        super().__call__(state, events)
        if state.layout is None:
            return
        if state.tribe is not None:
            assert_gifts_conserved(state, self.cards_taken)
        if state.fleet is not None:
            assert_fortresses_and_routes(state)
        for s in range(state.seats):
            on_card = state.wonders is not None and state.wonders.wonder[s] is not None
            assert state.pieces[s]["ship"] + len(state.ships_of[s]) + on_card == SHIPS
            assert all(state.ship[e] == s for e in state.ships_of[s])
        on_board = [e for e, seat in enumerate(state.ship) if seat != NOBODY]
        assert sorted(on_board) == sorted(e for s in state.ships_of for e in s)
        assert not any(state.road[e] != NOBODY for e in on_board)
        # The Pirate Islands' routes run along the frame to the north and south fortresses
        routes = set() if state.fleet is None else {e for c in state.fleet.colours for e in c.route}
        names = state.layout.edge_names
        assert all(state.layout.ship_edge[e] or names[e] in routes for e in on_board)
        assert state.special == [
            sum(
                area["special_points"]
                for i, area in enumerate(state.areas)
                if i in state.settled[s] and area["special_points"]
            )
            - _start_points(state, s)
            for s in range(state.seats)
        ]
        if state.cloth is not None:  # Cloth for Catan: the 50 cloth (l.474) are conserved
            cloth = state.cloth
            villages = sum(v.cloth for v in cloth.villages)
            assert villages + cloth.reserve + sum(cloth.held) == 50
            assert min(v.cloth for v in cloth.villages) >= 0 and cloth.reserve >= 0


def assert_gifts_conserved(state: State, cards_taken: int) -> None:
    """The Forgotten Tribe: 8 chits, 4 development cards and 6 harbour markers, each on
    its path or taken (a marker held or placed as a harbour)."""
    gifts = Counter(
        "harbour" if g not in (CHIT, DEVELOPMENT) else g for g in state.tribe.gifts.values()
    )
    assert gifts[CHIT] + sum(state.tribe.chits) == 8
    assert gifts[DEVELOPMENT] + cards_taken == 4
    held = sum(len(h) for h in state.tribe.held)
    assert gifts["harbour"] + held + len(state.layout.board.harbours) == 6


def assert_fortresses_and_routes(state: State) -> None:
    """The Pirate Islands: each fortress holds 3 chits less those its colour won, is its
    colour's settlement once all 3 are won (12 chits in the box, 3 a fortress in play);
    each seat's ships are its route's, in one line from its settlement; its warships
    are ships of that line, nearest the settlement first; no road on a route."""
    fleet, layout = state.fleet, state.layout
    assert len(fleet.colours) == state.seats
    under = [pirate_islands.CHITS - won for won in fleet.chits]
    assert all(0 <= n <= pirate_islands.CHITS for n in under)
    assert sum(under) + sum(fleet.chits) == pirate_islands.CHITS * state.seats
    for seat, colour in enumerate(fleet.colours):
        fortress = layout.corner_by_name[colour.fortress]
        assert state.owner[fortress] == (seat if fleet.conquered(seat) else NOBODY)
        line = pirate_islands.route_ships(state, seat)
        assert sorted(line) == sorted(state.ships_of[seat])
        assert {layout.edge_names[e] for e in line} <= colour.route
        warships = fleet.warships[seat]
        assert line[: len(warships)] == warships
        assert not any(layout.edge_names[e] in colour.route for e in state.roads_of[seat])
    assert (state.pirate is None) == all(fleet.conquered(s) for s in range(state.seats))


def _start_points(state: State, seat: int) -> int:
    """The special points of the areas a seat settled in the set-up (never paid)."""
    setup = {c for c in state.buildings_of[seat][:2]}
    areas = {
        state.area_of[h]
        for c in setup
        for h in state.layout.grid.corner_hexes[c]
        if h in state.area_of and state.layout.land_corner[c]
    }
    return sum(state.areas[a]["special_points"] for a in areas)


CASES = [(n, seats) for n, info in SCENARIOS.items() for seats in info.players]

games = st.fixed_dictionaries(
    {
        "seed": seeds,
        "bot": st.sampled_from(["random", "value"]),
        "layout": st.sampled_from(["random", "beginner"]),
    }
)


def play(game: dict[str, Any]) -> tuple[list[Event], State, SeaWatch]:
    number, seats = game["case"]
    watch = SeaWatch()
    options = {"scenario": number, "layout": game["layout"]}
    events, state = play_game(
        CATAN, options, seats, game["seed"], [game["bot"]] * seats, observe=watch
    )
    return events, state, watch


@pytest.mark.parametrize("case", CASES, ids=[f"scenario {n}, {s} seats" for n, s in CASES])
@settings(max_examples=3, deadline=None)
@given(batches(games, 2))
def test_seafarers_bot_games_end_conserve_ships_and_every_reader_folds_its_own_view(case, batch):
    """108 games: 6 of each scenario and player count (18 cases); the log folds to the
    live state at every 50th command too."""
    for game in ({**game, "case": case} for game in batch):
        events, state, watch = play(game)
        assert CATAN.is_over(state) and events[-1].type == "game_ended"
        ended = events[-1].data
        target = SCENARIOS[game["case"][0]].victory_points
        totals = {entry["seat"]: entry["total"] for entry in ended["points"]}
        if state.cloth is not None and villages_empty(state.cloth) >= EMPTY_VILLAGES_END:
            # Cloth for Catan ended by 3 empty villages: the most points, then cloth
            ranks = {s: (totals[s], state.cloth.held[s]) for s in totals}
            best = max(ranks.values())
            assert ended["winners"] == [s for s in sorted(ranks) if ranks[s] == best]
        elif ended.get("reason") == "wonders_out_of_reach":
            # The Wonders of Catan, nobody able to start a wonder any more: most points
            assert state.wonders.wonder == [None] * game["case"][1]
            assert all(state.pieces[s]["ship"] == 0 for s in totals)
            assert ended["winners"] == [s for s in totals if totals[s] == max(totals.values())]
        elif state.wonders is not None:
            # The Wonders of Catan: a wonder complete, or the target and the lead
            (winner,) = ended["winners"]
            levels = state.wonders.level
            ahead = all(levels[winner] > n for s, n in enumerate(levels) if s != winner)
            assert levels[winner] == 4 or (totals[winner] >= target and ahead)
        else:
            (winner,) = ended["winners"]
            assert totals[winner] >= target
        if state.tribe is not None:  # The Forgotten Tribe: each chit is a point of its own
            for entry in ended["points"]:
                assert entry["sources"]["chits"] == state.tribe.chits[entry["seat"]]
        if state.fleet is not None:  # The Pirate Islands: and its own fortress conquered
            assert state.fleet.conquered(winner)
        for entry in ended["points"]:
            assert sum(entry["sources"].values()) == entry["total"]
        assert_every_reader_folds_its_own_view(events, state)
        assert_replay_gives_the_live_state(Played(events, state, watch))
        assert_hidden_cards_stay_hidden(events, game["case"][1])


@pytest.mark.parametrize("case", CASES, ids=[f"scenario {n}, {s} seats" for n, s in CASES])
def test_scenario_events_survive_a_json_round_trip(case):
    """Every event of a value-bot game of each scenario and player count comes back
    from JSON as it was."""
    events, _, _ = play({"case": case, "seed": b"json", "bot": "value", "layout": "random"})
    for event in events:
        assert json.loads(json.dumps(event.data)) == event.data, event.type


def test_every_scenario_and_player_count_plays_to_the_end():
    for number, seats in CASES:
        for bot in ("random", "value"):
            game = {"case": (number, seats), "seed": bytes([number, seats]), "bot": bot}
            events, state, _ = play({**game, "layout": "random"})
            assert CATAN.is_over(state), (number, seats, bot)
            if state.fleet is not None:  # The Pirate Islands: its own end condition
                (winner,) = state.winners
                assert state.fleet.conquered(winner) and state.final[winner]["total"] >= 10
