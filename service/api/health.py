"""Probes and metrics: ``/healthz`` (process up), ``/readyz`` (database reachable and
migrated), ``/metrics`` (Prometheus text)."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from service.api import schemas as s
from service.api.observability import metrics_response
from service.api.runtime import runtime
from service.store import DatabaseUnavailable

blp = Blueprint("health", __name__, description="Probes and metrics.")


@blp.route("/healthz")
class Health(MethodView):
    @blp.doc(security=[])
    @blp.response(200, s.HealthSchema)
    def get(self):
        """Liveness: the process answers. Does not touch the database."""
        return {"status": "ok"}


@blp.route("/readyz")
class Ready(MethodView):
    @blp.doc(security=[])
    @blp.response(200, s.HealthSchema)
    @blp.alt_response(503, schema=s.HealthSchema, description="Not ready")
    def get(self):
        """Readiness: the database answers within 2 s."""
        try:
            runtime().db.ping(timeout=2.0)
        except DatabaseUnavailable as exc:
            return {"status": "unavailable", "checks": {"database": str(exc)[:200]}}, 503
        return {"status": "ready", "checks": {"database": "ok"}}


@blp.route("/metrics")
class Metrics(MethodView):
    @blp.doc(
        security=[],
        responses={
            "200": {
                "description": "Prometheus metrics",
                "content": {"text/plain": {"schema": {"type": "string"}}},
            }
        },
    )
    def get(self):
        """Prometheus metrics: request counts and latencies, commands by outcome."""
        return metrics_response()
