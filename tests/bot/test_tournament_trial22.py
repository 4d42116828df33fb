"""Edges found by the trial run of 5 Dec (trial22), through feed_update: a mistyped bare user ID
is refused by /tournament add, sub and judge (no player nobody can reach), and a judge given by ID
is named; /newgame in a linked table the draw leaves unused, or at a table whose game of the round
is played, says so; an import naming a group at two tables names it; a tournament game says its
seats follow the schedule (PARTY-X26); a score sheet is scored with its stored system, not FIIM;
the registration names the system in words; a tie for the first place names every winner and the
next round at fewer tables names them; a judge whose draft never went gets it at the next start;
a round end lost in a crash is posted at the next start."""

from __future__ import annotations

from aiogram.methods import SendPhoto

from tests.bot.harness import GROUP, Harness, make_harness, request_of
from tests.fakes.telegram import plain_text

TABLE2 = GROUP - 7
GHOST = 12345  # an ID Telegram knows no user by in the group


def _last(h: Harness, chat_id: int = GROUP) -> str:
    return h.sent_texts(chat_id)[-1]


async def test_TOUR_a_mistyped_bare_id_is_refused_not_registered(db_url):
    h = await make_harness(db_url, n_users=2)
    try:
        admin = h.users[0]
        h.session.set_member(GROUP, admin.id, "administrator")
        await h.command(admin, "/tournament new Odd Cup")
        t = await h.app.storage.tournament_for_chat(GROUP)
        assert t is not None
        h.session.fail("getChatMember", chat_id=GROUP, error_code=400,
                       description="Bad Request: PARTICIPANT_ID_INVALID", times=None)
        await h.command(admin, f"/tournament add {GHOST}")
        assert _last(h) == (f"Telegram knows no user {GHOST} in this group: check the ID, or "
                            f"give his name after it: /tournament add {GHOST} <name>.")
        assert await h.app.storage.tournament_players(t.id) == []
        await h.command(admin, f"/tournament add {GHOST} Petya")  # a name given: taken as is
        assert _last(h) == "✅ Petya is registered."
        assert [p.name for p in await h.app.storage.tournament_players(t.id)] == ["Petya"]
    finally:
        await h.stop()


async def test_TOUR_a_mistyped_substitute_id_is_refused(db_url):
    h = await make_harness(db_url, n_users=10)
    try:
        admin = h.users[0]
        h.session.set_member(GROUP, admin.id, "administrator")
        await h.command(admin, "/tournament new Odd Cup club 1")
        t = await h.app.storage.tournament_for_chat(GROUP)
        assert t is not None
        for u in h.users:
            await h.dm(u, f"/start tour_{t.id}")
        await h.command(admin, "/tournament close")
        await h.command(admin, "/tournament draw")
        await h.command(admin, "/newgame")
        game = await h.game()
        h.session.fail("getChatMember", chat_id=GROUP, error_code=400,
                       description="Bad Request: PARTICIPANT_ID_INVALID", times=None)
        await h.command(admin, f"/tournament sub 3 {GHOST}")
        assert _last(h) == (f"Telegram knows no user {GHOST} in this group: check the ID, or "
                            f"give his name after it: /tournament sub 3 {GHOST} <name>.")
        slot = await h.app.storage.tournament_of_game(game.id)
        assert slot is not None and not slot.substitutes
    finally:
        await h.stop()


async def test_TOUR_newgame_in_a_table_the_draw_leaves_unused_says_so(db_url):
    h = await make_harness(db_url, n_users=10)
    try:
        admin = h.users[0]
        for chat in (GROUP, TABLE2):
            h.session.set_member(chat, admin.id, "administrator")
        await h.command(admin, "/tournament new Odd Cup club 1")
        t = await h.app.storage.tournament_for_chat(GROUP)
        assert t is not None
        for u in h.users:
            await h.dm(u, f"/start tour_{t.id}")
        await h.command(admin, f"/tournament table {t.id}", chat_id=TABLE2)
        await h.command(admin, "/tournament close")
        await h.command(admin, "/tournament draw")  # ten players: one table at once
        await h.command(admin, "/newgame", chat_id=TABLE2)
        assert _last(h, TABLE2) == ("«Odd Cup» does not use this table: its rounds are played "
                                    "at the other tables.")
        assert await h.app.storage.tournament_games(t.id) == []
    finally:
        await h.stop()


