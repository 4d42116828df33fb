"""Pause/resume, lost connection, host loss and take-over (PARTY-40..46, PARTY-Q19..Q22)."""

from __future__ import annotations

import math

from ..core.errors import GamePaused, NotAllowed, NotInGame, NotPaused, PauseLimit, PhaseClosed
from ..core.state import PauseState
from . import flow
from .commands import MarkActive, MarkInactive, Pause, Resume, TakeOver
from .events import (
    HostModeEnded,
    OrganiserChanged,
    Paused,
    PlayerActive,
    PlayerInactive,
    Resumed,
)
from .state import Phase
from .step import Step


def _may_pause(s: Step, uid: int | None) -> bool:
    st = s.st
    return uid is not None and (uid == st.organiser or uid == st.host or st.is_alive(uid))


def pause(s: Step, cmd: Pause) -> None:
    """PARTY-40, PARTY-Q19: living players, organiser and host; 3 pauses each; 15 min at most."""
    st = s.st
    if st.phase in (Phase.LOBBY, Phase.ENDED, Phase.CANCELLED):
        raise PhaseClosed(st.phase.value)
    if st.pause:
        raise GamePaused()
    if not _may_pause(s, cmd.user_id):
        raise NotAllowed()
    p = st.players.get(cmd.user_id) if cmd.user_id is not None else None
    if p and cmd.user_id != st.host:
        if p.pauses_used >= s.rs.pauses_per_player:
            raise PauseLimit()
        p.pauses_used += 1
    freeze(s, cmd.user_id, "player", cmd.remaining)


def freeze(s: Step, by: int | None, reason: str, remaining: float | None) -> None:
    st = s.st
    t = st.timer
    left = None
    if t is not None:
        left = t.seconds if remaining is None else max(1, min(t.seconds, math.ceil(remaining)))
    st.pause = PauseState(by=by, reason=reason, frozen_kind=t.kind if t else None,
                          frozen_remaining=left)
    limit = s.rs.host_wait if reason == "host_lost" else s.rs.pause_limit
    nt = s.set_timer("host_wait" if reason == "host_lost" else "pause", limit)
    s.emit(Paused(by=by, reason=reason, remaining=left, timer_seq=nt.seq, seconds=nt.seconds))


def thaw(s: Step, by: int | None, auto: bool) -> None:
    st = s.st
    ps = st.pause
    assert ps is not None, "thaw() runs in a pause"
    st.pause = None
    if ps.frozen_kind:
        s.set_timer(ps.frozen_kind, ps.frozen_remaining)
    else:
        s.clear_timer()
    s.emit(Resumed(by=by, auto=auto))
    _after_presence_change(s)  # players who dropped out during the pause hold nothing up


def resume(s: Step, cmd: Resume) -> None:
    st = s.st
    if not st.pause:
        if any(isinstance(e, Resumed) for e in s.events):
            return  # a lost host's /resume: his return (reactivate) already resumed the game
        raise NotPaused()
    if st.pause.reason == "host_lost" and cmd.user_id != st.host:
        raise NotAllowed()  # PARTY-46: the game waits for its host
    if not _may_pause(s, cmd.user_id):
        raise NotAllowed()
    thaw(s, cmd.user_id, auto=False)


def pause_expired(s: Step) -> None:
    """PARTY-Q19: a long pause resumes by itself; PARTY-Q22: a lost host is replaced by the bot."""
    st = s.st
    assert st.pause is not None, "a pause expires in a pause"
    if st.pause.reason == "host_lost":
        _end_host_mode(s, None, "host_timeout")
    thaw(s, None, auto=True)


def _end_host_mode(s: Step, by: int | None, reason: str) -> None:
    st = s.st
    st.host, st.host_name = None, ""
    s.emit(HostModeEnded(by=by, reason=reason))
    if st.phase is not Phase.READY:
        return
    if st.pause:
        if st.pause.frozen_kind is None:
            st.pause.frozen_kind = "ready_wait"  # automatic mode needs the ready-wait timer
            st.pause.frozen_remaining = st.timings["ready_wait"]
    elif st.timer is None:
        s.set_timer("ready_wait")
        _after_presence_change(s)  # everyone may be ready already: the night starts now


