"""bot.telegram.sender.Sender: order, coalescing, merging, rate limits, per-recipient error handling."""

from __future__ import annotations

import asyncio
import logging

import pytest
from aiogram.exceptions import TelegramRetryAfter
from aiogram.methods import RestrictChatMember, SetMyCommands
from aiogram.types import (
    BotCommand,
    BufferedInputFile,
    ChatPermissions,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
)

from bot.telegram.results import parsed
from bot.telegram.sender import (
    GLOBAL_RATE,
    GROUP_RATE,
    MESSAGE_LIMIT,
    PRIVATE_RATE,
    Sender,
    SenderStats,
    split_text,
    utf16_len,
    window_limiter,
)
from tests.fakes import (
    CHAT_NOT_FOUND,
    NOT_MODIFIED,
    QUERY_TOO_OLD,
    TEST_TOKEN,
    RecordingSession,
    make_bot,
)

GROUP = -1001000000001
OTHER_GROUP = -1001000000002
ALICE = 1001
BOB = 1002
UNLIMITED = {
    "group_rate": (100_000, 1.0),
    "private_rate": (100_000, 1.0),
    "global_rate": (100_000, 1.0),
}


def keyboard(label: str = "Vote") -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text=label, callback_data=label)]]
    )


class ManualSleep:
    """Injected instead of asyncio.sleep: records durations; blocks on ``gate`` when one is set."""

    def __init__(self) -> None:
        self.calls: list[float] = []
        self.gate: asyncio.Event | None = None

    async def __call__(self, seconds: float) -> None:
        self.calls.append(seconds)
        if self.gate is not None:
            await self.gate.wait()
        else:
            await asyncio.sleep(0)


@pytest.fixture
def session() -> RecordingSession:
    return RecordingSession()


@pytest.fixture
def sleeper() -> ManualSleep:
    return ManualSleep()


@pytest.fixture
async def make_sender(session, sleeper):
    senders: list[Sender] = []

    def factory(**overrides) -> Sender:
        options = {**UNLIMITED, "sleep": sleeper, **overrides}
        sender = Sender(make_bot(session), **options)
        senders.append(sender)
        return sender

    yield factory
    for sender in senders:
        await sender.close(timeout=1.0)


async def wait_until(predicate, timeout: float = 2.0) -> None:
    async def poll() -> None:
        while not predicate():
            await asyncio.sleep(0.001)

    await asyncio.wait_for(poll(), timeout)


# ---------------------------------------------------------------------- ordering and independence


async def test_order_per_chat_is_kept(session, make_sender) -> None:
    sender = make_sender()
    futures = []
    for i in range(5):
        futures.append(sender.send(ALICE, f"dm {i}", merge=False))  # plain DMs merge otherwise
        futures.append(sender.send(GROUP, f"group {i}", keyboard()))  # keyboards are never merged

    await sender.drain()

    assert session.calls.texts_in(ALICE) == [f"dm {i}" for i in range(5)]
    assert session.calls.texts_in(GROUP) == [f"group {i}" for i in range(5)]
    messages = [future.result() for future in futures]
    assert all(isinstance(parsed(message), Message) for message in messages)
    assert [m.message_id for m in messages if m.chat.id == GROUP] == [1, 2, 3, 4, 5]
    assert sender.stats.calls["sendMessage"] == 10
    assert sender.idle


async def test_slow_chat_does_not_block_other_chats(session, make_sender) -> None:
    sender = make_sender()
    session.set_latency(GROUP, 0.3)

    slow = sender.send(GROUP, "slow")
    fast = sender.send(ALICE, "fast")

    assert isinstance(parsed(await asyncio.wait_for(fast, 0.2)), Message)
    assert not slow.done()
    assert isinstance(parsed(await slow), Message)


# ---------------------------------------------------------------------- coalescing and merging


async def test_queued_edits_coalesce_latest_wins(session, make_sender) -> None:
    sender = make_sender()
    table = await sender.send(GROUP, "table v0", keyboard("v0"))

    first = sender.edit(GROUP, table.message_id, "table v1", keyboard("v1"))
    second = sender.edit(GROUP, table.message_id, "table v2", keyboard("v2"))
    third = sender.edit(GROUP, table.message_id, "table v3", keyboard("v3"))
    await sender.drain()

    edits = session.calls.calls_to("editMessageText")
    assert [call.text for call in edits] == ["table v3"]
    assert edits[0].reply_markup == keyboard("v3")
    assert first.result() is second.result() is third.result()
    assert third.result().text == "table v3"
    assert sender.stats.coalesced == 2


