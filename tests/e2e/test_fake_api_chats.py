"""Tests of the stand-in Bot API itself: users who block the bot, 429s, group rights, members
and migration, documents, commands and deep links, callback presses, other methods, scripted
dropped connections (a real aiogram Bot over HTTP in-process)."""

from __future__ import annotations

import asyncio

import pytest
from aiogram import Bot, Dispatcher, F, Router
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
    ChatPermissions,
    Message,
    MessageOriginUser,
)
from aiogram.utils.deep_linking import create_start_link

from .fake_api import FakeBotAPI
from .fake_api_fixtures import GROUP, message_of, new_status, vote_keyboard
from .fake_api_fixtures import api_fixture as api_fixture  # noqa: F401 - the api fixture
from .fake_api_fixtures import bot_fixture as bot_fixture  # noqa: F401 - the bot fixture


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
