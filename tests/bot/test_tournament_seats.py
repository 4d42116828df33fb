"""Where a tournament seats people, said to them (issue 22; bot/handlers/tournament_seats.py),
through feed_update: the draw's caption names a linked table the schedule leaves unused (no
message in that group), and «Join» pressed at a round's lobby by somebody the schedule does not
seat there (PARTY-X26) says where he plays this round, that he sits it out, or — not
registered — that this is a tournament table."""

from __future__ import annotations

from aiogram.methods import SendPhoto

from tests.bot.harness import GROUP, Harness, make_harness, request_of
from tests.fakes.telegram import plain_text

TABLE2 = GROUP - 7
TABLE3 = GROUP - 8


async def _drawn_on_three_linked_tables(h: Harness, players: int):
    """``players`` registered (the first users), three groups linked, the seating drawn."""
    admin = h.users[0]
    for chat in (GROUP, TABLE2, TABLE3):
        h.session.set_member(chat, admin.id, "administrator")
    h.session.chat_titles.update({TABLE2: "Club B", TABLE3: "Club C"})
    await h.command(admin, "/tournament new Autumn Cup club 1 plain")
    t = await h.app.storage.tournament_for_chat(GROUP)
    assert t is not None
    for chat in (TABLE2, TABLE3):
        await h.command(admin, f"/tournament table {t.id}", chat_id=chat)
    for u in h.users[:players]:
        await h.command(admin, f"/tournament add {u.id} {u.first_name}")
    await h.command(admin, "/tournament close")
    await h.command(admin, "/tournament draw")
    t = await h.app.storage.get_tournament(t.id)
    assert t is not None and t.schedule is not None
    return admin, t


async def test_TOUR_bot_layer_the_draw_names_a_linked_table_it_leaves_unused(db_url):
    h = await make_harness(db_url, n_users=21)
    try:
        admin, t = await _drawn_on_three_linked_tables(h, 21)
        assert t.schedule["tables"] == 2  # 21 players: at most two tables at once
        await h.app.sender.drain()
        [photo] = [request_of(c, SendPhoto) for c in h.sent(GROUP, ("sendPhoto",))]
        caption = plain_text(photo.caption or "")
        assert "Not used: table 3 («Club C») (21 players, tables at once: 2); no round of " \
               "«Autumn Cup» is played there." in caption
        assert "table 2" not in caption.split("Not used:")[1]
        # the unused group's budget is not spent: nothing was sent there after its link
        assert h.sent_texts(TABLE3)[-1] == "🪑 This group is table 3 of «Autumn Cup»."
    finally:
        await h.stop()


async def test_TOUR_bot_layer_the_draw_without_unused_tables_adds_no_note(db_url):
    h = await make_harness(db_url, n_users=30)
    try:
        _admin, t = await _drawn_on_three_linked_tables(h, 30)
        assert t.schedule["tables"] == 3
        await h.app.sender.drain()
        [photo] = [request_of(c, SendPhoto) for c in h.sent(GROUP, ("sendPhoto",))]
        assert "Not used" not in (photo.caption or "")
    finally:
        await h.stop()


async def test_PARTY_X26_join_at_a_table_not_yours_says_where_you_play(db_url):
    h = await make_harness(db_url, n_users=22)
    try:
        admin, t = await _drawn_on_three_linked_tables(h, 21)
        first = t.schedule["rounds"][0]
        assert [len(g) for g in first] == [10, 10]  # round 1: two tables, one sits out
        await h.command(admin, "/newgame")
        g = await h.game()
        assert g.state.settings["seat_order"] == first[0]

        elsewhere = next(u for u in h.users if u.id == first[1][4])
        await h.dm(elsewhere, f"/start join_{g.id}")
        assert h.sent_texts(elsewhere.id)[-1] == (
            "In round 1 of «Autumn Cup» you play at table 2 («Club B»), seat 5: join that "
            "group's lobby.")

        seated = {u for table in first for u in table}
        out = next(u for u in h.users[:21] if u.id not in seated)
        await h.dm(out, f"/start join_{g.id}")
        assert h.sent_texts(out.id)[-1] == (
            "You sit out round 1 of «Autumn Cup»: the schedule seats you in another round "
            "(/tournament schedule).")

        stranger = h.users[21]  # a member of the group, never registered
        await h.dm(stranger, f"/start join_{g.id}")
        assert h.sent_texts(stranger.id)[-1] == (
            "This is a table of the tournament «Autumn Cup»: only its scheduled players join "
            "(/tournament schedule).")

        g = await h.game()  # nobody of them got in
        assert not {elsewhere.id, out.id, stranger.id} & set(g.state.players)
    finally:
        await h.stop()


async def test_PARTY_X26_join_in_russian_names_the_table_and_seat(db_url):
    h = await make_harness(db_url, n_users=21, default_locale="ru")
    try:
        admin, t = await _drawn_on_three_linked_tables(h, 21)
        await h.command(admin, "/newgame")
        g = await h.game()
        first = t.schedule["rounds"][0]
        elsewhere = next(u for u in h.users if u.id == first[1][0])
        await h.dm(elsewhere, f"/start join_{g.id}")
        ru = h.app.translator.get("ru")
        table = ru("table {t} («{group}»)").format(t=2, group="Club B")
        assert table != "table 2 («Club B»)", "the ru catalogue is missing"
        assert h.sent_texts(elsewhere.id)[-1] == ru(
            "In round {r} of «{name}» you play at {table}, seat {seat}: join that "
            "group's lobby.").format(r=1, name="Autumn Cup", table=table, seat=1)
    finally:
        await h.stop()
