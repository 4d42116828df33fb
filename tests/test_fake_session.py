"""The Telegram test double behaves like the Bot API where the bot relies on it."""

from __future__ import annotations

import html

import pytest
from aiogram import Dispatcher, F, Router
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNetworkError,
    TelegramRetryAfter,
)
from aiogram.filters import Command
from aiogram.types import (
    BufferedInputFile,
    CallbackQuery,
    ChatMemberAdministrator,
    ChatMemberMember,
    ChatMemberUpdated,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
)

from tests.fakes import (
    NOT_MODIFIED,
    QUERY_TOO_OLD,
    TEST_TOKEN,
    FakeUser,
    RecordingSession,
    Updates,
    button_data,
    make_bot,
)

GROUP = -1001234567890
ALICE = FakeUser(1001, "Alice", username="alice")
BOB = FakeUser(1002, "Bob <b>")


def keyboard(*labels: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [InlineKeyboardButton(text=label, callback_data=f"cb:{label}") for label in labels]
        ]
    )


@pytest.fixture
def session() -> RecordingSession:
    return RecordingSession()


@pytest.fixture
def bot(session: RecordingSession):
    return make_bot(session)


async def test_send_returns_bound_message_that_can_be_edited(session, bot) -> None:
    sent = await bot.send_message(GROUP, "<b>Day 1</b> &amp; night", reply_markup=keyboard("Vote"))

    assert isinstance(sent, Message)
    assert sent.bot is bot
    assert sent.chat.id == GROUP and sent.chat.type == "supergroup"
    assert (
        sent.from_user is not None
        and sent.from_user.is_bot
        and sent.from_user.username == "mafia_test_bot"
    )
    assert sent.text == "Day 1 & night"  # entities parsed away, as Telegram returns it
    assert button_data(sent.reply_markup, "Vote") == "cb:Vote"

    edited = await sent.edit_text("Day 1, voting", reply_markup=keyboard("Yes", "No"))

    assert isinstance(edited, Message)
    assert edited.message_id == sent.message_id
    assert edited.edit_date is not None
    assert session.calls.methods() == ["sendMessage", "editMessageText"]
    assert session.calls.texts_in(GROUP) == ["<b>Day 1</b> &amp; night"]
    assert session.calls.texts_in(GROUP, include_edits=True)[-1] == "Day 1, voting"
    assert button_data(session.calls.last_markup(GROUP), "No") == "cb:No"


async def test_message_ids_increment_per_chat_and_private_chats_are_private(session, bot) -> None:
    first = await bot.send_message(GROUP, "a")
    second = await bot.send_message(GROUP, "b")
    private = await bot.send_message(ALICE.id, "c")

    assert (first.message_id, second.message_id) == (1, 2)
    assert private.message_id == 1
    assert private.chat.type == "private"
    assert session.calls.calls_to("sendMessage", ALICE.id)[0].text == "c"


async def test_identical_edit_is_not_modified_and_unknown_edit_succeeds(session, bot) -> None:
    sent = await bot.send_message(GROUP, "same", reply_markup=keyboard("A"))
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await sent.edit_text("same", reply_markup=keyboard("A"))

    edited = await bot.edit_message_reply_markup(
        chat_id=GROUP, message_id=sent.message_id, reply_markup=None
    )
    assert isinstance(edited, Message) and edited.text == "same" and edited.reply_markup is None

    other = await bot.edit_message_text("anything", chat_id=GROUP, message_id=999)
    assert isinstance(other, Message) and other.message_id == 999


@pytest.mark.parametrize("text", ["Bob <b>", "<b>open", "<b>x</i>", "<script>x</script>"])
async def test_malformed_html_fails_like_telegram(session, bot, text) -> None:
    with pytest.raises(TelegramBadRequest, match="can't parse entities"):
        await bot.send_message(GROUP, text)
    assert isinstance(await bot.send_message(GROUP, html.escape(text)), Message)
    assert isinstance(await bot.send_message(GROUP, text, parse_mode=None), Message)


