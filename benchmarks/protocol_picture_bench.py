"""Protocol picture benchmark: ``python -m benchmarks.protocol_picture_bench [--rounds N]``.

Draws the protocol picture of the recorded 10-player club games (``tests/engine/fixtures/logs/
club-10-*.json``, FIIM points; run from the repository root) in Russian and English, ``N``
times each, and prints: milliseconds per picture (median, 95th percentile) for the whole way
from the stored log (protocol, score sheet, card, PNG) and for the drawing alone (the card
built once), and bytes per picture.  Figures only: nothing is asserted."""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from bot.history import protocol_picture
from tests.history.club_protocol import card_of, recorded

GAMES = ("club-10-auto", "club-10-host-chaos")
LOCALES = ("ru", "en")


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


def run(rounds: int) -> dict:
    whole: list[float] = []
    drawing: list[float] = []
    sizes: list[int] = []
    for name in GAMES:
        entries = recorded(name)
        for locale in LOCALES:
            card = card_of(entries, locale)
            protocol_picture.draw(card)  # fonts loaded before timing
            for _ in range(rounds):
                t0 = time.perf_counter()
                png = protocol_picture.draw(card_of(entries, locale))
                t1 = time.perf_counter()
                protocol_picture.draw(card)
                t2 = time.perf_counter()
                whole.append((t1 - t0) * 1000)
                drawing.append((t2 - t1) * 1000)
                sizes.append(len(png))
    return {"pictures": len(whole), "ms_p50": statistics.median(whole), "ms_p95": _p95(whole),
            "draw_ms_p50": statistics.median(drawing), "draw_ms_p95": _p95(drawing),
            "bytes_mean": statistics.mean(sizes), "bytes_max": max(sizes)}


def report(r: dict) -> str:
    return "\n".join([
        f"Protocol picture: {r['pictures']} pictures of {len(GAMES)} recorded 10-player club games"
        f" ({', '.join(LOCALES)})",
        f"  ms per picture from the log: p50 {r['ms_p50']:.1f}, p95 {r['ms_p95']:.1f}",
        f"  ms per picture, drawing only: p50 {r['draw_ms_p50']:.1f}, p95 {r['draw_ms_p95']:.1f}",
        f"  bytes per picture: mean {r['bytes_mean']:.0f}, max {r['bytes_max']}",
    ])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, metavar="N")
    args = parser.parse_args(argv)
    print(report(run(max(1, args.rounds))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
