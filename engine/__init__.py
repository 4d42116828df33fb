"""mafia-bot rules engine: pure, synchronous, deterministic (stdlib only).

Public API: :func:`apply`, :func:`replay`, :func:`legal_actions`, the command and event classes,
:data:`RULESETS` / :func:`find_ruleset`, and the :class:`IllegalCommand` hierarchy.

Layout (docs/architecture.md, "Engine"): ``engine.core`` (no game), ``engine.mafia`` (what the
mafia presets share), one package per preset.  A game is registered here, one line each.
"""

from .core.audience import HOST, PUBLIC, Audience, HostOnly, Private, Public, TeamChat
from .core.commands import COMMAND_TYPES, Command
from .core.errors import *  # noqa: F401,F403
from .core.errors import IllegalCommand
from .core.events import EVENT_TYPES, Event
from .core.game import GAMES, find_game, register
from .core.game import apply, decode_log, game_of, replay
from .core.serialize import command_from_dict, event_from_dict, to_dict
from .mafia.commands import *  # noqa: F401,F403
from .mafia.events import *  # noqa: F401,F403
from .mafia.queries import LegalActions, legal_actions
from .mafia.roles import Role, Team
from .mafia.rules import RULESETS, RuleSet, Tempo, find_ruleset
from .mafia.state import GameState, Phase, Player, state_to_dict
from .club.commands import *  # noqa: F401,F403  (each preset's own commands and events)
from .club.events import *  # noqa: F401,F403
from .online.commands import *  # noqa: F401,F403
from .online.events import *  # noqa: F401,F403
from .forum.commands import *  # noqa: F401,F403
from .forum.events import *  # noqa: F401,F403

from .party import PartyVariant
from .club import ClubVariant
from .online import OnlineVariant
from .forum import ForumVariant
from .online.actions import OnlineActions
from .online.phases import OnlinePhase
from .forum.phases import ForumPhase
from .forum.actions import ForumActions
from .noir.variant import NoirGame  # NOIR's commands stay in engine.noir (their names clash)

# --- the games, one line each (the first CreateGame of a log names one of them) ---------------
register(PartyVariant())
register(ClubVariant())
register(OnlineVariant())
register(ForumVariant())
register(NoirGame())
