"""Many worker processes, one bot (issue 12), end to end: three ``python -m bot`` webhook workers
on one PostgreSQL database and one Redis, behind the stand-in Bot API, which spreads the updates
round robin over them as a load balancer would. A whole game across them; the worker holding the
game SIGKILLed in the middle of a vote; Telegram's duplicated deliveries. Needs TEST_DATABASE_URL
and TEST_REDIS_URL (skipped otherwise); SHARDS=8 and LEASE_SECONDS=2 keep takeovers quick."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.handlers.game import CONFIRM
from bot.storage import Storage
from engine import Phase, Role, Team, command_from_dict

from .cluster import (
    GROUP_RATE,
    LEASE_SECONDS,
    TAKEOVER_BOUND,
    Workers,
    needs_services,
)
from .conftest import Plan, Table, ids, seat_label, short_game_plan, vote_round
from .fake_api import FakeBotAPI

pytestmark = needs_services

GROUP = -1001000000120
VOTE_SECONDS = 20  #: each vote window: the kill, the takeover and a vote fit in it


@pytest_asyncio.fixture
async def workers(cluster_api: FakeBotAPI, cluster_db: str, cluster_redis, cluster_prefix: str,
                  tmp_path: Path) -> AsyncIterator[Workers]:
    w = Workers(cluster_api, cluster_db, tmp_path, redis=cluster_redis, prefix=cluster_prefix)
    try:
        await w.start()
        yield w
    finally:
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


def unanswered(api: FakeBotAPI) -> list[str]:
    return [qid for qid, waiter in api.callback_waiters.items() if not waiter.done()]


async def test_a_whole_game_across_three_workers(cluster_api: FakeBotAPI, workers: Workers,
                                                 reader: Storage) -> None:
    api = cluster_api
    table = Table(api, workers, reader, GROUP, first_user_id=12001)
    _ = table._
    for user in table.users:  # each starts the bot first: no game yet, any worker may answer
        await user.start()
        await table.wait(lambda user=user: api.messages(user.id), f"greet {user.first_name}")
    await table.join_all()
    await table.start_game()
    st = await table.state()
    end = await table.play(short_game_plan(st))
    assert end.phase is Phase.ENDED and end.day == 1
    finale = await table.wait_message(GROUP, _("Roles:"))
    await api.settle(quiet=1.5, timeout=20)
    for p in end.seated():
        assert f"{seat_label(end, p.user_id)} — {table.role_label(p.role)}" in (finale.text or "")

    # the updates really went through every worker, and the game's shard had one owner
    acknowledged = {d.target for d in api.webhook_deliveries if d.ok}
    assert acknowledged == {p.webhook_endpoint for p in workers.procs.values()}
    assert set((await workers.leases()).values()) == set(workers.procs)
    owner = await workers.owner(GROUP)
    handlers, passers = workers.handlers(), workers.passers()
    assert set(handlers) == {u["update_id"] for u in api.updates_log}, "every update handled"
    for update_id, names in handlers.items():  # by one worker (which may pass it on first)
        assert len(names - passers.get(update_id, set())) == 1, (update_id, names)
    assert len({n for names in handlers.values() for n in names}) >= 2, handlers
    game_updates = {u["update_id"] for u in api.updates_log
                    if "callback_query" in u or u.get("message", {}).get("chat", {}).get("id") == GROUP}
    assert all(owner in handlers[u] for u in game_updates), "the game's owner handled its updates"

    assert unanswered(api) == []
    assert workers.tracebacks() == {}
    assert workers.problems() == {}
    assert api.busiest_bot_second() <= 30
    # the game's group got at most 20 calls in any window of the (ten times faster) minute
    assert api.busiest_chat_window(GROUP, GROUP_RATE[1]) <= GROUP_RATE[0]


async def _log(reader: Storage, game_id: int | None) -> list[tuple[int, int | None, str]]:
    """The game's log rows: (seq, update_id, command type), in seq order (the test fails without
    a game)."""
    assert game_id is not None, "no game"
    from sqlalchemy import select

    from bot.storage.store import game_log

    query = select(game_log.c.seq, game_log.c.update_id, game_log.c.command) \
        .where(game_log.c.game_id == game_id).order_by(game_log.c.seq)
    async with reader.engine.connect() as connection:
        rows = (await connection.execute(query)).all()
    return [(seq, update_id, type(command_from_dict(command)).__name__)
            for seq, update_id, command in rows]


async def _wait_state(table: Table, workers: Workers, check, what: str, timeout: float = 20.0):
    """Poll the game's state in the database until ``check(state)``; returns the state."""
    found: list = []

    async def ok() -> bool:
        st = await table.state()
        found[:] = [st]
        return bool(check(st))

    await workers.poll(ok, timeout, what=what, every=0.1)
    return found[0]


