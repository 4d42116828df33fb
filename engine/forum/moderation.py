"""The forum host's tools: warnings and removals (rule IDs in docs/rules/forum.md).

A warning (``IssueWarning``) is given by the host, or in a game without one by whoever the shell
lets through (group admins); the engine itself warns a living player who did not vote at the
deadline (FORUM-10, Q05).  Warnings are counted per player and kept in the log
(``WarningIssued``); an organiser may set ``warnings_to_remove`` so that the n-th warning removes
the player (FORUM-Q17).  A removal (``Disqualify``: an insult, an opened card, the Sleepwalker's
list, private messages...) takes the player out at once, with his card shown and no last word;
then the Werewolf's turn and the win check run (FORUM-18, 32, Q16, Q17, Q29), and the current
phase goes on without him.
"""

from __future__ import annotations

from ..core.errors import NotAllowed, NotInGame, PhaseClosed, PlayerDead
from ..mafia import flow
from ..mafia.commands import Disqualify
from ..mafia.rules import rules_revision
from ..mafia.state import Phase
from ..mafia.step import Step
from . import elimination
from . import night as forum_night
from .commands import IssueWarning
from .events import PlayerRemoved, WarningIssued
from .phases import ForumPhase

MAX_REASON = 200
#: no moderation before the deal or once the game is decided
CLOSED = (Phase.LOBBY, ForumPhase.BONUS_OFFER, ForumPhase.BONUS, ForumPhase.BEST_PLAYER)


def _check(s: Step, cmd: IssueWarning | Disqualify) -> None:
    st = s.st
    if st.phase in CLOSED:
        raise PhaseClosed(st.phase.value)
    if st.host is not None and cmd.user_id != st.host:
        raise NotAllowed("only the host moderates")
    p = st.players.get(cmd.player)
    if p is None or not p.seat:
        raise NotInGame()
    if not p.alive:
        raise PlayerDead()


def issue_warning(s: Step, cmd: IssueWarning) -> None:
    """FORUM-17, 18, Q17."""
    _check(s, cmd)
    if add_warning(s, cmd.player, cmd.user_id, cmd.reason[:MAX_REASON]):
        after_removal(s)


def add_warning(s: Step, uid: int, by: int | None, reason: str) -> bool:
    """Count and announce a warning; True if it reached the threshold and removed the player
    (the caller continues the game)."""
    st = s.st
    f = st.forum
    f.warnings[uid] = f.warnings.get(uid, 0) + 1
    s.emit(WarningIssued(player=uid, count=f.warnings[uid], by=by, reason=reason))
    limit = st.options.get("warnings_to_remove") or 0
    if limit and f.warnings[uid] >= limit and st.is_alive(uid):
        take_out(s, uid, by, "warnings")
        return True
    return False


def disqualify(s: Step, cmd: Disqualify) -> None:
    """FORUM-18, 32, 38, 49, Q16: the forum's removal (``Disqualify`` with a reason)."""
    _check(s, cmd)
    take_out(s, cmd.player, cmd.user_id, cmd.reason[:MAX_REASON])
    after_removal(s)


def take_out(s: Step, uid: int, by: int | None, reason: str) -> None:
    """Out at once: card shown, no last word, his vote and his night action dropped."""
    st = s.st
    s.emit(PlayerRemoved(player=uid, by=by, reason=reason))
    if rules_revision(st.settings) >= 3:  # REV-X01: revision 3 brought FORUM-X24
        st.forum.removed.add(uid)  # FORUM-X24: his side may win, he does not
    elimination.eliminate(s, uid, "disqualified")
    if uid in st.queue:
        st.queue.remove(uid)
    if st.vote is not None:
        st.vote.votes.pop(uid, None)


def after_removal(s: Step) -> None:
    """FORUM-Q29: the Werewolf's turn and the win check at once, then the phase goes on."""
    st = s.st
    if elimination.check_win(s):
        return
    if st.phase is Phase.NIGHT:
        forum_night.maybe_reveal(s)  # the remaining picks may now agree
        if forum_night.night_complete(s):
            flow.end_night(s, timed_out=False)
    else:
        s.game.presence_changed(s)
