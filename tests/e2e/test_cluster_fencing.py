"""Fencing between real worker processes (issue 19, item 3): the worker that serves a game is
frozen (SIGSTOP) past its lease while messages of the game are queued in its Sender, one of them
in flight, and while it handles an update (a ``/takehost`` whose ``getChatMember`` the stand-in
holds); another worker takes the shard over; then the frozen one goes on (SIGCONT).

What is checked, with a worker marker on every call and every write:

* the stand-in records which process made each call (``TELEGRAM_API_URL=<base>/w/<name>``): no
  message, edit or any other call that writes to a chat comes from the frozen worker after its
  freeze (until the game's end, after which its shard may come back to it under a new epoch),
  and its log says it dropped what it had queued;
* each worker writes to PostgreSQL as a role of its own, and an audit trigger the test installs
  records who wrote which row of the game's tables (``games``: the ui, the deadline; the log,
  the players) and when: no row of the frozen worker's lands after its freeze (until the end);
* nothing is lost: the update in flight is applied once (by the new owner), the group sees no
  step twice and no live button of an older phase, every press is answered exactly once, and
  the game is played to its end.

Needs TEST_DATABASE_URL and TEST_REDIS_URL (skipped otherwise); three workers, LEASE_SECONDS=2.
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections import Counter
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy import text
from sqlalchemy.engine import make_url

from bot.handlers.game import CONFIRM
from bot.storage import Storage, create_engine
from bot.ui.callbacks import Act
from engine import Phase

from .cluster import TAKEOVER_BOUND, Workers, needs_services
from .conftest import Table, short_game_plan
from .fake_api import FakeBotAPI
from .model import Call
from .rates import counted

pytestmark = needs_services

GROUP = -1001000000190
NAMES = ("w0", "w1", "w2")
#: the group's calls that change what the group sees (held in flight at the freeze)
GROUP_WRITES = ("sendMessage", "editMessageText", "editMessageReplyMarkup", "deleteMessage",
                "pinChatMessage", "unpinChatMessage", "sendPhoto", "sendDocument")
#: who wrote which row of a game's tables, and when (the database's clock)
AUDIT = ("""
CREATE TABLE fence_audit (
    at timestamptz NOT NULL DEFAULT clock_timestamp(),
    who text NOT NULL DEFAULT current_user,
    tbl text NOT NULL, op text NOT NULL, game_id bigint)""", """
CREATE FUNCTION fence_audit() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
BEGIN
    INSERT INTO fence_audit (tbl, op, game_id)
    VALUES (TG_TABLE_NAME, TG_OP, COALESCE(r->>'game_id', r->>'id')::bigint);
    RETURN NULL;
END $$""")
AUDITED = ("games", "game_log", "game_players", "active_players")


@pytest_asyncio.fixture
async def roles(cluster_db: str) -> AsyncIterator[dict[str, str]]:
    """Worker name -> its URL of the test's database, as a PostgreSQL role of its own (dropped
    afterwards). The tables are made first, as the server's own user, with the audit trigger."""
    url = make_url(cluster_db)
    names = {w: f"{url.database}_{w}" for w in NAMES}
    admin = create_engine(cluster_db, isolation_level="AUTOCOMMIT")
    storage = Storage(cluster_db)
    await storage.start()  # migrated: the tables belong to the server's user
    await storage.close()
    try:
        async with admin.connect() as connection:
            for role in names.values():
                await connection.exec_driver_sql(f'CREATE ROLE "{role}" LOGIN SUPERUSER')
            for statement in AUDIT:
                await connection.exec_driver_sql(statement)
            for table in AUDITED:
                await connection.exec_driver_sql(
                    f"CREATE TRIGGER fence_audit AFTER INSERT OR UPDATE OR DELETE ON {table} "
                    "FOR EACH ROW EXECUTE FUNCTION fence_audit()")
        yield {w: url.set(username=role).render_as_string(hide_password=False)
               for w, role in names.items()}
    finally:
        async with admin.connect() as connection:
            for role in names.values():
                await connection.exec_driver_sql(
                    f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    f"WHERE usename = '{role}'")
                await connection.exec_driver_sql(f'DROP OWNED BY "{role}"')
                await connection.exec_driver_sql(f'DROP ROLE IF EXISTS "{role}"')
        await admin.dispose()


