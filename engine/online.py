"""The online sport preset's own algorithms (rule IDs in docs/rules/online-sport.md).

Theory of operation
-------------------
A preset whose rule set has ``hooks == "online"`` keeps the shared machinery of :mod:`.flow`
(turns, last words, the win check, the night's collection of actions) and replaces four steps
with the functions here; ``flow`` calls them where marked ``ONLINE hook``.

* **Who counts.** ``counted(st)``: the living players who are not AFK (ONLINE-50).  An OFFLINE
  player (the engine's *inactive*) still counts: he is required at night, awaited by the votes
  and part of N; only AFK takes him out.  Turns (defences, last words, the best move) of an
  OFFLINE or AFK player are skipped, as everywhere (PARTY-42).
* **Day** (ONLINE-Q02): one DISCUSSION phase with the ballot live the whole time.  A player's
  first :class:`TapVote` is preliminary, the second final (Q04); the ballot closes at the timer or
  once every counted player has a final vote.  At the close a preliminary vote counts, no tap is
  PASS (Q03).  No vote for a player → night; day 1 with exactly one such vote → night
  (ONLINE-23); a sole leader leaves with a last word; a tie goes by :func:`tie_outcome`.
* **Ties** (ONLINE-24..34, Q07, Q08) with N fixed when the day's vote opened: a revote among
  the leaders (no PASS) or a Lift/Leave vote, each after the candidates' defences in seat order
  (Q11).  A revote tied by the same set → lift; by a smaller set → another revote.  Lift passes
  with ⌊N/2⌋+1 Lift taps, N counted when the lift vote opens (Q09).
* **Night** (ONLINE-05, 12..15, Q13..Q16): night 1 is the blacks' meeting plus everybody's
  Sleep tap; from night 2 every black shoots once, the Don also searches for the Sheriff (or
  skips with Sleep), the Sheriff checks or sleeps, civilians sleep.  The night closes early only
  when every counted player is done.  The shot kills when every counted black chose the same
  living target; anything else is a misfire, and the third in a row gives Town the win that
  morning.  A kill resets the count.
* **Best move** (ONLINE-07/08, Q12): the victim of night 2's shot (the first night with a shot),
  if it killed, names three living players or skips, then says his last word.
"""

from __future__ import annotations

from . import flow
from .commands import ChooseBestMove, MarkAfk, TapLift, TapVote
from .errors import (
    AlreadyVoted, InvalidTarget, NotAllowed, NotInGame, NotYourTurn, PhaseClosed, PlayerDead,
    TargetNotAlive,
)
from .events import (
    BestMove, DayWithoutElimination, ExcludeVoteResult, LiftCalled, LiftTapped, Misfire,
    NightResult, PlayerAfk, TieRevote, VoteResult, VoteTapped,
)
from .roles import Role, Team
from .state import Ballot, GameState, Phase, Player, VoteRound
from .step import Step

#: the phases this module runs (their deadlines and the host's Next come here)
PHASES = (Phase.DISCUSSION, Phase.REVOTE, Phase.LIFT_VOTE, Phase.BEST_MOVE)
#: ONLINE-08: the best move names exactly this many players
BEST_MOVE_SIZE = 3
#: ONLINE-Q11: the longest defence text the bot publishes for a candidate (characters)
MAX_DEFENCE_TEXT = 500


def counted(st: GameState) -> list[Player]:
    """ONLINE-50: the living players who are not AFK, in seat order (OFFLINE ones included)."""
    return [p for p in st.alive() if not p.afk]


def _living(s: Step, uid: int | None) -> Player:
    p = s.st.players.get(uid) if uid is not None else None
    if p is None or not p.seat:
        raise NotInGame()
    if not p.alive:
        raise PlayerDead()
    return p


def _seat_order(st: GameState, uids) -> list[int]:
    return sorted(uids, key=lambda u: st.players[u].seat)


# --- the day ---------------------------------------------------------------------------------
def start_day(s: Step) -> None:
    """ONLINE hook of ``flow.start_day``: the discussion with the ballot open (ONLINE-03, Q02)."""
    st = s.st
    if not st.alive_active():  # PARTY-X23: nobody left at the table
        flow.abandon(s)
        return
    st.day += 1
    st.nominations, st.nominated_by, st.vote = [], {}, None
    st.ballot = Ballot(stage="day", candidates=[], n=len(counted(st)))
    s.new_phase(Phase.DISCUSSION, "discussion", purpose="day")


