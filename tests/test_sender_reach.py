"""The Sender's smaller cases of issue 19, item 6: a press's answer retried for as long as
Telegram's answer window allows (not a count of attempts); a player who blocked the bot gets no
more private messages until he is heard from; after a group's migration to a supergroup, an edit
of a message left in the old group is sent afresh (with buttons) or dropped, never "message to
edit not found"."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
from aiogram.types import (
    CallbackQuery,
    Chat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
    User,
)

from bot.handlers.common import watch_users
from bot.telegram.faults import ANSWER_MARGIN, ANSWER_WINDOW
from bot.telegram.sender import Sender
from bot.telegram.update_context import CURRENT_UPDATE, UpdateTag
from tests.fakes import RecordingSession, make_bot

GROUP = -4001
SUPERGROUP = -1004001
ALICE = 1001
FAST = {"group_rate": (100_000, 1.0), "private_rate": (100_000, 1.0), "global_rate": (100_000, 1.0)}
BLOCKED = "Forbidden: bot was blocked by the user"


def keyboard(label: str = "Vote") -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text=label, callback_data=label)]])


@pytest.fixture
async def made():
    senders: list[Sender] = []

    def make(session: RecordingSession, **kwargs) -> Sender:
        sender = Sender(make_bot(session), **{**FAST, **kwargs})
        senders.append(sender)
        return sender

    yield make
    for sender in senders:
        await sender.close(timeout=1.0)


def fake_time() -> tuple[dict[str, float], object]:
    clock = {"now": 0.0}

    async def sleep(seconds: float) -> None:
        clock["now"] += seconds

    return clock, sleep


async def test_an_answer_is_retried_until_the_window_closes_not_for_a_count(made) -> None:
    session = RecordingSession()
    clock, sleep = fake_time()
    sender = made(session, sleep=sleep, clock=lambda: clock["now"])
    session.fail("answerCallbackQuery", error_code=502, times=None)
    assert await sender.answer("press") is None
    tries = len(session.calls.calls_to("answerCallbackQuery"))
    assert tries >= 8  # five used to end it after ~6 s with 9 s of the window left
    assert clock["now"] <= ANSWER_WINDOW - ANSWER_MARGIN


async def test_an_answer_counts_its_window_from_the_press(made) -> None:
    """The press arrived 10 s ago: only the window's last seconds are left for retries."""
    session = RecordingSession()
    clock, sleep = fake_time()
    sender = made(session, sleep=sleep, clock=lambda: clock["now"])
    session.fail("answerCallbackQuery", error_code=502, times=None)
    token = CURRENT_UPDATE.set(UpdateTag(7, received=time.monotonic() - 10.0))
    try:
        assert await sender.answer("press") is None
    finally:
        CURRENT_UPDATE.reset(token)
    assert clock["now"] <= ANSWER_WINDOW - ANSWER_MARGIN - 10.0 + 0.5


async def test_a_user_who_blocked_the_bot_gets_nothing_until_heard_from(made) -> None:
    session = RecordingSession()
    unreachable: list[int] = []

    async def on_forbidden(chat_id: int) -> None:
        unreachable.append(chat_id)

    sender = made(session, on_forbidden=on_forbidden)
    session.fail("sendMessage", chat_id=ALICE, error_code=403, description=BLOCKED, times=None)
    first = [sender.send(ALICE, f"card {i}", merge=False) for i in range(3)]
    assert [await f for f in first] == [None, None, None]
    for i in range(10):
        assert await sender.send(ALICE, f"night prompt {i}") is None
    await sender.drain()
    assert len(session.calls.calls_to("sendMessage", ALICE)) == 1
    # Telegram was asked once; the game hears of every message he did not get, as it heard of
    # each 403 before (it keeps him unreachable: a press must not bring him back, issue 20)
    assert set(unreachable) == {ALICE} and len(unreachable) >= 10

    # he presses a button in the group: his private chat is tried again
    user = User(id=ALICE, is_bot=False, first_name="Alice")
    press = Update(update_id=5, callback_query=CallbackQuery(
        id="q", from_user=user, chat_instance="c", data="x"))

    async def handler(event, data) -> str:
        return "handled"

    assert await watch_users(handler, press, {"event_from_user": user, "sender": sender}) == "handled"
    session.clear_failures()
    assert await sender.send(ALICE, "your turn") is not None
    assert len(session.calls.calls_to("sendMessage", ALICE)) == 2


async def test_a_group_message_of_his_does_not_make_him_reachable(made) -> None:
    session = RecordingSession()
    sender = made(session)
    session.fail("sendMessage", chat_id=ALICE, error_code=403, description=BLOCKED)
    assert await sender.send(ALICE, "card") is None
    user = User(id=ALICE, is_bot=False, first_name="Alice")
    said = Update(update_id=6, message=Message(
        message_id=1, date=datetime.now(UTC), chat=Chat(id=GROUP, type="group"), from_user=user, text="hi"))

    async def handler(event, data) -> None:
        return None

    await watch_users(handler, said, {"event_from_user": user, "sender": sender})
    assert ALICE in sender.blocked


async def test_after_a_migration_old_messages_are_not_edited_in_the_supergroup(made) -> None:
    session = RecordingSession()
    sender = made(session)
    for i in range(2):  # a basic group's ids come from the bot's whole account: larger ones
        await sender.send(GROUP, f"earlier {i}", merge=False)
    table = await sender.send(GROUP, "table", keyboard())
    note = await sender.send(GROUP, "a note", merge=False)
    session.fail("sendMessage", chat_id=GROUP, migrate_to_chat_id=SUPERGROUP, times=None)
    moved = await sender.send(GROUP, "first in the supergroup")
    assert moved.chat.id == SUPERGROUP

    fresh = await sender.edit(GROUP, table.message_id, "table, day 2", keyboard("Vote 2"))
    assert fresh is not None and fresh.chat.id == SUPERGROUP
    assert await sender.edit(GROUP, note.message_id, "an edit of a plain note") is None
    later = await sender.edit(GROUP, table.message_id, "table, day 3", keyboard("Vote 3"))
    edits = session.calls.calls_to("editMessageText", SUPERGROUP)
    assert [c.message_id for c in edits] == [fresh.message_id]
    assert later is not None
    assert await sender.edit(SUPERGROUP, moved.message_id, "its own message") is not None
    assert len(session.calls.calls_to("editMessageText", SUPERGROUP)) == 2
