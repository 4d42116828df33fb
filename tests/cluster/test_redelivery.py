"""A command is applied once per Telegram update (issue 12): the log rows carry the update_id,
and an update handled again after its worker died (redelivered) applies nothing the log has."""

from __future__ import annotations

from bot.telegram.update_context import CURRENT_UPDATE, UpdateTag
from engine import game_of
from tests.bot.driver import join_all
from tests.bot.harness import make_harness


async def _log_len(h, game_id: int) -> int:
    return (await h.app.storage.get_game(game_id)).log_len


async def test_the_log_names_the_update_of_each_command(db_url: str) -> None:
    h = await make_harness(db_url, n_users=7)
    try:
        update = h.updates.group_command(-1001234567890, h.users[0], "/newgame")
        await h.feed(update)
        g = await h.game()
        assert await h.app.storage.update_applied(g.id, update.update_id)
        assert not await h.app.storage.update_applied(g.id, update.update_id + 1000)
    finally:
        await h.stop()


async def test_a_redelivered_update_is_not_applied_again(db_url: str) -> None:
    h = await make_harness(db_url, n_users=7)
    try:
        game_id = await join_all(h, h.users[:6])
        late = h.users[6]
        join = h.updates.private_text(late, f"/start join_{game_id}")
        await h.feed(join)
        assert late.id in (await h.game()).state.players
        await h.service.execute(game_id, lambda g: game_of(g.state).leave(late.id))
        length = await _log_len(h, game_id)
        assert late.id not in (await h.game()).state.players
        # the join's update once more, as the next owner would handle it after a crash
        token = CURRENT_UPDATE.set(UpdateTag(join.update_id, redelivered=True))
        try:
            await h.app.dp.feed_update(h.app.bot, join)
            await h.app.sender.drain()
        finally:
            CURRENT_UPDATE.reset(token)
        assert await _log_len(h, game_id) == length
        assert late.id not in (await h.game()).state.players
        # delivered afresh (not a redelivery) the same join applies: the check is what held it
        await h.feed(h.updates.private_text(late, f"/start join_{game_id}"))
        assert late.id in (await h.game()).state.players
    finally:
        await h.stop()


async def test_a_lobby_whose_first_command_fails_leaves_the_chat_free(db_url: str) -> None:
    """/newgame stores the game's row, then its CreateGame: when the second step fails (the
    chat's shard moved to another worker meanwhile) the row is cancelled, never left as an
    empty open game that would block the chat."""
    from bot.services.game_service import NotOwner

    h = await make_harness(db_url, n_users=2)
    try:
        real = h.service.execute

        async def moved(*args, **kwargs):
            raise NotOwner(-1001234567890)

        h.service.execute = moved
        try:
            await h.service.new_game(-1001234567890, h.users[0].id, "en", {})
        except NotOwner:
            pass
        else:
            raise AssertionError("NotOwner expected")
        h.service.execute = real
        assert await h.app.storage.active_game_for_chat(-1001234567890) is None
        await h.command(h.users[0], "/newgame")
        assert (await h.game()).state is not None
    finally:
        await h.stop()


async def test_work_that_outlives_its_update_is_not_stamped_with_it(db_url: str) -> None:
    """A timer armed while an update was handled runs in a copy of that update's context; once
    the update's handling is over, the commands it applies are not that update's (else a
    redelivered update's tag could make a later timer look 'already applied')."""
    import asyncio

    h = await make_harness(db_url, n_users=7)
    try:
        game_id = await join_all(h, h.users[:6])
        later: list[asyncio.Future] = []
        tag = UpdateTag(424242, redelivered=True)
        token = CURRENT_UPDATE.set(tag)
        try:  # a task started during the handling, running after it (like a timer)
            gate = asyncio.Event()

            async def timer() -> None:
                await gate.wait()
                await h.service.execute(game_id, lambda g: game_of(g.state).leave(h.users[5].id))

            later.append(asyncio.ensure_future(timer()))
        finally:
            tag.done = True
            CURRENT_UPDATE.reset(token)
        length = await _log_len(h, game_id)
        gate.set()
        await later[0]
        assert await _log_len(h, game_id) == length + 1  # applied, not skipped as redelivered
        assert not await h.app.storage.update_applied(game_id, 424242)  # and not stamped
    finally:
        await h.stop()