async def test_the_worker_holding_the_game_is_killed_mid_vote(
        cluster_api: FakeBotAPI, workers: Workers, reader: Storage) -> None:
    api = cluster_api
    table = Table(api, workers, reader, GROUP, first_user_id=13001)
    _ = table._
    organiser = table.users[0]
    await organiser.say(GROUP, f"/settings vote {VOTE_SECONDS}")
    await table.wait_message(GROUP, _("vote {n} s").format(n=VOTE_SECONDS))
    await table.join_all()
    await table.start_game()
    st = await table.state()
    mafia, civilians = ids(st, Role.MAFIA), ids(st, Role.CIVILIAN)
    (doctor,) = ids(st, Role.DOCTOR)
    # as tests/e2e/test_restart.py: day 1 votes out a mafioso (three votes before the kill, one
    # right after it, the window's timer then moves on to the civilian, who gets the last two);
    # night 2 the other mafioso shoots that civilian; day 2 the town votes him out and wins
    plan = Plan(nominations={1: [lambda s: mafia[0], lambda s: civilians[0]], 2: [lambda s: mafia[1]]},
                kill=lambda s: civilians[0], heal=lambda s: doctor, check=lambda s: mafia[1])
    st = await table.play(plan, until=lambda s: s.phase is Phase.VOTING)
    assert vote_round(st).candidates == [mafia[0], civilians[0]] and vote_round(st).current == mafia[0]
    vote_button = table.act(st, "vote", mafia[0])
    voters = [table.by_id[p.user_id] for p in st.alive_active()]
    before, right_after, last = voters[:3], voters[3], voters[4:]
    for user in before:
        await table.do(user, GROUP, st, "vote", mafia[0])
    vote_id = table.message_with(GROUP, vote_button)
    assert vote_id is not None
    vote_message = api.message(GROUP, vote_id)
    target = seat_label(st, mafia[0])
    await table.wait(lambda: f"{target} — 3" in (vote_message.text or ""), "show 3 votes")
    await table.wait(lambda: not api.pending_updates, "acknowledge every update")

    owner = await workers.owner(GROUP)
    assert owner in workers.procs
    killed_at = await workers.kill(owner)
    crashed = await table.state()
    assert crashed.phase is Phase.VOTING and set(vote_round(crashed).votes) == {u.id for u in before}
    # pressed right after the kill: queued by a living worker for the game's shard
    await right_after.press(GROUP, vote_message.message_id, vote_button, wait_answer=False)
    pressed = list(api.callback_waiters.values())[-1]

    new_owner, took = await workers.wait_owner(GROUP, other_than=owner, since=killed_at,
                                               logged="1 open game(s) recovered")
    assert took <= TAKEOVER_BOUND, f"the game's shard was taken over after {took:.1f} s"
    print(f"takeover after SIGKILL: {took:.2f} s (LEASE_SECONDS={LEASE_SECONDS})")
    answer = await asyncio.wait_for(asyncio.shield(pressed), 20)
    assert answer.text == CONFIRM["vote"], answer
    # the steps whose messages had not all left the killed worker are shown again by the new
    # owner (bot/telegram/shown.py): the vote may stand in a fresh message now
    def newest_vote():
        return api.message(GROUP, table.message_with(GROUP, vote_button))

    await table.wait(lambda: f"{target} — 4" in (newest_vote().text or ""), "count the vote after the kill")
    vote_message = newest_vote()
    st = await table.state()
    assert st.phase is Phase.VOTING and vote_round(st).current == mafia[0]
    assert set(vote_round(st).votes) == {u.id for u in before + [right_after]}
    again = await before[0].press(GROUP, vote_message.message_id, vote_button, timeout=20)
    assert again is not None and again.text == _("You have already voted in this round.")

    # nobody else votes for him: the window's timer, armed again by the new owner, moves on
    st = await _wait_state(table, workers, lambda s: s.vote.current == civilians[0],
                           "close the first vote window on its timer", timeout=VOTE_SECONDS + 10)
    rows = await _log(reader, table.game_id)
    assert rows[-1][2] == "PhaseTimeout" and rows[-1][1] is None, rows[-3:]
    for user in last:
        await table.do(user, GROUP, st, "vote", civilians[0])
    await table.wait(lambda: _("🗳 Result of the vote:") in (vote_message.text or ""), "close the vote")
    assert f"{target} — 4" in vote_message.text, vote_message.text
    st = await table.state()
    assert not st.players[mafia[0]].alive and st.phase is Phase.LAST_WORD

    end = await table.play(plan)
    assert end.phase is Phase.ENDED and end.winner is Team.TOWN and end.day == 2
    await table.wait_message(GROUP, _("Roles:"))
    rows = await _log(reader, table.game_id)
    timeouts = [r for r in rows if r[2] == "PhaseTimeout"]
    assert len({r[0] for r in rows}) == len(rows)
    voted = [u for _s, u, kind in rows if kind == "CastVote"]
    assert len(voted) == len(set(voted)), "a vote's update applied twice"
    assert timeouts, "the timers fired"
    await api.settle(quiet=1.0, timeout=20)
    assert unanswered(api) == []
    assert workers.problems() == {}  # the killed worker's too, up to its end


