"""Tests of the stand-in Bot API itself: photos -- send, edit media and caption, refused
without the media right, bad pictures (a real aiogram Bot over HTTP in-process)."""

from __future__ import annotations

import io

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import BufferedInputFile, InputMediaPhoto, Message
from PIL import Image

from .fake_api import FakeBotAPI
from .fake_api_fixtures import GROUP, png, vote_keyboard
from .fake_api_fixtures import api_fixture as api_fixture  # noqa: F401 - the api fixture
from .fake_api_fixtures import bot_fixture as bot_fixture  # noqa: F401 - the bot fixture


async def test_send_photo_then_edit_media_and_caption(api: FakeBotAPI, bot: Bot) -> None:
    alice = api.user(1001, "Alice")
    api.group(GROUP, "Mafia night", members=[alice])
    first, second = png(colour="navy"), png(60, 20, colour="gold")
    sent = await bot.send_photo(GROUP, BufferedInputFile(first, filename="board.png"),
                                caption="<b>Arrests 0/4</b> · Dead 0/18", reply_markup=vote_keyboard())
    assert sent.caption_entities is not None and sent.photo is not None
    assert sent.caption == "Arrests 0/4 · Dead 0/18" and sent.caption_entities[0].type == "bold"
    assert (sent.photo[-1].width, sent.photo[-1].height) == (40, 30)
    (call,) = api.calls_to("sendPhoto")
    assert call.params["photo"].startswith("attach://")  # aiogram's multipart upload, as sent
    stored = api.last_message(GROUP, containing="Arrests")
    assert stored is not None and stored.photo_bytes == first
    assert stored.button_texts[:2] == ["Vote Alice", "Vote Bob"]

    edited = await bot.edit_message_media(
        InputMediaPhoto(media=BufferedInputFile(second, filename="board.png"), caption="Arrests <i>1</i>/4"),
        chat_id=GROUP, message_id=sent.message_id)
    assert isinstance(edited, Message) and edited.edit_date is not None and edited.photo is not None
    assert (edited.photo[-1].width, edited.photo[-1].height) == (60, 20)
    assert (stored.photo_bytes, stored.caption, stored.reply_markup) == (second, "Arrests 1/4", None)
    assert [(e.photo_bytes, e.caption) for e in stored.edits] == [(first, "Arrests 0/4 · Dead 0/18")]
    assert Image.open(io.BytesIO(stored.photo_bytes)).format == "PNG"
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_media(InputMediaPhoto(media=BufferedInputFile(second, filename="b.png"),
                                                     caption="Arrests <i>1</i>/4"),
                                     chat_id=GROUP, message_id=sent.message_id)
    again = await bot.edit_message_media(InputMediaPhoto(media=edited.photo[-1].file_id, caption="by id"),
                                         chat_id=GROUP, message_id=sent.message_id)
    assert isinstance(again, Message)
    assert again.caption == "by id" and stored.photo_bytes == second  # a file_id re-uses the upload

    await bot.edit_message_caption(chat_id=GROUP, message_id=sent.message_id, caption="<b>Dead 2/18</b>",
                                   reply_markup=vote_keyboard())
    assert (stored.caption, stored.photo_bytes, len(stored.buttons)) == ("Dead 2/18", second, 3)
    with pytest.raises(TelegramBadRequest, match="there is no text in the message to edit"):
        await bot.edit_message_text("text now", chat_id=GROUP, message_id=sent.message_id)
    text = await bot.send_message(GROUP, "a text board")
    with pytest.raises(TelegramBadRequest, match="there is no caption in the message to edit"):
        await bot.edit_message_caption(chat_id=GROUP, message_id=text.message_id, caption="x")
    turned = await bot.edit_message_media(InputMediaPhoto(media=BufferedInputFile(first, filename="b.png")),
                                          chat_id=GROUP, message_id=text.message_id)
    assert isinstance(turned, Message)
    assert turned.text is None and turned.photo and api.message(GROUP, text.message_id).text is None


async def test_photos_refused_without_the_media_right_and_bad_pictures(api: FakeBotAPI, bot: Bot) -> None:
    alice = api.user(1001, "Alice")
    chat = api.group(GROUP, "Mafia night", admins=[alice], bot_status="member")
    chat.permissions["can_send_photos"] = False
    with pytest.raises(TelegramBadRequest, match="not enough rights to send photos to the chat") as caught:
        await bot.send_photo(GROUP, BufferedInputFile(png(), filename="board.png"), caption="board")
    assert caught.value.message == "Bad Request: not enough rights to send photos to the chat"
    assert api.calls_to("sendPhoto")[-1].error_code == 400
    sent = await bot.send_message(GROUP, "text grid")  # texts still go
    with pytest.raises(TelegramBadRequest, match="not enough rights to send photos"):
        await bot.edit_message_media(InputMediaPhoto(media=BufferedInputFile(png(), filename="b.png")),
                                     chat_id=GROUP, message_id=sent.message_id)
    assert api.messages(GROUP) == [api.message(GROUP, sent.message_id)]

    await api.set_bot_status(GROUP, "administrator")  # administrators are above the group's permissions
    await bot.send_photo(GROUP, BufferedInputFile(png(), filename="board.png"))
    await alice.start()
    with pytest.raises(TelegramBadRequest, match="IMAGE_PROCESS_FAILED"):
        await bot.send_photo(alice.id, BufferedInputFile(b"not a picture", filename="board.png"))
    with pytest.raises(TelegramBadRequest, match="PHOTO_INVALID_DIMENSIONS"):
        await bot.send_photo(alice.id, BufferedInputFile(png(900, 30), filename="strip.png"))
    with pytest.raises(TelegramBadRequest, match="wrong file identifier"):
        await bot.send_photo(alice.id, "AgACnonsense")
    with pytest.raises(TelegramBadRequest, match="message text is empty"):
        await bot.send_photo(alice.id, BufferedInputFile(png(), filename="board.png"), caption="<b> </b>")
    assert api.messages(alice.id) == []
