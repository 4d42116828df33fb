"""Illegal-command exceptions raised by :func:`engine.apply`.

Every refusal is a subclass of :class:`IllegalCommand` (itself a ``ValueError``), so the bot can
map each class to one short localized answer.  The ``code`` class attribute is the stable key the
presenter translates (``errors.<code>``).  Raising never changes the state: :func:`engine.apply`
works on a private copy.
"""

from __future__ import annotations


class IllegalCommand(ValueError):
    """Base of every refusal. ``code`` names it for translation."""

    code = "illegal"


class NotInGame(IllegalCommand):
    """The user is not a player (or host) of this game."""

    code = "not_in_game"


class AlreadyJoined(IllegalCommand):
    code = "already_joined"


class GameFull(IllegalCommand):
    code = "game_full"


class NotEnoughPlayers(IllegalCommand):
    code = "not_enough_players"


class NotAllowed(IllegalCommand):
    """The user lacks the right (organiser, host, living player) for this command."""

    code = "not_allowed"


class PhaseClosed(IllegalCommand):
    """The command does not belong to the current phase (a stale or early button)."""

    code = "phase_closed"


class NotYourTurn(IllegalCommand):
    code = "not_your_turn"


class PlayerDead(IllegalCommand):
    """The acting player is eliminated."""

    code = "player_dead"


class TargetNotAlive(IllegalCommand):
    code = "target_not_alive"


class InvalidTarget(IllegalCommand):
    """The target is not one the rules offer (not a candidate, not allowed for this role...)."""

    code = "invalid_target"


class AlreadyNominated(IllegalCommand):
    """This speech already produced a nomination (PARTY-08/09)."""

    code = "already_nominated"


class DuplicateNomination(IllegalCommand):
    """The target is already on the ballot (PARTY-Q03)."""

    code = "duplicate_nomination"


class AlreadyVoted(IllegalCommand):
    code = "already_voted"


class AlreadyActed(IllegalCommand):
    code = "already_acted"


class NoNightAction(IllegalCommand):
    """The player's role has no such action tonight (PARTY-06: nothing on the introduction night)."""

    code = "no_night_action"


class GamePaused(IllegalCommand):
    code = "game_paused"


class NotPaused(IllegalCommand):
    code = "not_paused"


class PauseLimit(IllegalCommand):
    """The player used up his pauses for this game (PARTY-Q19)."""

    code = "pause_limit"


class GameOver(IllegalCommand):
    code = "game_over"


class BadSetup(IllegalCommand):
    """A malformed setup command (deal not matching the role table, unknown timing...)."""

    code = "bad_setup"
