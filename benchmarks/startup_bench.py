"""Start-up with many open games (issue 10, item 5): ``python -m benchmarks.startup_bench``.

Fills a fresh SQLite database with ``--games`` running party games (each in its own group, six
players, played into day 1 so every log holds the deal, the reading gate and a night), then starts
a second bot on it the way ``python -m bot`` does — ``App.start(recover=False)``, a press queued
during the "outage" handled at once, ``App.recover()`` meanwhile — and prints, in seconds:

* ``start``: store (migrations), getMe, deadline clock — until the bot may poll;
* ``first press``: from the beginning of start-up to the answer of the queued press;
* ``recover``: replaying every open game, re-arming timers, countdowns, AFK clocks.

Run it from the repository root (it uses the test fakes).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import tempfile
import time
from pathlib import Path

from bot.app import build_app
from bot.deadlines import ManualDeadlines
from tests.bot.harness import FAST_RATES, FakeClock, Harness
from tests.fakes.session import TEST_TOKEN, RecordingSession
from tests.fakes.updates import FakeUser, Updates


async def fill(db_url: str, games: int, session: RecordingSession, clock: FakeClock) -> None:
    app = build_app(token=TEST_TOKEN, database_url=db_url, session=session,
                    deadlines_cls=ManualDeadlines, clock=clock, default_locale="en",
                    sender_kwargs=dict(FAST_RATES))
    await app.start()
    updates = Updates(app.bot, session, first_update_id=1)
    h = Harness(app=app, session=session, updates=updates, clock=clock)
    for n in range(games):
        chat = -1002000000000 - n
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
    await app.stop()


def _button(h: Harness, chat_id: int, action: str, phase_seq: int) -> tuple[int, str]:
    from bot.callbacks import Act

    for mid, b in h.buttons(chat_id):
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
    # a press queued while the bot was down, on the last game created: handled while recovering
    updates = Updates(app.bot, session, first_update_id=10**6)
    recovery = asyncio.create_task(app.recover())
    open_games = await _open_games(app)
    rec = await app.storage.get_game(max(open_games))
    before = len(session.calls.calls_to("answerCallbackQuery"))
    from bot.callbacks import Act
    data = Act(g=rec.id, s=1, a="end").pack()  # an old turn's button: answered "out of date"
    someone = FakeUser(800_000_000_001, "P0x1")
    await app.dp.feed_update(app.bot, updates.callback(someone, (rec.chat_id, 1), data))
    assert len(session.calls.calls_to("answerCallbackQuery")) > before
    answered = time.perf_counter()
    count = await recovery
    recovered = time.perf_counter()
    await app.stop()
    return {"games": float(count), "open games seen": float(len(open_games)),
            "start": ready - began, "first press": answered - began,
            "recover": recovered - ready, "total": recovered - began}


async def _open_games(app) -> list[int]:
    return [rec.id for rec in await app.storage.active_games()]


async def main(games: int) -> None:
    logging.basicConfig(level=logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="mafia-startup-") as folder:
        db_url = f"sqlite+aiosqlite:///{Path(folder) / 'startup.db'}"
        session, clock = RecordingSession(), FakeClock()
        filled = time.perf_counter()
        await fill(db_url, games, session, clock)
        print(f"filled {games} running games in {time.perf_counter() - filled:.1f} s")
        for key, value in (await measure(db_url, session, clock)).items():
            print(f"{key:>16}: {value:.3f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    asyncio.run(main(parser.parse_args().games))
