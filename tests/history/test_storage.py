"""History tables on SQLite (and PostgreSQL with TEST_DATABASE_URL): recording finished games,
the history list, deletion with the rating recomputed, backfill, statistics, /nextgame
subscriptions and the supergroup migration."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.history import protocol as P
from bot.history.service import HistoryService
from bot.history.stats import BASE_RATING, rate, standings
from tests.history.helpers import bulk_store, entries_of, sample_playouts

CHAT = -1001
T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


async def store_games(storage, count: int, chat: int = CHAT, start: int = 0) -> list[int]:
    games = sample_playouts()
    return [await bulk_store(storage, chat, games[(start + i) % len(games)], seed=i,
                             finished_at=T0 + timedelta(hours=start + i), title="Club")
            for i in range(count)]


def expected_ratings(games) -> dict[tuple[int, str], tuple[float, int, int]]:
    """Ratings computed from scratch in Python over (playout) games in finishing order."""
    state: dict[tuple[int, str], tuple[float, int, int]] = {}
    for po in games:
        st = po.state
        teams = {p.user_id: p.team.value for p in st.seated()}
        new = rate({k: v[0] for k, v in state.items()}, teams, st.winner.value)
        for p in st.seated():
            key = (p.user_id, p.team.value)
            old = state.get(key, (BASE_RATING, 0, 0))
            state[key] = (new[key], old[1] + 1, old[2] + int(p.team is st.winner))
    return state


async def stored_ratings(storage, chat=CHAT):
    return {(t.user_id, t.team): (t.rating, t.games, t.wins)
            for t in await storage.rating_tracks(chat_id=chat)}


def same(a, b):
    assert a.keys() == b.keys()
    for k in a:
        assert a[k][0] == pytest.approx(b[k][0]) and a[k][1:] == b[k][1:], k


async def test_recording_is_idempotent_and_feeds_the_list(storage):
    history = HistoryService(storage)
    ids = await store_games(storage, 4)
    assert await storage.unrecorded_games() == ids
    for gid in ids:
        assert await history.record(gid)
        assert not await history.record(gid)  # twice: nothing changes
    assert await storage.unrecorded_games() == []
    assert await storage.history_count(CHAT) == 4
    page = await storage.history_page(CHAT, 0, 3)
    assert [r.game_id for r in page] == ids[::-1][:3]
    assert [r.game_id for r in await storage.history_page(CHAT, 3, 3)] == ids[:1]
    rec = await storage.history_record(ids[0])
    po = sample_playouts()[0]
    assert (rec.chat_id, rec.title, rec.ruleset, rec.winner, rec.players, rec.days,
            rec.duration) == (CHAT, "Club", po.state.ruleset, po.state.winner.value,
                              len(po.state.seated()), po.state.day, 35 * 60)
    assert await storage.played_in(ids[0], po.state.seated()[0].user_id)
    assert not await storage.played_in(ids[0], 12345)
    entries = P.entries_from(await storage.load_entries(ids[0]))
    assert entries == entries_of(po)


async def test_ratings_incremental_equal_rebuilt_equal_computed(storage):
    history = HistoryService(storage)
    ids = await store_games(storage, 6)
    for gid in ids:
        await history.record(gid)
    games = [sample_playouts()[i % len(sample_playouts())] for i in range(6)]
    want = expected_ratings(games)
    same(await stored_ratings(storage), want)
    roles = sorted(await storage.role_totals(chat_id=CHAT), key=str)
    assert await storage.rebuild_ratings(CHAT, rate) == 6
    same(await stored_ratings(storage), want)
    assert sorted(await storage.role_totals(chat_id=CHAT), key=str) == roles


async def test_a_game_recorded_during_a_rebuild_is_not_lost(storage, monkeypatch):
    """The rebuild rates outside the write lock; a game recorded meanwhile makes it start over."""
    import asyncio

    import bot.storage.history as module

    history = HistoryService(storage)
    ids = await store_games(storage, 4)
    for gid in ids[:3]:
        await history.record(gid)
    real = asyncio.to_thread
    calls = []

    async def racing(fn, *args):
        calls.append(1)
        if len(calls) == 1:
            await history.record(ids[3])  # lands between the read and the write
        return await real(fn, *args)

    monkeypatch.setattr(module.asyncio, "to_thread", racing)
    assert await storage.rebuild_ratings(CHAT, rate) == 4
    assert len(calls) == 2
    games = [sample_playouts()[i % len(sample_playouts())] for i in range(4)]
    same(await stored_ratings(storage), expected_ratings(games))


async def test_deleting_a_game_removes_it_everywhere_and_recomputes(storage):
    history = HistoryService(storage)
    ids = await store_games(storage, 5)
    for gid in ids:
        await history.record(gid)
    assert await history.delete(ids[1], by=42) == CHAT
    assert await storage.is_deleted(ids[1])
    assert await history.delete(ids[1], by=42) is None  # already gone
    assert await history.load(ids[1]) is None
    assert ids[1] not in [r.game_id for r in await storage.history_page(CHAT, 0, 10)]
    assert await storage.history_count(CHAT) == 4
    games = [sample_playouts()[i] for i in (0, 2, 3, 4)]
    same(await stored_ratings(storage), expected_ratings(games))
    totals = await storage.role_totals(chat_id=CHAT)
    assert sum(t.games for t in totals) == sum(len(po.state.seated()) for po in games)
    # the log stays (never shown), and neither recording nor backfill brings the game back
    assert await storage.load_entries(ids[1])
    assert not await history.record(ids[1])
    assert await history.backfill() == 0
    assert await storage.unrecorded_games() == []


async def test_backfill_records_missed_games_in_order(storage):
    history = HistoryService(storage)
    ids = await store_games(storage, 3)
    await history.record(ids[2])  # recorded out of order: the backfill rebuilds the chat
    assert await history.backfill() == 2
    assert await storage.history_count(CHAT) == 3
    same(await stored_ratings(storage), expected_ratings(sample_playouts()[:3]))


async def test_statistics_aggregate_the_results(storage):
    history = HistoryService(storage)
    ids = await store_games(storage, 6)
    for gid in ids:
        await history.record(gid)
    games = sample_playouts()
    ov = await storage.chat_overview(CHAT)
    assert ov.games == 6
    assert sum(ov.wins.values()) == 6
    assert ov.wins.get("town", 0) == sum(po.state.winner.value == "town" for po in games)
    assert ov.avg_players == pytest.approx(sum(len(po.state.seated()) for po in games) / 6)
    assert ov.avg_days == pytest.approx(sum(po.state.day for po in games) / 6)
    assert ov.avg_duration == pytest.approx(35 * 60)
    user = games[0].state.seated()[0].user_id
    mine = await storage.role_totals(chat_id=CHAT, user_id=user)
    everywhere = await storage.role_totals(user_id=user)
    assert mine == everywhere and sum(t.games for t in mine) >= 1
    board = standings(await storage.rating_tracks(chat_id=CHAT))
    assert sum(s.games for s in board) == sum(len(po.state.seated()) for po in games)
    assert (await storage.chat_overview(-5)).games == 0
    with pytest.raises(ValueError):
        await storage.role_totals()
    assert await storage.chat_title(CHAT) == "Club" and await storage.chat_title(-5) == ""


async def test_next_game_subscriptions(storage):
    assert await storage.subscribe(CHAT, 1, "Club")
    assert not await storage.subscribe(CHAT, 1, "Club")
    assert await storage.subscribe(CHAT, 2)
    assert await storage.subscribe(-7, 1)
    assert await storage.unsubscribe(CHAT, 2) and not await storage.unsubscribe(CHAT, 2)
    assert await storage.take_subscriptions(CHAT) == [(1, "Club")]
    assert await storage.take_subscriptions(CHAT) == []
    assert await storage.take_subscriptions(-7) == [(1, "")]


async def test_supergroup_migration_moves_the_history(storage):
    history = HistoryService(storage)
    ids = await store_games(storage, 2)
    for gid in ids:
        await history.record(gid)
    await storage.subscribe(CHAT, 5)
    before = await stored_ratings(storage)
    new_chat = -1009999
    await storage.move_chat(CHAT, new_chat)
    assert await storage.history_count(CHAT) == 0 and await storage.history_count(new_chat) == 2
    assert await stored_ratings(storage, new_chat) == before
    assert await storage.take_subscriptions(new_chat) == [(5, "")]
    assert (await storage.history_record(ids[0])).chat_id == new_chat


async def test_recording_renames_the_players_other_tracks_in_the_chat_only(storage):
    """A player's newest name goes onto every rating track of his in the chat (one statement run
    per player), not onto anyone else's nor onto his tracks in another chat."""
    from bot.history.stats import GameSummary, PlayerResult

    async def game(chat: int, names: dict[int, tuple[str, str]], minute: int) -> bool:
        gid = await storage.create_game(chat, "party", 1, "en", {}, 1)
        at = T0 + timedelta(minutes=minute)
        summary = GameSummary(gid, chat, "Club", "party", "town", len(names), 1, 60, at)
        players = [PlayerResult(gid, chat, uid, name, seat, "citizen" if team == "town"
                                else "mafia", team, team == "town", True, 0, at)
                   for seat, (uid, (name, team)) in enumerate(names.items(), start=1)]
        await storage.set_status(gid, "finished", "town")  # the chat may open its next game
        return await storage.record_game(summary, players, rate)

    other = CHAT - 1
    assert await game(CHAT, {7: ("Old", "town"), 8: ("Bob", "mafia"), 9: ("Eve", "town")}, 0)
    assert await game(other, {7: ("Old", "mafia")}, 1)
    assert await game(CHAT, {7: ("New", "mafia"), 8: ("Bob", "town")}, 2)
    names = {(t.chat_id, t.user_id, t.team): t.name
             for chat in (CHAT, other) for t in await storage.rating_tracks(chat_id=chat)}
    assert names == {(CHAT, 7, "town"): "New", (CHAT, 7, "mafia"): "New",
                     (CHAT, 8, "mafia"): "Bob", (CHAT, 8, "town"): "Bob",
                     (CHAT, 9, "town"): "Eve", (other, 7, "mafia"): "Old"}