async def test_TOUR_an_import_with_a_group_at_two_tables_names_the_group(db_url):
    """The refusal named no value («tables: appears twice ().»)."""
    import json

    from tests.bot.test_tournament_import import _export, _played, _send_import

    h = await make_harness(db_url, n_users=10)
    try:
        admin, t = await _played(h)
        data = json.loads(await _export(h, admin))
        data["tables"] = {"1": GROUP, "2": GROUP}
        answer = await _send_import(h, admin, json.dumps(data).encode())
        assert answer == (f"❌ Not imported — tables: appears twice ({GROUP}). "
                          "Nothing was written.")
    finally:
        await h.stop()


async def test_PARTY_X26_a_tournament_game_says_its_seats_are_the_schedules(db_url):
    """«Seats are drawn at random» was announced at a round's start, though PARTY-X26 seats the
    schedule's order; an ordinary game still says it."""
    from tests.bot.test_tournament_rounds import drawn

    h = await make_harness(db_url, n_users=10)
    try:
        admin, _t = await drawn(h)
        await h.command(admin, "/newgame")
        await h.command(admin, "/startgame")
        await h.app.sender.drain()
        texts = h.sent_texts(GROUP)
        assert any("🎭 Roles are dealt in private messages. Seats follow the tournament's "
                   "schedule." in t for t in texts), texts[-5:]
        assert not any("Seats are drawn at random" in t for t in texts)
    finally:
        await h.stop()


async def test_TOUR_newgame_at_a_table_whose_game_is_played_says_so(db_url):
    """Table 1 played its game of round 1, table 2 has not: table 1's /newgame said «This table
    has no game in round 1»."""
    from tests.bot.driver import play_to_end

    h = await make_harness(db_url, n_users=20)
    try:
        admin = h.users[0]
        for chat in (GROUP, TABLE2):
            h.session.set_member(chat, admin.id, "administrator")
        await h.command(admin, "/tournament new Two Tables club 1")
        t = await h.app.storage.tournament_for_chat(GROUP)
        assert t is not None
        for u in h.users:
            await h.dm(u, f"/start tour_{t.id}")
        await h.command(admin, f"/tournament table {t.id}", chat_id=TABLE2)
        await h.command(admin, "/tournament close")
        await h.command(admin, "/tournament draw")
        await h.command(admin, "/newgame")
        await h.command(admin, "/startgame")
        await play_to_end(h, seed=3)
        await h.command(admin, "/newgame")
        assert _last(h) == "This table's game of round 1 is played: wait for the other tables."
    finally:
        await h.stop()


async def test_SCORE_X10_a_sheet_is_scored_with_its_stored_system_not_fiim(db_url):
    """The sheet's stored system (``ScoringSystem.to_settings``) was read as a game's settings
    (no ``scoring`` key): every sheet was scored and captioned with FIIM — a plain tournament's
    game was published «scoring: FIIM», a group's «win 2» gave 1 a win."""
    from tests.bot.driver import play_to_end
    from tests.bot.test_club import club_game

    h = await make_harness(db_url, n_users=10)
    try:
        admin = h.users[0]
        h.session.set_member(GROUP, admin.id, "administrator")
        await h.command(admin, "/settings scoring win 2")
        game_id = await club_game(h)  # no judge: published at once
        await play_to_end(h, seed=5)
        await h.app.sender.drain()
        rec = await h.app.storage.get_sheet(game_id)
        assert rec is not None and rec.published and rec.system["win"] == 2.0
        rows = await h.app.storage.game_points_rows(game_id)
        assert {r.win_points for r in rows if r.won} == {2.0}
        [photo] = [request_of(c, SendPhoto) for c in h.sent(GROUP, ("sendPhoto",))]
        assert "scoring: Own figures" in plain_text(photo.caption or ""), photo.caption
    finally:
        await h.stop()


