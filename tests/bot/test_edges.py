"""Issue 10, item 6: a newcomer's rough edges — /settings ranges, commands with a seat nobody
sits on, answers that are replies to the command, /rules per preset."""

from __future__ import annotations

import pytest
from aiogram.methods import SendMessage

from tests.bot.harness import GROUP, make_harness, request_of, text_of
from tests.bot.test_club import club_game
from tests.fakes.updates import FakeUser

ADMIN = FakeUser(900_000_000_001, "Admin")


def _answers(h, chat_id=GROUP):
    return [c for c in h.session.calls.calls_to("sendMessage", chat_id) if c.ok]


@pytest.mark.parametrize("locale", ["en", "ru"])
async def test_PARTY_34_every_out_of_range_timing_gets_one_translated_range_message(
        sqlite_url: str, locale: str):
    h = await make_harness(sqlite_url, n_users=2, default_locale=locale)
    try:
        _ = h.app.translator.get(locale)
        admin = h.users[0]
        h.session.set_member(GROUP, admin.id, "administrator")
        answers = []
        for value in ("-5", "99999999", "0", "601", "+9"):
            await h.command(admin, f"/settings speech {value}")
            call = _answers(h)[-1]
            answers.append(call.text)
            assert call.text.startswith(_("A speech")), call.text
            assert "10" in call.text and "600" in call.text and str(int(value)) in call.text
            assert "speech:" not in call.text and "{" not in call.text
        await h.command(admin, "/settings night 5")
        assert _answers(h)[-1].text.startswith(_("A night"))
        assert (await h.service.storage.get_chat_settings(GROUP)).data.get("timings", {}) == {}
        # a value that is not a number is a format question, not a range one
        await h.command(admin, "/settings speech abc")
        assert _answers(h)[-1].text.startswith(_("Usage: /settings speech 45 — or /settings "
                                                 "reset. Timings: {keys}.").split("{")[0])
    finally:
        await h.stop()


async def test_CLUB_36_a_seat_nobody_sits_on_is_named_for_every_seat_command(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=10)
    try:
        game_id = await club_game(h)
        h.session.set_member(GROUP, ADMIN.id, "administrator")
        log_len = await h.log_len(game_id)
        for command in ("foul", "disqualify", "unfoul", "unnominate"):
            for seat in ("99", "0", "№11", "-3"):
                await h.command(ADMIN, f"/{command} {seat}")
                text = _answers(h)[-1].text
                n = int(seat.lstrip("№"))
                assert text == f"There is no seat №{n} at this table (seats 1–10).", text
        await h.command(ADMIN, "/foul")
        assert _answers(h)[-1].text == ("Reply to the player's message with /foul, or give the "
                                        "seat: /foul 4.")
        assert await h.log_len(game_id) == log_len  # nothing happened
    finally:
        await h.stop()


async def test_answers_to_the_judges_commands_are_replies_to_them(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=10)
    try:
        await club_game(h)
        h.session.set_member(GROUP, ADMIN.id, "administrator")
        for text in ("/foul 99", "/unfoul 5", "/settings speech 5", "/pause", "/foul 3"):
            before = len(h.session.calls)
            update = h.updates.group_command(GROUP, ADMIN, text)
            await h.feed(update)
            replies = [c for c in h.session.calls[before:]
                       if c.method == "sendMessage" and c.chat_id == GROUP]
            direct = [r.reply_parameters for r in (request_of(c, SendMessage) for c in replies)
                      if r.reply_parameters is not None]
            assert direct, f"{text}: no answer is a reply"
            assert update.message is not None
            assert all(p.message_id == update.message.message_id for p in direct)
            assert all(p.allow_sending_without_reply for p in direct)
    finally:
        await h.stop()


async def test_rules_explain_the_running_preset_or_the_one_named(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=2)
    try:
        user = h.users[0]
        await h.command(user, "/rules")
        assert _answers(h)[-1].text.startswith("<b>Party mafia</b>")
        assert "docs/rules/party.md" in _answers(h)[-1].text
        await h.command(user, "/newgame club")
        await h.command(user, "/rules")
        club = _answers(h)[-1].text
        assert club.startswith("<b>Club sport mafia</b>") and "docs/rules/club.md" in club
        for name, head, page in (("online", "<b>Online sport mafia</b>", "online-sport.md"),
                                 ("форум", "<b>Forum mafia</b>", "forum.md"),
                                 ("party", "<b>Party mafia</b>", "party.md")):
            await h.dm(user, f"/rules {name}")
            text = text_of(h.session.calls.calls_to("sendMessage", user.id)[-1])
            assert text.startswith(head) and f"docs/rules/{page}" in text, text
        await h.dm(user, "/rules chess")
        assert h.sent_texts(user.id)[-1].startswith("Unknown preset «chess»")
    finally:
        await h.stop()


async def test_rules_link_to_the_published_pages(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=1, rules_url="https://example.org/mafia/docs/rules/")
    try:
        await h.dm(h.users[0], "/rules online")
        text = text_of(h.session.calls.calls_to("sendMessage", h.users[0].id)[-1])
        assert '<a href="https://example.org/mafia/docs/rules/online-sport.md">' in text
    finally:
        await h.stop()
