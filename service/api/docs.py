"""``/docs``: Swagger UI for the service's own OpenAPI document, served by the service
itself so the page works with no internet and under a strict Content-Security-Policy.

The Swagger UI files are the ``swagger-ui-dist`` build that the ``flask-swagger-ui``
package ships (only its files are used, not its blueprint). They are served under a URL
holding their version, ``/docs/assets/<version>/<file>``, so browsers may keep them for
a year: another version is another URL. The page has no inline script or style: it loads
the bundle and ``/docs/docs.js`` (which starts Swagger UI) from this origin, which is all
its policy (``DOCS_POLICY``) allows, besides fetching ``/openapi.json``.
"""

from __future__ import annotations

import hashlib
from functools import cache
from html import escape
from importlib import resources

import werkzeug
from flask import Blueprint, Response, abort, request, url_for

from service.api.headers import DOCS_POLICY

_DIST = resources.files("flask_swagger_ui") / "dist"
#: the Swagger UI version, as in the package's dist/VERSION ("v5.34.0" -> "5.34.0")
SWAGGER_UI_VERSION = (_DIST / "VERSION").read_text().strip().removeprefix("v")

#: the files the page uses, with their content types; no other file is served
ASSETS = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
    "favicon-32x32.png": "image/png",
    "favicon-16x16.png": "image/png",
}
#: versioned assets never change under their URL
IMMUTABLE = "public, max-age=31536000, immutable"
#: the page and its start script change with the service: revalidate (ETag) every time
REVALIDATE = "no-cache"

#: starts Swagger UI on the page's #swagger-ui element (a file, not an inline script,
#: so that the page's policy needs no 'unsafe-inline')
START_SCRIPT = """\
// Starts Swagger UI for this service's OpenAPI document (served with /docs).
window.addEventListener("load", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-spec-url"),
    domNode: root,
    deepLinking: true,
    displayOperationId: true,
    displayRequestDuration: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    validatorUrl: null
  });
});
"""

PAGE = """\
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" type="image/png" sizes="32x32" href="{favicon32}">
<link rel="icon" type="image/png" sizes="16x16" href="{favicon16}">
<link rel="stylesheet" href="{css}">
</head>
<body>
<noscript>This page needs JavaScript. The OpenAPI document itself:
<a href="{spec}">{spec}</a></noscript>
<div id="swagger-ui" data-spec-url="{spec}"></div>
<script src="{bundle}"></script>
<script src="{start}"></script>
</body>
</html>
"""

blp = Blueprint("docs", __name__)


def _asset_url(name: str) -> str:
    return url_for("docs.asset", version=SWAGGER_UI_VERSION, name=name)


@cache
def _asset(name: str) -> tuple[bytes, str]:
    data = (_DIST / name).read_bytes()
    return data, hashlib.sha256(data).hexdigest()[:32]


def _send(data: bytes, mimetype: str, cache_control: str, etag: str) -> werkzeug.Response:
    response = Response(data, content_type=mimetype)
    response.headers["Cache-Control"] = cache_control
    response.set_etag(etag)
    return response.make_conditional(request)


@blp.get("/docs")
def page() -> werkzeug.Response:
    html = PAGE.format(
        title=escape("Tilegames rules service: API docs"),
        favicon32=escape(_asset_url("favicon-32x32.png")),
        favicon16=escape(_asset_url("favicon-16x16.png")),
        css=escape(_asset_url("swagger-ui.css")),
        bundle=escape(_asset_url("swagger-ui-bundle.js")),
        start=escape(url_for("docs.start_script")),
        spec=escape(url_for("api-docs.openapi_json")),
    )
    data = html.encode()
    response = _send(
        data, "text/html; charset=utf-8", REVALIDATE, hashlib.sha256(data).hexdigest()[:32]
    )
    response.headers["Content-Security-Policy"] = DOCS_POLICY
    return response


@blp.get("/docs/docs.js")
def start_script() -> werkzeug.Response:
    data = START_SCRIPT.encode()
    return _send(
        data, ASSETS["swagger-ui-bundle.js"], REVALIDATE, hashlib.sha256(data).hexdigest()[:32]
    )


@blp.get("/docs/assets/<version>/<name>")
def asset(version: str, name: str) -> werkzeug.Response:
    if version != SWAGGER_UI_VERSION or name not in ASSETS:
        abort(404)
    data, etag = _asset(name)
    return _send(data, ASSETS[name], IMMUTABLE, etag)