@pytest.mark.parametrize(
    ("kwargs", "exception"),
    [
        ({"error_code": 403}, TelegramForbiddenError),
        ({"retry_after": 3}, TelegramRetryAfter),
        ({"error_code": 400, "description": NOT_MODIFIED}, TelegramBadRequest),
        ({"migrate_to_chat_id": -100777}, TelegramMigrateToChat),
        ({"network": True}, TelegramNetworkError),
    ],
)
async def test_injected_errors_map_to_aiogram_exceptions(session, bot, kwargs, exception) -> None:
    session.fail("sendMessage", chat_id=ALICE.id, **kwargs)

    with pytest.raises(exception) as raised:
        await bot.send_message(ALICE.id, "hi")

    if exception is TelegramRetryAfter:
        assert raised.value.retry_after == 3
    if exception is TelegramMigrateToChat:
        assert raised.value.migrate_to_chat_id == -100777
    call = session.calls[-1]
    assert call.method == "sendMessage" and not call.ok and isinstance(call.error, exception)
    # times=1: the next call goes through, and other chats were never affected
    assert isinstance(await bot.send_message(ALICE.id, "again"), Message)


async def test_failures_match_method_and_chat_and_can_last_forever(session, bot) -> None:
    rule = session.fail("answerCallbackQuery", description=QUERY_TOO_OLD, times=None)
    session.fail("sendMessage", chat_id=BOB.id, error_code=403)

    for _ in range(3):
        with pytest.raises(TelegramBadRequest, match="query is too old"):
            await bot.answer_callback_query("42")
    assert rule.hits == 3
    assert isinstance(await bot.send_message(ALICE.id, "not Bob"), Message)
    with pytest.raises(TelegramForbiddenError):
        await bot.send_message(BOB.id, "Bob blocked us")


async def test_other_methods_return_plausible_objects(session, bot) -> None:
    me = await bot.get_me()
    assert me.is_bot and me.username == "mafia_test_bot" and me.id == bot.id == 123456

    member = await bot.get_chat_member(GROUP, bot.id)
    assert isinstance(member, ChatMemberMember)
    session.set_member(GROUP, bot.id, "administrator", can_restrict_members=False)
    admin = await bot.get_chat_member(GROUP, bot.id)
    assert isinstance(admin, ChatMemberAdministrator)
    assert admin.can_delete_messages and not admin.can_restrict_members
    assert [m.user.id for m in await bot.get_chat_administrators(GROUP)] == [bot.id]

    chat = await bot.get_chat(GROUP)
    assert chat.id == GROUP and chat.type == "supergroup"

    document = await bot.send_document(
        GROUP, BufferedInputFile(b"protocol", filename="game-7.txt"), caption="x"
    )
    assert document.document is not None and document.document.file_name == "game-7.txt"

    assert await bot.answer_callback_query("1") is True
    assert await bot.delete_message(GROUP, document.message_id) is True
    assert session.message(GROUP, document.message_id) is None
    assert await bot.pin_chat_message(GROUP, 1) is True
    assert await bot.delete_webhook() is True


def router_factory(seen: list[str]) -> Router:
    router = Router(name="probe")

    @router.message(Command("newgame"))
    async def new_game(message: Message) -> None:
        assert message.from_user is not None
        seen.append(f"newgame:{message.chat.id}:{message.from_user.id}")
        await message.answer(f"Lobby opened by {html.escape(message.from_user.first_name)}")

    @router.callback_query(F.data.startswith("cb:"))
    async def pressed(query: CallbackQuery) -> None:
        seen.append(f"cb:{query.data}")
        await query.answer("ok")
        assert isinstance(query.message, Message)
        await query.message.edit_text(f"pressed by {html.escape(query.from_user.first_name)}")

    @router.my_chat_member()
    async def my_member(event: ChatMemberUpdated) -> None:
        seen.append(f"my_chat_member:{event.new_chat_member.status}")

    @router.message(F.left_chat_member)
    async def left(message: Message) -> None:
        assert message.left_chat_member is not None
        seen.append(f"left:{message.left_chat_member.id}")

    @router.message(F.migrate_to_chat_id)
    async def migrated(message: Message) -> None:
        seen.append(f"migrate:{message.chat.id}->{message.migrate_to_chat_id}")

    return router


