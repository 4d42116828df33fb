"""mafia-bot rules engine: pure, synchronous, deterministic (stdlib only).

Public API: :func:`apply`, :func:`replay`, :func:`legal_actions`, the command and event classes,
:data:`RULESETS` / :func:`find_ruleset`, and the :class:`IllegalCommand` hierarchy.
"""

from .audience import HOST, PUBLIC, Audience, HostOnly, Private, Public, TeamChat
from .commands import *  # noqa: F401,F403
from .commands import COMMAND_TYPES, Command
from .errors import *  # noqa: F401,F403
from .errors import IllegalCommand
from .events import *  # noqa: F401,F403
from .events import EVENT_TYPES, Event
from .forum_commands import *  # noqa: F401,F403  (the forum preset's commands)
from .forum_events import *  # noqa: F401,F403  (the forum preset's events)
from .game import apply, replay
from .queries import LegalActions, legal_actions
from .roles import Role, Team
from .rulesets import RULESETS, RuleSet, Tempo, find_ruleset
from .serialize import command_from_dict, event_from_dict, to_dict
from .state import GameState, Phase, Player
