"""/settings per group: the language of the next messages, and single timing overrides
(PARTY-33/34, PARTY-Q17)."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

from bot.handlers.settings_panel import settings_text
from bot.ui.callbacks import Cfg, LobbyAct
from engine import Phase, find_ruleset
from tests.bot.driver import join_all
from tests.bot.harness import GROUP, Harness, make_harness, text_of
from tests.bot.helpers import start_game, to_day
from tests.fakes.telegram import plain_text


def last_group_text(h: Harness) -> str:
    return h.sent_texts(GROUP, ("sendMessage",))[-1]


async def test_language_switch_to_en_changes_the_next_messages(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=7, default_locale="ru")
    try:
        tr = h.app.translator
        ru, en = tr.get("ru"), tr.get("en")
        admin, player = h.users[0], h.users[1]
        h.session.set_member(GROUP, admin.id, "administrator")

        await h.command(admin, "/settings")
        panel = h.session.calls.calls_to("sendMessage", GROUP)[-1]
        assert plain_text(text_of(panel)) == plain_text(settings_text(ru, "ru", {}))
        assert ru("Language: {lang}") != en("Language: {lang}"), "the ru catalogue is missing"
        await h.command(admin, "/help")
        assert not last_group_text(h).startswith("Commands\n")  # Russian
        await h.command(admin, "/cancel")
        assert last_group_text(h) == ru("There is no open game here. /newgame starts one.")

        mid = panel.result.message_id
        answer = await h.press(player, GROUP, mid, Cfg(a="lang", v="en").pack())
        assert answer == ru("Only the organiser or a group admin can do that.")
        assert await h.press(admin, GROUP, mid, Cfg(a="lang", v="en").pack()) == "✅"
        assert h.message(GROUP, mid)["text"] == plain_text(settings_text(en, "en", {}))
        assert (await h.service.storage.get_chat_settings(GROUP)).locale == "en"

        await h.command(admin, "/help")
        assert last_group_text(h).startswith("Commands\n/newgame — open a lobby in this group")
        await h.command(admin, "/cancel")
        assert last_group_text(h) == "There is no open game here. /newgame starts one."
        await h.command(admin, "/newgame")
        assert h.texts(GROUP)[-1].startswith("🎲 Party mafia — new game")

        # A running game follows the switch from its next message on.
        game = await h.game()
        assert game.locale == "en"
        await h.command(admin, "/cancel")
        assert await h.press(admin, GROUP, mid, Cfg(a="lang", v="ru").pack()) == "✅"
        await start_game(h)
        st = await to_day(h)
        # the morning heads the first turn's message (issue 11): its last paragraph is the turn
        assert h.texts(GROUP)[-1].split("\n\n")[-1].startswith(
            ru("🎙 Day {day}. Speech of {player} — {s} s.").split("{")[0])
        assert await h.press(admin, GROUP, mid, Cfg(a="lang", v="en").pack()) == "✅"
        mid_turn, button = h.find_button(GROUP, action="end")
        assert st.speaker is not None
        await h.press(h.user(st.speaker), GROUP, mid_turn, button["callback_data"])
        assert h.texts(GROUP)[-1].startswith("🎙 Day 1. Speech of №2 ")
    finally:
        await h.stop()


async def test_PARTY_34_timing_override_applies(h: Harness):
    admin, player = h.users[0], h.users[1]
    h.session.set_member(GROUP, admin.id, "administrator")
    await h.command(player, "/settings speech 45")
    assert last_group_text(h) == "Only the organiser or a group admin can do that."
    await h.command(admin, "/settings speech 5")
    assert last_group_text(h).startswith("A speech lasts from 10 to 600 seconds; 5 is out")
    await h.command(admin, "/settings speech 45")
    assert "speech 45 s · defence 30 s" in last_group_text(h)
    assert (await h.service.storage.get_chat_settings(GROUP)).data["timings"] == {"speech": 45}

    game_id = await join_all(h)
    g = await h.game()
    assert "speech 45 s · defence 30 s" in h.message(GROUP, g.ui["lobby"])["text"]
    await h.command(h.users[0], "/startgame")
    st = await to_day(h)
    assert st.timer is not None and st.speaker is not None
    assert st.phase is Phase.SPEECH and st.timer.seconds == 45
    assert h.texts(GROUP)[-1].split("\n\n")[-1].startswith("🎙 Day 1. Speech of №1 ")
    assert " — 45 s." in h.texts(GROUP)[-1]
    assert h.deadlines.pending[game_id][1] - h.clock() == timedelta(seconds=45)

    # Mid-game: announced, and from the next turn on (PARTY-Q17).
    await h.command(admin, "/settings speech 50")
    assert any("changed the timings; they apply from the next turn" in t
               for t in h.sent_texts(GROUP, ("sendMessage",))[-3:])
    assert (await h.game()).state.timer.seconds == 45
    mid, button = h.find_button(GROUP, action="end")
    await h.press(h.user(st.speaker), GROUP, mid, button["callback_data"])
    st = (await h.game()).state
    assert st.timer.seconds == 50 and " — 50 s." in h.texts(GROUP)[-1]
    await h.command(admin, "/settings reset")
    assert "speech 60 s" in last_group_text(h)


async def test_PARTY_34_a_timing_changed_in_an_open_lobby_keeps_its_tempo_and_roles(h: Harness):
    """Issue 20: ``/settings <timing> N`` while a lobby is open changes that timing only, on top
    of the lobby's tempo and roles; the answer confirms it; the lobby shows it."""
    organiser = h.users[0]
    await h.command(organiser, "/newgame forum maniac cop")
    g = await h.game()
    options = dict(g.state.options)
    assert options["roles"] == ["maniac", "cop"]
    await h.command(organiser, "/settings forum_day 120")
    assert last_group_text(h).startswith("✅ A forum day: 120 s.")
    g = await h.game()
    assert g.state.options == options and g.state.timings["forum_day"] == 120
    await h.command(organiser, "/settings meeting 20")
    assert last_group_text(h).startswith("✅ The mafia's meeting: 20 s.")
    g = await h.game()
    lobby = h.message(GROUP, g.ui["lobby"])["text"]
    assert "mafia meeting 20 s" in lobby and "discussion 120 s" in lobby
    assert g.state.options == options
    await h.command(organiser, "/cancel")

    await h.command(organiser, "/newgame")
    g = await h.game()
    assert await h.press(organiser, GROUP, g.ui["lobby"],
                         LobbyAct(g=g.id, a="tempo", v="short").pack()) is not None
    await h.command(organiser, "/settings speech 45")
    assert last_group_text(h).startswith("✅ A speech: 45 s.")
    g = await h.game()
    assert g.state.settings["tempo"] == "short" and g.state.timings["speech"] == 45
    short_night = g.state.timings["night"]
    assert short_night != find_ruleset("party").timings({})["night"]  # still the short tempo's
    lobby = h.message(GROUP, g.ui["lobby"])["text"]
    assert "Short" in lobby and "speech 45 s" in lobby


