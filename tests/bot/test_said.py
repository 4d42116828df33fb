"""ONLINE-41: ``/said 4`` in the private chat lists the messages of seat 4 in this game that the
bot saw, with their times; it says plainly that it has only what it saw (bot/services/said.py)."""

from __future__ import annotations

from tests.bot.harness import GROUP, make_harness, text_of
from tests.bot.online_support import night_1, start_online
from tests.fakes.updates import FakeUser


async def test_ONLINE_41_said_lists_one_seats_messages_in_this_game(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_online(h)
        st = await night_1(h)  # the day discussion: every living player may write
        four, two = st.by_seat(4), st.by_seat(2)
        await h.feed(h.updates.group_text(GROUP, h.user(four.user_id), "I am <b>red</b>"))
        await h.feed(h.updates.group_text(GROUP, h.user(two.user_id), "№4 lies"))
        await h.feed(h.updates.group_text(GROUP, h.user(four.user_id), "vote №2"))
        asker = h.user(two.user_id)
        await h.dm(asker, "/said 4")
        answer = text_of(h.session.calls.calls_to("sendMessage", asker.id)[-1])
        lines = answer.splitlines()
        assert lines[0] == f"💬 Messages of №4 \u2068{four.name}\u2069 in this game (2):"
        assert lines[1].endswith(" I am &lt;b&gt;red&lt;/b&gt;") and lines[1].startswith("<i>")
        assert lines[2].endswith(" vote №2")
        assert "№4 lies" not in answer
        assert "only what I saw" in answer and "UTC" in answer
        await h.dm(asker, "/said №3")
        assert "I have no messages of №3" in h.sent_texts(asker.id)[-1]
        await h.dm(asker, "/said 99")
        assert h.sent_texts(asker.id)[-1] == "There is no seat №99 at this table (seats 1–6)."
        await h.dm(asker, "/said")
        assert h.sent_texts(asker.id)[-1].startswith("Give a seat: /said 4")
        await h.command(asker, "/said 4")
        assert h.sent_texts(GROUP)[-1].startswith("Send /said 4 in your private chat")
        stranger = FakeUser(999_000_000_001, "Stranger")
        h.session.register_user(stranger)
        await h.dm(stranger, "/said 4")
        assert h.sent_texts(stranger.id)[-1] == "You are not in a running game."
    finally:
        await h.stop()