async def _delivered_twice(workers: Workers, api: FakeBotAPI, update_id: int) -> list:
    """Wait until both copies of a duplicated update were acknowledged; returns the deliveries."""
    async def both() -> list:
        ok = [d for d in api.deliveries_of(update_id) if d.ok]
        return ok if {d.copy for d in ok} == {1, 2} else []

    return await workers.poll(both, 20, what=f"deliver update {update_id} twice")


async def test_duplicated_deliveries_and_two_presses_at_once_have_one_effect(
        cluster_api: FakeBotAPI, workers: Workers, reader: Storage) -> None:
    api = cluster_api
    table = Table(api, workers, reader, GROUP, first_user_id=14001)
    _ = table._
    await table.join_all()
    await table.start_game()
    st = await table.state()
    civilians, mafia = ids(st, Role.CIVILIAN), ids(st, Role.MAFIA)
    (commissar,), (doctor,) = ids(st, Role.COMMISSAR), ids(st, Role.DOCTOR)
    plan = Plan(nominations={1: [lambda s: civilians[0], lambda s: commissar]},
                kill=lambda s: civilians[1], heal=lambda s: doctor, check=lambda s: mafia[0])

    # the six "I have read my role" presses, each delivered again after its 200 (a lost answer)
    assert st.phase is Phase.READY
    api.duplicate_next_updates(6)
    st = await table.step(plan)
    st = await _wait_state(table, workers, lambda s: s.phase is not Phase.READY, "end the intro")
    twice = {d.update_id for d in api.webhook_deliveries if d.copy == 2}
    assert len(twice) == 6
    for update_id in twice:
        await _delivered_twice(workers, api, update_id)
    rows = await _log(reader, table.game_id)
    assert [r[2] for r in rows].count("MarkReady") == 6
    assert sorted(u for _s, u, kind in rows if u in twice) == sorted(twice), "each applied once"

    st = await table.play(plan, until=lambda s: s.phase is Phase.VOTING)
    voters = [table.by_id[p.user_id] for p in st.alive_active()]
    button = table.act(st, "vote", vote_round(st).current)
    message_id = table.message_with(GROUP, button)
    one, two, three = voters[:3]

    async def voted(user, **duplicate) -> list:
        length = len(await _log(reader, table.game_id))
        votes = len(vote_round(await table.state()).votes)
        api.duplicate_next_updates(1, **duplicate)
        await table.do(user, GROUP, st, "vote", vote_round(st).current)
        update_id = api.updates_log[-1]["update_id"]
        deliveries = await _delivered_twice(workers, api, update_id)
        await api.settle(quiet=0.5, timeout=20)
        assert len(await _log(reader, table.game_id)) == length + 1
        assert len(vote_round(await table.state()).votes) == votes + 1
        return deliveries

    # Telegram's retry after a 200 it never got: the copy goes to the next worker
    deliveries = await voted(one)
    assert deliveries[0].target != deliveries[1].target
    # both copies at the same moment, to two workers
    deliveries = await voted(two, at_once=True)
    assert deliveries[0].target != deliveries[1].target
    assert abs(deliveries[0].started - deliveries[1].started) < 0.1

    # two presses of the same vote button by the same player at once (two updates)
    length = len(await _log(reader, table.game_id))
    await three.press(GROUP, message_id, button, wait_answer=False)
    await three.press(GROUP, message_id, button, wait_answer=False)
    first, second = list(api.callback_waiters.values())[-2:]
    presses = [u["update_id"] for u in api.updates_log[-2:]]
    answers = await asyncio.wait_for(asyncio.gather(asyncio.shield(first), asyncio.shield(second)), 20)
    assert sorted(a.text or "" for a in answers) == sorted(
        [CONFIRM["vote"], _("You have already voted in this round.")]), answers
    await api.settle(quiet=0.5, timeout=20)
    rows = await _log(reader, table.game_id)
    assert len(rows) == length + 1
    assert len({d.target for u in presses for d in api.deliveries_of(u) if d.ok}) == 2, \
        "the two presses went to two workers"
    assert set(vote_round(await table.state()).votes) >= {one.id, two.id, three.id}

    duplicated = {d.update_id for d in api.webhook_deliveries if d.copy == 2}
    assert len(duplicated) == 8
    per_update = {u: sum(1 for r in rows if r[1] == u) for u in duplicated}
    assert set(per_update.values()) == {1}, per_update
    told = sum(p.all_logs().count("delivered again: handled once") for p in workers.procs.values())
    assert told == 8
    assert unanswered(api) == []
    assert workers.problems() == {}
