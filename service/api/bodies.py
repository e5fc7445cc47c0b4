"""A request body is checked before any parser reads it, so that no body can reach the
JSON decoder's recursion limit, PostgreSQL's ``jsonb`` or the hash chain in a shape they
cannot take. Each refusal is a problem with its own code:

- ``payload_too_large`` (413): over ``MAX_BODY_BYTES`` (Flask's ``MAX_CONTENT_LENGTH``);
- ``unsupported_media_type`` (415): a body not sent as ``application/json``;
- ``bad_request`` (400): not JSON at all, the decoder's words saying where;
- ``validation_error`` (422): JSON that is not an object (every body is one);
- ``invalid_text`` (400): bytes that are not UTF-8, or a ``\\uXXXX`` escape that leaves
  half of a UTF-16 surrogate pair alone (no text can hold it);
- ``json_too_deep`` (400): arrays and objects nested more than :data:`MAX_DEPTH` deep;
- ``number_out_of_range`` (400): an integer of more than :data:`MAX_INTEGER_DIGITS`
  digits (Python's ``int`` refuses past 4,300 digits, and no field takes one that long),
  a number no double holds (``1e999``), or ``NaN``/``Infinity`` (not JSON at all);
- ``duplicate_key`` (400): an object naming one key twice, which parsers read
  differently (the last wins here, the first elsewhere), so no two readers of a record
  could disagree about what it said.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from flask import Flask, Response, request
from gunicorn.http.errors import NoMoreData, ParseException
from werkzeug.exceptions import ClientDisconnected

from service.api.problems import problem
from service.app.errors import ValidationFailed

#: the deepest nesting of arrays and objects a body may have (a move is about 4 deep)
MAX_DEPTH = 32
#: the most digits an integer in a body may have (versions and seqs stay below 2**62)
MAX_INTEGER_DIGITS = 30


class Refused(Exception):
    """A body the decoder found no endpoint may read: its problem's code and detail."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code, self.detail = code, detail


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise Refused(
            "number_out_of_range", f"integers may have at most {MAX_INTEGER_DIGITS} digits"
        )
    return int(digits)


def _finite(literal: str) -> float:
    number = float(literal)
    if math.isinf(number):
        raise Refused("number_out_of_range", f"{literal[:40]} is beyond a double's range")
    return number


def _no_constant(name: str) -> None:
    raise Refused("number_out_of_range", f"{name} is not a JSON number")


def _added(seen: set[str], key: str) -> bool:
    """Put ``key`` in ``seen``; false, so that a search goes on."""
    seen.add(key)
    return False


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) < len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or _added(seen, key))
        raise Refused("duplicate_key", f"the key {twice[:40]!r} appears twice in one object")
    return found


# Made once: json.loads with hooks builds a new decoder for every call.
_STRICT = json.JSONDecoder(
    object_pairs_hook=_unique_keys,
    parse_int=_integer,
    parse_float=_finite,
    parse_constant=_no_constant,
)


def strict_json(text: str) -> Any:
    """``text`` decoded, or :class:`Refused` for what no endpoint may read (numbers out
    of range, duplicate keys); malformed JSON raises ``ValueError`` as ``json`` does."""
    if text.startswith("\ufeff"):  # as json.loads refuses it
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    return _STRICT.decode(text)


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def nesting_exceeds(text: str, limit: int) -> bool:
    """Whether the JSON ``text`` nests arrays and objects more than ``limit`` deep,
    found without decoding it (strings, which may hold brackets, are skipped)."""
    if text.count("[") + text.count("{") <= limit:  # the usual body: no need to look
        return False
    depth = 0
    for bracket in _BRACKET.finditer(_STRING.sub('""', text)):
        if bracket.group() in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


#: how a lone surrogate gets into decoded text: a ``\u`` escape of one (UTF-8 text
#: cannot hold one itself)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _has_lone_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return any("\ud800" <= ch <= "\udfff" for ch in value)
    if isinstance(value, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_lone_surrogate(v) for v in value)
    return False


def _body() -> bytes | None:
    """The body, or ``None`` if it is over the limit. A chunked body (no length) is read
    up to one byte past the limit, so it is refused as too large (413), never cut short;
    werkzeug itself reads no chunked body unless the server marks the input terminated."""
    limit = request.max_content_length
    chunked = "chunked" in request.headers.get("Transfer-Encoding", "").lower()
    if request.content_length is not None or limit is None or not chunked:
        return request.get_data(cache=True)  # over MAX_CONTENT_LENGTH: werkzeug's 413
    data = request.environ["wsgi.input"].read(limit + 1)
    if len(data) > limit:
        return None
    request._cached_data = data  # what get_data(cache=True) returns from now on
    return data


def decode(data: bytes) -> Any:
    """The body ``data`` decoded; :class:`Refused` for a body no endpoint may read,
    ``ValueError`` for malformed JSON (saying where)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise Refused("invalid_text", f"the body is not UTF-8 (byte {error.start})") from None
    if nesting_exceeds(text, MAX_DEPTH):
        raise Refused(
            "json_too_deep", f"arrays and objects may nest at most {MAX_DEPTH} levels deep"
        )
    decoded = strict_json(text)
    if _SURROGATE_ESCAPE.search(text) and _has_lone_surrogate(decoded):
        raise Refused("invalid_text", "a \\u escape leaves half of a UTF-16 surrogate pair alone")
    return decoded


def check_body() -> Response | None:
    """``before_request``: a problem for a body no endpoint may read, else ``None``."""
    if request.method not in ("POST", "PUT", "PATCH"):
        return None
    try:
        data = _body()
    except (TimeoutError, ClientDisconnected):
        # fewer bytes than Content-Length announced, within the server's read timeout
        return problem(408, "body_timeout", "the body did not arrive in time, or in full")
    except NoMoreData:
        return problem(400, "bad_request_framing", "the chunked body ended before its last chunk")
    except ParseException as error:  # a chunk's size, extension or terminator
        return problem(400, "bad_request_framing", f"the chunked body is malformed: {error}")
    announced = request.content_length
    if data is not None and announced is not None and len(data) < announced:
        # the client closed its side early: a server that marks its input terminated
        # (gunicorn) lets the reader see the end rather than a disconnection
        return problem(
            408,
            "body_timeout",
            f"the body ended after {len(data)} of the {announced} bytes its Content-Length"
            " announced",
        )
    if data is None:
        limit = request.max_content_length
        return problem(413, "payload_too_large", f"a body may hold at most {limit} bytes")
    if not data:
        return None
    if not request.is_json:
        return problem(
            415,
            "unsupported_media_type",
            f"a body must be JSON sent as Content-Type: application/json, not {request.mimetype!r}",
        )
    try:
        body = decode(data)
    except Refused as refused:
        return problem(400, refused.code, refused.detail)
    except ValueError as error:  # the decoder says where: "Expecting ',' delimiter: line 1..."
        return problem(400, "bad_request", f"the body is not JSON: {error}")
    if not isinstance(body, dict):  # every operation's body is an object
        raise ValidationFailed("body", f"must be a JSON object, not {_JSON_KINDS[type(body)]}")
    return None


#: what a decoded JSON value is, in JSON's words
_JSON_KINDS = {list: "an array", str: "a string", int: "a number", float: "a number",
               bool: "true or false", type(None): "null"}  # fmt: skip


def register(app: Flask) -> None:
    app.before_request(check_body)
