"""After a crash (issue 12, bot/telegram/shown.py): a step whose messages were still queued in the Sender
when the process died is shown again when its game is recovered; a clean stop, and a game stored
before the "shown" watermark existed, show nothing again.

A crash is simulated by holding the Sender's lanes of some chats (their calls wait for a token
forever, as if the process had stalled), then starting a new harness on the same database and
"Telegram" without stopping or draining the first one (:func:`abandon` cleans it up at the end
without writing anything)."""

from __future__ import annotations

import asyncio

from bot.games.noir.drafting import stamp
from bot.telegram.shown import KEY
from bot.ui.callbacks import Act
from engine import Phase
from engine.noir import legal_actions
from tests.bot import noir_driver as nd
from tests.bot.driver import press_action
from tests.bot.harness import GROUP, Harness, make_harness
from tests.bot.helpers import end_speech, nominate, start_game

WRITES = ("sendMessage", "editMessageText", "editMessageReplyMarkup", "sendPhoto",
          "editMessageMedia", "pinChatMessage", "unpinChatMessage", "deleteMessage")


class Hold:
    """Holds the Sender of ``h``: calls to ``chats`` stay queued until :meth:`release`."""

    def __init__(self, h: Harness, *chats: int) -> None:
        self.chats, self.gate = set(chats), asyncio.Event()
        limiter = h.app.sender.limiter
        acquire = limiter.acquire

        async def held(chat_id: int) -> None:
            if chat_id in self.chats:
                await self.gate.wait()
            await acquire(chat_id)

        limiter.acquire = held  # type: ignore[method-assign]  # a test double: holds chosen chats

    def release(self) -> None:
        self.chats.clear()
        self.gate.set()


def hold(h: Harness, *chats: int) -> Hold:
    """From now on the Sender of ``h`` sends nothing more to ``chats``: their calls stay queued."""
    return Hold(h, *chats)


async def feed(h: Harness, update) -> None:
    """Feed an update without waiting for the Sender (its lanes may be held)."""
    await h.app.dp.feed_update(h.app.bot, update)


async def crash(h: Harness) -> None:
    """The process dies: what it stored (log, ui writes already queued) is in the database,
    what its Sender still held is not sent."""
    await h.service.drain()


async def abandon(h: Harness) -> None:
    """Clean up a crashed harness: its held calls are dropped, nothing more is written."""
    h.app.deadlines.shutdown()
    h.service.persist_ui_soon = lambda g: None  # a dead process writes nothing
    h.app.presenter.on_ui_change = None
    await h.app.sender.close(timeout=0)
    await h.app.sender.limiter.close()
    await h.app.storage.close()


def writes(h: Harness) -> int:
    return sum(1 for c in h.session.calls if c.method in WRITES)


def turn_button(h: Harness, phase_seq: int):
    """The «End speech» button of the turn message of ``phase_seq`` in the group, or None."""
    for mid, b in h.buttons(GROUP):
        data = b.get("callback_data") or ""
        if data.startswith("a:") and Act.unpack(data).a == "end" \
                and Act.unpack(data).s == phase_seq:
            return mid
    return None


async def to_last_sleeper(h: Harness):
    """Start a 7-player party game, everyone reads his role, all but one sleep on night 1.
    Returns (the last sleeper, the message id and data of his «sleep» button)."""
    await start_game(h)
    by_id = {u.id: u for u in h.users}
    st = (await h.game()).state
    for p in st.alive_active():
        assert await press_action(h, by_id[p.user_id], p.user_id, "ready") == "✅"
    st = (await h.game()).state
    assert st.phase is Phase.NIGHT
    sleepers = st.alive_active()
    for p in sleepers[:-1]:
        assert await press_action(h, by_id[p.user_id], p.user_id, "sleep") == "💤"
    last = sleepers[-1].user_id
    for mid, b in h.buttons(last):
        data = b.get("callback_data") or ""
        if data.startswith("a:") and Act.unpack(data).a == "sleep":
            return by_id[last], mid, data
    raise AssertionError("no sleep button")


async def crash_at_morning(h: Harness):
    """The last sleeper's press starts day 1; the process dies before the group gets the
    morning and the first turn's message. Returns the state (day 1, first speech)."""
    user, mid, data = await to_last_sleeper(h)
    hold(h, GROUP)
    await feed(h, h.updates.callback(user, (user.id, mid), data))
    st = (await h.game()).state
    assert st.phase is Phase.SPEECH and st.day == 1
    assert turn_button(h, st.phase_seq) is None  # not delivered
    await crash(h)
    return st


async def test_the_first_turn_lost_in_a_crash_is_sent_after_the_recovery(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=7)
    h2 = None
    try:
        st = await crash_at_morning(h)
        game_id = (await h.game()).id
        rec = await h.service.storage.get_game(game_id)
        assert rec.ui[KEY] < rec.log_len  # the store knows the last step did not go out
        h2 = await make_harness(sqlite_url, n_users=7, session=h.session, clock=h.clock)
        await h2.app.sender.drain()
        assert turn_button(h2, st.phase_seq) is not None  # the turn message, with its buttons
        assert (await h2.game()).ui[KEY] == rec.log_len  # everything has left now
        assert await press_action(h2, h2.user(st.speaker), GROUP, "end") == "⏹"
        assert (await h2.game()).state.speaker != st.speaker  # ... and it works
    finally:
        if h2 is not None:
            await h2.stop()
        await abandon(h)


async def test_a_clean_stop_and_restart_sends_nothing_again(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=7)
    user, mid, data = await to_last_sleeper(h)
    await h.press(user, user.id, mid, data)
    game_id = (await h.game()).id
    await h.stop()
    before = writes(h)
    h2 = await make_harness(sqlite_url, n_users=7, session=h.session, clock=h.clock)
    try:
        await h2.app.sender.drain()
        assert writes(h2) == before  # nothing shown again
        g = await h2.game()
        assert g.ui[KEY] == (await h2.log_len(game_id))
    finally:
        await h2.stop()


