"""The judge's score sheet after a sport game, through the whole bot (issue 21;
docs/rules/scoring.md SCORE-X10..X16): a club game with a judge to the end, his private sheet
filled and published (the group gets the protocol picture, the points are stored), a
correction inside its window and after it, the publication timeout, a restart while the sheet
is half filled, a stranger's presses, a game without a judge, an online game's best move."""

from __future__ import annotations

import io
import random
from dataclasses import replace

from aiogram.methods import SendPhoto
from PIL import Image

from bot.history.sheets import job_id
from bot.ui.callbacks import Hist, Sheet
from bot.ui.timings import SHEET_CORRECTIONS_FOR, SHEET_PUBLISH_AFTER
from engine import command_from_dict, replay
from engine.online.events import BestMove
from engine.scoring import FIIM
from tests.bot.driver import play_to_end
from tests.bot.harness import GROUP, Harness, make_harness, request_of
from tests.bot.online_support import online_step, start_online, town_plan
from tests.bot.test_club import club_game
from tests.fakes.telegram import plain_text
from tests.fakes.updates import FakeUser

JUDGE = FakeUser(900_000_000_002, "Judge")
STRANGER = FakeUser(900_000_000_003, "Stranger")
OUT_OF_DATE = "This button is out of date."


def sheet_message(h: Harness) -> dict:
    """The judge's newest message carrying sheet buttons."""
    for m in reversed(h.messages(JUDGE.id)):
        rows = (m.get("reply_markup") or {}).get("inline_keyboard", [])
        if any(b.get("callback_data", "").startswith("sh:") for row in rows for b in row):
            return m
    raise AssertionError("no sheet message")


async def press(h: Harness, user: FakeUser, data: Sheet) -> str | None:
    return await h.press(user, JUDGE.id, sheet_message(h)["message_id"], data.pack())


async def judged_game(h: Harness, seed: int = 5) -> int:
    game_id = await club_game(h, host=JUDGE)
    await play_to_end(h, seed=seed)
    assert h.app.sheets is not None
    await h.app.sheets.settle()
    return game_id


def photos(h: Harness) -> list[SendPhoto]:
    return [request_of(c, SendPhoto) for c in h.sent(GROUP, ("sendPhoto",))]


async def seat_user(h: Harness, game_id: int, seat: int) -> int:
    return (await h.service.live(game_id)).state.by_seat(seat).user_id


