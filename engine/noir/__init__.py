"""NOIR, "FBI vs Mafia": the grid game of hidden identities, as a pure, synchronous engine
(stdlib only; docs/rules/noir.md).

It shares only the conventions of ``engine/``: frozen commands in, events with audiences out
(:mod:`engine.core.audience`), refusals as :class:`engine.core.errors.IllegalCommand`, the log, chance and
time as data.  Entry points: :func:`apply`, :func:`replay`, :func:`legal_actions`,
:func:`chain_links`, the views :func:`public_board` / :func:`private_card`, and the JSON
helpers of :mod:`engine.noir.serialize`.
"""

from engine.core.audience import PUBLIC, Private, Public
from engine.core.errors import IllegalCommand

from .commands import (
    COMMAND_TYPES,
    Accuse,
    AnswerCancel,
    Autopsy,
    CancelGame,
    ChangeIdentity,
    Collapse,
    Command,
    CreateGame,
    Detonate,
    Interrogate,
    Join,
    Kill,
    Leave,
    MoveToken,
    Pause,
    PlaceBomb,
    PlaceThreats,
    Profile,
    Protect,
    Resume,
    ReturnToGame,
    Shift,
    Shoot,
    StartGame,
    Swap,
    TurnTimeout,
    Unprotect,
)
from .errors import (
    AlreadyJoined,
    AlreadyUsed,
    BadInput,
    BadSetup,
    GameFull,
    GameOver,
    GamePaused,
    InvalidTarget,
    NoirIllegal,
    NotAllowed,
    NotInGame,
    NotPaused,
    NotYourRole,
    NotYourTurn,
    PauseLimit,
    UndoForbidden,
    WrongPhase,
)
from .events import (
    EVENT_TYPES,
    Accused,
    Arrested,
    AutopsyDone,
    BombPlaced,
    CancelOffered,
    Collapsed,
    Detonated,
    Event,
    GameCancelled,
    GameCreated,
    GameEnded,
    GameStarted,
    HandDealt,
    IdentityCard,
    IdentityChanged,
    Interrogated,
    KillAttempted,
    KillCancelled,
    Paused,
    PlayerJoined,
    PlayerLeft,
    PlayerReturned,
    Profiled,
    Resumed,
    ShieldPlaced,
    ShieldRemoved,
    Shifted,
    Shot,
    SuspectKilled,
    Swapped,
    ThreatsPlaced,
    ThreatsSkipped,
    TimerArmed,
    TokenMoved,
    TokensCleared,
    TurnStarted,
    TurnTimedOut,
    WindowOpened,
)
from .game import apply, replay
from .grid import cell_name, positions
from .queries import LegalActions, chain_links, legal_actions
from .rules import TABLES, Role, Team
from .serialize import (
    command_from_dict,
    event_from_dict,
    state_from_dict,
    state_to_dict,
    to_dict,
)
from .state import NoirState, Player
from .view import PrivateCard, PublicBoard, private_card, public_board

#: the public API (the names ``engine.noir`` has always offered)
__all__ = [
    "Accuse", "Accused", "AlreadyJoined", "AlreadyUsed", "AnswerCancel", "Arrested", "Autopsy",
    "AutopsyDone", "BadInput", "BadSetup", "BombPlaced", "COMMAND_TYPES", "CancelGame",
    "CancelOffered", "ChangeIdentity", "Collapse", "Collapsed", "Command", "CreateGame", "Detonate",
    "Detonated", "EVENT_TYPES", "Event", "GameCancelled", "GameCreated", "GameEnded", "GameFull",
    "GameOver", "GamePaused", "GameStarted", "HandDealt", "IdentityCard", "IdentityChanged",
    "IllegalCommand", "Interrogate", "Interrogated", "InvalidTarget", "Join", "Kill",
    "KillAttempted", "KillCancelled", "Leave", "LegalActions", "MoveToken", "NoirIllegal",
    "NoirState", "NotAllowed", "NotInGame", "NotPaused", "NotYourRole", "NotYourTurn", "PUBLIC",
    "Pause", "PauseLimit", "Paused", "PlaceBomb", "PlaceThreats", "Player", "PlayerJoined",
    "PlayerLeft", "PlayerReturned", "Private", "PrivateCard", "Profile", "Profiled", "Protect",
    "Public", "PublicBoard", "Resume", "Resumed", "ReturnToGame", "Role", "ShieldPlaced",
    "ShieldRemoved", "Shift", "Shifted", "Shoot", "Shot", "StartGame", "SuspectKilled", "Swap",
    "Swapped", "TABLES", "Team", "ThreatsPlaced", "ThreatsSkipped", "TimerArmed", "TokenMoved",
    "TokensCleared", "TurnStarted", "TurnTimedOut", "TurnTimeout", "UndoForbidden", "Unprotect",
    "WindowOpened", "WrongPhase", "apply", "cell_name", "chain_links", "command_from_dict",
    "event_from_dict", "legal_actions", "positions", "private_card", "public_board", "replay",
    "state_from_dict", "state_to_dict", "to_dict",
]
