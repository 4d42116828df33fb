"""bot.telegram.sender.Sender: drain, close, documents, other calls and bad arguments."""

from __future__ import annotations

import asyncio
import logging

from aiogram.methods import RestrictChatMember, SetMyCommands
from aiogram.types import BotCommand, BufferedInputFile, ChatPermissions, Message

from bot.telegram.results import parsed
from tests.sender.support import ALICE, BOB, GROUP, OTHER_GROUP, keyboard, wait_until


async def test_drain_waits_for_everything(session, make_sender) -> None:
    sender = make_sender()
    session.latency = 0.02
    futures = [
        sender.send(chat, f"to {chat}", keyboard()) for chat in (GROUP, OTHER_GROUP, ALICE, BOB) * 3
    ]
    futures.append(sender.pin(GROUP, 1))
    futures.append(sender.answer("5"))

    await sender.drain()

    assert all(future.done() for future in futures) and sender.idle
    assert sender.stats.calls["sendMessage"] == 12
    assert sender.stats.calls["pinChatMessage"] == sender.stats.calls["answerCallbackQuery"] == 1


async def test_close_resolves_pending_work_and_refuses_more(session, sleeper, make_sender) -> None:
    sender = make_sender()
    sleeper.gate = asyncio.Event()  # never set: the lane stays paused
    session.fail("sendMessage", chat_id=GROUP, retry_after=30)
    stuck = sender.send(GROUP, "stuck", keyboard())
    queued = sender.send(GROUP, "queued", keyboard())
    await wait_until(lambda: sleeper.calls)

    await sender.close(timeout=0.05)

    assert stuck.result() is None and queued.result() is None
    assert sender.idle
    assert await sender.send(ALICE, "after close") is None
    assert await sender.answer("1") is None
    assert session.calls.calls_to("sendMessage", ALICE) == []


async def test_documents_other_calls_and_bad_arguments(session, make_sender, caplog) -> None:
    sender = make_sender()
    document = await sender.send_document(
        GROUP, BufferedInputFile(b"protocol", filename="game.txt"), caption="Game 7"
    )
    assert document.document.file_name == "game.txt"

    restricted = sender.call(
        RestrictChatMember(
            chat_id=GROUP, user_id=ALICE, permissions=ChatPermissions(can_send_messages=False)
        )
    )
    commands = sender.call(SetMyCommands(commands=[BotCommand(command="newgame", description="x")]))
    assert await restricted is True and await commands is True
    assert sender.stats.max_calls_in_window(GROUP, 60.0) == 2  # the restriction used GROUP's lane

    with caplog.at_level(logging.ERROR, logger="bot.telegram.sender"):
        assert await sender.edit(GROUP, "not a message id", "x") is None
    assert "cannot build edit" in caplog.text
    assert isinstance(parsed(await sender.send(GROUP, "the lane goes on")), Message)
    assert await sender.unpin(GROUP) is True
