"""The club (sport) preset (docs/rules/club.md): its rule set and the judge's tools."""

from .rules import CLUB  # noqa: F401
from .variant import ClubVariant  # noqa: F401
