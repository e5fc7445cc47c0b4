from __future__ import annotations

import json
import logging

from service.api.observability import JsonFormatter


def test_metrics_expose_request_counts_in_prometheus_format(client):
    client.get("/healthz")
    text = client.get("/metrics").get_data(as_text=True)
    assert 'tilegames_http_requests_total{endpoint="/healthz",method="GET",status="200"}' in text
    assert "tilegames_http_request_duration_seconds_bucket" in text


def test_log_lines_are_json_with_the_request_id(app):
    with app.test_request_context("/", headers={"X-Request-Id": "rid-42"}):
        app.preprocess_request()
        record = logging.LogRecord("t", logging.INFO, __file__, 1, "hello %s", ("x",), None)
        line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "hello x" and line["request_id"] == "rid-42"


def test_probes_answer(client):
    assert client.get("/healthz").get_json() == {"status": "ok"}
    assert client.get("/readyz").get_json()["status"] == "ready"


def test_made_up_methods_and_paths_add_no_metrics_series(client):
    client.open("/v1/rulesets", method="BREW")
    client.open("/v1/nope", method="BREW")
    client.get("/metrics")  # the scrape's own series exist from here on
    before = client.get("/metrics").get_data(as_text=True)
    for i in range(50):
        client.open(f"/v1/made-up-{i}", method=f"M{i}")
    after = client.get("/metrics").get_data(as_text=True)
    assert "M49" not in after and "made-up" not in after
    series = [line for line in after.splitlines() if not line.startswith("#")]
    assert len(series) == len([line for line in before.splitlines() if not line.startswith("#")])
    assert 'method="OTHER"' in after
