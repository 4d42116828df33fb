"""Small numeric helpers shared by the benchmarks: percentiles, sliding windows, object sizes."""

from __future__ import annotations

import dataclasses
import resource
import sys
from collections.abc import Iterable, Sequence
from enum import Enum


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile ``q`` (0..100) of ``values``; 0.0 for an empty sequence."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))  # ceil(n * q / 100), at least the first element
    return ordered[min(len(ordered), int(rank)) - 1]


def max_in_window(times: Iterable[float], window: float = 60.0) -> tuple[int, float]:
    """Most of ``times`` (seconds) inside any half-open interval ``[t, t + window)``.

    Returns ``(count, start)``, where ``start`` is the first time of the busiest window
    (``(0, 0.0)`` when there are no times).
    """
    ordered = sorted(times)
    best, best_start, start = 0, 0.0, 0
    for end, at in enumerate(ordered):
        while at - ordered[start] >= window:
            start += 1
        if end - start + 1 > best:
            best, best_start = end - start + 1, ordered[start]
    return best, best_start


def deep_sizeof(obj: object) -> int:
    """Bytes held by ``obj`` and everything it references through dataclass fields, dicts, lists,
    tuples and sets (``sys.getsizeof`` summed; shared objects and enum members counted once/never).
    """
    seen: set[int] = set()
    total = 0
    stack = [obj]
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, (Enum, type)) or item is None:
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if dataclasses.is_dataclass(item):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
            if hasattr(item, "__dict__"):
                total += sys.getsizeof(item.__dict__)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
    return total


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, MiB (``ru_maxrss`` is KiB on Linux)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