@pytest_asyncio.fixture
async def workers(cluster_api: FakeBotAPI, cluster_db: str, cluster_redis, cluster_prefix: str,
                  roles: dict[str, str], tmp_path: Path) -> AsyncIterator[Workers]:
    w = Workers(cluster_api, cluster_db, tmp_path, redis=cluster_redis, prefix=cluster_prefix,
                names=NAMES, tag_calls=True, database_urls=roles)
    try:
        await w.start()
        yield w
    finally:
        for proc in w.procs.values():  # a frozen worker cannot handle its SIGTERM
            if proc.running:
                proc.signal(signal.SIGCONT)
        cluster_api.release_all()
        statuses = await w.stop()
        bad = {n: s for n, s in statuses.items() if s not in (0, None)}
        if bad:
            pytest.fail(f"workers exited with {bad} on SIGTERM\n{w.log_tails()}")


@pytest_asyncio.fixture
async def reader(workers: Workers) -> AsyncIterator[Storage]:
    storage = Storage(workers.database_url)
    await storage.start()
    yield storage
    await storage.close()


async def db_now(reader: Storage) -> datetime:
    async with reader.engine.connect() as connection:
        return (await connection.execute(text("SELECT clock_timestamp()"))).scalar_one()


async def writes(reader: Storage, game_id: int, role: str, after: datetime) -> list[tuple]:
    """The audited writes of ``game_id``'s rows by ``role`` after ``after``: (table, op, at)."""
    async with reader.engine.connect() as connection:
        rows = await connection.execute(text(
            "SELECT tbl, op, at FROM fence_audit WHERE game_id = :g AND who = :w AND at > :t "
            "ORDER BY at"), {"g": game_id, "w": role, "t": after})
        return [tuple(r) for r in rows]


async def log_rows(reader: Storage, game_id: int) -> list[tuple[int, int | None, str]]:
    """(seq, update_id, command type) of the game's log, in order."""
    async with reader.engine.connect() as connection:
        rows = await connection.execute(text(
            "SELECT seq, update_id, command->>'type' FROM game_log WHERE game_id = :g "
            "ORDER BY seq"), {"g": game_id})
        return [(int(seq), upd, str(kind)) for seq, upd, kind in rows]


def group_sends(api: FakeBotAPI, since: float = 0.0, until: float = float("inf")) -> list[str]:
    return [c.params.get("text") or "" for c in api.calls
            if c.method == "sendMessage" and c.ok and str(c.params.get("chat_id")) == str(GROUP)
            and since <= c.at < until]


def stale_buttons(api: FakeBotAPI, phase_seq: int) -> list[tuple[int, str]]:
    """Live action buttons in the group of another phase (``s=0``: the game's own controls)."""
    return [(m.message_id, b["callback_data"]) for m in api.messages(GROUP) for b in m.buttons
            if (b.get("callback_data") or "").startswith("a:")
            and Act.unpack(b["callback_data"]).s not in (0, phase_seq)]


def writes_of(api: FakeBotAPI, worker: str, since: float) -> list[Call]:
    """The calls ``worker`` made since ``since`` that write to a chat (no reads, no answers)."""
    return [c for c in api.calls if c.worker == worker and c.at >= since and counted(c.method)]


