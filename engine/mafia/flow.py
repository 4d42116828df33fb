"""Phase transitions: how a day and a night unfold.  Rule IDs refer to ``docs/rules/party.md``.

Theory of operation: every phase is entered through one function here; each function sets the
phase, arms at most one timer and emits :class:`PhaseStarted`.  A turn-based phase (speech, defence,
last word) pops the next speaker from ``st.queue``, skipping inactive players (PARTY-42); when the
queue is empty the phase's ``*_done`` continuation runs.  Eliminations queue last words; the win
check runs only after the last words (PARTY-32).
"""

from __future__ import annotations

from collections.abc import Callable, Container
from enum import Enum

from . import night
from .events import (
    DayWithoutElimination,
    ExcludeVoteResult,
    GameCancelled,
    GameEnded,
    NightResult,
    PlayerEliminated,
    ReadyMarked,
    TieRevote,
    TurnSkipped,
    VoteResult,
    VoteWindowOpened,
)
from .roles import Team
from .state import GameState, Phase, Player, VoteRound
from .step import Step, variant_of

TURN_TIMER: dict[Enum, str] = {Phase.SPEECH: "speech", Phase.DEFENCE: "defence", Phase.LAST_WORD: "last_word"}


# --- turns -----------------------------------------------------------------------------------
def start_turns(s: Step, phase: Phase, queue: list[int]) -> None:
    s.st.queue = list(queue)
    s.st.phase = phase
    next_turn(s)


def next_turn(s: Step) -> None:
    """Give the floor to the next active speaker of the current turn phase, or finish it."""
    st = s.st
    phase = st.phase
    while st.queue:
        uid = st.queue.pop(0)
        p = st.players[uid]
        if phase is not Phase.LAST_WORD and not p.alive:
            continue
        if not p.active:  # PARTY-42, PARTY-Q04, PARTY-Q15
            s.emit(TurnSkipped(user_id=uid))
            continue
        st.nominated_in_speech = False
        timer, purpose = TURN_TIMER[phase], ""
        if phase is Phase.SPEECH and s.game.silenced_turn(s, uid):  # CLUB-37: nomination only
            timer, purpose = "silenced", "silenced"
        s.new_phase(phase, timer, speaker=uid, purpose=purpose,
                    candidates=tuple(st.nominations if phase is Phase.SPEECH else st.vote.candidates
                                     if phase is Phase.DEFENCE and st.vote else ()))
        return
    st.speaker = None
    done: dict[Enum, Callable[[Step], None]] = {
        Phase.SPEECH: speeches_done, Phase.DEFENCE: defences_done, Phase.LAST_WORD: last_words_done}
    done[phase](s)


# --- day -------------------------------------------------------------------------------------
def start_day(s: Step) -> None:
    """The morning, as the preset's variant runs it (:meth:`MafiaVariant.start_day`)."""
    s.game.start_day(s)


def day_of_speeches(s: Step) -> None:
    """PARTY-07, PARTY-Q02: day 1 opens with seat 1, each later day with the next living seat."""
    st = s.st
    if not st.alive_active():  # PARTY-X23: nobody left at the table
        abandon(s)
        return
    st.day += 1
    st.nominations, st.nominated_by, st.vote = [], {}, None
    alive = st.alive()
    if st.last_opener_seat == 0:
        opener = alive[0]
    else:
        later = [p for p in alive if p.seat > st.last_opener_seat]
        opener = later[0] if later else alive[0]
    st.last_opener_seat = opener.seat
    i = alive.index(opener)
    start_turns(s, Phase.SPEECH, [p.user_id for p in alive[i:] + alive[:i]])


def abandon(s: Step) -> None:
    """PARTY-X23: a day that would start with every living player inactive ends the game as
    abandoned (cancelled, no winner): otherwise empty days and nights would alternate forever."""
    st = s.st
    st.phase = Phase.CANCELLED
    st.phase_seq += 1
    st.speaker = None
    st.pause = None
    s.clear_timer()
    s.emit(GameCancelled(by=None, reason="abandoned"))


def speeches_done(s: Step) -> None:
    st = s.st
    if s.game.vote_cancelled(s):  # CLUB-Q17
        s.emit(DayWithoutElimination(reason="vote_cancelled", candidates=tuple(st.nominations)))
        start_night_gate(s)
        return
    if not st.nominations:  # PARTY-13, CLUB-Q03
        s.emit(DayWithoutElimination(reason="no_nominations"))
        start_night_gate(s)
        return
    st.vote = VoteRound(candidates=list(st.nominations))
    if len(st.nominations) == 1 and st.day == 1 and not s.rs.sole_nominee_day1:  # CLUB-Q02
        s.emit(DayWithoutElimination(reason="day1_single", candidates=tuple(st.nominations)))
        start_night_gate(s)
        return
    if s.rs.vote_style == "club":  # CLUB-20: the vote follows the speeches at once
        defences_done(s)
        return
    start_turns(s, Phase.DEFENCE, list(st.nominations))  # PARTY-10, PARTY-Q04


