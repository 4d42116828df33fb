"""The party preset (docs/rules/party.md): the shared mafia game with the party rule set."""

from .rules import PARTY  # noqa: F401
from .variant import PartyVariant  # noqa: F401