async def test_a_new_group_and_private_answers_follow_the_senders_telegram_language(
        sqlite_url: str):
    """Issue 20: a group that never chose a language takes the first command sender's Telegram
    language; /start and /help in private answer in the user's."""
    h = await make_harness(sqlite_url, n_users=2, default_locale="ru")
    try:
        english = dataclasses.replace(h.users[0], language_code="en-GB")
        russian = h.users[1]  # no language_code: the bot's default
        await h.dm(english, "/start")
        assert h.texts(english.id)[-1].startswith("👋 I host mafia games in group chats.")
        await h.dm(english, "/help")
        assert h.texts(english.id)[-1].startswith("Commands\n")
        await h.dm(english, "/start join_999")  # an old deep link: a game that is gone
        assert h.texts(english.id)[-1] == "This game does not exist any more."
        await h.dm(russian, "/help")
        assert not h.texts(russian.id)[-1].startswith("Commands\n")
        await h.command(english, "/newgame")
        assert h.texts(GROUP)[-1].startswith("🎲 Party mafia — new game")
        assert (await h.service.storage.get_chat_settings(GROUP)).locale == "en"
        await h.command(russian, "/help")  # the group chose already: it stays English
        assert last_group_text(h).startswith("Commands\n")
    finally:
        await h.stop()


async def test_settings_as_a_new_groups_first_command_follows_the_senders_language(sqlite_url: str):
    """Issue 20: an English user's first command /settings in a new group answers in English
    (and the group takes English, as after /newgame or /help)."""
    h = await make_harness(sqlite_url, n_users=2, default_locale="ru")
    try:
        english = dataclasses.replace(h.users[0], language_code="en")
        await h.command(english, "/settings")
        en = h.app.translator.get("en")
        assert plain_text(last_group_text(h)) == plain_text(settings_text(en, "en", {}))
        assert (await h.service.storage.get_chat_settings(GROUP)).locale == "en"
    finally:
        await h.stop()
