"""The games with their own history rendering, reached through the registry
(``bot.games.bot_game(ruleset).history``; docs/history.md, "Games with their own history").

Such a game (NOIR) stores its teams *scoped* in the history tables -- ``<ruleset>:<team>``, e.g.
``noir:agents`` -- so its results never mix with the mafia presets' town and mafia, and the
names here find the game from the team alone.  A scoped team feeds no Elo track when its game
says ``rated = False``.  Every other ruleset (the mafia presets) has no hook: the shared
modules of ``bot/history`` render it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..games import GAMES
from .lines import role_text as mafia_role_text
from .lines import team_text as mafia_team_text

Gettext = Callable[[str], str]


def hook(ruleset: str | None) -> Any:
    """The game's history hook, or None (a mafia preset, an unknown ruleset)."""
    game = GAMES.get(ruleset or "")
    return game.history if game is not None else None


def scope_of(team: str | None) -> str | None:
    """``noir:agents`` -> ``noir``; None for a plain (mafia presets') team."""
    if team and ":" in team:
        return team.split(":", 1)[0]
    return None


def rated(team: str | None) -> bool:
    """Whether results on ``team`` feed the Elo rating (plain teams do)."""
    h = hook(scope_of(team))
    return h is None if scope_of(team) is None else bool(getattr(h, "rated", False))


def team_text(_: Gettext, team: str | None) -> str:
    h = hook(scope_of(team))
    return h.team_name(_, team) if h is not None else mafia_team_text(_, team)


def role_text(_: Gettext, role: str | None, *, team: str | None = None,
              ruleset: str | None = None) -> str:
    """A role's name; the game is found from ``ruleset`` or from a scoped ``team``."""
    h = hook(ruleset) or hook(scope_of(team))
    return h.role_name(_, role) if h is not None else mafia_role_text(_, role)


def rounds_text(ngettext, ruleset: str, n: int) -> str | None:
    """``12 turns`` for a game with a hook, None for the mafia presets (days)."""
    h = hook(ruleset)
    return h.rounds_text(ngettext, n) if h is not None else None


def hooked_rulesets() -> list[str]:
    """The rulesets with their own history rendering, in registry order."""
    return [name for name, game in GAMES.items() if game.history is not None]