async def test_TOUR_the_registration_names_the_scoring_system_in_words(db_url):
    """The registration message wrote the system's key («scoring: plain»; in Russian too)."""
    h = await make_harness(db_url, n_users=2)
    try:
        admin = h.users[0]
        h.session.set_member(GROUP, admin.id, "administrator")
        await h.command(admin, "/tournament new Cup club 2 plain")
        assert "club · games per player: 2 · scoring: Plain (a win = 1)" in _last(h)
    finally:
        await h.stop()


async def test_TOUR_a_judge_given_by_id_is_named_and_a_mistyped_id_refused(db_url):
    """«⚖️ 31100 is a judge of …»: the judge given by a bare ID was named by his ID."""
    h = await make_harness(db_url, n_users=3)
    try:
        admin, judge = h.users[0], h.users[2]
        h.session.set_member(GROUP, admin.id, "administrator")
        await h.command(admin, "/tournament new Cup")
        await h.command(admin, f"/tournament judge {judge.id}")
        assert _last(h) == f"⚖️ {judge.first_name} is a judge of «Cup»."
        h.session.fail("getChatMember", chat_id=GROUP, error_code=400,
                       description="Bad Request: PARTICIPANT_ID_INVALID", times=None)
        await h.command(admin, f"/tournament judge {GHOST}")
        assert _last(h).startswith(f"Telegram knows no user {GHOST} in this group")
        t = await h.app.storage.tournament_for_chat(GROUP)
        assert t is not None and t.judges == [admin.id, judge.id]
    finally:
        await h.stop()


async def test_TOUR_a_tie_for_first_names_every_winner(db_url):
    """One plain game: every winner has the same points and tie-breaks (place 1 each); the final
    caption named only the first row as «Winner»."""
    from tests.bot.test_tournament_rounds import drawn, photos, play_round

    h = await make_harness(db_url, n_users=10)
    try:
        admin, t = await drawn(h, games=1)
        await play_round(h, admin, seed=5)
        caption = plain_text(photos(h)[-1].caption or "")
        assert "Shared first place: " in caption and "Winner:" not in caption, caption
        from bot.handlers.tournament_rounds import RoundEnd

        [end] = [f.__self__ for f in h.app.sheets.published
                 if isinstance(getattr(f, "__self__", None), RoundEnd)]
        rows = await end.tournaments.standings(await h.app.storage.get_tournament(t.id))
        first = [r.name for r in rows if r.place == 1]
        assert len(first) in (3, 7) and all(name in caption for name in first), caption
    finally:
        await h.stop()


async def test_TOUR_the_next_round_at_fewer_tables_names_them(db_url):
    """25 players, 2 games each, 2 tables: rounds of 2, 2 and 1 games; after round 2 the post
    said «/newgame in each table's group» though table 2 plays no more."""
    from bot.handlers.tournament_rounds import RoundEnd
    from tests.bot.test_tournament_rounds import photos

    h = await make_harness(db_url, n_users=25)
    try:
        admin = h.users[0]
        for chat in (GROUP, TABLE2):
            h.session.set_member(chat, admin.id, "administrator")
        await h.command(admin, "/tournament new Cup club 2")
        t = await h.app.storage.tournament_for_chat(GROUP)
        assert t is not None
        for u in h.users:
            await h.dm(u, f"/start tour_{t.id}")
        await h.command(admin, f"/tournament table {t.id}", chat_id=TABLE2)
        await h.command(admin, "/tournament close")
        await h.command(admin, "/tournament draw")
        t = await h.app.storage.get_tournament(t.id)
        [end] = [f.__self__ for f in h.app.sheets.published
                 if isinstance(getattr(f, "__self__", None), RoundEnd)]
        schedule = end.tournaments.schedule(t)
        assert [len(schedule.round(r)) for r in (1, 2, 3)] == [2, 2, 1]
        await end._post(t, schedule, 2, 3)  # noqa: SLF001 - the post after round 2
        await h.app.sender.drain()
        caption = plain_text(photos(h)[-1].caption or "")
        assert caption.endswith("Next: round 3 of 3 — /newgame at table 1 only."), caption
        await end._post(t, schedule, 1, 2)  # noqa: SLF001
        await h.app.sender.drain()
        caption = plain_text(photos(h)[-1].caption or "")
        assert caption.endswith("Next: round 2 of 3 — /newgame in each table's group."), caption
    finally:
        await h.stop()