async def test_updates_pass_through_a_dispatcher(session, bot) -> None:
    seen: list[str] = []
    dispatcher = Dispatcher()
    dispatcher.include_router(router_factory(seen))
    updates = Updates(bot, session)

    await dispatcher.feed_update(bot, updates.group_command(GROUP, ALICE, "/newgame"))
    await dispatcher.feed_update(
        bot, updates.group_command(GROUP, BOB, "/newgame@mafia_test_bot classic")
    )
    await dispatcher.feed_update(bot, updates.group_command(GROUP, BOB, "/newgame@some_other_bot"))
    await dispatcher.feed_update(bot, updates.group_command(GROUP, BOB, "/help"))

    assert seen == [f"newgame:{GROUP}:{ALICE.id}", f"newgame:{GROUP}:{BOB.id}"]
    assert session.calls.texts_in(GROUP) == [
        "Lobby opened by Alice",
        "Lobby opened by Bob &lt;b&gt;",
    ]

    lobby = await bot.send_message(GROUP, "Lobby", reply_markup=keyboard("Join"))
    await dispatcher.feed_update(bot, updates.callback(ALICE, lobby, "cb:Join"))
    await dispatcher.feed_update(bot, updates.callback(BOB, (GROUP, lobby.message_id), "cb:Join"))
    assert seen[-2:] == ["cb:cb:Join", "cb:cb:Join"]
    answers = session.calls.calls_to("answerCallbackQuery")
    assert [call.request.text for call in answers] == ["ok", "ok"]
    assert session.message(GROUP, lobby.message_id)["text"] == "pressed by Bob <b>"

    await dispatcher.feed_update(bot, updates.my_chat_member(GROUP, "kicked", "member"))
    await dispatcher.feed_update(bot, updates.left_chat_member(GROUP, BOB))
    await dispatcher.feed_update(bot, updates.migrate(-4001, -1004001))
    assert seen[-3:] == ["my_chat_member:kicked", f"left:{BOB.id}", "migrate:-4001->-1004001"]


async def test_update_builders_shape(session, bot) -> None:
    updates = Updates(bot, session)
    first = updates.private_text(ALICE, "/start join-5")
    second = updates.anonymous_admin_command(GROUP, "/stop")

    assert second.update_id == first.update_id + 1
    assert first.message is not None and second.message is not None
    assert first.message.entities is not None
    assert first.message.chat.type == "private" and first.message.chat.id == ALICE.id
    assert first.message.entities[0].type == "bot_command" and first.message.entities[
        0
    ].length == len("/start")
    assert second.message.sender_chat is not None and second.message.sender_chat.id == GROUP
    promoted = updates.my_chat_member(GROUP, "administrator", "member", can_delete_messages=False)
    assert promoted.my_chat_member is not None
    member = promoted.my_chat_member.new_chat_member
    assert member.user.id == bot.id
    assert isinstance(member, ChatMemberAdministrator) and member.can_delete_messages is False
    # message ids of incoming updates never clash with the bot's own messages
    sent = await bot.send_message(GROUP, "x")
    assert sent.message_id > second.message.message_id


def test_token_is_obviously_fake() -> None:
    assert "TEST" in TEST_TOKEN


async def test_a_raw_html_body_fails_as_aiohttp_would_with_client_decode_error(session, bot):
    from aiogram.exceptions import ClientDecodeError

    session.fail("sendMessage", error_code=502, body="<html><body>502 Bad Gateway</body></html>")
    with pytest.raises(ClientDecodeError):
        await bot.send_message(ALICE.id, "hi")
    assert (await bot.send_message(ALICE.id, "again")).text == "again"


@pytest.mark.parametrize("kind, cause", [(True, "TimeoutError"), ("timeout", "TimeoutError"),
                                         ("dropped", "ServerDisconnectedError"),
                                         ("refused", "ClientConnectorError")])
async def test_network_kinds_carry_the_aiohttp_cause(session, bot, kind, cause):
    session.fail("sendMessage", network=kind)
    with pytest.raises(TelegramNetworkError) as caught:
        await bot.send_message(ALICE.id, "hi")
    assert type(caught.value.__cause__).__name__ == cause


async def test_a_hanging_call_hangs_then_fails(session, bot):
    import asyncio

    session.fail("sendMessage", error_code=500, hang=5.0)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(bot.send_message(ALICE.id, "hi"), 0.05)
    assert not session.calls[-1].ok
