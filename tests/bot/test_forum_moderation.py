"""The forum host's removals through the bot (issue 20, found when the forum was tried again with
a host): one tap on 🟥 removed a player at once; the group got two messages for one removal;
a removal that decided the game during the vote left the ballot's buttons live to the end; the
cards' reveal showed ☠️ for a removed player (🟥 in the final list), and 🏆 for a removed
player of the winning side. FORUM-17, 18, Q08, X24."""

from __future__ import annotations

from bot.ui.callbacks import Act
from engine import ForumPhase, Team
from tests.bot.driver import press_action
from tests.bot.harness import GROUP, Harness, make_harness
from tests.bot.test_forum import open_forum, state


def panel(h: Harness, host_id: int) -> dict:
    """The host's newest moderation panel."""
    return next(m for m in reversed(h.messages(host_id)) if "Moderation" in m.get("text", "")
                or "Disqualify" in m.get("text", ""))


def grid(message: dict) -> list[list[tuple[str, str]]]:
    """(text, code) of each button, row by row."""
    return [[(b["text"], Act.unpack(b["callback_data"]).a) for b in row]
            for row in message["reply_markup"]["inline_keyboard"]]


async def tap(h: Harness, user, code: str, seat: int = 0) -> str | None:
    g = await h.game()
    mid = panel(h, user.id)["message_id"]
    return await h.press(user, user.id, mid, Act(g=g.id, s=0, a=code, t=seat).pack())


async def to_ballot(h: Harness) -> None:
    st = await state(h)
    for p in st.alive():  # night 1: everybody sleeps
        if (await state(h)).phase is not ForumPhase.DEBATE:
            await press_action(h, h.user(p.user_id), p.user_id, "sleep")
    st = await state(h)
    assert st.phase is ForumPhase.DEBATE, st.phase
    for p in st.alive_active():
        if (await state(h)).phase is ForumPhase.DEBATE:
            assert await press_action(h, h.user(p.user_id), GROUP, "ready") == "✅"
    assert (await state(h)).phase is ForumPhase.BALLOT


