"""After a crash, what was visibly sent is not sent again (issue 19, item 2; bot/telegram/shown.py).

The "shown" watermark is stored as soon as a step's messages have left (not with a later write),
and per chat: a step whose group messages left while a player's private message was still
queued is shown again to that player only. A standing message a re-shown step sends afresh
supersedes the stored one, which keeps no live button of an older phase.

A crash is simulated as in tests/bot/test_reshow.py: some chats' lanes held, the store drained,
a new harness on the same database and "Telegram", the old one abandoned without writing."""

from __future__ import annotations

import asyncio

from bot.telegram.shown import CHATS_KEY, KEY
from bot.ui.callbacks import Act
from engine import Phase
from tests.bot.driver import press_action
from tests.bot.harness import GROUP, Harness, make_harness
from tests.bot.helpers import start_game
from tests.bot.test_reshow import abandon, crash, crash_at_morning, feed, hold, to_last_sleeper, writes


def group_writes(h: Harness) -> list[str]:
    return [c.method for c in h.session.calls if c.chat_id == GROUP and c.ok]


def stale_buttons(h: Harness, phase_seq: int) -> list[tuple[int, str]]:
    """Live action buttons in the group of another phase than ``phase_seq`` (``s=0``: the
    game's own controls, e.g. «pause» on the table, belong to no phase)."""
    out = []
    for mid, b in h.buttons(GROUP):
        data = b.get("callback_data") or ""
        if data.startswith("a:") and Act.unpack(data).s not in (0, phase_seq):
            out.append((mid, data))
    return out


async def test_a_step_shown_before_the_crash_is_not_shown_again(sqlite_url: str, caplog):
    h = await make_harness(sqlite_url, n_users=7)
    h2 = None
    try:
        user, mid, data = await to_last_sleeper(h)
        await h.press(user, user.id, mid, data)  # the morning and the first turn: all delivered
        await h.app.sender.drain()
        game_id = (await h.game()).id
        await crash(h)
        rec = await h.service.storage.get_game(game_id)
        assert rec.ui[KEY] == rec.log_len  # stored as soon as the messages left
        before = writes(h)
        h2 = await make_harness(sqlite_url, n_users=7, session=h.session, clock=h.clock)
        await h2.app.sender.drain()
        assert writes(h2) == before  # no duplicate of the morning, no second turn message
        assert "shown again after a crash" not in caplog.text
    finally:
        if h2 is not None:
            await h2.stop()
        await abandon(h)


async def test_a_step_the_group_had_is_shown_again_only_to_the_player_who_missed_it(
        sqlite_url: str):
    """Night falls: the group got its message, one player's night prompt was still queued."""
    h = await make_harness(sqlite_url, n_users=7)
    h2 = None
    try:
        await start_game(h)
        st = (await h.game()).state
        by_id = {u.id: u for u in h.users}
        players = st.alive_active()
        for p in players[:-1]:
            assert await press_action(h, by_id[p.user_id], p.user_id, "ready") == "✅"
        last = players[-1].user_id
        missed = players[0].user_id
        hold(h, missed)
        mid, data = next((m, b["callback_data"]) for m, b in h.buttons(last)
                         if Act.unpack(b["callback_data"]).a == "ready")
        await feed(h, h.updates.callback(by_id[last], (last, mid), data))
        st = (await h.game()).state
        assert st.phase is Phase.NIGHT
        game_id = (await h.game()).id
        for _ in range(500):  # every lane but the held player's empties
            if all(chat == missed for chat in h.app.sender._lanes):
                break
            await asyncio.sleep(0.01)
        await crash(h)
        rec = await h.service.storage.get_game(game_id)
        assert rec.ui[KEY] < rec.log_len and int(rec.ui[CHATS_KEY][str(GROUP)]) == rec.log_len
        group_before = group_writes(h)
        to_missed = len(h.session.calls.calls_to("sendMessage", missed))
        h2 = await make_harness(sqlite_url, n_users=7, session=h.session, clock=h.clock)
        await h2.app.sender.drain()
        assert group_writes(h2) == group_before  # the group saw night fall once
        assert len(h2.session.calls.calls_to("sendMessage", missed)) > to_missed  # his prompt
    finally:
        if h2 is not None:
            await h2.stop()
        await abandon(h)


async def test_a_recovered_turn_leaves_no_live_button_of_another_phase(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=7)
    h2 = None
    try:
        st = await crash_at_morning(h)
        h2 = await make_harness(sqlite_url, n_users=7, session=h.session, clock=h.clock)
        await h2.app.sender.drain()
        assert stale_buttons(h2, st.phase_seq) == []
        group = [c for c in h2.session.calls if c.chat_id == GROUP and c.method == "sendMessage"]
        assert sum("Morning" in (c.text or "") or "☀" in (c.text or "") for c in group) <= 1
    finally:
        if h2 is not None:
            await h2.stop()
        await abandon(h)


async def test_per_chat_marks_and_their_prompt_storing() -> None:
    """Bookkeeping without a bot: a chat whose futures of a step all resolved is noted ahead of
    the game's watermark, and every move is handed to ``on_advance`` at once."""
    from dataclasses import dataclass, field

    from bot.telegram.shown import Watermarks, note, note_chat

    @dataclass
    class G:
        id: int = 1
        ui: dict = field(default_factory=dict)

    loop = asyncio.get_running_loop()
    marks, g, stored = Watermarks(), G(), []
    marks.on_advance = lambda game: stored.append(dict(game.ui))
    to_group, to_player = loop.create_future(), loop.create_future()
    with marks.step(g, 4):
        for future, chat in ((to_group, GROUP), (to_player, 7)):
            note(future)
            note_chat(future, chat)
    to_group.set_result("sent")
    await asyncio.sleep(0)
    assert g.ui[CHATS_KEY] == {str(GROUP): 4} and g.ui[KEY] == 3  # the player still waits
    assert stored[-1] == g.ui  # stored at once, not with a later write
    to_player.set_result("sent")
    await asyncio.sleep(0)
    assert g.ui[KEY] == 4 and CHATS_KEY not in g.ui
    assert stored[-1] == {KEY: 4}


async def test_a_standing_message_sent_afresh_on_a_reshow_takes_the_old_ones_buttons(
        sqlite_url: str):
    from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

    from bot.telegram import shown

    h = await make_harness(sqlite_url, n_users=7)
    try:
        await start_game(h)
        g = await h.game()
        markup = InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(
            text="x", callback_data="a:1:9:end:1")]])
        old = await h.app.sender.send(GROUP, "the turn, before the crash", markup)
        g.ui["probe"] = old.message_id
        again = shown._Suppress(frozenset())  # a step shown again
        token = shown._suppressing.set(again)
        try:
            h.app.presenter.keep(g, "probe", h.app.sender.send(GROUP, "the turn, again", markup))
        finally:
            again.open = False
            shown._suppressing.reset(token)
        await h.app.sender.drain()
        live = {mid for mid, b in h.buttons(GROUP) if b.get("callback_data") == "a:1:9:end:1"}
        assert live == {g.ui["probe"]} and g.ui["probe"] != old.message_id
    finally:
        await h.stop()
