"""/tournament import (issue 22 item 5, docs/tournaments.md *Re-import*) through feed_update, on
SQLite and PostgreSQL: a played tournament's export imported into a fresh database gives the
same standings text and the same export bytes; the same file again is "already here"; a bad
file is refused naming its field and writes nothing; a failure while writing leaves nothing
behind; where the database holds the games, their sheets are checked against their logs."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aiogram.methods import SendDocument
from aiogram.types import BufferedInputFile, Update
from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError

from bot.services.tournament_import import ImportRefused, read_export, standings_of
from bot.storage.models import Game
from bot.storage.models_tournament import (
    TournamentGameRow,
    TournamentPlayerRow,
    TournamentRow,
    TournamentTableRow,
)
from tests.bot.harness import GROUP, Harness, make_harness, request_of
from tests.bot.test_tournament_rounds import drawn, play_round
from tests.fakes.updates import FakeUser
from tests.fixtures_db import fresh_postgres_database


@asynccontextmanager
async def another_database(db_url: str, tmp_path: Path) -> AsyncIterator[str]:
    """A second empty database of the same kind as ``db_url`` (the "wiped" one)."""
    if db_url.startswith("sqlite"):
        yield f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}"
        return
    async with fresh_postgres_database("test") as url:
        yield url


def _no_photos(h: Harness) -> None:
    """The standings go as text (compared as text)."""
    h.session.fail("sendPhoto", chat_id=GROUP, error_code=400, times=None,
                   description="Bad Request: not enough rights to send photos to the chat")


async def _standings_text(h: Harness, admin: FakeUser) -> str:
    await h.command(admin, "/tournament")
    await h.app.sender.drain()
    return h.sent_texts(GROUP)[-1]


async def _export(h: Harness, admin: FakeUser) -> bytes:
    await h.command(admin, "/tournament export")
    docs = [request_of(c, SendDocument) for c in h.session.calls
            if c.method == "sendDocument" and c.chat_id == admin.id]
    document = docs[-2].document
    assert isinstance(document, BufferedInputFile)
    return document.data


_files = iter(range(1, 10**6))


async def _send_import(h: Harness, admin: FakeUser, body: bytes, *, as_reply: bool = False) -> str:
    """The admin sends ``body`` as a document captioned /tournament import (or replies
    /tournament import to it); returns the bot's answer."""
    file_id = f"IMPORT{next(_files)}"
    h.session.downloads[f"files/{file_id}"] = body
    document = {"file_id": file_id, "file_unique_id": f"U{file_id}",
                "file_name": "tournament.json", "file_size": len(body)}
    if as_reply:
        posted = h.updates.group_text(GROUP, admin, "", document=document)
        message: dict[str, Any] = h.updates.group_command(GROUP, admin, "/tournament import")\
            .model_dump(mode="json", exclude_none=True, by_alias=True)["message"]
        parent = posted.model_dump(mode="json", exclude_none=True, by_alias=True)["message"]
        parent.pop("text", None)
        message["reply_to_message"] = parent
    else:
        message = h.updates.group_command(GROUP, admin, "/tournament import").model_dump(
            mode="json", exclude_none=True, by_alias=True)["message"]
        text = message.pop("text")
        message["caption"] = text
        message["caption_entities"] = message.pop("entities")
        message["document"] = document
    update = Update.model_validate({"update_id": 10**6 + next(_files), "message": message},
                                   context={"bot": h.app.bot})
    await h.feed(update)
    return h.sent_texts(GROUP)[-1]


async def _played(h: Harness) -> tuple[FakeUser, Any]:
    """Two rounds played to their published sheets, own tie-breaks, the standings final."""
    admin, t = await drawn(h, games=2)
    await play_round(h, admin, seed=5)
    await h.command(admin, "/tournament tiebreaks fouls,wins")  # not after the end
    await play_round(h, admin, seed=6)
    return admin, t


