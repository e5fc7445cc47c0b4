"""The committed OpenAPI document types what a game sends and receives: each ruleset's
commands and events are named schemas in ``oneOf`` unions told apart by ``type``
(generated from the rules core's shapes), a move's ``command``, an event, ``state`` and
``legal-moves`` point at them, and real answers of the service validate against the
document as it is committed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from openapi_schema_validator import OAS30Validator

from service.api.contract import camel
from service.rules.carcassonne.expansions import EXPANSIONS
from service.rules.registry import all_rulesets
from service.rules.seating import TABLE_COMMANDS

COMMITTED = Path(__file__).resolve().parents[2] / "openapi" / "openapi.yaml"
REF = "#/components/schemas/"
RULESETS = all_rulesets()


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return yaml.safe_load(COMMITTED.read_text())


def schemas(document) -> dict[str, Any]:
    return document["components"]["schemas"]


def errors(document: dict, component: str, value: Any) -> list[str]:
    """Where ``value`` breaks the document's schema ``component`` (refs resolved in the
    document itself)."""
    schema = {"$ref": REF + component, "components": document["components"]}
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in OAS30Validator(schema).iter_errors(value)
    ]


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_every_command_is_a_named_schema_in_the_ruleset_s_union_by_type(document, ruleset):
    union = schemas(document)[f"{camel(ruleset.name)}Command"]
    mapping = union["discriminator"]["mapping"]
    assert union["discriminator"]["propertyName"] == "type"
    assert set(mapping) == set(ruleset.command_types()) | TABLE_COMMANDS
    assert sorted(r["$ref"] for r in union["oneOf"]) == sorted(mapping.values())
    for type_name, ref in mapping.items():
        command = schemas(document)[ref.removeprefix(REF)]
        assert command["properties"]["type"]["enum"] == [type_name]
        assert set(command["required"]) >= {"type"}


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_every_event_is_a_named_schema_in_the_ruleset_s_union_by_type(document, ruleset):
    union = schemas(document)[f"{camel(ruleset.name)}Event"]
    mapping = union["discriminator"]["mapping"]
    assert set(mapping) == set(ruleset.event_shapes())
    for type_name, ref in mapping.items():
        envelope, typed = schemas(document)[ref.removeprefix(REF)]["allOf"]
        assert envelope == {"$ref": REF + "EventEnvelope"}
        assert typed["properties"]["type"]["enum"] == [type_name]
        assert typed["properties"]["data"]["$ref"].removeprefix(REF) in schemas(document)


def test_each_expansion_and_scenario_has_a_union_of_what_it_adds(document):
    names = set(schemas(document))
    assert {"CarcassonneHillsSheepCommand", "CarcassonneHillsSheepEvent"} <= names
    assert {"CarcassonneWheelOfFortuneCommand", "CarcassonneTradersBuildersEvent"} <= names
    assert "CarcassonneRiverEvent" not in names  # the River adds no event of its own
    assert {"CatanSeafarersCommand", "CatanScenario7Command", "CatanScenario8Event"} <= names
    assert len(EXPANSIONS) == 5


def test_a_move_an_event_the_state_and_legal_moves_point_at_the_typed_schemas(document):
    found = schemas(document)
    assert found["Move"]["properties"]["command"] == {"$ref": REF + "Command"}
    assert found["RecordStep"]["properties"]["command"] == {"$ref": REF + "Command"}
    assert found["EventPage"]["properties"]["events"]["items"] == {"$ref": REF + "Event"}
    assert found["MoveResult"]["properties"]["events"]["items"] == {"$ref": REF + "Event"}
    assert found["State"]["properties"]["state"] == {"$ref": REF + "View"}
    assert found["LegalMoves"]["properties"]["commands"] == {"$ref": REF + "LegalCommands"}
    assert found["State"]["properties"]["awaiting"]["items"] == {"$ref": REF + "Decision"}
    for union in ("Command", "Event", "View", "LegalCommands"):
        assert found[union]["anyOf"] == [{"$ref": f"{REF}{camel(r.name)}{union}"} for r in RULESETS]


def test_a_wrong_command_is_refused_by_the_document(document):
    assert errors(document, "Command", {"type": "place_tile", "x": 1, "y": 0, "rotation": 90}) == []
    assert errors(document, "Command", {"type": "place_tile", "x": "1", "y": 0, "rotation": 90})
    assert errors(document, "CarcassonneCommand", {"type": "build_road", "edge": "0,0,N"})


def first_choice(menu: dict[str, Any]) -> dict[str, Any]:
    """A Carcassonne command from a legal-moves menu: the first placement, no follower."""
    if "place_tile" in menu:
        placement = menu["place_tile"]["placements"][0]
        return {"type": "place_tile", **{k: placement[k] for k in ("x", "y", "rotation")}}
    return {"type": "skip"}


def test_a_game_played_over_http_answers_as_the_document_says(api, document):
    """Seat 0 against the greedy bot, to the end: every legal-moves, move, state and
    events answer validates against the committed document."""
    game = api.create("carcassonne", seats=[{"name": "Ada"}, {"bot": "greedy"}])
    token = {"X-Seat-Token": game["tokens"][0]}
    path = f"/v1/games/{game['id']}"
    while True:
        legal = api.client.get(f"{path}/legal-moves", headers=token).get_json()
        assert errors(document, "LegalMoves", legal) == []
        if not legal["commands"]["decisions"]:
            break
        (decision,) = legal["commands"]["decisions"]
        moved = api.move(game, 0, first_choice(decision["commands"]), legal["version"])
        assert moved.status_code == 200, moved.get_json()
        assert errors(document, "MoveResult", moved.get_json()) == []
    state = api.client.get(f"{path}/state", headers=token).get_json()
    assert state["state"]["over"]
    assert errors(document, "State", state) == []
    page = api.client.get(f"{path}/events", headers=api.key, query_string={"limit": 1000})
    assert errors(document, "EventPage", page.get_json()) == []


@pytest.mark.parametrize(
    ("ruleset", "options"),
    [
        ("carcassonne", {"expansions": list(EXPANSIONS)}),
        ("carcassonne-south-seas", {}),
        ("catan", {}),
        ("catan", {"scenario": 7}),
    ],
    ids=lambda v: str(v),
)
def test_every_event_of_a_whole_bot_game_validates(api, document, ruleset, options):
    """A game between bots, played as far as the service plays bots at once, read by a
    spectator (who sees every secret event redacted)."""
    game = api.create(ruleset, seats=[{"bot": "random"}] * 3, options=options)
    path = f"/v1/games/{game['id']}"
    page = api.client.get(f"{path}/events", headers=api.key, query_string={"limit": 1000})
    events = page.get_json()
    assert errors(document, "EventPage", events) == []
    assert len(events["events"]) > 50
    state = api.client.get(f"{path}/state", headers=api.key).get_json()
    assert errors(document, "State", state) == []