def take_over(s: Step, cmd: TakeOver) -> None:
    """PARTY-Q22: an admin (checked by the shell) switches to automatic mode and holds the rights."""
    st = s.st
    if st.over or st.phase is Phase.LOBBY:
        raise PhaseClosed(st.phase.value)
    if st.host:
        _end_host_mode(s, cmd.user_id, "takeover")
        if st.pause and st.pause.reason == "host_lost":
            thaw(s, cmd.user_id, auto=False)
    if cmd.user_id is not None and cmd.user_id != st.organiser:
        st.organiser = cmd.user_id
        s.emit(OrganiserChanged(user_id=cmd.user_id))


def mark_inactive(s: Step, cmd: MarkInactive) -> None:
    """PARTY-41, PARTY-Q20: lost connection keeps the player alive with his role."""
    st = s.st
    if st.over:
        raise PhaseClosed("game over")
    uid = cmd.player
    if uid == st.host and st.phase is not Phase.LOBBY:
        if not st.host_active:
            return
        st.host_active = False
        s.emit(PlayerInactive(user_id=uid, reason=cmd.reason))
        if st.pause is None:  # PARTY-46
            freeze(s, None, "host_lost", None)
        elif st.pause.reason != "host_lost":
            st.pause.reason = "host_lost"
            nt = s.set_timer("host_wait", s.rs.host_wait)
            s.emit(Paused(by=None, reason="host_lost", remaining=st.pause.frozen_remaining,
                          timer_seq=nt.seq, seconds=nt.seconds))
        return
    p = st.players.get(uid)
    if p is None or not p.seat:
        raise NotInGame()
    if not p.active:
        return
    p.active = False
    s.emit(PlayerInactive(user_id=uid, reason=cmd.reason))
    if uid == st.organiser and not st.host:  # PARTY-45, PARTY-Q22
        seated = st.seated()
        i = seated.index(p)
        for q in seated[i + 1:] + seated[:i]:
            if q.alive and q.active:
                st.organiser = q.user_id
                s.emit(OrganiserChanged(user_id=q.user_id))
                break
    _after_presence_change(s)


def _after_presence_change(s: Step) -> None:
    """An inactive player no longer holds anything up (PARTY-42/43)."""
    st = s.st
    if st.pause:
        return
    if st.phase in (Phase.SPEECH, Phase.DEFENCE, Phase.LAST_WORD) and st.speaker is not None \
            and not st.players[st.speaker].active:
        flow.next_turn(s)
    elif st.phase is Phase.READY:
        flow.ready_progress(s, None)
    elif st.phase is Phase.NIGHT and flow.night_complete(s):
        flow.end_night(s, timed_out=False)
    elif st.phase is Phase.VOTING and flow.everyone_voted(s, st.vote_round().votes):
        flow.close_round(s)
    elif st.phase is Phase.EXCLUDE_VOTE and flow.everyone_voted(s, st.exclude_votes):
        flow.close_exclude_vote(s)
    else:  # a phase of the preset's own (a ballot may be complete, a best move lost...)
        s.game.presence_changed(s)


def reactivate(s: Step, uid: int | None) -> None:
    """PARTY-44: any action of an inactive player (or a lost host) brings him back."""
    st = s.st
    if uid is None or st.phase is Phase.LOBBY or st.over:
        return
    if uid == st.host and not st.host_active:
        st.host_active = True
        s.emit(PlayerActive(user_id=uid))
        if st.pause and st.pause.reason == "host_lost":
            thaw(s, uid, auto=True)
        return
    p = st.players.get(uid)
    if p and p.seat and not p.active:
        p.active = True
        p.afk = False  # ONLINE-49: back ONLINE from OFFLINE or AFK
        p.misses = 0
        s.emit(PlayerActive(user_id=uid))


def mark_active(s: Step, cmd: MarkActive) -> None:
    st = s.st
    if cmd.user_id != st.host and (cmd.user_id not in st.players):
        raise NotInGame()
    # reactivation itself is done by apply() for every command; nothing else to do


def ensure_not_paused(s: Step) -> None:
    if s.st.pause:
        raise GamePaused()
