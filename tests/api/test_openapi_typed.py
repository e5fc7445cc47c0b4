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

from service.api.contract import BY_RULESET, camel
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


def test_a_move_and_a_record_step_take_any_ruleset_s_command(document):
    found = schemas(document)
    assert found["Move"]["properties"]["command"] == {"$ref": REF + "Command"}
    assert found["RecordStep"]["properties"]["command"] == {"$ref": REF + "Command"}
    for union in ("Command", "Event", "LegalCommands"):
        assert found[union]["anyOf"] == [{"$ref": f"{REF}{camel(r.name)}{union}"} for r in RULESETS]


def test_a_view_says_its_ruleset_and_is_told_apart_by_it(document):
    found = schemas(document)
    assert found["View"]["discriminator"] == {
        "propertyName": "ruleset",
        "mapping": {r.name: f"{REF}{camel(r.name)}View" for r in RULESETS},
    }
    for ruleset in RULESETS:
        view = found[f"{camel(ruleset.name)}View"]
        assert view["properties"]["ruleset"]["enum"] == [ruleset.name]
        assert "ruleset" in view["required"]


@pytest.mark.parametrize("answer", BY_RULESET)
def test_an_answer_holding_them_is_one_variant_per_ruleset_told_apart_by_ruleset(document, answer):
    """A generated client picks the variant by the answer's ``ruleset`` and then reads
    that ruleset's own commands, events, view or legal moves."""
    found = schemas(document)
    variants = {r.name: f"{REF}{camel(r.name)}{answer}" for r in RULESETS}
    assert found[answer]["oneOf"] == [{"$ref": ref} for ref in variants.values()]
    assert found[answer]["discriminator"] == {"propertyName": "ruleset", "mapping": variants}
    for ruleset in RULESETS:
        variant = found[variants[ruleset.name].removeprefix(REF)]
        assert variant["properties"]["ruleset"]["enum"] == [ruleset.name]
        assert "ruleset" in variant["required"]


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.name)
def test_each_variant_holds_its_own_ruleset_s_unions(document, ruleset):
    found, prefix = schemas(document), camel(ruleset.name)

    def own(name: str) -> dict:
        return {"$ref": REF + prefix + name}

    assert found[f"{prefix}EventPage"]["properties"]["events"]["items"] == own("Event")
    assert found[f"{prefix}MoveResult"]["properties"]["events"]["items"] == own("Event")
    assert found[f"{prefix}State"]["properties"]["state"] == own("View")
    assert found[f"{prefix}State"]["properties"]["awaiting"]["items"] == {"$ref": REF + "Decision"}
    assert found[f"{prefix}LegalMoves"]["properties"]["commands"] == own("LegalCommands")
    assert found[f"{prefix}ValidateResult"]["properties"]["state"] == own("View")
    assert found[f"{prefix}GameExport"]["properties"]["record"]["items"] == own("RecordStep")
    assert found[f"{prefix}RecordStep"]["properties"]["command"] == own("Command")


def test_an_event_of_one_ruleset_is_not_read_as_another_s(document):
    """``turn_ended`` is an event of every ruleset: a page says whose."""
    turn_ended = {
        "seq": 9,
        "type": "turn_ended",
        "data": {"seat": 0, "next": 1},
        "redacted": False,
        "visibility": None,
        "prev_hash": "0" * 64,
        "hash": "1" * 64,
        "recorded_at": "2026-11-24T16:32:56.171453+00:00",
    }
    page = {"game_id": "g", "ruleset": "catan", "version": 9, "seat": None}
    page |= {"events": [turn_ended], "next_after": None}
    assert errors(document, "EventPage", page) == []
    assert errors(document, "CatanEventPage", page) == []
    assert errors(document, "CarcassonneEventPage", page)
    assert errors(document, "EventPage", {**page, "ruleset": "chess"})


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
