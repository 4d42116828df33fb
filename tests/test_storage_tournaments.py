"""bot.storage's tournaments (issue 22): create with its home table, players registered in order
(withdrawn and back), tables linked once, games per scheduled slot with their substitutes, one
draw for two presses; SQLite and PostgreSQL."""

from __future__ import annotations

from bot.storage import Storage

HOME = -1001000000001
OTHER = -1001000000002
ORG = 2**41 + 1


async def _tournament(storage: Storage):
    return await storage.create_tournament(HOME, "Spring cup", "club", 3, {"name": "fiim"},
                                           [ORG], ORG, -(2**62))


async def test_a_tournament_is_created_with_its_home_table(storage: Storage) -> None:
    t = await _tournament(storage)
    assert t.status == "registration" and t.seed == -(2**62) and t.judges == [ORG]
    assert t.scoring == {"name": "fiim"} and t.schedule is None and t.ui == {}
    assert await storage.get_tournament(t.id) == t
    assert await storage.tournament_tables(t.id) == {1: HOME}
    assert (await storage.tournament_for_chat(HOME)) == t
    assert await storage.tournament_for_chat(OTHER) is None
    assert await storage.link_tournament_table(t.id, OTHER) == 2
    assert await storage.link_tournament_table(t.id, OTHER) == 2
    assert await storage.tournament_tables(t.id) == {1: HOME, 2: OTHER}
    linked = await storage.tournament_for_chat(OTHER)
    assert linked is not None and linked.id == t.id


async def test_players_register_in_order_and_withdraw(storage: Storage) -> None:
    t = await _tournament(storage)
    assert await storage.add_tournament_player(t.id, 11, "Anna")
    assert await storage.add_tournament_player(t.id, 12, "Boris")
    assert not await storage.add_tournament_player(t.id, 11, "Anna K")
    assert await storage.withdraw_tournament_player(t.id, 11)
    assert not await storage.withdraw_tournament_player(t.id, 11)
    assert not await storage.withdraw_tournament_player(t.id, 99)
    assert [p.user_id for p in await storage.tournament_players(t.id)] == [12]
    every = await storage.tournament_players(t.id, withdrawn=True)
    assert [(p.user_id, p.name, p.withdrawn) for p in every] == [(11, "Anna K", True),
                                                                 (12, "Boris", False)]
    assert await storage.add_tournament_player(t.id, 11, "Anna")  # back, in his place
    assert [p.user_id for p in await storage.tournament_players(t.id)] == [11, 12]


async def test_one_draw_for_two_presses_and_the_games_of_the_slots(storage: Storage) -> None:
    t = await _tournament(storage)
    drawn = await storage.update_tournament(t.id, expect_status="registration", status="drawn",
                                            schedule={"format": 1})
    assert drawn is not None and drawn.status == "drawn" and drawn.schedule == {"format": 1}
    assert await storage.update_tournament(t.id, expect_status="registration",
                                           status="drawn") is None
    g1 = await storage.create_game(HOME, "club", ORG, "en", {}, 1)
    await storage.set_tournament_game(t.id, 1, 1, g1)
    await storage.set_status(g1, "cancelled")
    g2 = await storage.create_game(HOME, "club", ORG, "en", {}, 2)
    await storage.set_tournament_game(t.id, 1, 1, g2)  # the cancelled game is replaced
    assert await storage.set_tournament_substitute(g2, 11, 77)
    assert not await storage.set_tournament_substitute(g1, 11, 77)
    [slot] = await storage.tournament_games(t.id)
    assert (slot.round, slot.table_no, slot.game_id, slot.status) == (1, 1, g2, "lobby")
    assert slot.substitutes == {11: 77}
    assert await storage.tournament_of_game(g2) == slot
    assert await storage.tournament_of_game(g1) is None


async def test_a_substitute_replaced_or_sent_back_keeps_the_scheduled_player_as_key(
        storage: Storage) -> None:
    t = await _tournament(storage)
    g = await storage.create_game(HOME, "club", ORG, "en", {}, 1)
    await storage.set_tournament_game(t.id, 1, 1, g)
    await storage.set_tournament_substitute(g, 11, 77)
    await storage.set_tournament_substitute(g, 77, 88)  # the first substitute replaced
    assert await _subs(storage, g) == {11: 88}
    await storage.set_tournament_substitute(g, 12, 99)
    await storage.set_tournament_substitute(g, 99, 12)  # the scheduled player is back
    assert await _subs(storage, g) == {11: 88}
    await storage.set_tournament_substitute(g, 88, 11)
    assert await _subs(storage, g) == {}


async def _subs(storage: Storage, game_id: int) -> dict[int, int]:
    slot = await storage.tournament_of_game(game_id)
    assert slot is not None
    return slot.substitutes


async def test_a_round_is_claimed_for_its_post_once_across_two_workers(database) -> None:
    """Review (issue 22): two workers whose tables' sheets are published together each saw
    the round unposted and posted it; the claim is a compare-and-set on the stored ``ui``, so
    of two storages on one database exactly one gets the round."""
    import asyncio

    first, second = database.storage(), database.storage()
    await first.start()
    await second.start()
    try:
        t = await _tournament(first)
        await first.update_tournament(t.id, ui={"message": 5, "tie_breaks": ["wins"]})
        for round_no in (1, 2):
            got = await asyncio.gather(*(s.claim_round_post(t.id, round_no, finished=round_no == 2)
                                         for s in (first, second, first, second)))
            winners = [x for x in got if x is not None]
            assert len(winners) == 1, got
        final = await second.get_tournament(t.id)
        assert final is not None and final.status == "finished"
        assert final.ui == {"message": 5, "tie_breaks": ["wins"], "rounds_posted": [1, 2]}
        assert await first.claim_round_post(t.id, 1) is None  # posted already
        assert await first.claim_round_post(10**9, 1) is None  # no such tournament
    finally:
        await first.close()
        await second.close()
