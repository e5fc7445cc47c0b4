"""How random outcomes derive from a game's seed (docs/rules-core.md, "Randomness")."""

from __future__ import annotations

import hashlib
import hmac
import random

import pytest

from service.rules.core import bot_rng_for, rng_for

SEED = bytes(range(32))


class Reference(random.Random):
    """The documented stream, written out independently: HMAC-SHA256(key, seq) keys
    SHA-256 blocks in counter mode; bits are consumed from the low end; random() takes
    53 bits. random.Random builds every other draw on these two methods."""

    def __init__(self, key: bytes, seq: int) -> None:
        hkey = hmac.new(key, seq.to_bytes(8, "big"), hashlib.sha256).digest()
        blocks = (hashlib.sha256(hkey + i.to_bytes(8, "big")).digest() for i in range(64))
        self.stream = "".join(
            format(int.from_bytes(block, "big"), "0256b")[::-1] for block in blocks
        )
        self.used = 0

    def getrandbits(self, k: int, /) -> int:
        bits = self.stream[self.used : self.used + k]
        self.used += k
        return int(bits[::-1], 2) if k else 0

    def random(self) -> float:
        return self.getrandbits(53) / 2**53


class BotReference(Reference):
    """The bots' documented stream, written out independently: keyed BLAKE2b-512 of
    seq and the block's number, read and consumed as the game's stream is."""

    def __init__(self, key: bytes, seq: int) -> None:
        blocks = (
            hashlib.blake2b(seq.to_bytes(8, "big") + i.to_bytes(8, "big"), key=key).digest()
            for i in range(32)
        )
        self.stream = "".join(
            format(int.from_bytes(block, "big"), "0512b")[::-1] for block in blocks
        )
        self.used = 0


def eager(key: bytes, seq: int) -> random.Random:
    return Reference(key, seq)


def draws(rng: random.Random) -> list:
    items = list(range(30))
    rng.shuffle(items)
    return [
        rng.randrange(72),
        rng.randint(1, 6),
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


@pytest.mark.parametrize("seed", [b"", b"short", bytes(64), bytes(range(65)), bytes(200)])
def test_seeds_of_any_length_key_the_stream_as_hmac_does(seed):
    # HMAC hashes a key longer than SHA-256's 64-byte block and pads a shorter one.
    assert draws(rng_for(seed, 7)) == draws(eager(seed, 7))


def test_the_first_draw_may_be_of_any_kind_and_of_any_size():
    # The key waits for the first draw, whichever method makes it.
    assert rng_for(SEED, 5).randrange(10**9) == eager(SEED, 5).randrange(10**9)
    assert rng_for(SEED, 5).random() == eager(SEED, 5).random()
    assert rng_for(SEED, 5).getrandbits(700) == eager(SEED, 5).getrandbits(700)


def test_each_seq_and_each_seed_draws_independently():
    assert draws(rng_for(SEED, 1)) != draws(rng_for(SEED, 2))
    assert draws(rng_for(SEED, 1)) != draws(rng_for(SEED[::-1], 1))


def test_bots_draw_from_their_own_stream_derived_from_the_seed():
    bots_key = hashlib.sha256(b"bots" + SEED).digest()
    for seq in (1, 9, 10**6):
        assert draws(bot_rng_for(SEED, seq)) == draws(BotReference(bots_key, seq))
    assert draws(bot_rng_for(SEED, 9)) != draws(rng_for(SEED, 9))
    assert draws(bot_rng_for(SEED, 9)) != draws(bot_rng_for(SEED, 10))
    assert draws(bot_rng_for(SEED, 9)) != draws(bot_rng_for(SEED[::-1], 9))


def test_a_bot_draw_of_any_size_spans_the_blocks_in_order():
    bots_key = hashlib.sha256(b"bots" + SEED).digest()
    assert bot_rng_for(SEED, 3).getrandbits(1500) == BotReference(bots_key, 3).getrandbits(1500)


def test_the_stream_cannot_be_reseeded_or_swapped_for_another():
    rng = rng_for(SEED, 1)
    with pytest.raises(TypeError, match="fixed by its seed and seq"):
        rng.seed(42)
    with pytest.raises(TypeError, match="no Mersenne Twister state"):
        rng.getstate()
