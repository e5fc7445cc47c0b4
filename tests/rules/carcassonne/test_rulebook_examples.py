"""Every worked example of the base-game pages of the rulebook, built tile by tile.

The OCR'd rulebook lost its illustrations, so each board is reconstructed from the
text: the features, followers and tile counts the text names. The start tile D sits at
(0, 0) with its city to the north and its road running west-east. Seat 0 plays first.
"""

from __future__ import annotations

from service.rules.carcassonne import CARCASSONNE
from tests.rules.carcassonne.table import Table, menu, only, refused, scored

# -- roads (p. 4: "Rouge marque 4 points. Rouge marque 3 points.") ----------------------


def test_road_of_4_tiles_scores_4():
    red, blue = 0, 1
    table = Table()
    table.turn("A", -1, 0, 270, "road:E")  # a cloister ends the road in the west
    table.turn("U", 1, 0)
    events = table.turn("W", 2, 0)  # a junction ends it in the east
    road = only(scored(events), kind="road")
    assert road["tiles"] == [[-1, 0], [0, 0], [1, 0], [2, 0]]
    assert (road["winners"], road["points"]) == ([red], 4)
    assert table.scores == [4, 0]
    assert table.state.supply[red]["follower"] == 7  # the robber came back
    assert blue not in road["winners"]


def test_road_of_3_tiles_scores_3_even_on_another_players_turn():
    table = Table()
    table.turn("L", -1, 0, 0, "road:E")  # a junction with a city
    events = table.turn("W", 1, 0)  # Blue closes Red's road
    road = only(scored(events), kind="road")
    assert (len(road["tiles"]), road["winners"], road["points"]) == (3, [0], 3)
    assert table.scores == [3, 0]


# -- cities (p. 4) ------------------------------------------------------------------------


def test_city_of_3_tiles_with_a_shield_scores_8():
    table = Table()
    table.turn("M", 0, -1, 180, "city:E,S")  # shield tile, city to the south and east
    events = table.turn("E", 1, -1, 270)  # a cap closes it
    city = only(scored(events), kind="city")
    assert (len(city["tiles"]), city["shields"], city["points"]) == (3, 1, 8)
    assert table.scores == [8, 0]


def test_city_of_4_tiles_scores_8_and_a_tile_with_two_city_segments_counts_once():
    table = Table()
    table.turn("I", 0, 1, 180, "city:E")  # two separate caps, east and south
    table.turn("N", 1, 1, 270)
    table.turn("N", 0, 2, 90)
    events = table.turn("N", 1, 2, 0)  # joins both caps of the I tile into one city
    city = only(scored(events), kind="city")
    assert city["tiles"] == [[0, 1], [0, 2], [1, 1], [1, 2]]
    assert (city["winners"], city["points"]) == ([0], 8)


def test_two_knights_tied_on_a_5_tile_city_score_10_each():
    red, blue = 0, 1
    table = Table()
    table.turn("R", 0, -1, 180, "city:E,S,W")  # Red's knight
    table.turn("K", 1, 0, 0, "city:N")  # Blue's knight in a separate city
    table.turn("E", -1, -1, 90)
    events = table.turn("N", 1, -1, 270)  # joins the two cities and completes them
    city = only(scored(events), kind="city")
    assert len(city["tiles"]) == 5
    assert (city["winners"], city["points"]) == ([red, blue], 10)
    assert table.scores == [10, 10]


# -- cloister (p. 5: "Rouge marque 9 points") ---------------------------------------------


def test_surrounded_cloister_scores_9():
    table = Table()
    table.turn("B", 0, 1, 0, "cloister")
    table.turn("U", -1, 0)
    table.turn("U", 1, 0)
    table.turn("B", -1, 1)
    table.turn("B", 1, 1)
    table.turn("U", 0, 2)
    table.turn("U", -1, 2)
    events = table.turn("U", 1, 2)  # the eighth neighbour
    cloister = only(scored(events), kind="cloister")
    assert (cloister["winners"], cloister["points"], cloister["surrounding"]) == ([0], 9, 8)
    assert len(cloister["tiles"]) == 1
    assert table.scores == [9, 0]


