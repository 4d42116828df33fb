"""The forum preset (docs/rules/forum.md): its rule set, commands, events, state and phases.

``from engine.forum import team_chat, winners, may_write`` -- the answers the bot reads (who
reads the mafia's chat, who won with the chosen sides, the chat discipline).
"""

from .after import winners  # noqa: F401
from .events import AFTER_WIN_EVENTS  # noqa: F401
from .night import team_chat  # noqa: F401
from .rules import FORUM  # noqa: F401
from .variant import PHASES, ForumVariant, legal, may_write  # noqa: F401
