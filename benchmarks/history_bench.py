"""History benchmark: /history, protocols, /stats, /top and /me on a database of 100,000 games.

``python -m benchmarks.history_bench [--games N] [--db URL] [--repeat R]``

Generation (timed, printed): a few dozen seeded engine playouts of every preset are the
templates; each stored game copies one with the players swapped for users of its chat's pool,
and is bulk-inserted with its ``games`` row, history summary and player results.  Half the games
(``--big-share``) belong to one big group, the rest to ``--chats`` small ones.  The full log of
``--full-logs`` games is stored (the newest games of the big group among them, the ones people
open); the others get a one-entry stub log.  Ratings are computed in finishing order, as the bot
would have, and inserted.

Then every operation runs ``--repeat`` times through the same code the handlers use and the
median and 95th percentile are printed in milliseconds.  Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import column, insert, table, text

from bot.handlers.history import knew_view, list_view, protocol_view, replay_view
from bot.history import protocol as P
from bot.history import render_stats as rs
from bot.history.service import HistoryService
from bot.history.stats import BASE_RATING, rate, standings
from bot.storage import Storage
from bot.storage.models import (
    Game,
    GamePlayer,
    GameSummaryRow,
    PlayerResultRow,
    RatingRow,
    RoleStatRow,
)
from bot.ui.i18n import Translator
from engine import RULESETS, to_dict
from tests.engine.playout import play

from .figures import percentile

T0 = datetime(2024, 1, 1, tzinfo=UTC)
BIG_CHAT = -1001000000000
SMALL_CHAT = -1002000000000
CHUNK = 5_000
LOG = table("game_log", column("game_id"), column("seq"), column("command"), column("events"),
            column("created_at"))  # untyped: the JSON goes in as the text we already have


@dataclass
class Template:
    """A finished playout, ready to copy: its log as JSON text and its per-player results."""

    ruleset: str
    users: list[int]  # seated user ids, seat order
    log: list[tuple[int, str, str]]  # (seq, command JSON, events JSON)
    winner: str
    days: int
    players: list[tuple[int, int, str, str, bool, int]]  # uid, seat, role, team, survived, fouls
    settings: dict


def make_templates(seed: int) -> list[Template]:
    out = []
    cases = [(name, n) for name, r in RULESETS.items()
             for n in range(r.min_players, r.max_players + 1)]
    for i in range(48):
        ruleset, n = cases[i % len(cases)]
        po = play(seed=seed * 1000 + i, n=n, chaos=0.03, ruleset=ruleset)
        if po.state is None or not po.state.over or po.state.winner is None:
            continue
        events: dict[int, list] = {}
        for k, e in po.events:
            events.setdefault(k, []).append(to_dict(e))
        entries = [P.Entry(k, to_dict(c), events.get(k, [])) for k, c in enumerate(po.log)]
        pr = P.build_protocol(entries)
        # a finished game with a winner (checked above): its protocol has the result, and
        # every seated player his role and team
        assert pr.result is not None and pr.result.winner is not None
        players = []
        for p in pr.players:
            assert p.role is not None and p.team is not None, f"seat {p.seat}: no role"
            players.append((p.user_id, p.seat, p.role, p.team, p.alive, p.fouls))
        out.append(Template(
            ruleset=ruleset, users=[p.user_id for p in po.state.seated()],
            log=[(e.seq, json.dumps(e.command, ensure_ascii=False),
                  json.dumps(e.events, ensure_ascii=False)) for e in entries],
            winner=pr.result.winner, days=pr.result.days, settings=entries[0].command.get("settings") or {},
            players=players))
    return out


def remap(text_: str, mapping: dict[int, int]) -> str:
    for old, new in mapping.items():
        text_ = text_.replace(str(old), str(new))
    return text_


@dataclass
class Generated:
    games: int
    seconds: float
    rows: dict[str, int]
    full_log_games: list[int]
    heavy_user: int
    big_chat: int
    small_chat: int
    template: Template


async def generate(storage: Storage, games: int, big_share: float, chats: int, full_logs: int,
                   seed: int) -> Generated:
    started = time.perf_counter()
    rng = random.Random(seed)
    templates = make_templates(seed)
    big_pool = [5_000_000_000 + i for i in range(400)]
    heavy = big_pool[0]
    small_pools = [[6_000_000_000 + c * 100 + i for i in range(30)] + [heavy] for c in range(chats)]
    n_big = int(games * big_share)
    full = set(range(n_big - full_logs // 2, n_big)) | set(rng.sample(range(games), full_logs // 2))
    rows: dict[str, list] = {k: [] for k in ("games", "summaries", "results", "log", "players")}
    counts = {k: 0 for k in rows} | {"ratings": 0}
    ratings: dict[tuple[int, int, str], list] = {}  # (chat, user, team) -> [rating, games, wins, name]
    roles: dict[tuple[int, int, str, str], list] = {}  # (chat, user, team, role) -> 4 totals

    async def flush() -> None:
        """Everything queued, parents first (the foreign keys)."""
        async with storage.engine.begin() as c:
            for key, tbl in (("games", Game.__table__), ("summaries", GameSummaryRow.__table__),
                             ("results", PlayerResultRow.__table__), ("log", LOG),
                             ("players", GamePlayer.__table__)):
                if rows[key]:
                    await c.execute(insert(tbl), rows[key])
                    counts[key] += len(rows[key])
                    rows[key].clear()

    for g in range(games):
        gid = g + 1
        if g < n_big:
            chat, pool, title = BIG_CHAT, big_pool, "Big club"
        else:
            k = g % chats
            chat, pool, title = SMALL_CHAT - k, small_pools[k], f"Group {k}"
        t = rng.choice(templates)
        users = rng.sample(pool, len(t.users))
        mapping = dict(zip(t.users, users, strict=True))
        end = T0 + timedelta(minutes=5 * g)
        start = end - timedelta(minutes=rng.randint(15, 60))
        rows["games"].append(dict(
            id=gid, chat_id=chat, ruleset=t.ruleset, status="finished", locale="ru",
            settings=t.settings, seed=rng.getrandbits(62), creator_id=users[0],
            created_at=start - timedelta(minutes=5), started_at=start, finished_at=end,
            winner=t.winner, timer_seq=None, deadline_at=None, ui={"title": title},
            log_len=len(t.log) if g in full else 1))
        rows["summaries"].append(dict(
            game_id=gid, chat_id=chat, title=title, ruleset=t.ruleset, winner=t.winner,
            players=len(users), days=t.days, duration=int((end - start).total_seconds()),
            finished_at=end))
        teams = {}
        for uid, seat, role, team, alive, fouls in t.players:
            u = mapping[uid]
            teams[u] = team
            rows["results"].append(dict(
                game_id=gid, user_id=u, chat_id=chat, name=f"Player {u % 100000}", seat=seat,
                role=role, team=team, won=team == t.winner, survived=alive, fouls=fouls,
                finished_at=end))
            tot = roles.setdefault((chat, u, team, role), [0, 0, 0, 0])
            tot[0], tot[1] = tot[0] + 1, tot[1] + int(team == t.winner)
            tot[2], tot[3] = tot[2] + int(alive), tot[3] + fouls
        current = {(u, tm): ratings[(chat, u, tm)][0] for u, tm in teams.items()
                   if (chat, u, tm) in ratings}
        for (u, tm), r in rate(current, teams, t.winner).items():
            st = ratings.setdefault((chat, u, tm), [BASE_RATING, 0, 0, f"Player {u % 100000}"])
            st[0], st[1], st[2] = r, st[1] + 1, st[2] + int(tm == t.winner)
        if g in full:
            rows["log"] += [dict(game_id=gid, seq=s, command=remap(cmd, mapping),
                                 events=remap(evs, mapping), created_at=end)
                            for s, cmd, evs in t.log]
            rows["players"] += [dict(game_id=gid, user_id=mapping[uid],
                                     name=f"Player {mapping[uid] % 100000}", seat=seat,
                                     joined_at=start) for uid, seat, *_ in t.players]
        else:
            rows["log"].append(dict(game_id=gid, seq=0, command=remap(t.log[0][1], mapping),
                                    events=remap(t.log[0][2], mapping), created_at=end))
        if len(rows["results"]) >= CHUNK or len(rows["log"]) >= CHUNK:
            await flush()
    await flush()
    now = datetime.now(UTC)
    rating_rows = [dict(chat_id=c, user_id=u, team=tm, name=s[3], rating=s[0], games=s[1],
                        wins=s[2], updated_at=now) for (c, u, tm), s in ratings.items()]
    role_rows = [dict(chat_id=c, user_id=u, team=tm, role=r, games=v[0], wins=v[1],
                      survived=v[2], fouls=v[3]) for (c, u, tm, r), v in roles.items()]
    async with storage.engine.begin() as c:
        for tbl, rows_ in ((RatingRow.__table__, rating_rows), (RoleStatRow.__table__, role_rows)):
            for i in range(0, len(rows_), CHUNK):
                await c.execute(insert(tbl), rows_[i:i + CHUNK])
        if storage.engine.dialect.name == "postgresql":
            await c.execute(text("SELECT setval(pg_get_serial_sequence('games', 'id'), :n)"),
                            {"n": games})
        else:
            await c.execute(text("INSERT OR REPLACE INTO sqlite_sequence (name, seq) "
                                 "VALUES ('games', :n)"), {"n": games})
    counts["ratings"], counts["role_stats"] = len(rating_rows), len(role_rows)
    async with storage.engine.connect() as c:
        if storage.engine.dialect.name == "postgresql":
            await c.execution_options(isolation_level="AUTOCOMMIT")
            await c.exec_driver_sql("VACUUM ANALYZE")
        else:
            await c.exec_driver_sql("ANALYZE")
    newest_big = sorted(g + 1 for g in full if g < n_big)
    return Generated(games=games, seconds=time.perf_counter() - started, rows=counts,
                     full_log_games=newest_big, heavy_user=heavy, big_chat=BIG_CHAT,
                     small_chat=SMALL_CHAT, template=templates[0])


async def timed(repeat: int, op: Callable[[int], Awaitable[object]]) -> list[float]:
    out = []
    for i in range(repeat):
        started = time.perf_counter()
        await op(i)
        out.append((time.perf_counter() - started) * 1000)
    return out


async def measure(storage: Storage, gen: Generated, repeat: int) -> list[tuple[str, list[float]]]:
    tr = Translator(default_locale="ru")
    _, ngettext = tr.get("ru"), tr.nget("ru")
    history = HistoryService(storage)
    figures: list[tuple[str, list[float]]] = []
    big, small = gen.big_chat, gen.small_chat
    pages = -(-await storage.history_count(big) // 10)
    opened = gen.full_log_games[-repeat:] if len(gen.full_log_games) >= repeat \
        else (gen.full_log_games * repeat)[:repeat]

    async def fresh(i: int):
        history._cache.clear()  # a game opened for the first time: load and parse its log
        return await history.load(opened[i])

    async def stats(chat: int) -> str:
        ov = await storage.chat_overview(chat)
        roles = await storage.role_totals(chat_id=chat)
        board = standings(await storage.rating_tracks(chat_id=chat))
        return rs.stats_text(_, ngettext, "ru", "Club", ov, roles, board)

    async def top(chat: int) -> str:
        board = standings(await storage.rating_tracks(chat_id=chat))
        return rs.top_text(_, ngettext, "ru", "Club", board)

    async def me(user: int) -> None:
        totals = await storage.role_totals(user_id=user)
        for chat in sorted({t.chat_id for t in totals})[:8]:
            board = standings(await storage.rating_tracks(chat_id=chat))
            me_ = next((s for s in board if s.user_id == user), None)
            rs.me_section(_, ngettext, "ru", await storage.chat_title(chat), me_, 1, len(board),
                          [t for t in totals if t.chat_id == chat])

    async def protocol(i: int) -> None:
        protocol_view(tr, "ru", await fresh(i), 0, 0)

    async def replay_(i: int) -> None:
        replay_view(tr, "ru", await fresh(i), 5, 0)

    async def knew(i: int) -> None:
        ld = await fresh(i)
        viewer = next(iter(ld.participants()))
        knew_view(tr, "ru", ld, viewer, 3)

    async def export(i: int) -> None:
        await history.export_bytes(await fresh(i))

    async def record(i: int) -> None:
        gid = await insert_finished(storage, gen, 1_000_000 + i)
        assert await history.record(gid)

    figures.append(("/history, page 1 (big group)",
                    await timed(repeat, lambda i: list_view(storage, tr, big, 0))))
    figures.append((f"/history, page {pages:,} (last, big group)",
                    await timed(repeat, lambda i: list_view(storage, tr, big, pages - 1))))
    figures.append(("/history, page 1 (small group)",
                    await timed(repeat, lambda i: list_view(storage, tr, small, 0))))
    figures.append(("open a protocol (load log, build, render)", await timed(repeat, protocol)))
    figures.append(("replay step", await timed(repeat, replay_)))
    figures.append(("what I knew", await timed(repeat, knew)))
    figures.append(("export (JSON document)", await timed(repeat, export)))
    figures.append(("/stats (big group)", await timed(repeat, lambda i: stats(big))))
    figures.append(("/stats (small group)", await timed(repeat, lambda i: stats(small))))
    figures.append(("/top (big group)", await timed(repeat, lambda i: top(big))))
    figures.append(("/me (player of the big group and every small one)",
                    await timed(repeat, lambda i: me(gen.heavy_user))))
    figures.append(("record a finished game (summary, results, rating)", await timed(repeat, record)))
    figures.append(("start-up check for unrecorded games", await timed(
        min(repeat, 5), lambda i: storage.unrecorded_games())))
    victims = gen.full_log_games[:3]
    figures.append(("admin deletion (recomputes the big group's rating)",
                    await timed(len(victims), lambda i: history.delete(victims[i], None))))
    return figures


async def insert_finished(storage: Storage, gen: Generated, salt: int) -> int:
    """One more finished game of the big group, with its full log, not yet recorded."""
    t = gen.template
    users = [5_000_000_000 + (salt + i) % 400 for i in range(len(t.users))]
    users = list(dict.fromkeys(users))
    mapping = dict(zip(t.users, users, strict=True))  # distinct: at most 12 seats of 400 ids
    end = datetime.now(UTC)
    async with storage.engine.begin() as c:
        result = await c.execute(insert(Game.__table__).values(
            chat_id=gen.big_chat, ruleset=t.ruleset, status="finished", locale="ru",
            settings=t.settings, seed=salt, creator_id=users[0], created_at=end, started_at=end,
            finished_at=end, winner=t.winner, ui={"title": "Big club"}, log_len=len(t.log)))
        key = result.inserted_primary_key
        assert key is not None  # an insert of one row: its primary key
        gid = int(key[0])
        await c.execute(insert(LOG), [dict(game_id=gid, seq=s, command=remap(cmd, mapping),
                                           events=remap(evs, mapping), created_at=end)
                                      for s, cmd, evs in t.log])
    return gid


def report(gen: Generated, figures: Sequence[tuple[str, list[float]]], url: str) -> str:
    lines = [f"History benchmark — {gen.games:,} finished games ({url.split(':')[0]})",
             f"generated in {gen.seconds:.1f} s: " + ", ".join(f"{k} {v:,}" for k, v in gen.rows.items()),
             "", f"{'operation':<52} {'median ms':>10} {'p95 ms':>10} {'runs':>5}"]
    for name, values in figures:
        lines.append(f"{name:<52} {percentile(values, 50):>10.2f} {percentile(values, 95):>10.2f} "
                     f"{len(values):>5}")
    return "\n".join(lines)


async def run(args: argparse.Namespace) -> str:
    tmp = None
    url = args.db
    if url is None:
        tmp = tempfile.TemporaryDirectory(prefix="history-bench-")
        url = f"sqlite+aiosqlite:///{Path(tmp.name) / 'history.db'}"
    storage = Storage(url)
    await storage.start()
    try:
        if await storage.history_count(BIG_CHAT):
            raise SystemExit("the database already holds benchmark games: use an empty one")
        gen = await generate(storage, args.games, args.big_share, args.chats, args.full_logs,
                             args.seed)
        figures = await measure(storage, gen, args.repeat)
        return report(gen, figures, url)
    finally:
        await storage.close()
        if tmp is not None:
            tmp.cleanup()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.history_bench",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="finished games (100,000)")
    parser.add_argument("--big-share", type=float, default=0.5,
                        help="share of the games in the one big group (0.5)")
    parser.add_argument("--chats", type=int, default=500, help="small groups (500)")
    parser.add_argument("--full-logs", type=int, default=1_000,
                        help="games stored with their whole log (1,000)")
    parser.add_argument("--repeat", type=int, default=20, help="runs of each operation (20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default=None, metavar="URL",
                        help="an EMPTY database (default: a temporary SQLite file)")
    args = parser.parse_args(argv)
    if args.games < 100 or not 0 < args.big_share < 1 or args.chats < 1:
        parser.error("--games >= 100, 0 < --big-share < 1, --chats >= 1")
    args.full_logs = min(args.full_logs, args.games)
    print(asyncio.run(run(args)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