def choices(st: GameState) -> list[int]:
    """Whom the open ballot offers (user ids, seat order): any living player on the day (Q05),
    the leaders in a revote (ONLINE-34)."""
    b = st.ballot
    if b is None or st.phase not in (Phase.DISCUSSION, Phase.REVOTE):
        return []
    if b.stage == "day":
        return [p.user_id for p in st.alive()]
    return [u for u in b.candidates if st.is_alive(u)]


def tap_vote(s: Step, cmd: TapVote) -> None:
    """ONLINE-16..19, 34, Q04/Q05: first tap preliminary, second final; a final vote stands."""
    st = s.st
    if st.phase not in (Phase.DISCUSSION, Phase.REVOTE):
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
    if st.phase is not Phase.LIFT_VOTE:
        raise PhaseClosed(st.phase.value)
    p = _living(s, cmd.user_id)
    _tap(s, p.user_id, bool(cmd.lift))
    s.emit(LiftTapped(voter=p.user_id, lift=bool(cmd.lift), final=st.ballot.taps[p.user_id][1],
                      votes=_votes(st)))
    if _complete(st):
        close_lift(s)


def _tap(s: Step, uid: int, choice) -> None:
    taps = s.st.ballot.taps
    before = taps.get(uid)
    if before is not None and before[1]:
        raise AlreadyVoted("your vote is final")  # ONLINE-18
    taps[uid] = (choice, before is not None)  # ONLINE-17, Q04: the second tap is final


def _votes(st: GameState) -> tuple:
    taps = st.ballot.taps
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
    """ONLINE hook of ``flow.defences_done``: open the revote or the lift vote."""
    st = s.st
    b = st.ballot
    if b.stage == "revote":
        s.new_phase(Phase.REVOTE, "vote", candidates=tuple(b.candidates), purpose="revote")
        return
    b.base = len(counted(st))  # ONLINE-Q09: N when the lift vote opens
    s.new_phase(Phase.LIFT_VOTE, "lift", candidates=tuple(b.candidates), purpose="lift")


def lift_needed(st: GameState) -> int:
    """ONLINE-32: ⌊N/2⌋ + 1 Lift votes."""
    return st.ballot.base // 2 + 1


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


def _no_elimination(s: Step, reason: str, candidates=()) -> None:
    s.emit(DayWithoutElimination(reason=reason, candidates=tuple(candidates)))
    flow.start_night_gate(s)


# --- the night -------------------------------------------------------------------------------
def night_complete(s: Step) -> bool:
    """ONLINE hook of ``flow.night_complete`` (ONLINE-02, 06, Q15): every counted player is
    done -- night 1: his Sleep tap; later: a black has shot (the Don has also checked or
    skipped), everybody else has checked or slept."""
    st = s.st
    for p in counted(st):
        if st.night > 1 and p.team is Team.MAFIA:
            if p.user_id not in st.mafia_picks:
                return False
            if p.role is Role.DON and p.user_id not in st.night_actions:
                return False
        elif p.user_id not in st.night_actions:
            return False
    return True


def shot_target(st: GameState) -> int | None:
    """ONLINE-13, Q14: the living target every counted black chose; else None (a misfire, also
    when no black is counted)."""
    shooters = [p.user_id for p in st.mafia_alive() if not p.afk]
    picks = {st.mafia_picks.get(u) for u in shooters}
    if len(picks) != 1:
        return None
    (target,) = picks
    return target if target is not None and st.is_alive(target) else None


def end_night(s: Step, timed_out: bool) -> None:
    """ONLINE hook of ``flow.end_night``: the shot, the misfire count, the morning."""
    st = s.st
    if timed_out:  # ONLINE-Q20: a missed required action makes the player OFFLINE
        flow.record_misses(s, set(st.night_actions) | set(st.mafia_picks))
    killed = shot_target(st) if st.night > 1 else None
    st.night_actions, st.mafia_picks = {}, {}
    s.emit(NightResult(killed=killed))
    if st.night > 1:
        st.misfires = 0 if killed is not None else st.misfires + 1  # ONLINE-37, Q16
        if killed is None:
            s.emit(Misfire(count=st.misfires))
            if flow.check_win(s):  # ONLINE-36: the third misfire in a row
                return
    if killed is None:
        flow.start_day(s)
        return
    flow.eliminate(s, killed, "night")
    st.after_last_words = "day"
    if st.night == 2:  # ONLINE-Q12: the first night with a shot, and it killed
        start_best_move(s, killed)
    else:
        flow.start_last_words(s)


