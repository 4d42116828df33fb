"""The /settings panel beside an open lobby or game (issue 20): it shows that game's preset,
tempo, timings and keys, refuses a timing the game does not use, and is not posted again and
again in the group."""

from __future__ import annotations

from bot.handlers.settings_panel import unused_text
from bot.presentation.views import timings_text
from bot.ui.callbacks import LobbyAct
from engine import find_ruleset
from tests.bot.harness import GROUP, Harness


def group_texts(h: Harness) -> list[str]:
    return h.sent_texts(GROUP, ("sendMessage",))


async def test_PARTY_34_the_panel_shows_the_open_lobbys_tempo_and_timings(h: Harness):
    """A party lobby on «Short»: /settings speech 50 confirms, and the panel shows Short's
    timings with the speech changed, not the chat's «Normal» ones."""
    organiser = h.users[0]
    _ = h.app.translator.get("en")
    await h.command(organiser, "/newgame")
    g = await h.game()
    await h.press(organiser, GROUP, g.ui["lobby"], LobbyAct(g=g.id, a="tempo", v="short").pack())
    await h.command(organiser, "/settings speech 50")
    text = group_texts(h)[-1]
    st = (await h.game()).state
    assert text.startswith("✅ A speech: 50 s.")
    assert st.timings == find_ruleset("party").timings({"tempo": "short", "timings": {"speech": 50}})
    assert "Tempo: Short" in text and "Normal" not in text
    assert timings_text(_, st.timings, "party") in text
    assert "Open game: Party mafia" in text


async def test_FORUM_Q27_the_panel_in_a_forum_lobby_shows_its_timings_and_refuses_others(h: Harness):
    """A forum lobby without a Doctor: the panel shows the forum's timings, «Doctor: off» and
    the forum's keys; /settings speech 30 is refused (a forum has no speeches), not confirmed."""
    organiser = h.users[0]
    _ = h.app.translator.get("en")
    await h.command(organiser, "/newgame forum maniac cop")
    await h.command(organiser, "/settings")
    text = group_texts(h)[-1]
    st = (await h.game()).state
    assert "Open game: Forum mafia" in text and "Doctor: off" in text
    assert timings_text(_, st.timings, "forum") in text
    for key in ("forum_day", "forum_vote", "cop", "forum_night"):
        assert key in text.split("Change one timing")[1]
    assert "speech" not in text.split("Change one timing")[1]
    timings = dict(st.timings)

    await h.command(organiser, "/settings speech 30")
    answer = group_texts(h)[-1]
    assert answer == unused_text(_, "speech", find_ruleset("forum"))
    assert not answer.startswith("✅") and "forum_day" in answer
    assert (await h.game()).state.timings == timings
    assert "speech" not in ((await h.service.storage.get_chat_settings(GROUP)).data.get("timings") or {})


async def test_the_panel_is_posted_to_the_same_user_at_most_once_a_minute(h: Harness):
    """Issue 20: three /settings in 3.6 s, three full panels in the group; now one, and the
    repeats go to his private chat (without buttons)."""
    onlooker, other = h.users[5], h.users[6]
    await h.command(h.users[0], "/newgame")
    for _n in range(3):
        await h.command(onlooker, "/settings")
    panels = [t for t in group_texts(h) if "Settings of this chat" in t]
    assert len(panels) == 1
    private = [t for t in h.sent_texts(onlooker.id, ("sendMessage",)) if "Settings of this chat" in t]
    assert len(private) == 2 and all("less than a minute ago" in t for t in private)
    assert not any(b.get("callback_data") for _m, b in h.buttons(onlooker.id))
    await h.command(other, "/settings")  # somebody else gets his own
    assert len([t for t in group_texts(h) if "Settings of this chat" in t]) == 2