async def test_a_frozen_owner_writes_and_sends_nothing_after_the_takeover_and_nothing_is_lost(
        cluster_api: FakeBotAPI, workers: Workers, reader: Storage,
        roles: dict[str, str]) -> None:
    api = cluster_api
    api.webhook_timeout = 3.0  # a delivery to the frozen worker is tried elsewhere soon
    table = Table(api, workers, reader, GROUP, first_user_id=19001)
    await table.join_all()
    await table.start_game()
    assert table.game_id is not None
    game_id = table.game_id
    plan = short_game_plan(await table.state())
    st = await table.play(plan, until=lambda s: s.phase is Phase.VOTING)
    assert st.vote is not None
    voters = [table.by_id[p.user_id] for p in st.alive_active()]
    for user in voters[:-1]:
        await table.do(user, GROUP, st, "vote", st.vote.current)
    await api.settle(quiet=1.0, timeout=20)
    owner = await workers.owner(GROUP)
    assert owner in workers.procs
    role = make_url(roles[owner]).username
    assert role is not None
    before = await log_rows(reader, game_id)

    # the last vote closes the round: the group's next messages queue behind one in flight
    in_flight = api.hold(*GROUP_WRITES, chat_id=GROUP)
    await table.do(voters[-1], GROUP, st, "vote", st.vote.current)
    await asyncio.wait_for(in_flight.arrived.wait(), 20)
    # ... and an update is being handled: /takehost waits for the admin check
    member = api.hold("getChatMember", chat_id=GROUP)
    await table.users[0].say(GROUP, "/takehost")
    takehost = api.updates_log[-1]["update_id"]
    await asyncio.wait_for(member.arrived.wait(), 20)
    assert {c.worker for c in in_flight.calls + member.calls} == {owner}

    frozen_at = workers.pause(owner)
    frozen_db = await db_now(reader)
    others = [n for n in NAMES if n != owner]
    live = [workers.procs[n].webhook_base for n in others]
    api.webhook_targets = live  # the load balancer's health check takes it out
    api.release_all()  # Telegram acts on what reached it before the freeze; nobody hears back
    new_owner, took = await workers.wait_owner(GROUP, other_than=owner, since=frozen_at,
                                               logged="1 open game(s) recovered")
    assert took <= TAKEOVER_BOUND, f"taken over after {took:.1f} s"
    print(f"takeover after SIGSTOP: {took:.2f} s")

    async def takehost_applied() -> bool:
        return any(u == takehost for _s, u, _k in await log_rows(reader, game_id))

    await workers.poll(takehost_applied, 20, what="apply the /takehost in flight")
    await api.settle(quiet=1.0, timeout=20)
    workers.resume(owner)
    resumed_at = time.monotonic()

    async def noticed() -> bool:
        return "handed over" in workers.log_since_kill(owner)

    await workers.poll(noticed, 20, what="let the frozen worker notice its lost shards")
    api.webhook_targets = [p.webhook_base for p in workers.procs.values()]
    await api.settle(quiet=1.5, timeout=20)

    # nothing lost: the game goes on to its end
    end = await table.play(plan)
    assert end.phase is Phase.ENDED
    await table.wait_message(GROUP, table._("Roles:"))
    # (once the game is over its shard may go back to the worker that wants it: legitimately,
    # under a new epoch; what is checked is the time the frozen worker had lost it)
    ended, ended_db = time.monotonic(), await db_now(reader)
    await api.settle(quiet=1.5, timeout=20)

    # none of the frozen worker's messages went out after its freeze ...
    assert [c for c in writes_of(api, owner, frozen_at) if c.at < ended] == []
    stale_log = workers.log_since_kill(owner)
    assert "queued by a worker that lost the game's shard" in stale_log, stale_log[-3000:]
    # ... none of its writes landed
    assert [w for w in await writes(reader, game_id, role, frozen_db) if w[2] < ended_db] == []
    assert await writes(reader, game_id, make_url(roles[new_owner]).username or "", frozen_db)
    # ... the update in flight was applied once, by the new owner; no command twice
    rows = await log_rows(reader, game_id)
    assert rows[:len(before)] == before
    assert [u for _s, u, _k in rows].count(takehost) == 1
    updates = [u for _s, u, _k in rows if u is not None]
    assert len(updates) == len(set(updates)), "an update applied twice"
    # the group saw no step twice and no live button of an older phase
    seen = group_sends(api, until=frozen_at)
    again = [t for t in group_sends(api, since=frozen_at) if t in seen]
    assert again == [], again
    assert stale_buttons(api, end.phase_seq) == []
    # every press answered exactly once
    answers = Counter(c.params.get("callback_query_id") for c in api.calls
                      if c.method == "answerCallbackQuery" and c.ok)
    assert set(answers.values()) == {1}, answers
    assert [q for q, w in api.callback_waiters.items() if not w.done()] == []
    assert workers.tracebacks() == {}
    print(f"frozen {resumed_at - frozen_at:.1f} s; {len(in_flight.calls)} group call(s) in "
          f"flight; {stale_log.count('lost the game') } queued call(s) dropped")


