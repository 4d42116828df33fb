"""Points of published score sheets in the community's tables (issue 21, part 4): /top gains a
«Points» view on the same message, /me the player's points, /history the points per game and per
player, and the export (version 2) the sheet; a chat without published sheets sees nothing new.
Sheets are written with the storage API from the stored logs, as the sheet flow publishes them;
SQLite always, PostgreSQL with TEST_DATABASE_URL."""

from __future__ import annotations

import json

from bot.history import export as X
from bot.history.render_points import signed
from bot.storage import PointsRow
from bot.storage.models import utcnow
from bot.ui.callbacks import Hist
from bot.ui.scoring import num as pts
from engine import command_from_dict
from engine.scoring import FIIM, ScoreSheet, sheet_of_log
from tests.bot.harness import GROUP, Harness, make_harness
from tests.fakes.updates import FakeUser
from tests.history.helpers import entries_of, sample_playouts, store_playout
from tests.history.test_bot import button, buttons_of, message_now, sent_document


def rows_of(sheet: ScoreSheet) -> list[PointsRow]:
    return [PointsRow(s.user_id, s.name, s.seat, s.role.value, s.team.value, s.won,
                      s.win_points, s.best_move_points, s.penalty, s.additional, s.total)
            for s in sheet.seats]


async def stored_club_games(h: Harness) -> tuple[int, int, ScoreSheet]:
    """Two recorded club games of GROUP: the first with a published FIIM sheet (0.3 additional
    points for its first seat), the second with a draft. Returns (published, draft, sheet)."""
    club = [po for po in sample_playouts() if po.final.ruleset == "club"]
    ids = []
    for po in club[:2]:
        gid = await store_playout(h.app.storage, GROUP, po)
        assert h.app.history is not None and await h.app.history.record(gid)
        ids.append(gid)
    po = club[0]
    first = po.final.seated()[0].user_id
    commands = [command_from_dict(e.command) for e in entries_of(po)]
    sheet = sheet_of_log(commands, FIIM, {first: 0.3})
    storage = h.app.storage
    await storage.create_sheet(ids[0], GROUP, None, FIIM.to_settings(), None)
    await storage.publish_sheet(ids[0], None, {first: 0.3}, rows_of(sheet), utcnow())
    await storage.create_sheet(ids[1], GROUP, None, FIIM.to_settings(), None)
    return ids[0], ids[1], sheet


