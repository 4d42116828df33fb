"""Mini App event streams under load (issue 20): N open streams on one game, the latency of a
press from the page while every stream is fed.

``python -m benchmarks.webapp_streams_bench [--streams 1000] [--presses 200] [--no-share]``

The whole bot (the Mini App tests' harness: a fake Bot API, a fresh SQLite file) serves its web
server on a local port; ``--streams`` group members who are not in the game (onlookers: the
view they all share) open the game's event stream, each read by its own client task. Then one
player presses «Pause» and «Resume» from the page, one after the other (``POST
/webapp/api/act``): each press stores a command that changes every onlooker's table, so every
stream gets a new table. Printed: the press's latency (request to answer) p50 / p99 / max in
ms, the time from a foul until the last stream has the undo's table (two commands' fan-out)
p50 / p99, and the event loop's longest stall. ``--no-share`` computes each stream's table on its own (no
:class:`bot.webapp.streams.ViewCache`): the cost before issue 20. The streams are read by a
second process (its own event loop): the figures are the bot's.
Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import aiohttp

from .figures import percentile


def _readers_main(urls: list[str], arrived, opened) -> None:
    """The client process: open every stream of ``urls``; ``arrived[i]``: when stream ``i``'s
    latest table came (``time.monotonic``, the same clock as the bot's process on one machine);
    ``opened``: how many had their first table."""
    async def read(session: aiohttp.ClientSession, i: int, url: str) -> None:
        async with session.get(url) as resp:
            if resp.status != 200:
                raise RuntimeError(f"stream refused: {resp.status} {await resp.text()}")
            first = True
            async for line in resp.content:
                if line.startswith(b"data: "):
                    arrived[i] = time.monotonic()
                    if first:
                        first = False
                        with opened.get_lock():
                            opened.value += 1

    async def main() -> None:
        connector = aiohttp.TCPConnector(limit=0)
        timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
            await asyncio.gather(*(read(session, i, url) for i, url in enumerate(urls)),
                                 return_exceptions=True)

    asyncio.run(main())


async def _club_with_judge(h, judge) -> int:
    """A started club game of the harness's 10 users, hosted by ``judge``."""
    h.session.register_user(judge)
    await h.command(h.users[0], "/newgame club")
    g = await h.game()
    await h.dm(judge, f"/start host_{g.id}")
    for u in h.users:
        await h.dm(u, f"/start join_{g.id}")
    await h.command(h.users[0], "/startgame")
    return g.id


async def _lag_probe(stop: asyncio.Event, worst: list[float]) -> None:
    """The event loop's longest stall (a 10 ms sleep that took longer)."""
    while not stop.is_set():
        t0 = time.monotonic()
        await asyncio.sleep(0.01)
        worst[0] = max(worst[0], time.monotonic() - t0 - 0.01)


async def run(streams: int, presses: int, share: bool) -> dict:
    from tests.fakes.updates import FakeUser
    from tests.webapp.support import auth, served

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}"
        async with served(url, n_users=10) as (h, client):
            webapp = h.app.webapp
            if not share:  # every stream renders its own table (before issue 20)
                async def unshared(game_id, length, key, render):
                    return await render()
                webapp.views.get = unshared
            judge = FakeUser(909_000_000_001, "Judge")
            game_id = await _club_with_judge(h, judge)
            seat = (await h.game()).state.seated()[0].seat
            base = str(client.make_url("/webapp/api/"))
            connector = aiohttp.TCPConnector(limit=0)
            t_open = time.monotonic()
            async with aiohttp.ClientSession(connector=connector) as session:
                urls = []
                for i in range(streams):
                    watcher = FakeUser(910_000_000_000 + i, f"Watcher{i}")
                    async with session.get(base + "table", params={"g": str(game_id)},
                                           headers=auth(h, watcher)) as resp:
                        ticket = (await resp.json())["ticket"]
                    urls.append(f"{base}stream?g={game_id}&ticket={ticket}")
                mp = multiprocessing.get_context("spawn")
                arrived = mp.RawArray("d", streams)
                opened_count = mp.Value("i", 0)
                readers = mp.Process(target=_readers_main, args=(urls, arrived, opened_count),
                                     daemon=True)
                readers.start()
                while opened_count.value < streams:
                    if not readers.is_alive():
                        raise RuntimeError("the client process died")
                    await asyncio.sleep(0.05)
                opened = time.monotonic() - t_open
                latencies, fanouts = [], []
                stop, worst = asyncio.Event(), [0.0]
                probe = asyncio.create_task(_lag_probe(stop, worst))
                for _pair in range(0, presses, 2):  # the undo is pressed during the foul's fan-out
                    start = time.monotonic()
                    for code in ("foul", "unfoul"):
                        t0 = time.monotonic()
                        async with session.post(base + "act", headers=auth(h, judge),
                                                json={"g": game_id, "a": code, "t": seat}) as resp:
                            answer = await resp.json()
                        latencies.append(time.monotonic() - t0)
                        if not answer.get("ok"):
                            raise RuntimeError(f"press refused: {answer}")
                    last = time.monotonic()
                    while min(arrived) < last:
                        await asyncio.sleep(0.002)
                    fanouts.append(max(arrived) - start)
                stop.set()
                await probe
                readers.kill()
                readers.join()
    ms = [x * 1000 for x in latencies]
    fan = [x * 1000 for x in fanouts]
    return {"streams": streams, "presses": presses, "shared_views": share,
            "open_s": round(opened, 2),
            "press_ms": {"p50": round(percentile(ms, 50), 1), "p99": round(percentile(ms, 99), 1),
                         "max": round(max(ms), 1)},
            "fanout_ms": {"p50": round(percentile(fan, 50), 1),
                          "p99": round(percentile(fan, 99), 1)},
            "worst_loop_stall_ms": round(worst[0] * 1000, 1)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.webapp_streams_bench",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=1000, metavar="N",
                        help="open streams on the game (default 1000)")
    parser.add_argument("--presses", type=int, default=200, metavar="P",
                        help="presses measured (default 200)")
    parser.add_argument("--no-share", action="store_true",
                        help="render each stream's table on its own (the cost before issue 20)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    out = asyncio.run(run(args.streams, args.presses, not args.no_share))
    if args.json:
        print(json.dumps(out))
        return 0
    mode = "shared views" if out["shared_views"] else "one table per stream"
    print(f"{out['streams']} open streams on one game ({mode}), opened in {out['open_s']} s; "
          f"{out['presses']} presses (the judge's foul / its undo from the page)")
    p, f = out["press_ms"], out["fanout_ms"]
    print(f"  press latency: p50 {p['p50']} ms, p99 {p['p99']} ms, max {p['max']} ms")
    print(f"  foul + undo until the last stream has the table: p50 {f['p50']} ms, "
          f"p99 {f['p99']} ms")
    print(f"  longest event-loop stall: {out['worst_loop_stall_ms']} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
