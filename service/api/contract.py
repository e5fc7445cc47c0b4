"""The rulesets' commands, events, views and legal moves as named OpenAPI schemas,
generated from the shapes the rules core declares (``service/rules/shapes.py``), so the
document cannot drift from the code.

For each ruleset with shapes (prefix ``Carcassonne``, ``CarcassonneSouthSeas``,
``Catan``):

- ``<Prefix><Type>Command``: one command, ``type`` and its fields;
  ``<Prefix>Command``: every command of the ruleset, ``oneOf`` with a ``type``
  discriminator; ``<Prefix><Part>Command``: those an expansion or scenario adds;
- ``<Prefix><Type>Data``: one event's data; ``<Prefix><Type>Event``: the event as the
  log holds it (``EventEnvelope`` with that ``type`` and ``data``); ``<Prefix>Event``
  and ``<Prefix><Part>Event``: the unions, as for commands;
- ``<Prefix>View``: the state as ``GET .../state`` shows it;
- ``<Prefix>LegalCommands``: what ``GET .../legal-moves`` lists for a seat.

Then ``Command``, ``Event``, ``View`` and ``LegalCommands`` are ``anyOf`` the rulesets'
(an event type such as ``turn_ended`` exists in several rulesets, so no discriminator
is given across them: ``GET /v1/games/{game_id}`` says which ruleset a game plays).
The API's marshmallow fields name these with :class:`Typed`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from marshmallow import fields

from service.rules.core import Ruleset
from service.rules.shapes import DECISION, Shape

JSON = dict[str, Any]
REF = "#/components/schemas/"

#: the union of every ruleset's, by what it types (and the suffix of its schemas' names)
UNIONS = ("Command", "Event", "View", "LegalCommands")


class Typed(fields.Raw):
    """A game-specific JSON object (a command, an event, a view, a seat's legal moves)
    whose schema is the generated component ``component``. It loads any JSON object, as
    ``fields.Dict`` does: the rules check what it holds."""

    default_error_messages = {"invalid": "Not a valid mapping type."}

    def __init__(self, component: str, **kwargs: Any) -> None:
        if component not in UNIONS and component not in ("Decision",):
            raise ValueError(f"no generated component {component!r}")
        super().__init__(**kwargs)
        self.component = component

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, Mapping):
            raise self.make_error("invalid")
        return value


def typed_to_ref(self, field: fields.Field, **kwargs: Any) -> JSON:
    """apispec attribute function: a :class:`Typed` field is a reference to its
    component (and only that: OpenAPI 3.0 ignores whatever stands beside a ``$ref``)."""
    if isinstance(field, Typed):
        kwargs["ret"].clear()
        return {"$ref": REF + field.component}
    return {}


def camel(name: str) -> str:
    """``carcassonne-south-seas`` / ``place_tile`` -> ``CarcassonneSouthSeas`` / ``PlaceTile``."""
    return "".join(word[:1].upper() + word[1:] for word in name.replace("-", "_").split("_"))


def ref(name: str) -> JSON:
    return {"$ref": REF + name}


def tagged(type_name: str, shape: Shape) -> JSON:
    """A command: its ``type`` (one value) and the shape's fields."""
    schema = shape.schema()
    return {
        **schema,
        "required": ["type", *schema.get("required", ())],
        "properties": {"type": {"type": "string", "enum": [type_name]}, **schema["properties"]},
    }


def union(names: Mapping[str, str], description: str) -> JSON:
    """``oneOf`` the named schemas, told apart by ``type`` (type -> schema name)."""
    return {
        "description": description,
        "oneOf": [ref(name) for name in names.values()],
        "discriminator": {
            "propertyName": "type",
            "mapping": {type_name: REF + name for type_name, name in names.items()},
        },
    }


def event_schema(type_name: str, data: str, description: str) -> JSON:
    return {
        "description": description,
        "allOf": [
            ref("EventEnvelope"),
            {
                "type": "object",
                "required": ["type", "data"],
                "properties": {
                    "type": {"type": "string", "enum": [type_name]},
                    "data": ref(data),
                },
            },
        ],
    }


def ruleset_components(ruleset: Ruleset) -> dict[str, JSON]:
    """The named schemas of one ruleset's commands, events, view and legal moves."""
    prefix = camel(ruleset.name)
    found: dict[str, JSON] = {}
    commands = {t: f"{prefix}{camel(t)}Command" for t in ruleset.command_shapes()}
    for type_name, shape in ruleset.command_shapes().items():
        found[commands[type_name]] = tagged(type_name, shape)
    events = {t: f"{prefix}{camel(t)}Event" for t in ruleset.event_shapes()}
    for type_name, shape in ruleset.event_shapes().items():
        data = f"{prefix}{camel(type_name)}Data"
        found[data] = shape.schema()
        found[events[type_name]] = event_schema(type_name, data, shape.description)
    found[f"{prefix}Command"] = union(commands, f"A command of {ruleset.title}.")
    found[f"{prefix}Event"] = union(events, f"An event of {ruleset.title}.")
    for part in ruleset.parts[1:]:
        name = f"{prefix}{camel(part.name)}"
        if part.commands:
            mine = {t: commands[t] for t in part.commands}
            found[f"{name}Command"] = union(mine, f"The commands {part.title} adds.")
        if part.events:
            mine = {t: events[t] for t in part.events}
            found[f"{name}Event"] = union(mine, f"The events {part.title} adds.")
    if ruleset.view_shape is not None:
        found[f"{prefix}View"] = ruleset.view_shape.schema()
    found[f"{prefix}LegalCommands"] = legal_commands(ruleset)
    return found


def legal_commands(ruleset: Ruleset) -> JSON:
    """``{seat, decisions: [{id, kind, commands: {type: menu}}]}`` for one ruleset: the
    decision kinds and command types by name, each menu as the ruleset describes it (a
    list of choices, an object saying what may be sent where the choices are unbounded
    such as a trade offer, ``{}`` for a command without fields)."""
    return {
        "type": "object",
        "description": f"A seat's legal moves in {ruleset.title}.",
        "required": ["seat", "decisions"],
        "properties": {
            "seat": {"type": "integer"},
            "decisions": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["id", "kind", "commands"],
                    "properties": {
                        "id": {"type": "string", "example": "d7"},
                        "kind": {"type": "string", "enum": list(ruleset.answers)},
                        "commands": {
                            "type": "object",
                            "properties": dict(ruleset.menu_shapes()),
                            "additionalProperties": False,
                        },
                    },
                },
            },
        },
    }


def components(rulesets: Iterable[Ruleset]) -> dict[str, JSON]:
    """Every generated schema: each ruleset's (those that declare shapes), the unions
    across them, and ``Decision``."""
    described = [r for r in rulesets if r.parts]
    found: dict[str, JSON] = {"Decision": DECISION}
    for ruleset in described:
        found.update(ruleset_components(ruleset))
    for what in UNIONS:
        names = [f"{camel(r.name)}{what}" for r in described if f"{camel(r.name)}{what}" in found]
        found[what] = {"anyOf": [ref(name) for name in names]}
    return found
