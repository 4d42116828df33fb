"""The forum's eliminations, the Werewolf's turn and the win check (rule IDs in docs/rules/forum.md).

An eliminated player shows his card and, with Town status, gets a last word; the moment the last
mafioso is gone a living Werewolf becomes the Mafia; the win is checked after that.
"""

from __future__ import annotations

from ..core.audience import Private
from ..mafia import flow
from ..mafia.events import MafiaRevealed, PlayerEliminated
from ..mafia.roles import Role, Team
from ..mafia.state import Player
from ..mafia.step import Step
from .after import declare
from .events import WerewolfTurned
from .night import team_chat


# --- eliminations, the Werewolf, the win -------------------------------------------------------
def has_last_word(p: Player) -> bool:
    """FORUM-13, 15, Q09: every Town-status role; not the Mafia, not a turned Werewolf."""
    return p.team is not Team.MAFIA


def eliminate(s: Step, uid: int, cause: str) -> None:
    """FORUM-07, 16, Q08, Q09: out at once with the card shown; a last word is queued for Town
    status unless removed for a breach ('disqualified')."""
    st = s.st
    p = st.players[uid]
    p.alive = False
    st.mafia_picks.pop(uid, None)
    st.night_actions.pop(uid, None)
    st.ready.discard(uid)
    s.emit(PlayerEliminated(user_id=uid, cause=cause, role=p.role))
    if cause != "disqualified" and has_last_word(p):
        st.queue.append(uid)


def settle(s: Step) -> None:
    """FORUM-42, Q20, X08: the moment the last mafioso is gone, a living Werewolf becomes the
    Mafia (told by DM; the team chat -- him and a living Sleepwalker -- gets the new list)."""
    st = s.st
    if any(p.role is Role.MAFIA for p in st.alive()):
        return
    for p in st.alive():
        if p.role is Role.WEREWOLF and p.side is None:
            p.side = Team.MAFIA  # his team from now on (Player.team)
            s.emit(WerewolfTurned(user_id=p.user_id, audience=Private(p.user_id)))
            s.emit(MafiaRevealed(members=tuple(team_chat(st))))


def check_win(s: Step) -> bool:
    """The forum's ``check_win`` (FORUM-43, 54, 55, Q13, Q20, Q29): the Werewolf turns
    first; Town wins with no mafioso (turned Werewolf included) alive, the Mafia at parity with
    everybody else (the Maniac and the Putana count as Town).  A win leads to the after-game."""
    settle(s)
    team = flow.winner(s.st)
    if team is None:
        return False
    declare(s, team)
    return True
