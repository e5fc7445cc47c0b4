"""Catan bots: ``random`` and ``value``.

``random`` picks uniformly among every concrete command its menu allows (as the
random players of other engines do, so games are comparable in benchmarks), except
that it never opens a trade (the space of offers is unbounded); it answers offers,
discards and moves the robber at random.

``value`` ranks what it can build by a simple value of the board: a city or
settlement on the intersections that produce the most (by the chance of their
numbers), a development card, then roads toward good free intersections; it trades
with the bank and offers one trade per turn for what it lacks to build, accepts
offers that give it what it lacks for what it has plenty of, and discards its
surplus first. In The Wonders of Catan it starts the first wonder it may and builds a
level whenever it can pay one; after cities, a level is what it gathers for.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations_with_replacement

from service.rules.catan import building, cloth, pirate_islands, ships, wonders
from service.rules.catan.board import RESOURCES
from service.rules.catan.game import (
    choice_command,
    development_play_problem,
    robber_spots,
    turn_choices,
)
from service.rules.catan.pieces import COSTS, KNIGHT, RESOURCE_INDEX, named
from service.rules.catan.state import State
from service.rules.core import JSON
from service.rules.decisions import Decision

#: the chance of each dice total, in 36ths
PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}


def _decision(ruleset, state: State, seat: int) -> Decision:
    for decision in state.agenda.open:  # (ruleset.decisions, without the call)
        if decision.seat == seat:
            return decision
    raise ValueError(f"seat {seat} is not awaited")


def _random_discard(state: State, seat: int, count: int, rng: random.Random) -> JSON:
    cards = [i for i, n in enumerate(state.hands[seat]) for _ in range(n)]
    chosen = [0] * 5
    for i in rng.sample(cards, count):
        chosen[i] += 1
    return {"type": "discard", "resources": named(chosen)}


def random_bot(ruleset, state: State, seat: int, rng: random.Random) -> JSON:
    # The commonest decisions are enumerated as the menu would list them, without the
    # menu's JSON; a single choice is taken without a draw (nothing else draws from
    # this rng, so the games are the same).
    for decision in state.agenda.open:  # (_decision, without the call)
        if decision.seat == seat:
            break
    else:
        raise ValueError(f"seat {seat} is not awaited")
    kind = decision.kind
    if kind == "turn":
        choices = turn_choices(state, seat)
        return choice_command(state, *(choices[0] if len(choices) == 1 else rng.choice(choices)))
    if kind == "roll" and state.options["randomness"] == "internal":
        # (a knight in hand asked first: most rolls have none to play)
        if state.devs[seat][KNIGHT] and development_play_problem(state, seat, KNIGHT) is None:
            return rng.choice(({"type": "roll"}, {"type": "play_knight"}))
        return {"type": "roll"}
    if kind == "move_robber" and decision.commands == ("move_robber",):
        spots = robber_spots(state, seat)
        h, victim = spots[0] if len(spots) == 1 else rng.choice(spots)
        return {"type": "move_robber", "hex": state.laid().hex_names[h], "victim": victim}
    if kind == "place_settlement":
        spot = rng.choice(building.setup_settlements(state, seat))
        return {"type": "build_settlement", "corner": state.laid().corner_names[spot]}
    if kind in ("place_road", "free_roads") and state.scenario is None:
        setup, free = kind == "place_road", kind == "free_roads"
        spot = rng.choice(building.road_spots(state, seat, setup=setup, free=free))
        return {"type": "build_road", "edge": state.laid().edge_names[spot]}
    if kind == "discard":
        return _random_discard(state, seat, decision.details["count"], rng)
    if kind == "choose_gold":
        return _random_gold(state, ruleset.menu(state, decision)["choose_gold"]["count"], rng)
    return rng.choice(concrete_commands(ruleset, state, decision, include_offers=False))


def _random_gold(state: State, count: int, rng: random.Random) -> JSON:
    """``count`` resources drawn at random from what the bank holds."""
    cards = [i for i, n in enumerate(state.bank) for _ in range(n)]
    chosen = [0] * 5
    for i in rng.sample(cards, count):
        chosen[i] += 1
    return {"type": "choose_gold", "resources": named(chosen)}


def concrete_commands(
    ruleset, state: State, decision: Decision, *, include_offers: bool = True
) -> list[JSON]:
    """Every concrete command the decision's menu lists (a few representative offers
    for the unbounded ones), in a stable order."""
    commands: list[JSON] = []
    for kind, options in ruleset.menu(state, decision).items():
        commands += _expand(state, decision, kind, options, include_offers)
    return commands


def _expand(
    state: State, decision: Decision, kind: str, options: JSON, include_offers: bool
) -> list[JSON]:
    if kind in ("build_road", "build_ship", "place_harbour"):
        return [{"type": kind, "edge": e} for e in options["edges"]]
    if kind in ("build_settlement", "build_city"):
        return [{"type": kind, "corner": c} for c in options["corners"]]
    if kind == "move_ship":
        return [{"type": kind, **move} for move in options["moves"]]
    if kind == "choose_gold":
        bank = [options["bank"].get(r, 0) for r in RESOURCES]
        return [{"type": kind, "resources": named(_first_of(bank, options["count"]))}]
    if kind in ("move_robber", "move_pirate"):
        found = []
        for spot in options["hexes"]:
            for victim in spot["victims"] or [None]:
                found.append({"type": kind, "hex": spot["hex"], "victim": victim})
        return found
    if kind == "maritime_trade":
        return [{"type": kind, "give": t["give"], "get": t["get"]} for t in options["trades"]]
    if kind == "play_year_of_plenty":
        left = options["bank"]
        found = []
        for pair in combinations_with_replacement(RESOURCES, 2):
            wanted = {r: pair.count(r) for r in set(pair)}
            if all(left.get(r, 0) >= n for r, n in wanted.items()):
                found.append({"type": kind, "resources": wanted})
        return found
    if kind == "play_monopoly":
        return [{"type": kind, "resource": r} for r in options["resources"]]
    if kind == "start_wonder":
        return [{"type": kind, "wonder": w} for w in options["wonders"]]
    if kind == "confirm_trade":
        return [{"type": kind, "with": s} for s in options["with"]]
    if kind == "discard":
        chosen = _first_of(state.hands[decision.seat], options["count"])
        return [{"type": "discard", "resources": named(chosen)}]
    if kind == "respond_trade":
        return [{"type": kind, "answer": a} for a in options["answers"] if a != "counter"]
    if kind == "steal":
        return [{"type": kind, "victim": victim} for victim in [None, *options["victims"]]]
    if kind in ("offer_trade", "propose_trade"):
        if not include_offers:
            return []
        give = next(r for r, n in options["may_give"].items() if n)
        get = next(r for r in RESOURCES if r != give)
        command = {"type": kind, "give": {give: 1}, "get": {get: 1}}
        if kind == "offer_trade":
            command["to"] = options["to"]
        return [command]
    if kind == "set_board":  # one board that the game's own set-up could lay
        return [{"type": kind, "board": _a_board(state)}]
    if kind == "roll" and options:
        return [{"type": kind, "dice": [3, 4]}]
    return [{"type": kind}]


def _a_board(state: State) -> JSON:
    from service.rules.catan import scenarios
    from service.rules.catan.board import random_board

    drawn = random.Random(0)
    options = state.options
    if state.scenario is None:
        apart = options["no_adjacent_red_numbers"]
        return random_board(drawn, apart, numbers=options["numbers"]).to_json()
    number = state.seafarers()["number"]
    board: JSON = scenarios.deal(number, state.seats, drawn, shuffle=True)["board"]
    return board


def _first_of(counts: list[int], count: int) -> list[int]:
    """``count`` cards taken from ``counts`` in resource order."""
    chosen = [0] * 5
    for i, n in enumerate(counts):
        chosen[i] = min(n, count - sum(chosen))
    return chosen


# -- the value bot --------------------------------------------------------------------------


def _corner_value(state: State, corner: int) -> int:
    layout = state.layout  # (narrowed here, not by laid(): the value bot asks it of every spot)
    assert layout is not None
    board, grid = layout.board, layout.grid
    return sum(PIPS.get(board.hexes[h].number or 0, 0) for h in grid.corner_hexes[corner])


def _lacking(state: State, seat: int, cost: tuple[int, ...]) -> list[int]:
    return [max(0, need - have) for need, have in zip(cost, state.hands[seat], strict=True)]


def value_bot(ruleset, state: State, seat: int, rng: random.Random) -> JSON:
    decision = _decision(ruleset, state, seat)
    kind = decision.kind
    if kind == "place_settlement":
        spots = building.setup_settlements(state, seat)
        best = max(spots, key=lambda c: (_corner_value(state, c), -c))
        return {"type": "build_settlement", "corner": state.laid().corner_names[best]}
    if kind in ("place_road", "free_roads"):
        return _road_choice(state, seat, setup=kind == "place_road", free=kind == "free_roads")
    if kind == "discard":
        return _surplus_discard(state, seat, decision.details["count"])
    if kind == "move_robber":
        return _robber_choice(ruleset, state, decision)
    if kind == "steal":  # The Pirate Islands: from the seat holding the most cards
        victims = pirate_islands.steal_victims(state, seat)
        return {"type": "steal", "victim": max(victims, key=state.cards, default=None)}
    if kind == "respond_trade":
        return _answer_offer(state, seat)
    if kind == "propose_trade":
        return _proposal_for(state, seat, rng)
    if kind == "consider_proposal":
        return _consider(state, seat)
    if kind == "conclude_trade":
        partners = ruleset.menu(state, decision).get("confirm_trade", {}).get("with", [])
        return (
            {"type": "confirm_trade", "with": partners[0]} if partners else {"type": "cancel_trade"}
        )
    if kind == "roll":
        return {"type": "roll"}
    if kind == "set_board":
        return concrete_commands(ruleset, state, decision)[0]
    if kind == "choose_gold":
        return _gold_choice(ruleset, state, decision)
    if kind == "place_harbour":
        layout = state.laid()
        edges = [layout.edge_by_name[e] for e in ruleset.menu(state, decision)[kind]["edges"]]
        best = max(edges, key=lambda e: (_edge_value(state, e), -e))
        return {"type": kind, "edge": layout.edge_names[best]}
    return _turn_choice(ruleset, state, decision, rng)


def _edge_value(state: State, edge: int) -> int:
    return max(_corner_value(state, c) for c in state.laid().grid.edge_corners[edge])


def _gold_choice(ruleset, state: State, decision: Decision) -> JSON:
    """Gold: what the next build lacks, then the resources the bank holds most of."""
    count = ruleset.menu(state, decision)["choose_gold"]["count"]
    goal, _ = _goal(state, decision.seat)
    lacking = _lacking(state, decision.seat, _cost(state, decision.seat, goal))
    bank = list(state.bank)
    chosen = [0] * 5
    for _ in range(count):
        i = max(range(5), key=lambda r: (bank[r] > 0, lacking[r] - chosen[r], bank[r]))
        chosen[i] += 1
        bank[i] -= 1
    return {"type": "choose_gold", "resources": named(chosen)}


def _road_choice(state: State, seat: int, *, setup: bool, free: bool) -> JSON:
    """The road (Seafarers: or ship) toward the best free intersection."""
    layout = state.laid()
    grid = layout.grid
    spots = building.road_spots(state, seat, setup=setup, free=free)
    kind = "build_road"
    if state.scenario is not None:
        afloat = ships.ship_spots(state, seat, setup=setup, free=free)
        trade = _village_ship(state, seat, afloat)
        if trade is not None:
            return {"type": "build_ship", "edge": layout.edge_names[trade]}
        if afloat and (not spots or not _goal_spots(state, seat)):  # nowhere to settle by road
            spots, kind = afloat, "build_ship"

    def worth(edge: int) -> tuple[bool, int, int]:
        ends = grid.edge_corners[edge]
        best = max(
            (
                _corner_value(state, c)
                for c in ends
                if building.settlement_problem(state, seat, c, setup=True) is None
            ),
            default=0,
        )
        gift = kind == "build_ship" and state.tribe is not None and edge in state.tribe.gifts
        return (gift, best, -edge)

    return {"type": kind, "edge": layout.edge_names[max(spots, key=worth)]}


def _surplus_discard(state: State, seat: int, count: int) -> JSON:
    hand = list(state.hands[seat])
    chosen = [0] * 5
    for _ in range(count):
        i = max(range(5), key=lambda r: (hand[r], r))
        hand[i] -= 1
        chosen[i] += 1
    return {"type": "discard", "resources": named(chosen)}


def _robber_choice(ruleset, state: State, decision: Decision) -> JSON:
    seat, layout = decision.seat, state.laid()
    best = None
    for spot in ruleset.menu(state, decision)["move_robber"]["hexes"]:
        h = layout.hex_by_name[spot["hex"]]
        corners = layout.grid.hex_corners[h]
        if any(state.owner[c] == seat for c in corners):
            continue
        pips = PIPS.get(layout.board.hexes[h].number or 0, 0)
        harm = pips * sum(1 + state.city[c] for c in corners if state.owner[c] not in (-1, seat))
        victim = max(spot["victims"], key=lambda s: state.cards(s), default=None)
        key = (harm, victim is not None)
        if best is None or key > best[0]:
            best = (key, spot["hex"], victim)
    if best is None:  # every hex touches our own buildings: the first the menu allows
        spot = ruleset.menu(state, decision)["move_robber"]["hexes"][0]
        victims = spot["victims"]
        return {
            "type": "move_robber",
            "hex": spot["hex"],
            "victim": victims[0] if victims else None,
        }
    return {"type": "move_robber", "hex": best[1], "victim": best[2]}


def _goal(state: State, seat: int) -> tuple[str, int]:
    """What the seat builds next, and a fitting spot's value (0 if none)."""
    if state.fleet is not None and (goal := _fortress_goal(state, seat)):
        return goal, 0
    cities = building.city_spots(state, seat) or [
        c for c in state.buildings_of[seat] if not state.city[c]
    ]
    if cities and state.pieces[seat]["city"]:
        return "city", max(_corner_value(state, c) for c in cities)
    if state.wonders is not None and state.wonders.wonder[seat] is not None:
        return "wonder", 0
    free = _goal_spots(state, seat)
    if free and state.pieces[seat]["settlement"]:
        return "settlement", max(_corner_value(state, c) for c in free)
    if state.deck_left or not state.pieces[seat]["road"]:
        return "development", 0
    # No spot to build on and no card to buy: roads toward new spots are the only way
    # on (without this two bots can hold cards for ever and the game never ends).
    return "road", 0


