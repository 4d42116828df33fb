"""/tournament edges found by a trial run (trial22): linking a table after the draw or a group
that another open tournament uses, a tournament name ending in a number, a substitute scheduled
at another table of the same round, and the names in the substitute's message; a player or
substitute given by a bare user ID is named as Telegram names him (e2e22)."""

from __future__ import annotations

from tests.bot.harness import GROUP, Harness, make_harness

TABLE2 = GROUP - 7


def _last(h: Harness, chat_id: int = GROUP) -> str:
    return h.sent_texts(chat_id)[-1]


async def _new(h: Harness, text: str, chat_id: int = GROUP):
    admin = h.users[0]
    h.session.set_member(chat_id, admin.id, "administrator")
    await h.command(admin, text, chat_id=chat_id)
    t = await h.app.storage.tournament_for_chat(chat_id)
    assert t is not None
    return admin, t


async def test_a_table_is_not_linked_after_the_draw_nor_from_another_open_tournament(db_url):
    h = await make_harness(db_url, n_users=10)
    try:
        admin, other = await _new(h, "/tournament new Home Cup", chat_id=TABLE2)
        admin, t = await _new(h, "/tournament new Main Cup")
        await h.command(admin, f"/tournament table {t.id}", chat_id=TABLE2)
        assert _last(h, TABLE2) == ("This group already plays the tournament «Home Cup» "
                                    f"(#{other.id}): one open tournament per group.")
        assert await h.app.storage.tournament_tables(t.id) == {1: GROUP}
        await h.command(admin, "/tournament close", chat_id=TABLE2)  # still Home Cup's group
        assert (await h.app.storage.get_tournament(other.id)).status == "closed"
        assert (await h.app.storage.get_tournament(t.id)).status == "registration"

        for u in h.users:
            await h.command(admin, f"/tournament add {u.id} {u.first_name}")
        await h.command(admin, "/tournament close")
        await h.command(admin, "/tournament draw")
        await h.command(admin, f"/tournament table {t.id}", chat_id=GROUP - 9)
        assert _last(h, GROUP - 9) == "Only an admin of both groups can link a table."
        h.session.set_member(GROUP - 9, admin.id, "administrator")
        await h.command(admin, f"/tournament table {t.id}", chat_id=GROUP - 9)
        assert _last(h, GROUP - 9) == ("The seating of «Main Cup» is drawn: tables are linked "
                                       "before the draw.")
        await h.command(admin, f"/tournament table {t.id}")  # its own table: just the number
        assert _last(h) == "🪑 This group is table 1 of «Main Cup»."
        assert await h.app.storage.tournament_tables(t.id) == {1: GROUP}
    finally:
        await h.stop()


async def test_a_name_may_end_in_a_number_given_before_the_games(db_url):
    h = await make_harness(db_url, n_users=2)
    try:
        admin = h.users[0]
        h.session.set_member(GROUP, admin.id, "administrator")
        await h.command(admin, "/tournament new Кубок 2026")
        assert _last(h) == ("Games per player: a number from 1 to 20.\nA name ending in a "
                            "number takes the games after it: /tournament new Cup 2026 4.")
        assert await h.app.storage.tournament_for_chat(GROUP) is None
        admin, t = await _new(h, "/tournament new Кубок 2026 3 online")
        assert (t.name, t.preset, t.games_per_player) == ("Кубок 2026", "online", 3)
    finally:
        await h.stop()


