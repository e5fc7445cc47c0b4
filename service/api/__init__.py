"""The HTTP API: a Flask app factory with flask-smorest blueprints under ``/v1``."""

from __future__ import annotations

from collections.abc import Sequence

from flask import Flask
from flask_smorest import Api
from flask_smorest.utils import prepare_response

from service import __doc__ as _service_doc
from service.api import (
    bodies,
    contract,
    docs,
    fast,
    games,
    headers,
    health,
    meta,
    pictures,
    play,
    problems,
    query,
    ratelimit,
    table,
    webhooks,
)
from service.api.apidoc import API_DESCRIPTION, TAGS
from service.api.auth import SECURITY_SCHEMES, rate_limit_key
from service.api.observability import configure_logging, install
from service.api.ratelimit import RateLimiter, storage_uri
from service.api.runtime import Runtime
from service.api.schemas import EventEnvelopeSchema, ProblemSchema
from service.api.stream_hub import StreamHub, StreamSlots
from service.app import GameService
from service.app.delivery import DeliveryPolicy, DeliveryWorker
from service.app.sealing import SecretSeal
from service.app.webhooks import Webhooks
from service.config import Settings
from service.rules.core import Ruleset
from service.store import Database, HeadSigner
from service.store.notify import Listener


class ProblemApi(Api):
    """flask-smorest's Api, documenting every error as ``application/problem+json``."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        import http

        for status in http.HTTPStatus:
            response: dict = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, "application/problem+json")
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "Error (problem details)", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, "application/problem+json")
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)


def ruleset_lookup(extra: list[Ruleset]):
    """Every ruleset served (the registry's and ``extra``): a lookup by name, and the
    names."""
    from service.rules.registry import all_rulesets

    table = {r.name: r for r in [*all_rulesets(), *extra]}
    return table.get, sorted(table)


def secret_seal(settings: Settings) -> SecretSeal | None:
    """What seals webhook secrets at rest: None without ``WEBHOOK_SECRETS_KEY``."""
    return SecretSeal(settings.webhook_secrets_key) if settings.webhook_secrets_key else None


def delivery_policy(settings: Settings) -> DeliveryPolicy:
    return DeliveryPolicy(
        timeout=settings.webhook_timeout,
        lease=settings.webhook_lease,
        max_attempts=settings.webhook_max_attempts,
        backoff=settings.webhook_backoff,
        backoff_max=settings.webhook_backoff_max,
        batch=settings.webhook_batch,
        poll=settings.webhook_poll,
        allow_loopback=settings.webhook_allow_loopback,
    )


def create_app(
    settings: Settings | None = None, *, extra_rulesets: Sequence[Ruleset] = ()
) -> Flask:
    settings = settings or Settings()
    ratelimit_storage = storage_uri(settings.ratelimit_storage_uri)
    configure_logging(settings.log_level)
    app = Flask("tilegames")
    app.config.update(
        API_TITLE="Tilegames rules service",
        API_VERSION="1.0.0",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
        JSON_SORT_KEYS=False,
    )
    lookup, names = ruleset_lookup([*settings.load_extra_rulesets(), *extra_rulesets])
    url = settings.service_database_url()
    db = Database(
        url,
        max_size=settings.db_pool_max,
        timeout=settings.db_pool_timeout,
        statement_timeout=settings.db_statement_timeout,
    )
    game_service = GameService(
        db,
        lookup,
        cache_size=settings.state_cache_size,
        signer=HeadSigner(settings.head_signing_key) if settings.head_signing_key else None,
    )
    listener = Listener(url)
    app.extensions["tilegames"] = Runtime(
        settings=settings,
        db=db,
        games=game_service,
        listener=listener,
        rulesets=lookup,
        ruleset_names=names,
        streams=StreamHub(
            game_service, listener, settings.sse_poll_seconds, settings.sse_max_seconds
        ),
        stream_slots=StreamSlots(settings.sse_streams_per_credential),
        webhooks=Webhooks(
            db, allow_loopback_http=settings.webhook_allow_loopback, seal=secret_seal(settings)
        ),
        deliveries=DeliveryWorker(db, lookup, delivery_policy(settings), secret_seal(settings)),
    )
    install(app)
    bodies.register(app)
    query.register(app)
    headers.register(app, settings.cors_origins)
    api = ProblemApi(
        app,
        spec_kwargs={
            "info": {"description": API_DESCRIPTION},
            "servers": [{"url": "/"}],
            # replaces the blueprint-named tags flask-smorest collects (see TAGS)
            "tags": TAGS,
        },
    )
    for name, scheme in SECURITY_SCHEMES.items():
        api.spec.components.security_scheme(name, scheme)
    # the rulesets' commands, events, views and legal moves, generated from their shapes
    api.ma_plugin.converter.add_attribute_function(contract.typed_to_ref)
    api.spec.components.schema("EventEnvelope", schema=EventEnvelopeSchema)
    served = [lookup(n) for n in names]
    for name, schema in contract.components(served).items():
        api.spec.components.schema(name, component=schema)
    for blueprint in (meta.blp, games.blp, table.blp, webhooks.blp, pictures.blp, health.blp):
        api.register_blueprint(blueprint)
    # the answers that hold them, one variant per ruleset, told apart by `ruleset`
    contract.by_ruleset(api.spec.components.schemas, served)
    app.register_blueprint(docs.blp)  # Swagger UI, from the service itself
    app.register_blueprint(play.blp)  # the browser client, a client of /v1 like any other
    # one budget per caller, every route but the probes
    limiter = RateLimiter(
        settings.rate_limit, ratelimit_storage, rate_limit_key, frozenset({health.blp.name})
    )
    ratelimit.install(app, limiter, app.extensions["tilegames"].accepted_seats)
    problems.register(app)
    if settings.fast_path:
        fast.install(app, limiter)
    return app


__all__ = ["create_app", "_service_doc"]