# -- place and score in one turn (p. 5: "Rouge marque 3 points", "Rouge marque 4 points") -


def test_follower_placed_on_a_road_completed_that_turn_scores_3_and_returns_at_once():
    table = Table()
    table.turn("W", 1, 0)
    table.turn("B", 0, 1)  # Blue plays elsewhere
    table.draw("A")
    table.place(-1, 0, 270)  # completes the road W-D-A
    events = table.follow("road:E")  # the robber goes on the completed road
    road = only(scored(events), kind="road")
    assert (road["winners"], road["points"], road["returned"]) == ([0], 3, True)
    assert table.state.supply[0]["follower"] == 7
    assert [e.type for e in events][:3] == ["follower_placed", "feature_scored", "turn_ended"]


def test_knight_placed_on_a_city_completed_that_turn_scores_4():
    table = Table()
    events = table.turn("E", 0, -1, 180, "city:S")
    city = only(scored(events), kind="city")
    assert (city["winners"], city["points"]) == ([0], 4)
    assert table.state.supply[0]["follower"] == 7


def test_small_city_variant_scores_a_two_tile_city_2():
    table = Table(small_cities=True)
    events = table.turn("E", 0, -1, 180, "city:S")
    assert only(scored(events), kind="city")["points"] == 2


def test_small_city_variant_leaves_bigger_cities_alone():
    table = Table(small_cities=True)
    table.turn("M", 0, -1, 180, "city:E,S")
    events = table.turn("E", 1, -1, 270)
    assert only(scored(events), kind="city")["points"] == 8


# -- final scoring (p. 6) -----------------------------------------------------------------


def test_final_scoring_incomplete_road_of_3_tiles_scores_3():
    table = Table()
    table.turn("U", 1, 0, 0, "road:E,W")
    table.turn("U", -1, 0)
    road = only(table.final(), kind="road")
    assert (road["complete"], road["winners"], road["points"]) == (False, [0], 3)


def test_final_scoring_incomplete_cloister_with_4_neighbours_scores_5():
    yellow = 0
    table = Table()
    table.turn("B", 0, 1, 0, "cloister")
    table.turn("U", 1, 0)
    table.turn("U", -1, 0)
    table.turn("B", 1, 1)
    cloister = only(table.final(), kind="cloister")
    assert (cloister["winners"], cloister["points"]) == ([yellow], 5)


def test_final_scoring_city_of_5_tiles_and_3_shields_scores_8_green_beats_black():
    green, black = 0, 1
    table = Table()
    table.turn("M", 0, -1, 180, "city:E,S")  # Green, shield
    table.turn("K", 1, 0, 0, "city:N")  # Black, separate city
    table.turn("B", 2, 0)
    table.turn("U", -1, 0)
    table.turn("F", 2, -1, 0, "city:E,W")  # Green again, shield, another separate city
    table.turn("U", -2, 0)
    table.turn("Q", 1, -1, 180)  # shield; joins the three, still open to the east
    city = only(table.final(), kind="city")
    assert (len(city["tiles"]), city["shields"], city["complete"]) == (5, 3, False)
    assert (city["winners"], city["points"]) == ([green], 8)
    assert black not in city["winners"]


def test_final_scoring_city_of_2_tiles_and_1_shield_scores_3():
    table = Table()
    table.turn("M", 0, -1, 180, "city:E,S")
    city = only(table.final(), kind="city")
    assert (city["winners"], city["points"]) == ([0], 3)


# -- farmers (p. 7 and p. 8) --------------------------------------------------------------


