"""The party preset (docs/rules/party.md): the shared mafia game with the party rule set."""

from .rules import PARTY
from .variant import PartyVariant

__all__ = ["PARTY", "PartyVariant"]
