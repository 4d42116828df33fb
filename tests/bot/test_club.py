"""The club preset through the bot: /newgame club, the meeting, blind shots, dawn checks,
fouls from the judge's commands and console (docs/rules/club.md)."""

from __future__ import annotations

from bot.ui.texts import ROLE_ICONS, ROLE_NAMES
from engine import Phase, Role
from engine.club.state import fouls_of
from tests.bot.driver import play_to_end, press_action
from tests.bot.harness import GROUP, make_harness
from tests.fakes.updates import FakeUser

ADMIN = FakeUser(900_000_000_001, "Admin")


async def club_game(h, host: FakeUser | None = None) -> int:
    await h.command(h.users[0], "/newgame club")
    g = await h.game()
    assert g.state.ruleset == "club"
    if host is not None:
        await h.dm(host, f"/start host_{g.id}")
    for u in h.users:
        await h.dm(u, f"/start join_{g.id}")
    await h.command(h.users[0], "/startgame")
    st = (await h.game()).state
    assert st.phase is Phase.NIGHT and st.timer.kind == "meeting"  # CLUB-08
    return g.id


async def test_CLUB_01_a_club_game_needs_ten_players(sqlite_url):
    h = await make_harness(sqlite_url, n_users=9)
    try:
        await h.command(h.users[0], "/newgame club")
        g = await h.game()
        for u in h.users:
            await h.dm(u, f"/start join_{g.id}")
        await h.command(h.users[0], "/startgame")
        assert (await h.game()).state.phase is Phase.LOBBY
        assert "Not enough players yet." in h.texts(GROUP)[-1]
    finally:
        await h.stop()


async def test_CLUB_full_game_through_the_bot_ends_with_the_reveal(sqlite_url):
    h = await make_harness(sqlite_url, n_users=10)
    try:
        game_id = await club_game(h)
        await play_to_end(h, seed=5)
        st = (await h.service.live(game_id)).state
        assert st.over and st.winner is not None
        texts = [t for t in h.texts(GROUP) if t]  # the sheet's picture after it (SCORE-X10)
        final = texts[-1]
        for p in st.seated():
            assert f"№{p.seat} " in final
        # nothing before the result names a role (CLUB-26, CLUB-40)
        pairs = [f"{ROLE_ICONS[r]} {ROLE_NAMES[r]}" for r in ROLE_ICONS]
        for text in texts[:-1]:
            assert not any(pair in text for pair in pairs), text
    finally:
        await h.stop()


async def test_CLUB_36_38_fouls_by_command_then_disqualification(sqlite_url):
    h = await make_harness(sqlite_url, n_users=10)
    try:
        game_id = await club_game(h)
        h.session.set_member(GROUP, ADMIN.id, "administrator")
        target = (await h.service.live(game_id)).state.by_seat(4)
        # a player cannot foul (CLUB-41)
        await h.command(h.users[1], "/foul 4")
        assert "Only the host or a group admin" in h.texts(GROUP)[-1]
        assert fouls_of((await h.service.live(game_id)).state, target.user_id) == 0
        for n in range(1, 4):
            await h.command(ADMIN, "/foul 4")
            st = (await h.service.live(game_id)).state
            assert fouls_of(st, target.user_id) == n
            assert f"({n} of 4)" in h.texts(GROUP)[-1]
        assert target.user_id in st.club.silenced  # CLUB-37
        await h.command(ADMIN, "/foul 4")
        st = (await h.service.live(game_id)).state
        assert not st.players[target.user_id].alive  # CLUB-38: out at once
        assert any("disqualified" in t for t in h.texts(GROUP))
        await h.command(ADMIN, "/unfoul 5")  # nothing to take back: a refusal, no change
        st = (await h.service.live(game_id)).state
        assert fouls_of(st, st.by_seat(5).user_id) == 0
        # issue 20: the final list shows the disqualified seat with 🟥, not ☠️
        await play_to_end(h, seed=5)
        final = [t for t in h.texts(GROUP) if t][-1]  # the sheet's picture after it (SCORE-X10)
        line = next(t for t in final.split("\n") if t.startswith(f"№4 {target.name}"))
        assert line.endswith(" 🟥") and "☠️" not in line
        await h.command(ADMIN, "/foul 3")  # after the end: there is no game, not "you do not play"
        assert h.texts(GROUP)[-1] == "There is no open game here. /newgame starts one."
    finally:
        await h.stop()


