"""Group chat discipline (CLUB-06/14, ONLINE-35/38, ONLINE-Q18), the bot through ``feed_update``:
deletion when it is an admin, the said-once note when it is not, admins and the honour system of
party games left alone, rights refreshed by ``my_chat_member`` (the pure policy:
test_discipline_policy.py; last words by private message: test_last_words.py)."""

from __future__ import annotations

import pytest
from aiogram.methods import DeleteMessage, GetChatMember

from engine import GameState, OnlinePhase, Phase
from tests.bot.harness import GROUP, Harness, make_harness, request_of
from tests.bot.helpers import drive_until, end_speech, nominate, start_game, to_day
from tests.fakes.updates import FakeUser

NOTE = "Out-of-turn messages break this game's chat rules"


# --- the bot -------------------------------------------------------------------------------------
async def club_day(h: Harness) -> GameState:
    """Open a club game with the harness's 10 users and play to day 1 (seat 1 speaking)."""
    await h.command(h.users[0], "/newgame club")
    g = await h.game()
    for u in h.users:
        await h.dm(u, f"/start join_{g.id}")
    await h.command(h.users[0], "/startgame")
    await h.fire()  # the mafia's meeting ends
    st = (await h.game()).state
    assert st.phase is Phase.SPEECH and st.day == 1
    return st


@pytest.fixture
async def club(sqlite_url: str):
    """A club game (10 players) on day 1, seat 1 speaking."""
    h = await make_harness(sqlite_url, n_users=10)
    try:
        await club_day(h)
        yield h
    finally:
        await h.stop()


def deletions(h: Harness) -> list[int]:
    return [request_of(c, DeleteMessage).message_id for c in h.session.calls.calls_to("deleteMessage")]


def bot_lookups(h: Harness) -> int:
    bot_id = h.app.bot.id
    return sum(1 for c in h.session.calls.calls_to("getChatMember")
               if request_of(c, GetChatMember).user_id == bot_id)


async def post(h: Harness, user, text: str = "hello everyone") -> int:
    """A plain group message; returns its message id."""
    update = h.updates.group_text(GROUP, user, text)
    await h.feed(update)
    assert update.message is not None
    return update.message.message_id


def notes(h: Harness) -> list[str]:
    return [t for t in h.sent_texts(GROUP) if NOTE in t]


async def test_CLUB_14_an_admin_bot_deletes_out_of_turn_posts(club: Harness):
    h = club
    h.session.set_member(GROUP, h.app.bot.id, "administrator")
    st = (await h.game()).state
    speaker = h.user(st.speaker)
    others = [h.user(p.user_id) for p in st.alive() if p.user_id != st.speaker]
    await post(h, speaker, "my speech")
    assert deletions(h) == []
    out_of_turn = [await post(h, u, "me too!") for u in others[:3]]
    assert deletions(h) == out_of_turn
    assert bot_lookups(h) == 1  # the bot's rights are read once per game
    assert notes(h) == []
    # A group admin (a player too) is never censored; nor are other bots and anonymous admins.
    h.session.set_member(GROUP, others[3].id, "administrator")
    (await h.game()).refs.pop("admins", None)
    await post(h, others[3], "as the admin: quiet please")
    await h.feed(h.updates.group_text(GROUP, FakeUser(5_000, "OtherBot", is_bot=True), "beep"))
    await h.feed(h.updates.anonymous_admin_command(GROUP, "anonymous admin speaking"))
    assert deletions(h) == out_of_turn
    # Commands are never treated as chatter.
    await h.command(others[0], "/help")
    assert deletions(h) == out_of_turn
    # Someone who does not play (an onlooker) is silenced like the eliminated.
    stranger = FakeUser(800_000_000_001, "Stranger")
    mid = await post(h, stranger, "who is mafia?")
    assert deletions(h)[-1] == mid


async def test_CLUB_06_nobody_writes_during_the_vote_or_at_night(club: Harness):
    h = club
    h.session.set_member(GROUP, h.app.bot.id, "administrator")
    await nominate(h, 3)
    st = await end_speech(h)
    await nominate(h, 4)
    while st.phase is Phase.SPEECH:
        st = await end_speech(h)
    assert st.phase is Phase.VOTING, st.phase  # CLUB-20: the vote follows the speeches
    gone = [await post(h, h.user(p.user_id), "vote for 3!") for p in st.alive()[:2]]
    while st.phase is not Phase.NIGHT:
        await h.fire()
        st = (await h.game()).state
    gone.append(await post(h, h.user(st.alive()[0].user_id), "psst"))
    assert deletions(h) == gone


async def test_the_eliminated_are_silenced_except_for_their_last_word(club: Harness):
    h = club
    h.session.set_member(GROUP, h.app.bot.id, "administrator")
    st = await drive_until(h, lambda s: s.phase is Phase.LAST_WORD, seed=3)
    assert st.speaker is not None
    dead = h.user(st.speaker)
    await post(h, dead, "my last word in the group")
    assert deletions(h) == []
    st = await end_speech(h)
    assert st.phase is not Phase.LAST_WORD
    mid = await post(h, dead, "one more thing")
    assert deletions(h) == [mid]


