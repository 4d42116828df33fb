"""The forum preset's own events (docs/rules/forum.md).  Each registers itself in
``engine.core.events.EVENT_TYPES``.  PUBLIC unless the audience says otherwise; in a forum game
``TeamChat(MAFIA)`` means :func:`engine.forum.team_chat` -- the living mafiosi (a turned Werewolf
included) *and* the Sleepwalker (FORUM-37, Q19).

The public events after :class:`VictoryDeclared` (:data:`AFTER_WIN_EVENTS`) may name roles: the
game is decided.  Before it, only ``PlayerEliminated.role`` does (FORUM-Q08).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.audience import Audience, TeamChat
from ..mafia.events import Event
from ..mafia.roles import Role, Team


# --- the night -------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class NightWake(Event):
    """FORUM-50, 37: night 1, Private: ``user_id`` wakes as ``role`` in ``turn`` (1 the Mafia and
    the Sleepwalker, 2 the Commissar, 3 the Doctor, 4 the Maniac, 5 the Putana) and meets the
    host; the Sleepwalker is told the mafiosi (``mafia``)."""

    user_id: int
    role: Role
    turn: int
    mafia: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class SideChosen(Event):
    """FORUM-26, 28, Q13: the Maniac's or the Putana's side, Private to him (and a copy to the
    HOST); ``by_default`` when night 1 ended without a choice (Town)."""

    user_id: int
    side: Team
    by_default: bool = False


@dataclass(frozen=True, kw_only=True)
class MafiaBlocked(Event):
    """FORUM-48: the Cop chose a mafioso: the Mafia kill nobody tonight (their team chat)."""

    audience: Audience = TeamChat(Team.MAFIA)


@dataclass(frozen=True, kw_only=True)
class CheckShrugged(Event):
    """FORUM-47, Q10: the Commissar's check gets no answer (the target or the Commissar himself
    is the Cop's target tonight). Private to the checker."""

    checker: int
    target: int


@dataclass(frozen=True, kw_only=True)
class ComparisonResult(Event):
    """FORUM-34..36, Q10: the Journalist's answer, Private: ``same`` True/False, None = a shrug
    (one of the three is the Cop's target)."""

    checker: int
    first: int
    second: int
    same: bool | None


@dataclass(frozen=True, kw_only=True)
class SleepwalkerRevealed(Event):
    """FORUM-39, Q19: the Mafia agreed on the Sleepwalker: he is revealed to them (team chat, he
    is in it) and they choose again; he leaves in the morning (FORUM-40)."""

    user_id: int
    audience: Audience = TeamChat(Team.MAFIA)


@dataclass(frozen=True, kw_only=True)
class NightExtended(Event):
    """FORUM-Q19, X07: the night's deadline passed after a reveal with no new Mafia choice: one
    more minute (the new timer)."""

    timer_seq: int
    seconds: int


@dataclass(frozen=True, kw_only=True)
class NightDeaths(Event):
    """FORUM-Q22 (9): the morning news, the night's dead in seat order, no causes (Q15);
    ``saved`` only when the group announces saves and a heal saved someone (Q11)."""

    killed: tuple[int, ...]
    saved: bool = False


@dataclass(frozen=True, kw_only=True)
class WerewolfTurned(Event):
    """FORUM-42, Q20: the last mafioso is gone: the Werewolf is the Mafia now. Private."""

    user_id: int


# --- the day ---------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class BallotCast(Event):
    """FORUM-08, Q05: a vote (or a changed one); ``stage`` 'vote' | 'revote'; ``votes``: every
    current vote as (voter, target), voters in seat order -- the open tally."""

    voter: int
    target: int
    stage: str
    votes: tuple[tuple[int, int], ...]


@dataclass(frozen=True, kw_only=True)
class SuspectNamed(Event):
    """FORUM-14: in his last word ``user_id`` names ``target`` as Mafia (advice only)."""

    user_id: int
    target: int


@dataclass(frozen=True, kw_only=True)
class CheckRevealed(Event):
    """FORUM-21: in his last word the Commissar publishes one answer he really got."""

    user_id: int
    target: int
    is_mafia: bool


@dataclass(frozen=True, kw_only=True)
class WarningIssued(Event):
    """FORUM-10, 17, 18, Q05, Q17: a warning; ``count`` the player's warnings after it; ``by``
    the host (None: the engine itself for a missing vote, or a group admin); ``reason`` e.g.
    'no_vote' | 'oath' | 'insult'."""

    player: int
    count: int
    by: int | None
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class PlayerRemoved(Event):
    """FORUM-18, 32, 38, 49, Q16, Q17: a removal for a breach; ``PlayerEliminated(disqualified)``
    follows.  ``reason`` e.g. 'insult' | 'card' | 'mafia_list' | 'private_messages' |
    'warnings' (the threshold) or free text."""

    player: int
    by: int | None
    reason: str = ""


# --- after the win ---------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class VictoryDeclared(Event):
    """FORUM-54, 55, 43, Q20: a side has won; the survivors' roles stay hidden for the bonus
    round; ``GameEnded`` (the full reveal as in every preset) closes the log after the vote
    for the best player."""

    winner: Team
    days: int


@dataclass(frozen=True, kw_only=True)
class GuessesRecorded(Event):
    """FORUM-Q23: Private acknowledgement of a participant's guesses."""

    user_id: int
    guesses: tuple[tuple[int, Role], ...]


@dataclass(frozen=True, kw_only=True)
class BonusResults(Event):
    """FORUM-56, Q23: every participant's guesses and how many were right (for fun, unscored)."""

    guesses: tuple[tuple[int, tuple[tuple[int, Role], ...]], ...]
    hits: tuple[tuple[int, int], ...]


@dataclass(frozen=True, kw_only=True)
class RolesRevealed(Event):
    """FORUM-Q08, Q13, Q23: the reveal after the win: ``roles`` (seat, user, role) of every
    seat, the Maniac's / the Putana's ``sides``, the ``winners`` (user ids, seat order)."""

    roles: tuple[tuple[int, int, Role], ...]
    sides: tuple[tuple[int, Team], ...]
    winners: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class BestPlayerVoted(Event):
    """FORUM-57, Q24: ``voter`` chose ``target`` as the best player."""

    voter: int
    target: int


@dataclass(frozen=True, kw_only=True)
class BestPlayerChosen(Event):
    """FORUM-57, Q24: the most votes win, a tie shares the title (``winners`` in seat order,
    empty when nobody voted); ``tally`` (player, voters) for every player voted for."""

    winners: tuple[int, ...]
    tally: tuple[tuple[int, tuple[int, ...]], ...]


#: public events that may name roles because they follow the win (FORUM-Q08, Q23)
AFTER_WIN_EVENTS = (VictoryDeclared, BonusResults, RolesRevealed)
