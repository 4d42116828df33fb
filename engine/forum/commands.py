"""The forum preset's own commands (docs/rules/forum.md).  Each registers itself in
``engine.core.commands.COMMAND_TYPES``; accepted only in a forum game (elsewhere: ``IllegalCommand``).

The forum also uses shared commands with its own meaning: ``NightAction`` (actions ``block`` the
Cop, ``kill`` the Mafia and the Sleepwalker, ``check``, ``heal``, ``slay`` the Maniac, ``infect``
the Putana, ``sleep``), ``CastVote`` (the day's vote, changeable), ``MarkReady`` ("ready to
vote" in the discussion), ``EndSpeech`` (a last word), ``Disqualify`` (the host removes a
player), ``RelayMessage``, ``HostNext``, ``PhaseTimeout``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..mafia.commands import Command
from ..mafia.roles import Role, Team


@dataclass(frozen=True, kw_only=True)
class ChooseSide(Command):
    """FORUM-26, 28, Q13: the Maniac or the Putana picks his side on night 1, once."""

    side: Team


@dataclass(frozen=True, kw_only=True)
class ComparePlayers(Command):
    """FORUM-34..36, Q18: the Journalist's pair tonight -- two different living players, not
    himself (user ids)."""

    first: int
    second: int


@dataclass(frozen=True, kw_only=True)
class NameSuspect(Command):
    """FORUM-14: in his own last word, a player names the living player he takes for the Mafia
    (advice only), once."""

    target: int


@dataclass(frozen=True, kw_only=True)
class RevealCheck(Command):
    """FORUM-21: in his own last word, the Commissar publishes the answer he got for ``target``,
    one of the players he checked, once."""

    target: int


@dataclass(frozen=True, kw_only=True)
class IssueWarning(Command):
    """FORUM-17, 18, Q17: the host (without one, whoever the shell lets through: group admins)
    warns ``player``; ``reason`` e.g. 'oath' | 'insult' or free text (<= 200 characters)."""

    player: int
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class HostDecide(Command):
    """FORUM-Q06: after a tied revote the host removes one of the tied (``target``) or nobody
    (None)."""

    target: int | None = None


@dataclass(frozen=True, kw_only=True)
class DecideBonusRound(Command):
    """FORUM-56, Q23: the host or the organiser starts the bonus round (True) or skips it."""

    start: bool


@dataclass(frozen=True, kw_only=True)
class GuessRoles(Command):
    """FORUM-56, Q23: a participant's guesses, ((player, role), ...); a new form replaces his
    previous one until the round closes; ``()`` guesses nothing (he is done)."""

    guesses: tuple[tuple[int, Role], ...] = ()


@dataclass(frozen=True, kw_only=True)
class VoteBestPlayer(Command):
    """FORUM-57, Q24: a participant's vote for the best player (another participant), once."""

    target: int


FORUM_COMMANDS = (ChooseSide, ComparePlayers, NameSuspect, RevealCheck, IssueWarning,
                  HostDecide, DecideBonusRound, GuessRoles, VoteBestPlayer)
