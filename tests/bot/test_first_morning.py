"""Fresh trial of issue 20: the morning after night 1 — the mafia's meeting, where nobody can
shoot — said "Nobody was killed tonight", which reads as a missed shot.  It now says the first
night was the meeting (PARTY-Q06's night 1, FORUM's acquaintance), through ``feed_update``."""

from __future__ import annotations

from engine import Phase
from tests.bot.driver import press_action
from tests.bot.harness import GROUP, make_harness
from tests.bot.helpers import start_game, to_day
from tests.fakes.telegram import plain_text

MET = "☀️ Morning. On the first night the mafia only met: nobody was shot."
MISSED = "Nobody was killed tonight"


async def test_PARTY_first_morning_says_the_mafia_only_met(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    try:
        await start_game(h)
        await to_day(h)
        said = "\n".join(plain_text(t) for t in h.texts(GROUP))
        assert MET in said and MISSED not in said, said
    finally:
        await h.stop()


async def test_FORUM_first_morning_says_the_mafia_only_met(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=5)
    try:
        await h.command(h.users[0], "/newgame forum")
        g = await h.game()
        for u in h.users:
            await h.dm(u, f"/start join_{g.id}")
        await h.command(h.users[0], "/startgame")
        st = (await h.game()).state
        assert st.phase is Phase.NIGHT and st.night == 1
        for u in h.users:
            await press_action(h, u, u.id, "sleep")
        st = (await h.game()).state
        assert st.day == 1 and st.phase is not Phase.NIGHT, st.phase
        said = "\n".join(plain_text(t) for t in h.texts(GROUP))
        assert MET in said and "Nobody died tonight" not in said, said
    finally:
        await h.stop()
