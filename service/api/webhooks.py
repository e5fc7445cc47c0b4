"""``/v1/webhooks``: an API key's endpoints (create, list, read, delete) and the
deliveries made to each. No delivery logic: parse, authorise, call a use case."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import examples as ex
from service.api import schemas as s
from service.api.apidoc import errors
from service.api.auth import API_KEY_ONLY, caller, require_api_key
from service.api.runtime import runtime
from service.app.errors import Forbidden
from service.store.keys import ApiKey

blp = Blueprint(
    "webhooks",
    __name__,
    url_prefix="/v1/webhooks",
    description="Webhooks: endpoints an API key registers for chosen event types, and the"
    " signed deliveries made to them.",
)
_WEBHOOK = [
    {
        "in": "path",
        "name": "webhook_id",
        "description": "The endpoint's id (a UUID), from `POST /v1/webhooks`.",
        "example": ex.WEBHOOK_ID,
    }
]
_NO_STORE = {"Cache-Control": "no-store"}
_FORBIDDEN = (
    "`forbidden`: a seat token alone (webhooks belong to API keys).",
    "forbidden_listing",
)
_UNKNOWN = (
    "`unknown_webhook`: no endpoint with this id among the API key's own.",
    "unknown_webhook",
)
_PAGE_HEADERS = {
    "Cache-Control": {"description": "Always `no-store`.", "schema": {"type": "string"}},
    "Link": {
        "description": "The next page, while there is one:"
        ' `</v1/webhooks/{id}/deliveries?limit=2&cursor=...>; rel="next"`',
        "schema": {"type": "string"},
    },
}


def api_key() -> ApiKey:
    """The calling API key; a seat token alone is refused (403), nothing at all 401."""
    found = caller()
    if found.api_key is None and found.seat_token is not None:
        raise Forbidden("webhooks belong to API keys; a seat token reads only its game")
    return require_api_key()


@blp.route("")
class Webhooks(MethodView):
    @blp.doc(operationId="listWebhooks", tags=["webhooks"], security=API_KEY_ONLY)
    @blp.response(
        200,
        s.WebhookListSchema,
        examples={"one": {"summary": "One endpoint", "value": ex.WEBHOOK_LIST}},
    )
    @errors(blp, {403: _FORBIDDEN})
    def get(self):
        """List your webhook endpoints

        **Who:** an API key; it sees its own endpoints only. Their secrets are not shown
        (only `POST` shows one, once).

        **Errors:** 401 without a valid API key; 403 `forbidden` for a seat token alone.
        """
        return runtime().webhooks.list(api_key().id).body, 200, _NO_STORE

    @blp.doc(operationId="createWebhook", tags=["webhooks"], security=API_KEY_ONLY)
    @blp.arguments(s.CreateWebhookSchema, examples=ex.CREATE_WEBHOOK_REQUESTS)
    @blp.response(
        201,
        s.CreatedWebhookSchema,
        description="The endpoint, with its signing secret (shown only this once).",
        examples={"created": {"summary": "Endings and turns", "value": ex.CREATED_WEBHOOK}},
    )
    @errors(
        blp,
        {
            403: _FORBIDDEN,
            409: (
                "`too_many_webhooks`: the API key has 20 endpoints already.",
                "too_many_webhooks",
            ),
            422: (
                "`validation_error`: a URL that is not https:// (nor http:// to a loopback"
                " address, where allowed), has credentials or a fragment, or names an"
                " address that is not a public internet one (private, link-local, this"
                " machine's); no event type, or one that is not a lower-case name.",
                "webhook_url",
            ),
        },
    )
    def post(self, body: dict[str, Any]):
        """Register a webhook endpoint

        **Who:** an API key. From now on, every event of one of **this key's games**
        whose type is in `event_types` is POSTed to `url` (no past events), and every
        delivery is listed under `GET /v1/webhooks/{webhook_id}/deliveries`.

        `event_types` names any event type the rulesets log (`game_ended`,
        `seat_timed_out`, `tile_placed`, `dice_rolled`...; each ruleset's docs list
        them) or `turn_started`, a notice the service derives for each seat that starts
        to be awaited (its turn begins, or it must answer outside its turn; the notice
        lists its decisions). An event is sent as a spectator sees it (hidden parts
        redacted, `redacted: true`).

        **Deliveries.** `POST <url>` with a JSON body `{id, type, game_id, ruleset, seq,
        seat, occurred_at, data, redacted, webhook_id}` and the headers
        `Tilegames-Event-Id` (= `id`, the same on every retry: deduplicate on it),
        `Tilegames-Event-Type`, `Tilegames-Delivery-Id`, `Tilegames-Delivery-Attempt`,
        `Tilegames-Timestamp` (Unix seconds) and `Tilegames-Signature:
        v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`. Answer with any 2xx;
        anything else (or no answer within the timeout, 10 s by default) is retried
        with exponential backoff (5 s, 10 s, 20 s... capped at an hour; 15 attempts by
        default), then marked `failed`. Delivery is **at least once** and not in order:
        order by `seq`, deduplicate by `id`. docs/webhooks.md shows a receiver.

        The answer carries `secret` (`whsec_...`), **shown only this once**.

        **Errors:** 401 without a valid API key; 403 `forbidden` for a seat token alone;
        409 `too_many_webhooks`; 422 `validation_error` naming the field.
        """
        key = api_key()
        outcome = runtime().webhooks.create(
            key.id, body["url"], body["event_types"], body["description"]
        )
        headers = {**_NO_STORE, "Location": f"/v1/webhooks/{outcome.body['id']}"}
        return outcome.body, outcome.status, headers


@blp.route("/<webhook_id>", parameters=_WEBHOOK)
class Webhook(MethodView):
    @blp.doc(operationId="getWebhook", tags=["webhooks"], security=API_KEY_ONLY)
    @blp.response(200, s.WebhookSchema, examples={"one": {"summary": "", "value": ex.WEBHOOK}})
    @errors(blp, {403: _FORBIDDEN, 404: _UNKNOWN})
    def get(self, webhook_id: str):
        """Read one webhook endpoint

        **Who:** the API key that registered it; another key gets 404.

        **Errors:** 401 without a valid API key; 403 `forbidden` for a seat token alone;
        404 `unknown_webhook`.
        """
        return runtime().webhooks.get(api_key().id, webhook_id).body, 200, _NO_STORE

    @blp.doc(operationId="deleteWebhook", tags=["webhooks"], security=API_KEY_ONLY)
    @blp.response(204, description="Deleted: nothing more is sent to it.")
    @errors(blp, {403: _FORBIDDEN, 404: _UNKNOWN})
    def delete(self, webhook_id: str):
        """Delete a webhook endpoint

        **Who:** the API key that registered it; another key gets 404. Its deliveries
        go with it, pending ones unsent.

        **Errors:** 401 without a valid API key; 403 `forbidden` for a seat token alone;
        404 `unknown_webhook`.
        """
        runtime().webhooks.delete(api_key().id, webhook_id)
        return "", 204


@blp.route("/<webhook_id>/deliveries", parameters=_WEBHOOK)
class Deliveries(MethodView):
    @blp.doc(operationId="listWebhookDeliveries", tags=["webhooks"], security=API_KEY_ONLY)
    @blp.arguments(s.DeliveriesQuerySchema, location="query")
    @blp.response(
        200,
        s.DeliveryPageSchema,
        headers=_PAGE_HEADERS,
        examples={
            "page": {
                "summary": "?limit=2: a delivery, and a failed one waiting for its retry",
                "value": ex.DELIVERY_PAGE,
            }
        },
    )
    @errors(
        blp,
        {
            400: (
                "`invalid_cursor`: a cursor this service did not give out; `bad_request`.",
                "invalid_cursor",
            ),
            403: _FORBIDDEN,
            404: _UNKNOWN,
            422: ("`validation_error`: `status` or `limit` out of range.", "validation_error"),
        },
    )
    def get(self, query: dict[str, Any], webhook_id: str):
        """List an endpoint's deliveries

        **Who:** the API key that registered the endpoint; another key gets 404.

        Newest first, at most `limit` (default 20, max 100), filtered by `status`
        (`pending`, `delivered`, `failed`) if given. Each: the `event_id` it carries,
        `type`, `game_id`, `seq`, `seat` (for `turn_started`), `status`, `attempts`,
        `next_attempt_at` (while pending), `last_status` and `last_error` (the last
        attempt's HTTP status and what went wrong), `delivered_at`, `created_at`. While
        more remain, `next_cursor` is set and `Link: <...>; rel="next"` gives the next
        page (same filter and limit).

        **Errors:** 401 without a valid API key; 403 `forbidden` for a seat token alone;
        404 `unknown_webhook`; 400 `invalid_cursor`; 422 `validation_error`.
        """
        key = api_key()
        outcome = runtime().webhooks.deliveries(
            key.id, webhook_id, query.get("status"), query.get("cursor"), query["limit"]
        )
        headers = dict(_NO_STORE)
        if outcome.body["next_cursor"] is not None:
            args = {**query, "cursor": outcome.body["next_cursor"]}
            headers["Link"] = (
                f'</v1/webhooks/{webhook_id}/deliveries?{urlencode(args)}>; rel="next"'
            )
        return outcome.body, outcome.status, headers
