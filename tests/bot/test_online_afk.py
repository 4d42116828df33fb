"""The online sport preset through the bot: the OFFLINE -> AFK clock (ONLINE-47..50, Q20) --
armed, fired, frozen by a pause, dropped on return, re-armed after a restart; a player who
blocked the bot does not flap. Real updates through ``feed_update``."""

from __future__ import annotations

from datetime import timedelta

from engine import OnlinePhase, Phase
from tests.bot.harness import GROUP, Harness, make_harness
from tests.bot.online_support import name, night_1, said, start_online, state, texts_of


def afk_job(h: Harness, game_id: int, uid: int):
    return h.deadlines.jobs.get(f"afk:{game_id}:{uid}")


async def fire_afk(h: Harness, game_id: int, uid: int) -> None:
    await h.deadlines.fire_job(f"afk:{game_id}:{uid}")
    await h.app.sender.drain()


async def test_ONLINE_47_48_50_a_blocked_player_turns_afk_after_500_s(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        blocked = h.users[2]  # joined, then blocked the bot: his role card fails with 403
        await h.command(h.users[0], "/newgame online")
        game_id = h.notes["game"] = (await h.game()).id
        for u in h.users:
            await h.dm(u, f"/start join_{game_id}")
        h.session.fail("sendMessage", chat_id=blocked.id, error_code=403, times=None)
        await h.command(h.users[0], "/startgame")
        st = await state(h)
        assert not st.players[blocked.id].active and not st.players[blocked.id].afk
        run_at, _func, args = afk_job(h, game_id, blocked.id)
        assert run_at == h.clock.now + timedelta(seconds=500) and args == (game_id, blocked.id)
        assert (await state(h)).phase is Phase.NIGHT  # nobody tapped: the meeting runs on
        h.clock.advance(500)
        await fire_afk(h, game_id, blocked.id)
        assert said(h, GROUP, f"⚫ {name(st, blocked.id)} is AFK: away too long, no longer "
                              "waited for.")
        st = await state(h)
        assert st.players[blocked.id].afk and afk_job(h, game_id, blocked.id) is None
        await h.fire()  # the meeting ends at its timer
        st = await state(h)
        assert st.phase is OnlinePhase.DISCUSSION and st.ballot.n == 5  # ONLINE-50: out of N
    finally:
        await h.stop()


async def test_ONLINE_Q20_a_pause_freezes_the_afk_clock_and_coming_back_drops_it(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        game_id = await start_online(h)
        await night_1(h)
        away = h.users[3]
        await h.command(away, "/away")
        assert afk_job(h, game_id, away.id)[0] == h.clock.now + timedelta(seconds=500)
        h.clock.advance(200)
        await h.command(h.users[0], "/pause")
        assert (await state(h)).pause is not None
        assert afk_job(h, game_id, away.id) is None  # frozen: nothing may fire while paused
        assert (await h.game()).ui["afk"][str(away.id)] == {"left": 300.0}
        late = h.users[4]  # OFFLINE during the pause: his clock starts frozen
        await h.command(late, "/away")
        assert afk_job(h, game_id, late.id) is None
        assert (await h.game()).ui["afk"][str(late.id)] == {"left": 500.0}
        h.clock.advance(3600)
        await h.command(h.users[0], "/resume")
        assert afk_job(h, game_id, away.id)[0] == h.clock.now + timedelta(seconds=300)
        assert afk_job(h, game_id, late.id)[0] == h.clock.now + timedelta(seconds=500)
        await h.command(away, "/back")  # ONLINE-49
        assert afk_job(h, game_id, away.id) is None
        assert (await state(h)).players[away.id].active
    finally:
        await h.stop()


async def test_ONLINE_48_the_afk_clock_survives_a_restart(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    stopped = False
    try:
        game_id = await start_online(h)
        await night_1(h)
        away = h.users[1]
        await h.command(away, "/away")
        due = afk_job(h, game_id, away.id)[0]
        h.clock.advance(100)
        await h.stop()
        stopped = True
    finally:
        if not stopped:
            await h.stop()
    h2 = await make_harness(sqlite_url, n_users=6, session=h.session, clock=h.clock)
    try:
        assert afk_job(h2, game_id, away.id)[0] == due  # re-armed from games.ui
        await fire_afk(h2, game_id, away.id)
        st = await state(h2)
        assert st.players[away.id].afk
        assert said(h2, GROUP, f"⚫ {name(st, away.id)} is AFK: away too long, no longer "
                               "waited for.")
    finally:
        await h2.stop()


async def test_ONLINE_47_a_player_who_blocked_the_bot_does_not_flap(sqlite_url: str):
    """Issue 20: each press of a player who blocked the bot brought "is back" and "cannot be
    reached" again (two group messages a press); now the group is told once, and he is told
    nothing more until a DM reaches him."""
    h = await make_harness(sqlite_url, n_users=6)
    try:
        blocked = h.users[2]
        await h.command(h.users[0], "/newgame online")
        game_id = h.notes["game"] = (await h.game()).id
        for u in h.users:
            await h.dm(u, f"/start join_{game_id}")
        h.session.fail("sendMessage", chat_id=blocked.id, error_code=403, times=None)
        await h.command(h.users[0], "/startgame")
        await h.fire()  # night 1 ends at its timer
        assert (await state(h)).phase is OnlinePhase.DISCUSSION
        for _ in range(3):
            await h.command(blocked, "/back")  # accepted: back... and the role card fails again
            await h.app.sender.drain()
        group = texts_of(h, GROUP)
        assert sum("cannot be reached" in t for t in group) == 1
        assert not any("is back" in t for t in group)
        assert not (await state(h)).players[blocked.id].active
    finally:
        await h.stop()