async def test_TOUR_export_import_round_trip_into_a_fresh_database(db_url, tmp_path):
    h = await make_harness(db_url, n_users=10)
    try:
        _no_photos(h)
        admin, t = await _played(h)
        standings = await _standings_text(h, admin)
        assert standings.startswith("🏁 Final table of «Spring Cup»")
        body = await _export(h, admin)
        assert json.loads(body)["tournament"]["tie_breaks"] == ["fouls", "wins"]
    finally:
        await h.stop()

    async with another_database(db_url, tmp_path) as fresh:
        h2 = await make_harness(fresh, n_users=10)
        try:
            _no_photos(h2)
            admin2 = h2.users[0]
            assert admin2.id == admin.id
            await h2.command(admin2, "/tournament import")
            assert h2.sent_texts(GROUP)[-1] == "Only a group admin can import a tournament."
            h2.session.set_member(GROUP, admin2.id, "administrator")
            await h2.command(admin2, "/tournament import")
            assert h2.sent_texts(GROUP)[-1].startswith("Send the tournament's JSON export")

            answer = await _send_import(h2, admin2, body)
            assert answer == (f"📥 «Spring Cup» (#{t.id}) is imported: players 10, games 2. "
                              "/tournament shows the standings.")
            assert await _standings_text(h2, admin2) == standings
            assert await _export(h2, admin2) == body
            # the same file again, as a reply this time: nothing more
            assert await _send_import(h2, admin2, body, as_reply=True) == (
                f"«Spring Cup» (#{t.id}) is already here, with the same data: nothing to import.")
            assert len(await h2.app.storage.tournament_games(t.id)) == 2
            # the archive games stay out of the history (no log here: nothing to record or to
            # score at the next start) and a new game opens past their ids
            storage = h2.app.storage
            assert await storage.unrecorded_games() == []
            assert await storage.finished_without_sheet(("club", "online"),
                                                        datetime(2000, 1, 1, tzinfo=UTC)) == []
            await h2.command(admin2, "/newgame club")
            g = await h2.game()
            assert g.id > max(x.game_id for x in await h2.app.storage.tournament_games(t.id))
        finally:
            await h2.stop()


async def test_TOUR_a_bad_file_is_refused_by_its_field_and_writes_nothing(db_url, tmp_path,
                                                                          monkeypatch):
    h = await make_harness(db_url, n_users=10)
    try:
        admin, t = await _played(h)
        body = await _export(h, admin)
    finally:
        await h.stop()
    data = json.loads(body)

    def variant(change: Any) -> bytes:
        copy = json.loads(body)
        change(copy)
        return json.dumps(copy).encode()

    def total(d: dict) -> None:
        d["games"][0]["sheet"][3]["total"] += 1

    def stranger(d: dict) -> None:  # somebody the schedule does not seat there, totals kept
        d["games"][0]["sheet"][0]["user_id"] = 999

    def elsewhere(d: dict) -> None:  # exported from (and for) another group
        d["tournament"]["chat_id"] = d["tables"]["1"] = GROUP - 5

    async with another_database(db_url, tmp_path) as fresh:
        h2 = await make_harness(fresh, n_users=10)
        try:
            admin2 = h2.users[0]
            h2.session.set_member(GROUP, admin2.id, "administrator")
            cases = {
                b"not json": "❌ Not imported: the file is not JSON. Nothing was written.",
                variant(lambda d: d.update(format=2)):
                    "❌ Not imported — format: format 2 is not one this bot reads (it reads 1). "
                    "Nothing was written.",
                variant(total):
                    "❌ Not imported — games[0].sheet[3].total: the total is not the sum of the "
                    f"points ({data['games'][0]['sheet'][3]['total'] + 1}). Nothing was written.",
                variant(lambda d: d["standings"][0].update(points=99)):
                    "❌ Not imported — standings: not what the games' sheets give. Nothing was "
                    "written.",
                variant(lambda d: d["tournament"].pop("seed")):
                    "❌ Not imported — tournament.seed: missing. Nothing was written.",
                variant(elsewhere):
                    f"❌ Not imported — tournament.chat_id: the tournament's home is another "
                    f"group ({GROUP - 5}): import it there. Nothing was written.",
                variant(stranger):
                    "❌ Not imported — games[0].sheet: the sheet's players are not the "
                    "schedule's at round/table 1/1 (with its substitutes). Nothing was written.",
                variant(lambda d: d["games"][1].update(status="running")):
                    "❌ Not imported — games[1].status: the game is still open (running): "
                    "export after it ends. Nothing was written.",
            }
            for bad, expected in cases.items():
                assert await _send_import(h2, admin2, bad) == expected
            assert await h2.app.storage.get_tournament(t.id) is None

            # a failure while writing (the second game) leaves nothing behind
            storage = h2.app.storage
            archive = type(storage)._archive_game
            calls = []

            async def failing(c: Any, plan: Any, g: Any, locale: str, now: Any) -> None:
                calls.append(g.game_id)
                if len(calls) == 2:
                    raise IntegrityError("INSERT", {}, Exception("made to fail"))
                await archive(c, plan, g, locale, now)

            monkeypatch.setattr(type(storage), "_archive_game", staticmethod(failing))
            assert await _send_import(h2, admin2, body) == (
                "❌ Not imported: the database refused it (imported meanwhile?). Nothing was "
                "written.")
            assert len(calls) == 2
            assert await storage.get_tournament(t.id) is None
            assert await storage.get_game(calls[0]) is None
            assert await storage.tournament_for_chat(GROUP) is None
        finally:
            await h2.stop()


