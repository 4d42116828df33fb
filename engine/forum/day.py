"""The forum preset's day (rule IDs in docs/rules/forum.md).

DEBATE (timer ``forum_day``): the discussion; it ends at its timer, the host's Next, or once every
living active player has tapped "ready to vote" (``MarkReady``, FORUM-X10).  Then one BALLOT
(timer ``forum_vote``, FORUM-52): every living player votes for another living player
(``CastVote``, changeable, the last vote counts; no PASS, no self-vote: FORUM-08, 10, Q05, Q07).
It closes at the deadline, the host's Next, or once every active voter has a vote (X11); a voter
with no vote then gets an automatic warning (FORUM-10, Q05).  A sole leader leaves (card shown,
a last word for Town status, FORUM-07, 13, 15, Q08, Q09); nobody voted for anybody -> nobody
(X13); everybody tied -> nobody (Q06); a tie -> a revote among the tied, who do not vote
(FORUM-11, 12); a tied revote -> with a host, his decision (``HostDecide``), else nobody (Q06).
Then night.  In a last word: ``NameSuspect`` (FORUM-14) and the Commissar's ``RevealCheck``
(FORUM-21).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.errors import (
    AlreadyActed,
    InvalidTarget,
    NotAllowed,
    NotInGame,
    NotYourTurn,
    PhaseClosed,
    PlayerDead,
    TargetNotAlive,
)
from ..mafia import flow
from ..mafia.commands import CastVote, MarkReady
from ..mafia.events import DayWithoutElimination, ReadyMarked, TieRevote, VoteResult
from ..mafia.roles import Role
from ..mafia.state import GameState, Phase, Player, VoteRound
from ..mafia.step import Step
from . import elimination
from . import moderation as forum_moderation
from .commands import HostDecide, NameSuspect, RevealCheck
from .events import BallotCast, CheckRevealed, SuspectNamed
from .phases import ForumPhase


def seat_order(st: GameState, uids: Iterable[int]) -> list[int]:
    return sorted(uids, key=lambda u: st.players[u].seat)


def _living(s: Step, uid: int | None) -> Player:
    p = s.st.players.get(uid) if uid is not None else None
    if p is None or not p.seat:
        raise NotInGame()
    if not p.alive:
        raise PlayerDead()
    return p


def start_day(s: Step) -> None:
    """FORUM hook of ``flow.start_day`` (FORUM-52): the discussion before the day's one vote."""
    st = s.st
    if not st.alive_active():  # PARTY-X23: nobody left at the table
        flow.abandon(s)
        return
    st.day += 1
    st.vote = None
    st.ready = set()
    st.forum.stage = ""
    s.new_phase(ForumPhase.DEBATE, "forum_day", purpose="day")


def mark_ready(s: Step, cmd: MarkReady) -> None:
    """FORUM-X10: "ready to vote" -- the vote opens once every living active player is ready."""
    st = s.st
    if st.phase is not ForumPhase.DEBATE:
        raise PhaseClosed(st.phase.value)
    p = _living(s, cmd.user_id)
    if p.user_id in st.ready:
        raise AlreadyActed()
    st.ready.add(p.user_id)
    ready_progress(s, p.user_id)


def ready_progress(s: Step, uid: int | None) -> None:
    st = s.st
    waiting = [p.user_id for p in st.alive_active() if p.user_id not in st.ready]
    if uid is not None:
        total = len(st.alive_active())
        s.emit(ReadyMarked(user_id=uid, ready=total - len(waiting), total=total,
                           waiting=tuple(waiting)))
    if not waiting:
        open_ballot(s)


def open_ballot(s: Step) -> None:
    """FORUM-07..10, Q05, Q07: everyone votes for another living player."""
    st = s.st
    st.vote = VoteRound(candidates=[])
    st.forum.stage = "vote"
    s.new_phase(ForumPhase.BALLOT, "forum_vote", purpose="vote")


def voters(st: GameState) -> list[Player]:
    """Who votes in the open ballot: every living player; in a revote not the tied (FORUM-12)."""
    stage = st.forum.stage
    if stage == "vote":
        return st.alive()
    if stage == "revote":
        candidates = st.vote_round().candidates
        return [p for p in st.alive() if p.user_id not in candidates]
    return []


def votes_now(st: GameState, uid: int) -> bool:
    return any(p.user_id == uid for p in voters(st))


def choices(st: GameState, uid: int) -> list[int]:
    """Whom ``uid`` may vote for: another living player (Q05, Q07); the tied in a revote."""
    if st.forum.stage == "revote":
        return [c for c in st.vote_round().candidates if st.is_alive(c)]
    return [p.user_id for p in st.alive() if p.user_id != uid]


def cast_vote(s: Step, cmd: CastVote) -> None:
    """FORUM-08, 11, 12, Q05: one vote, changeable until the ballot closes (the last counts)."""
    st = s.st
    if st.phase is not ForumPhase.BALLOT or st.forum.stage not in ("vote", "revote"):
        raise PhaseClosed(st.phase.value)
    p = _living(s, cmd.user_id)
    if not votes_now(st, p.user_id):
        raise NotAllowed("the tied do not vote in the revote")
    if not st.is_alive(cmd.target):
        raise TargetNotAlive()
    if cmd.target not in choices(st, p.user_id):
        raise InvalidTarget()
    ballot = st.vote_round().votes
    ballot[p.user_id] = cmd.target
    votes = tuple((v, ballot[v]) for v in seat_order(st, ballot))
    s.emit(BallotCast(voter=p.user_id, target=cmd.target, stage=st.forum.stage, votes=votes))
    if ballot_complete(st):
        close_ballot(s)


