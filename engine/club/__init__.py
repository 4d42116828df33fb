"""The club (sport) preset (docs/rules/club.md): its rule set and the judge's tools."""

from .rules import CLUB
from .variant import ClubVariant

__all__ = ["CLUB", "ClubVariant"]