def defences_done(s: Step) -> None:
    """The last defence is over: the variant decides what follows."""
    s.game.defences_done(s)


def vote_after_defences(s: Step) -> None:
    st = s.st
    vote = st.vote_round()
    if len(vote.candidates) == 1 and vote.previous_tie is None and s.rs.sole_nominee_leaves:
        eliminate(s, vote.candidates[0], "sole_nominee")  # PARTY-11
        st.after_last_words = "night"
        start_last_words(s)
        return
    start_voting(s)


def start_voting(s: Step) -> None:
    """PARTY-14/15: one vote message per round, one window per candidate in ballot order."""
    st = s.st
    st.vote_round().index = 0
    st.vote_round().votes = {}
    s.new_phase(Phase.VOTING, None, candidates=tuple(st.vote_round().candidates))
    open_window(s)


def open_window(s: Step) -> None:
    st = s.st
    vote = st.vote_round()
    if s.rs.vote_style == "club" and vote.index == len(vote.candidates) - 1:
        # CLUB-24, CLUB-Q07: no window for the last nominee; every silent vote goes to him
        for p in st.alive():
            vote.votes.setdefault(p.user_id, vote.current)
        close_round(s)
        return
    t = s.set_timer("vote")
    s.emit(VoteWindowOpened(candidate=st.vote_round().current, index=st.vote_round().index, timer_seq=t.seq,
                            seconds=t.seconds, candidates=tuple(st.vote_round().candidates)))


def advance_window(s: Step) -> None:
    st = s.st
    if st.vote_round().index + 1 < len(st.vote_round().candidates):
        st.vote_round().index += 1
        open_window(s)
    else:
        close_round(s)


def voters(s: Step) -> list[Player]:
    """Who counts for closing a vote: living active players (party) or all living (club)."""
    return s.st.alive_active() if s.rs.exclude_base_active else s.st.alive()


def everyone_voted(s: Step, votes: Container[int]) -> bool:
    return all(p.user_id in votes for p in voters(s))


def close_round(s: Step) -> None:
    """PARTY-17..24: tally, then elimination, re-defence, exclude-all vote or night."""
    st = s.st
    vote = st.vote_round()
    tally = {c: [v for v, t in vote.votes.items() if t == c] for c in vote.candidates}
    top = max(len(v) for v in tally.values())
    leaders = tuple(c for c in vote.candidates if len(tally[c]) == top)
    s.emit(VoteResult(tally=tuple((c, tuple(sorted(tally[c], key=lambda u: st.players[u].seat)))
                                  for c in vote.candidates), leaders=leaders))
    if len(leaders) == 1:  # PARTY-18
        eliminate(s, leaders[0], "vote")
        st.after_last_words = "night"
        start_last_words(s)
        return
    reason = tie_exception(s, leaders)
    if reason:
        s.emit(DayWithoutElimination(reason=reason, candidates=leaders))
        start_night_gate(s)
        return
    if vote.previous_tie == leaders:  # PARTY-21
        start_exclude_vote(s, list(leaders))
        return
    s.emit(TieRevote(candidates=leaders))  # PARTY-19, PARTY-20
    st.vote = VoteRound(candidates=list(leaders), previous_tie=leaders)
    start_turns(s, Phase.DEFENCE, list(leaders))


def tie_exception(s: Step, leaders: tuple[int, ...]) -> str | None:
    """PARTY-22/23/24 with PARTY-Q09: checked on every tie, before any re-defence."""
    n = len(s.st.alive())
    if len(leaders) == n:
        return "all_tied"
    if s.rs.vote_style == "club":  # CLUB-Q01: only a whole-table tie ends the day
        return None
    if n == 3:
        return "three_alive"
    if n >= 6 and n % 2 == 0 and 2 * len(leaders) == n:
        return "half_tied"
    return None


def start_exclude_vote(s: Step, candidates: list[int]) -> None:
    st = s.st
    st.exclude_candidates = candidates
    st.exclude_votes = {}
    s.new_phase(Phase.EXCLUDE_VOTE, "vote", candidates=tuple(candidates))


def close_exclude_vote(s: Step) -> None:
    """PARTY-21, PARTY-Q08: passes with yes from at least floor(m/2)+1 of m living active players."""
    st = s.st
    m = len(voters(s))
    needed = m // 2 + 1
    yes = sum(1 for v in st.exclude_votes.values() if v)
    passed = yes >= needed
    cands = tuple(st.exclude_candidates)
    s.emit(ExcludeVoteResult(candidates=cands, yes=yes, needed=needed, passed=passed))
    if not passed:
        s.emit(DayWithoutElimination(reason="exclude_failed", candidates=cands))
        start_night_gate(s)
        return
    for uid in sorted(cands, key=lambda u: st.players[u].seat):  # PARTY-Q15: seat order
        eliminate(s, uid, "exclude_all")
    st.after_last_words = "night"
    start_last_words(s)