def test_farmers_blue_6_red_3_and_nobody_scores_an_unfinished_city():
    blue, red = 0, 1
    table = Table()
    table.turn("H", 0, 1, 90, "field:NL,NR,SL,SR")  # Blue: a field between two caps
    table.turn("E", 0, -1, 180, "field:NL,NR,EL,ER,WL,WR")  # Red, above the start city
    table.turn("E", 1, 1, 270)
    table.turn("E", -1, 1, 90)
    table.turn("E", 0, 2, 180)  # an unfinished city touching Blue's field
    fields = [f for f in table.final() if f["kind"] == "field"]
    assert sorted((f["winners"], f["points"]) for f in fields) == [([blue], 6), ([red], 3)]
    blues = only(fields, winners=[blue])
    assert len(blues["cities"]) == 2  # the unfinished city below is not counted


def test_farmers_blue_9_with_two_farmers_in_different_fields():
    """carcassonne-big-box.fr.md lines 297-304: "Bleu marque 9 points (6 points pour son
    paysan en haut et 3 points pour celui plus bas)." North is up: the upper farmer lies
    north of the start tile, between the two city caps of H (its south cap closes D's
    city, an E closes its north one): two completed cities, 6 points. The lower one lies
    south of D's road, beside a city cap that a second E closes: one city, 3 points."""
    blue = 0
    table = Table()
    table.turn("H", 0, -1, 0, "field:EL,ER,WL,WR")  # Blue's upper farmer
    table.turn("E", 0, -2, 180)  # closes H's north city
    table.turn("E", 0, 1, 180, "field:NL,NR,EL,ER,WL,WR")  # Blue's lower farmer
    table.turn("E", 0, 2, 0)  # closes the lower city
    # each field by its farmer's row: y = -1 is the upper one, y = 1 the lower one
    fields = {f["figures"][0]["y"]: f for f in table.final() if f["kind"] == "field"}
    assert sorted(fields) == [-1, 1]
    upper, lower = fields[-1], fields[1]
    assert (upper["winners"], upper["points"], len(upper["cities"])) == ([blue], 6, 2)
    assert (lower["winners"], lower["points"], len(lower["cities"])) == ([blue], 3, 1)
    events = CARCASSONNE.final_scoring(table.state)
    assert events[-1].data["scores"] == [9, 0]


RED, YELLOW, BLUE = 0, 1, 2


def page_7_field(yellows: int) -> dict:
    """The one field of the p. 7 examples, touching the completed cities A and B: two
    farmers of Red's, one of Blue's and ``yellows`` of Yellow's (1 or 2); its scoring."""
    table = Table(seats=3)
    table.turn("J", 1, 0, 90, "field:NL,NR,SL,WR")  # Red
    table.turn("E", 0, -1, 180, "field:NL,NR,EL,ER,WL,WR")  # Yellow; completes city A
    table.turn("U", 0, 1, 0, "field:NL,NR,EL,WR")  # Blue, south of the start road
    table.turn("V", -1, 0, 180)
    # Yellow's second farmer, or none; an unfinished city
    table.turn("N", 2, 0, 270, "field:NL,NR,EL,ER" if yellows == 2 else None)
    table.turn("E", 2, -1, 0)
    table.turn("K", 2, -2, 180, "field:NL,ER,WL,WR")  # Red; completes city B
    table.turn("E", 1, -2, 270)
    table.turn("F", 0, -2, 0)  # another unfinished city
    table.turn("A", -1, -1, 0)  # joins the start tile's two fields and Yellow's
    table.turn("B", 1, -1, 0)  # joins everything into one field
    field = only([f for f in table.final() if f["kind"] == "field"])
    assert sorted(f["seat"] for f in field["figures"]) == sorted(
        [RED, RED, BLUE] + [YELLOW] * yellows
    )
    assert len(field["cities"]) == 2
    return field


def test_farmers_red_and_yellow_6_each_blue_outnumbered():
    field = page_7_field(yellows=2)
    assert (field["winners"], field["points"]) == ([RED, YELLOW], 6)


