"""Lobby and setup commands: create, join, leave, host, settings, start, cancel."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..core.audience import Private
from ..core.errors import (
    AlreadyJoined,
    BadSetup,
    GameFull,
    NotAllowed,
    NotEnoughPlayers,
    NotInGame,
    PhaseClosed,
)
from . import flow
from .commands import BecomeHost, CancelGame, ChangeSettings, Join, Leave, StartGame
from .events import (
    GameCancelled,
    GameStarted,
    HostAssigned,
    HostRoles,
    PlayerJoined,
    PlayerLeft,
    RoleAssigned,
    SettingsChanged,
)
from .roles import Team
from .state import Phase, Player
from .step import Step


def seat_order(settings: Mapping[str, Any]) -> list[int] | None:
    """PARTY-X26: the fixed seat order of a lobby (``settings["seat_order"]``: user ids, seat 1
    first; a tournament's table), or None (the deal draws the seats)."""
    order = settings.get("seat_order")
    if not isinstance(order, list | tuple) or not order:
        return None
    return [int(u) for u in order if isinstance(u, int) and not isinstance(u, bool)]


def _lobby_only(s: Step) -> None:
    if s.st.phase is not Phase.LOBBY:
        raise PhaseClosed("the lobby is closed")


def join(s: Step, cmd: Join) -> None:
    _lobby_only(s)
    st = s.st
    if cmd.user_id in st.players or cmd.user_id == st.host:
        raise AlreadyJoined()
    if len(st.players) >= s.rs.max_players:
        raise GameFull()
    if cmd.user_id is None:
        raise NotAllowed("only a user joins")
    order = seat_order(st.settings)
    if order is not None and cmd.user_id not in order:  # PARTY-X26: a tournament's table
        raise NotAllowed("not seated at this table")
    st.players[cmd.user_id] = Player(user_id=cmd.user_id, name=cmd.name)
    s.emit(PlayerJoined(user_id=cmd.user_id, name=cmd.name, count=len(st.players)))


def leave(s: Step, cmd: Leave) -> None:
    _lobby_only(s)
    st = s.st
    if cmd.user_id == st.host:
        st.host, st.host_name = None, ""
        s.emit(HostAssigned(user_id=None))
        return
    if cmd.user_id not in st.players:
        raise NotInGame()
    del st.players[cmd.user_id]
    s.emit(PlayerLeft(user_id=cmd.user_id, count=len(st.players)))


def become_host(s: Step, cmd: BecomeHost) -> None:
    """PARTY-Q18: a non-playing host; a joined player must leave first."""
    _lobby_only(s)
    st = s.st
    if cmd.user_id in st.players or cmd.user_id == st.host:
        raise AlreadyJoined()
    if st.host is not None:  # PARTY-X24: a host is never replaced behind his back
        raise NotAllowed("the game has a host")
    st.host, st.host_name, st.host_active = cmd.user_id, cmd.name, True
    s.emit(HostAssigned(user_id=cmd.user_id))


def change_settings(s: Step, cmd: ChangeSettings) -> None:
    """PARTY-33/34, PARTY-Q17. Role options only in the lobby; timings apply from the next phase."""
    st = s.st
    if st.over:
        raise PhaseClosed("game over")
    # REV-X01: the revision a game is played by is fixed at its creation
    merged = {**st.settings, **{k: v for k, v in cmd.settings.items() if k != "revision"}}
    if st.phase is not Phase.LOBBY and merged.get("options") != st.settings.get("options"):
        raise BadSetup("role options can change only in the lobby")
    st.timings = s.rs.timings(merged)
    st.options = {**s.rs.default_options, **(merged.get("options") or {})}
    if s.rs.check_options:  # FORUM: malformed options are refused at once
        s.rs.check_options(st.options)
    st.settings = merged
    s.emit(SettingsChanged(by=cmd.user_id, timings=tuple(sorted(st.timings.items()))))


def start_game(s: Step, cmd: StartGame) -> None:
    """Deal (drawn by the shell) checked against the role table; then the introduction night."""
    _lobby_only(s)
    st = s.st
    n = len(st.players)
    if n < s.rs.min_players:
        raise NotEnoughPlayers(f"{n} < {s.rs.min_players}")
    if sorted(cmd.seating) != sorted(st.players) or len(cmd.roles) != n:
        raise BadSetup("seating must list every joined player once")
    order = seat_order(st.settings)
    if order is not None and list(cmd.seating) != order:  # PARTY-X26: seats as scheduled
        raise NotEnoughPlayers("the seat order is not complete") if len(order) > n \
            else BadSetup("seating must follow the seat order")
    expected = s.rs.roles_for(n, st.options)
    if Counter(cmd.roles) != Counter(expected):
        raise BadSetup("roles do not match the role table")
    for seat, (uid, role) in enumerate(zip(cmd.seating, cmd.roles, strict=True), start=1):
        st.players[uid].seat = seat
        st.players[uid].role = role
    seated = st.seated()
    s.emit(GameStarted(seating=tuple((p.seat, p.user_id) for p in seated),
                       mafia_count=sum(1 for r in cmd.roles if r.team is Team.MAFIA),
                       doctor=any(r.value == "doctor" for r in cmd.roles)))
    for p in seated:
        s.emit(RoleAssigned(user_id=p.user_id, role=p.dealt_role, team=p.dealt_role.team,
                            audience=Private(p.user_id)))
    if st.host:
        s.emit(HostRoles(roles=tuple((p.user_id, p.dealt_role) for p in seated)))
    flow.start_night_gate(s)


def cancel(s: Step, cmd: CancelGame) -> None:
    st = s.st
    if st.over:
        raise PhaseClosed("game over")
    st.phase = Phase.CANCELLED
    st.phase_seq += 1
    st.pause = None
    s.clear_timer()
    s.emit(GameCancelled(by=cmd.user_id, reason=cmd.reason))
