"""Group chat discipline (CLUB-06/14, ONLINE-35/38, ONLINE-Q18) and last words by private message
(ONLINE-42): the pure policy ``bot.services.discipline.may_write`` per preset and phase, and the bot through
``feed_update``: deletion when it is an admin, the said-once note when it is not, admins and the
honour system of party games left alone, rights refreshed by ``my_chat_member``, last words
published in a quote block."""

from __future__ import annotations

import pytest
from aiogram.methods import DeleteMessage, GetChatMember

from bot.services.discipline import LAST_WORD_LIMIT, LAST_WORD_PARTS, may_write
from engine import GameState, OnlinePhase, Phase, Player, Role
from engine.core.state import PauseState, Timer
from tests.bot.harness import GROUP, Harness, make_harness, request_of
from tests.bot.helpers import drive_until, end_speech, nominate, start_game, to_day
from tests.fakes.telegram import plain_text
from tests.fakes.updates import FakeUser

NOTE = "Out-of-turn messages break this game's chat rules"


# --- the pure policy -----------------------------------------------------------------------------
HOST, ORGANISER, ONLOOKER = 900, 901, 902


def table(ruleset: str, phase: Phase, speaker: int | None = None, **kw) -> GameState:
    """Seats 1..6 (user ids 1..6), seat 6 eliminated; ``phase`` running."""
    st = GameState(ruleset=ruleset, organiser=ORGANISER, settings={}, timings={}, options={},
                   host=HOST, phase=phase, speaker=speaker, **kw)
    for uid in range(1, 7):
        st.players[uid] = Player(user_id=uid, name=f"P{uid}", seat=uid, role=Role.CIVILIAN,
                                 alive=uid != 6)
    return st


def writers(st: GameState) -> set[int]:
    return {u for u in (*range(1, 7), HOST, ORGANISER, ONLOOKER) if may_write(st, u, st.ruleset)}


LIVING, EVERYONE, STAFF = {1, 2, 3, 4, 5}, {1, 2, 3, 4, 5, 6, HOST, ORGANISER, ONLOOKER}, \
    {HOST, ORGANISER}


@pytest.mark.parametrize("phase", list(Phase))
def test_party_is_the_honour_system_in_every_phase(phase):
    assert writers(table("party", phase, speaker=2)) == EVERYONE


@pytest.mark.parametrize("phase, speaker, expected", [
    (Phase.SPEECH, 2, {2} | STAFF),  # CLUB-14: only the speaker
    (Phase.DEFENCE, 3, {3} | STAFF),
    (Phase.LAST_WORD, 6, {6} | STAFF),  # the eliminated speaker's last word
    (Phase.VOTING, None, STAFF),  # nobody during the vote
    (Phase.EXCLUDE_VOTE, None, STAFF),
    (Phase.NIGHT, None, STAFF),  # CLUB-06: nobody at night
    (Phase.READY, None, STAFF),
    (Phase.LOBBY, None, EVERYONE),
    (Phase.ENDED, None, EVERYONE),
])
def test_CLUB_06_14_who_may_write(phase, speaker, expected):
    assert writers(table("club", phase, speaker)) == expected


def test_CLUB_37_a_nomination_only_turn_is_silent():
    st = table("club", Phase.SPEECH, speaker=2, timer=Timer(seq=1, seconds=10, kind="silenced"))
    assert writers(st) == STAFF


def test_a_pause_opens_the_chat_to_the_living_only():
    for ruleset in ("club", "online"):
        st = table(ruleset, Phase.NIGHT, pause=PauseState(by=1, reason="pause", frozen_kind="night",
                                                          frozen_remaining=30))
        assert writers(st) == LIVING | STAFF


@pytest.mark.parametrize("phase, speaker, expected", [
    (OnlinePhase.DISCUSSION, None, LIVING | STAFF),  # ONLINE-Q18: the day is open to the living
    (Phase.NIGHT, None, STAFF),  # ONLINE-38
    (Phase.DEFENCE, 4, {4} | STAFF),  # ONLINE-35/Q11: the candidate whose sub-phase it is
    (OnlinePhase.REVOTE, None, STAFF),
    (OnlinePhase.LIFT_VOTE, None, STAFF),
    (OnlinePhase.BEST_MOVE, 6, STAFF),
    (Phase.LAST_WORD, 6, {6} | STAFF),
])
def test_ONLINE_Q18_who_may_write(phase, speaker, expected):
    assert writers(table("online", phase, speaker)) == expected