def ballot_complete(st: GameState) -> bool:
    """FORUM-X11: every active voter has a vote (the deadline waits for nobody else)."""
    votes = st.vote_round().votes
    return all(p.user_id in votes for p in voters(st) if p.active)


def close_ballot(s: Step) -> None:
    """FORUM-07, 10..12, Q05, Q06: warnings for the missing votes, the tally, the outcome."""
    st = s.st
    f = st.forum
    stage = f.stage
    if stage == "host":  # the host let the deadline pass: nobody leaves (Q06)
        _no_elimination(s, "tie_again", st.vote_round().candidates)
        return
    vote = st.vote_round()
    removed = False
    for p in voters(st):
        if p.user_id not in vote.votes:  # FORUM-10, Q05: no abstaining
            removed |= forum_moderation.add_warning(s, p.user_id, None, "no_vote")
    if removed and elimination.check_win(s):
        return
    votes = {v: t for v, t in vote.votes.items() if st.is_alive(v) and st.is_alive(t)}
    if stage == "revote":
        names = [c for c in vote.candidates if st.is_alive(c)]
    else:
        names = seat_order(st, set(votes.values()))
    tally = {c: seat_order(st, [v for v, t in votes.items() if t == c]) for c in names}
    top = max((len(v) for v in tally.values()), default=0)
    leaders = tuple(c for c in names if len(tally[c]) == top)  # a revote nobody voted in: all
    s.emit(VoteResult(tally=tuple((c, tuple(tally[c])) for c in names), leaders=leaders))
    if not top and len(leaders) < 2:  # X13: nobody voted for anybody
        _no_elimination(s, "no_votes", leaders)
    elif len(leaders) == 1:
        _out(s, leaders[0], "vote")
    elif stage == "vote" and len(leaders) == len(st.alive()):
        _no_elimination(s, "all_tied", leaders)  # Q06: nobody would be left to vote
    elif stage == "vote":
        s.emit(TieRevote(candidates=leaders))
        st.vote = VoteRound(candidates=list(leaders), previous_tie=leaders)
        f.stage = "revote"
        s.new_phase(ForumPhase.BALLOT, "forum_vote", purpose="revote", candidates=leaders)
    elif st.host is not None and st.host_active:  # Q06: the host may settle it
        st.vote = VoteRound(candidates=list(leaders), previous_tie=leaders)
        f.stage = "host"
        s.new_phase(ForumPhase.BALLOT, "forum_vote", purpose="host", candidates=leaders)
    else:
        _no_elimination(s, "tie_again", leaders)


def host_decide(s: Step, cmd: HostDecide) -> None:
    """FORUM-Q06: after a tied revote the host removes one of the tied, or nobody."""
    st = s.st
    if st.phase is not ForumPhase.BALLOT or st.forum.stage != "host":
        raise PhaseClosed(st.phase.value)
    if cmd.user_id is None or cmd.user_id != st.host:
        raise NotAllowed()
    if cmd.target is None:
        _no_elimination(s, "host_spared", st.vote_round().candidates)
        return
    if cmd.target not in st.vote_round().candidates:
        raise InvalidTarget()
    if not st.is_alive(cmd.target):
        raise TargetNotAlive()
    _out(s, cmd.target, "host_decision")


def _out(s: Step, uid: int, cause: str) -> None:
    elimination.eliminate(s, uid, cause)
    elimination.settle(s)
    s.st.after_last_words = "night"
    flow.start_last_words(s)


def _no_elimination(s: Step, reason: str, candidates: Iterable[int] = ()) -> None:
    s.emit(DayWithoutElimination(reason=reason, candidates=tuple(candidates)))
    flow.start_night_gate(s)


# --- last words --------------------------------------------------------------------------------
def _speaker(s: Step, uid: int | None) -> Player:
    st = s.st
    if st.phase is not Phase.LAST_WORD:
        raise PhaseClosed(st.phase.value)
    if uid is None or uid != st.speaker:
        raise NotYourTurn()
    return st.players[uid]


def name_suspect(s: Step, cmd: NameSuspect) -> None:
    """FORUM-14: advice only; once, in his own last word, a living player."""
    p = _speaker(s, cmd.user_id)
    f = s.st.forum
    if p.user_id in f.named:
        raise AlreadyActed()
    if not s.st.is_alive(cmd.target):
        raise TargetNotAlive()
    f.named.add(p.user_id)
    s.emit(SuspectNamed(user_id=p.user_id, target=cmd.target))


def checked(st: GameState, uid: int) -> dict[int, bool]:
    """The answers the Commissar ``uid`` got, by target (the latest one per target)."""
    return dict(st.forum.checks.get(uid, ()))


def reveal_check(s: Step, cmd: RevealCheck) -> None:
    """FORUM-20, 21: only in his own last word, one player he checked, the answer he got."""
    p = _speaker(s, cmd.user_id)
    f = s.st.forum
    if p.role is not Role.COMMISSAR:
        raise NotAllowed()
    if p.user_id in f.shown:
        raise AlreadyActed()
    answers = checked(s.st, p.user_id)
    if cmd.target not in answers:
        raise InvalidTarget("not one he checked")
    f.shown.add(p.user_id)
    s.emit(CheckRevealed(user_id=p.user_id, target=cmd.target, is_mafia=answers[cmd.target]))
