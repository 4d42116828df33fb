"""Helpers of the history tests: logs of seeded engine playouts as stored entries, and storing
such a game in a database the way the bot would (create, append every command, finish)."""

from __future__ import annotations

import zlib

from engine import RULESETS, to_dict
from bot.history.protocol import Entry
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
                if po.state is not None and po.state.over and po.start_error is None:
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
    for p in po.state.seated():
        await storage.set_player(game_id, p.user_id, p.name, seat=p.seat)
    return game_id
