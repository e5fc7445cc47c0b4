"""Webhook endpoints of an API key, and the deliveries made to them.

An API key registers an endpoint (a URL and the event types it wants) and gets the
endpoint's signing secret once. From then on every append to one of the key's games
queues a delivery for each event, or notice (:mod:`service.app.turns`), of a subscribed
type, in the append's own transaction (the outbox, :mod:`service.store.webhooks`); the
workers of :mod:`service.app.delivery` send them. One key never sees another's
endpoints: an endpoint id of another key is answered as unknown.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
import secrets
import socket
import uuid
from typing import Any
from urllib.parse import urlsplit

import psycopg

from service.app.errors import AppError, InvalidCursor, ValidationFailed
from service.app.games import Outcome
from service.app.sealing import SecretSeal, is_sealed, stored_secret
from service.store import Database
from service.store import webhooks as store
from service.store.webhooks import Delivery, Endpoint

SECRET_PREFIX = "whsec_"
#: an endpoint's URL, at most
MAX_URL_LENGTH = 2048
#: endpoints one API key may have: each appended event is matched against them all
MAX_ENDPOINTS_PER_KEY = 20
#: event types one endpoint may subscribe to
MAX_EVENT_TYPES = 50
EVENT_TYPE = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


class UnknownWebhook(AppError):
    status, code, title = 404, "unknown_webhook", "No such webhook endpoint"


class TooManyWebhooks(AppError):
    status, code, title = 409, "too_many_webhooks", "This API key has all the endpoints it may"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return _unwrapped(ipaddress.ip_address(host)).is_loopback
    except ValueError:
        return False


class RefusedAddress(ValueError):
    """An endpoint whose host is, or resolves to, an address the service does not send
    to: anything but the public internet (and loopback where the operator allows it)."""


#: IPv6 networks that carry an IPv4 address in their last 32 bits: NAT64 (well-known and
#: local-use prefixes), SIIT and the deprecated IPv4-compatible addresses (but for ``::``
#: and ``::1``, which are IPv6's own)
_CARRYING_IPV4 = tuple(
    ipaddress.IPv6Network(net)
    for net in ("64:ff9b::/96", "64:ff9b:1::/48", "::ffff:0:0:0/96", "::/96")
)
_IPV6_OWN = ipaddress.IPv6Network("::/127")
#: networks Python's ``is_global`` counts as global that are not the public internet:
#: IPv6 site-local addresses, the IETF's protocol assignments
_NOT_PUBLIC = (ipaddress.IPv6Network("fec0::/10"), ipaddress.IPv4Network("192.0.0.0/24"))

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def _unwrapped(ip: IPAddress) -> IPAddress:
    """The IPv4 address an IPv6 one carries (mapped, 6to4, Teredo, NAT64, SIIT,
    IPv4-compatible), else itself: ``::ffff:10.0.0.5`` reaches 10.0.0.5."""
    if isinstance(ip, ipaddress.IPv4Address):
        return ip
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    if ip not in _IPV6_OWN and any(ip in net for net in _CARRYING_IPV4):
        return ipaddress.IPv4Address(int(ip) & 0xFFFF_FFFF)
    return ip


def check_address(ip: IPAddress, allow_loopback: bool) -> None:
    """Refuse an address a webhook must not reach: the service's own machine, its
    private networks, link-local addresses (cloud metadata), anything not global, so
    that an endpoint cannot make the service call, scan or read its neighbours."""
    inner = _unwrapped(ip)
    if allow_loopback and inner.is_loopback:
        return
    public = inner.is_global and not inner.is_multicast
    if not public or any(inner in net for net in _NOT_PUBLIC):
        raise RefusedAddress(f"{ip} is not a public internet address")


def endpoint_addresses(host: str, port: int, allow_loopback: bool) -> list[str]:
    """The addresses to connect to for ``host``, in the resolver's order: every one it
    resolves to must be allowed (:func:`check_address`), and the connection goes to
    these, so a name that resolves elsewhere a moment later (DNS rebinding) changes
    nothing."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    addresses = [ipaddress.ip_address(str(info[4][0]).partition("%")[0]) for info in found]
    for ip in addresses:
        check_address(ip, allow_loopback)
    return list(dict.fromkeys(str(ip) for ip in addresses))


