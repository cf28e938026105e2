"""Seeded randomness.

A game's randomness comes from its stored seed and the number of actions applied so far, so a
restart in the middle of a game, or a replay of its action log, draws exactly the same numbers.
Tests can pass a scripted source instead (``ScriptedRng``) to force a spite death or a shuffle.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class Rng(Protocol):
    def random(self) -> float: ...
    def randrange(self, stop: int, /) -> int: ...
    def choice(self, seq: Sequence[T]) -> T: ...
    def shuffle(self, seq: MutableSequence) -> None: ...
    def sample(self, seq: Sequence[T], k: int) -> list[T]: ...


def rng_for(seed: int, step: int) -> random.Random:
    """The random source for the ``step``-th action of the game with ``seed``."""
    return random.Random(f"{seed}:{step}")


class SeededWhenDrawn:
    """``rng_for(seed, step)``, seeded at its first draw: the same numbers in the same order, but a
    step that draws nothing (most of them) never pays for the seeding (hashing the seed string:
    about 9 µs, a few percent of a bot's action; issue 38)."""

    __slots__ = ("_key", "_rng")

    def __init__(self, seed: int, step: int):
        self._key = f"{seed}:{step}"
        self._rng: random.Random | None = None

    def _source(self) -> random.Random:
        if self._rng is None:
            self._rng = random.Random(self._key)
        return self._rng

    def random(self) -> float:
        return self._source().random()

    def randrange(self, stop: int, /) -> int:
        return self._source().randrange(stop)

    def choice(self, seq: Sequence[T]) -> T:
        return self._source().choice(seq)

    def shuffle(self, seq: MutableSequence) -> None:
        self._source().shuffle(seq)

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        return self._source().sample(seq, k)


class ScriptedRng(random.Random):
    """A random source whose ``random()`` draws come from a script, for tests.

    ``choice``/``shuffle``/``sample`` fall back to a seeded generator unless ``choices`` scripts
    the index each ``choice`` takes.
    """

    def __init__(self, floats: Sequence[float] = (), choices: Sequence[int] = (), seed: int = 0):
        super().__init__(seed)
        self._floats = list(floats)
        self._choices = list(choices)

    def random(self) -> float:
        if self._floats:
            return self._floats.pop(0)
        return super().random()

    def choice(self, seq):
        if self._choices:
            return seq[self._choices.pop(0) % len(seq)]
        return super().choice(seq)
