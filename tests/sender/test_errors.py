"""bot.telegram.sender.Sender: per-recipient error handling -- retry_after, 403, ignored and
dropped errors, network back-off, migration, the retry budget."""

from __future__ import annotations

import asyncio
import logging

from aiogram.exceptions import TelegramRetryAfter
from aiogram.types import Message

from bot.telegram.results import parsed
from tests.fakes import CHAT_NOT_FOUND, NOT_MODIFIED, QUERY_TOO_OLD, TEST_TOKEN
from tests.sender.support import ALICE, BOB, GROUP, OTHER_GROUP, keyboard, wait_until


async def test_retry_after_is_honoured_and_pauses_only_that_chat(
    session, sleeper, make_sender
) -> None:
    sender = make_sender()
    sleeper.gate = asyncio.Event()
    session.fail("sendMessage", chat_id=GROUP, retry_after=1)

    announcement = sender.send(GROUP, "announcement", keyboard())
    follow_up = sender.send(GROUP, "follow-up", keyboard())
    role = sender.send(ALICE, "your role")

    assert isinstance(parsed(await asyncio.wait_for(role, 1.0)), Message)
    await wait_until(lambda: sleeper.calls)
    assert sleeper.calls == [1]
    assert not announcement.done() and not follow_up.done()

    sleeper.gate.set()
    assert (await announcement).text == "announcement"
    assert (await follow_up).text == "follow-up"
    attempts = session.calls.calls_to("sendMessage", GROUP)
    assert [call.text for call in attempts] == ["announcement", "announcement", "follow-up"]
    assert isinstance(attempts[0].error, TelegramRetryAfter) and attempts[1].ok
    assert sender.stats.errors["retry_after"] == 1


async def test_retry_after_gives_up_after_max_tries(session, sleeper, make_sender) -> None:
    sender = make_sender(max_tries=5)
    session.fail("sendMessage", chat_id=GROUP, retry_after=2, times=None)

    assert await sender.send(GROUP, "doomed") is None
    assert len(session.calls.calls_to("sendMessage", GROUP)) == 5
    assert sleeper.calls == [2, 2, 2, 2]
    session.clear_failures()
    assert isinstance(parsed(await sender.send(GROUP, "the lane still works")), Message)


async def test_forbidden_private_chat_calls_on_forbidden_and_the_queue_goes_on(
    session, make_sender
) -> None:
    unreachable: list[int] = []

    async def on_forbidden(chat_id: int) -> None:
        unreachable.append(chat_id)

    sender = make_sender(on_forbidden=on_forbidden)
    session.fail("sendMessage", chat_id=BOB, error_code=403)
    session.fail("sendMessage", chat_id=ALICE, description=CHAT_NOT_FOUND)

    to_bob = sender.send(BOB, "you are the sheriff")
    to_alice = sender.send(ALICE, "you are mafia")
    to_group = sender.send(GROUP, "roles dealt")
    bob_again = sender.send(BOB, "night falls", merge=False)  # a message of its own
    await sender.drain()

    assert to_bob.result() is None and to_alice.result() is None
    assert isinstance(parsed(to_group.result()), Message)
    assert bob_again.result() is None  # nothing more until he is heard from (issue 19)
    assert len(session.calls.calls_to("sendMessage", BOB)) == 1
    assert sorted(unreachable) == [ALICE, BOB]
    assert sender.stats.errors["forbidden"] == 2


async def test_failing_on_forbidden_callback_is_contained(session, make_sender, caplog) -> None:
    async def on_forbidden(chat_id: int) -> None:
        raise RuntimeError("storage is down")

    sender = make_sender(on_forbidden=on_forbidden)
    session.fail("sendMessage", chat_id=BOB, error_code=403)
    with caplog.at_level(logging.ERROR, logger="bot.telegram.sender"):
        assert await sender.send(BOB, "x") is None
        await sender.drain()
    assert "storage is down" in caplog.text
    sender.blocked.reachable(BOB)  # he wrote to the bot (issue 19: silent until then)
    assert isinstance(parsed(await sender.send(BOB, "y")), Message)


async def test_ignored_errors_and_dropped_bad_requests(session, make_sender, caplog) -> None:
    sender = make_sender()
    table = await sender.send(GROUP, "table", keyboard())
    session.fail("editMessageText", description=NOT_MODIFIED)
    session.fail("answerCallbackQuery", description=QUERY_TOO_OLD)
    session.fail("sendMessage", chat_id=OTHER_GROUP, description=f"Bad Request: odd {TEST_TOKEN}")

    with caplog.at_level(logging.INFO, logger="bot.telegram.sender"):
        assert await sender.edit(GROUP, table.message_id, "table 2") is None
        assert await sender.answer("17", "too late") is None
        assert caplog.text == ""  # ignored silently
        assert await sender.send(OTHER_GROUP, "boom") is None
        assert await sender.send(GROUP, "Bob <b>") is None  # unescaped HTML: can't parse entities
    assert "odd <token>" in caplog.text and TEST_TOKEN not in caplog.text
    assert "can't parse entities" in caplog.text
    assert sender.stats.errors["ignored"] == 2 and sender.stats.errors["bad_request"] == 2
    assert isinstance(parsed(await sender.send(OTHER_GROUP, "fine")), Message)


async def test_network_errors_back_off_then_succeed_or_drop(session, sleeper, make_sender) -> None:
    sender = make_sender(max_tries=3)
    session.fail("sendMessage", chat_id=ALICE, network=True, times=2)
    assert isinstance(parsed(await sender.send(ALICE, "eventually")), Message)
    assert len(sleeper.calls) == 2 and all(delay > 0 for delay in sleeper.calls)

    session.fail("sendMessage", chat_id=ALICE, network=True, times=None)
    assert await sender.send(ALICE, "never") is None
    assert len(session.calls.calls_to("sendMessage", ALICE)) == 3 + 3


async def test_group_migration_resends_to_the_supergroup(session, make_sender) -> None:
    migrations: list[tuple[int, int]] = []

    async def on_migrate(old: int, new: int) -> None:
        migrations.append((old, new))

    old, new = -4001, -1004001
    sender = make_sender(on_migrate=on_migrate)
    session.fail("sendMessage", chat_id=old, migrate_to_chat_id=new, times=None)

    message = await sender.send(old, "lobby", keyboard())
    later = await sender.send(old, "later")
    await sender.drain()

    assert message.chat.id == new and later.chat.id == new
    assert migrations == [(old, new)]
    assert len(session.calls.calls_to("sendMessage", old)) == 1


async def test_flood_waits_in_a_lane_do_not_use_up_the_retry_budget(session, sleeper, make_sender):
    """A 429 with a long retry_after pauses the lane as long as Telegram says (attempts still
    bound it); the retry budget is for Telegram's faults, not for flood control."""
    sender = make_sender(retry_budget=5.0, max_tries=4)
    session.fail("sendMessage", chat_id=GROUP, retry_after=30, times=2)
    assert isinstance(parsed(await sender.send(GROUP, "patient")), Message)
    assert sleeper.calls == [30, 30]


async def test_transient_errors_give_up_when_the_budget_is_spent(session, make_sender):
    clock = {"now": 0.0}

    async def sleep(seconds: float) -> None:
        clock["now"] += seconds

    sender = make_sender(retry_budget=3.0, max_tries=50, sleep=sleep, clock=lambda: clock["now"])
    session.fail("sendMessage", chat_id=ALICE, error_code=502, times=None)
    assert await sender.send(ALICE, "never") is None
    assert clock["now"] <= 3.0
    assert 2 <= len(session.calls.calls_to("sendMessage", ALICE)) < 10
