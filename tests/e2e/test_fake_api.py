"""Tests of the stand-in Bot API itself, driven by a real aiogram Bot over HTTP in-process."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramConflictError
from aiogram.types import Message
from aiogram.utils.keyboard import InlineKeyboardBuilder

from tests.fakes.telegram import EntityError, plain_text

from .fake_api import FakeBotAPI
from .fake_api_fixtures import TOKEN, message_of, vote_keyboard
from .fake_api_fixtures import api_fixture as api_fixture  # noqa: F401 - the api fixture
from .fake_api_fixtures import bot_fixture as bot_fixture  # noqa: F401 - the bot fixture
from .markup import MarkupError, parse_html, user_entities


async def test_get_me(bot: Bot) -> None:
    me = await bot.get_me()
    assert (me.id, me.is_bot, me.username, me.can_join_groups) == (123456, True, "mafia_e2e_bot", True)
    assert me.can_read_all_group_messages is False  # privacy mode


async def test_unknown_method_and_wrong_token(api: FakeBotAPI) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{api.base_url}/bot{TOKEN}/sendTelepathy", json={"chat_id": 1}) as response:
            assert response.status == 404
            assert await response.json() == {"ok": False, "error_code": 404,
                                             "description": "Not Found: method not found"}
        async with http.get(f"{api.base_url}/bot999:WRONG/getMe") as response:
            assert response.status == 401
        async with http.get(f"{api.base_url}/bot{TOKEN}/getme") as response:  # case-insensitive, GET
            assert (await response.json())["result"]["username"] == "mafia_e2e_bot"


async def test_a_held_call_waits_and_a_tagged_path_names_its_worker(api: FakeBotAPI) -> None:
    """``api.hold``: the request waits before the method runs (nothing sent yet) until released;
    ``<base>/w/<name>/bot<token>/...``: the call is recorded with ``worker`` = name."""
    alice = api.user(1001, "Alice")
    await alice.start()
    held = api.hold("sendMessage", chat_id=alice.id)
    async with aiohttp.ClientSession() as http:
        url = f"{api.base_url}/w/w7/bot{TOKEN}/sendMessage"
        request = asyncio.ensure_future(http.post(url, json={"chat_id": alice.id, "text": "hi"}))
        await asyncio.wait_for(held.arrived.wait(), 5)
        assert api.messages(alice.id) == [] and not request.done()
        held.release()
        async with await request as response:
            assert (await response.json())["ok"] is True
        async with http.post(url, json={"chat_id": alice.id, "text": "again"}) as response:
            assert (await response.json())["ok"] is True  # a released hold holds nothing more
    sent = api.calls_to("sendMessage")
    assert [(c.worker, c.params["text"]) for c in sent] == [("w7", "hi"), ("w7", "again")]
    assert [c.params["text"] for c in held.calls] == ["hi"]
    assert [m.text for m in api.messages(alice.id)] == ["hi", "again"]


async def test_long_poll_blocks_then_returns_injected_update(api: FakeBotAPI, bot: Bot) -> None:
    alice = api.user(1001, "Alice")
    started = time.monotonic()
    assert await bot.get_updates(timeout=1) == []
    assert 0.9 <= time.monotonic() - started < 2.0

    poll = asyncio.create_task(bot.get_updates(timeout=5))
    await asyncio.sleep(0.2)
    assert not poll.done()
    started = time.monotonic()
    await alice.say(alice.id, "hello")
    updates = await poll
    assert time.monotonic() - started < 0.5
    assert [message_of(u).text for u in updates] == ["hello"]
    assert message_of(updates[0]).chat.type == "private"

    await alice.say(alice.id, "again")
    again = await bot.get_updates(timeout=1)  # no offset: the first update is still unconfirmed
    assert [message_of(u).text for u in again] == ["hello", "again"]
    confirmed = await bot.get_updates(offset=again[-1].update_id + 1, timeout=0)
    assert confirmed == [] and api.pending_updates == []


async def test_concurrent_get_updates_conflict(bot: Bot) -> None:
    first = asyncio.create_task(bot.get_updates(timeout=3))
    await asyncio.sleep(0.1)
    second = asyncio.create_task(bot.get_updates(timeout=0))
    with pytest.raises(TelegramConflictError):
        await first
    assert await second == []


async def test_send_then_edit(api: FakeBotAPI, bot: Bot) -> None:
    alice = api.user(1001, "Alice")
    await alice.start()
    sent = await bot.send_message(alice.id, "<b>Night</b> falls &amp; <i>Ann</i>",
                                  reply_markup=vote_keyboard())
    assert sent.text == "Night falls & Ann"
    assert sent.entities is not None
    assert [(e.type, e.offset, e.length) for e in sent.entities] == [("bold", 0, 5), ("italic", 14, 3)]
    stored = api.last_message(alice.id)
    assert stored is not None and stored.message_id == sent.message_id
    assert stored.button_texts == ["Vote Alice", "Vote Bob", "Rules"]

    edited = await sent.edit_text("Day breaks")  # bound object; no reply_markup removes the keyboard
    assert isinstance(edited, Message) and edited.edit_date is not None
    assert stored.text == "Day breaks" and stored.reply_markup is None
    assert [e.text for e in stored.edits] == ["Night falls & Ann"]
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_text("Day breaks", chat_id=alice.id, message_id=sent.message_id)
    await bot.edit_message_reply_markup(chat_id=alice.id, message_id=sent.message_id,
                                        reply_markup=vote_keyboard())
    assert api.find_button(alice.id, "Bob") == (
        sent.message_id, {"text": "Vote Bob", "callback_data": "vote:2"})

    assert await bot.delete_message(alice.id, sent.message_id)
    assert api.messages(alice.id) == [] and api.message(alice.id, sent.message_id).deleted
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_message(alice.id, sent.message_id)


async def test_html_and_keyboard_rules(api: FakeBotAPI, bot: Bot) -> None:
    alice = api.user(1001, "Alice")
    await alice.start()
    with pytest.raises(TelegramBadRequest, match="can't parse entities"):
        await bot.send_message(alice.id, "Welcome, Tom <script>!")
    with pytest.raises(TelegramBadRequest, match="BUTTON_DATA_INVALID"):
        builder = InlineKeyboardBuilder().button(text="x", callback_data="v" * 65)
        await bot.send_message(alice.id, "hi", reply_markup=builder.as_markup())
    with pytest.raises(TelegramBadRequest, match="message text is empty"):
        await bot.send_message(alice.id, "<b> </b>")
    assert api.messages(alice.id) == []


def test_parse_html_and_user_entities() -> None:
    text, entities = parse_html('😀 <a href="https://x.org/?a=1&amp;b=2">link</a> '
                                '<pre><code class="language-py">x</code></pre>')
    assert text == "😀 link x"
    assert entities == [{"type": "text_link", "url": "https://x.org/?a=1&b=2", "offset": 3, "length": 4},
                        {"type": "pre", "language": "py", "offset": 8, "length": 1}]
    for bad in ("<b>unclosed", "a < b", "<b></i>", "<marquee>x</marquee>", "<a>no href</a>"):
        with pytest.raises(MarkupError):
            parse_html(bad)
    assert user_entities("/vote@mafia_e2e_bot @alice_w") == [
        {"type": "bot_command", "offset": 0, "length": 19}, {"type": "mention", "offset": 20, "length": 8}]


def test_parse_html_date_time_entity() -> None:
    """BOT-X03: ``<tg-time>`` is a ``date_time`` entity (Bot API "HTML style"); its text is the
    fallback an old client shows; a missing unix time or a format outside ``r|w?[dD]?[tT]?``
    is refused."""
    text, entities = parse_html('Until <tg-time unix="1767283470" format="T">16:04:30 UTC</tg-time>.')
    assert text == "Until 16:04:30 UTC."
    assert entities == [{"type": "date_time", "unix_time": 1767283470, "date_time_format": "T",
                         "offset": 6, "length": 12}]
    assert parse_html('<tg-time unix="5">x</tg-time>')[1] == [
        {"type": "date_time", "unix_time": 5, "offset": 0, "length": 1}]
    for bad in ('<tg-time>x</tg-time>', '<tg-time unix="soon">x</tg-time>',
                '<tg-time unix="5" format="x">x</tg-time>', '<tg-time unix="5" format="rT">x</tg-time>'):
        with pytest.raises(MarkupError):
            parse_html(bad)
    for bad in ('<tg-time>x</tg-time>', '<tg-time unix="5" format="HH">x</tg-time>'):
        with pytest.raises(EntityError):  # the recording session's check agrees
            plain_text(bad)
