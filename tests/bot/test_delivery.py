"""Telegram errors while a game runs: a blocked player (403), flood control (429), "message is
not modified" and "query is too old". None of them may lose a command or stop the game."""

from __future__ import annotations

import logging

from aiogram.exceptions import TelegramRetryAfter

from bot.games.mafia.live import LIVE_GAP
from engine import Phase
from tests.bot.driver import join_all, play_to_end, press_action
from tests.bot.harness import GROUP, Harness, text_of
from tests.bot.helpers import end_speech, role_card_heads, start_game, to_day, to_voting
from tests.fakes.telegram import NOT_MODIFIED, QUERY_TOO_OLD, plain_text


def bot_errors(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.levelno >= logging.ERROR and r.name.startswith("bot")]


async def test_PARTY_Q20_blocked_player_becomes_inactive_and_the_game_goes_on(h: Harness):
    blocked = h.users[2]
    game_id = await join_all(h)  # he joined (so the bot could write to him), then blocked it
    h.session.fail(method="sendMessage", chat_id=blocked.id, error_code=403, times=None)
    mark = len(h.session.calls)
    await h.command(h.users[0], "/startgame")

    st = (await h.game()).state
    assert not st.players[blocked.id].active and st.players[blocked.id].alive
    seat = st.players[blocked.id].seat
    group = h.sent_texts(GROUP)
    assert any(f"№{seat} {blocked.first_name} cannot be reached in private" in t
               for t in group), group
    # Every other player still got his role card; the reading gate waits only for them.
    heads = role_card_heads(h.app.translator)
    for p in st.seated():
        cards = [c for c in h.sent(p.user_id, ("sendMessage",), ok_only=False)
                 if any(x in plain_text(text_of(c)) for x in heads)]
        assert len(cards) == 1
        assert cards[0].ok is (p.user_id != blocked.id)
    assert blocked.id not in [p.user_id for p in st.alive_active()]

    await play_to_end(h, seed=3)
    rec = await h.service.storage.get_game(game_id)
    assert rec.status == "finished"
    final = (await h.service.live(game_id)).state
    assert final.players[blocked.id].role is not None  # PARTY-41: he kept his role
    assert any(f"⏭ №{seat} {blocked.first_name} is inactive: turn skipped." in t for t in h.sent_texts(GROUP))
    to_him = [c for c in h.session.calls[mark:] if c.chat_id == blocked.id]
    # one try, then nothing until he is heard from (issue 19: not one 403 per message)
    assert len(to_him) == 1 and not to_him[0].ok


async def test_429_retry_after_is_honoured_and_the_state_is_not_affected(h: Harness):
    await start_game(h)
    st = await to_day(h)
    game_id = (await h.game()).id
    log_before = await h.log_len(game_id)
    h.session.fail("sendMessage", chat_id=GROUP, retry_after=1, times=1)

    assert st.speaker is not None
    speaker = h.user(st.speaker)
    mid, button = h.find_button(GROUP, action="end")
    update = h.updates.callback(speaker, (GROUP, mid), button["callback_data"])
    await h.app.dp.feed_update(h.app.bot, update)  # no drain: the send is still waiting
    st2 = (await h.game()).state
    assert st2.phase is Phase.SPEECH and st2.speaker != st.speaker
    assert await h.log_len(game_id) == log_before + 1  # the command is stored before any send
    next_turn = f"Speech of №{st2.players[st2.speaker].seat} "
    assert not any(next_turn in t for t in h.sent_texts(GROUP))

    await h.app.sender.drain()
    attempts = [c for c in h.session.calls.calls_to("sendMessage", GROUP) if next_turn in text_of(c)]
    assert len(attempts) == 2
    assert isinstance(attempts[0].error, TelegramRetryAfter) and attempts[1].ok
    assert attempts[1].time - attempts[0].time >= 1.0
    assert h.session.message(GROUP, attempts[1].result.message_id) is not None
    st3 = (await h.game()).state
    assert (st3.phase_seq, st3.speaker) == (st2.phase_seq, st2.speaker)
    assert await h.log_len(game_id) == log_before + 1
    # The delayed message works: its «End speech» button moves the game on.
    st4 = await end_speech(h)
    assert st4.phase_seq == st3.phase_seq + 1


async def test_message_not_modified_and_query_too_old_break_nothing(h: Harness, caplog):
    await start_game(h)
    await to_day(h)
    st = await to_voting(h, seats=(2, 3))
    game_id = (await h.game()).id
    caplog.set_level(logging.INFO)
    h.session.fail("editMessageText", chat_id=GROUP, error_code=400, description=NOT_MODIFIED,
                   times=None)
    h.session.fail("answerCallbackQuery", error_code=400, description=QUERY_TOO_OLD, times=None)

    voters = [p for p in st.alive_active()][:3]
    for p in voters:
        log_before = await h.log_len(game_id)
        h.clock.advance(LIVE_GAP)  # each vote's edit goes out (issue 11: else held a while)
        await press_action(h, h.user(p.user_id), GROUP, "vote")  # feed_update does not raise
        assert await h.log_len(game_id) == log_before + 1
    st = (await h.game()).state
    assert st.phase is Phase.VOTING and set(st.vote.votes) == {p.user_id for p in voters}
    assert all(not c.ok for c in h.session.calls.calls_to("answerCallbackQuery")[-3:])
    assert h.app.sender.stats.errors["ignored"] >= 3
    assert not bot_errors(caplog)

    # The game carries on: the remaining windows close and someone leaves or a tie follows.
    h.session.clear_failures()
    await h.fire()
    await h.fire()
    st = (await h.game()).state
    assert st.phase is not Phase.VOTING
    assert not bot_errors(caplog)
