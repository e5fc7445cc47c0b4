"""``/docs`` needs nothing but the service: the page loads Swagger UI's files from this
origin (no CDN), each with its content type and caching headers, under a policy that
allows this origin only; JSON answers keep their strict policy."""

from __future__ import annotations

import re

from service.api.docs import SWAGGER_UI_VERSION
from service.api.headers import DOCS_POLICY, JSON_POLICY


def test_the_docs_page_loads_everything_from_this_origin(client):
    response = client.get("/docs")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    urls = re.findall(r'(?:src|href|data-spec-url)="([^"]+)"', html)
    assert urls and all(url.startswith("/") and not url.startswith("//") for url in urls), urls
    assert "http:" not in html and "https:" not in html
    assert "<script>" not in html and "style=" not in html  # nothing inline
    assert f"/docs/assets/{SWAGGER_UI_VERSION}/swagger-ui-bundle.js" in urls
    assert "/openapi.json" in urls
    for url in urls:
        assert client.get(url).status_code == 200, url


def test_the_docs_page_has_its_own_policy_and_json_keeps_the_strict_one(client):
    page = client.get("/docs")
    assert page.headers["Content-Security-Policy"] == DOCS_POLICY
    directives = dict(d.strip().split(" ", 1) for d in DOCS_POLICY.split(";"))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == "'self'"  # no 'unsafe-inline', no 'unsafe-eval'
    assert directives["connect-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    for url in ("/openapi.json", "/v1/rulesets", "/docs/assets/0.0.0/swagger-ui.css"):
        assert client.get(url).headers["Content-Security-Policy"] == JSON_POLICY, url


def test_assets_have_their_content_types_and_are_cached_by_version(client):
    base = f"/docs/assets/{SWAGGER_UI_VERSION}"
    expected = {
        "swagger-ui-bundle.js": "text/javascript",
        "swagger-ui.css": "text/css",
        "favicon-32x32.png": "image/png",
    }
    for name, mimetype in expected.items():
        response = client.get(f"{base}/{name}")
        assert response.status_code == 200, name
        assert response.mimetype == mimetype, name
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert response.headers["ETag"]
        again = client.get(f"{base}/{name}", headers={"If-None-Match": response.headers["ETag"]})
        assert again.status_code == 304 and again.data == b""
    assert b"SwaggerUIBundle" in client.get(f"{base}/swagger-ui-bundle.js").data


def test_the_page_and_its_start_script_are_revalidated(client):
    for url, mimetype in (("/docs", "text/html"), ("/docs/docs.js", "text/javascript")):
        response = client.get(url)
        assert response.mimetype == mimetype
        assert response.headers["Cache-Control"] == "no-cache"
        again = client.get(url, headers={"If-None-Match": response.headers["ETag"]})
        assert again.status_code == 304
    script = client.get("/docs/docs.js").get_data(as_text=True)
    assert "SwaggerUIBundle(" in script and "validatorUrl: null" in script


def test_only_the_pages_files_are_served(client):
    base = f"/docs/assets/{SWAGGER_UI_VERSION}"
    for url in (
        f"{base}/swagger-ui.js.map",
        f"{base}/index.html",
        f"{base}/..%2F__init__.py",
        f"{base}/%2E%2E/flask_swagger_ui.py",
        "/docs/assets/0.0.0/swagger-ui-bundle.js",
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        assert response.mimetype == "application/problem+json"