async def test_top_me_history_and_export_show_the_published_points(db_url: str):
    h = await make_harness(db_url, n_users=3)
    try:
        await h.command(h.users[0], "/top")  # no published sheet: the Elo alone, no button
        elo = h.messages(GROUP)[-1]
        assert not buttons_of(elo)
        published, draft, sheet = await stored_club_games(h)

        # /top: the Elo as before, with a button to the points; one message, edited both ways
        await h.command(h.users[0], "/top")
        top = h.messages(GROUP)[-1]
        assert top["text"] == elo["text"] and [b["text"] for b in buttons_of(top)] == ["📋 Points"]
        mid = top["message_id"]
        await h.press(h.users[1], GROUP, mid, button(top, "Points"))
        shown = message_now(h, GROUP, mid)["text"]
        assert shown.startswith("📋 Points of «Test group»")
        best = max(sheet.seats, key=lambda s: (s.total, -s.user_id))
        lines = shown.splitlines()
        assert lines[3].startswith("1. ") and f"— {pts('en', best.total)} · 1 game" in lines[3]
        assert len(lines) == 3 + len(sheet.seats)
        first = sheet.seats[0]
        assert any(f"{pts('en', first.total)} · 1 game · {pts('en', first.total)} per game" in ln
                   and ln.endswith(f"additional {signed('en', 0.3)}") for ln in lines)
        await h.press(h.users[1], GROUP, mid, button(message_now(h, GROUP, mid), "Elo"))
        assert message_now(h, GROUP, mid)["text"] == elo["text"]

        # /me: the player's points in this group, per game and per role
        player = FakeUser(first.user_id, first.name)
        h.session.register_user(player)
        await h.command(player, "/me")
        me = h.messages(GROUP)[-1]["text"]
        assert f"📋 Points: {pts('en', first.total)} · 1 game · {pts('en', first.total)} per game" \
               f" · additional +0.3" in me
        assert f" {pts('en', first.total)} (1)" in me  # his role's points
        await h.dm(player, "/me")  # in private: the same, per group
        mine = h.messages(player.id)[-1]["text"]
        assert f"📋 Points: {pts('en', first.total)} · 1 game" in mine
        other = FakeUser(10**12 + 5, "Nobody")
        h.session.register_user(other)
        await h.command(other, "/me")
        assert "📋 Points" not in h.messages(GROUP)[-1]["text"]

        # /history: the published game's best points in the list, every player's in its protocol
        await h.command(h.users[0], "/history")
        listing = h.messages(GROUP)[-1]
        text = listing["text"]
        head = f"#{published} "
        line = text.splitlines()[text.splitlines().index(next(
            ln for ln in text.splitlines() if ln.startswith(head))) + 1]
        assert line.endswith(f"📋 best {pts('en', max(s.total for s in sheet.seats))}")
        draft_at = next(i for i, ln in enumerate(text.splitlines()) if ln.startswith(f"#{draft} "))
        assert "📋" not in text.splitlines()[draft_at + 1]
        await h.press(h.users[0], GROUP, listing["message_id"], Hist(a="p", g=published).pack())
        protocol = message_now(h, GROUP, listing["message_id"])["text"]
        assert "Seating and roles · 📋 points" in protocol
        for s in sheet.seats:
            assert any(ln.startswith(f"№{s.seat} ") and ln.endswith(f" · 📋 {pts('en', s.total)}")
                       for ln in protocol.splitlines()), s
        await h.press(h.users[0], GROUP, listing["message_id"], Hist(a="p", g=draft).pack())
        assert "📋" not in message_now(h, GROUP, listing["message_id"])["text"]

        # the export, version 2: the sheet with its points, checked against the log on import
        await h.press(h.users[2], GROUP, listing["message_id"], Hist(a="x", g=published).pack())
        raw = sent_document(h, h.users[2].id).data
        doc = json.loads(raw)
        assert doc["version"] == 2 and doc["sheet"]["status"] == "published"
        assert doc["sheet"]["system"] == FIIM.to_settings()
        assert doc["sheet"]["additional"] == {str(first.user_id): 0.3}
        assert [c["kind"] for c in doc["sheet"]["changes"]] == ["published"]
        assert [p["total"] for p in doc["sheet"]["points"]] == [s.total for s in sheet.seats]
        imported = X.replay_document(raw)
        assert imported.sheet_matches and imported.sheet == doc["sheet"]
        await h.press(h.users[2], GROUP, listing["message_id"], Hist(a="x", g=draft).pack())
        doc = json.loads(sent_document(h, h.users[2].id).data)
        assert doc["sheet"]["status"] == "draft" and doc["sheet"]["points"] == []
        assert doc["sheet"]["published_at"] is None
    finally:
        await h.stop()


async def test_the_points_button_is_refused_in_a_private_chat(sqlite_url: str):
    h = await make_harness(sqlite_url, n_users=2)
    try:
        await h.dm(h.users[0], "/history")
        mid = h.messages(h.users[0].id)[-1]["message_id"]
        assert await h.press(h.users[0], h.users[0].id, mid, Hist(a="tp").pack()) == \
            "This button is out of date."
    finally:
        await h.stop()


def test_SCORE_X16_points_shown_with_a_true_minus_sign():
    """trial21: /history's protocol showed «📋 -0,5» while the sheet and its caption say «−0,5»."""
    from bot.history.render_points import signed
    from bot.ui.scoring import num as pts

    assert pts("ru", -0.5) == "\u22120,5" and pts("en", -1234.5) == "\u22121,234.5"
    assert pts("en", 0.25) == "0.25" and signed("en", -0.2) == "\u22120.2" and signed("en", 0.3) == "+0.3"
