"""Onlookers (ONLINE-43/44/45, ONLINE-Q21, PARTY-Q24) through ``feed_update``: /spectate and the
deep link, copies of the public announcements, the onlookers' chat that never reaches a living
player (nor a dead mafioso's team), the eliminated joining automatically, refused buttons,
/unspectate, a restart, and the end of the game."""

from __future__ import annotations

from aiogram.methods import SendMessage

from bot.services.onlookers import RELAY_PER_MINUTE
from engine import GameState, Phase, Team
from tests.bot.driver import play_to_end, press_action
from tests.bot.harness import GROUP, Harness, make_harness, request_of, text_of
from tests.bot.helpers import act, drive_until, end_speech, nominate, start_game, to_day
from tests.fakes.updates import FakeUser

WATCHER = FakeUser(800_000_000_001, "Watcher", username="watcher")
SECOND = FakeUser(800_000_000_002, "Second", username="second")
WELCOME = "👁 You are watching the game in «Test group»."


def onlookers(g) -> list[int]:
    return list(g.ui.get("onlookers") or [])


def received(h: Harness, user_id: int, needle: str) -> bool:
    return any(needle in t for t in h.sent_texts(user_id))


def texts_containing(h: Harness, needle: str) -> set[int | str | None]:
    """Chats that got a message containing ``needle``."""
    return {c.chat_id for c in h.session.calls.calls_to("sendMessage")
            if c.ok and needle in strip_isolates(c.text or "")}


def strip_isolates(text: str) -> str:
    """The raw HTML without the bidi isolation marks around names (bot/ui/names.py)."""
    return text.translate({0x2068: None, 0x2069: None})


async def spectate(h: Harness, user: FakeUser = WATCHER) -> None:
    h.session.register_user(user)
    await h.command(user, "/spectate")


async def test_ONLINE_43_spectate_sends_the_table_and_then_copies_of_the_announcements(h: Harness):
    await start_game(h)
    await spectate(h)
    g = await h.game()
    assert onlookers(g) == [WATCHER.id]
    [welcome] = h.sent_texts(WATCHER.id)
    assert welcome.startswith(WELCOME) and "Onlookers cannot act." in welcome
    assert "№1" in welcome  # the table: seats and status
    assert "spectate" not in text_of(h.sent(GROUP)[-1])
    before = len(h.sent(WATCHER.id))
    st = await to_day(h)
    copies = h.sent_texts(WATCHER.id)[1:]
    assert len(h.sent(WATCHER.id)) > before
    # What the group was told in plain text, he was told too (merged per step); no keyboards.
    assert any("Night 1" in t for t in copies) and any("Morning" in t for t in copies)
    assert all(c.reply_markup is None for c in h.sent(WATCHER.id))
    assert all(request_of(c, SendMessage).disable_notification for c in h.sent(WATCHER.id)[1:])
    # Nothing private: no role card, no night keyboard.
    assert not any("Your role" in t for t in copies)
    assert st.phase is Phase.SPEECH


async def test_spectate_without_a_private_chat_offers_the_deep_link(h: Harness):
    game_id = await start_game(h)
    h.session.fail("sendMessage", chat_id=WATCHER.id, error_code=403)
    await spectate(h)
    assert onlookers(await h.game()) == []
    link = h.find_button(GROUP, text="Watch the game")
    assert link is not None and link[1]["url"].endswith(f"start=spectate_{game_id}")
    await h.dm(WATCHER, f"/start spectate_{game_id}")
    assert onlookers(await h.game()) == [WATCHER.id]
    assert h.sent_texts(WATCHER.id)[-1].startswith(WELCOME)
    await h.dm(WATCHER, f"/start spectate_{game_id}")
    assert "already watching" in h.sent_texts(WATCHER.id)[-1]


async def test_players_and_lobbies_cannot_be_watched_this_way(h: Harness):
    await h.command(h.users[0], "/newgame")
    await spectate(h)
    assert h.sent_texts(GROUP)[-1] == "There is no running game here to watch."
    g = await h.game()
    for u in h.users:
        await h.dm(u, f"/start join_{g.id}")
    await h.command(h.users[0], "/startgame")
    await h.command(h.users[1], "/spectate")
    assert h.sent_texts(GROUP)[-1].startswith("You are playing in this game")
    await h.dm(WATCHER, "/start spectate_999999")
    assert h.sent_texts(WATCHER.id)[-1] == "This game is not running."
    assert onlookers(await h.game()) == []


