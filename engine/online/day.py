"""The online sport preset's own algorithms (rule IDs in docs/rules/online-sport.md).

Theory of operation
-------------------
The online preset keeps the shared machinery of :mod:`engine.mafia.flow` (turns, last words, the
win check, the night's collection of actions) and replaces four steps: its
:class:`~engine.online.variant.OnlineVariant` overrides ``start_day``, ``defences_done``,
``night_complete`` and ``end_night`` with the functions here.  Three modules:

* :mod:`engine.mafia.presence` -- **who counts**: ``counted(st)``, the living players who are not AFK
  (ONLINE-50), and ``MarkAfk``.  An OFFLINE player (the engine's *inactive*) still counts: he is
  required at night, awaited by the votes and part of N; only AFK takes him out.  Turns
  (defences, last words, the best move) of an OFFLINE or AFK player are skipped (PARTY-42).
* this module -- **the day** (ONLINE-Q02): one DISCUSSION phase with the ballot live the whole
  time.  A player's first :class:`TapVote` is preliminary, the second final (Q04); the ballot
  closes at the timer or once every counted player has a final vote.  At the close a
  preliminary vote counts, no tap is PASS (Q03).  No vote for a player → night; day 1 with
  exactly one such vote → night (ONLINE-23); a sole leader leaves with a last word; a tie goes by
  :func:`tie_outcome` with N fixed when the day's vote opened (ONLINE-24..34, Q07, Q08): a revote
  among the leaders (no PASS) or a Lift/Leave vote, each after the candidates' defences in seat
  order (Q11).  A revote tied by the same set → lift; by a smaller set → another revote.  Lift
  passes with ⌊N/2⌋+1 Lift taps, N counted when the lift vote opens (Q09).  Also the online
  ``legal_actions`` fields and who may post in the group.
* :mod:`.night` -- **the night** (ONLINE-05, 12..15, Q13..Q16): it closes early only when
  every counted player is done; the shot kills when every counted black chose the same living
  target, anything else is a misfire, and the third in a row gives Town the win that morning;
  a kill resets the count.  **The best move** (ONLINE-07/08, Q12): the victim of night 2's shot,
  if it killed, names three living players or skips, then says his last word.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.errors import AlreadyVoted, InvalidTarget, NotInGame, PhaseClosed, PlayerDead, TargetNotAlive
from ..mafia import flow
from ..mafia.events import DayWithoutElimination, ExcludeVoteResult, TieRevote, VoteResult
from ..mafia.presence import counted
from ..mafia.state import GameState, Phase, Player, VoteRound
from ..mafia.step import Step
from .commands import TapLift, TapVote
from .events import LiftCalled, LiftTapped, VoteTapped
from .night import best_move_choices, finish_best_move
from .phases import OnlinePhase
from .state import Ballot

#: the phases this module runs (their deadlines and the host's Next come here)
PHASES = (OnlinePhase.DISCUSSION, OnlinePhase.REVOTE, OnlinePhase.LIFT_VOTE, OnlinePhase.BEST_MOVE)
#: ONLINE-Q11: the longest defence text the bot publishes for a candidate (characters)
MAX_DEFENCE_TEXT = 500


def _living(s: Step, uid: int | None) -> Player:
    p = s.st.players.get(uid) if uid is not None else None
    if p is None or not p.seat:
        raise NotInGame()
    if not p.alive:
        raise PlayerDead()
    return p


def _ballot(st: GameState) -> Ballot:
    """The open ballot (``st.ballot``) of an online day."""
    assert isinstance(st.ballot, Ballot), "an online ballot is open"
    return st.ballot


def _seat_order(st: GameState, uids: Iterable[int]) -> list[int]:
    return sorted(uids, key=lambda u: st.players[u].seat)


# --- the day ---------------------------------------------------------------------------------
def start_day(s: Step) -> None:
    """The online ``start_day``: the discussion with the ballot open (ONLINE-03, Q02)."""
    st = s.st
    if not st.alive_active():  # PARTY-X23: nobody left at the table
        flow.abandon(s)
        return
    st.day += 1
    st.nominations, st.nominated_by, st.vote = [], {}, None
    st.ballot = Ballot(stage="day", candidates=[], n=len(counted(st)))
    s.new_phase(OnlinePhase.DISCUSSION, "discussion", purpose="day")


def choices(st: GameState) -> list[int]:
    """Whom the open ballot offers (user ids, seat order): any living player on the day (Q05),
    the leaders in a revote (ONLINE-34)."""
    b = st.ballot
    if b is None or st.phase not in (OnlinePhase.DISCUSSION, OnlinePhase.REVOTE):
        return []
    if b.stage == "day":
        return [p.user_id for p in st.alive()]
    return [u for u in b.candidates if st.is_alive(u)]


def tap_vote(s: Step, cmd: TapVote) -> None:
    """ONLINE-16..19, 34, Q04/Q05: first tap preliminary, second final; a final vote stands."""
    st = s.st
    if st.phase not in (OnlinePhase.DISCUSSION, OnlinePhase.REVOTE):
        raise PhaseClosed(st.phase.value)
    p = _living(s, cmd.user_id)
    b = st.ballot
    if b.stage == "day":
        if cmd.target is not None and not st.is_alive(cmd.target):
            raise TargetNotAlive()
    elif cmd.target is None or cmd.target not in choices(st):  # ONLINE-34: no PASS, leaders only
        raise InvalidTarget()
    _tap(s, p.user_id, cmd.target)
    s.emit(VoteTapped(voter=p.user_id, stage=b.stage, target=cmd.target,
                      final=b.taps[p.user_id][1], votes=_votes(st)))
    if _complete(st):
        close_vote(s)


def tap_lift(s: Step, cmd: TapLift) -> None:
    """ONLINE-Q09: every living player taps Lift or Leave, preliminary then final."""
    st = s.st
    if st.phase is not OnlinePhase.LIFT_VOTE:
        raise PhaseClosed(st.phase.value)
    p = _living(s, cmd.user_id)
    _tap(s, p.user_id, bool(cmd.lift))
    s.emit(LiftTapped(voter=p.user_id, lift=bool(cmd.lift), final=st.ballot.taps[p.user_id][1],
                      votes=tuple((u, bool(lift), final) for u, lift, final in _votes(st))))
    if _complete(st):
        close_lift(s)


def _tap(s: Step, uid: int, choice: int | None) -> None:
    """Record ``uid``'s tap: a candidate or None (PASS), or a bool on the lift ballot."""
    taps = _ballot(s.st).taps
    before = taps.get(uid)
    if before is not None and before[1]:
        raise AlreadyVoted("your vote is final")  # ONLINE-18
    taps[uid] = (choice, before is not None)  # ONLINE-17, Q04: the second tap is final