async def test_SCORE_X11_X13_X14_the_judge_fills_publishes_and_corrects(sqlite_url):
    h = await make_harness(sqlite_url, n_users=10)
    try:
        game_id = await judged_game(h)
        storage = h.app.storage
        rec = await storage.get_sheet(game_id)
        assert rec is not None and rec.status == "draft" and rec.judge_id == JUDGE.id
        assert rec.publish_by == h.clock() + SHEET_PUBLISH_AFTER
        assert job_id(game_id) in h.deadlines.jobs
        text = plain_text(sheet_message(h)["text"])
        st = (await h.service.live(game_id)).state
        for p in st.seated():  # every seat with name and role
            assert f"{p.seat}. {p.name} — " in text
        assert not photos(h)  # the group has only the plain result while it is a draft
        # /history says "draft", no points
        await h.command(h.users[0], "/history")
        mid = h.messages(GROUP)[-1]["message_id"]
        await h.press(h.users[0], GROUP, mid, Hist(a="p", g=game_id).pack())
        assert "Score sheet: a draft" in h.message(GROUP, mid)["text"]

        assert await press(h, JUDGE, Sheet(a="s", g=game_id, t=3)) is None
        assert await press(h, JUDGE, Sheet(a="+", g=game_id, t=3)) == "Seat 3: 0.1"
        assert await press(h, JUDGE, Sheet(a="+", g=game_id, t=3)) == "Seat 3: 0.2"
        assert await press(h, JUDGE, Sheet(a="-", g=game_id, t=3)) == "Seat 3: 0.1"
        for _ in range(7):
            await press(h, JUDGE, Sheet(a="+", g=game_id, t=7))
        assert await press(h, JUDGE, Sheet(a="+", g=game_id, t=7)) == \
            "That is the end of the system's range."
        u3, u7 = await seat_user(h, game_id, 3), await seat_user(h, game_id, 7)
        assert (await storage.get_sheet(game_id)).additional == {u3: 0.1, u7: 0.7}
        assert "👉 7." in plain_text(sheet_message(h)["text"])
        assert len(h.messages(JUDGE.id)) == len({m["message_id"] for m in h.messages(JUDGE.id)})

        assert await press(h, JUDGE, Sheet(a="pub", g=game_id)) == "Published."
        assert job_id(game_id) not in h.deadlines.jobs
        rows = {r.user_id: r for r in await storage.game_points_rows(game_id)}
        assert len(rows) == 10 and rows[u3].additional == 0.1 and rows[u7].additional == 0.7
        assert rows[u7].total == round(rows[u7].win_points + 0.7, 2)
        photo = photos(h)[-1]
        assert photo.caption is not None and f"Game #{game_id}: the score sheet is published" \
            in photo.caption
        assert Image.open(io.BytesIO(photo.photo.data)).format == "PNG"
        assert len(photos(h)) == 1
        # a draft's button pressed again: already published, nothing changes
        assert await h.press(JUDGE, JUDGE.id, sheet_message(h)["message_id"],
                             Sheet(a="+", g=game_id, t=3).pack()) == "The sheet is already published."
        assert (await storage.get_sheet(game_id)).additional == {u3: 0.1, u7: 0.7}
        # /history shows the points now
        await h.press(h.users[0], GROUP, mid, Hist(a="p", g=game_id).pack())
        assert "Points" in h.message(GROUP, mid)["text"]

        # the correction: seat 3 gets 0.3, the group is told, the points follow
        h.clock.advance(3600)
        assert await press(h, JUDGE, Sheet(a="cor", g=game_id)) is None
        await press(h, JUDGE, Sheet(a="+", g=game_id, t=3))
        await press(h, JUDGE, Sheet(a="+", g=game_id, t=3))
        assert (await storage.get_sheet(game_id)).additional == {u3: 0.1, u7: 0.7}  # not yet
        assert await press(h, JUDGE, Sheet(a="sv", g=game_id)) == "Saved."
        assert (await storage.get_sheet(game_id)).additional == {u3: 0.3, u7: 0.7}
        assert (await storage.game_points_rows(game_id))[2].additional == 0.3
        totals = {t.user_id: t.total for t in await storage.points_totals(GROUP)}
        assert totals[u3] == round(rows[u3].total + 0.2, 2)
        changes = await storage.sheet_changes(game_id)
        assert changes[-1].kind == "corrected" and changes[-1].by == JUDGE.id
        assert changes[-1].data["after"][str(u3)] == 0.3
        assert f"corrected the score sheet of game #{game_id}" in h.texts(GROUP)[-1]
        # the picture in /history shows the new figures
        await h.press(h.users[0], GROUP, mid, Hist(a="pp", g=game_id).pack())
        await h.app.sender.drain()
        assert photos(h)[-1].photo.data != photo.photo.data

        # after 24 hours: refused, the button goes
        h.clock.advance(SHEET_CORRECTIONS_FOR.total_seconds())
        assert await press(h, JUDGE, Sheet(a="cor", g=game_id)) == \
            "The sheet can no longer be corrected: its 24 hours are over."
        assert not any(b.get("callback_data", "").startswith("sh:") for _m, b in h.buttons(JUDGE.id))
        assert (await storage.sheet_changes(game_id))[-1].kind == "corrected"
    finally:
        await h.stop()


async def test_SCORE_X15_only_the_judge_presses_the_sheet(sqlite_url):
    h = await make_harness(sqlite_url, n_users=10)
    try:
        game_id = await judged_game(h)
        refusal = f"Only the judge of game #{game_id} may fill in its score sheet."
        for who in (STRANGER, h.users[0]):
            assert await press(h, who, Sheet(a="+", g=game_id, t=3)) == refusal
            assert await press(h, who, Sheet(a="pub", g=game_id)) == refusal
        assert (await h.app.storage.get_sheet(game_id)).status == "draft"
        assert (await h.app.storage.get_sheet(game_id)).additional == {}
        # stale or forged data
        assert await press(h, JUDGE, Sheet(a="+", g=game_id + 99, t=3)) == OUT_OF_DATE
        assert await press(h, JUDGE, Sheet(a="+", g=game_id, t=42)) == OUT_OF_DATE
        assert await press(h, JUDGE, Sheet(a="zz", g=game_id)) == OUT_OF_DATE
        assert await h.press(JUDGE, JUDGE.id, sheet_message(h)["message_id"], "sh:+:x:1") == OUT_OF_DATE
    finally:
        await h.stop()