def _cost(state: State, seat: int, goal: str) -> tuple[int, ...]:
    """What the goal costs (The Wonders of Catan: a level of the seat's wonder)."""
    if goal == "wonder":
        part = wonders.wonders_part(state)
        wonder = part.wonder[seat]
        assert wonder is not None, "the goal is a wonder once the seat has one"
        return part.cards[wonder].cost
    return COSTS[goal]


def _turn_choice(ruleset, state: State, decision: Decision, rng: random.Random) -> JSON:
    seat, layout = decision.seat, state.laid()
    menu = ruleset.menu(state, decision)
    if "build_city" in menu:
        corners = menu["build_city"]["corners"]
        best = max(corners, key=lambda c: _corner_value(state, layout.corner_by_name[c]))
        return {"type": "build_city", "corner": best}
    if "build_wonder" in menu:
        return {"type": "build_wonder"}
    if "start_wonder" in menu:
        return {"type": "start_wonder", "wonder": menu["start_wonder"]["wonders"][0]}
    if "build_settlement" in menu:
        corners = menu["build_settlement"]["corners"]
        best = max(corners, key=lambda c: _corner_value(state, layout.corner_by_name[c]))
        return {"type": "build_settlement", "corner": best}
    if "build_ship" in menu and state.cloth is not None:
        edges = [layout.edge_by_name[e] for e in menu["build_ship"]["edges"]]
        village = _village_ship(state, seat, edges)
        if village is not None:
            return {"type": "build_ship", "edge": layout.edge_names[village]}
    if "play_knight" in menu and state.knights[seat] < 3:
        return {"type": "play_knight"}
    if state.fleet is not None and (choice := _fortress_choice(state, seat, menu)):
        return choice
    goal, _ = _goal(state, seat)
    lacking = _lacking(state, seat, _cost(state, seat, goal))
    progress = _progress_card(state, seat, menu, goal, lacking)
    if progress is not None:
        return progress
    if "maritime_trade" in menu and any(lacking):
        need = RESOURCES[lacking.index(max(lacking))]
        for trade in menu["maritime_trade"]["trades"]:
            spare = (
                state.hands[seat][RESOURCE_INDEX[trade["give"]]]
                - _cost(state, seat, goal)[RESOURCE_INDEX[trade["give"]]]
            )
            if trade["get"] == need and spare >= trade["rate"]:
                return {"type": "maritime_trade", "give": trade["give"], "get": need}
    if goal == "development" and "buy_development" in menu:
        return {"type": "buy_development"}
    if "build_ship" in menu and state.tribe is not None:  # The Forgotten Tribe's gifts
        gifts = [
            e for e in menu["build_ship"]["edges"] if layout.edge_by_name[e] in state.tribe.gifts
        ]
        if gifts:
            return {"type": "build_ship", "edge": gifts[0]}
    if "build_ship" in menu and not _goal_spots(state, seat):
        return _road_choice(state, seat, setup=False, free=False)
    if "build_road" in menu and (goal in ("development", "road") or not _goal_spots(state, seat)):
        return _road_choice(state, seat, setup=False, free=False)
    if "offer_trade" in menu and any(lacking) and not state.offer and rng.random() < 0.3:
        offer = _offer_for(state, seat, lacking, _cost(state, seat, goal))
        if offer is not None:
            return offer
    return {"type": "end_turn"}


