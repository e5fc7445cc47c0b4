"""Headers every response carries: protective ones, and CORS for the browser origins an
operator allows (``CORS_ORIGINS``, none by default, so that a portal's web front end on
another origin can call the API only where the operator says so)."""

from __future__ import annotations

from flask import Flask, Response, request

#: for every response: no sniffing a JSON answer into something else, no framing, no
#: referrer sent on from the docs page
PROTECTIVE = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
#: for JSON answers, which never load anything
JSON_POLICY = "default-src 'none'; frame-ancestors 'none'"
#: for the /docs page (service/api/docs.py): its scripts, styles and images from this
#: origin only (Swagger UI's stylesheet draws its icons as data: URIs), no inline script,
#: and requests to this origin only (the OpenAPI document, "Try it out")
DOCS_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
#: for the /play/ page (service/api/play.py): the same, without data: images (the
#: board pictures are inserted as SVG elements, the tile pictures loaded from here)
PLAY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
    " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
#: what a browser script may read of a response besides the simple headers
EXPOSED = (
    "ETag, Location, Link, X-Request-Id, Idempotent-Replayed, Retry-After,"
    " RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset"
)
ALLOWED_HEADERS = (
    "Authorization, Content-Type, If-Match, Idempotency-Key, X-API-Key, X-Seat-Token,"
    " Last-Event-ID, X-Request-Id"
)
PREFLIGHT_SECONDS = "600"


def register(app: Flask, cors_origins: frozenset[str]) -> None:
    @app.after_request
    def _headers(response: Response) -> Response:
        if request.method == "OPTIONS" and response.status_code == 200 and not response.data:
            # Flask's own answer (its Allow header says what the path takes): no content,
            # and said so, rather than an empty text/html page
            response.status_code = 204
            del response.headers["Content-Type"]
        for name, value in PROTECTIVE.items():
            response.headers.setdefault(name, value)
        if response.mimetype in ("application/json", "application/problem+json"):
            response.headers.setdefault("Content-Security-Policy", JSON_POLICY)
        origin = request.headers.get("Origin")
        if cors_origins:
            response.vary.add("Origin")
        if origin is not None and ("*" in cors_origins or origin in cors_origins):
            response.headers["Access-Control-Allow-Origin"] = origin
            response.headers["Access-Control-Expose-Headers"] = EXPOSED
            if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
                response.headers["Access-Control-Allow-Methods"] = "GET, POST, PUT, DELETE, OPTIONS"
                response.headers["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
                response.headers["Access-Control-Max-Age"] = PREFLIGHT_SECONDS
        return response