async def test_FORUM_18_a_removal_is_confirmed_first_and_told_once(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        players, host = h.users[:5], h.users[5]
        await open_forum(h, "", players, host)
        await h.command(players[0], "/startgame")
        st = await state(h)
        victim = next(p for p in st.alive() if p.team is Team.TOWN)
        shape = [len(row) for row in grid(panel(h, host.id))]

        assert await tap(h, host, "?dq", victim.seat) == "Press ✅ Confirm or ✖ Cancel."
        st = await state(h)
        assert st.players[victim.user_id].alive  # one tap removes nobody
        asking = panel(h, host.id)
        assert asking["text"].startswith(f"🟥 Disqualify №{victim.seat} {victim.name}?")
        rows = grid(asking)
        assert [len(row) for row in rows] == shape  # nothing moves under the finger
        row = rows[victim.seat - 1]
        assert row == [("✅ Confirm", "dq"), ("✖ Cancel", "cx")]  # a second tap on 🟥 cancels
        assert {c for r in rows if r is not row for _t, c in r} == {"nop"}
        assert await press_action(h, players[1], host.id, "dq", victim.seat) is not None  # a player
        assert (await state(h)).players[victim.user_id].alive
        assert await tap(h, host, "cx") == "Cancelled."
        assert [c for _t, c in grid(panel(h, host.id))[victim.seat - 1]] == ["warn", "?dq"]

        mark = len(h.sent(GROUP, ("sendMessage",)))
        await tap(h, host, "?dq", victim.seat)
        assert await tap(h, host, "dq", victim.seat) == "🟥"
        await h.app.sender.drain()
        assert not (await state(h)).players[victim.user_id].alive
        told = [t for t in h.sent_texts(GROUP, ("sendMessage",))[mark:] if "🟥" in t]
        assert len(told) == 1, told  # not "is removed" and then "is disqualified" again
        assert told[0].startswith(f"🟥 №{victim.seat} {victim.name} is removed from the game.")
        assert "Card: 🙂 Civilian." in told[0] or "Card:" in told[0]
        assert all(c in ("warn", "?dq") for r in grid(panel(h, host.id)) for _t, c in r)
    finally:
        await h.stop()


async def test_a_removal_that_decides_the_game_closes_the_ballot(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=5)
    try:
        players, host = h.users[:4], h.users[4]
        await open_forum(h, "", players, host)
        await h.command(players[0], "/startgame")
        await to_ballot(h)
        g = await h.game()
        ballot = g.ui["ballot"]
        st = g.state
        mafia = next(p for p in st.alive() if p.team is Team.MAFIA)
        await tap(h, host, "?dq", mafia.seat)
        assert await tap(h, host, "dq", mafia.seat) == "🟥"  # the only mafioso: the town wins
        await h.app.sender.drain()
        st = await state(h)
        assert st.phase is not ForumPhase.BALLOT
        assert not (h.message(GROUP, ballot).get("reply_markup") or {}).get("inline_keyboard")
        for _ in range(10):  # the after-game: the bonus offer, the cards, the best player
            if (await h.game()) is None:
                break
            await h.fire()
        cards = next(t for t in h.sent_texts(GROUP) if t.startswith("🎭 The cards"))
        line = next(x for x in cards.splitlines() if x.startswith(f"№{mafia.seat} "))
        assert "🟥" in line and "☠️" not in line, line
        assert not [b for chat in (GROUP, *(u.id for u in h.users)) for _m, b in h.buttons(chat)
                    if (b.get("callback_data") or "").startswith(f"a:{g.id}:")]
    finally:
        await h.stop()


async def test_FORUM_X24_a_removed_player_is_no_winner_in_the_reveal(sqlite_url: str):
    """Issue 20: a removed player was shown 🏆 in the final reveal. His side wins, he does not:
    🟥 and no 🏆 on his card's line, and he is not in the result's «Winners»."""
    h = await make_harness(sqlite_url, n_users=6)
    try:
        players, host = h.users[:5], h.users[5]
        await open_forum(h, "", players, host)
        await h.command(players[0], "/startgame")
        st = await state(h)
        removed = next(p for p in st.alive() if p.team is Team.TOWN)
        mafia = [p for p in st.alive() if p.team is Team.MAFIA]
        for p in (removed, *mafia):  # a townsman, then the Mafia: the town wins
            await tap(h, host, "?dq", p.seat)
            assert await tap(h, host, "dq", p.seat) == "🟥"
        await h.app.sender.drain()
        assert (await state(h)).winner is Team.TOWN
        for _ in range(10):  # the after-game: the bonus offer, the cards, the best player
            if (await h.game()) is None:
                break
            await h.fire()
        await h.app.sender.drain()
        cards = next(t for t in h.sent_texts(GROUP) if t.startswith("🎭 The cards"))
        lines = {int(x[1:].split()[0]): x for x in cards.splitlines() if x.startswith("№")}
        assert "🟥" in lines[removed.seat] and "🏆" not in lines[removed.seat], cards
        town = [p for p in st.seated() if p.team is Team.TOWN and p is not removed]
        assert all("🏆" in lines[p.seat] for p in town), cards
        result = next(t for t in h.sent_texts(GROUP) if "Winners:" in t)
        winners = next(x for x in result.splitlines() if x.startswith("Winners:"))
        assert removed.name not in winners and all(p.name in winners for p in town), winners
    finally:
        await h.stop()


async def test_FORUM_Q16_the_hosts_decision_on_a_tied_revote_closes_once_made(sqlite_url: str):
    """Issue 20 (the forum tried again with a host): the host's «☠️ …» / «🕊 Nobody» message for
    a tied revote kept its buttons after his decision and to the end of the game."""
    h = await make_harness(sqlite_url, n_users=5)
    try:
        players, host = h.users[:4], h.users[4]
        await open_forum(h, "", players, host)
        await h.command(players[0], "/startgame")
        await to_ballot(h)
        st = await state(h)
        a, b, c, d = [p.user_id for p in sorted(st.alive(), key=lambda p: p.seat)]
        for voter, target in ((a, c), (b, d), (c, d), (d, c)):  # 2-2: a revote of c and d
            await press_action(h, h.user(voter), GROUP, "vote", st.players[target].seat)
        await h.fire()
        st = await state(h)
        for voter, target in ((a, c), (b, d)):  # 1-1 again: the host decides
            if (await state(h)).forum.stage == "revote":
                await press_action(h, h.user(voter), GROUP, "vote", st.players[target].seat)
        if (await state(h)).forum.stage != "host":
            await h.fire()
        st = await state(h)
        assert st.forum.stage == "host", st.forum.stage
        decide = [mid for mid, b in h.buttons(host.id)
                  if (b.get("callback_data") or "").startswith("a:") and
                  Act.unpack(b["callback_data"]).a == "hd"]
        assert decide
        assert await press_action(h, host, host.id, "hd", 0) == "⚖️"  # nobody leaves
        await h.app.sender.drain()
        assert (await state(h)).phase is not ForumPhase.BALLOT
        assert not [b for mid, b in h.buttons(host.id) if mid in decide]
    finally:
        await h.stop()


async def test_a_stop_in_the_discussion_or_the_vote_closes_its_buttons(sqlite_url: str):
    """Issue 20 (the forum tried again with /stop): the ballot's «🗳 …» stayed live after a
    /stop in the vote; the discussion's «Ready to vote» after a /stop in the discussion."""
    h = await make_harness(sqlite_url, n_users=5)
    try:
        players, host = h.users[:4], h.users[4]
        h.session.set_member(GROUP, players[0].id, "administrator")
        for where in ("debate", "ballot"):
            await open_forum(h, "", players, host)
            await h.command(players[0], "/startgame")
            if where == "ballot":
                await to_ballot(h)
            else:
                st = await state(h)
                for p in st.alive():
                    if (await state(h)).phase is not ForumPhase.DEBATE:
                        await press_action(h, h.user(p.user_id), p.user_id, "sleep")
                assert (await state(h)).phase is ForumPhase.DEBATE
            mid = (await h.game()).ui[where]
            assert h.message(GROUP, mid)["reply_markup"]["inline_keyboard"]
            await h.command(players[0], "/stop")
            await h.app.sender.drain()
            assert await h.game() is None
            assert not (h.message(GROUP, mid).get("reply_markup") or {}).get("inline_keyboard"), where
    finally:
        await h.stop()