def test_farmers_red_scores_6_for_cities_a_and_b_yellow_outnumbered_scores_nothing():
    """ "Rouge marque 6 points pour les villes A et B (3 points par ville). Jaune n'est pas
    le joueur ayant le plus de paysans dans le pré. Il ne marque donc pas de points." The
    board of the example before, Yellow with one farmer there instead of two."""
    field = page_7_field(yellows=1)
    assert (field["winners"], field["points"]) == ([RED], 6)


def test_page_8_fields_1_and_2_blue_6_red_and_blue_9_each():
    red, blue = 0, 1
    table = Table()
    table.turn("J", 1, 0, 90, "field:NL,NR,SL,WR")  # Red: field 2
    table.turn("N", 2, 0, 270, "field:NL,NR,EL,ER")  # Blue: field 2 (not yet joined)
    table.turn("E", 0, -1, 180)  # completes the start city
    table.turn("E", 2, -1, 0)
    table.turn("K", 2, -2, 180)  # completes city B
    table.turn("I", 1, -2, 270, "field:NL,NR,EL,ER")  # Blue: field 1
    table.turn("F", 0, -2, 0)  # unfinished city
    table.turn("E", 1, -1, 0)  # completes city A, joins field 2's parts
    fields = [f for f in table.final() if f["kind"] == "field"]
    field_1 = only(fields, winners=[blue])
    field_2 = only(fields, winners=[red, blue])
    assert (field_1["points"], field_2["points"]) == (6, 9)
    # Cities A and B are counted for both fields.
    assert all(city in field_2["cities"] for city in field_1["cities"])
    scores = table.scores
    for f in fields:
        for seat in f["winners"]:
            scores[seat] += f["points"]
    assert scores == [9, 15]


def test_page_8_field_3_yellow_12_black_0():
    yellow, black = 0, 1
    table = Table()
    table.turn("E", 0, -1, 180)
    table.turn("J", 1, 0, 90, "field:NL,NR,SL,WR")  # Black
    table.turn("E", 2, 0, 270, "field:NL,NR,EL,ER,SL,SR")  # Yellow
    table.turn("E", 2, -1, 0)
    table.turn("K", 2, -2, 180, "field:NL,ER,WL,WR")  # Yellow
    table.turn("E", 1, -2, 270)
    table.turn("E", 0, -2, 90)
    table.turn("B", 1, -1, 0)  # joins the four fields around it
    field = only([f for f in table.final() if f["kind"] == "field"])
    assert len(field["cities"]) == 4
    assert (field["winners"], field["points"]) == ([yellow], 12)
    assert black not in field["winners"]


def test_fields_touching_only_at_a_corner_are_separate_until_joined_on_turn_3():
    blue, red = 0, 1
    table = Table()
    table.turn("U", 1, 0, 0, "field:NL,NR,EL,WR")  # turn 1: Blue's farmer
    # Turn 2: Red's tile is diagonal to Blue's; the fields meet only at a corner, so
    # Red may still place a farmer.
    table.turn("E", 0, -1, 180, "field:NL,NR,EL,ER,WL,WR")
    assert len([f for f in table.final() if f["kind"] == "field"]) == 2
    table.turn("B", 1, -1, 0)  # turn 3 joins them: two farmers in one field
    field = only([f for f in table.final() if f["kind"] == "field"])
    assert sorted(f["seat"] for f in field["figures"]) == [blue, red]
    assert (field["winners"], field["points"]) == ([blue, red], 3)


# -- three farmers joined in one field by a new tile (p. 6, lines 243-253) ------------------
# "Tous les paysans ont leur propre pré. [...] Avec le placement de cette nouvelle tuile,
# les 3 joueurs ont maintenant chacun 1 paysan dans le même pré." and "Le joueur qui a joué
# cette nouvelle tuile ne peut y poser de paysan". The field is scored by lines 283-291.

FIRST, SECOND, THIRD = 0, 1, 2

