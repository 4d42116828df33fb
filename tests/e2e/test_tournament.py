"""Issue 22's acceptance: a whole tournament, end to end — 20 players, two tables (two groups),
three games each (3 rounds × 2 tables = 6 club games), played through the stand-in Bot API
with the bot as its own process (docs/tournaments.md).

* The organiser (admin of both groups) sets the shortest night and meeting (20 s; the judges
  close them at once anyway) and a 30-s vote window (the judge closes it too; a long one never
  closes under a slow machine's voters) in both groups (/settings), then creates «Winter Cup» in group A
  (``/tournament new Winter Cup club 3``: club preset, FIIM, 3 games each; she is its first
  judge) and names a second judge (``/tournament judge``), one per table.  20 players register
  through the registration message's deep link; group B is linked as table 2
  (``/tournament table``); «Close registration», then «Draw seating» with a fixed seed (written
  before the draw): the schedule picture goes to group A.
* Each round both tables play at once: ``/newgame`` in each table's group opens the round's
  lobby with the scheduled ten seated in the schedule's order (PARTY-X26), the table's judge
  hosts it through «Be the host», and starts it.  In round 2 at table 2 the judge replaces the
  player of seat 4, «absent», with a substitute (``/tournament sub 4 <id>``) before the start.
* The games are real club games, short: speeches ended at once, two nominees a day, the judge's
  «Next» closing the vote window and each night (tournament_play.py); at table 1 the mafia
  plays to win after night 3, at table 2 the town votes its blacks out (usually by day 3).
  Each judge publishes the sheet (one with additional points for a seat), and round 1's sheet
  at table 1 is corrected later (more additional points for a seat, saved).
* After each round group A gets one standings picture; after round 3 the final table, its
  caption naming the leader.  The export lists the 20 players and the substitute with the
  points of the published sheets (the correction included), the substitute's one game his own
  and marked; the final picture is the bot's card of those rows, byte for byte; ``/tournament``
  shows the final table again; ``/history tournament`` lists the 6 games.

Runs on one database backend only (``ONCE``): it is long.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import defaultdict

import pytest

from bot.handlers.tournament_rounds import standings_card
from bot.history.tournament_picture import draw_standings
from bot.ui.callbacks import Tour
from bot.ui.i18n import Translator
from engine import Team
from engine.tournament import Row

from .botproc import BotProcess
from .conftest import ONCE
from .fake_api import FakeBotAPI
from .model import StoredMessage, unisolated
from .tournament_play import Board

pytestmark = [pytest.mark.asyncio(loop_scope="module"), ONCE]

GROUP_A, GROUP_B = -1001000000221, -1001000000222
SEED = 2222
NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dina", "Egor", "Zoya", "Ilya", "Kira", "Lev",
         "Mila", "Nikita", "Olya", "Pavel", "Raya", "Semyon", "Tanya", "Uma", "Fedor", "Khariton")
SETTINGS = {"meeting": 20, "night": 20, "vote": 30}
SUB_ROUND, SUB_TABLE, SUB_SEAT = 2, 2, 4
_ = Translator().get("ru")  # the groups' language (the default)


def plain(text: str | None) -> str:
    return unisolated(text or "").replace("<b>", "").replace("</b>", "")


def number(text: str) -> float:
    return float(text.replace(",", ".").replace("−", "-"))


def sheet_totals(caption: str) -> dict[int, float]:
    """Seat → total of a published sheet's caption (``3. Name — 1,25``)."""
    return {int(m[1]): number(m[2]) for m in re.finditer(r"^(\d+)\. .+? — ([−\d.,]+)$",
                                                          plain(caption), re.M)}


def newest(api: FakeBotAPI, chat_id: int, containing: str, after: int = 0) -> StoredMessage | None:
    for m in reversed(api.messages(chat_id)):
        if m.message_id > after and containing in plain(m.caption or m.text):
            return m
    return None