#: The Pirate Islands: the warships that beat the fortress's die half the time
ATTACK_WARSHIPS = 4


def _fortress_goal(state: State, seat: int) -> str | None:
    """The Pirate Islands: ships until the route reaches the fortress, then knights
    (development cards) for warships, until the fortress is taken."""
    fleet = pirate_islands.fleet_part(state)
    if fleet.conquered(seat):
        return None
    if not pirate_islands.reaches_fortress(state, seat):
        return "ship"
    if len(fleet.warships[seat]) < ATTACK_WARSHIPS and state.deck_left:
        return "development"
    return None


def _fortress_choice(state: State, seat: int, menu: JSON) -> JSON | None:
    """The Pirate Islands: a warship whenever a knight allows, the route's next ship, an
    attack once the warships are enough (or no more knights can come)."""
    if "convert_warship" in menu:
        return {"type": "convert_warship"}
    if "build_ship" in menu:
        return {"type": "build_ship", "edge": menu["build_ship"]["edges"][0]}
    enough = (
        len(pirate_islands.fleet_part(state).warships[seat]) >= ATTACK_WARSHIPS
        or not state.deck_left
    )
    if "attack_fortress" in menu and enough:
        return {"type": "attack_fortress"}
    return None


def _progress_card(
    state: State, seat: int, menu: JSON, goal: str, lacking: list[int]
) -> JSON | None:
    """A progress card that helps toward the goal: free roads when roads are the goal,
    the two resources most lacking from the bank, or a monopoly on the one most lacking."""
    if "play_road_building" in menu and goal == "road":
        return {"type": "play_road_building"}
    if not any(lacking):
        return None
    if "play_year_of_plenty" in menu:
        bank = menu["play_year_of_plenty"]["bank"]
        wanted: dict[str, int] = {}
        for _ in range(2):
            short = [
                r
                for r in range(5)
                if lacking[r] and bank.get(RESOURCES[r], 0) > wanted.get(RESOURCES[r], 0)
            ]
            name = RESOURCES[max(short, key=lambda r: lacking[r])] if short else None
            if name is None:
                break
            wanted[name] = wanted.get(name, 0) + 1
            lacking = [n - (RESOURCES[r] == name) for r, n in enumerate(lacking)]
        if sum(wanted.values()) == 2:
            return {"type": "play_year_of_plenty", "resources": wanted}
    if "play_monopoly" in menu:
        want = max(range(5), key=lambda r: lacking[r])
        if RESOURCES[want] in menu["play_monopoly"]["resources"]:
            return {"type": "play_monopoly", "resource": RESOURCES[want]}
    return None