#: where each farmer lies: (position, spot)
ABOVE_THE_CITY = ((0, -1), "field:NL,NR,EL,ER,WL,WR")  # first player's
BETWEEN_CITY_AND_ROAD = ((-1, 0), "field:NL,NR,EL,WR")  # second player's
BELOW_THE_ROAD = ((0, 1), "field:NL,NR,EL,ER,WL,WR")  # third player's
THE_WHOLE_TILE = "field:NL,NR,EL,ER,SL,SR,WL,WR"  # the new tile's one field


def test_three_farmers_in_separate_fields_share_one_after_the_new_tile_and_tie_for_6_each():
    """carcassonne-big-box.fr.md lines 243-253 (the example), scored by lines 283-291.

    Before: the first player's farmer lies above the start city (E, city south, which
    completes the start city), the second's between that city and the road (U west of
    D, north of its road), the third's below the road (E south of D, city south; a
    second E closes that city). An E east of the first farmer's tile carries its field
    down to (1, 0), beside the road's east end. The city separates the first two
    fields, the road the last two.

    The new tile is A (a cloister ending the road from the west) at (1, 0): its one field
    meets the field above the city (north side) and both sides of the road (west side).
    """
    table = Table(seats=3)
    table.turn("E", 0, -1, 180, ABOVE_THE_CITY[1])  # first player; completes D's city
    table.turn("U", -1, 0, 0, BETWEEN_CITY_AND_ROAD[1])  # second player
    table.turn("E", 0, 1, 180, BELOW_THE_ROAD[1])  # third player
    table.turn("E", 0, 2, 0)  # completes the city below the road
    table.turn("E", 1, -1, 0)  # the field above the city reaches (1, 0)

    # "Tous les paysans ont leur propre pré": three fields, one farmer each, each
    # scoring 3 for the one completed city it touches.
    graph, node = table.state.graph, table.state.tile_node
    farmers = [ABOVE_THE_CITY, BETWEEN_CITY_AND_ROAD, BELOW_THE_ROAD]
    before = [graph.feature(node(pos, spot)) for pos, spot in farmers]
    assert len({id(f) for f in before}) == 3
    assert [[f.seat for f in field.figures] for field in before] == [[FIRST], [SECOND], [THIRD]]
    scored_fields = [f for f in table.final() if f["kind"] == "field"]
    assert sorted((f["winners"], f["points"]) for f in scored_fields) == [
        ([FIRST], 3),
        ([SECOND], 3),
        ([THIRD], 3),
    ]

    # The third player draws the new tile; placed there, it offers no farmer's spot.
    table.draw("A")
    placements = menu(table.state, THIRD)["place_tile"]["placements"]
    here = only(placements, x=1, y=0, rotation=90)
    assert [s["spot"] for s in here["spots"]] == ["cloister", "road:W"]
    table.place(1, 0, 90)
    spots = [s["spot"] for s in menu(table.state, THIRD)["place_follower"]["spots"]]
    assert THE_WHOLE_TILE not in spots
    farmer = {"type": "place_follower", "spot": THE_WHOLE_TILE}
    assert refused(table, farmer).code == "feature_occupied"
    table.follow(None)

    # "les 3 joueurs ont maintenant chacun 1 paysan dans le même pré"
    joined = graph.feature(node((1, 0), THE_WHOLE_TILE))
    assert all(graph.feature(node(pos, spot)) is joined for pos, spot in farmers)
    assert sorted(f.seat for f in joined.figures) == [FIRST, SECOND, THIRD]

    # One farmer each: all three tie for the majority and each scores 3 points per
    # completed city touching the field (the start city and the one below the road);
    # the unfinished city at (1, -1) does not count.
    field = only([f for f in table.final() if f["kind"] == "field"])
    assert field["cities"] == [[[0, -1], [0, 0]], [[0, 1], [0, 2]]]
    assert (field["winners"], field["points"]) == ([FIRST, SECOND, THIRD], 6)
    assert field["returned"] is False  # farmers never go back to the supply
    assert [s["follower"] for s in table.state.supply] == [6, 6, 6]
    end = CARCASSONNE.final_scoring(table.state)
    assert end[-1].data["scores"] == [6, 6, 6]
