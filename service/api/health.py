"""Probes and metrics: ``/healthz`` (process up), ``/readyz`` (database reachable and
migrated), ``/metrics`` (Prometheus text)."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import schemas as s
from service.api.observability import metrics_response
from service.api.runtime import runtime
from service.store import DatabaseUnavailable

blp = Blueprint(
    "health",
    __name__,
    description="Probes and metrics for operators: no credentials, no rate limit.",
)


@blp.route("/healthz")
class Health(MethodView):
    @blp.doc(operationId="getLiveness", tags=["health"], security=[])
    @blp.response(200, s.HealthSchema, example={"status": "ok"})
    def get(self):
        """Liveness probe

        The process answers; does not touch the database. No credentials, not rate
        limited.
        """
        return {"status": "ok"}


@blp.route("/readyz")
class Ready(MethodView):
    @blp.doc(operationId="getReadiness", tags=["health"], security=[])
    @blp.response(200, s.HealthSchema, example={"status": "ready", "checks": {"database": "ok"}})
    @blp.alt_response(
        503,
        schema=s.HealthSchema,
        description="Not ready: the database did not answer.",
        example={
            "status": "unavailable",
            "checks": {"database": "couldn't get a connection after 2.00 sec"},
        },
    )
    def get(self):
        """Readiness probe

        Ready when the database answers within 2 s; 503 with the reason otherwise (take
        the instance out of rotation). No credentials, not rate limited.
        """
        try:
            runtime().db.ping(timeout=2.0)
        except DatabaseUnavailable as exc:
            return {"status": "unavailable", "checks": {"database": str(exc)[:200]}}, 503
        return {"status": "ready", "checks": {"database": "ok"}}


@blp.route("/metrics")
class Metrics(MethodView):
    @blp.doc(
        operationId="getMetrics",
        tags=["health"],
        security=[],
        responses={
            "200": {
                "description": "Prometheus metrics",
                "content": {"text/plain": {"schema": {"type": "string"}}},
            }
        },
    )
    def get(self):
        """Prometheus metrics

        Prometheus text format: request counts (by method, endpoint and status),
        latencies (by method and endpoint), and commands by outcome (accepted, replayed,
        or the error code). No credentials.
        """
        return metrics_response()
