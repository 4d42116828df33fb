"""Tests of the stand-in Bot API itself, driven by a real aiogram Bot over HTTP in-process."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import AsyncIterator

import aiohttp
import pytest
import pytest_asyncio
from aiogram import Bot, Dispatcher, F, Router
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramConflictError,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
)
from aiogram.filters import Command
from aiogram.types import (
    BotCommand,
    BufferedInputFile,
    CallbackQuery,
    ChatMemberUpdated,
    ChatPermissions,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    MessageOriginUser,
    Update,
)
from aiogram.utils.deep_linking import create_start_link
from aiogram.utils.keyboard import InlineKeyboardBuilder
from PIL import Image

from tests.fakes.telegram import EntityError, plain_text

from .fake_api import FakeBotAPI
from .markup import MarkupError, parse_html, user_entities

TOKEN = "123456:TEST"
GROUP = -1001234567890


def message_of(update: Update) -> Message:
    """The update's message (the test fails if it has none)."""
    assert update.message is not None, update
    return update.message


def new_status(change: ChatMemberUpdated | None) -> str:
    """The new status of a (my_)chat_member update (the test fails if there is none)."""
    assert change is not None
    return change.new_chat_member.status


@pytest_asyncio.fixture
async def api() -> AsyncIterator[FakeBotAPI]:
    server = FakeBotAPI(TOKEN)
    await server.start()
    yield server
    await server.stop()


@pytest_asyncio.fixture
async def bot(api: FakeBotAPI) -> AsyncIterator[Bot]:
    assert api.base_url is not None
    session = AiohttpSession(api=TelegramAPIServer.from_base(api.base_url))
    instance = Bot(TOKEN, session=session, default=DefaultBotProperties(parse_mode="HTML"))
    yield instance
    await instance.session.close()


def vote_keyboard() -> InlineKeyboardMarkup:
    builder = InlineKeyboardBuilder()
    builder.button(text="Vote Alice", callback_data="vote:1")
    builder.button(text="Vote Bob", callback_data="vote:2")
    builder.button(text="Rules", url="https://example.org/rules")
    return builder.as_markup()


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


async def test_forbidden_users(api: FakeBotAPI, bot: Bot) -> None:
    stranger = api.user(1002, "Stranger")
    with pytest.raises(TelegramForbiddenError, match="bot can't initiate conversation with a user"):
        await bot.send_message(stranger.id, "hi")
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await bot.send_message(424242, "hi")
    await stranger.start()
    await bot.send_message(stranger.id, "hi")
    await stranger.block_bot()
    with pytest.raises(TelegramForbiddenError, match="bot was blocked by the user"):
        await bot.send_message(stranger.id, "still there?")
    updates = await bot.get_updates(allowed_updates=["message", "my_chat_member"])
    assert [u.event_type for u in updates] == ["message", "my_chat_member"]
    assert new_status(updates[1].my_chat_member) == "kicked"


async def test_injected_429_and_flood_control(api: FakeBotAPI, bot: Bot) -> None:
    alice = api.user(1001, "Alice")
    await alice.start()
    api.fail_next("sendMessage", chat_id=alice.id, retry_after=3)
    with pytest.raises(TelegramRetryAfter) as caught:
        await bot.send_message(alice.id, "one")
    assert caught.value.retry_after == 3
    await bot.send_message(alice.id, "one")  # the fault fires once
    assert [c.ok for c in api.calls_to("sendMessage")] == [False, True]

    api.enable_flood_control(private_per_second=1)
    await bot.send_message(alice.id, "two")
    with pytest.raises(TelegramRetryAfter):
        await bot.send_message(alice.id, "three")


