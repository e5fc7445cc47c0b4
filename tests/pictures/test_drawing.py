"""The picture library without the service: every tile of every catalogue draws at
every rotation, pictures are the same bytes in another process (no random ids, no
dependence on hash order), and a picture depends on the viewer's view only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from service.pictures import board_svg, squares
from service.pictures.carcassonne import all_tiles
from service.pictures.south_seas import catalogue_for
from service.pictures.svg import wrap
from service.pictures.tileboard import figure_title, last_move_words
from service.rules.core import bot_rng_for, rng_for
from service.rules.registry import get_ruleset
from tests.conftest import REPO
from tests.rules.catan.table import Table, drawn, standard, written

CATALOGUES = {"carcassonne": all_tiles(), "carcassonne-south-seas": catalogue_for({})}


@pytest.mark.parametrize("ruleset", sorted(CATALOGUES))
def test_every_tile_draws_at_every_rotation_with_a_place_for_each_spot(ruleset):
    for tile in CATALOGUES[ruleset].tiles:
        for q in range(4):
            drawing = squares.draw(tile, q)
            assert set(drawing.anchors) == set(tile.spots[q]), tile.id
            for spot, (x, y) in drawing.anchors.items():
                assert 0 <= x <= 100 and 0 <= y <= 100, (tile.id, q, spot)
            ET.fromstring(
                f'<svg xmlns="http://www.w3.org/2000/svg">{squares.tile_svg(tile, q)}</svg>'
            )


def turned_by_hand(point, q: int):
    """``point`` on the 100 x 100 tile turned ``q`` quarter turns clockwise: (x, y) goes
    to (100 - y, x) each turn, the north edge's middle to the east edge's."""
    x, y = point
    for _ in range(q):
        x, y = 100 - y, x
    return (x, y)


@pytest.mark.parametrize("ruleset", sorted(CATALOGUES))
def test_a_tiles_cloister_hill_market_or_vineyard_turns_with_the_tile(ruleset):
    """A tile turned is the same tile: what stands on it (RI.1/LIRI's cloister, across
    the river from its road) stays where it was on the tile, whichever way it is turned."""
    moved = []
    for tile in CATALOGUES[ruleset].tiles:
        upright = squares.draw(tile, 0)
        for q in range(1, 4):
            for part, was in zip(squares.draw(tile, q).parts, upright.parts, strict=True):
                if was.at is not None and part.at != pytest.approx(turned_by_hand(was.at, q)):
                    moved.append((tile.id, q, part.kind))
    assert moved == []


def _game(name: str, options: dict, seats: int, moves: int, seed: bytes):
    ruleset = get_ruleset(name)
    normalised = ruleset.normalize_options(options)
    events = ruleset.setup(normalised, seats, rng_for(seed, 1))
    state = ruleset.fold(events)
    for _ in range(moves):
        if ruleset.is_over(state):
            break
        seat = ruleset.decisions(state)[0].seat
        seq = len(events) + 1
        command = ruleset.bot_command(state, seat, ruleset.bots[0], bot_rng_for(seed, seq))
        events += ruleset.apply(state, seat, command, rng_for(seed, seq))
    return ruleset, normalised, events, state


def _picture(name: str, options: dict, seats: int, moves: int, seat) -> str:
    ruleset, normalised, events, state = _game(name, options, seats, moves, b"pictures")
    view = json.loads(json.dumps(ruleset.view(state, seat)))
    recent = [
        {"type": e.type, "data": e.data if e.is_visible_to(seat) else ruleset.redact(e, seat)}
        for e in events[-50:]
    ]
    names = [f"Player {i}" for i in range(seats)]
    return board_svg(
        name, view, seat=seat, names=names, version=len(events), options=normalised, recent=recent
    )


CASES = [
    ("carcassonne", {"expansions": ["river", "hills_sheep", "wheel_of_fortune"]}, 3, 60, 0),
    ("carcassonne-south-seas", {}, 3, 60, None),
    ("catan", {"scenario": None}, 3, 150, 1),
    ("catan", {"scenario": 3}, 3, 150, None),
]


def test_the_same_state_gives_the_same_bytes_in_another_process():
    script = (
        "import sys, json\n"
        "from tests.pictures.test_drawing import CASES, _picture\n"
        "sys.stdout.write(json.dumps([_picture(*case) for case in CASES]))\n"
    )
    here = [_picture(*case) for case in CASES]
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(REPO)}
        out = subprocess.run(
            [sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr[-2000:]
        assert json.loads(out.stdout) == here


def test_a_catan_picture_depends_on_no_other_seats_hand():
    """Seat 0's cards shuffled between resources (same count, as everyone else sees it):
    seat 0's own picture changes with its hand, seat 1's and a spectator's do not."""
    ruleset, options, events, state = _game("catan", {"scenario": None}, 3, 200, b"hands")
    assert sum(state.hands[0]) >= 2, "seat 0 needs cards for this test"

    def picture(seat):
        view = json.loads(json.dumps(ruleset.view(state, seat)))
        names = ["A", "B", "C"]
        return board_svg("catan", view, seat=seat, names=names, version=1, options=options)

    before = {seat: picture(seat) for seat in (0, 1, None)}
    hand = state.hands[0]
    state.hands[0] = hand[1:] + hand[:1]
    if state.hands[0] == hand:
        state.hands[0] = [sum(hand)] + [0] * (len(hand) - 1)
    after = {seat: picture(seat) for seat in (0, 1, None)}
    assert after[1] == before[1] and after[None] == before[None]
    assert after[0] != before[0]


