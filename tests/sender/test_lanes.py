"""bot.telegram.sender.Sender: order per chat, independent chats, edit coalescing, text
merging and splitting."""

from __future__ import annotations

import asyncio

from aiogram.types import Message

from bot.telegram.results import parsed
from bot.telegram.sender import MESSAGE_LIMIT, split_text, utf16_len
from tests.sender.support import ALICE, GROUP, keyboard


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
