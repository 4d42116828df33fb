"""The forum preset's own phases (docs/rules/forum.md); their values are the stored
``PhaseStarted.phase``."""

from __future__ import annotations

from enum import Enum


class ForumPhase(str, Enum):  # noqa: UP042  StrEnum would change str() and f"{member}" from "Cls.NAME" to the value
    COP_TURN = "cop_turn"  # FORUM-44, Q21: the Cop moves first, alone
    DEBATE = "debate"  # FORUM-52: the day's discussion before its one vote
    BALLOT = "ballot"  # FORUM-07..12, Q05, Q06: the vote, the revote, the host's decision
    BONUS_OFFER = "bonus_offer"  # FORUM-56, Q23: after the win, a bonus round may start
    BONUS = "bonus"  # FORUM-56, Q23: everybody guesses the hidden roles
    BEST_PLAYER = "best_player"  # FORUM-57, Q24: the vote for the best player
