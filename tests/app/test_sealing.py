"""Webhook secrets sealed at rest (service/app/sealing.py): what a row keeps opens with
the service's key, for its own endpoint only, and gives the secret away to nobody else."""

from __future__ import annotations

import pytest

from service.app.sealing import (
    SEALED_PREFIX,
    SecretSeal,
    SecretUnreadable,
    opened_secret,
    stored_secret,
)

SECRET = "whsec_q2vX1JH3b0m6c0Zp1Fh5tE6cT4oRr9sLxk2qB8yNn0w"
ENDPOINT = "5f0c6a1e-9d3b-4d8e-a4a7-0c1b2d3e4f50"
ANOTHER_ENDPOINT = "0b7e3c1a-2f4d-4a6b-9c8d-1e2f3a4b5c6d"


def test_a_sealed_secret_opens_with_the_key_for_its_endpoint():
    seal = SecretSeal("the service's key")
    stored = seal.seal(SECRET, ENDPOINT)
    assert stored.startswith(SEALED_PREFIX) and SECRET not in stored
    assert seal.open(stored, ENDPOINT) == SECRET
    assert SecretSeal("the service's key").open(stored, ENDPOINT) == SECRET  # a restart


def test_sealing_the_same_secret_twice_stores_two_different_texts():
    seal = SecretSeal("the service's key")
    assert seal.seal(SECRET, ENDPOINT) != seal.seal(SECRET, ENDPOINT)


def test_a_sealed_secret_does_not_open_under_another_key():
    stored = SecretSeal("the service's key").seal(SECRET, ENDPOINT)
    with pytest.raises(SecretUnreadable, match="another WEBHOOK_SECRETS_KEY"):
        SecretSeal("another key").open(stored, ENDPOINT)


def test_a_sealed_secret_copied_to_another_endpoint_does_not_open_there():
    seal = SecretSeal("the service's key")
    with pytest.raises(SecretUnreadable):
        seal.open(seal.seal(SECRET, ENDPOINT), ANOTHER_ENDPOINT)


@pytest.mark.parametrize("cut", [1, 20])
def test_an_altered_sealed_secret_does_not_open(cut):
    seal = SecretSeal("the service's key")
    stored = seal.seal(SECRET, ENDPOINT)
    flipped = "A" if stored[-cut] != "A" else "B"
    with pytest.raises(SecretUnreadable):
        seal.open(stored[:-cut] + flipped + stored[len(stored) - cut + 1 :], ENDPOINT)
    with pytest.raises(SecretUnreadable):
        seal.open(stored[:-cut], ENDPOINT)


def test_a_secret_stored_before_there_was_a_key_is_used_as_it_is():
    assert SecretSeal("the service's key").open(SECRET, ENDPOINT) == SECRET
    assert opened_secret(None, SECRET, ENDPOINT) == SECRET


def test_without_a_key_secrets_are_stored_as_they_are_and_sealed_ones_do_not_open():
    assert stored_secret(None, SECRET, ENDPOINT) == SECRET
    sealed = stored_secret(SecretSeal("the service's key"), SECRET, ENDPOINT)
    with pytest.raises(SecretUnreadable, match="WEBHOOK_SECRETS_KEY is not set"):
        opened_secret(None, sealed, ENDPOINT)


def test_an_empty_key_is_refused():
    with pytest.raises(ValueError):
        SecretSeal("")