async def test_group_rights_members_and_migration(api: FakeBotAPI, bot: Bot) -> None:
    alice, bob = api.user(1001, "Alice"), api.user(1002, "Bob")
    api.group(GROUP, "Mafia night", members=[bob], admins=[alice], bot_status="member")
    said = await bob.say(GROUP, "hello all")
    assert api.pending_updates == []  # privacy mode: plain group text is not delivered
    await bob.say(GROUP, "/join@mafia_e2e_bot")
    await bob.say(GROUP, "/join@other_bot")
    (update,) = await bot.get_updates()
    message = message_of(update)
    assert message.text == "/join@mafia_e2e_bot" and message.chat.type == "supergroup"
    assert message.chat.title == "Mafia night"

    assert (await bot.get_chat_member(GROUP, alice.id)).status == "administrator"
    assert (await bot.get_chat_member(GROUP, bob.id)).status == "member"
    assert [m.user.id for m in await bot.get_chat_administrators(GROUP)] == [alice.id]
    with pytest.raises(TelegramBadRequest, match="message can't be deleted"):
        await bot.delete_message(GROUP, said.message_id)
    with pytest.raises(TelegramBadRequest, match="not enough rights"):
        await bot.restrict_chat_member(GROUP, bob.id, ChatPermissions(can_send_messages=False))

    await api.set_bot_status(GROUP, "administrator")
    assert (await bot.get_chat_member(GROUP, api.bot_id)).status == "administrator"
    await bot.restrict_chat_member(GROUP, bob.id, ChatPermissions(can_send_messages=False))
    assert api.member_status(GROUP, bob.id) == "restricted"
    with pytest.raises(PermissionError):
        await bob.say(GROUP, "let me speak")
    sent = await bot.send_message(GROUP, "table")
    await bot.pin_chat_message(GROUP, sent.message_id)
    assert [m.message_id for m in api.pinned_messages(GROUP)] == [sent.message_id]
    await bot.unpin_chat_message(GROUP)
    assert api.pinned_messages(GROUP) == []

    await bot.get_updates(offset=-1)  # forget what came so far
    api.confirm_updates(api.pending_updates[-1]["update_id"] + 1)
    await bot.get_updates(allowed_updates=["message", "chat_member", "my_chat_member"])
    await alice.leave_group(GROUP)
    kinds: list[tuple[str, int | str]] = []
    for u in await bot.get_updates():
        if u.message:
            assert u.message.left_chat_member is not None
            kinds.append((u.event_type, u.message.left_chat_member.id))
        else:
            kinds.append((u.event_type, new_status(u.chat_member)))
    assert kinds == [("chat_member", "left"), ("message", alice.id)]
    assert api.member_status(GROUP, alice.id) == "left"

    api.group(-555, "Old group", members=[bob], chat_type="group")
    await api.migrate_group(-555, -1005550000000, by=bob)
    with pytest.raises(TelegramMigrateToChat) as caught:
        await bot.send_message(-555, "hello")
    assert caught.value.migrate_to_chat_id == -1005550000000
    await bot.send_message(-1005550000000, "hello")


async def test_document_commands_and_deep_link(api: FakeBotAPI, bot: Bot) -> None:
    alice = api.user(1001, "Alice", "alice")
    await alice.start()
    await bot.send_document(alice.id, BufferedInputFile(b"game log", filename="log.txt"),
                            caption="<b>Лог</b> 🌙")
    stored = api.last_message(alice.id, containing="Лог")
    assert stored is not None and stored.document_bytes == b"game log"
    assert stored.document is not None
    assert (stored.caption, stored.document["file_name"]) == ("Лог 🌙", "log.txt")
    night = await bot.send_message(alice.id, "Ночь <i>🌙 наступает</i>")
    assert night.entities is not None and night.entities[0].length == 12  # 🌙 is 2 UTF-16 units

    await bot.set_my_commands([BotCommand(command="newgame", description="Start a game")])
    assert [c.command for c in await bot.get_my_commands()] == ["newgame"]
    await bot.delete_my_commands()
    assert await bot.get_my_commands() == []

    link = await create_start_link(bot, "join_-100123")
    await bot.get_updates(offset=-1)
    api.drop_pending_updates()
    await alice.follow_deep_link(link)
    (update,) = await bot.get_updates()
    message = message_of(update)
    assert message.text == "/start join_-100123" and message.entities is not None
    assert message.entities[0].type == "bot_command" and message.entities[0].length == 6
    with pytest.raises(ValueError, match="not for"):
        await alice.follow_deep_link("https://t.me/some_other_bot?start=x")


