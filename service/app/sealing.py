"""Webhook secrets sealed at rest.

An endpoint's secret signs every delivery, and its receiver trusts what verifies. The
worker needs the secret whole to sign, so it cannot be stored as a hash like a token.
With ``WEBHOOK_SECRETS_KEY`` set (a key the database never holds, like
``HEAD_SIGNING_KEY``), it is stored sealed: AES-256-GCM under the SHA-256 of that key,
with the endpoint's id as associated data, so a copy of the database (a backup, a
replica, a dump) gives away no secret, and a sealed secret copied to another endpoint's
row does not open there.

A stored secret reads ``sealed-v1:<base64url(nonce || ciphertext || tag)>``. A secret
without that prefix was stored before a key was set: it is used as it is until
``python -m service.cli seal-webhook-secrets`` seals it.
"""

from __future__ import annotations

import base64
import hashlib
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

SEALED_PREFIX = "sealed-v1:"
_NONCE_BYTES = 12


class SecretUnreadable(Exception):
    """A sealed secret that this service cannot open: no key, or another key."""


class SecretSeal:
    """Seals and opens endpoint secrets under one key."""

    def __init__(self, key: str) -> None:
        if not key:
            raise ValueError("an empty key seals nothing")
        self._aead = AESGCM(hashlib.sha256(key.encode()).digest())

    def seal(self, secret: str, endpoint_id: str) -> str:
        nonce = os.urandom(_NONCE_BYTES)
        sealed = self._aead.encrypt(nonce, secret.encode(), endpoint_id.encode())
        return SEALED_PREFIX + base64.urlsafe_b64encode(nonce + sealed).decode()

    def open(self, stored: str, endpoint_id: str) -> str:
        if not is_sealed(stored):
            return stored
        try:
            raw = base64.urlsafe_b64decode(stored[len(SEALED_PREFIX) :])
            nonce, sealed = raw[:_NONCE_BYTES], raw[_NONCE_BYTES:]
            return self._aead.decrypt(nonce, sealed, endpoint_id.encode()).decode()
        except (InvalidTag, ValueError) as exc:
            raise SecretUnreadable(
                f"the secret of endpoint {endpoint_id} was sealed under another"
                " WEBHOOK_SECRETS_KEY (or altered)"
            ) from exc


def is_sealed(stored: str) -> bool:
    return stored.startswith(SEALED_PREFIX)


def stored_secret(seal: SecretSeal | None, secret: str, endpoint_id: str) -> str:
    """What the endpoint's row keeps of ``secret``: sealed when there is a key."""
    return secret if seal is None else seal.seal(secret, endpoint_id)


def opened_secret(seal: SecretSeal | None, stored: str, endpoint_id: str) -> str:
    """The secret a row keeps, opened; :class:`SecretUnreadable` if it is sealed and
    there is no key to open it."""
    if seal is not None:
        return seal.open(stored, endpoint_id)
    if is_sealed(stored):
        raise SecretUnreadable(
            f"the secret of endpoint {endpoint_id} is sealed and WEBHOOK_SECRETS_KEY is not set"
        )
    return stored