async def test_a_substitute_is_no_player_of_another_table_of_the_round_and_is_named(db_url):
    h = await make_harness(db_url, n_users=22)
    try:
        admin, t = await _new(h, "/tournament new Cup 1")
        h.session.set_member(TABLE2, admin.id, "administrator")
        await h.command(admin, f"/tournament table {t.id}", chat_id=TABLE2)
        for u in h.users[:20]:
            await h.command(admin, f"/tournament add {u.id} {u.first_name}")
        await h.command(admin, "/tournament close")
        await h.command(admin, "/tournament draw")
        t = await h.app.storage.get_tournament(t.id)
        assert t is not None and t.schedule is not None
        [table1, table2] = t.schedule["rounds"][0]
        await h.command(admin, "/newgame", chat_id=TABLE2)
        name = {u.id: u.first_name for u in h.users}
        await h.command(admin, f"/tournament sub 1 {table1[0]}", chat_id=TABLE2)
        assert _last(h, TABLE2) == f"{name[table1[0]]} plays at table 1 in this round."
        g = await h.game(TABLE2)
        assert g.state.settings["seat_order"] == table2

        outsider = h.users[21]
        await h.command(admin, f"/tournament sub 2 {outsider.id}", chat_id=TABLE2)
        # e2e22: a bare user ID is named as Telegram names him, in the lobby and its sheet
        assert _last(h, TABLE2) == (f"🔁 {outsider.first_name} takes seat 2 instead of "
                                    f"{name[table2[1]]}.")
        g = await h.game(TABLE2)
        assert g.state.players[outsider.id].name == outsider.first_name
        await h.command(admin, f"/tournament sub 2 {table2[1]}", chat_id=TABLE2)
        assert _last(h, TABLE2) == (f"🔁 {name[table2[1]]} takes seat 2 instead of "
                                    f"{outsider.first_name}.")
        slot = await h.app.storage.tournament_of_game(g.id)
        assert slot is not None and slot.substitutes == {}
    finally:
        await h.stop()


async def test_the_russian_round_message_names_the_lobby_button_as_it_is(db_url):
    h = await make_harness(db_url, n_users=10, default_locale="ru")
    try:
        admin, t = await _new(h, "/tournament new Кубок 1")
        for u in h.users:
            await h.command(admin, f"/tournament add {u.id} {u.first_name}")
        await h.command(admin, "/tournament close")
        await h.command(admin, "/tournament draw")
        t = await h.app.storage.get_tournament(t.id)
        assert t is not None and t.schedule is not None
        h.app.sender.blocked.add(t.schedule["rounds"][0][0][0])
        await h.command(admin, "/newgame")
        [button] = [b["text"] for _, b in h.buttons(GROUP) if "join_" in b.get("url", "")]
        label = button.removeprefix("➕ ")
        assert f"Ещё должны войти кнопкой «{label}»" in _last(h)
    finally:
        await h.stop()


async def test_another_preset_is_refused_and_a_chat_id_is_no_player(db_url):
    h = await make_harness(db_url, n_users=2)
    try:
        admin = h.users[0]
        h.session.set_member(GROUP, admin.id, "administrator")
        await h.command(admin, "/tournament new Cup noir")  # not made «Cup noir»
        assert _last(h).startswith("A tournament plays club or online sport mafia, not «noir»")
        assert await h.app.storage.tournament_for_chat(GROUP) is None
        await h.command(admin, "/tournament new Cup online")
        t = await h.app.storage.tournament_for_chat(GROUP)
        assert t is not None and t.name == "Cup" and t.preset == "online"
        before = _last(h)
        await h.command(admin, "/tournament add -100500")  # a chat's id, not a user's
        assert "-100500 is registered" not in _last(h) and _last(h) != before
        assert await h.app.storage.tournament_players(t.id) == []
    finally:
        await h.stop()


async def test_a_player_added_by_a_bare_id_is_registered_under_his_telegram_name(db_url):
    h = await make_harness(db_url, n_users=3)
    try:
        admin, t = await _new(h, "/tournament new Cup 1")
        late = h.users[2]
        await h.command(admin, f"/tournament add {late.id}")
        assert _last(h) == f"✅ {late.first_name} is registered."
        [p] = await h.app.storage.tournament_players(t.id)
        assert (p.user_id, p.name) == (late.id, late.first_name)
        await h.command(admin, f"/tournament add {h.users[1].id} Nick")  # a given name stays
        await h.command(admin, f"/tournament withdraw {late.id}")
        assert _last(h) == f"{late.first_name} is withdrawn."
        names = {p.user_id: p.name for p in await h.app.storage.tournament_players(t.id)}
        assert names == {h.users[1].id: "Nick"}
    finally:
        await h.stop()