def _votes(st: GameState) -> tuple[tuple[int, int | None, bool], ...]:
    taps = _ballot(st).taps
    return tuple((u, taps[u][0], taps[u][1]) for u in _seat_order(st, taps))


def _complete(st: GameState) -> bool:
    """Every counted player has a final vote (Q02, Q09)."""
    taps = st.ballot.taps
    return all(p.user_id in taps and taps[p.user_id][1] for p in counted(st))


def close_vote(s: Step) -> None:
    """ONLINE-19, 22, 23, Q03: tally (preliminary = final, no tap = PASS), then the outcome."""
    st = s.st
    b = st.ballot
    votes = {u: c for u, (c, _) in b.taps.items() if st.is_alive(u)}
    if b.stage == "day":
        names = _seat_order(st, {c for c in votes.values() if c is not None and st.is_alive(c)})
    else:
        names = [c for c in b.candidates if st.is_alive(c)]
    tally = {c: _seat_order(st, [v for v, t in votes.items() if t == c]) for c in names}
    top = max((len(v) for v in tally.values()), default=0)
    leaders = tuple(c for c in names if len(tally[c]) == top)  # a revote nobody voted in: all
    s.emit(VoteResult(tally=tuple((c, tuple(tally[c])) for c in names), leaders=leaders))
    if not leaders:  # ONLINE-19: PASS never makes a leader
        _no_elimination(s, "all_pass")
        return
    if b.stage == "day" and st.day == 1 and sum(len(v) for v in tally.values()) == 1:
        _no_elimination(s, "day1_single_vote", leaders)  # ONLINE-23, Q06
        return
    if len(leaders) == 1:  # ONLINE-22
        flow.eliminate(s, leaders[0], "vote")
        st.after_last_words = "night"
        flow.start_last_words(s)
        return
    outcome = tie_outcome(b.n, len(leaders), b.stage,
                          same=b.stage == "revote" and set(leaders) == set(names))
    if outcome == "night":
        _no_elimination(s, "tie_at_ten", leaders)  # ONLINE-25
        return
    cands = _seat_order(st, leaders)
    if outcome == "revote":
        s.emit(TieRevote(candidates=tuple(cands)))
    else:
        s.emit(LiftCalled(candidates=tuple(cands), n=b.n))
    st.ballot = Ballot(stage=outcome, candidates=cands, n=b.n)
    st.vote = VoteRound(candidates=list(cands))  # the defences show the candidates
    flow.start_turns(s, Phase.DEFENCE, list(cands))  # ONLINE-Q11: 30-s defences, seat order


def tie_outcome(n: int, leaders: int, stage: str, same: bool = False) -> str:
    """The tie table (ONLINE-24..31, Q07, Q08): 'revote' | 'lift' | 'night'.

    ``n``: N of the day (living non-AFK players when its vote opened); ``leaders``: how many are
    tied; ``stage``: the vote that tied ('day' or 'revote'); ``same``: a revote tied among
    exactly its own candidates again.
    """
    if stage == "revote":
        return "lift" if same else "revote"  # ONLINE-28..30, Q07/Q08
    if n == 10:
        return "lift" if leaders == 2 else "night"  # ONLINE-24, 25, 26
    if n in (8, 6) and leaders == 2:
        return "lift"  # ONLINE-24
    return "revote"  # 9 (ONLINE-27), 8 with 4 (29), 6 with 3 (30), other odd (31), the rest (Q07)


