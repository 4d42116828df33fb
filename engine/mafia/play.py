"""In-game commands: readiness, speeches, nominations, votes, night actions, timeouts."""

from __future__ import annotations

from ..core.audience import Private
from ..core.errors import (
    AlreadyActed,
    AlreadyNominated,
    AlreadyVoted,
    DuplicateNomination,
    InvalidTarget,
    NoNightAction,
    NotAllowed,
    NotInGame,
    NotYourTurn,
    PhaseClosed,
    PlayerDead,
    TargetNotAlive,
)
from . import control, flow, night
from .commands import (
    CastExcludeVote,
    CastVote,
    Continue,
    EndSpeech,
    HostNext,
    MarkReady,
    NightAction,
    Nominate,
    PhaseTimeout,
    RelayMessage,
)
from .events import (
    ContinueAvailable,
    ExcludeVoteCast,
    MafiaPicks,
    NightActionAccepted,
    NominationAccepted,
    RelayedMessage,
    VoteCast,
)
from .roles import Role, Team
from .rules import rules_of
from .state import GameState, Phase, Player
from .step import Step

MAX_RELAY_TEXT = 1000


def living_player(s: Step, uid: int | None) -> Player:
    p = s.st.players.get(uid) if uid is not None else None
    if p is None or not p.seat:
        raise NotInGame()
    if not p.alive:
        raise PlayerDead()  # PARTY-49: the eliminated act no more
    return p


def _expect(s: Step, *phases: Phase) -> None:
    if s.st.phase not in phases:
        raise PhaseClosed(s.st.phase.value)


# --- readiness -------------------------------------------------------------------------------
def mark_ready(s: Step, cmd: MarkReady) -> None:
    _expect(s, Phase.READY)
    st = s.st
    p = living_player(s, cmd.user_id)
    if p.user_id in st.ready:
        raise AlreadyActed()
    st.ready.add(p.user_id)
    p.misses = 0
    flow.ready_progress(s, p.user_id)


def continue_(s: Step, cmd: Continue) -> None:
    """PARTY-39: after the ready-wait any active living player may move on."""
    _expect(s, Phase.READY)
    p = living_player(s, cmd.user_id)
    if not s.st.continue_allowed:
        raise PhaseClosed("ready-wait not over")
    s.st.ready.add(p.user_id)  # PARTY-X25: whoever moves on is present himself
    _force_night(s)


def _force_night(s: Step) -> None:
    night.record_misses(s, set(s.st.ready))
    flow.start_night(s)


# --- speeches and nominations ----------------------------------------------------------------
def end_speech(s: Step, cmd: EndSpeech) -> None:
    """PARTY-35/36: only the current speaker (or the host) ends a turn early."""
    _expect(s, Phase.SPEECH, Phase.DEFENCE, Phase.LAST_WORD)
    if cmd.user_id is None or cmd.user_id not in (s.st.speaker, s.st.host):
        raise NotYourTurn()
    flow.next_turn(s)


def nominate(s: Step, cmd: Nominate) -> None:
    """PARTY-08/09, PARTY-Q03."""
    _expect(s, Phase.SPEECH)
    st = s.st
    if cmd.user_id is None or cmd.user_id != st.speaker:
        raise NotYourTurn()
    if st.nominated_in_speech:
        raise AlreadyNominated()
    if not st.is_alive(cmd.target):
        raise TargetNotAlive()
    if cmd.target in st.nominations:
        raise DuplicateNomination()
    st.nominations.append(cmd.target)
    st.nominated_by[cmd.target] = cmd.user_id
    st.nominated_in_speech = True
    s.emit(NominationAccepted(by=cmd.user_id, target=cmd.target,
                              candidates=tuple(st.nominations)))


# --- votes -----------------------------------------------------------------------------------
def cast_vote(s: Step, cmd: CastVote) -> None:
    """PARTY-14..17: one vote a round, only for the candidate whose window is open."""
    _expect(s, Phase.VOTING)
    st = s.st
    p = living_player(s, cmd.user_id)
    if p.user_id in st.vote_round().votes:
        raise AlreadyVoted()
    if cmd.target != st.vote_round().current:
        raise InvalidTarget()
    st.vote_round().votes[p.user_id] = cmd.target
    voters = tuple(v for v, t in st.vote_round().votes.items() if t == cmd.target)
    s.emit(VoteCast(voter=p.user_id, candidate=cmd.target, voters=voters))
    if flow.everyone_voted(s, st.vote_round().votes):
        flow.close_round(s)


def cast_exclude_vote(s: Step, cmd: CastExcludeVote) -> None:
    _expect(s, Phase.EXCLUDE_VOTE)
    st = s.st
    p = living_player(s, cmd.user_id)
    if p.user_id in st.exclude_votes:
        raise AlreadyVoted()
    st.exclude_votes[p.user_id] = cmd.yes
    s.emit(ExcludeVoteCast(voter=p.user_id, yes=cmd.yes,
                           yes_votes=tuple(u for u, v in st.exclude_votes.items() if v),
                           no_votes=tuple(u for u, v in st.exclude_votes.items() if not v)))
    if flow.everyone_voted(s, st.exclude_votes):
        flow.close_exclude_vote(s)


# --- night -----------------------------------------------------------------------------------
def night_actions_for(st: GameState, p: Player) -> tuple[str, ...]:
    """Actions a living player may take tonight (PARTY-06: only 'sleep' on the first night)."""
    if st.night <= 1:
        return ("sleep",)
    if p.role is Role.MAFIA:
        return ("kill",)
    if p.role is Role.DON:  # CLUB-31, ONLINE-15: he shoots and looks for the Sheriff
        if rules_of(st).don_check_optional:  # ONLINE-Q15: Sleep skips the search
            return ("kill", "don_check", "sleep")
        return ("kill", "don_check")
    if p.role is Role.SHERIFF:  # CLUB-32, ONLINE-10
        return ("sheriff_check", "sleep")
    if p.role is Role.COMMISSAR:
        return ("check", "sleep")
    if p.role is Role.DOCTOR:
        return ("heal", "sleep")
    return ("sleep",)


