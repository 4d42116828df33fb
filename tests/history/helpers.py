"""Helpers of the history tests: logs of seeded engine playouts as stored entries, and storing
such a game in a database the way the bot would (create, append every command, finish)."""

from __future__ import annotations

import zlib
from datetime import UTC

from bot.history.protocol import Entry
from engine import RULESETS, Phase, to_dict
from tests.engine.playout import Playout, play

#: (ruleset, players) of the playout cases: every preset, several table sizes
PRESET_SIZES = [(name, n) for name, rs in sorted(RULESETS.items())
                for n in sorted({rs.min_players, (rs.min_players + rs.max_players) // 2,
                                 rs.max_players})]


def entries_of(po: Playout) -> list[Entry]:
    """The playout's log as the bot stores it: one entry per command with its events (dicts)."""
    events: dict[int, list] = {}
    for i, e in po.events:
        events.setdefault(i, []).append(to_dict(e))
    return [Entry(i, to_dict(cmd), events.get(i, [])) for i, cmd in enumerate(po.log)]


def playouts(per_case: int = 3, chaos=(0.0, 0.1, 0.3), host=(False, True)):
    """Seeded finished playouts of every preset: yields ``(case_id, playout)``."""
    for ruleset, n in PRESET_SIZES:
        for i in range(per_case):
            for h in host:
                seed = zlib.crc32(f"{ruleset}:{n}:{i}:{h}".encode()) % 100_000
                po = play(seed=seed, n=n, host=h, chaos=chaos[i % len(chaos)], ruleset=ruleset)
                if po.start_error is None and po.state is not None \
                        and po.state.phase is Phase.ENDED:
                    yield f"{ruleset}-{n}p-{i}{'-host' if h else ''}", po


def status_after(events: list[dict]) -> tuple[str | None, str | None]:
    kinds = {e["type"]: e for e in events}
    if "GameEnded" in kinds:
        return "finished", kinds["GameEnded"]["winner"]
    if "GameCancelled" in kinds:
        return "cancelled", None
    if "GameStarted" in kinds:
        return "running", None
    return None, None


async def store_playout(storage, chat_id: int, po: Playout, *, seed: int = 1) -> int:
    """Store the playout as a game of ``chat_id`` (log, players, status); returns its id."""
    entries = entries_of(po)
    first = entries[0].command
    game_id = await storage.create_game(chat_id, first["ruleset"], first["user_id"], "en",
                                        first.get("settings") or {}, seed)
    for e in entries:
        status, winner = status_after(e.events)
        await storage.append(game_id, e.seq, e.command, e.events, status=status, winner=winner)
    for p in po.final.seated():
        await storage.set_player(game_id, p.user_id, p.name, seat=p.seat)
    return game_id


async def bulk_store(storage, chat_id: int, po: Playout, *, finished_at=None, seed: int = 1,
                     title: str = "") -> int:
    """Like :func:`store_playout`, in one transaction (fast: for tests that need many games).
    ``finished_at``: the game's finish time (aware UTC; default now)."""
    from datetime import datetime, timedelta

    from sqlalchemy import insert

    from bot.storage.models import Game, GameLogEntry, GamePlayer

    entries = entries_of(po)
    first = entries[0].command
    end = finished_at or datetime.now(UTC)
    status, winner = "finished", po.final.winner.value if po.final.winner else None
    async with storage.engine.begin() as c:
        result = await c.execute(insert(Game.__table__).values(
            chat_id=chat_id, ruleset=first["ruleset"], status=status, locale="en",
            settings=first.get("settings") or {}, seed=seed, creator_id=first["user_id"],
            created_at=end - timedelta(minutes=40), started_at=end - timedelta(minutes=35),
            finished_at=end, winner=winner, ui={"title": title} if title else {},
            log_len=len(entries)))
        game_id = int(result.inserted_primary_key[0])
        await c.execute(insert(GameLogEntry.__table__), [
            {"game_id": game_id, "seq": e.seq, "command": e.command, "events": e.events,
             "created_at": end} for e in entries])
        await c.execute(insert(GamePlayer.__table__), [
            {"game_id": game_id, "user_id": p.user_id, "name": p.name, "seat": p.seat,
             "joined_at": end} for p in po.final.seated()])
    return game_id


_SAMPLE: list[Playout] = []


def sample_playouts() -> list[Playout]:
    """A few finished playouts of every preset, made once per test session."""
    if not _SAMPLE:
        for ruleset, n, host, seed in (("party", 5, False, 1), ("party", 8, True, 2),
                                       ("party", 12, False, 3), ("club", 10, False, 4),
                                       ("club", 10, True, 5), ("party", 7, False, 6)):
            po = play(seed=seed, n=n, host=host, chaos=0.05, ruleset=ruleset)
            assert po.final.phase is Phase.ENDED
            _SAMPLE.append(po)
    return _SAMPLE
