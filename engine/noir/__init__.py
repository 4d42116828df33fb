"""NOIR, "FBI vs Mafia": the grid game of hidden identities, as a pure, synchronous engine
(stdlib only; docs/rules/noir.md).

It shares only the conventions of ``engine/``: frozen commands in, events with audiences out
(:mod:`engine.core.audience`), refusals as :class:`engine.core.errors.IllegalCommand`, the log, chance and
time as data.  Entry points: :func:`apply`, :func:`replay`, :func:`legal_actions`,
:func:`chain_links`, the views :func:`public_board` / :func:`private_card`, and the JSON
helpers of :mod:`engine.noir.serialize`.
"""

from .commands import *  # noqa: F401,F403
from .commands import COMMAND_TYPES, Command
from .errors import *  # noqa: F401,F403
from .events import *  # noqa: F401,F403
from .events import EVENT_TYPES, Event
from .game import apply, replay
from .grid import cell_name, positions
from .queries import LegalActions, chain_links, legal_actions
from .rules import TABLES, Role, Team
from .serialize import (
    command_from_dict, event_from_dict, state_from_dict, state_to_dict, to_dict,
)
from .state import NoirState, Player
from .view import PrivateCard, PublicBoard, private_card, public_board
