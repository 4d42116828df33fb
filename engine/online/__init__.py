"""The online sport preset (docs/rules/online-sport.md): its rule set, day, night and presence.

``from engine.online import choices, lift_needed, may_write, tie_outcome`` -- the answers the
bot reads (the ballot's choices, the lift threshold, the chat discipline, the tie table).
"""

from .day import PHASES, choices, legal, lift_needed, may_write, tie_outcome
from .night import shot_target
from .rules import ONLINE
from .variant import OnlineVariant

__all__ = [
    "ONLINE", "OnlineVariant", "PHASES", "choices", "legal", "lift_needed", "may_write",
    "shot_target", "tie_outcome",
]
