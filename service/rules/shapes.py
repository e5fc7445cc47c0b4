"""The shapes of a ruleset's commands and events, as data.

Each ruleset describes every command it accepts and every event it writes once, here
in the rules core: the fields, their JSON types, which are optional, and what they
mean. Two readers share that one description:

- ``GET /v1/rulesets`` lists each command's fields (:meth:`Shape.hints`);
- the OpenAPI document turns each shape into a named schema, and a ruleset's commands
  and events into ``oneOf`` unions with a ``type`` discriminator, so clients generated
  from it know every command and event by name.

The handlers keep checking the values they read themselves: a malformed field is
refused with the rule it breaks (``bad_rotation``, ``unknown_intersection``...), not
with a generic shape error.

A field's type is a JSON Schema fragment in the dialect of OpenAPI 3.0 (``nullable``
rather than ``type: [..., "null"]``), built from the small vocabulary below. An
:class:`Part` groups what the base game, an expansion or a scenario adds, so the
document can show each part's own commands and events.

Tests play bot games of every ruleset, expansion and scenario and check that every
command sent and every event written (whole, and as each seat and a spectator read it)
has its described shape, and that every command and event type the code knows is
described.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]

# -- the vocabulary of field types -----------------------------------------------------

INT: JSON = {"type": "integer"}
STR: JSON = {"type": "string"}
BOOL: JSON = {"type": "boolean"}
SEAT: JSON = {"type": "integer", "minimum": 0, "description": "a seat, from 0"}
#: any JSON value (a board or options given whole, checked by the ruleset itself)
ANY: JSON = {}


def about(schema: JSON, description: str) -> JSON:
    """``schema`` with a description of what the field means."""
    return {**schema, "description": description}


def nullable(schema: JSON) -> JSON:
    """``schema`` or null (an enum lists null too, as OpenAPI 3.0.3 asks)."""
    if "enum" in schema:
        return {**schema, "nullable": True, "enum": [*schema["enum"], None]}
    return {**schema, "nullable": True}


def one_of(*values: Any, description: str | None = None) -> JSON:
    """One of a few values (strings or integers, not mixed)."""
    kind = "integer" if all(isinstance(v, int) for v in values) else "string"
    schema: JSON = {"type": kind, "enum": list(values)}
    return about(schema, description) if description else schema


def array(items: JSON, description: str | None = None, **bounds: int) -> JSON:
    """A list of ``items``; ``bounds`` are ``minItems`` / ``maxItems``."""
    schema: JSON = {"type": "array", "items": items, **bounds}
    return about(schema, description) if description else schema


def mapping(values: JSON, description: str | None = None) -> JSON:
    """An object whose keys are data (tile ids, seats as strings) and whose values are
    all ``values``."""
    schema: JSON = {"type": "object", "additionalProperties": values}
    return about(schema, description) if description else schema


def counts(keys: Iterable[str], description: str | None = None) -> JSON:
    """How many of each of ``keys`` (resources, wares, goods): each optional, an
    integer from 0."""
    properties = {key: {"type": "integer", "minimum": 0} for key in keys}
    schema: JSON = {"type": "object", "properties": properties, "additionalProperties": False}
    return about(schema, description) if description else schema


@dataclass(frozen=True, slots=True)
class Optional:
    """A field that may be left out."""

    schema: JSON


def optional(schema: JSON) -> Optional:
    return Optional(schema)


#: the mark, in a field's schema, of an outcome of chance (a die, a card drawn) that a
#: client sends only with external randomness; an OpenAPI extension, so that generated
#: clients see it too
EXTERNAL_ONLY = "x-external-randomness"


def outcome(schema: JSON) -> Optional:
    """An optional field carrying an outcome of chance, sent only with external
    randomness: with internal randomness the service draws it, and refuses it sent."""
    described = schema.get("description", "")
    note = "(external randomness only)"
    return Optional({**schema, "description": f"{described} {note}".strip(), EXTERNAL_ONLY: True})


def record(
    fields: Mapping[str, JSON | Optional], description: str | None = None, *, more: bool = False
) -> JSON:
    """An object with named fields (nested in a shape: a scoring's figures, a harbour);
    ``more``: it may hold others besides (a decision's details, a player's secrets)."""
    schema = Shape.of(description or "", fields).schema()
    if more:
        schema["additionalProperties"] = True
    return schema


#: the menu entry of a command without fields (``skip``, ``end_turn``...)
NO_FIELDS: JSON = {"type": "object", "properties": {}}


# -- shapes ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shape:
    """The fields of one command (besides its ``type``) or of one event's data."""

    description: str
    fields: Mapping[str, JSON]
    required: tuple[str, ...] = ()

    @staticmethod
    def of(description: str, fields: Mapping[str, JSON | Optional] | None = None) -> Shape:
        schemas = {
            name: f.schema if isinstance(f, Optional) else f for name, f in (fields or {}).items()
        }
        return Shape(
            description,
            schemas,
            tuple(name for name, f in (fields or {}).items() if not isinstance(f, Optional)),
        )

    def schema(self) -> JSON:
        """The shape as an OpenAPI 3.0 schema object."""
        schema: JSON = {"type": "object", "properties": dict(self.fields)}
        if self.description:
            schema["description"] = self.description
        if self.required:
            schema["required"] = list(self.required)
        return schema

    def hints(self) -> JSON:
        """What ``GET /v1/rulesets`` shows of each field: its values, else its
        description, else its type (``"optional: ..."`` for a field that may be left
        out)."""
        found = {}
        for name, schema in self.fields.items():
            hint = schema.get("enum") or schema.get("description") or schema.get("type", "any")
            if name not in self.required and isinstance(hint, str):
                hint = f"optional: {hint}"
            found[name] = hint
        return found


def command(description: str, fields: Mapping[str, JSON | Optional] | None = None) -> Shape:
    """The shape of a command: its fields besides ``type``."""
    return Shape.of(description, fields)


def event(description: str, fields: Mapping[str, JSON | Optional] | None = None) -> Shape:
    """The shape of an event's data."""
    return Shape.of(description, fields)


@dataclass(frozen=True, slots=True)
class Part:
    """What the base game, one expansion or one scenario adds: commands and events, by
    type. A command or event is described in the first part that has it."""

    name: str
    title: str
    commands: Mapping[str, Shape] = field(default_factory=dict)
    events: Mapping[str, Shape] = field(default_factory=dict)
    #: command type -> the schema of its entry in ``legal-moves`` (what may be sent),
    #: where the ruleset describes it
    menus: Mapping[str, JSON] = field(default_factory=dict)


def merged(parts: Sequence[Part], what: str) -> dict[str, Any]:
    """Every command (``what="commands"``), event or menu of ``parts``, in the order
    described."""
    found: dict[str, Any] = {}
    for part in parts:
        for name, shape in getattr(part, what).items():
            found.setdefault(name, shape)
    return found


#: why a game ended before its rules' end (``game_ended``'s ``reason``)
ENDED_EARLY = one_of(
    "resigned",
    "abandoned",
    description="the game ended early: one seat left after resignations, or abandoned",
)
#: one open decision, as ``awaiting`` lists it in every ruleset (its details besides)
DECISION = record(
    {
        "id": about(STR, "send it as the move's decision to answer this one"),
        "seat": SEAT,
        "kind": about(STR, "what kind of decision, e.g. place_tile"),
        "decision": about(STR, "the kind again, as earlier releases named it"),
        "commands": array(STR, "the command types that answer it"),
    },
    "An open decision, with the ruleset's details (the tile to place, the ships offered,"
    " how many cards to discard...).",
    more=True,
)
#: the parts of a view every ruleset shows
VIEW_COMMON: dict[str, JSON | Optional] = {
    "ruleset": STR,
    "options": mapping(ANY, "the game's options, normalised"),
    "seats": INT,
    "awaiting": array(DECISION, "the open decisions, in the order they opened"),
    "over": BOOL,
    "winners": array(SEAT),
}
