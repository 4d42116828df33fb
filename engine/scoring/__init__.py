"""Scores of sport mafia games (docs/rules/scoring.md): scoring systems as data
(:mod:`.systems`) and the score sheet of a finished game, computed from its log (:mod:`.sheet`).

This package sits above the presets (it reads the club's fouls and the online best move), and
no preset imports it (the import-linter layers in pyproject.toml).
"""

from .sheet import Facts, NotFinished, ScoreSheet, SeatScore, facts_of, score_sheet, sheet_of_log
from .systems import (
    CUSTOM,
    FIIM,
    PLAIN,
    SYSTEMS,
    BadScoring,
    ScoringSystem,
    find_system,
    system_from_settings,
)

__all__ = [
    "CUSTOM", "FIIM", "PLAIN", "SYSTEMS", "BadScoring", "Facts", "NotFinished", "ScoreSheet",
    "ScoringSystem", "SeatScore", "facts_of", "find_system", "score_sheet", "sheet_of_log",
    "system_from_settings",
]