def _village_ship(state: State, seat: int, edges: list[int]) -> int | None:
    """Cloth for Catan: the first of ``edges`` where a ship would reach a new village."""
    if state.cloth is None:
        return None
    mine = state.ships_of[seat]
    return next((e for e in edges if cloth.villages_reached(state, seat, ships=[*mine, e])), None)


def _goal_spots(state: State, seat: int) -> list[int]:
    grid = state.laid().grid
    ends = {c for e in state.roads_of[seat] for c in grid.edge_corners[e]}
    if state.ships_of:
        ends.update(c for e in state.ships_of[seat] for c in grid.edge_corners[e])
    return [c for c in ends if building.settlement_problem(state, seat, c, setup=True) is None]


def _offer_for(state: State, seat: int, lacking: list[int], cost: tuple[int, ...]) -> JSON | None:
    spare = [have - need for have, need in zip(state.hands[seat], cost, strict=True)]
    give = max(range(5), key=lambda r: spare[r])
    want = max(range(5), key=lambda r: lacking[r])
    if spare[give] < 1 or lacking[want] < 1 or give == want:
        return None
    # (a seat that resigned is offered nothing: an offer naming it is refused)
    others = [s for s in range(state.seats) if s != seat and s not in state.agenda.absent]
    if not others:
        return None
    return {
        "type": "offer_trade",
        "give": {RESOURCES[give]: 1},
        "get": {RESOURCES[want]: 1},
        "to": others,
    }