# --- the best move ---------------------------------------------------------------------------
def start_best_move(s: Step, victim: int) -> None:
    if not s.st.players[victim].active:  # his turns are skipped (PARTY-42): so is this
        flow.start_last_words(s)
        return
    s.new_phase(Phase.BEST_MOVE, "best_move", speaker=victim, purpose="best_move")


def best_move_choices(st: GameState, uid: int) -> list[int]:
    """Whom the best move may name: living players other than the victim himself (Q12)."""
    if st.phase is not Phase.BEST_MOVE or uid != st.speaker:
        return []
    return [p.user_id for p in st.alive() if p.user_id != uid]


def choose_best_move(s: Step, cmd: ChooseBestMove) -> None:
    """ONLINE-08, Q12: exactly three distinct living others, or () to skip."""
    st = s.st
    if st.phase is not Phase.BEST_MOVE:
        raise PhaseClosed(st.phase.value)
    if cmd.user_id is None or cmd.user_id != st.speaker:
        raise NotYourTurn()
    targets = tuple(cmd.targets)
    if targets:
        if len(targets) != BEST_MOVE_SIZE or len(set(targets)) != BEST_MOVE_SIZE \
                or cmd.user_id in targets:
            raise InvalidTarget(f"name {BEST_MOVE_SIZE} other players")
        if not all(st.is_alive(t) for t in targets):
            raise TargetNotAlive()
    finish_best_move(s, targets)


def finish_best_move(s: Step, targets: tuple[int, ...]) -> None:
    st = s.st
    s.emit(BestMove(user_id=st.speaker, targets=targets))  # ONLINE-08: published at once
    st.speaker = None
    flow.start_last_words(s)


# --- deadlines, the host, presence -----------------------------------------------------------
def phase_timeout(s: Step) -> None:
    """The deadline of an online phase passed (or the host pressed Next)."""
    ph = s.st.phase
    if ph in (Phase.DISCUSSION, Phase.REVOTE):
        close_vote(s)
    elif ph is Phase.LIFT_VOTE:
        close_lift(s)
    elif ph is Phase.BEST_MOVE:
        finish_best_move(s, ())


def presence_changed(s: Step) -> None:
    """A player went OFFLINE or AFK: a ballot may now be complete; a victim who dropped out
    loses his best move."""
    st = s.st
    if st.phase in (Phase.DISCUSSION, Phase.REVOTE) and _complete(st):
        close_vote(s)
    elif st.phase is Phase.LIFT_VOTE and _complete(st):
        close_lift(s)
    elif st.phase is Phase.BEST_MOVE and not st.players[st.speaker].active:
        finish_best_move(s, ())


def mark_afk(s: Step, cmd: MarkAfk) -> None:
    """ONLINE-48, 50, Q20: OFFLINE for ``afk_after`` seconds (measured by the shell) → AFK.
    Refused in a preset without AFK, in the lobby, for the dead, and for a player who is back
    ONLINE (the shell's clock was stale); a repeat is a no-op."""
    from . import control

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


# --- queries ---------------------------------------------------------------------------------
def legal(st: GameState, user_id: int) -> dict:
    """The online fields of :class:`engine.queries.LegalActions` for ``user_id``."""
    kw: dict = {}
    b = st.ballot
    if st.phase in (Phase.DISCUSSION, Phase.REVOTE) and st.is_alive(user_id):
        tap = b.taps.get(user_id)
        if tap is None or not tap[1]:
            kw["ballot"] = tuple(choices(st))
            kw["ballot_pass"] = b.stage == "day"
            kw["ballot_marked"] = tap is not None
            kw["ballot_mark"] = tap[0] if tap is not None else None
    elif st.phase is Phase.LIFT_VOTE and st.is_alive(user_id):
        tap = b.taps.get(user_id)
        if tap is None or not tap[1]:
            kw["lift_vote"] = True
            kw["lift_mark"] = tap[0] if tap is not None else None
    elif st.phase is Phase.BEST_MOVE:
        kw["best_move"] = tuple(best_move_choices(st, user_id))
    return kw


def may_write(st: GameState, user_id: int) -> bool:
    """ONLINE-35, 38, Q18 (for the bot's chat discipline): whether ``user_id`` may post in the
    group now -- the day discussion: every living player; a defence or last word: its speaker
    (through the bot, Q11); night, the votes after a tie, the best move, the end: nobody."""
    if st.phase is Phase.DISCUSSION:
        return st.is_alive(user_id)
    if st.phase in (Phase.DEFENCE, Phase.LAST_WORD):
        return user_id == st.speaker
    return False