async def test_a_two_table_tournament_to_the_final_table(bot_api: FakeBotAPI,
                                                         bot_proc: BotProcess, reader) -> None:
    began = time.monotonic()
    api = bot_api
    organiser = api.user(22000, "Olga", "olga")
    judge2 = api.user(22100, "Nina", "nina")
    sub = api.user(22101, "Sasha", "sasha")
    players = [api.user(22001 + i, name, name.lower()) for i, name in enumerate(NAMES)]
    people = {u.id: u for u in [organiser, judge2, sub, *players]}
    for chat, title in ((GROUP_A, "Club A"), (GROUP_B, "Club B")):
        api.group(chat, title, members=[judge2, sub, *players], admins=[organiser])
    boards = {1: Board(api, bot_proc, reader, GROUP_A, organiser, people),
              2: Board(api, bot_proc, reader, GROUP_B, judge2, people)}
    first = boards[1]

    async def answered(chat: int, text: str, after: int) -> StoredMessage:
        return await first.wait(lambda: newest(api, chat, text, after), f"answer {text!r}")

    def last_id(chat: int) -> int:
        return max((m.message_id for m in api.messages(chat)), default=0)

    # --- short timings in both groups, the tournament, its judges and players -----------------
    for chat in (GROUP_A, GROUP_B):
        for key, seconds in SETTINGS.items():
            mark = last_id(chat)
            await organiser.say(chat, f"/settings {key} {seconds}")
            await answered(chat, "⚙️", mark)
    mark = last_id(GROUP_A)
    await organiser.say(GROUP_A, "/tournament new Winter Cup club 3")
    registration = await first.wait(
        lambda: next((m for m in api.messages(GROUP_A) if m.message_id > mark and any(
            "start=tour_" in (b.get("url") or "") for b in m.buttons)), None),
        "post the registration")
    t = await reader.tournament_for_chat(GROUP_A)
    assert t is not None and t.preset == "club" and t.games_per_player == 3
    assert t.judges == [organiser.id]
    await reader.update_tournament(t.id, seed=SEED)  # a repeatable draw
    mark = last_id(GROUP_A)
    await organiser.say(GROUP_A, f"/tournament judge {judge2.id} Nina")
    await answered(GROUP_A, "⚖️", mark)
    url = next(b["url"] for b in registration.buttons if "start=tour_" in (b.get("url") or ""))
    for p in players:
        await p.follow_deep_link(url)
    for p in players:
        await first.wait(lambda p=p: api.last_message(p.id, "✅"), f"register {p.first_name}")
    await first.wait(lambda: all(n in plain(registration.text) for n in NAMES),
                     "list the 20 players on the registration message")
    mark = last_id(GROUP_B)
    await organiser.say(GROUP_B, f"/tournament table {t.id}")
    assert "2" in plain((await answered(GROUP_B, "🪑", mark)).text)
    answer = await organiser.press(GROUP_A, registration.message_id,
                                   Tour(a="close", t=t.id).pack(), timeout=20)
    assert answer is not None and "🔒" in (answer.text or "")
    mark = last_id(GROUP_A)
    draw = Tour(a="draw", t=t.id).pack()
    await first.wait(lambda: first.message_with(GROUP_A, draw), "offer «Draw seating»")
    answer = await organiser.press(GROUP_A, registration.message_id, draw, timeout=20)
    assert answer is not None and "🎲" in (answer.text or ""), answer
    await first.wait(lambda: next((m for m in api.messages(GROUP_A)
                                   if m.message_id > mark and m.photo_bytes), None),
                     "post the schedule picture")
    t = await reader.get_tournament(t.id)
    assert t is not None and t.status == "drawn" and t.seed == SEED
    rounds = t.schedule["rounds"]
    assert len(rounds) == 3 and all(len(r) == 2 for r in rounds)
    for r in rounds:  # every player at one table in every round
        assert sorted(u for table in r for u in table) == sorted(p.id for p in players)
    setup = time.monotonic() - began

    # --- three rounds, both tables at once --------------------------------------------------------
    name = {u.id: u.first_name for u in people.values()}
    games: dict[tuple[int, int], int] = {}
    totals: dict[tuple[int, int], dict[int, float]] = {}  # (round, table) → user → total
    seats: dict[tuple[int, int], dict[int, int]] = {}
    absent = rounds[SUB_ROUND - 1][SUB_TABLE - 1][SUB_SEAT - 1]
    timing: dict[tuple[int, int], float] = {}
    winners: dict[tuple[int, int], Team] = {}

    async def table_game(r: int, table: int) -> None:
        board = boards[table]
        seat_order = list(rounds[r - 1][table - 1])
        start = time.monotonic()
        mark = last_id(board.chat_id)
        await board.open_round(organiser, [name[u] for u in seat_order])
        assert newest(api, board.chat_id, "🏆", mark), "the round's message"
        assert board.game_id is not None
        games[r, table] = board.game_id
        if (r, table) == (SUB_ROUND, SUB_TABLE):
            await sub.start()  # the substitute opens the bot (his role card comes there)
            mark = last_id(board.chat_id)
            await board.judge.say(board.chat_id, f"/tournament sub {SUB_SEAT} {sub.id}")
            done = plain((await answered(board.chat_id, "🔁", mark)).text)
            assert "Sasha" in done and name[absent] in done, done
            seat_order[SUB_SEAT - 1] = sub.id
            await board.seated([name[u] for u in seat_order])
        st = await board.start()
        assert [p.user_id for p in st.seated()] == seat_order and st.host == board.judge.id
        end = await board.play(town=table == 2)
        assert end.winner in (Team.TOWN, Team.MAFIA)
        winners[r, table] = end.winner
        seats[r, table] = {p.seat: p.user_id for p in end.seated()}
        if (r, table) == (1, 2):  # the judge gives seat 2 additional points before publishing
            await board.sheet("s", 2)
            assert await board.sheet("+", 2)
        mark = last_id(board.chat_id)
        assert await board.sheet("pub") == _("Published.")
        published = await answered(board.chat_id, f"#{board.game_id}", mark)
        assert published.photo_bytes, "the protocol picture with the sheet"
        by_seat = sheet_totals(published.caption or "")
        assert sorted(by_seat) == list(range(1, 11)), published.caption
        totals[r, table] = {seats[r, table][s]: v for s, v in by_seat.items()}
        timing[r, table] = time.monotonic() - start

    async def correct_round_1() -> None:
        """The judge of table 1 corrects round 1's sheet: seat 5 gets two steps more."""
        board = boards[1]
        board.game_id = games[1, 1]
        await board.sheet("cor")
        await board.sheet("s", 5)
        assert await board.sheet("+", 5) and await board.sheet("+", 5)
        mark = last_id(GROUP_A)
        assert await board.sheet("sv") == _("Saved.")
        notice = plain((await answered(GROUP_A, "✏️", mark)).text)
        moved = re.search(r"^5\. .+?: ([−\d.,]+) → ([−\d.,]+)$", notice, re.M)
        assert moved is not None, notice
        user = seats[1, 1][5]
        assert number(moved[1]) == totals[1, 1][user]
        assert number(moved[2]) > totals[1, 1][user]
        totals[1, 1][user] = number(moved[2])

    round_posts = []
    for r in (1, 2, 3):
        mark = last_id(GROUP_A)
        await asyncio.gather(table_game(r, 1), table_game(r, 2))
        after = _("After round {r} of {n}").format(r=r, n=3)
        post = await first.wait(lambda mark=mark, after=after: newest(api, GROUP_A, after, mark),
                                f"post the standings after round {r}")
        assert post.photo_bytes, after
        assert ("🏁" if r == 3 else "📊") in plain(post.caption), post.caption
        round_posts.append(post)
        if r == 1:
            await correct_round_1()
        boards[1].game_id = None
    played = time.monotonic() - began - setup

    # --- the final table ---------------------------------------------------------------------------
    expected: dict[int, float] = defaultdict(float)
    for game in totals.values():
        for uid, v in game.items():
            expected[uid] += v
    assert len(expected) == 21 and sub.id in expected
    final = plain(round_posts[-1].caption)
    assert "🏁" in final, final
    leader = max(expected.values())
    assert any(name[u] in final for u, v in expected.items() if v == leader), final
    t = await reader.get_tournament(t.id)
    assert t is not None and t.status == "finished"

    # the export: every player's points are his sheets' (the correction included); the
    # substitute's one game his own, the absent player's two
    mark = last_id(organiser.id)
    await organiser.say(GROUP_A, "/tournament export")
    doc = await first.wait(lambda: next((
        m for m in api.messages(organiser.id) if m.message_id > mark and m.document_bytes
        and (m.document or {}).get("file_name", "").endswith(".json")), None), "send the export")
    data = json.loads(doc.document_bytes)
    standing = {row["user_id"]: row for row in data["standings"]}
    assert set(standing) == set(expected)  # the 20 players and the substitute
    for uid, v in expected.items():
        assert standing[uid]["points"] == pytest.approx(v, abs=0.001), name[uid]
    assert standing[sub.id]["substitute_games"] == 1 and standing[sub.id]["games"] == 1
    assert [u for u, row in standing.items() if row["substitute_games"]] == [sub.id]
    assert standing[absent]["games"] == 2
    assert all(row["games"] == 3 for u, row in standing.items() if u not in (sub.id, absent))
    assert [g["game_id"] for g in data["games"]] == [games[k] for k in sorted(games)]
    assert data["standings"][0]["points"] == pytest.approx(leader)

    # the final table's picture is these rows (the bot's card of them, drawn byte for byte)
    rows = [Row(**{k: v for k, v in row.items() if k not in ("by_team", "by_role")})
            for row in data["standings"]]
    card = standings_card(_, t, rows, name, _("After round {r} of {n}").format(r=3, n=3),
                          final=True, locale="ru")
    assert [line.name for line in card.rows if line.substitute] == ["Sasha"]
    assert draw_standings(card) == round_posts[-1].photo_bytes
    # /tournament: the final table again (its picture), every round played
    mark = last_id(GROUP_A)
    await organiser.say(GROUP_A, "/tournament")
    again = await first.wait(lambda: next((m for m in api.messages(GROUP_A) if m.message_id > mark
                                           and m.photo_bytes), None), "show the final table")
    assert "🏁" in plain(again.caption) and _("Every round is played.") in plain(again.caption)

    # /history tournament lists the six games
    mark = last_id(GROUP_A)
    await organiser.say(GROUP_A, "/history tournament")
    listing = await answered(GROUP_A, "Winter Cup", mark)
    listed = {b["text"] for b in listing.buttons}
    assert {f"#{g}" for g in games.values()} <= listed, listed
    assert bot_proc.problems() == []
    total = time.monotonic() - began
    print(f"\ntournament e2e: setup {setup:.1f} s, 6 games {played:.1f} s, total {total:.1f} s; "
          f"per game {', '.join(f'{k}: {v:.1f}' for k, v in sorted(timing.items()))}; "
          f"presses {boards[1].presses + boards[2].presses}; winners "
          f"{ {k: w.value for k, w in sorted(winners.items())} }")
