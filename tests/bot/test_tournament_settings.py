"""/tournament tiebreaks and /tournament judge (issue 22, TOUR-X08) through feed_update: the
organiser sets the tie-breaks (a bad name refused with the known ones; the standings follow
them) and adds a judge, who may then organise."""

from __future__ import annotations

from aiogram.methods import SetMyCommands

from bot.app import set_commands
from tests.bot.harness import GROUP, make_harness, request_of
from tests.bot.test_tournament import _drawn, _finish_with_sheet


async def test_TOUR_X08_the_organiser_sets_the_tie_breaks_and_the_standings_follow(db_url):
    h = await make_harness(db_url, n_users=10)
    try:
        admin, t = await _drawn(h)
        await h.command(admin, "/tournament tiebreaks")
        assert h.sent_texts(GROUP)[-1].startswith(
            "Tie-breaks after the points: wins, additional, best_move, penalties.")
        await h.command(admin, "/tournament tiebreaks wins,luck")
        assert h.sent_texts(GROUP)[-1].startswith("Unknown tie-break «luck». Known: wins, ")
        await h.command(admin, "/tournament tiebreaks wins_as:joker")
        assert h.sent_texts(GROUP)[-1].startswith("Unknown tie-break «wins_as:joker»")
        await h.command(admin, "/tournament tiebreaks wins wins")
        assert h.sent_texts(GROUP)[-1] == "Give each tie-break once, at most 8."
        await h.command(h.users[4], "/tournament tiebreaks additional")
        assert h.sent_texts(GROUP)[-1].startswith("Only the tournament's organiser")

        seats = t.schedule["rounds"][0][0]
        winner, helper = seats[0], seats[1]  # 1 point each: a win / 1.0 additional
        await _finish_with_sheet(h, t, 1, seats, {winner}, {helper: 1.0})
        rows = await h.app.dp["tournaments"].standings(await h.app.storage.get_tournament(t.id))
        assert [r.user_id for r in rows[:2]] == [winner, helper]  # default: wins first

        await h.command(admin, "/tournament tiebreaks additional, wins_as:civilian")
        assert h.sent_texts(GROUP)[-1] == \
            "✅ Tie-breaks after the points: additional, wins_as:civilian."
        t = await h.app.storage.get_tournament(t.id)
        assert t.ui["tie_breaks"] == ["additional", "wins_as:civilian"]
        rows = await h.app.dp["tournaments"].standings(t)
        assert [r.user_id for r in rows[:2]] == [helper, winner]
        await h.command(admin, "/tournament tiebreaks default")
        assert (await h.app.storage.get_tournament(t.id)).ui["tie_breaks"] == \
            ["wins", "additional", "best_move", "penalties"]
    finally:
        await h.stop()


async def test_a_judge_is_added_by_reply_or_id_and_may_organise(db_url):
    h = await make_harness(db_url, n_users=10)
    try:
        admin, t = await _drawn(h)
        judge = h.users[5]
        await h.command(judge, "/tournament tiebreaks wins")
        assert h.sent_texts(GROUP)[-1].startswith("Only the tournament's organiser")
        await h.command(admin, "/tournament judge")
        assert h.sent_texts(GROUP)[-1].startswith("Reply to the judge's message, or give his")
        await h.command(admin, f"/tournament judge {judge.id} Judy")
        assert h.sent_texts(GROUP)[-1] == "⚖️ Judy is a judge of «Spring Cup»."
        assert (await h.app.storage.get_tournament(t.id)).judges == [admin.id, judge.id]
        await h.command(admin, f"/tournament judge {judge.id} Judy")
        assert h.sent_texts(GROUP)[-1] == "Judy is a judge already."
        await h.command(judge, "/tournament tiebreaks wins")
        assert h.sent_texts(GROUP)[-1] == "✅ Tie-breaks after the points: wins."
    finally:
        await h.stop()


async def test_tournament_is_in_help_and_in_the_command_menu(db_url):
    h = await make_harness(db_url, n_users=2)
    try:
        await h.command(h.users[0], "/help")
        assert "/tournament — a tournament: registration, seating, rounds, standings" in \
            h.sent_texts(GROUP)[-1]
        await set_commands(h.app)
        menus = [request_of(c, SetMyCommands) for c in h.session.calls
                 if c.method == "setMyCommands"]
        assert {m.language_code for m in menus} == {"ru", "en"}
        en = next(m for m in menus if m.language_code == "en")
        assert ("tournament", "a tournament: seating, rounds, standings") in \
            [(c.command, c.description) for c in en.commands]
        ru = next(m for m in menus if m.language_code == "ru")
        assert "tournament" in [c.command for c in ru.commands]
    finally:
        await h.stop()
