"""Presence with an AFK status -- ONLINE, OFFLINE, AFK (the online preset, docs/rules/online-sport.md;
any preset whose rule set has ``afk_after``).

ONLINE is the engine's *active*; OFFLINE its *inactive* (``MarkInactive`` from the shell, or a
missed required action at a deadline); AFK is OFFLINE for the preset's ``afk_after`` seconds,
reported by the shell with :class:`~engine.mafia.commands.MarkAfk` -- the engine has no clock.  Any
accepted command of the player brings him back ONLINE (``engine.mafia.control.reactivate``).  An OFFLINE
player still counts (required at night, awaited by the votes, part of N); an AFK one does not
(ONLINE-47..50, Q14, Q20).
"""

from __future__ import annotations

from ..core.errors import NotAllowed, NotInGame, PhaseClosed, PlayerDead
from . import control
from .commands import MarkAfk
from .events import PlayerAfk
from .state import GameState, Phase, Player
from .step import Step


def counted(st: GameState) -> list[Player]:
    """ONLINE-50: the living players who are not AFK, in seat order (OFFLINE ones included)."""
    return [p for p in st.alive() if not p.afk]


def mark_afk(s: Step, cmd: MarkAfk) -> None:
    """ONLINE-48, 50, Q20: OFFLINE for ``afk_after`` seconds (measured by the shell) → AFK.
    Refused in a preset without AFK, in the lobby, for the dead, and for a player who is back
    ONLINE (the shell's clock was stale); a repeat is a no-op."""
    st = s.st
    if not s.rs.afk_after:
        raise NotAllowed("this preset has no AFK status")
    if st.phase is Phase.LOBBY:
        raise PhaseClosed("lobby")
    p = st.players.get(cmd.player)
    if p is None or not p.seat:
        raise NotInGame()
    if not p.alive:
        raise PlayerDead()
    if p.active:
        raise NotAllowed("the player is online")
    if p.afk:
        return
    p.afk = True
    s.emit(PlayerAfk(user_id=p.user_id))
    control._after_presence_change(s)