async def test_CLUB_Q08_the_judges_console_gives_fouls_and_others_cannot(sqlite_url):
    host = FakeUser(900_000_000_002, "Judge")
    h = await make_harness(sqlite_url, n_users=10)
    try:
        game_id = await club_game(h, host=host)
        st = (await h.service.live(game_id)).state
        assert st.host == host.id
        seat3 = st.by_seat(3).user_id
        # the console came with the roles; a foul button for seat 3
        answer = await press_action(h, host, host.id, "foul", 3)
        assert answer == "⚠️"
        assert fouls_of((await h.service.live(game_id)).state, seat3) == 1
        # a player pressing the judge's button (forged) is refused by the engine
        data = next(b["callback_data"] for _, b in h.buttons(host.id)
                    if b.get("callback_data", "").endswith(":foul:3"))
        mid = next(m for m, b in h.buttons(host.id) if b.get("callback_data") == data)
        answer = await h.press(h.users[0], host.id, mid, data)
        assert fouls_of((await h.service.live(game_id)).state, seat3) == 1
        assert answer != "⚠️"
        # /panel sends the console again, to the judge only
        before = len(h.texts(host.id))
        await h.dm(host, "/panel")
        assert len(h.texts(host.id)) > before
    finally:
        await h.stop()


def console_ids(h, chat_id: int) -> set[int]:
    """The messages of ``chat_id`` that still carry a live foul button."""
    return {mid for mid, b in h.buttons(chat_id) if b.get("callback_data", "").endswith(":foul:3")}


async def test_CLUB_Q08_every_console_loses_its_buttons_replaced_and_at_the_end(sqlite_url):
    """Issue 20: /panel's console replaces the first (which loses its buttons); after /stop no
    console keeps a live button."""
    host = FakeUser(900_000_000_002, "Judge")
    h = await make_harness(sqlite_url, n_users=10)
    try:
        await club_game(h, host=host)
        first = console_ids(h, host.id)
        assert len(first) == 1
        await h.dm(host, "/panel")
        now = console_ids(h, host.id)
        assert len(now) == 1 and now != first  # the first console's buttons went
        await h.command(h.users[0], "/stop")
        assert not console_ids(h, host.id)
        assert not any(b.get("callback_data") for _, b in h.buttons(host.id))
    finally:
        await h.stop()


async def test_CLUB_31_32_checks_arrive_at_dawn_privately(sqlite_url):
    h = await make_harness(sqlite_url, n_users=10)
    try:
        game_id = await club_game(h)
        await h.fire()  # the meeting ends
        g = await h.service.live(game_id)
        # through day 1 with no nominations
        while g.state.phase is Phase.SPEECH:
            await h.fire()
        st = g.state
        assert st.phase is Phase.NIGHT and st.night == 2
        by_id = {u.id: u for u in h.users}
        sheriff = next(p for p in st.alive() if p.role is Role.SHERIFF)
        don = next(p for p in st.alive() if p.role is Role.DON)
        civ = next(p for p in st.alive() if p.role is Role.CIVILIAN)
        assert await press_action(h, by_id[sheriff.user_id], sheriff.user_id, "scheck", don.seat) == "⭐"
        assert await press_action(h, by_id[don.user_id], don.user_id, "dcheck", civ.seat) == "🎩"
        texts = h.texts(sheriff.user_id)
        assert not any("black" in t and f"№{don.seat}" in t and "⭐" in t for t in texts[-1:])
        await h.fire()  # dawn
        assert "black" in " ".join(h.texts(sheriff.user_id)[-3:])
        assert "not the Sheriff" in " ".join(h.texts(don.user_id)[-3:])
        assert not any(" is black" in t or "is the Sheriff" in t for t in h.texts(GROUP))
        assert any(" is black" in t for t in h.texts(sheriff.user_id))
    finally:
        await h.stop()


async def test_CLUB_39_a_vote_cancelled_or_stopped_loses_its_buttons(sqlite_url):
    """Issue 20 (the club tried again with a judge): a disqualification during the vote cancels
    it (CLUB-39), and its message kept «Against …» and its ▶️ to the end of the game; a /stop
    during a vote left them too. The message shows where the vote stood, without buttons."""
    from tests.bot.helpers import drive_until

    h = await make_harness(sqlite_url, n_users=10)
    try:
        h.session.set_member(GROUP, ADMIN.id, "administrator")
        for how in ("/disqualify", "/stop"):
            await club_game(h)
            st = await drive_until(h, lambda s: s.phase is Phase.VOTING and s.vote is not None
                                   and len(s.vote.candidates) > 1, seed=3)
            g = await h.game()
            vote = g.ui["vote"]
            assert h.message(GROUP, vote)["reply_markup"]["inline_keyboard"]
            out = next(p for p in st.alive() if p.user_id not in st.vote.candidates)
            await h.command(ADMIN, f"{how} {out.seat}" if how == "/disqualify" else how)
            await h.app.sender.drain()
            if how == "/disqualify":
                st = (await h.game()).state
                assert not st.players[out.user_id].alive and st.phase is not Phase.VOTING
            shown = h.message(GROUP, vote)
            assert not (shown.get("reply_markup") or {}).get("inline_keyboard"), how
            assert "▶️" not in shown["text"] and shown["text"].startswith("🗳 Vote"), shown["text"]
            if how == "/disqualify":
                await h.command(ADMIN, "/stop")
    finally:
        await h.stop()
