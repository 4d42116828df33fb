"""bot.storage's score sheets (issue 21): a draft created once, its additional points, publish
exactly once, corrections inside the window only and logged, the points per player summed for
/top and /me; SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

from bot.storage import PointsRow, Storage
from bot.storage.models import utcnow

CHAT = -1001234567890123
JUDGE = 2**41 + 7
SYSTEM = {"name": "fiim", "win": 1.0}


async def _game(storage: Storage, chat_id: int = CHAT) -> int:
    gid = await storage.create_game(chat_id, "club", JUDGE, "ru", {}, 42)
    await storage.set_status(gid, "running")
    await storage.set_status(gid, "finished", "town")
    return gid


def _rows(extra: float = 0.0) -> list[PointsRow]:
    return [
        PointsRow(11, "Anna", 1, "civilian", "town", True, 1.0, 0.0, 0.0, extra, 1.0 + extra),
        PointsRow(12, "Boris", 2, "don", "mafia", False, 0.0, 0.0, -0.5, 0.0, -0.5),
    ]


async def test_a_draft_is_created_once_and_its_points_set(storage: Storage) -> None:
    gid = await _game(storage)
    due = utcnow() + timedelta(minutes=15)
    sheet = await storage.create_sheet(gid, CHAT, JUDGE, SYSTEM, due, ui={"m": 1})
    again = await storage.create_sheet(gid, CHAT, None, {"name": "plain"}, None)
    assert again == sheet and sheet.status == "draft" and sheet.judge_id == JUDGE
    assert sheet.system == SYSTEM and sheet.ui == {"m": 1} and not sheet.published
    assert [s.game_id for s in await storage.draft_sheets()] == [gid]

    changed = await storage.set_sheet_additional(gid, JUDGE, {11: 0.3, 12: -0.1})
    assert changed is not None and changed.additional == {11: 0.3, 12: -0.1}
    assert await storage.get_sheet(gid) == changed
    assert await storage.get_sheet(gid + 1000) is None


async def test_publish_happens_once_and_writes_the_points(storage: Storage) -> None:
    gid = await _game(storage)
    await storage.create_sheet(gid, CHAT, JUDGE, SYSTEM, utcnow())
    until = utcnow() + timedelta(hours=24)
    published = await storage.publish_sheet(gid, JUDGE, {11: 0.5}, _rows(0.5), until)
    assert published is not None and published.published and published.additional == {11: 0.5}
    assert await storage.publish_sheet(gid, None, {}, _rows(), until, auto=True) is None
    assert await storage.set_sheet_additional(gid, JUDGE, {11: 0.1}) is None  # not a draft
    assert await storage.draft_sheets() == []
    assert await storage.game_points([gid]) == {gid: {11: 1.5, 12: -0.5}}
    assert [r.user_id for r in await storage.game_points_rows(gid)] == [11, 12]
    assert [c.kind for c in await storage.sheet_changes(gid)] == ["published"]


async def test_a_correction_inside_the_window_is_logged_and_moves_the_points(storage: Storage) -> None:
    gid = await _game(storage)
    await storage.create_sheet(gid, CHAT, JUDGE, SYSTEM, None)
    assert await storage.correct_sheet(gid, JUDGE, {11: 0.2}, _rows(0.2)) is None  # a draft
    await storage.publish_sheet(gid, JUDGE, {}, _rows(), utcnow() + timedelta(hours=24))
    corrected = await storage.correct_sheet(gid, JUDGE, {11: 0.4}, _rows(0.4))
    assert corrected is not None and corrected.additional == {11: 0.4}
    assert (await storage.game_points([gid]))[gid][11] == 1.4
    late = utcnow() + timedelta(hours=25)
    assert await storage.correct_sheet(gid, JUDGE, {11: 0.0}, _rows(), now=late) is None
    log = await storage.sheet_changes(gid)
    assert [c.kind for c in log] == ["published", "corrected"]
    assert log[1].by == JUDGE and log[1].data == {"before": {}, "after": {"11": 0.4}}


async def test_points_totals_per_player_and_per_role(storage: Storage) -> None:
    g1, g2, other = await _game(storage), await _game(storage), await _game(storage, CHAT - 1)
    for gid in (g1, g2, other):
        await storage.create_sheet(gid, CHAT if gid != other else CHAT - 1, None, SYSTEM, None)
    until = utcnow() + timedelta(hours=1)
    await storage.publish_sheet(g1, None, {}, _rows(), until)
    await storage.publish_sheet(g2, None, {11: 0.5}, _rows(0.5), until)
    await storage.publish_sheet(other, None, {}, _rows(), until)
    top = await storage.points_totals(CHAT)
    assert [(t.user_id, t.games, t.wins, t.total) for t in top] == [(11, 2, 2, 2.5), (12, 2, 0, -1.0)]
    assert top[0].additional == 0.5 and top[1].penalty == -1.0 and top[0].name == "Anna"
    mine = await storage.points_totals(user_id=11, per_role=True)
    assert [(t.role, t.games, t.total) for t in mine] == [("civilian", 3, 3.5)]
    assert [t.user_id for t in await storage.points_totals(game_ids=[other])] == [11, 12]