async def test_edit_markup_folds_into_queued_edit_and_delete_discards_edits(
    session, make_sender
) -> None:
    sender = make_sender()
    table = await sender.send(GROUP, "table", keyboard("a"))

    sender.edit(GROUP, table.message_id, "table 2", keyboard("b"))
    sender.edit_markup(GROUP, table.message_id, keyboard("c"))
    await sender.drain()
    assert [call.method for call in session.calls[1:]] == ["editMessageText"]
    assert session.calls[-1].text == "table 2" and session.calls[-1].reply_markup == keyboard("c")

    doomed = sender.edit(GROUP, table.message_id, "never shown")
    deleted = sender.delete(GROUP, table.message_id)
    await sender.drain()
    assert doomed.result() is None
    assert deleted.result() is True
    assert session.calls.methods()[-1] == "deleteMessage"
    assert "never shown" not in session.calls.texts_in(GROUP, include_edits=True)


async def test_consecutive_plain_group_sends_are_merged(session, make_sender) -> None:
    sender = make_sender()
    a, b, c = (
        sender.send(GROUP, text) for text in ("Night falls.", "Alice was killed.", "Day 2 begins.")
    )
    with_keyboard = sender.send(GROUP, "Vote now", keyboard())
    d = sender.send(GROUP, "After the keyboard")
    e = sender.send(GROUP, "Not merged", merge=False)
    dm1, dm2 = sender.send(ALICE, "one"), sender.send(ALICE, "two")
    await sender.drain()

    assert session.calls.texts_in(GROUP) == [
        "Night falls.\n\nAlice was killed.\n\nDay 2 begins.",
        "Vote now",
        "After the keyboard",
        "Not merged",
    ]
    assert a.result() is b.result() is c.result()
    assert with_keyboard.result() is not d.result() is not e.result()
    # private chats are merged too (issue 11: an eliminated player's three notes are one message)
    assert session.calls.texts_in(ALICE) == ["one\n\ntwo"]
    assert dm1.result() is dm2.result()
    assert sender.stats.merged == 3


async def test_merging_stops_at_the_length_limit(session, make_sender) -> None:
    sender = make_sender()
    for letter in "abc":
        sender.send(GROUP, letter * 2000)
    await sender.drain()

    texts = session.calls.texts_in(GROUP)
    assert texts == ["a" * 2000 + "\n\n" + "b" * 2000, "c" * 2000]
    assert all(utf16_len(text) <= MESSAGE_LIMIT for text in texts)


async def test_long_text_is_split_at_line_breaks(session, make_sender) -> None:
    sender = make_sender()
    text = "\n".join(f"{i:03} " + "x" * 96 for i in range(100))  # 100 lines of 100 chars

    last = await sender.send(ALICE, text, keyboard())

    sent = session.calls.calls_to("sendMessage", ALICE)
    assert len(sent) == 3
    assert all(utf16_len(call.text) <= MESSAGE_LIMIT for call in sent)
    assert "\n".join(call.text for call in sent) == text
    assert [call.reply_markup is not None for call in sent] == [False, False, True]
    assert last.message_id == 3


def test_split_text_falls_back_to_spaces_and_counts_utf16() -> None:
    words = " ".join(["word"] * 2000)  # 9999 chars, no line break
    chunks = split_text(words)
    assert all(utf16_len(chunk) <= MESSAGE_LIMIT for chunk in chunks)
    assert " ".join(chunks) == words

    emoji = "\N{SMILING FACE WITH OPEN MOUTH}" * 3000  # 2 UTF-16 units each
    chunks = split_text(emoji)
    assert [utf16_len(chunk) for chunk in chunks] == [4096, 1904]
    assert "".join(chunks) == emoji
    assert split_text("short") == ["short"]


# ---------------------------------------------------------------------- errors


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


# ---------------------------------------------------------------------- rate limits