# --- eliminations and the end ----------------------------------------------------------------
def eliminate(s: Step, uid: int, cause: str) -> None:
    p = s.st.players[uid]
    p.alive = False
    s.st.mafia_picks.pop(uid, None)
    s.emit(PlayerEliminated(user_id=uid, cause=cause))  # PARTY-31: no role
    if s.rs.last_word_for_all and cause != "disqualified":  # CLUB-38/39: no last word
        s.st.queue.append(uid)


def start_last_words(s: Step) -> None:
    """PARTY-30/32: everyone eliminated gets a last word before anything else happens."""
    start_turns(s, Phase.LAST_WORD, list(s.st.queue))


def last_words_done(s: Step) -> None:
    if check_win(s):
        return
    if s.st.after_last_words == "night":
        start_night_gate(s)
    else:
        start_day(s)


def winner(st: GameState) -> Team | None:
    """PARTY-03/04: Town when no mafioso lives; Mafia when mafiosi >= everybody else alive.
    Before the parity: a preset's own win (:meth:`MafiaVariant.forced_winner`, ONLINE-36)."""
    mafia = len(st.mafia_alive())
    others = len(st.alive()) - mafia
    if mafia == 0:
        return Team.TOWN
    forced = variant_of(st).forced_winner(st)
    if forced is not None:
        return forced
    if mafia >= others:
        return Team.MAFIA
    return None


def check_win(s: Step) -> bool:
    """True (and the game is decided) if a team has won, as the variant judges it."""
    return s.game.check_win(s)


def end_if_won(s: Step) -> bool:
    st = s.st
    team = winner(st)
    if team is None:
        return False
    st.winner = team
    st.phase = Phase.ENDED
    st.phase_seq += 1
    st.speaker = None
    s.clear_timer()
    s.emit(GameEnded(winner=team, days=st.day,
                     roles=tuple((p.seat, p.user_id, p.dealt_role) for p in st.seated())))
    return True


# --- night -----------------------------------------------------------------------------------
def start_night_gate(s: Step) -> None:
    """PARTY-37: readiness before the mafia acquaintance and before each mafia move."""
    st = s.st
    st.night += 1
    st.vote = st.ballot = None
    st.ready = set()
    st.continue_allowed = False
    st.ready_purpose = "intro" if st.night == 1 else "night"
    if not s.rs.ready_gates:
        start_night(s)
        return
    s.new_phase(Phase.READY, None if st.host else "ready_wait", purpose=st.ready_purpose)


def ready_progress(s: Step, uid: int | None) -> None:
    """PARTY-37/38: ``uid`` (None: somebody dropped out) is ready; everybody active and ready
    opens the night (a host opens it himself)."""
    st = s.st
    awaited = [p.user_id for p in st.alive_active() if p.user_id not in st.ready]
    total = len(st.alive_active())
    if uid is not None:
        s.emit(ReadyMarked(user_id=uid, ready=total - len(awaited), total=total,
                           waiting=tuple(awaited)))
    if not awaited and not st.host:
        start_night(s)


def ready_complete(s: Step) -> bool:
    return all(p.user_id in s.st.ready for p in s.st.alive_active())


def start_night(s: Step) -> None:
    """The night opens, as the variant runs it."""
    s.game.start_night(s)


def night_complete(s: Step) -> bool:
    """Whether the night may close now, as the variant judges it."""
    return s.game.night_complete(s)


def end_night(s: Step, timed_out: bool) -> None:
    """The night is over (its timer, the host, or everybody done): the variant resolves it."""
    s.game.end_night(s, timed_out)


def resolve_night(s: Step, timed_out: bool) -> None:
    """Resolve the night: protect -> kill -> check (PARTY-Q10), then the morning."""
    st = s.st
    if timed_out:
        acted = set(st.night_actions) | set(st.mafia_picks)
        night.record_misses(s, acted)
    killed = None
    saved = False
    if st.night > 1:
        target = night.agreed_target(st, all_required=s.rs.final_shots)  # CLUB-30: every black
        healed = {t for a, t in st.night_actions.values() if a == "heal"}
        if target is not None:
            if target in healed:  # PARTY-28
                saved = True
            else:
                killed = target
    if s.rs.checks_at_dawn:  # CLUB-33: shot, then the Don's check, then the Sheriff's
        for action in ("don_check", "sheriff_check"):
            for uid, (a, target) in st.night_actions.items():
                if a == action:
                    assert target is not None  # a check always names its target
                    night.check_result(s, uid, target, action)
    st.night_actions, st.mafia_picks = {}, {}
    s.emit(NightResult(killed=killed, saved=saved and bool(st.options.get("announce_save"))))
    if killed is None:
        start_day(s)
        return
    eliminate(s, killed, "night")
    st.after_last_words = "day"
    start_last_words(s)
