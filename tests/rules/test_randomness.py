"""How random outcomes derive from a game's seed (ARCHITECTURE §2, "Randomness")."""

from __future__ import annotations

import hashlib
import hmac
import random

from service.rules.core import bot_rng_for, rng_for

SEED = bytes(range(32))


def eager(key: bytes, seq: int) -> random.Random:
    """The documented derivation, written out: HMAC-SHA256(key, seq) seeds random.Random."""
    digest = hmac.new(key, seq.to_bytes(8, "big"), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))


def draws(rng: random.Random) -> list:
    items = list(range(30))
    rng.shuffle(items)
    return [
        rng.randrange(72),
        rng.choice("abcdefgh"),
        rng.random(),
        rng.getrandbits(70),
        rng.sample(range(100), 5),
        rng.choices("xyz", k=4),
        items,
    ]


def test_a_command_draws_what_hmac_of_the_seed_and_its_seq_seeds():
    for seq in (1, 2, 73, 10**6):
        assert draws(rng_for(SEED, seq)) == draws(eager(SEED, seq))


def test_the_first_draw_may_be_of_any_kind():
    # Seeding waits for the first draw, whichever method makes it.
    assert rng_for(SEED, 5).randrange(10**9) == eager(SEED, 5).randrange(10**9)
    assert rng_for(SEED, 5).getrandbits(64) == eager(SEED, 5).getrandbits(64)
    assert rng_for(SEED, 5).getstate() == eager(SEED, 5).getstate()


def test_each_seq_and_each_seed_draws_independently():
    assert draws(rng_for(SEED, 1)) != draws(rng_for(SEED, 2))
    assert draws(rng_for(SEED, 1)) != draws(rng_for(SEED[::-1], 1))


def test_bots_draw_from_their_own_stream_derived_from_the_seed():
    bots_key = hashlib.sha256(b"bots" + SEED).digest()
    assert draws(bot_rng_for(SEED, 9)) == draws(eager(bots_key, 9))
    assert draws(bot_rng_for(SEED, 9)) != draws(rng_for(SEED, 9))