def valid_targets(st: GameState, p: Player, action: str) -> list[int]:
    alive = [q.user_id for q in st.alive()]
    if action in ("check", "sheriff_check"):  # PARTY-Q12, CLUB-Q12: any other living player
        return [u for u in alive if u != p.user_id]
    if action == "don_check":  # CLUB-Q11, ONLINE-Q13: living players outside his team
        return [q.user_id for q in st.alive() if q.team is not Team.MAFIA]
    if action in ("kill", "heal"):  # PARTY-Q11, PARTY-29
        return alive
    return []


def night_action(s: Step, cmd: NightAction) -> None:
    _expect(s, Phase.NIGHT)
    st = s.st
    p = living_player(s, cmd.user_id)
    if cmd.action not in night_actions_for(st, p):
        raise NoNightAction(cmd.action)
    if cmd.action == "sleep":
        target = None
    else:
        if cmd.target is None or not st.is_alive(cmd.target):
            raise TargetNotAlive()
        if cmd.target not in valid_targets(st, p, cmd.action):
            raise InvalidTarget()
        target = cmd.target
    p.misses = 0
    if cmd.action == "kill":
        assert target is not None  # only "sleep" has none
        if s.rs.final_shots and p.user_id in st.mafia_picks:  # CLUB-Q09: a shot is final
            raise AlreadyActed()
        st.mafia_picks[p.user_id] = target  # party: changeable until the night closes
        s.emit(NightActionAccepted(user_id=p.user_id, action="kill", target=target,
                                   audience=Private(p.user_id)))
        if not s.rs.final_shots:  # CLUB-10: blind shots; party: the team sees the picks
            s.emit(MafiaPicks(picks=tuple((m.user_id, st.mafia_picks.get(m.user_id))
                                          for m in st.mafia_alive()),
                              agreed=night.agreed_target(st)))
    else:
        if p.user_id in st.night_actions:
            raise AlreadyActed()
        st.night_actions[p.user_id] = (cmd.action, target)
        s.emit(NightActionAccepted(user_id=p.user_id, action=cmd.action, target=target,
                                   audience=Private(p.user_id)))
        if cmd.action in ("check", "sheriff_check", "don_check") and not s.rs.checks_at_dawn:
            assert target is not None  # only "sleep" has none
            night.check_result(s, p.user_id, target, cmd.action)
    if flow.night_complete(s):
        flow.end_night(s, timed_out=False)


def relay(s: Step, cmd: RelayMessage) -> None:
    """PARTY-Q11/Q24: living mafiosi talk through the bot at night only."""
    _expect(s, Phase.NIGHT)
    p = living_player(s, cmd.user_id)
    if p.team is not Team.MAFIA:
        raise NotAllowed()
    if s.rs.relay == "intro" and s.st.night != 1:  # CLUB-10, ONLINE-39: night 1 only
        raise PhaseClosed("the team chat is closed")
    s.emit(RelayedMessage(sender=p.user_id, text=cmd.text[:MAX_RELAY_TEXT]))


# --- host and timers -------------------------------------------------------------------------
def host_next(s: Step, cmd: HostNext) -> None:
    """PARTY-Q18: the host's "Next" moves the current phase on, as its deadline would."""
    st = s.st
    if cmd.user_id is None or cmd.user_id != st.host:
        raise NotAllowed()
    if st.phase is Phase.READY:
        flow.start_night(s)  # the host's Next replaces readiness: nobody missed a deadline
    elif st.phase in (Phase.SPEECH, Phase.DEFENCE, Phase.LAST_WORD):
        flow.next_turn(s)
    elif st.phase is Phase.VOTING:
        flow.advance_window(s)
    elif st.phase is Phase.EXCLUDE_VOTE:
        flow.close_exclude_vote(s)
    elif st.phase is Phase.NIGHT:
        flow.end_night(s, timed_out=True)
    elif not s.game.phase_timeout(s):  # a phase of the preset's own, or none to move on
        raise PhaseClosed(st.phase.value)


def phase_timeout(s: Step, cmd: PhaseTimeout) -> None:
    """A deadline passed. A timer that is no longer current is a no-op (design.md §2)."""
    st = s.st
    t = st.timer
    if t is None or t.seq != cmd.timer_seq:
        return
    if t.kind in ("pause", "host_wait"):  # every kind a Step can arm is handled below
        control.pause_expired(s)
    elif s.game.phase_timeout(s):  # a phase of the preset's own (online: the ballot...)
        pass
    elif t.kind in ("speech", "defence", "last_word", "silenced"):
        flow.next_turn(s)
    elif t.kind == "vote":
        if st.phase is Phase.VOTING:
            flow.advance_window(s)
        else:
            flow.close_exclude_vote(s)
    elif t.kind in ("night", "meeting"):
        flow.end_night(s, timed_out=True)
    elif t.kind == "ready_wait":  # PARTY-39
        st.continue_allowed = True
        grace = s.set_timer("ready_grace", st.timings["ready_wait"])  # PARTY-X01
        s.emit(ContinueAvailable(timer_seq=grace.seq, seconds=grace.seconds))
    elif t.kind == "ready_grace":  # PARTY-X01: nobody pressed Continue
        _force_night(s)
