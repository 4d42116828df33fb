"""The online preset's own phases (rule IDs in docs/rules/online-sport.md); their values are the
stored ``PhaseStarted.phase``."""

from __future__ import annotations

from enum import Enum


class OnlinePhase(str, Enum):  # noqa: UP042  StrEnum would change str() and f"{member}" from "Cls.NAME" to the value
    DISCUSSION = "discussion"  # ONLINE-Q02: the day's open discussion with the vote live
    REVOTE = "revote"  # ONLINE-27..31, 34: a vote among the tied leaders only
    LIFT_VOTE = "lift_vote"  # ONLINE-24, 32, 33: Lift or Leave the tied leaders
    BEST_MOVE = "best_move"  # ONLINE-07/08: the first victim names three players