def test_the_readme_picture_script_draws_a_seafarers_game(tmp_path):
    out = tmp_path / "game.svg"
    result = subprocess.run(
        [sys.executable, "scripts/board-picture", "--output", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    root = ET.fromstring(out.read_bytes())
    assert root.find("{http://www.w3.org/2000/svg}title").text.startswith("Catan: Seafarers")


def test_the_winners_line_tells_two_bots_of_one_name_apart():
    ruleset, normalised, events, state = _game("carcassonne", {}, 2, 10_000, b"winners")
    assert ruleset.is_over(state)
    view = json.loads(json.dumps(ruleset.view(state, None)))
    picture = board_svg(
        "carcassonne", view, seat=None, names=["greedy bot"] * 2, version=len(events),
        options=normalised, recent=[],
    )  # fmt: skip
    winners = " and ".join(f"greedy bot ({'AB'[w]})" for w in view["winners"])
    assert f"Game over. Won by {winners.replace(' and ', ', ')}" in picture


def test_the_last_move_line_says_an_islander():
    placed = {"seat": 1, "tile": "SS/M", "x": 0, "y": 1}
    figures = [{"spot": "market"}]
    (line,) = last_move_words(placed, figures, ["Ada", "Bob"], "islander")
    assert line == (
        "Last move: Bob (B) placed a tile at (0, 1), an islander on its market (framed)"
    )


def test_the_last_move_line_names_the_feature_not_the_spots_code():
    placed = {"seat": 0, "tile": "BA/CRr", "x": 7, "y": -5}
    figures = [{"spot": "road:E,W", "figure": "big_follower"}]
    (line,) = last_move_words(placed, figures, ["Ada", "Bob"], "follower")
    assert (
        line == "Last move: Ada (A) placed a tile at (7, -5), a big follower on its road (framed)"
    )


def test_a_panel_line_is_never_cut_between_a_number_and_its_noun():
    line = "pieces left: 10 roads, 1 settlement, 4 cities, 11 ships"
    for width in range(60, 400, 7):
        for cut in wrap([line], width, 12):
            assert not cut.rstrip().split(" ")[-1].isdigit(), (width, cut)
    assert " ".join(" ".join(wrap([line], 100, 12)).split()) == line
    move = "Last move: Ada (A) placed a tile at (-1, -1), a follower on its road (framed)"
    for width in range(60, 400, 7):
        assert all(cut.count("(") == cut.count(")") for cut in wrap([move], width, 12)), width


def test_the_catan_footer_names_the_seat_awaited_not_the_seat_whose_turn_it_is():
    """In the set-up the turn stays with seat 0 while the others place; the footer
    names who is awaited, and the base game's proposals (open to every other seat in a
    turn) wait on nobody."""
    table = Table(3)
    table.place("0,-1,N", "1,-2,S")  # seat 0's first settlement and road: seat 1 next
    footer = " ".join(written(table.picture()).split())
    assert "Waiting for Seat 1 (B) (the set-up)" in footer
    table.place("2,-1,S", "1,0,N")  # seat 1's: seat 2 next
    assert table.awaited() == [(2, "place_settlement")]
    assert "Waiting for Seat 2 (C) (the set-up)" in " ".join(written(table.picture()).split())


def test_a_seats_own_development_cards_are_counted_in_words_new_ones_apart():
    table = standard()
    table.buy_cards(0, "victory_point", "victory_point", "monopoly")
    (score,) = [row for row in drawn(table.picture(0), "score") if row.get("data-seat") == "0"]
    text = " ".join(written(score).split())
    assert "your development cards: 2 new victory point cards, 1 new monopoly card" in text


def test_a_figures_title_names_its_feature_not_its_spots_code():
    title = figure_title(["Ada", "Bob"], 0, "big_follower", "field:NL,NR", 0, 9)
    assert title == "Ada (A): a big follower on the field at (0, 9)"
    assert figure_title(["Ada"], 0, "islander", "market", 1, -2) == (
        "Ada (A): an islander on the market at (1, -2)"
    )