def check_url(url: str, allow_loopback_http: bool) -> str:
    """The endpoint URL if the service may send to it: HTTPS, or plain HTTP to this
    machine's loopback (tests, development) where the operator allows it. No
    credentials and no fragment in it (a signature authenticates the service, not the
    URL)."""
    if len(url) > MAX_URL_LENGTH:
        raise ValidationFailed("url", f"at most {MAX_URL_LENGTH} characters")
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018 (a malformed port raises here)
    except ValueError as exc:
        raise ValidationFailed("url", f"not a URL: {exc}") from exc
    if parts.scheme not in ("https", "http") or not host:
        raise ValidationFailed("url", "must be an absolute https:// URL")
    if parts.username is not None or parts.password is not None:
        raise ValidationFailed("url", "must not carry credentials (user:password@)")
    if parts.fragment:
        raise ValidationFailed("url", "must not have a #fragment")
    if any(ch.isspace() for ch in url):
        raise ValidationFailed("url", "must not contain white space")
    if parts.scheme == "http" and not (allow_loopback_http and is_loopback(host)):
        allowed = " (or http:// to 127.0.0.1, ::1 or localhost)" if allow_loopback_http else ""
        raise ValidationFailed("url", f"must be an https:// URL{allowed}")
    if host == "localhost" and not allow_loopback_http:
        raise ValidationFailed("url", "localhost is not a public internet address")
    try:
        check_address(ipaddress.ip_address(host), allow_loopback_http)
    except RefusedAddress as exc:
        raise ValidationFailed("url", str(exc)) from exc
    except ValueError:
        # A name, whose addresses are checked at each delivery; but not an IPv4 address
        # in a C library's older spellings (2130706433, 0x7f.1, 127.1), which resolvers
        # read as that address while it looks like a name here.
        if _legacy_ipv4(host):
            raise ValidationFailed(
                "url", f"{host} is an IPv4 address: write it as four decimal numbers, a.b.c.d"
            ) from None
    return url


def _legacy_ipv4(host: str) -> bool:
    try:
        socket.inet_aton(host)
    except OSError:
        return False
    return True


def check_event_types(types: list[str]) -> list[str]:
    """The subscribed types, each once, in the order given."""
    unique = list(dict.fromkeys(types))
    if not unique:
        raise ValidationFailed("event_types", "name at least one event type")
    if len(unique) > MAX_EVENT_TYPES:
        raise ValidationFailed("event_types", f"at most {MAX_EVENT_TYPES} event types")
    for index, name in enumerate(unique):
        if not EVENT_TYPE.match(name):
            raise ValidationFailed(
                f"event_types.{index}",
                "an event type is lower-case letters, digits and _ (e.g. game_ended)",
            )
    return unique


def endpoint_item(endpoint: Endpoint) -> dict[str, Any]:
    """An endpoint as the API shows it: never its secret, which is shown once."""
    return {
        "id": endpoint.id,
        "url": endpoint.url,
        "event_types": endpoint.event_types,
        "description": endpoint.description,
        "created_at": endpoint.created_at.isoformat(),
    }


def event_id(game_id: str, seq: int, type_: str, seat: int | None) -> str:
    """What a receiver deduplicates on: ``<game_id>:<seq>`` for a logged event, and
    ``<game_id>:<seq>:<type>:<seat>`` for a notice derived from it (a turn starting)."""
    if seat is not None:
        return f"{game_id}:{seq}:{type_}:{seat}"
    return f"{game_id}:{seq}"


def delivery_item(delivery: Delivery) -> dict[str, Any]:
    pending = delivery.status == store.PENDING
    return {
        "id": delivery.id,
        "event_id": event_id(delivery.game_id, delivery.seq, delivery.type, delivery.seat),
        "type": delivery.type,
        "game_id": delivery.game_id,
        "seq": delivery.seq,
        "seat": delivery.seat,
        "status": delivery.status,
        "attempts": delivery.attempts,
        "next_attempt_at": delivery.next_attempt_at.isoformat() if pending else None,
        "last_status": delivery.last_status,
        "last_error": delivery.last_error,
        "delivered_at": delivery.delivered_at.isoformat() if delivery.delivered_at else None,
        "created_at": delivery.created_at.isoformat(),
    }


