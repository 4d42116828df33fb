"""Start-up with many open games (issue 10, item 5): ``python -m benchmarks.startup_bench``.

Fills a fresh SQLite database with ``--games`` running party games (each in its own group, six
players, played into day 1 so every log holds the deal, the reading gate and a night), then starts
a second bot on it the way ``python -m bot`` does — ``App.start(recover=False)``, a press queued
during the "outage" handled at once, ``App.recover()`` meanwhile — and prints, in seconds:

* ``start``: store (migrations), getMe, deadline clock — until the bot may poll;
* ``first press``: from the beginning of start-up to the answer of the queued press;
* ``recover``: replaying every open game, re-arming timers, held edits, AFK clocks.

Run it from the repository root (it uses the test fakes).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.app import build_app
from bot.services.deadlines import ManualDeadlines
from tests.bot.harness import FAST_RATES, FakeClock, Harness
from tests.fakes.session import TEST_TOKEN, RecordingSession
from tests.fakes.updates import FakeUser, Updates

from .players import BenchSession
from .scale import rss_bytes

CHAT_BASE = -1002000000000
IMPORTED_AT = time.time()  # wall clock once this module and the bot are imported


def measure_in_new_process(db_url: str) -> dict[str, float]:
    """:func:`measure` in a fresh interpreter (its memory is not the filler's): the figures, and
    the wall seconds from starting that process until every game was resumed."""
    import json

    spawned = time.time()
    out = subprocess.run([sys.executable, "-m", "benchmarks.startup_bench", "--measure", db_url],
                         capture_output=True, text=True, check=True)
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    figures["import"] = figures.pop("imported at") - spawned
    figures["process start → all resumed"] = figures.pop("resumed at") - spawned
    return figures


async def _measure_here(db_url: str) -> None:
    import json

    figures = await measure(db_url, BenchSession(), FakeClock())
    figures["resumed at"] = time.time() - (time.perf_counter() - figures.pop("recovered_pc"))
    figures["imported at"] = IMPORTED_AT
    print(json.dumps(figures))


def import_seconds() -> float:
    """Seconds a fresh interpreter takes to import the bot (``bot.app``: aiogram, SQLAlchemy...)."""
    code = "import time; t = time.perf_counter(); import bot.app; print(time.perf_counter() - t)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


async def fill(db_url: str, games: int, session: RecordingSession, clock: FakeClock,
               at_once: int = 50) -> None:
    """Play ``games`` games into day 1, ``at_once`` of them concurrently."""
    app = build_app(token=TEST_TOKEN, database_url=db_url, session=session,
                    deadlines_cls=ManualDeadlines, clock=clock, default_locale="en",
                    sender_kwargs=dict(FAST_RATES))
    await app.start()
    updates = Updates(app.bot, session, first_update_id=1)
    h = Harness(app=app, session=session, updates=updates, clock=clock)
    for first in range(0, games, at_once):
        await asyncio.gather(*(_fill_one(app, h, session, n)
                               for n in range(first, min(games, first + at_once))))
        session.calls.clear()
    await app.stop()


async def clone(db_url: str, templates: int, games: int) -> None:
    """Copy the ``templates`` games played by :func:`fill` until there are ``games`` running
    games: each copy in a chat of its own with players of its own (their ids replaced in the log,
    the players and the presentation state), the same seed, log and deadline."""
    import json
    import re

    from sqlalchemy import insert, select

    from bot.storage import Storage
    from bot.storage.models import Game, GameLogEntry, GamePlayer

    tables = (Game.__table__, GameLogEntry.__table__, GamePlayer.__table__)
    storage = Storage(db_url)
    await storage.start()
    try:
        async with storage.engine.connect() as connection:
            rows = [dict(r._mapping) for r in await connection.execute(
                select(tables[0]).order_by(tables[0].c.id).limit(templates))]
            logs = {r["id"]: [dict(x._mapping) for x in await connection.execute(
                select(tables[1]).where(tables[1].c.game_id == r["id"]))] for r in rows}
            players = {r["id"]: [dict(x._mapping) for x in await connection.execute(
                select(tables[2]).where(tables[2].c.game_id == r["id"]))] for r in rows}
        for n in range(templates, games):
            template = rows[n % len(rows)]
            uids = {p["user_id"]: 800_000_000_000 + n * 10 + k
                    for k, p in enumerate(sorted(players[template["id"]], key=lambda p: p["user_id"]))}
            pattern = re.compile(r"\b(" + "|".join(str(u) for u in uids) + r")\b")

            def swap(value: Any, pattern: re.Pattern[str] = pattern,
                     uids: dict[int, int] = uids) -> Any:  # this template's
                text = pattern.sub(lambda m: str(uids[int(m.group(1))]), json.dumps(value))
                return json.loads(text)

            async with storage.engine.begin() as connection:
                game = {k: v for k, v in template.items() if k != "id"}
                game.update(chat_id=CHAT_BASE - n, creator_id=uids.get(template["creator_id"], 1),
                            ui=swap(template["ui"]))
                key = (await connection.execute(insert(tables[0]).values(**game))
                       ).inserted_primary_key
                assert key is not None  # an insert of one row: its primary key
                game_id = key[0]
                await connection.execute(insert(tables[1]), [
                    {**{k: v for k, v in e.items() if k != "id"}, "game_id": game_id,
                     "command": swap(e["command"]), "events": swap(e["events"])}
                    for e in logs[template["id"]]])
                await connection.execute(insert(tables[2]), [
                    {**p, "game_id": game_id, "user_id": uids[p["user_id"]]}
                    for p in players[template["id"]]])
    finally:
        await storage.close()


async def _fill_one(app, h: Harness, session: RecordingSession, n: int) -> None:
    chat = CHAT_BASE - n
    session.chat_titles[chat] = f"Group {n}"
    users = [FakeUser(800_000_000_000 + n * 10 + i, f"P{n}x{i}") for i in range(6)]
    for u in users:
        session.register_user(u)
    await h.command(users[0], "/newgame", chat)
    game_id = await app.service.game_for_chat(chat)
    for u in users:
        await h.dm(u, f"/start join_{game_id}")
    await h.command(users[0], "/startgame", chat)
    g = await app.service.live(game_id)
    for action in ("ready", "sleep"):
        st = g.state
        for p in st.alive_active():
            mid, data = _button(h, p.user_id, action, st.phase_seq)
            user = next(u for u in users if u.id == p.user_id)
            await h.press(user, p.user_id, mid, data)


def _button(h: Harness, chat_id: int, action: str, phase_seq: int) -> tuple[int, str]:
    from bot.ui.callbacks import Act

    session = h.session
    assert isinstance(session, BenchSession)  # main() fills with one: messages indexed by chat
    for mid in reversed(session.chat_messages.get(chat_id, ())):
        message = session.messages.get((chat_id, mid)) or {}
        for row in (message.get("reply_markup") or {}).get("inline_keyboard", ()):
            for b in row:
                data = b.get("callback_data") or ""
                if data.startswith("a:"):
                    act = Act.unpack(data)
                    if act.a == action and act.s in (0, phase_seq):
                        return mid, data
    raise LookupError(action)


async def measure(db_url: str, session: RecordingSession, clock: FakeClock) -> dict[str, float]:
    began = time.perf_counter()
    app = build_app(token=TEST_TOKEN, database_url=db_url, session=session,
                    deadlines_cls=ManualDeadlines, clock=clock, default_locale="en",
                    sender_kwargs=dict(FAST_RATES))
    await app.start(recover=False)
    ready = time.perf_counter()
    rss_before = rss_bytes()  # the bot started, no game loaded yet
    # a press queued while the bot was down, on the last game created: handled while recovering
    updates = Updates(app.bot, session, first_update_id=10**6)
    recovery = asyncio.create_task(app.recover())
    open_games = await _open_games(app)
    rec = await app.storage.get_game(max(open_games))
    assert rec is not None  # an open game is stored
    before = len(session.calls.calls_to("answerCallbackQuery"))
    from bot.ui.callbacks import Act
    data = Act(g=rec.id, s=1, a="end").pack()  # an old turn's button: answered "out of date"
    someone = FakeUser(800_000_000_001, "P0x1")
    await app.dp.feed_update(app.bot, updates.callback(someone, (rec.chat_id, 1), data))
    assert len(session.calls.calls_to("answerCallbackQuery")) > before
    answered = time.perf_counter()
    count = await recovery
    recovered = time.perf_counter()
    armed = sum(1 for game_id in open_games if game_id in app.deadlines.pending)
    gc.collect()
    rss_after = rss_bytes()
    await app.stop()
    return {"recovered_pc": recovered, "games": float(count), "open games seen": float(len(open_games)),
            "deadlines re-armed": float(armed),
            "start": ready - began, "first press": answered - began,
            "recover": recovered - ready, "total": recovered - began,
            "KiB per game": (rss_after - rss_before) / 1024 / max(count, 1)}


async def _open_games(app) -> list[int]:
    return [rec.id for rec in await app.storage.active_games()]


async def main(games: int, db_url: str | None = None, templates: int = 100) -> None:
    logging.basicConfig(level=logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="mafia-startup-") as folder:
        db_url = db_url or f"sqlite+aiosqlite:///{Path(folder) / 'startup.db'}"
        session, clock = BenchSession(), FakeClock()  # BenchSession: messages indexed by chat
        filled = time.perf_counter()
        played = min(games, templates)
        await fill(db_url, played, session, clock)
        if games > played:
            await clone(db_url, played, games)
        print(f"filled {games} running games in {time.perf_counter() - filled:.1f} s "
              f"({played} played through the bot, the rest copies of them)")
        figures = measure_in_new_process(db_url)
        for key, value in figures.items():
            print(f"{key:>28}: {value:.3f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--played", type=int, default=100, metavar="N",
                        help="games played through the bot to fill the store; the rest are "
                             "copies of them with chats and players of their own (default 100)")
    parser.add_argument("--db", default=None, metavar="URL",
                        help="an empty database to fill (default: a temporary SQLite file)")
    parser.add_argument("--measure", default=None, metavar="URL",
                        help="only start a bot on this filled store and print the figures (JSON)")
    options = parser.parse_args()
    if options.measure:
        logging.basicConfig(level=logging.ERROR)
        asyncio.run(_measure_here(options.measure))
    else:
        asyncio.run(main(options.games, options.db, options.played))
