"""Protective headers on every response, and CORS only for the origins the operator
allows (none by default)."""

from __future__ import annotations

from service.api import create_app
from service.config import Settings

PORTAL = "https://portal.example"


def test_every_response_carries_protective_headers(client):
    for response in (client.get("/v1/rulesets"), client.get("/v1/nope"), client.get("/healthz")):
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["X-Frame-Options"] == "DENY"
        assert response.headers["Referrer-Policy"] == "no-referrer"
        assert (
            response.headers["Content-Security-Policy"]
            == "default-src 'none'; frame-ancestors 'none'"
        )


def test_no_origin_is_allowed_by_default(client):
    response = client.get("/v1/rulesets", headers={"Origin": PORTAL})
    assert "Access-Control-Allow-Origin" not in response.headers


def test_an_allowed_origin_may_call_the_api_and_read_its_headers(database_url, api_key):
    app = create_app(Settings(database_url=database_url, cors_origins=frozenset({PORTAL})))
    client = app.test_client()
    preflight = client.options(
        "/v1/games",
        headers={
            "Origin": PORTAL,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "X-API-Key, Content-Type",
        },
    )
    assert preflight.status_code == 204 and preflight.data == b""
    assert "Content-Type" not in preflight.headers
    assert preflight.headers["Access-Control-Allow-Origin"] == PORTAL
    methods = {m.strip() for m in preflight.headers["Access-Control-Allow-Methods"].split(",")}
    assert {"GET", "POST", "PUT", "DELETE"} <= methods  # PUT: a seat handed to a bot
    allowed = {h.strip() for h in preflight.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"X-API-Key", "Content-Type", "If-Match", "X-Seat-Token"} <= allowed
    response = client.get("/v1/rulesets", headers={"Origin": PORTAL, "X-API-Key": api_key})
    assert response.headers["Access-Control-Allow-Origin"] == PORTAL
    assert "ETag" in response.headers["Access-Control-Expose-Headers"]
    assert "Origin" in response.headers["Vary"]
    other = client.get("/v1/rulesets", headers={"Origin": "https://elsewhere.example"})
    assert "Access-Control-Allow-Origin" not in other.headers
    app.extensions["tilegames"].db.close()
