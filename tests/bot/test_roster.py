"""The service decides who joins, hosts, leaves and is dealt by the engine's types
(``bot/services/roster.py``, issue 23 item 3), for every game: the mafia presets' lobby commands
and NOIR's classes of the same names."""

from __future__ import annotations

import engine
import engine.noir.commands as noir
from bot.services import roster
from bot.services.index import members_of
from engine import BecomeHost, Command, Join, Leave

ROLES = {"Join": roster.JOINS, "BecomeHost": roster.HOSTS, "Leave": roster.LEAVES,
         "StartGame": roster.STARTS}


def _subclasses(cls: type) -> set[type]:
    found: set[type] = set(cls.__subclasses__())
    for sub in list(found):
        found |= _subclasses(sub)
    return found


def test_every_lobby_command_of_every_game_is_known_by_type():
    """A game with its own ``Join`` (or Leave, BecomeHost, StartGame) must be listed, else its
    players would never get their ``game_players`` rows."""
    assert engine.GAMES  # every game's engine package is imported
    named = [c for c in _subclasses(Command) | _subclasses(noir.Command) if c.__name__ in ROLES]
    assert {c.__module__ for c in named} >= {"engine.mafia.commands", "engine.noir.commands"}
    for cls in named:
        assert cls in ROLES[cls.__name__], f"{cls.__module__}.{cls.__name__} missing in roster"


def test_members_follow_joins_hosts_and_leaves_of_both_families():
    log = [Join(user_id=1, name="a"), BecomeHost(user_id=2, name="h"), Leave(user_id=1),
           noir.Join(user_id=3, name="c"), noir.Join(user_id=4, name="d"), noir.Leave(user_id=4)]
    assert members_of(log) == {2, 3}


def test_a_class_merely_named_join_is_not_a_join():
    """By type, not by name: a look-alike class outside the engine changes nothing."""
    lookalike = type("Join", (), {"user_id": 5, "name": "x"})()
    assert members_of([lookalike]) == set()