async def test_ONLINE_44_Q21_the_onlookers_chat_never_reaches_a_living_player(h: Harness):
    await start_game(h)
    await spectate(h, WATCHER)
    await spectate(h, SECOND)
    await h.dm(WATCHER, "I bet №3 is the <i>mafia</i>")
    relayed = "👁 Watcher: I bet №3 is the &lt;i&gt;mafia&lt;/i&gt;"
    assert texts_containing(h, relayed) == {SECOND.id}
    assert texts_containing(h, "is the") == {SECOND.id}
    # Alone in the chat: he is told nobody else listens; still nothing reaches the players.
    await h.command(SECOND, "/unspectate")
    assert "no longer follow" in h.sent_texts(SECOND.id)[-1]
    await h.dm(WATCHER, "anyone?")
    assert h.sent_texts(WATCHER.id)[-1] == "👁 No other onlooker is watching right now."
    assert texts_containing(h, "anyone?") == set()


async def test_the_onlookers_chat_is_rate_limited(h: Harness):
    await start_game(h)
    await spectate(h, WATCHER)
    await spectate(h, SECOND)
    for i in range(RELAY_PER_MINUTE + 2):
        await h.dm(WATCHER, f"message {i}")
    assert sum(1 for t in h.sent_texts(SECOND.id) if t.startswith("👁 Watcher: message")) == \
        RELAY_PER_MINUTE
    assert "Slow down" in h.sent_texts(WATCHER.id)[-1]


async def dead_mafioso_at_night(h: Harness):
    """Day 1: the first speaker nominates a mafioso, who leaves alone (PARTY-11) and gives his
    last word; then the night falls. Returns (state at night 2, the dead mafioso)."""
    await start_game(h)
    st = await to_day(h)
    mafioso = next(p for p in st.alive() if p.team is Team.MAFIA)
    await nominate(h, mafioso.seat)
    while st.phase in (Phase.SPEECH, Phase.DEFENCE):
        st = await end_speech(h)
    assert st.phase is Phase.LAST_WORD and st.speaker == mafioso.user_id, st.phase
    return st, h.user(mafioso.user_id)


async def test_PARTY_Q24_the_eliminated_join_the_onlookers_and_a_dead_mafioso_reaches_nobody_alive(
        h: Harness):
    st, dead = await dead_mafioso_at_night(h)
    g = await h.game()
    assert onlookers(g) == [dead.id]
    assert received(h, dead.id, "You follow the rest of the game as an onlooker")
    await spectate(h, WATCHER)
    st = await end_speech(h)  # his last word ends; the night gate opens
    by_id = {u.id: u for u in h.users}
    for p in st.alive_active():
        await press_action(h, by_id[p.user_id], GROUP, "ready")
    st = (await h.game()).state
    assert st.phase is Phase.NIGHT and st.night == 2, st.phase
    living_mafioso = h.user(st.mafia_alive()[0].user_id)
    await h.dm(dead, "kill №2, he is the Commissar")
    assert texts_containing(h, "he is the Commissar") == {WATCHER.id}
    # The living mafioso's relay reaches his living team only, never the dead one or onlookers.
    await h.dm(living_mafioso, "who do we take tonight?")
    got = texts_containing(h, "who do we take tonight?")
    assert dead.id not in got and WATCHER.id not in got
    alive = {p.user_id for p in st.alive()}
    assert got <= alive


async def test_ONLINE_45_onlookers_cannot_act(h: Harness):
    game_id = await start_game(h)
    st = await to_day(h)
    await spectate(h)
    log_len = await h.log_len(game_id)
    for action, seat in (("nom", 2), ("end", 0), ("ready", 0), ("sleep", 0)):
        answer = await h.press_data(WATCHER, GROUP, act(game_id, st, action, seat))
        assert answer == "👁 Onlookers cannot act.", action
    assert await h.log_len(game_id) == log_len
    # A stranger who is no onlooker gets the engine's own refusal.
    stranger = FakeUser(800_000_000_009, "Stranger")
    assert await h.press_data(stranger, GROUP, act(game_id, st, "end")) == "It's not your turn."
    assert await h.log_len(game_id) == log_len


async def test_a_restart_keeps_the_onlookers(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=7)
    try:
        await start_game(h)
        await spectate(h)
        await spectate(h, SECOND)
    finally:
        await h.stop()
    h2 = await make_harness(sqlite_url, n_users=7, session=h.session, clock=h.clock)
    try:
        g = await h2.game()
        assert onlookers(g) == [WATCHER.id, SECOND.id]
        before = len(h2.sent(WATCHER.id))
        await to_day(h2)
        assert len(h2.sent(WATCHER.id)) > before
        await h2.dm(SECOND, "still here")
        assert texts_containing(h2, "still here") == {WATCHER.id}
    finally:
        await h2.stop()


