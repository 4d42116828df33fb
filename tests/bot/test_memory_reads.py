"""Which game a chat or user is in, answered from memory (issue 11, bot/services/index.py): the
same answers as the store's at every step of a game, without a query once memory holds every
open game, and the store asked whenever memory cannot know."""

from __future__ import annotations

import random
from contextlib import contextmanager

from sqlalchemy import event

from engine import game_of
from tests.bot.driver import step
from tests.bot.harness import GROUP, Harness

OUTSIDER = 555_000_001  #: a user in no game


@contextmanager
def statements(h: Harness):
    """Collects the SELECTs the store runs inside the block."""
    seen: list[str] = []
    engine = h.service.storage.engine.sync_engine

    def note(_conn, _cursor, statement, *_args) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            seen.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)


async def agree(h: Harness, user_ids: list[int]) -> None:
    """Memory and store give the same game for the group and for every user."""
    service, storage = h.service, h.service.storage
    for uid in user_ids:
        assert await service.game_for_user(uid) == await storage.active_game_for_user(uid), uid
    rec = await storage.active_game_for_chat(GROUP)
    assert await service.game_for_chat(GROUP) == (rec.id if rec else None)


async def test_memory_answers_as_the_store_does_through_a_whole_game(h: Harness):
    ids = [u.id for u in h.users] + [OUTSIDER]
    assert h.service.complete  # one process, recovered at start
    await agree(h, ids)
    await h.command(h.users[0], "/newgame")
    g = await h.game()
    await agree(h, ids)
    for u in h.users:
        await h.dm(u, f"/start join_{g.id}")
    await agree(h, ids)
    leaver = h.users[-1].id
    await h.service.execute(g.id, lambda live: game_of(live.state).leave(leaver))
    await agree(h, ids)
    assert await h.service.game_for_user(leaver) is None
    await h.dm(h.users[-1], f"/start join_{g.id}")
    assert await h.service.game_for_user(leaver) == g.id
    await h.command(h.users[0], "/startgame")
    rng, steps = random.Random(3), 0
    while await step(h, rng):
        steps += 1
        if steps % 7 == 0:
            await agree(h, ids)
    assert (await h.game()) is None or (await h.game()).state.over
    await agree(h, ids)
    assert await h.service.game_for_chat(GROUP) is None


async def test_no_query_for_the_game_of_a_chat_or_user_nor_the_chat_settings(h: Harness):
    await h.command(h.users[0], "/newgame")
    g = await h.game()
    for u in h.users:
        await h.dm(u, f"/start join_{g.id}")
    with statements(h) as seen:
        for u in h.users:
            assert await h.service.game_for_user(u.id) == g.id
        assert await h.service.game_for_user(OUTSIDER) is None
        assert await h.service.game_for_chat(GROUP) == g.id
        assert await h.service.game_for_chat(GROUP - 1) is None
        assert (await h.service.storage.get_chat_settings(GROUP)).locale is None
    assert seen == []


async def test_before_recovery_or_with_many_workers_the_store_is_asked(h: Harness):
    await h.command(h.users[0], "/newgame")
    g = await h.game()
    player = h.users[1].id
    await h.dm(h.users[1], f"/start join_{g.id}")
    service = h.service
    service.complete = False  # e.g. while the open games are still being recovered
    service.games.pop(g.id)  # not loaded yet
    with statements(h) as seen:
        assert await service.game_for_user(player) == g.id
        assert await service.game_for_chat(GROUP) == g.id
        assert await service.game_for_user(OUTSIDER) is None
    assert len(seen) == 3
    await service.live(g.id)
    service.complete = True
    service.owns = lambda chat_id: chat_id != GROUP  # many workers: the group moved away
    with statements(h) as seen:
        assert await service.game_for_user(player) == g.id  # not from the copy in memory
        assert await service.game_for_chat(GROUP) == g.id
        assert await service.game_for_user(OUTSIDER) is None  # "none" is never memory's word
    assert len(seen) == 3
    service.owns = None


async def test_a_group_that_became_a_supergroup_takes_its_game_along(h: Harness):
    await h.command(h.users[0], "/newgame")
    g = await h.game()
    new = GROUP - 777
    await h.service.storage.move_chat(GROUP, new)  # e.g. the Sender's migrate_to_chat_id
    assert g.chat_id == new
    assert await h.service.game_for_chat(new) == g.id
    assert await h.service.game_for_chat(GROUP) is None
