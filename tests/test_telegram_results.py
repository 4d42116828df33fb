"""bot/telegram/results.py: the Sender's messages are parsed only when read, errors unchanged."""

from __future__ import annotations

import gc
import re
import weakref

import pytest
from aiogram.exceptions import (
    ClientDecodeError,
    TelegramBadRequest,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import Response
from aiogram.methods import SendMessage as AiogramSendMessage
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.telegram.results import (
    EditMessageReplyMarkup,
    EditMessageText,
    LazyMessage,
    SendMessage,
    parsed,
)
from tests.fakes import NOT_MODIFIED, RecordingSession, make_bot

GROUP = -1001000000001


def keyboard() -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[[InlineKeyboardButton(text="go", callback_data="g")]])


@pytest.fixture
def session() -> RecordingSession:
    return RecordingSession()


async def test_a_sent_message_is_parsed_only_when_read(session) -> None:
    bot = make_bot(session)
    sent = await bot(SendMessage(chat_id=GROUP, text="<b>hi</b>", reply_markup=keyboard()))
    assert isinstance(sent, LazyMessage)
    assert sent._message is None  # noqa: SLF001 - nothing parsed yet
    assert sent.message_id == session.calls.calls_to("sendMessage")[0].result.message_id
    assert sent._message is None  # noqa: SLF001 - the id comes from the JSON
    assert sent.chat.id == GROUP and sent.text == "hi"  # parsed on first read, bound to the bot
    assert isinstance(sent.message, Message) and sent.message.bot is bot
    assert sent.reply_markup is not None
    assert sent.reply_markup.model_dump() == keyboard().model_dump()
    assert parsed(sent) is sent.message and parsed(True) is True
    # the same answer as aiogram's own method gives
    plain = await bot(AiogramSendMessage(chat_id=GROUP, text="<b>hi</b>", reply_markup=keyboard()))
    assert sent.model_dump(exclude={"message_id"}) == plain.model_dump(exclude={"message_id"})


async def test_edits_answer_lazily_too(session) -> None:
    bot = make_bot(session)
    sent = await bot(SendMessage(chat_id=GROUP, text="one"))
    edited = await bot(EditMessageText(chat_id=GROUP, message_id=sent.message_id, text="two",
                                       reply_markup=keyboard()))
    assert isinstance(edited, LazyMessage) and edited.message_id == sent.message_id
    assert edited.text == "two"
    markup = await bot(EditMessageReplyMarkup(chat_id=GROUP, message_id=sent.message_id))
    assert isinstance(markup, LazyMessage) and markup.reply_markup is None


async def test_errors_are_aiogram_s_own(session) -> None:
    bot = make_bot(session)
    sent = await bot(SendMessage(chat_id=GROUP, text="same"))
    with pytest.raises(TelegramBadRequest, match=re.escape(NOT_MODIFIED)):
        await bot(EditMessageText(chat_id=GROUP, message_id=sent.message_id, text="same"))
    session.fail("sendMessage", retry_after=3)
    with pytest.raises(TelegramRetryAfter) as flood:
        await bot(SendMessage(chat_id=GROUP, text="x"))
    assert flood.value.retry_after == 3
    session.fail("sendMessage", error_code=502, body="<html>502 Bad Gateway</html>")
    with pytest.raises(ClientDecodeError):  # bot/telegram/faults.py makes it a server error
        await bot(SendMessage(chat_id=GROUP, text="x"))
    session.fail("sendMessage", error_code=500)
    with pytest.raises(TelegramServerError):
        await bot(SendMessage(chat_id=GROUP, text="x"))


async def test_a_result_that_is_no_message_is_validated_at_once(session) -> None:
    bot = make_bot(session)
    method = SendMessage(chat_id=GROUP, text="x")
    with pytest.raises(ClientDecodeError):  # a "message" without an id: refused, as before
        session.check_response(bot, method, 200, '{"ok": true, "result": {"text": "x"}}')
    edit = EditMessageText(inline_message_id="abc", text="x")
    assert session.check_response(bot, edit, 200, '{"ok": true, "result": true}').result is True


def test_the_response_models_are_built_once() -> None:
    """pydantic keeps parametrised generics weakly; ours must survive a collection, or every
    call would build its ``Response[...]`` model again."""
    for method in (SendMessage, EditMessageText, EditMessageReplyMarkup):
        # what ``Response[method.__returning__]`` calls (a runtime type: no type expression)
        model = weakref.ref(Response.__class_getitem__(method.__returning__))
        gc.collect()
        assert model() is not None