def _proposal_for(state: State, seat: int, rng: random.Random) -> JSON:
    """Now and then, propose to the active seat the trade this seat needs."""
    goal, _ = _goal(state, seat)
    lacking = _lacking(state, seat, _cost(state, seat, goal))
    if any(lacking) and rng.random() < 0.2:
        offer = _offer_for(state, seat, lacking, _cost(state, seat, goal))
        if offer is not None:
            return {"type": "propose_trade", "give": offer["give"], "get": offer["get"]}
    return {"type": "pass_trade"}


def _consider(state: State, seat: int) -> JSON:
    offer = state.trade_offer()
    if _worth_it(state, seat, gets=offer["give"], gives=offer["get"]):
        return {"type": "accept_proposal"}
    return {"type": "decline_proposal"}


def _worth_it(state: State, seat: int, gets: dict[str, int], gives: dict[str, int]) -> bool:
    """Whether taking ``gets`` for ``gives`` brings the seat nearer its next build
    without costing what that build needs."""
    hand = state.hands[seat]
    asked = [0] * 5
    for name, n in gives.items():
        asked[RESOURCE_INDEX[name]] = n
    goal, _ = _goal(state, seat)
    cost = _cost(state, seat, goal)
    lacking = _lacking(state, seat, cost)
    gets_needed = any(lacking[RESOURCE_INDEX[r]] for r in gets)
    can_spare = all(hand[i] - asked[i] >= cost[i] for i in range(5) if asked[i])
    return gets_needed and can_spare and all(hand[i] >= asked[i] for i in range(5))


def _answer_offer(state: State, seat: int) -> JSON:
    offer = state.trade_offer()
    accept = _worth_it(state, seat, gets=offer["give"], gives=offer["get"])
    return {"type": "respond_trade", "answer": "accept" if accept else "decline"}


BOTS: dict[str, Callable[..., JSON]] = {"random": random_bot, "value": value_bot}