async def test_an_owner_frozen_inside_its_write_is_cut_off_and_its_write_refused(
        cluster_api: FakeBotAPI, workers: Workers, reader: Storage, roles: dict[str, str],
        cluster_db: str) -> None:
    """The owner is frozen in the middle of a write: a vote's append, held at the log's lock
    (the test holds it), has read its shard's epoch ``FOR SHARE``. PostgreSQL ends that
    transaction once it sits idle (``IDLE_IN_TRANSACTION_MS``), the next worker's takeover
    moves the epoch on and applies the vote from the stream; the owner, woken up, writes the
    vote again in a transaction of its own: the database refuses it (stale epoch), and it
    sends nothing."""
    from bot.storage.fencing import IDLE_IN_TRANSACTION_MS

    api = cluster_api
    api.webhook_timeout = 3.0
    table = Table(api, workers, reader, GROUP, first_user_id=19101)
    await table.join_all()
    await table.start_game()
    assert table.game_id is not None
    game_id = table.game_id
    plan = short_game_plan(await table.state())
    st = await table.play(plan, until=lambda s: s.phase is Phase.VOTING)
    assert st.vote is not None
    await api.settle(quiet=1.0, timeout=20)
    owner = await workers.owner(GROUP)
    assert owner in workers.procs
    role = make_url(roles[owner]).username or ""
    voter = table.by_id[st.alive_active()[0].user_id]
    button = table.act(st, "vote", st.vote.current)

    locker = create_engine(cluster_db)
    try:
        async with locker.connect() as lock:
            await lock.exec_driver_sql("LOCK TABLE game_log IN SHARE ROW EXCLUSIVE MODE")
            await voter.press(GROUP, table.message_with(GROUP, button), button,
                              wait_answer=False)
            pressed = list(api.callback_waiters.values())[-1]
            vote_update = api.updates_log[-1]["update_id"]

            async def waits_for_the_lock() -> bool:
                async with reader.engine.connect() as connection:
                    return bool((await connection.execute(text(
                        "SELECT count(*) FROM pg_stat_activity WHERE usename = :r "
                        "AND wait_event_type = 'Lock'"), {"r": role})).scalar_one())

            await workers.poll(waits_for_the_lock, 20, what="start the vote's write")
            frozen_at = workers.pause(owner)
            frozen_db = await db_now(reader)
            api.webhook_targets = [workers.procs[n].webhook_base for n in NAMES if n != owner]
            await lock.rollback()  # its INSERT goes on, then its transaction waits for it
    finally:
        await locker.dispose()
    new_owner, took = await workers.wait_owner(GROUP, other_than=owner, since=frozen_at,
                                               logged="1 open game(s) recovered")
    print(f"takeover of a shard whose owner froze inside a write: {took:.2f} s")
    assert took >= IDLE_IN_TRANSACTION_MS / 1000 - 0.5, "the takeover waited for that write"
    answer = await asyncio.wait_for(asyncio.shield(pressed), 20)
    assert answer.text == CONFIRM["vote"], answer
    await api.settle(quiet=1.0, timeout=20)
    workers.resume(owner)

    async def refused() -> bool:
        return "(stale epoch)" in workers.log_since_kill(owner)

    await workers.poll(refused, 20, what="refuse the frozen worker's write")
    api.webhook_targets = [p.webhook_base for p in workers.procs.values()]
    end = await table.play(plan)
    assert end.phase is Phase.ENDED
    await table.wait_message(GROUP, table._("Roles:"))
    ended, ended_db = time.monotonic(), await db_now(reader)
    await api.settle(quiet=1.5, timeout=20)

    assert [c for c in writes_of(api, owner, frozen_at) if c.at < ended] == []
    assert [w for w in await writes(reader, game_id, role, frozen_db) if w[2] < ended_db] == []
    rows = await log_rows(reader, game_id)
    assert [u for _s, u, _k in rows].count(vote_update) == 1
    updates = [u for _s, u, _k in rows if u is not None]
    assert len(updates) == len(set(updates)), "an update applied twice"
    answers = Counter(c.params.get("callback_query_id") for c in api.calls
                      if c.method == "answerCallbackQuery" and c.ok)
    assert set(answers.values()) == {1}, answers
    assert workers.tracebacks() == {}
