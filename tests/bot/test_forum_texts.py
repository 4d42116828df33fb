"""Issue 10 item 6, forum: the texts a newcomer found wrong — the night-1 DM names the button it
sits under, no "meet the host" without a host, a lone mafioso is not told about a team, the
lobby's role toggles name the roles (real updates through ``Dispatcher.feed_update``)."""

from __future__ import annotations

import re

from bot.ui.texts import ROLE_NAMES
from engine import ForumPhase, Phase, Role, Team
from tests.bot.driver import press_action
from tests.bot.harness import GROUP, Harness, make_harness
from tests.fakes.telegram import plain_text


async def _forum(h: Harness, players) -> None:
    await h.command(players[0], "/newgame forum")
    g = await h.game()
    for u in players:
        await h.dm(u, f"/start join_{g.id}")
    await h.command(players[0], "/startgame")


def _dm_texts(h: Harness, uid: int) -> list[str]:
    return [plain_text(t) for t in h.sent_texts(uid)]


async def test_FORUM_03_lobby_role_toggles_name_their_roles(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=5)
    try:
        await h.command(h.users[0], "/newgame forum")
        toggles = [b for _, b in h.buttons(GROUP) if ":role:" in (b.get("callback_data") or "")]
        names = {b["callback_data"].rsplit(":", 1)[1] for b in toggles}
        assert {"commissar", "doctor", "maniac", "putana", "cop"} <= names
        for b in toggles:
            role = Role(b["callback_data"].rsplit(":", 1)[1])
            assert ROLE_NAMES[role] in b["text"], b["text"]
    finally:
        await h.stop()


async def test_FORUM_50_no_host_no_meeting_with_him_and_a_lone_mafioso_has_no_team(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=5)
    try:
        await _forum(h, h.users)
        st = (await h.game()).state
        assert st.phase is Phase.NIGHT and st.night == 1 and st.host is None
        mafia = [p.user_id for p in st.seated() if p.team is Team.MAFIA]
        assert len(mafia) == 1
        lone = _dm_texts(h, mafia[0])
        assert any("You are the only mafioso." in t for t in lone)
        assert not any("passed to your team" in t for t in lone)
        for u in h.users:
            texts = _dm_texts(h, u.id)
            assert not any("meet the host" in t for t in texts), texts
        assert any("Night 1: you wake as" in t for t in lone)
    finally:
        await h.stop()


async def test_FORUM_50_the_night_1_dm_names_the_button_under_it_ru(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=5, default_locale="ru")
    try:
        await _forum(h, h.users)
        for u in h.users:
            night = [m for m in h.messages(u.id) if (m.get("reply_markup") or {}).get("inline_keyboard")
                     and "Ночь 1" in m.get("text", "")]
            assert night, [m.get("text") for m in h.messages(u.id)]
            buttons = [b["text"] for row in night[-1]["reply_markup"]["inline_keyboard"] for b in row]
            sleep = next(t for t in buttons if t.startswith("💤"))
            # issue 11: the role card heads night 1's message; its «chat title» is no button
            title = (await h.game()).ui.get("title")
            quoted = [q for q in re.findall(r"«([^»]+)»", night[-1]["text"]) if q != title]
            assert quoted and all(q in sleep for q in quoted), (quoted, sleep)
    finally:
        await h.stop()


async def test_FORUM_13_a_finished_last_word_loses_its_buttons_in_the_group_and_in_private(
        sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=5)
    try:
        await _forum(h, h.users)
        st = (await h.game()).state
        for p in st.alive():
            await press_action(h, h.user(p.user_id), p.user_id, "sleep")
        st = (await h.game()).state
        assert st.phase is ForumPhase.DEBATE, st.phase
        for p in st.alive_active():
            if (await h.game()).state.phase is ForumPhase.DEBATE:
                assert await press_action(h, h.user(p.user_id), GROUP, "ready") == "✅"
        st = (await h.game()).state
        assert st.phase is ForumPhase.BALLOT
        civ = next(p for p in st.seated() if p.role is Role.CIVILIAN)
        other = next(p for p in st.alive() if p.user_id != civ.user_id)
        for p in st.alive():
            if (await h.game()).state.phase is not ForumPhase.BALLOT:
                break
            t = civ if p.user_id != civ.user_id else other
            assert await press_action(h, h.user(p.user_id), GROUP, "vote", t.seat) == "🗳"
        g = await h.game()
        assert g.state.phase is Phase.LAST_WORD and g.state.speaker == civ.user_id
        turn, private = g.ui.get("turn") or g.refs.get("turn"), g.ui.get(f"lastword:{civ.user_id}")
        assert private is not None  # a Civilian may name a suspect (FORUM-13)
        assert await press_action(h, h.user(civ.user_id), GROUP, "end") == "⏹"
        assert (await h.game()).state.phase is not Phase.LAST_WORD
        for chat, mid in ((GROUP, turn), (civ.user_id, private)):
            m = h.message(chat, mid)
            assert not (m.get("reply_markup") or {}).get("inline_keyboard"), m.get("text")
    finally:
        await h.stop()