async def test_TOUR_where_the_games_are_held_their_sheets_are_checked_against_the_logs(db_url):
    h = await make_harness(db_url, n_users=10)
    try:
        admin, t = await _played(h)
        body = await _export(h, admin)
        # the tournament's rows go (a wiped tournament), its games and their logs stay
        async with h.app.storage.engine.begin() as c:
            for table in (TournamentGameRow, TournamentTableRow, TournamentPlayerRow,
                          TournamentRow):
                await c.execute(delete(table.__table__))
        assert await h.app.storage.get_tournament(t.id) is None

        # a sheet changed with its standings to match: only the log can tell
        data = json.loads(body)
        line = data["games"][0]["sheet"][0]
        line["win_points"] += 1
        line["total"] += 1
        data["standings"] = standings_of(read_export(json.dumps(data), check_standings=False))
        assert await _send_import(h, admin, json.dumps(data).encode()) == (
            f"❌ Not imported — games[0].sheet: not what game #{data['games'][0]['game_id']}'s "
            "stored log scores. Nothing was written.")
        assert await h.app.storage.get_tournament(t.id) is None

        assert (await _send_import(h, admin, body)).startswith(f"📥 «Spring Cup» (#{t.id})")
        assert await _export(h, admin) == body
        async with h.app.storage.engine.begin() as c:  # the held games were not written again
            ids = (await c.execute(Game.__table__.select())).all()
        assert len(ids) == 2
    finally:
        await h.stop()


async def test_TOUR_X10_an_export_from_before_the_per_game_key_still_reads(db_url):
    h = await make_harness(db_url, n_users=10)
    try:
        admin, _t = await _played(h)
        body = await _export(h, admin)
    finally:
        await h.stop()
    data = json.loads(body)
    assert all("per_game" in r for r in data["standings"])
    assert read_export(body).data["standings"] == data["standings"]
    for row in data["standings"]:  # as written before TOUR-X10
        del row["per_game"]
    assert read_export(json.dumps(data)).data["standings"] == data["standings"]
    data["standings"][0]["points"] = 99  # still checked
    try:
        read_export(json.dumps(data))
    except ImportRefused as e:
        assert (e.field, e.reason) == ("standings", "standings")
    else:
        raise AssertionError("a changed standings row was read")
