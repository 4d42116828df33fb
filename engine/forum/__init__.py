"""The forum preset (docs/rules/forum.md): its rule set, commands, events, state and phases.

``from engine.forum import team_chat, winners, may_write`` -- the answers the bot reads (who
reads the mafia's chat, who won with the chosen sides, the chat discipline).
"""

from .after import winners
from .events import AFTER_WIN_EVENTS
from .night import team_chat
from .rules import FORUM
from .variant import PHASES, ForumVariant, legal, may_write

__all__ = [
    "AFTER_WIN_EVENTS", "FORUM", "ForumVariant", "PHASES", "legal", "may_write", "team_chat",
    "winners",
]
