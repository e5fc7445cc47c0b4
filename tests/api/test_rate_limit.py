from __future__ import annotations

from service.api import create_app
from service.config import Settings
from tests.api.test_errors import assert_problem


def test_requests_over_the_per_key_limit_get_429_problem(database_url, api_key):
    app = create_app(Settings(database_url=database_url, rate_limit="3 per minute"))
    client = app.test_client()
    for _ in range(3):
        assert client.get("/v1/rulesets", headers={"X-API-Key": api_key}).status_code == 200
    body = assert_problem(
        client.get("/v1/rulesets", headers={"X-API-Key": api_key}), 429, "rate_limited"
    )
    assert "limit" in body["detail"]
    # Limits are per credential: another caller is not affected; probes are exempt.
    assert client.get("/v1/rulesets").status_code == 200
    assert client.get("/healthz").status_code == 200
    app.extensions["tilegames"].db.close()
