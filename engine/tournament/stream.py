"""A seeded stream of numbers for the seating draw (docs/rules/tournament.md, TOUR-X04).

The engine draws no chance of its own (tests/engine/test_purity.py): the draw's randomness is a
pure function of the organiser's seed.  SplitMix64 (Steele, Lea, Flood 2014) is written out here
rather than taken from the stdlib's ``random`` so that a stored seed gives the same schedule on
every Python version and platform for as long as this code is unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


class Stream:
    """SplitMix64 seeded with ``seed`` (any int; taken modulo 2**64)."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & MASK

    def next64(self) -> int:
        """The next 64-bit number."""
        self._state = (self._state + GOLDEN) & MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in ``0 .. n-1``, every one equally likely (n >= 1; rejection sampling)."""
        if n <= 1:
            return 0
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def unit(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def permuted(self, items: Iterable[T]) -> list[T]:
        """A new list of ``items`` in an order drawn from the stream (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