async def test_the_end_reaches_the_onlookers_and_drops_the_list(h: Harness):
    game_id = await start_game(h)
    await spectate(h)
    await play_to_end(h, seed=5)
    assert received(h, WATCHER.id, "wins!")
    await h.service.drain()  # the dropped list is stored with the next group commit
    rec = await h.service.storage.get_game(game_id)
    assert "onlookers" not in (rec.ui or {})
    count = len(h.sent(WATCHER.id))
    await h.dm(WATCHER, "is it over?")
    assert len(h.sent(WATCHER.id)) == count + 1  # only the bot's usual answer, no relay
    await h.command(WATCHER, "/unspectate")
    assert h.sent_texts(GROUP)[-1] == "You are not watching a game."


async def test_unspectate_stops_the_copies(h: Harness):
    await start_game(h)
    await spectate(h)
    await h.dm(WATCHER, "/unspectate")
    assert onlookers(await h.game()) == []
    count = len(h.sent(WATCHER.id))
    await to_day(h)
    assert len(h.sent(WATCHER.id)) == count


# --- BOT-X02: copies only for onlookers who do not see the group ------------------------------
async def night_two(h: Harness) -> GameState:
    """From a dead mafioso's last word: it ends, everyone alive is ready, night 2 falls."""
    st = await end_speech(h)
    by_id = {u.id: u for u in h.users}
    for p in st.alive_active():
        await press_action(h, by_id[p.user_id], GROUP, "ready")
    st = (await h.game()).state
    assert st.phase is Phase.NIGHT and st.night == 2, st.phase
    return st


async def test_BOT_X02_an_eliminated_player_gets_no_copies_and_a_voluntary_onlooker_does(
        h: Harness):
    st, dead = await dead_mafioso_at_night(h)
    assert onlookers(await h.game()) == [dead.id]
    await spectate(h, WATCHER)
    dead_before, watcher_before = len(h.sent(dead.id)), len(h.sent(WATCHER.id))
    await night_two(h)
    await drive_until(h, lambda s: s.phase is not Phase.NIGHT)  # the morning's announcements
    copies = h.sent_texts(WATCHER.id)[watcher_before:]
    assert any("Night 2" in t for t in copies) and any("Morning" in t for t in copies)
    # The eliminated player sees these in the group: nothing of them reaches his private chat.
    for call in h.sent(dead.id)[dead_before:]:
        assert "Night 2" not in (call.text or "") and "Morning" not in (call.text or "")
    assert all(t not in copies for t in h.sent_texts(dead.id)[dead_before:])
    assert received(h, dead.id, "watch it in the group")  # he was told where to watch
    # He is still an onlooker: the onlookers' chat runs both ways.
    st = (await h.game()).state
    alive = {p.user_id for p in st.alive()}
    await h.dm(dead, "the Commissar sits at №2")
    got = texts_containing(h, "the Commissar sits at №2")
    assert WATCHER.id in got and not got & alive and dead.id not in got
    await h.dm(WATCHER, "noted")
    got = texts_containing(h, "👁 Watcher: noted")
    assert dead.id in got and not got & alive
    assert onlookers(await h.game())[:2] == [dead.id, WATCHER.id]


async def test_BOT_X02_an_eliminated_player_who_left_the_group_gets_copies_until_he_is_back(
        h: Harness):
    st, dead = await dead_mafioso_at_night(h)
    await night_two(h)
    group_before = len(h.sent_texts(GROUP))
    await h.feed(h.updates.left_chat_member(GROUP, dead))
    assert (await h.game()).ui.get("outside") == [dead.id]
    # an eliminated player's leaving is no news for the table (newcomer trial)
    assert not any("inactive" in t for t in h.sent_texts(GROUP)[group_before:])
    before = len(h.sent(dead.id))
    await drive_until(h, lambda s: s.phase is not Phase.NIGHT)
    assert any("Morning" in t for t in h.sent_texts(dead.id)[before:])
    # Back in the group (a chat_member update, as an admin bot gets them), removed, back again.
    await h.feed(h.updates.chat_member(GROUP, dead, "member", "left"))
    assert not (await h.game()).ui.get("outside")
    await h.feed(h.updates.chat_member(GROUP, dead, "kicked", "member"))
    assert (await h.game()).ui.get("outside") == [dead.id]
    group_before = len(h.sent_texts(GROUP))
    await h.feed(h.updates.new_chat_members(GROUP, [dead]))
    assert not (await h.game()).ui.get("outside")
    assert not any("is back" in t for t in h.sent_texts(GROUP)[group_before:])
    before = len(h.sent(dead.id))
    await play_to_end(h, seed=3)
    assert not any("Morning" in t or "Night" in t or "wins!" in t
                   for t in h.sent_texts(dead.id)[before:])