def defences_done(s: Step) -> None:
    """The online ``defences_done``: open the revote or the lift vote."""
    st = s.st
    b = st.ballot
    if b.stage == "revote":
        s.new_phase(OnlinePhase.REVOTE, "vote", candidates=tuple(b.candidates), purpose="revote")
        return
    b.base = len(counted(st))  # ONLINE-Q09: N when the lift vote opens
    s.new_phase(OnlinePhase.LIFT_VOTE, "lift", candidates=tuple(b.candidates), purpose="lift")


def lift_needed(st: GameState) -> int:
    """ONLINE-32: ⌊N/2⌋ + 1 Lift votes."""
    return _ballot(st).base // 2 + 1


def close_lift(s: Step) -> None:
    """ONLINE-32, 33, Q09: lifted with ⌊N/2⌋+1 Lift taps (preliminary ones count, no tap is not
    Lift); otherwise the candidates stay and night falls."""
    st = s.st
    b = st.ballot
    cands = tuple(c for c in b.candidates if st.is_alive(c))
    lifts = sum(1 for u, (c, _) in b.taps.items() if c is True and st.is_alive(u))
    needed = lift_needed(st)
    passed = lifts >= needed
    s.emit(ExcludeVoteResult(candidates=cands, yes=lifts, needed=needed, passed=passed))
    if not passed:
        _no_elimination(s, "lift_failed", cands)
        return
    for uid in cands:  # already in seat order
        flow.eliminate(s, uid, "lift")
    st.after_last_words = "night"
    flow.start_last_words(s)


def _no_elimination(s: Step, reason: str, candidates: Iterable[int] = ()) -> None:
    s.emit(DayWithoutElimination(reason=reason, candidates=tuple(candidates)))
    flow.start_night_gate(s)


# --- deadlines, the host, presence -----------------------------------------------------------
def phase_timeout(s: Step) -> None:
    """The deadline of an online phase passed (or the host pressed Next)."""
    ph = s.st.phase
    if ph in (OnlinePhase.DISCUSSION, OnlinePhase.REVOTE):
        close_vote(s)
    elif ph is OnlinePhase.LIFT_VOTE:
        close_lift(s)
    elif ph is OnlinePhase.BEST_MOVE:
        finish_best_move(s, ())


def presence_changed(s: Step) -> None:
    """A player went OFFLINE or AFK: a ballot may now be complete; a victim who dropped out
    loses his best move."""
    st = s.st
    if st.phase in (OnlinePhase.DISCUSSION, OnlinePhase.REVOTE) and _complete(st):
        close_vote(s)
    elif st.phase is OnlinePhase.LIFT_VOTE and _complete(st):
        close_lift(s)
    elif st.phase is OnlinePhase.BEST_MOVE and st.speaker is not None \
            and not st.players[st.speaker].active:
        finish_best_move(s, ())


# --- queries ---------------------------------------------------------------------------------
def legal(st: GameState, user_id: int) -> dict[str, Any]:
    """The online fields of :class:`~engine.online.actions.OnlineActions` for ``user_id``."""
    kw: dict[str, Any] = {}
    b = st.ballot
    if st.phase in (OnlinePhase.DISCUSSION, OnlinePhase.REVOTE) and st.is_alive(user_id):
        tap = b.taps.get(user_id)
        if tap is None or not tap[1]:
            kw["ballot"] = tuple(choices(st))
            kw["ballot_pass"] = b.stage == "day"
            kw["ballot_marked"] = tap is not None
            kw["ballot_mark"] = tap[0] if tap is not None else None
    elif st.phase is OnlinePhase.LIFT_VOTE and st.is_alive(user_id):
        tap = b.taps.get(user_id)
        if tap is None or not tap[1]:
            kw["lift_vote"] = True
            kw["lift_mark"] = tap[0] if tap is not None else None
    elif st.phase is OnlinePhase.BEST_MOVE:
        kw["best_move"] = tuple(best_move_choices(st, user_id))
    return kw


def may_write(st: GameState, user_id: int) -> bool:
    """ONLINE-35, 38, Q18 (for the bot's chat discipline): whether ``user_id`` may post in the
    group now -- the day discussion: every living player; a defence or last word: its speaker
    (through the bot, Q11); night, the votes after a tie, the best move, the end: nobody."""
    if st.phase is OnlinePhase.DISCUSSION:
        return st.is_alive(user_id)
    if st.phase in (Phase.DEFENCE, Phase.LAST_WORD):
        return user_id == st.speaker
    return False
