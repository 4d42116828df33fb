"""Tournaments of sport mafia (docs/rules/tournament.md, prefix ``TOUR``): the seating draw
(:func:`draw` -> :class:`Schedule`, its figures :func:`quality` against :func:`best_quality`)
and the standings from the games' score sheets (:func:`standings`).

Pure and synchronous like the rest of the engine: the draw's chance comes from the organiser's
seed only.  This package sits above :mod:`engine.scoring` (it reads the score sheets); nothing
in the engine imports it (the import-linter contracts in pyproject.toml); the bot does.
"""

from .quality import Quality, best_quality, quality
from .schedule import BadDraw, BadSchedule, Schedule, ScheduledGame
from .seating import MAX_GAMES, MAX_PLAYERS, MIN_PLAYERS, draw
from .standings import (
    DEFAULT_TIE_BREAKS,
    TIE_BREAKS,
    BadTieBreak,
    Played,
    Row,
    Tally,
    check_tie_breaks,
    standings,
)

__all__ = [
    "DEFAULT_TIE_BREAKS", "MAX_GAMES", "MAX_PLAYERS", "MIN_PLAYERS", "TIE_BREAKS", "BadDraw",
    "BadSchedule", "BadTieBreak", "Played", "Quality", "Row", "Schedule", "ScheduledGame", "Tally",
    "best_quality", "check_tie_breaks", "draw", "quality", "standings",
]
