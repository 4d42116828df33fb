"""NOIR's refusals: each an :class:`engine.core.errors.IllegalCommand` with a stable ``code``.

Raised by :func:`engine.noir.apply`; raising never changes the caller's state (apply works on a
copy).  The codes are the keys the bot translates (``noir.errors.<code>``).
"""

from __future__ import annotations

from engine.core.errors import IllegalCommand


class NoirIllegal(IllegalCommand):
    code = "noir_illegal"


class BadSetup(NoirIllegal):
    """A malformed create/start: wrong player count (NOIR-01), a deal not matching the table."""

    code = "noir_bad_setup"


class BadInput(NoirIllegal):
    """A malformed command: a value of the wrong type or shape (NOIR-X26)."""

    code = "noir_bad_input"


class NotInGame(NoirIllegal):
    code = "noir_not_in_game"


class AlreadyJoined(NoirIllegal):
    code = "noir_already_joined"


class GameFull(NoirIllegal):
    code = "noir_game_full"


class NotAllowed(NoirIllegal):
    code = "noir_not_allowed"


class WrongPhase(NoirIllegal):
    """The command does not belong to the game's phase or the turn's step (a stale button)."""

    code = "noir_wrong_phase"


class NotYourTurn(NoirIllegal):
    code = "noir_not_your_turn"


class NotYourRole(NoirIllegal):
    """The acting player's role has no such action (NOIR-02, 18..36)."""

    code = "noir_not_your_role"


class InvalidTarget(NoirIllegal):
    """A cell, suspect, line or token the rules do not offer for this action."""

    code = "noir_invalid_target"


class UndoForbidden(NoirIllegal):
    """NOIR-38, Q23: the previous player's shift may not be reversed straight away."""

    code = "noir_undo_forbidden"


class AlreadyUsed(NoirIllegal):
    """The Suit's token step was already taken this turn (NOIR-33)."""

    code = "noir_already_used"


class GamePaused(NoirIllegal):
    code = "noir_paused"


class NotPaused(NoirIllegal):
    code = "noir_not_paused"


class PauseLimit(NoirIllegal):
    code = "noir_pause_limit"


class GameOver(NoirIllegal):
    code = "noir_game_over"
