"""Issue 10, item 6: drafts (multi-tap choices in progress, bot/ui/drafts.py) survive a restart:
the online best move's picks, the forum Journalist's first player and the bonus form."""

from __future__ import annotations

from bot.ui import drafts
from engine import ForumActions, OnlinePhase, Phase, Role, legal_actions
from tests.bot.driver import press_action
from tests.bot.harness import make_harness
from tests.bot.online_support import (
    all_pass,
    blacks,
    night,
    night_1,
    reds,
    seat_of,
    start_online,
    state,
)
from tests.bot.test_forum import _day, open_forum


async def _restart(h, sqlite_url, n_users):
    await h.app.service.drain()  # the background ui write, as a clean stop does
    await h.stop()
    h2 = await make_harness(sqlite_url, n_users=n_users, session=h.session)
    h2.notes.update(h.notes)
    return h2


async def test_ONLINE_08_best_move_picks_survive_a_restart(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_online(h)
        await night_1(h)
        st = await all_pass(h)
        victim = reds(st)[0]
        await night(h, {b: victim for b in blacks(st)})
        st = await state(h)
        assert st.phase is OnlinePhase.BEST_MOVE and st.speaker == victim
        picks = blacks(st) + [u for u in reds(st) if u != victim][:1]
        v = h.user(victim)
        assert await press_action(h, v, victim, "bm", seat_of(st, picks[0])) == "1 of 3 chosen."
        assert await press_action(h, v, victim, "bm", seat_of(st, picks[1])) == "2 of 3 chosen."
        h = await _restart(h, sqlite_url, 6)
        g = await h.game()
        assert drafts.best_move(g) == picks[:2]
        st = g.state
        assert await press_action(h, h.user(victim), victim, "bm",
                                  seat_of(st, picks[2])) == "🎯"
        assert (await h.game()).ui["best_move"] == [victim, picks]
    finally:
        await h.stop()


async def test_FORUM_journalists_first_player_survives_a_restart(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=13)
    try:
        players, host = h.users[:12], h.users[12]
        await open_forum(h, "journalist", players, host)
        await h.command(players[0], "/startgame")
        st = await state(h)
        for p in st.alive():
            st = await state(h)
            if st.phase is Phase.NIGHT and st.night == 1:
                await press_action(h, h.user(p.user_id), p.user_id, "sleep")
        st = await state(h)
        civ = next(p.user_id for p in st.seated() if p.role is Role.CIVILIAN)
        await _day(h, civ)
        st = await state(h)
        assert st.phase is Phase.NIGHT and st.night == 2, st.phase
        j = next(p.user_id for p in st.alive() if p.role is Role.JOURNALIST)
        la = legal_actions(st, j)
        assert isinstance(la, ForumActions)
        a, b = la.compare[:2]
        assert await press_action(h, h.user(j), j, "cmp", st.players[a].seat) == "📰"
        h = await _restart(h, sqlite_url, 13)
        g = await h.game()
        assert drafts.pair_first(g, j) == a
        log_len = await h.log_len(g.id)
        assert await press_action(h, h.user(j), j, "cmp", g.state.players[b].seat) == "📰"
        assert await h.log_len(g.id) == log_len + 1  # the pair went to the engine
        assert drafts.pair_first(await h.game(), j) is None
    finally:
        await h.stop()


async def test_FORUM_bonus_form_is_kept_in_the_stored_ui(sqlite_url: str):
    """A half-filled bonus form is in ``games.ui`` (what a restart reloads), and a draft of
    another phase reads as empty."""
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_online(h)
        g = await h.game()
        uid = h.users[0].id
        drafts.set_bonus(g, uid, {h.users[1].id: "mafia", h.users[2].id: "civilian"})
        h.service.persist_ui_soon(g)
        await h.service.drain()
        rec = await h.service.storage.get_game(g.id)
        assert rec.ui["drafts"][f"bg:{uid}"]["v"] == {str(h.users[1].id): "mafia",
                                                        str(h.users[2].id): "civilian"}
        h = await _restart(h, sqlite_url, 6)
        g = await h.game()
        assert drafts.bonus(g, uid) == {h.users[1].id: "mafia", h.users[2].id: "civilian"}
        await night_1(h)  # the next phase: the old draft reads as empty
        assert drafts.bonus(await h.game(), uid) == {}
    finally:
        await h.stop()