async def test_callback_press_round_trip(api: FakeBotAPI, bot: Bot) -> None:
    alice = api.user(1001, "Alice")
    api.group(GROUP, "Mafia night", members=[alice])
    router = Router(name="selftest")

    @router.message(Command("vote"))
    async def on_vote(message: Message) -> None:
        await message.answer("Who is the mafia?", reply_markup=vote_keyboard())

    @router.callback_query(F.data.startswith("vote:"))
    async def on_press(query: CallbackQuery) -> None:
        await query.answer(f"Voted {query.data}", show_alert=True)
        assert isinstance(query.message, Message)
        await query.message.edit_text(f"{query.from_user.first_name} voted")

    dispatcher = Dispatcher()
    dispatcher.include_router(router)
    polling = asyncio.create_task(dispatcher.start_polling(
        bot, polling_timeout=1, handle_signals=False, close_bot_session=False))
    try:
        await alice.say(GROUP, "/vote@mafia_e2e_bot")
        question = await api.wait_for_message(GROUP, containing="mafia?", timeout=5)
        answer = await alice.press(GROUP, question.message_id, "Bob", timeout=5)
        assert answer is not None and (answer.text, answer.show_alert) == ("Voted vote:2", True)
        await api.settle(quiet=0.1, timeout=5)
        assert question.text == "Alice voted"
        with pytest.raises(LookupError):
            await alice.press(GROUP, question.message_id, "Bob")  # the edit removed the keyboard
        update = next(u for u in api.updates_log if "callback_query" in u)["callback_query"]
        assert update["chat_instance"] and update["message"]["chat"]["type"] == "supergroup"
    finally:
        await dispatcher.stop_polling()
        await polling


async def test_other_methods_parse_in_aiogram(api: FakeBotAPI, bot: Bot) -> None:
    alice, bob = api.user(1001, "Alice"), api.user(1002, "Bob")
    api.group(GROUP, "Mafia night", members=[bob], creator=alice)
    await alice.start()
    info = await bot.get_chat(GROUP)
    assert info.permissions is not None
    assert (info.type, info.title, info.permissions.can_send_messages) == ("supergroup", "Mafia night", True)
    assert (await bot.get_chat(alice.id)).first_name == "Alice"
    assert await bot.get_chat_member_count(GROUP) == 3
    assert {m.status for m in await bot.get_chat_administrators(GROUP)} == {"creator", "administrator"}
    assert await bot.send_chat_action(GROUP, "typing")
    assert await bot.set_chat_permissions(GROUP, ChatPermissions(can_send_messages=False))
    with pytest.raises(PermissionError):
        await bob.say(GROUP, "night talk")
    await alice.say(GROUP, "admins may talk")
    sent = await bot.send_message(GROUP, "to copy")
    copied = await bot.copy_message(alice.id, GROUP, sent.message_id)
    assert api.message(alice.id, copied.message_id).text == "to copy"
    forwarded = await bot.forward_message(alice.id, GROUP, sent.message_id)
    assert isinstance(forwarded.forward_origin, MessageOriginUser)
    assert forwarded.forward_origin.sender_user.id == api.bot_id
    assert await bot.delete_messages(alice.id, [copied.message_id, forwarded.message_id])
    assert api.messages(alice.id) == []
    assert await bot.set_my_description("Plays Mafia")
    assert (await bot.get_my_description()).description == "Plays Mafia"
    assert (await bot.get_webhook_info()).url == ""
    assert await bot.set_webhook("http://127.0.0.1:9/hook")  # delivered nowhere: refused
    with pytest.raises(TelegramConflictError):
        await bot.get_updates()
    assert await bot.delete_webhook(drop_pending_updates=True)
    assert await bot.leave_chat(GROUP)
    with pytest.raises(TelegramForbiddenError, match="not a member"):
        await bot.send_message(GROUP, "bye")
    (update,) = await bot.get_updates()
    assert new_status(update.my_chat_member) == "left"


def png(width: int = 40, height: int = 30, colour: str = "navy") -> bytes:
    """A small PNG picture (bytes)."""
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, format="PNG")
    return out.getvalue()


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


async def test_scripted_dropped_connections(api: FakeBotAPI, bot: Bot) -> None:
    alice = api.user(1001, "Alice")
    await alice.start()
    api.fail_next("sendMessage", alice.id, drop="drop_after")
    with pytest.raises(TelegramNetworkError):
        await bot.send_message(alice.id, "went through")
    api.fail_next("sendMessage", alice.id, drop="drop")
    with pytest.raises(TelegramNetworkError):
        await bot.send_message(alice.id, "never arrived")
    await bot.send_message(alice.id, "again")
    assert [m.text for m in api.messages(alice.id)] == ["went through", "again"]
    assert (api.injected["drop_after"], api.injected["drop"]) == (1, 1)
    with pytest.raises(ValueError, match="drop must be"):
        api.fail_next("sendMessage", drop="hang")
