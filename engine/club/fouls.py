"""The judge's tools: fouls, disqualification, undoing a nomination (CLUB-36..39, CLUB-Q06,
CLUB-Q15..Q17; rule IDs in docs/rules/club.md).

A foul is given (or cancelled) by the game's host, or, in a game without one, by whoever the
shell lets through (group admins).  Three fouls silence the player's next regular speech (he may
still nominate); a fourth foul, or a disqualification, removes him at once with no last word.
Following the sport rules (CLUB-Q17) a removal cancels that day's vote, or the next day's if
today's is over.
"""

from __future__ import annotations

from ..core.errors import InvalidTarget, NotAllowed, NotInGame, PhaseClosed, PlayerDead
from ..mafia import flow
from ..mafia.commands import Disqualify, JudgeCommand
from ..mafia.events import DayWithoutElimination
from ..mafia.state import Phase
from ..mafia.step import Step
from .commands import CancelFoul, IssueFoul, UndoNomination
from .events import FoulCancelled, FoulIssued, NominationUndone

SILENCE_AT = 3
DISQUALIFY_AT = 4
DAY_PHASES = (Phase.SPEECH, Phase.DEFENCE, Phase.VOTING, Phase.EXCLUDE_VOTE)


def _judge(s: Step, cmd: JudgeCommand) -> None:
    """The preset has a judge's tools, the game has started, and ``cmd`` comes from the judge."""
    st = s.st
    if not s.rs.fouls:
        raise NotAllowed("this preset has no fouls")
    if st.phase is Phase.LOBBY:
        raise PhaseClosed("lobby")
    if st.host is not None and cmd.user_id != st.host:
        raise NotAllowed("only the host gives fouls")  # CLUB-41


#: the judge's check, shared by his other tools (engine/club/clock.py)
judge = _judge


def _check(s: Step, cmd: IssueFoul | CancelFoul | Disqualify) -> None:
    _judge(s, cmd)
    st = s.st
    p = st.players.get(cmd.player)
    if p is None or not p.seat:
        raise NotInGame()
    if not p.alive:
        raise PlayerDead()


def issue_foul(s: Step, cmd: IssueFoul) -> None:
    _check(s, cmd)
    uid, club = cmd.player, s.st.club
    n = club.fouls[uid] = club.fouls.get(uid, 0) + 1
    s.emit(FoulIssued(player=uid, count=n, by=cmd.user_id, reason=cmd.reason[:200]))
    if n == SILENCE_AT:  # CLUB-37, CLUB-Q16
        club.silenced.add(uid)
    elif n >= DISQUALIFY_AT:  # CLUB-38
        remove(s, uid)


def cancel_foul(s: Step, cmd: CancelFoul) -> None:
    """CLUB-Q15: one foul less; below three the pending silenced turn is lifted.  A player with
    no foul -> InvalidTarget; a disqualified one stays out (PlayerDead)."""
    _check(s, cmd)
    uid, club = cmd.player, s.st.club
    n = club.fouls.get(uid, 0)
    if n == 0:
        raise InvalidTarget("no foul to cancel")
    n -= 1
    if n:
        club.fouls[uid] = n
    else:
        del club.fouls[uid]
    if n < SILENCE_AT:
        club.silenced.discard(uid)
    s.emit(FoulCancelled(player=uid, count=n, by=cmd.user_id, reason=cmd.reason[:200]))


def undo_nomination(s: Step, cmd: UndoNomination) -> None:
    """CLUB-Q06: the judge takes a nomination back while the speeches run (the ballot is fixed
    once the vote starts).  The nominator, if he holds the floor, may nominate again."""
    _judge(s, cmd)
    st = s.st
    if st.phase is not Phase.SPEECH:
        raise PhaseClosed(st.phase.value)
    if cmd.target not in st.nominations:
        raise InvalidTarget("not nominated")
    st.nominations.remove(cmd.target)
    nominator = st.nominated_by.pop(cmd.target, None)
    if nominator is not None and nominator == st.speaker:
        st.nominated_in_speech = False
    s.emit(NominationUndone(target=cmd.target, nominator=nominator, by=cmd.user_id,
                            candidates=tuple(st.nominations)))


def disqualify(s: Step, cmd: Disqualify) -> None:
    _check(s, cmd)
    remove(s, cmd.player)


def remove(s: Step, uid: int) -> None:
    """Take ``uid`` out at once: no last word, off the ballot, his vote dropped (CLUB-Q17)."""
    st = s.st
    phase = st.phase
    flow.eliminate(s, uid, "disqualified")
    if uid in st.nominations:
        st.nominations.remove(uid)
    if uid in st.queue:
        st.queue.remove(uid)
    if st.vote is not None:
        st.vote.votes.pop(uid, None)
    st.exclude_votes.pop(uid, None)
    st.night_actions.pop(uid, None)
    today_open = phase in DAY_PHASES
    st.club.vote_cancelled_day = st.day if today_open else st.day + 1
    if flow.check_win(s):
        return
    if phase in (Phase.DEFENCE, Phase.VOTING, Phase.EXCLUDE_VOTE):
        s.emit(DayWithoutElimination(reason="vote_cancelled"))
        flow.start_night_gate(s)
    elif phase in (Phase.SPEECH, Phase.LAST_WORD) and st.speaker == uid:
        flow.next_turn(s)
