"""The registry of the games' bot packages: preset name -> its :class:`~bot.games.spec.BotGame`.

The shared adapter (handlers, service, presenter, views) reaches a game only through
:func:`bot_game`; nothing outside this package imports ``bot.games.<name>`` (an import-linter
contract in ``pyproject.toml`` checks it).  Adding a game's bot side = one package under
``bot/games/`` exposing ``GAME`` + one line here."""

from __future__ import annotations

from .club import GAME as CLUB
from .forum import GAME as FORUM
from .noir import GAME as NOIR
from .online import GAME as ONLINE
from .party import GAME as PARTY
from .spec import BotGame

GAMES: dict[str, BotGame] = {g.name: g for g in (PARTY, CLUB, ONLINE, FORUM, NOIR)}


#: code -> the answer an accepted press gets, over every game (the games agree on shared codes)
CONFIRM: dict[str, str] = {code: emoji for g in GAMES.values()
                           for code, emoji in g.codec.CONFIRM.items()}


def bot_game(name: str) -> BotGame:
    """The bot side of the rule set ``name`` (``GameState.ruleset``). Raises ``KeyError``."""
    return GAMES[name]


__all__ = ["BotGame", "CONFIRM", "GAMES", "bot_game"]
