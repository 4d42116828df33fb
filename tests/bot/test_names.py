"""Issue 10, item 4: user names are bidi-isolated everywhere, invisible names get a translated
fallback, and a player who renames himself is shown by his new name (kept across a restart)."""

from __future__ import annotations

import re

from bot.ui.names import FSI, PDI, isolate, visible
from engine import Phase
from tests.bot.harness import GROUP, make_harness
from tests.bot.helpers import start_game, to_day
from tests.fakes.updates import FakeUser

ZWSP, RLO = "\u200b", "\u202e"


def test_isolate_and_visible():
    assert isolate("Bob <b>") == f"{FSI}Bob &lt;b&gt;{PDI}"
    assert isolate(f"a{PDI}b\nc") == f"{FSI}ab c{PDI}"  # a name cannot close the isolate early
    for blank in (ZWSP, " \u200d\ufe0f", "\u3164", "\u2800", "\u2066\u2069", "\u202e"):
        assert not visible(blank), repr(blank)
        assert isolate(blank, fallback="Player 6") == "Player 6"
    assert visible("Аня") and visible("🙂") and visible("ا")


def _rename(h, index: int, first_name: str) -> FakeUser:
    old = h.users[index]
    new = FakeUser(old.id, first_name, username=old.username)
    h.users[index] = new
    h.session.register_user(new)
    return new


async def test_invisible_and_rtl_names_are_isolated_and_get_a_fallback(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        blank = _rename(h, 0, ZWSP)
        rtl = _rename(h, 1, f"{RLO}evil")
        await h.command(blank, "/newgame")
        g = await h.game()
        for u in h.users:
            await h.dm(u, f"/start join_{g.id}")
        lobby = h.message(GROUP, g.ui["lobby"])["text"]
        assert f"Player {blank.id % 10000}" in lobby  # a stable number before seats are dealt
        await h.command(blank, "/startgame")
        st = await to_day(h)
        seat = st.players[blank.id].seat
        table = h.message(GROUP, g.ui["table"])["text"]
        assert f"№{seat} Player {blank.id % 10000}" in table.splitlines()  # issue 20: the same
        assert f"№{st.players[rtl.id].seat} {RLO}evil" in table
        # Every text the bot sent keeps an RTL override inside an isolate: it ends on the name.
        texts = [c.text for c in h.session.calls if c.text and RLO in c.text]
        assert texts, "the RTL name was never shown"
        for text in texts:
            for line in text.splitlines():
                for m in re.finditer(RLO, line):
                    before, after = line[:m.start()], line[m.end():]
                    assert before.count(FSI) > before.count(PDI), line
                    assert PDI in after, line
        assert not any(f"№{seat} \u200b" in (c.text or "") or f"№{seat} {FSI}" + ZWSP
                       in (c.text or "") for c in h.session.calls)
    finally:
        await h.stop()


async def test_invisible_name_fallback_is_translated(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6, default_locale="ru")
    try:
        blank = _rename(h, 0, "\u3164")
        game_id = await start_game(h)
        g = await h.service.live(game_id)
        seat = g.state.players[blank.id].seat
        assert g.state.players[blank.id].name == f"Игрок {blank.id % 10000}"  # not his seat
        assert seat  # dealt, and the name does not change with it (issue 20)
    finally:
        await h.stop()


async def test_a_renamed_player_is_shown_by_his_new_name_also_after_a_restart(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_game(h)
        st = await to_day(h)
        other = next(p for p in st.alive() if p.user_id != st.speaker)
        renamed = _rename(h, h.users.index(h.user(other.user_id)), "Renamed")
        await h.feed(h.updates.group_text(GROUP, renamed, "hi all"))
        g = await h.game()
        assert f"№{other.seat} Renamed" in h.message(GROUP, g.ui["table"])["text"]
        await h.command(renamed, "/pause")
        assert any(t.startswith(f"⏸ №{other.seat} Renamed paused")
                   for t in h.sent_texts(GROUP))
        await h.app.service.drain()
    finally:
        await h.stop()
    h2 = await make_harness(sqlite_url, n_users=6, session=h.session)
    try:
        g = await h2.game()
        assert g.state.players[other.user_id].name == "Renamed"
        assert g.state.phase is Phase.SPEECH or g.state.pause is not None
    finally:
        await h2.stop()


async def test_PARTY_46_a_host_who_leaves_and_comes_back_resumes_the_game(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        players, host = h.users[:5], h.users[5]
        await h.command(players[0], "/newgame")
        g = await h.game()
        await h.dm(host, f"/start host_{g.id}")
        for u in players:
            await h.dm(u, f"/start join_{g.id}")
        await h.command(players[0], "/startgame")
        await h.feed(h.updates.left_chat_member(GROUP, host))
        st = (await h.game()).state
        assert st.pause is not None and st.pause.reason == "host_lost"
        pause_text = h.sent_texts(GROUP, ("sendMessage",))[-1]
        assert "/resume" in pause_text and "back in the group" in pause_text
        await h.feed(h.updates.new_chat_members(GROUP, [host]))
        st = (await h.game()).state
        assert st.pause is None and st.host_active
        # leaving again, then any message of his in the group brings him back too
        await h.feed(h.updates.left_chat_member(GROUP, host))
        assert (await h.game()).state.pause is not None
        await h.feed(h.updates.group_text(GROUP, host, "sorry, I am back"))
        st = (await h.game()).state
        assert st.pause is None and st.host_active
        # a third time, and his /resume brings him back without a "not paused" refusal
        await h.feed(h.updates.left_chat_member(GROUP, host))
        assert (await h.game()).state.pause is not None
        await h.command(host, "/resume")
        st = (await h.game()).state
        assert st.pause is None and st.host_active
        assert "The game is not paused." not in h.sent_texts(GROUP)
    finally:
        await h.stop()
