"""NOIR in the history tables (docs/history.md, "NOIR"): results with scoped teams, no rating
row, the overviews apart from the mafia presets, and a rebuild (an admin's deletion) that gives
the same totals as recording game by game; SQLite always, PostgreSQL with TEST_DATABASE_URL."""

from __future__ import annotations

from bot.history.service import HistoryService
from bot.history.stats import rate
from tests.history.helpers import bulk_store, sample_playouts
from tests.history.noir_helpers import finished, store_noir

CHAT = -100555


async def test_noir_results_are_scoped_and_unrated(storage):
    history = HistoryService(storage)
    noir = [finished(s, n) for s, n in ((31, 6), (32, 8), (33, 6))]
    ids = []
    for po in noir:
        ids.append(await store_noir(storage, CHAT, po))
        assert await history.record(ids[-1])
        assert not await history.record(ids[-1])  # once
    mafia = sample_playouts()[1]
    mid = await bulk_store(storage, CHAT, mafia)
    assert await history.record(mid)

    info = await storage.history_record(ids[0])
    st = noir[0].state
    assert (info.ruleset, info.players, info.days) == ("noir", 6, st.turn_seq)
    assert info.winner == (f"noir:{st.outcome}" if st.outcome != "draw" else None)

    tracks = await storage.rating_tracks(chat_id=CHAT)
    assert {(t.user_id, t.team) for t in tracks} == {
        (p.user_id, p.team.value) for p in mafia.state.seated()}
    totals = await storage.role_totals(chat_id=CHAT)
    noir_totals = [t for t in totals if t.team.startswith("noir:")]
    assert sum(t.games for t in noir_totals) == 6 + 8 + 6
    assert {t.role for t in noir_totals if t.team == "noir:mafia"} <= {
        "killer", "psycho", "bomber", "sniper"}
    wins = sum(t.wins for t in noir_totals)
    assert wins == sum(len([u for u in po.state.order
                            if po.state.players[u].team.value == po.state.outcome])
                       for po in noir)

    apart = await storage.chat_overview(CHAT, exclude=["noir"])
    assert apart.games == 1 and set(apart.wins) == {mafia.state.winner.value}
    overviews = await storage.chat_overviews(CHAT)
    assert overviews["noir"].games == 3 and overviews[mafia.state.ruleset].games == 1
    assert overviews["noir"].avg_players == (6 + 8 + 6) / 3
    assert (await storage.chat_overview(CHAT)).games == 4  # nothing excluded: all of them

    # a rebuild (here after deleting a NOIR game) = recording the rest one by one
    assert await history.delete(ids[1], None) == CHAT
    rebuilt = sorted(await storage.role_totals(chat_id=CHAT), key=repr)
    again = sorted(await storage.rating_tracks(chat_id=CHAT), key=repr)
    assert sum(t.games for t in rebuilt if t.team.startswith("noir:")) == 12
    assert [(t.user_id, t.team, round(t.rating, 6)) for t in again] == \
        [(t.user_id, t.team, round(t.rating, 6)) for t in sorted(tracks, key=repr)]
    assert await storage.rebuild_ratings(CHAT, rate) == 3
    assert sorted(await storage.role_totals(chat_id=CHAT), key=repr) == rebuilt
