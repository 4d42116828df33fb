"""The online sport preset (docs/rules/online-sport.md): its rule set, day, night and presence.

``from engine.online import choices, lift_needed, may_write, tie_outcome`` -- the answers the
bot reads (the ballot's choices, the lift threshold, the chat discipline, the tie table).
"""

from .day import PHASES, choices, legal, lift_needed, may_write, tie_outcome  # noqa: F401
from .night import shot_target  # noqa: F401
from .rules import ONLINE  # noqa: F401
from .variant import OnlineVariant  # noqa: F401
