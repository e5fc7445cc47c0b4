"""``/v1/rulesets`` (the catalogue) and ``/v1/validate`` (stateless record check)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import schemas as s
from service.api.auth import API_KEY_ONLY, require_api_key
from service.api.runtime import runtime
from service.app.validate import validate_record

blp = Blueprint("meta", __name__, url_prefix="/v1", description="Rulesets and record validation.")


@blp.route("/rulesets")
class Rulesets(MethodView):
    @blp.doc(security=[])
    @blp.response(200, s.RulesetListSchema)
    @blp.alt_response(429, response="TOO_MANY_REQUESTS")
    @blp.alt_response(400, response="BAD_REQUEST")
    def get(self):
        """Every ruleset offered: options with defaults and meaning, seat counts, bots and
        command shapes. Public."""
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
    @blp.doc(security=API_KEY_ONLY)
    @blp.arguments(s.ValidateRequestSchema)
    @blp.response(200, s.ValidateResultSchema)
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    @blp.alt_response(429, response="TOO_MANY_REQUESTS")
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE")
    def post(self, body: dict[str, Any]):
        """Replay a game played elsewhere, statelessly: ruleset, options, seat count and a
        record of `{seat, command}` steps in; the final state (spectator view) and result
        out, or `valid: false` with the first illegal step, its code and rule.

        Random outcomes must be in the record: use `options.randomness: "external"`, where
        draws are commands (Carcassonne: `{"type": "draw_tile", "tile": "BA/RCr"}`) checked
        against what is still possible; or give the revealed `seed` of a game played with
        internal randomness.
        """
        require_api_key()
        outcome = validate_record(
            runtime().rulesets,
            body["ruleset"],
            body["options"],
            body["seats"],
            body["record"],
            body.get("seed"),
        )
        return outcome.body
