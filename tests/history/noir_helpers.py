"""Finished NOIR games for the history tests: seeded playouts of ``engine.noir.apply`` with
legal actions (``tests/engine/noir/playout.py``), as the bot stores them (the core's CreateGame
naming "noir" first, then NOIR's own command and event dicts), and stored in a database."""

from __future__ import annotations

from datetime import datetime

import engine
from bot.history.protocol import Entry
from engine import CreateGame
from engine.noir import CreateGame as NoirCreateGame
from engine.noir import NoirState, to_dict
from tests.engine.noir.playout import Playout, play


def noir_entries(po: Playout) -> list[Entry]:
    """The playout's log as the bot stores it: one entry per command with its events."""
    out = []
    for seq, (_before, cmd, _after, events) in enumerate(po.steps):
        if isinstance(cmd, NoirCreateGame):
            stored = engine.to_dict(CreateGame(user_id=cmd.user_id, ruleset="noir",
                                               settings=cmd.settings))
        else:
            stored = to_dict(cmd)
        out.append(Entry(seq, stored, [to_dict(e) for e in events]))
    return out


def state_of(po: Playout) -> NoirState:
    """The NOIR state the playout reached (there is one once its CreateGame is applied)."""
    assert isinstance(po.state, NoirState), "no NOIR game was created"
    return po.state


def finished(seed: int, n: int = 6) -> Playout:
    """A seeded NOIR playout that ended (not cut at the command limit)."""
    for s in range(seed, seed + 50):
        po = play(s, n)
        if state_of(po).phase == "ended":
            return po
    raise AssertionError("no finished NOIR playout")


async def store_noir(storage, chat_id: int, po: Playout, *, upto: int | None = None,
                     finished_at: datetime | None = None) -> int:
    """Store the playout (its first ``upto`` commands) as a NOIR game of ``chat_id`` the way
    the service does (log, players, status); returns the game id."""
    entries = noir_entries(po)[:upto]
    first = entries[0].command
    game_id = await storage.create_game(chat_id, "noir", first["user_id"], "en",
                                        first.get("settings") or {}, 1)
    for e in entries:
        kinds = {ev["type"]: ev for ev in e.events}
        status = winner = None
        if "GameEnded" in kinds:
            status, winner = "finished", kinds["GameEnded"]["outcome"]
        elif "GameStarted" in kinds:
            status = "running"
        await storage.append(game_id, e.seq, e.command, e.events, status=status, winner=winner)
    st = po.steps[len(entries) - 1][2]
    for seat, uid in enumerate(st.order, 1):
        await storage.set_player(game_id, uid, st.players[uid].name, seat=seat)
    return game_id