async def test_without_rights_the_bot_says_once_per_game_even_after_a_restart(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=10)
    try:
        st = await club_day(h)
    except BaseException:
        await h.stop()
        raise
    others = [h.user(p.user_id) for p in st.alive() if p.user_id != st.speaker]
    await post(h, others[0])
    await post(h, others[1])
    assert deletions(h) == []
    assert len(notes(h)) == 1
    assert "host should give fouls" in notes(h)[0]
    assert bot_lookups(h) == 1
    g = await h.game()
    assert g.ui["discipline_note"] is True and g.ui["can_delete"] is False
    await h.stop()
    h2 = await make_harness(sqlite_url, n_users=10, session=h.session, clock=h.clock)
    try:
        await post(h2, others[2])
        assert len(notes(h2)) == 1 and deletions(h2) == []
        assert bot_lookups(h2) == 1  # the cached answer survived the restart too
    finally:
        await h2.stop()


async def test_my_chat_member_refreshes_the_rights_and_still_reaches_the_membership_handler(
        club: Harness):
    h = club
    st = (await h.game()).state
    other = h.user(next(p.user_id for p in st.alive() if p.user_id != st.speaker))
    await post(h, other)
    assert deletions(h) == [] and len(notes(h)) == 1
    # Promoted with the right to delete: no new lookup needed, the next post goes.
    await h.feed(h.updates.my_chat_member(GROUP, "administrator", "member",
                                          can_delete_messages=True))
    mid = await post(h, other)
    assert deletions(h) == [mid] and bot_lookups(h) == 1
    # Removed from the group: the membership handler still cancels the game.
    await h.feed(h.updates.my_chat_member(GROUP, "left", "administrator"))
    assert await h.game() is None


async def test_a_failed_deletion_makes_the_bot_read_its_rights_again(club: Harness):
    h = club
    h.session.set_member(GROUP, h.app.bot.id, "administrator")
    st = (await h.game()).state
    other = h.user(next(p.user_id for p in st.alive() if p.user_id != st.speaker))
    h.session.fail("deleteMessage", chat_id=GROUP, description="Bad Request: message can't be "
                   "deleted")
    await post(h, other)
    assert (await h.game()).ui.get("can_delete") is None
    h.session.set_member(GROUP, h.app.bot.id, "member")  # demoted meanwhile
    await post(h, other)
    assert bot_lookups(h) == 2
    assert len(notes(h)) == 1


async def test_when_telegram_cannot_tell_who_is_admin_nothing_is_deleted(club: Harness):
    h = club
    h.session.set_member(GROUP, h.app.bot.id, "administrator")
    st = (await h.game()).state
    other = h.user(next(p.user_id for p in st.alive() if p.user_id != st.speaker))
    # (a single 500 is retried now: Telegram stays down for the whole retry budget here)
    h.session.fail("getChatAdministrators", chat_id=GROUP, error_code=500, times=None)
    h.session.fail("getChatMember", chat_id=GROUP, error_code=500, times=None)
    await post(h, other)  # the admin list cannot be read: maybe he is one
    assert deletions(h) == [] and notes(h) == []
    h.session.clear_failures()
    h.session.fail("getChatMember", chat_id=GROUP, error_code=500, times=None)
    await post(h, other)  # the bot's own rights cannot be read: no guess either
    assert deletions(h) == [] and notes(h) == []
    h.session.clear_failures()
    mid = await post(h, other)
    assert deletions(h) == [mid] and notes(h) == []


async def test_PARTY_the_honour_system_never_deletes(h: Harness):
    h.session.set_member(GROUP, h.app.bot.id, "administrator")
    await start_game(h)
    await to_day(h)
    lookups = len(h.session.calls.calls_to("getChatMember"))  # joining checks membership
    for u in h.users:
        await post(h, u, "chatting in a party game")
    await post(h, FakeUser(800_000_000_002, "Guest"), "just watching")
    assert deletions(h) == [] and notes(h) == []
    assert len(h.session.calls.calls_to("getChatMember")) == lookups  # not even a lookup


async def test_ONLINE_Q18_the_handler_follows_the_online_phases(club: Harness):
    """The online phases through the handler (the state is swapped in memory only)."""
    h = club
    h.session.set_member(GROUP, h.app.bot.id, "administrator")
    g = await h.game()
    st = g.state.clone()
    st.ruleset, st.phase, st.speaker, st.timer = "online", OnlinePhase.DISCUSSION, None, None
    real, g.state = g.state, st
    try:
        living = [h.user(p.user_id) for p in st.alive()]
        for u in living[:3]:
            await post(h, u, "discussing")
        assert deletions(h) == []
        st.phase = Phase.NIGHT
        mid = await post(h, living[0], "at night")
        st.phase, st.speaker = Phase.DEFENCE, living[1].id
        await post(h, living[1], "my defence")
        mid2 = await post(h, living[2], "interrupting")
        st.phase, st.speaker = OnlinePhase.LIFT_VOTE, None
        mid3 = await post(h, living[1], "lift me not")
        assert deletions(h) == [mid, mid2, mid3]
    finally:
        g.state = real


async def test_an_inactive_player_posting_comes_back(h: Harness):
    await start_game(h)
    st = await to_day(h)
    away = h.user(next(p.user_id for p in st.alive() if p.user_id != st.speaker))
    await h.command(away, "/away")
    assert not (await h.game()).state.players[away.id].active
    await post(h, away, "I'm here again")
    assert (await h.game()).state.players[away.id].active
