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
- ``<Prefix>View``: the state as ``GET .../state`` shows it, its ``ruleset`` the
  ruleset's name;
- ``<Prefix>LegalCommands``: what ``GET .../legal-moves`` lists for a seat.

Then ``Command``, ``Event``, ``View`` and ``LegalCommands`` are the unions across the
rulesets: ``View`` ``oneOf`` told apart by its ``ruleset``; the others ``anyOf``, since
a type such as ``turn_ended`` exists in several rulesets and a command or an event
does not say which ruleset it belongs to. The API's marshmallow fields name these with
:class:`Typed`.

An answer that holds them says which ruleset its game plays (its ``ruleset``), so each
such answer (:data:`BY_RULESET`: a move's answer, a page of events, the state, the
legal moves, a validation's result, an export) is ``oneOf`` one variant per ruleset
(``<Prefix><Answer>``, e.g. ``CatanEventPage``) with a ``ruleset`` discriminator:
each variant's ``ruleset`` is that ruleset's name alone, and it holds that ruleset's
own unions, told apart by ``type``. A generated client thus reads a Catan
``turn_ended`` as ``CatanTurnEndedEvent``, never as another ruleset's.
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
#: the answers (marshmallow's components) that hold those and the game's ``ruleset``:
#: each becomes ``oneOf`` its variants per ruleset (:func:`by_ruleset`)
BY_RULESET = ("MoveResult", "EventPage", "State", "LegalMoves", "ValidateResult", "GameExport")


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
        found[f"{prefix}View"] = named(ruleset.view_shape.schema(), ruleset)
    found[f"{prefix}LegalCommands"] = legal_commands(ruleset)
    return found


def named(schema: JSON, ruleset: Ruleset) -> JSON:
    """``schema`` (an object with a ``ruleset`` field) for ``ruleset``'s games alone: its
    ``ruleset`` is required and the ruleset's name, which tells the variants of a union
    apart."""
    field = {"type": "string", "enum": [ruleset.name]}
    if "description" in schema["properties"].get("ruleset", {}):
        field["description"] = schema["properties"]["ruleset"]["description"]
    required = list(schema.get("required", ()))
    if "ruleset" not in required:
        required.append("ruleset")
    properties = {**schema["properties"], "ruleset": field}
    return {**schema, "properties": properties, "required": required}


def by_ruleset_union(names: Mapping[str, str], description: str | None) -> JSON:
    """``oneOf`` the named schemas, told apart by ``ruleset`` (ruleset -> schema name)."""
    schema: JSON = {
        "oneOf": [ref(name) for name in names.values()],
        "discriminator": {
            "propertyName": "ruleset",
            "mapping": {ruleset: REF + name for ruleset, name in names.items()},
        },
    }
    return {"description": description, **schema} if description else schema


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


def described(rulesets: Iterable[Ruleset]) -> list[Ruleset]:
    """The rulesets that declare their shapes (a test's stand-in ruleset may not)."""
    return [r for r in rulesets if r.parts]


def components(rulesets: Iterable[Ruleset]) -> dict[str, JSON]:
    """Every generated schema: each ruleset's (those that declare shapes), the unions
    across them, and ``Decision``."""
    rulesets = described(rulesets)
    found: dict[str, JSON] = {"Decision": DECISION}
    for ruleset in rulesets:
        found.update(ruleset_components(ruleset))
    for what in UNIONS:
        names = {r.name: f"{camel(r.name)}{what}" for r in rulesets}
        if what == "View":
            found[what] = by_ruleset_union(
                {r: n for r, n in names.items() if n in found},
                "The state as a seat or a spectator sees it, by `ruleset`.",
            )
        else:
            found[what] = {"anyOf": [ref(name) for name in names.values() if name in found]}
    return found


def by_ruleset(schemas: dict[str, JSON], rulesets: Iterable[Ruleset]) -> None:
    """Turns each answer of :data:`BY_RULESET` among ``schemas`` (the document's
    components, marshmallow's and :func:`components`') into ``oneOf`` its variants per
    ruleset, which it adds: ``<Prefix><Answer>``, where each union of :data:`UNIONS`
    it refers to, directly or through another component (an export's steps), is the
    ruleset's own."""
    rulesets = described(rulesets)
    for answer in BY_RULESET:
        names = {r.name: narrowed(answer, schemas, camel(r.name)) for r in rulesets}
        for ruleset in rulesets:
            schemas[names[ruleset.name]] = named(schemas[names[ruleset.name]], ruleset)
        schemas[answer] = by_ruleset_union(names, schemas[answer].get("description"))


def narrowed(name: str, schemas: dict[str, JSON], prefix: str) -> str:
    """The name of component ``name`` for one ruleset (``prefix``): ``name`` itself if
    it refers to no union, else ``<prefix><name>``, added to ``schemas`` with every
    reference narrowed alike."""
    if name in UNIONS:
        return prefix + name
    if not _reaches_union(schemas[name], schemas, set()):
        return name
    if prefix + name not in schemas:
        schemas[prefix + name] = _narrow(schemas[name], schemas, prefix)
    return prefix + name


def _narrow(node: Any, schemas: dict[str, JSON], prefix: str) -> Any:
    if isinstance(node, list):
        return [_narrow(item, schemas, prefix) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return {**node, "$ref": REF + narrowed(node["$ref"].removeprefix(REF), schemas, prefix)}
    return {key: _narrow(value, schemas, prefix) for key, value in node.items()}


def _reaches_union(node: Any, schemas: dict[str, JSON], seen: set[str]) -> bool:
    if isinstance(node, list):
        return any(_reaches_union(item, schemas, seen) for item in node)
    if not isinstance(node, dict):
        return False
    target = node.get("$ref", "").removeprefix(REF)
    if target:
        if target in UNIONS:
            return True
        if target in seen:
            return False
        return _reaches_union(schemas[target], schemas, seen | {target})
    return any(_reaches_union(value, schemas, seen) for value in node.values())