async def test_SCORE_X11_a_judge_who_never_got_his_draft_gets_it_after_a_restart(sqlite_url):
    """Killed right after a game's end, the bot had stored the draft but not sent it: after the
    restart the judge had no sheet to fill (only its publication by itself 15 min later)."""
    from tests.bot.test_sheets import JUDGE, judged_game

    def drafts(h: Harness) -> list[dict]:
        return [m for m in h.messages(JUDGE.id)
                if any(b.get("callback_data", "").startswith("sh:pub:")
                       for row in (m.get("reply_markup") or {}).get("inline_keyboard", [])
                       for b in row)]

    h = await make_harness(sqlite_url, n_users=10)
    game_id = await judged_game(h)
    assert len(drafts(h)) == 1
    await h.app.storage.set_sheet_ui(game_id, {})  # as if the process stopped before sending
    await h.stop()
    h2 = await make_harness(sqlite_url, n_users=10, session=h.session, clock=h.clock)
    try:
        await h2.app.sender.drain()
        assert h2.app.sheets is not None
        await h2.app.sheets.settle()
        assert len(drafts(h2)) == 2  # the draft again, with its buttons
        assert "message_id" in (await h2.app.storage.get_sheet(game_id)).ui
    finally:
        await h2.stop()
    h3 = await make_harness(sqlite_url, n_users=10, session=h.session, clock=h.clock)
    try:  # a draft whose message is known is not sent again at the next start
        await h3.app.sender.drain()
        assert len(drafts(h3)) == 2
    finally:
        await h3.stop()


async def test_TOUR_a_round_end_lost_in_a_crash_is_posted_at_the_next_start(sqlite_url):
    """Killed between the last sheet's publication and the round's post, the bot never posted
    the final table (the tournament stayed «running»): no later publication would post it."""
    from tests.bot.test_tournament_rounds import drawn, photos, play_round

    h = await make_harness(sqlite_url, n_users=10)
    admin, t = await drawn(h, games=1)
    h.app.sheets.published.clear()  # the process dies before the listener runs
    await play_round(h, admin, seed=5)
    posts = len(photos(h))
    t1 = await h.app.storage.get_tournament(t.id)
    assert t1.status == "running" and not t1.ui.get("rounds_posted")
    await h.stop()
    h2 = await make_harness(sqlite_url, n_users=10, session=h.session, clock=h.clock)
    try:
        await h2.app.sender.drain()
        new = photos(h2)[posts:]
        assert len(new) == 1 and plain_text(new[0].caption or "").startswith(
            "🏁 Final table of «Spring Cup»\nAfter round 1 of 1"), new
        t2 = await h2.app.storage.get_tournament(t.id)
        assert t2.status == "finished" and t2.ui["rounds_posted"] == [1]
    finally:
        await h2.stop()
    h3 = await make_harness(sqlite_url, n_users=10, session=h.session, clock=h.clock)
    try:  # posted once
        await h3.app.sender.drain()
        assert len(photos(h3)) == posts + 1
    finally:
        await h3.stop()
