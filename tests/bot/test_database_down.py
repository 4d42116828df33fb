"""The database failing while a timer fires (issue 12's newcomer trial): the deadline is tried
again later instead of being lost, so a game never waits for a press that may never come."""

from __future__ import annotations

from tests.bot.driver import join_all
from tests.bot.harness import Harness, make_harness


async def stored_log_len(h: Harness, game_id: int) -> int:
    """The game's stored command count, read straight from storage."""
    record = await h.app.storage.get_game(game_id)
    assert record is not None, game_id
    return record.log_len


async def test_a_deadline_that_fires_while_the_database_is_away_fires_again(
        sqlite_url: str) -> None:
    h = await make_harness(sqlite_url, n_users=7)
    try:
        game_id = await join_all(h)
        await h.command(h.users[0], "/startgame")
        seq, _at = h.deadlines.pending[game_id]
        length = await stored_log_len(h, game_id)
        real, calls = h.service.execute, []

        async def down(*args, **kwargs):
            calls.append(1)
            if len(calls) == 1:
                raise ConnectionRefusedError(111, "Connect call failed")
            return await real(*args, **kwargs)

        h.service.execute = down
        await h.deadlines.fire_now(game_id)
        assert game_id in h.deadlines.pending, "armed again"
        again_seq, at = h.deadlines.pending[game_id]
        assert again_seq == seq and (at - h.clock()).total_seconds() == 5
        assert await stored_log_len(h, game_id) == length  # nothing yet
        await h.deadlines.fire_now(game_id)
        assert await stored_log_len(h, game_id) == length + 1  # the timer's work
        assert h.service._deadline_retries == {}
    finally:
        await h.stop()


async def test_a_deadline_failing_for_another_reason_is_not_retried(sqlite_url: str) -> None:
    h = await make_harness(sqlite_url, n_users=7)
    try:
        game_id = await join_all(h)
        await h.command(h.users[0], "/startgame")

        async def broken(*args, **kwargs):
            raise RuntimeError("a bug")

        h.service.execute = broken
        await h.deadlines.fire_now(game_id)
        assert game_id not in h.deadlines.pending
    finally:
        await h.stop()
