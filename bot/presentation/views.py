"""The views the shared adapter shows for any game — the table (the onlookers' copy), the
timings (/settings), the lobby's optional roles — looked up in the game's bot package through
the registry (``bot.games``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import GameState

from ..games import bot_game
from ..ui.timings import TEMPO_NAMES, tempo_name, timing_labels
from ..ui.timings import timings_text as _timings_text

if TYPE_CHECKING:
    from ..ui.i18n import Gettext


def timings_text(_: Gettext, timings: dict, ruleset: str) -> str:
    """The durations the game ``ruleset`` uses, e.g. "speech 60 s · defence 30 s · …"
    (seconds); an unknown name shows the party preset's."""
    try:
        keys = bot_game(ruleset).timing_keys
    except KeyError:
        keys = bot_game("party").timing_keys
    return _timings_text(_, timings, keys)


def timings_line(_: Gettext, st: GameState) -> str:
    return timings_text(_, st.timings, st.ruleset)


def table_text(_: Gettext, st: GameState) -> str:
    """The game's table message (HTML) for ``st``."""
    return bot_game(st.ruleset).table_text(_, st)


def toggled_roles(st: GameState, name: str) -> list[str]:
    """The lobby's optional roles after toggling ``name`` (games with optional roles; raises
    ``KeyError`` for a game without them)."""
    toggle = bot_game(st.ruleset).toggled_roles
    if toggle is None:
        raise KeyError(st.ruleset)
    return toggle(st, name)


__all__ = ["TEMPO_NAMES", "table_text", "tempo_name", "timing_labels", "timings_line",
           "timings_text", "toggled_roles"]