async def test_SCORE_X11_the_draft_publishes_itself_without_additional_points(sqlite_url):
    h = await make_harness(sqlite_url, n_users=10)
    try:
        game_id = await judged_game(h)
        await press(h, JUDGE, Sheet(a="+", g=game_id, t=2))
        h.clock.advance(SHEET_PUBLISH_AFTER.total_seconds())
        await h.deadlines.fire_job(job_id(game_id))
        await h.app.sender.drain()
        rec = await h.app.storage.get_sheet(game_id)
        assert rec.published and rec.additional == {}
        assert (await h.app.storage.sheet_changes(game_id))[-1].kind == "auto_published"
        assert all(r.additional == 0 for r in await h.app.storage.game_points_rows(game_id))
        assert "did not publish it in time" in (photos(h)[-1].caption or "")
        assert "Published." in plain_text(sheet_message(h)["text"])  # the judge may correct it
        assert await press(h, JUDGE, Sheet(a="pub", g=game_id)) == "The sheet is already published."
        assert len(photos(h)) == 1
    finally:
        await h.stop()


async def test_SCORE_X11_a_half_filled_draft_survives_a_restart(sqlite_url):
    h = await make_harness(sqlite_url, n_users=10)
    game_id = await judged_game(h)
    await press(h, JUDGE, Sheet(a="+", g=game_id, t=4))
    await press(h, JUDGE, Sheet(a="+", g=game_id, t=4))
    u4 = await seat_user(h, game_id, 4)
    await h.stop()
    h2 = await make_harness(sqlite_url, n_users=10, session=h.session, clock=h.clock)
    try:
        assert (await h2.app.storage.get_sheet(game_id)).additional == {u4: 0.2}
        assert job_id(game_id) in h2.deadlines.jobs  # the timer again
        # the judge's message still works: one more seat
        assert await press(h2, JUDGE, Sheet(a="+", g=game_id, t=5)) == "Seat 5: 0.1"
        assert len((await h2.app.storage.get_sheet(game_id)).additional) == 2
        await h2.deadlines.fire_job(job_id(game_id))
        await h2.app.sender.drain()
        assert (await h2.app.storage.get_sheet(game_id)).published
        assert len(photos(h2)) == 1
    finally:
        await h2.stop()


async def test_SCORE_X11_an_overdue_draft_is_published_at_start(sqlite_url):
    h = await make_harness(sqlite_url, n_users=10)
    game_id = await judged_game(h)
    await h.stop()
    h.clock.advance(SHEET_PUBLISH_AFTER.total_seconds() + 60)
    h2 = await make_harness(sqlite_url, n_users=10, session=h.session, clock=h.clock)
    try:
        await h2.app.sender.drain()
        assert (await h2.app.storage.get_sheet(game_id)).published
        assert job_id(game_id) not in h2.deadlines.jobs
    finally:
        await h2.stop()


async def test_SCORE_X10_a_game_without_a_judge_publishes_at_once(sqlite_url):
    h = await make_harness(sqlite_url, n_users=10)
    try:
        game_id = await club_game(h)
        await play_to_end(h, seed=5)
        rec = await h.app.storage.get_sheet(game_id)
        assert rec is not None and rec.published and rec.judge_id is None
        assert rec.system == FIIM.to_settings()
        rows = await h.app.storage.game_points_rows(game_id)
        assert len(rows) == 10 and sum(r.won for r in rows) in (3, 7)
        assert len(photos(h)) == 1 and not h.messages(JUDGE.id)
        caption = photos(h)[0].caption or ""
        assert all(f"{r.seat}. {r.name} — " in plain_text(caption) for r in rows)
    finally:
        await h.stop()


async def test_SCORE_X10_a_bad_stored_system_falls_back_to_fiim(sqlite_url, caplog):
    from bot.history.sheets import system_of

    assert system_of({"scoring": {"win": "lots"}}) is FIIM
    assert system_of({"scoring": "fiim"}) is FIIM
    assert system_of({"scoring": {"base": "plain"}}).name == "plain"
    assert system_of({}) is FIIM
    assert "FIIM instead" in caplog.text


