"""``/v1/rulesets`` (the catalogue) and ``/v1/validate`` (stateless record check)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import examples as ex
from service.api import schemas as s
from service.api.apidoc import errors
from service.api.auth import API_KEY_ONLY, require_api_key
from service.api.runtime import runtime
from service.app.validate import ExportedEnd, validate_record

blp = Blueprint(
    "meta",
    __name__,
    url_prefix="/v1",
    description="What can be played (rulesets), and stateless validation of records played"
    " elsewhere.",
)


@blp.route("/rulesets")
class Rulesets(MethodView):
    @blp.doc(operationId="listRulesets", tags=["rulesets"], security=[])
    @blp.response(
        200,
        s.RulesetListSchema,
        examples={
            "carcassonne": {
                "summary": "One ruleset, shortened (some options, expansions and rules left out)",
                "value": ex.RULESETS,
            }
        },
    )
    @errors(
        blp,
        {
            400: "Bad request (`bad_request`).",
            429: "Too many requests (`rate_limited`); see `Retry-After`.",
        },
        common=False,
    )
    def get(self):
        """List the rulesets

        **Who:** anyone; no credentials.

        Every ruleset this service offers (`carcassonne`, `carcassonne-south-seas`,
        `catan`), by `name`, with its seat range, its bots, and a machine-readable
        `description`:
        `options` (each with `type`, `default`, `enum` or `items`, and a plain-words
        `description`), `expansions` (Carcassonne: name, title, tile count, figures,
        summary), `commands` (the shape of each command a seat may send) and `seats`.
        Use it to build a game-creation form and to know what `POST /v1/games` accepts.
        Besides these options, every ruleset takes `clock`, a time control that is the
        service's own (docs/matches.md).
        """
        rt = runtime()
        items = []
        for name in rt.ruleset_names:
            ruleset = rt.rulesets(name)
            assert ruleset is not None
            items.append(
                {
                    "name": ruleset.name,
                    "title": ruleset.title,
                    "min_seats": ruleset.min_seats,
                    "max_seats": ruleset.max_seats,
                    "bots": list(ruleset.bots),
                    "description": ruleset.describe(),
                }
            )
        return {"rulesets": items}


@blp.route("/validate")
class Validate(MethodView):
    @blp.doc(operationId="validateRecord", tags=["validation"], security=API_KEY_ONLY)
    @blp.arguments(s.ValidateRequestSchema, examples=ex.VALIDATE_REQUESTS)
    @blp.response(
        200,
        s.ValidateResultSchema,
        description="The replay's outcome: `valid: true` with the final state, or"
        " `valid: false` with the first bad step.",
        examples={
            "valid": {
                "summary": "Six legal steps (the stack is shortened here)",
                "value": ex.VALIDATE_OK,
            },
            "illegal_step": {
                "summary": "Step 2 is not what the rules await",
                "value": ex.VALIDATE_ILLEGAL,
            },
        },
    )
    @errors(
        blp,
        {
            422: (
                "`validation_error`: an unknown ruleset or option, a seat count the ruleset"
                " does not take, a malformed record, a `seed` that is not hex or not the"
                " preimage of `seed_sha256`, an unknown record format, or internal"
                " randomness without a seed.",
                "validation_error",
            )
        },
    )
    def post(self, body: dict[str, Any]):
        """Validate a record played elsewhere

        **Who:** any API key. Stateless: nothing is stored.

        In: `ruleset`, `options`, the number of `seats`, and a `record` of
        `{seat, command}` steps in play order (at most 10,000). The service sets the
        game up and applies the steps one by one with the same rules as live games.
        Out: `valid`, `steps` applied, `version` (the events the record produced),
        `finished`, `result`, `awaiting`, and the final `state` (spectator view). A step
        the rules refuse stops the replay: `valid: false` and `error` gives its index
        (`step`, from 0), the ruleset's `code`, `message` and `rule`; the other fields
        describe the state before that step. A refused step is an answer (200), not an
        HTTP error.

        Random outcomes must be in the record: with `options.randomness: "external"`
        draws are steps (Carcassonne: `{"type": "draw_tile", "tile": "BA/RCr"}`; South
        Seas also `reveal_ship`) checked against what is still possible; or give the
        revealed `seed` (hex, from the summary of an ended game) of a game played with
        internal randomness, and leave the draws out as the live game did.

        **Exported games.** The document `GET /v1/games/{game_id}/export` gives is taken
        as it is: `format` and `format_version` are checked, `seed_sha256` must be the
        hash of `seed`, a step's `decision` names the decision it answers (as a move's
        does), and `players` is informational. With `game_id` the replay's events are
        hash-chained as the game's were (each hash covers the game's id), and the answer's
        `head_hash` is the head they reach; `matches_export` says whether the replay ends
        at the document's `version` and `head_hash`. That shows the document agrees with
        itself, not that it is the game: anyone who edits the record can put the new
        head in it. `head_signed: true` shows that: the document's `head_signature` is
        this service's signature (HEAD_SIGNING_KEY) of the head the replay reaches, so
        this service wrote that very game. Elsewhere, compare `head_hash` with the
        game's own (its summary, or `verify`).

        **Errors:** 401 without a valid API key; 422 `validation_error` (see below).
        """
        require_api_key()
        outcome = validate_record(
            runtime().rulesets,
            body["ruleset"],
            body["options"],
            body["seats"],
            body["record"],
            body.get("seed"),
            body.get("seed_sha256"),
            ExportedEnd(
                body.get("game_id"),
                body.get("version"),
                body.get("head_hash"),
                body.get("head_signature"),
            ),
            runtime().games.store.signer,
        )
        return outcome.body