def test_an_unknown_phase_lets_the_living_write():
    st = table("online", OnlinePhase.DISCUSSION)
    st.phase = "some_phase_added_later"
    assert writers(st) == LIVING | STAFF
    st.ruleset = "club"
    assert writers(st) == LIVING | STAFF


def test_a_seated_organiser_follows_the_players_rules():
    st = table("club", Phase.NIGHT)
    st.organiser = 3
    assert not may_write(st, 3, "club")
    st.players[3].alive = False
    st.phase, st.speaker = Phase.SPEECH, 2
    assert not may_write(st, 3, "club")


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


# --- last words by private message (ONLINE-42) -----------------------------------------------
async def last_word_of(h: Harness, seed: int = 1):
    await start_game(h)
    return await drive_until(h, lambda s: s.phase is Phase.LAST_WORD, seed=seed)


def quoted(h: Harness) -> list[str]:
    return [c.text for c in h.sent(GROUP) if c.text is not None and "🟢 Last word of" in c.text]


async def test_ONLINE_42_a_last_word_sent_privately_is_published_in_a_quote(h: Harness):
    st = await last_word_of(h)
    speaker = h.user(st.speaker)
    seat = st.players[speaker.id].seat
    assert any("Your last word. Write it here" in t for t in h.sent_texts(speaker.id))
    await h.dm(speaker, "I was <b>red</b> & you know it")
    [text] = quoted(h)
    assert text == (f"<b>🟢 Last word of №{seat} \u2068{speaker.first_name}\u2069</b>\n"
                    "<blockquote>I was &lt;b&gt;red&lt;/b&gt; &amp; you know it</blockquote>")
    assert plain_text(text).endswith("I was <b>red</b> & you know it")
    assert "🟢 Published in the group." in h.sent_texts(speaker.id)
    # Nothing of it went to anyone else privately (no relay, no mafia chat).
    for p in st.alive():
        assert not any("you know it" in t for t in h.sent_texts(p.user_id))


async def test_a_last_word_is_limited_in_characters_and_messages(h: Harness):
    st = await last_word_of(h, seed=2)
    speaker = h.user(st.speaker)
    await h.dm(speaker, "x" * (LAST_WORD_LIMIT - 10))
    await h.dm(speaker, "y" * 50)
    assert "🟢 Published in the group. Only the first 10 characters fit." in \
        h.sent_texts(speaker.id)
    await h.dm(speaker, "z")
    assert any("used up" in t for t in h.sent_texts(speaker.id))
    published = [plain_text(t).split("\n", 1)[1] for t in quoted(h)]
    assert published == ["x" * (LAST_WORD_LIMIT - 10), "y" * 10]
    assert sum(map(len, published)) == LAST_WORD_LIMIT


async def test_a_last_word_takes_a_few_messages_at_most(h: Harness):
    st = await last_word_of(h, seed=4)
    speaker = h.user(st.speaker)
    for i in range(LAST_WORD_PARTS + 2):
        await h.dm(speaker, f"part {i}")
    assert len(quoted(h)) == LAST_WORD_PARTS
    # The next turn (a new phase) starts afresh; after the turn his texts are no last word.
    await end_speech(h)
    await h.dm(speaker, "too late")
    assert len(quoted(h)) == LAST_WORD_PARTS


async def test_a_lone_mafioso_is_told_his_night_messages_reach_nobody(h: Harness):
    """The last living mafioso writes to the bot at night (newcomer trial: no answer at all): he
    is told nobody hears him, and nothing is relayed or logged."""
    def lone_mafioso_night(st) -> bool:
        return st.phase is Phase.NIGHT and not st.over and sum(
            1 for p in st.players.values()
            if p.alive and p.seat and p.team is not None and p.team.name.lower() == "mafia") == 1

    for seed in range(12):  # the random driver's games: one reaches such a night
        await start_game(h)
        try:
            st = await drive_until(h, lone_mafioso_night, seed=seed)
            break
        except AssertionError:
            continue
    else:
        pytest.fail("no game reached a night with one mafioso left")
    (mafioso,) = [p for p in st.players.values() if p.alive and p.seat and p.team is not None
                  and p.team.name.lower() == "mafia"]
    commands = st.commands
    await h.dm(h.user(mafioso.user_id), "anyone still here?")
    assert h.texts(mafioso.user_id)[-1] == ("No teammate of yours is left to hear you: your "
                                            "messages reach nobody.")
    assert (await h.game()).state.commands == commands