async def test_group_limiter_spaces_calls(session, make_sender) -> None:
    sender = make_sender(group_rate=(3, 1.0))
    futures = [sender.send(GROUP, f"m{i}", merge=False) for i in range(6)]
    dm = sender.send(ALICE, "not held up by the group budget")

    assert isinstance(parsed(await asyncio.wait_for(dm, 0.3)), Message)
    await asyncio.gather(*futures)

    times = [call.time for call in session.calls.calls_to("sendMessage", GROUP)]
    assert session.calls.texts_in(GROUP) == [f"m{i}" for i in range(6)]
    assert times[-1] - times[0] >= 0.95  # 6 calls at <= 3 per second cannot fit in one second
    assert all(sum(1 for t in times if start <= t < start + 1.0) <= 3 for start in times)
    assert sender.stats.max_calls_in_window(GROUP, 1.0) <= 3


async def test_answers_skip_chat_lanes_but_take_global_tokens(
    session, sleeper, make_sender
) -> None:
    sender = make_sender(global_rate=(2, 0.1))  # burst 1, then one every 0.1 s
    sleeper.gate = asyncio.Event()
    session.fail("sendMessage", chat_id=GROUP, retry_after=5)
    blocked = sender.send(GROUP, "paused by 429")
    await wait_until(lambda: sleeper.calls)

    results = await asyncio.gather(*(sender.answer(str(i), "ok") for i in range(3)))

    assert results == [True, True, True] and not blocked.done()
    times = [call.time for call in session.calls.calls_to("answerCallbackQuery")]
    assert times[2] - times[0] >= 0.18
    sleeper.gate.set()
    assert isinstance(parsed(await blocked), Message)


def test_default_rates_are_telegram_limits() -> None:
    assert (GROUP_RATE, PRIVATE_RATE, GLOBAL_RATE) == ((20, 60.0), (1, 1.0), (30, 1.0))
    group = window_limiter(*GROUP_RATE)
    # burst b, drain r/s: at most b + r * 60 calls in any 60 s
    assert group.max_rate + group.max_rate / group.time_period * 60.0 == pytest.approx(20)
    private = window_limiter(*PRIVATE_RATE)
    assert (private.max_rate, private.time_period) == (1, 1.0)
    with pytest.raises(ValueError):
        window_limiter(0, 1.0)
    with pytest.raises(ValueError):
        window_limiter(5, 1.0, burst=5)


def test_max_calls_in_window() -> None:
    stats = SenderStats()
    for at in (0.0, 0.5, 1.0, 1.2, 1.4, 5.0):
        stats.record("sendMessage", GROUP, at)
    assert stats.max_calls_in_window(GROUP, 1.0) == 4  # 0.5, 1.0, 1.2, 1.4
    assert stats.max_calls_in_window(GROUP, 0.5) == 3  # 1.0, 1.2, 1.4
    assert stats.max_calls_in_window(ALICE, 1.0) == 0
    assert stats.calls["sendMessage"] == 6


# ---------------------------------------------------------------------- lifecycle


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


async def test_calls_made_outside_the_sender_take_its_tokens(session, make_sender) -> None:
    """A handler's own reply (not through the Sender) counts against Telegram's limits like the
    Sender's calls (issue 12: every worker together within 30 calls/s); reads and press answers
    send no message and take none."""

    class Counting:
        retries_take_tokens = False

        def __init__(self) -> None:
            self.chats: list[int] = []
            self.globals = 0

        async def acquire(self, chat_id: int) -> None:
            self.chats.append(chat_id)

        async def acquire_global(self) -> None:
            self.globals += 1

        async def flood(self, chat_id, retry_after) -> None:
            pass

        def release(self, chat_id: int) -> None:
            pass

        async def close(self) -> None:
            pass

    limiter = Counting()
    sender = make_sender(limiter=limiter)
    await sender.bot.send_message(GROUP, "a handler's reply")
    await sender.bot.get_me()
    await sender.bot.answer_callback_query("17", text="ok")
    assert limiter.chats == [GROUP] and limiter.globals == 0
    await sender.send(ALICE, "through the Sender")
    assert limiter.chats == [GROUP, ALICE]  # once: the Sender's own call is not paced twice
