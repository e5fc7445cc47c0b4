"""Reading credentials from a request.

- API key (a client app): ``Authorization: Bearer tgk_...`` or ``X-API-Key: tgk_...``.
- Seat token (one seat of one game): ``Authorization: Bearer tgs_...`` or
  ``X-Seat-Token: tgs_...``. Both may be sent together (key in ``X-API-Key``). One
  kind sent twice (a header and the bearer token) must be the same credential: 401
  otherwise, rather than a guess at which one the request acts as.

The prefixes tell them apart, so one ``Authorization`` header serves either.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app, g, request

from service.api.ratelimit import AcceptedSeats
from service.app.auth import authenticate_key
from service.app.errors import Unauthorized
from service.app.seats import SEAT_TOKEN_PREFIX, hash_token
from service.store.keys import API_KEY_PREFIX, ApiKey

SECURITY_SCHEMES = {
    "ApiKey": {
        "type": "apiKey",
        "in": "header",
        "name": "X-API-Key",
        "description": "A client app's key (tgk_...), from `python -m service.cli keys create`."
        " May also be sent as `Authorization: Bearer tgk_...`.",
    },
    "Bearer": {
        "type": "http",
        "scheme": "bearer",
        "description": "Either an API key (tgk_...) or a seat token (tgs_...); the prefix"
        " tells them apart.",
    },
    "SeatToken": {
        "type": "apiKey",
        "in": "header",
        "name": "X-Seat-Token",
        "description": "A seat's secret token (tgs_...), returned once when the game is created.",
    },
}
#: OpenAPI security requirements
SecurityRequirements = list[dict[str, list[str]]]
API_KEY_ONLY: SecurityRequirements = [{"ApiKey": []}, {"Bearer": []}]
ANY_CREDENTIAL: SecurityRequirements = [{"ApiKey": []}, {"Bearer": []}, {"SeatToken": []}]
SEAT_ONLY: SecurityRequirements = [{"SeatToken": []}, {"Bearer": []}]


@dataclass(frozen=True)
class Caller:
    api_key: ApiKey | None
    seat_token: str | None


def caller() -> Caller:
    """The request's credentials; 401 for a malformed, unknown or revoked one."""
    if "caller" in g:
        return g.caller
    api_key_text = request.headers.get("X-API-Key")
    seat_token = request.headers.get("X-Seat-Token")
    authorization = request.headers.get("Authorization")
    if authorization is not None:
        scheme, _, value = authorization.partition(" ")
        value = value.strip()
        if scheme.lower() != "bearer" or not value:
            raise Unauthorized("use Authorization: Bearer <tgk_ API key or tgs_ seat token>")
        if value.startswith(API_KEY_PREFIX):
            api_key_text = _one_of(api_key_text, value, "API keys", "X-API-Key")
        elif value.startswith(SEAT_TOKEN_PREFIX):
            seat_token = _one_of(seat_token, value, "seat tokens", "X-Seat-Token")
        else:
            raise Unauthorized("bearer tokens start with tgk_ (API key) or tgs_ (seat token)")
    if seat_token is not None and not seat_token.startswith(SEAT_TOKEN_PREFIX):
        raise Unauthorized("seat tokens start with tgs_")
    key = None
    if api_key_text is not None:
        key = authenticate_key(current_app.extensions["tilegames"].db, api_key_text)
    g.caller = Caller(key, seat_token)
    return g.caller


def _one_of(header: str | None, bearer: str, what: str, name: str) -> str:
    """The credential sent both in ``name`` and as the bearer token: they must agree, or
    which one the request acts as would be a guess."""
    if header and header != bearer:
        raise Unauthorized(f"{name} and Authorization name two different {what}: send one")
    return bearer


def require_api_key() -> ApiKey:
    key = caller().api_key
    if key is None:
        raise Unauthorized("this needs an API key")
    return key


def require_credential() -> Caller:
    found = caller()
    if found.api_key is None and found.seat_token is None:
        raise Unauthorized("this needs an API key or a seat token")
    return found


def rate_limit_key() -> str:
    """Who the request counts against: its verified API key, its seat token if a game
    has accepted it here before, else its client address (see ``ratelimit``)."""
    try:
        found = caller()
    except Exception:
        return f"ip:{request.remote_addr}"
    if found.api_key is not None:
        return f"key:{found.api_key.id}"
    if found.seat_token is not None:
        g.rate_limit_seat_token = found.seat_token
        accepted = current_app.extensions["tilegames"].accepted_seats
        return seat_limit_key(hash_token(found.seat_token), request.remote_addr, accepted)
    return f"ip:{request.remote_addr}"


def seat_limit_key(token_hash: str, remote_addr: str | None, accepted: AcceptedSeats) -> str:
    """Who a request carrying only a seat token (``token_hash``, its hash) counts
    against: the token, if a game has accepted it in this process before, else the
    client's address."""
    if token_hash in accepted:
        return f"seat:{token_hash[:32]}"
    return f"ip:{remote_addr}"