async def test_a_game_stored_without_a_watermark_is_taken_as_fully_shown(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=7)
    h2 = None
    try:
        st = await crash_at_morning(h)
        game_id = (await h.game()).id
        ui = dict((await h.service.storage.get_game(game_id)).ui)
        del ui[KEY]  # as stored before the watermark existed
        await h.service.storage.ui_soon(game_id, ui)
        before = writes(h)
        h2 = await make_harness(sqlite_url, n_users=7, session=h.session, clock=h.clock)
        await h2.app.sender.drain()
        assert writes(h2) == before and turn_button(h2, st.phase_seq) is None
        assert (await h2.game()).ui[KEY] == await h2.log_len(game_id)
    finally:
        if h2 is not None:
            await h2.stop()
        await abandon(h)


async def test_a_vote_lost_in_a_crash_is_sent_after_the_recovery(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=7)
    h2 = None
    try:
        user, mid, data = await to_last_sleeper(h)
        await h.press(user, user.id, mid, data)
        st = (await h.game()).state
        for seat in (2, 3):  # two nominees: a vote follows the speeches and defences
            await nominate(h, seat)
            st = await end_speech(h)
        while st.phase is not Phase.VOTING:  # each end of speech held, till the vote opens
            held = hold(h, GROUP)
            await feed(h, h.updates.callback(
                h.user(st.speaker), (GROUP, turn_button(h, st.phase_seq)),
                Act(g=(await h.game()).id, s=st.phase_seq, a="end").pack()))
            st = (await h.game()).state
            if st.phase is not Phase.VOTING:
                held.release()
                await h.app.sender.drain()
        assert st.phase is Phase.VOTING
        vote_id = (await h.game()).ui.get("vote")
        await crash(h)
        h2 = await make_harness(sqlite_url, n_users=7, session=h.session, clock=h.clock)
        await h2.app.sender.drain()
        g = await h2.game()
        assert g.ui.get("vote") not in (None, vote_id)  # a vote message was sent ...
        voter = h2.user(st.alive_active()[0].user_id)
        assert await press_action(h2, voter, GROUP, "vote") == "🗳"  # ... and takes votes
        assert len((await h2.game()).state.vote.votes) == 1
    finally:
        if h2 is not None:
            await h2.stop()
        await abandon(h)


async def test_NOIR_a_turn_menu_lost_in_a_crash_is_sent_after_the_recovery(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=6)
    h2 = None
    try:
        gid = await nd.open_lobby(h, 6)
        await nd.press_start(h)
        st = await nd.live_state(h, gid)
        first = st.current
        await nd.until_turn(h, gid, first)
        await h.app.sender.drain()  # his turn's messages have left: its deadline may fire
        await h.service.visible.settle()
        hold(h, GROUP, *(u for u in st.players))  # the whole table's messages are held
        await h.deadlines.fire_now(gid)  # his turn times out: the next player's menu is due
        st = await nd.live_state(h, gid)
        nxt = st.current
        assert nxt != first and legal_actions(st, nxt).step == "act"
        assert not nd.menu_buttons(h, nxt, stamp(st))
        await crash(h)
        h2 = await make_harness(sqlite_url, n_users=6, session=h.session, clock=h.clock)
        await h2.app.sender.drain()
        st2 = await nd.live_state(h2, gid)
        assert st2.current == nxt and stamp(st2) == stamp(st)
        buttons = nd.menu_buttons(h2, nxt, stamp(st2))
        assert buttons and "Your turn" in h2.message(nxt, buttons[0][0])["text"]
        assert await nd.press_code(h2, gid, nxt, "o", 1) is None  # the menu works
    finally:
        if h2 is not None:
            await h2.stop()
        await abandon(h)


async def test_a_hand_over_stores_the_watermark_so_the_next_owner_shows_nothing_again(
        sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=7)
    user, mid, data = await to_last_sleeper(h)
    await h.press(user, user.id, mid, data)  # drained: every message has left
    game_id = (await h.game()).id
    await h.service.release([game_id])  # its chat's shard moves to another worker
    assert (await h.service.storage.get_game(game_id)).ui[KEY] == await h.log_len(game_id)
    before = writes(h)
    await h.app.recover()  # the next owner (here: the same stack) takes it over
    await h.app.sender.drain()
    try:
        assert writes(h) == before and game_id in h.service.games
    finally:
        await h.stop()


async def test_a_hand_over_with_messages_still_queued_shows_nothing_again(sqlite_url: str):
    """The worker that hands a game over lives on and its Sender delivers what it queued: the
    next owner must not show those steps again (they would arrive twice, and at Telegram's
    20 calls a minute a group would wait for the copies)."""
    h = await make_harness(sqlite_url, n_users=7)
    try:
        user, mid, data = await to_last_sleeper(h)
        held = hold(h, GROUP)
        await feed(h, h.updates.callback(user, (user.id, mid), data))  # morning + first turn
        game_id = (await h.game()).id
        await h.service.release([game_id])
        assert (await h.service.storage.get_game(game_id)).ui[KEY] == await h.log_len(game_id)
        before = writes(h)
        await h.app.recover()  # the next owner takes it over
        held.release()  # the old Sender delivers what it held
        await asyncio.wait_for(h.app.sender.drain(), 20)
        turns = [c for c in h.session.calls[before:] if c.method == "sendMessage"
                 and c.chat_id == GROUP]
        assert len(turns) == len({c.text for c in turns})  # nothing twice
    finally:
        await h.stop()
