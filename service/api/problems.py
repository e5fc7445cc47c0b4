"""Every error as ``application/problem+json`` (RFC 9457) with a stable ``code``.

Application errors, flask-smorest/webargs validation errors, werkzeug HTTP errors
(404, 405, 413, 415...), rate limiting, database outages and unexpected exceptions all
pass through here, so clients only ever parse one error shape.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from flask import Flask, Response, json, request
from werkzeug.exceptions import HTTPException
from werkzeug.exceptions import NotFound as NotFoundError

from service.api.observability import current_request_id
from service.app.errors import AppError, ValidationFailed
from service.store import DatabaseUnavailable

log = logging.getLogger(__name__)
PROBLEM_TYPE = "urn:tilegames:problem:"

_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    412: "precondition_failed",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "validation_error",
    428: "precondition_required",
    429: "rate_limited",
    500: "internal_error",
    503: "service_unavailable",
}


def problem(
    status: int,
    code: str,
    detail: str,
    title: str | None = None,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> Response:
    body: dict[str, Any] = {
        "type": PROBLEM_TYPE + code,
        "title": title or HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "code": code,
        "instance": request.path,
    }
    request_id = current_request_id()
    if request_id:
        body["request_id"] = request_id
    body.update({k: v for k, v in extra.items() if v is not None})
    response = Response(json.dumps(body), status=status, mimetype="application/problem+json")
    response.headers["Cache-Control"] = "no-store"
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _flatten(messages: Any, prefix: str = "") -> list[dict[str, str]]:
    """webargs' nested ``{"json": {"seats": {"0": {"bot": [...]}}}}`` -> named fields."""
    if isinstance(messages, dict):
        out = []
        for key, value in messages.items():
            out += _flatten(value, f"{prefix}.{key}" if prefix else str(key))
        return out
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        return [{"field": prefix or "body", "message": " ".join(messages)}]
    return [{"field": prefix or "body", "message": str(messages)}]


def _validation_fields(exc: HTTPException) -> list[dict[str, str]]:
    messages = (getattr(exc, "data", None) or {}).get("messages", {})
    errors = []
    for location, fields in messages.items():
        for item in _flatten(fields):
            # Name the field as the client wrote it; headers and query say where.
            if location not in ("json", "body"):
                item["field"] = f"{location}.{item['field']}"
            errors.append(item)
    return errors


def handle_http_exception(exc: HTTPException) -> Response:
    status = exc.code or 500
    code = _CODES.get(status, "error")
    headers = {}
    valid_methods = getattr(exc, "valid_methods", None)
    if status == 405 and valid_methods:
        headers["Allow"] = ", ".join(valid_methods)
    if status in (400, 422) and getattr(exc, "data", None):
        errors = _validation_fields(exc)
        if errors:
            detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors)
            # one title for a code, whichever layer found the fault
            title = ValidationFailed.title if code == ValidationFailed.code else None
            return problem(status, code, detail, title, errors=errors)
    if status == 429:
        headers["Retry-After"] = "60"
        return problem(429, code, f"rate limit exceeded ({exc.description})", headers=headers)
    if isinstance(exc, NotFoundError):  # werkzeug's words speak of a browser's typed URL
        detail = f"no route {request.path}: the API reference at /docs lists every path"
        return problem(status, code, detail, headers=headers)
    return problem(status, code, exc.description or HTTPStatus(status).phrase, headers=headers)


def handle_app_error(exc: AppError) -> Response:
    headers = {} if exc.retry_after is None else {"Retry-After": str(exc.retry_after)}
    return problem(exc.status, exc.code, exc.detail, exc.title, headers=headers, **exc.extra)


def handle_database_unavailable(exc: DatabaseUnavailable) -> Response:
    log.warning("database unavailable", extra={"error": str(exc)})
    return problem(
        503,
        "database_unavailable",
        "the database is unavailable; retry shortly",
        headers={"Retry-After": "1"},
    )


def handle_unexpected(exc: Exception) -> Response:
    if isinstance(exc, HTTPException):
        return handle_http_exception(exc)
    log.exception("unhandled error")
    return problem(500, "internal_error", "an unexpected error occurred; it has been logged")


def register(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(AppError, handle_app_error)
    app.register_error_handler(DatabaseUnavailable, handle_database_unavailable)
    app.register_error_handler(Exception, handle_unexpected)