async def test_SCORE_X10_an_online_game_scores_the_best_move(sqlite_url):
    h = await make_harness(sqlite_url, n_users=10)
    try:
        game_id = await start_online(h)
        rng = random.Random(2)
        for _ in range(500):
            if not await online_step(h, rng, town_plan):
                break
        log = await h.app.storage.load_log(game_id)
        st, events = replay(command_from_dict(c) for c in log)
        best = [e for step in events for e in step if isinstance(e, BestMove)]
        assert best and best[0].targets
        k = sum(st.players[t].team.value == "mafia" for t in best[0].targets)
        rows = {r.user_id: r for r in await h.app.storage.game_points_rows(game_id)}
        assert rows[best[0].user_id].best_move_points == FIIM.best_move[k]
        assert all(r.best_move_points == 0 for u, r in rows.items() if u != best[0].user_id)
        assert len(photos(h)) == 1
    finally:
        await h.stop()


async def test_SCORE_X14_the_points_go_as_text_when_the_photo_cannot(sqlite_url):
    h = await make_harness(sqlite_url, n_users=10)
    try:
        h.session.fail("sendPhoto", chat_id=GROUP, error_code=400,
                       description="Bad Request: not enough rights to send photos to the chat")
        game_id = await club_game(h)
        await play_to_end(h, seed=5)
        await h.app.sender.drain()
        last = h.messages(GROUP)[-1]
        assert "photo" not in last
        assert f"Game #{game_id}: the score sheet is published" in last["text"]
        rows = await h.app.storage.game_points_rows(game_id)
        assert all(f"{r.seat}. {r.name} — " in last["text"] for r in rows)
    finally:
        await h.stop()


async def test_SCORE_X11_a_game_that_ended_without_its_sheet_gets_it_at_start(sqlite_url):
    """The process stopped between the game's last command and its sheet: the next start opens
    the sheet (the judge's draft, due 15 min after he gets it); once overdue, published."""
    h = await make_harness(sqlite_url, n_users=10)
    assert h.app.sheets is not None
    h.service.listeners.remove(h.app.sheets.on_step)  # the sheet is never opened: a crash
    game_id = await club_game(h, host=JUDGE)
    await play_to_end(h, seed=5)
    assert await h.app.storage.get_sheet(game_id) is None
    await h.stop()
    h2 = await make_harness(sqlite_url, n_users=10, session=h.session, clock=h.clock)
    try:
        assert h2.app.sheets is not None
        await h2.app.sheets.settle()
        rec = await h2.app.storage.get_sheet(game_id)
        assert rec is not None and not rec.published and rec.judge_id == JUDGE.id
        assert rec.publish_by == h.clock() + SHEET_PUBLISH_AFTER
        assert job_id(game_id) in h2.deadlines.jobs and sheet_message(h2)
    finally:
        await h2.stop()
    h.clock.advance(SHEET_PUBLISH_AFTER.total_seconds() + 60)
    h3 = await make_harness(sqlite_url, n_users=10, session=h.session, clock=h.clock)
    try:
        await h3.app.sender.drain()
        rec = await h3.app.storage.get_sheet(game_id)
        assert rec is not None and rec.published
        assert len(photos(h3)) == 1
    finally:
        await h3.stop()


def test_SCORE_X10_a_best_move_with_no_black_is_on_the_judges_sheet_row():
    """trial21: the first victim's best move that named no black (0 points) was missing from
    his row of the judge's sheet, though the picture showed it."""
    from bot.history.sheet_view import seat_line
    from bot.ui.i18n import Translator
    from engine.mafia.roles import Role, Team
    from engine.scoring import SeatScore

    _ = Translator().get("en")
    line = SeatScore(seat=1, user_id=1, name="Ann", role=Role.CIVILIAN, team=Team.TOWN, won=False,
                     fouls=0, left="killed", best_move=0, procedural_loss=False, win_points=0.0,
                     best_move_points=0.0, penalty=0.0, additional=0.0, total=0.0)
    assert "BM (0 black) 0" in plain_text(seat_line(_, "en", line))
    two = replace(line, best_move=2, best_move_points=0.25, total=0.25)
    assert "BM (2 black) 0.25 = 0.25" in plain_text(seat_line(_, "en", two))
    none = replace(line, best_move=None)
    assert "BM" not in plain_text(seat_line(_, "en", none))
