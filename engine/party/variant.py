"""The party preset's game object (rule IDs in docs/rules/party.md): the shared mafia day and
night of :mod:`engine.mafia.flow` as they are, with the party rule set."""

from __future__ import annotations

from ..mafia.variant import MafiaVariant
from .rules import PARTY


class PartyVariant(MafiaVariant):
    rules = PARTY