def encode_cursor(delivery: Delivery) -> str:
    return base64.urlsafe_b64encode(f"d{delivery.id}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> int:
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        if not re.fullmatch(r"d[1-9][0-9]{0,18}", text):
            raise ValueError("not a position")
    except (binascii.Error, UnicodeDecodeError, ValueError) as exc:
        raise InvalidCursor(
            "cursor is not one this service gave out; start again without it"
        ) from exc
    return int(text[1:])


def _endpoint_uuid(endpoint_id: str) -> str:
    """The id if it can name an endpoint (a canonical UUID); else unknown_webhook."""
    try:
        if str(uuid.UUID(endpoint_id)) == endpoint_id:
            return endpoint_id
    except (ValueError, TypeError, AttributeError):
        pass
    raise UnknownWebhook(f"no webhook endpoint {endpoint_id}")


def seal_stored_secrets(conn: psycopg.Connection, seal: SecretSeal) -> int:
    """Seal the secrets stored unsealed (before the service had a key), in one
    transaction; how many."""
    sealed = 0
    for endpoint_id, stored in store.stored_secrets(conn):
        if not is_sealed(stored):
            store.replace_secret(conn, endpoint_id, seal.seal(stored, endpoint_id))
            sealed += 1
    return sealed


class Webhooks:
    """The webhook use cases of one process."""

    def __init__(
        self, db: Database, allow_loopback_http: bool = True, seal: SecretSeal | None = None
    ) -> None:
        self.db = db
        self.allow_loopback_http = allow_loopback_http
        self.seal = seal

    def create(
        self, api_key_id: str, url: str, event_types: list[str], description: str
    ) -> Outcome:
        """Register an endpoint; the answer carries its secret, which is shown once."""
        url = check_url(url, self.allow_loopback_http)
        types = check_event_types(event_types)
        secret = SECRET_PREFIX + secrets.token_urlsafe(32)
        endpoint_id = str(uuid.uuid4())
        stored = stored_secret(self.seal, secret, endpoint_id)
        with self.db.connection() as conn:
            # One key's endpoints are counted and created one at a time.
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"webhooks:{api_key_id}",))
            if store.count_endpoints(conn, api_key_id) >= MAX_ENDPOINTS_PER_KEY:
                raise TooManyWebhooks(
                    f"an API key may have {MAX_ENDPOINTS_PER_KEY} endpoints; delete one first"
                )
            endpoint = store.create_endpoint(
                conn, endpoint_id, api_key_id, url, types, stored, description
            )
        return Outcome(201, {**endpoint_item(endpoint), "secret": secret})

    def list(self, api_key_id: str) -> Outcome:
        with self.db.connection() as conn:
            endpoints = store.list_endpoints(conn, api_key_id)
        return Outcome(200, {"webhooks": [endpoint_item(e) for e in endpoints]})

    def _endpoint(self, conn, api_key_id: str, endpoint_id: str) -> Endpoint:
        endpoint = store.get_endpoint(conn, api_key_id, _endpoint_uuid(endpoint_id))
        if endpoint is None:
            raise UnknownWebhook(f"no webhook endpoint {endpoint_id}")
        return endpoint

    def get(self, api_key_id: str, endpoint_id: str) -> Outcome:
        with self.db.connection() as conn:
            endpoint = self._endpoint(conn, api_key_id, endpoint_id)
        return Outcome(200, endpoint_item(endpoint))

    def delete(self, api_key_id: str, endpoint_id: str) -> None:
        """Delete the endpoint and its deliveries (pending ones are not sent)."""
        with self.db.connection() as conn:
            if not store.delete_endpoint(conn, api_key_id, _endpoint_uuid(endpoint_id)):
                raise UnknownWebhook(f"no webhook endpoint {endpoint_id}")

    def deliveries(
        self,
        api_key_id: str,
        endpoint_id: str,
        status: str | None,
        cursor: str | None,
        limit: int,
    ) -> Outcome:
        """A page of the endpoint's deliveries, newest first."""
        before = decode_cursor(cursor) if cursor is not None else None
        with self.db.connection() as conn:
            endpoint = self._endpoint(conn, api_key_id, endpoint_id)
            found = store.list_deliveries(conn, endpoint.id, status, before, limit + 1)
        page = found[:limit]
        body = {
            "webhook_id": endpoint.id,
            "deliveries": [delivery_item(d) for d in page],
            "next_cursor": encode_cursor(page[-1]) if len(found) > limit else None,
        }
        return Outcome(200, body)
