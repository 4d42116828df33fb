"""Which commands change a game's roster (its ``game_players`` rows), by the engine's types.

Every game's lobby speaks through the same few commands, but not through the same classes: the
mafia presets share ``engine.mafia.commands`` (``Join``, ``BecomeHost``, ``Leave``,
``StartGame``), NOIR has its own of the same names on its own ``Command`` base
(``engine.noir.commands``: ``Join``, ``Leave``, ``StartGame``; no host). The service asks
``isinstance`` against these tuples, never a class's name. A new game with its own lobby
commands adds them here (``tests/bot/test_roster.py`` finds one left out).
"""

from __future__ import annotations

from typing import Final

from engine import BecomeHost, Join, Leave, StartGame
from engine.noir import commands as noir

#: a user joins the lobby (``name``: his display name at the time)
JOINS: Final = (Join, noir.Join)
#: a user becomes the game's human host (``name`` may be empty)
HOSTS: Final = (BecomeHost,)
#: a user leaves the lobby
LEAVES: Final = (Leave, noir.Leave)
#: the deal: the seats are taken
STARTS: Final = (StartGame, noir.StartGame)
#: commands that bring a user to the table (a rejoin brings his name of today)
ADDS: Final = JOINS + HOSTS
