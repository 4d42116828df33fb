"""The games with their own history rendering, reached through the registry
(``bot.games.bot_game(ruleset).history``; docs/history.md, "Games with their own history").

Such a game (NOIR) stores its teams *scoped* in the history tables -- ``<ruleset>:<team>``, e.g.
``noir:agents`` -- so its results never mix with the mafia presets' town and mafia, and the
names here find the game from the team alone.  A scoped team feeds no Elo track when its game
says ``rated = False``.  Every other ruleset (the mafia presets) has no hook: the shared
modules of ``bot/history`` render it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ..games import GAMES
from .lines import role_text as mafia_role_text
from .lines import team_text as mafia_team_text

Gettext = Callable[[str], str]
NGettext = Callable[[str, str, int], str]


class PlayerOutcome(Protocol):
    """One player's result in a :class:`GameOutcome` (``team`` scoped, e.g. ``noir:agents``)."""

    @property
    def user_id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def seat(self) -> int: ...
    @property
    def role(self) -> str: ...
    @property
    def team(self) -> str: ...
    @property
    def won(self) -> bool: ...
    @property
    def survived(self) -> bool: ...


class GameOutcome(Protocol):
    """A finished game's summary by its hook: ``winner`` a scoped team or None (a draw);
    ``rounds`` its own rounds (NOIR: turns; stored as the summary's ``days``)."""

    @property
    def winner(self) -> str | None: ...
    @property
    def rounds(self) -> int: ...
    @property
    def players(self) -> Sequence[PlayerOutcome]: ...


class HistoryHook(Protocol):
    """What this package asks of a game's own history rendering (``BotGame.history``;
    bot/games/noir/history.py implements it). ``entries``: the game's log (:class:`Entry`);
    ``steps``: the hook's own boards of the replay, opaque here; it may say ``rated = False``
    (its teams feed no Elo track, read with ``getattr``)."""

    def team_name(self, _: Gettext, team: str | None) -> str: ...
    def role_name(self, _: Gettext, role: str | None) -> str: ...
    def rounds_text(self, ngettext: NGettext, n: int) -> str: ...
    def outcome(self, entries: Sequence[Any]) -> GameOutcome | None: ...
    def participants(self, entries: Sequence[Any]) -> set[int]: ...
    def protocol_blocks(self, _: Gettext, ngettext: NGettext, entries: Sequence[Any]) -> list[str]: ...
    def steps(self, entries: Sequence[Any]) -> list[Any]: ...
    def step_view(self, _: Gettext, entries: Sequence[Any], steps: list[Any],
                  k: int, head: str) -> tuple[str, bytes, str]: ...
    def knew_pages(self, _: Gettext, entries: Sequence[Any], viewer: int) -> list[str]: ...


def hook(ruleset: str | None) -> HistoryHook | None:
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


def rounds_text(ngettext: NGettext, ruleset: str, n: int) -> str | None:
    """``12 turns`` for a game with a hook, None for the mafia presets (days)."""
    h = hook(ruleset)
    return h.rounds_text(ngettext, n) if h is not None else None


def hooked_rulesets() -> list[str]:
    """The rulesets with their own history rendering, in registry order."""
    return [name for name, game in GAMES.items() if game.history is not None]
