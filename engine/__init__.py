"""mafia-bot rules engine: pure, synchronous, deterministic (stdlib only).

Public API: :func:`apply`, :func:`replay`, :func:`legal_actions`, the command and event classes,
:data:`RULESETS` / :func:`find_ruleset`, and the :class:`IllegalCommand` hierarchy.

Layout (docs/architecture.md, "Engine"): ``engine.core`` (no game), ``engine.mafia`` (what the
mafia presets share), one package per preset.  A game is registered here, one line each.
"""

from .club import ClubVariant
from .club.commands import (  # each preset's own commands and events
    AddTime,
    CancelFoul,
    DeclareProceduralLoss,
    EndTurn,
    IssueFoul,
    RestartTurn,
    UndoJudgeAction,
    UndoNomination,
)
from .club.events import (
    FoulCancelled,
    FoulIssued,
    JudgeActionUndone,
    NominationUndone,
    ProceduralLoss,
    TimeAdded,
    TurnEnded,
    TurnRestarted,
)
from .core.audience import HOST, PUBLIC, Audience, HostOnly, Private, Public, TeamChat
from .core.commands import COMMAND_TYPES, Command, CreateGame
from .core.errors import (
    AlreadyActed,
    AlreadyJoined,
    AlreadyNominated,
    AlreadyVoted,
    BadSetup,
    DuplicateNomination,
    GameFull,
    GameOver,
    GamePaused,
    IllegalCommand,
    InvalidTarget,
    NoNightAction,
    NotAllowed,
    NotEnoughPlayers,
    NotInGame,
    NotPaused,
    NotYourTurn,
    PauseLimit,
    PhaseClosed,
    PlayerDead,
    TargetNotAlive,
)
from .core.events import EVENT_TYPES, Event, GameCreated
from .core.game import GAMES, apply, decode_log, find_game, game_of, register, replay
from .core.serialize import command_from_dict, event_from_dict, to_dict
from .forum import ForumVariant
from .forum.actions import ForumActions
from .forum.commands import (
    FORUM_COMMANDS,
    ChooseSide,
    ComparePlayers,
    DecideBonusRound,
    GuessRoles,
    HostDecide,
    IssueWarning,
    NameSuspect,
    RevealCheck,
    VoteBestPlayer,
)
from .forum.events import (
    AFTER_WIN_EVENTS,
    BallotCast,
    BestPlayerChosen,
    BestPlayerVoted,
    BonusResults,
    CheckRevealed,
    CheckShrugged,
    ComparisonResult,
    GuessesRecorded,
    MafiaBlocked,
    NightDeaths,
    NightExtended,
    NightWake,
    PlayerRemoved,
    RolesRevealed,
    SideChosen,
    SleepwalkerRevealed,
    SuspectNamed,
    VictoryDeclared,
    WarningIssued,
    WerewolfTurned,
)
from .forum.phases import ForumPhase
from .mafia.commands import (
    BecomeHost,
    CancelGame,
    CastExcludeVote,
    CastVote,
    ChangeSettings,
    Continue,
    Disqualify,
    EndSpeech,
    HostNext,
    Join,
    JudgeCommand,
    Leave,
    MarkActive,
    MarkAfk,
    MarkInactive,
    MarkReady,
    NightAction,
    Nominate,
    OwnPhaseCommand,
    Pause,
    PhaseTimeout,
    RelayMessage,
    Resume,
    StartGame,
    TakeOver,
)
from .mafia.events import (
    CheckResult,
    ContinueAvailable,
    DayWithoutElimination,
    DonCheckResult,
    ExcludeVoteCast,
    ExcludeVoteResult,
    GameCancelled,
    GameEnded,
    GameStarted,
    HostAssigned,
    HostModeEnded,
    HostRoles,
    MafiaPicks,
    MafiaRevealed,
    NightActionAccepted,
    NightResult,
    NominationAccepted,
    OrganiserChanged,
    Paused,
    PhaseStarted,
    PlayerActive,
    PlayerAfk,
    PlayerEliminated,
    PlayerInactive,
    PlayerJoined,
    PlayerLeft,
    ReadyMarked,
    RelayedMessage,
    Resumed,
    RoleAssigned,
    SettingsChanged,
    TieRevote,
    TurnSkipped,
    VoteCast,
    VoteResult,
    VoteWindowOpened,
    private,
)
from .mafia.queries import LegalActions, legal_actions
from .mafia.roles import Role, Team
from .mafia.rules import REVISION, RULESETS, RuleSet, Tempo, find_ruleset, rules_revision
from .mafia.state import GameState, Phase, Player, state_to_dict
from .noir.variant import NoirGame  # NOIR's commands stay in engine.noir (their names clash)
from .online import OnlineVariant
from .online.actions import OnlineActions
from .online.commands import ChooseBestMove, TapLift, TapVote
from .online.events import BestMove, LiftCalled, LiftTapped, Misfire, VoteTapped
from .online.phases import OnlinePhase
from .party import PartyVariant

#: the public API (everything above; NOIR's commands stay in ``engine.noir``)
__all__ = [
    "AFTER_WIN_EVENTS", "AddTime", "AlreadyActed", "AlreadyJoined", "AlreadyNominated",
    "AlreadyVoted", "Audience", "BadSetup", "BallotCast", "BecomeHost", "BestMove",
    "BestPlayerChosen", "BestPlayerVoted", "BonusResults", "COMMAND_TYPES", "CancelFoul",
    "CancelGame", "CastExcludeVote", "CastVote", "ChangeSettings", "CheckResult", "CheckRevealed",
    "CheckShrugged", "ChooseBestMove", "ChooseSide", "ClubVariant", "Command", "ComparePlayers",
    "ComparisonResult", "Continue", "ContinueAvailable", "CreateGame", "DayWithoutElimination",
    "DecideBonusRound", "DeclareProceduralLoss", "Disqualify", "DonCheckResult",
    "DuplicateNomination", "EVENT_TYPES", "EndSpeech", "EndTurn", "Event", "ExcludeVoteCast",
    "ExcludeVoteResult", "FORUM_COMMANDS", "ForumActions", "ForumPhase", "ForumVariant",
    "FoulCancelled", "FoulIssued", "GAMES", "GameCancelled", "GameCreated", "GameEnded",
    "GameFull", "GameOver", "GamePaused", "GameStarted", "GameState", "GuessRoles",
    "GuessesRecorded", "HOST", "HostAssigned", "HostDecide", "HostModeEnded", "HostNext",
    "HostOnly", "HostRoles", "IllegalCommand", "InvalidTarget", "IssueFoul", "IssueWarning",
    "Join", "JudgeActionUndone", "JudgeCommand", "Leave", "LegalActions", "LiftCalled",
    "LiftTapped", "MafiaBlocked", "MafiaPicks", "MafiaRevealed", "MarkActive", "MarkAfk",
    "MarkInactive", "MarkReady", "Misfire", "NameSuspect", "NightAction", "NightActionAccepted",
    "NightDeaths", "NightExtended", "NightResult", "NightWake", "NoNightAction", "NoirGame",
    "Nominate", "NominationAccepted", "NominationUndone", "NotAllowed", "NotEnoughPlayers",
    "NotInGame", "NotPaused", "NotYourTurn", "OnlineActions", "OnlinePhase", "OnlineVariant",
    "OrganiserChanged", "OwnPhaseCommand", "PUBLIC", "PartyVariant", "Pause", "PauseLimit",
    "Paused", "Phase", "PhaseClosed", "PhaseStarted", "PhaseTimeout", "Player", "PlayerActive",
    "PlayerAfk", "PlayerDead", "PlayerEliminated", "PlayerInactive", "PlayerJoined", "PlayerLeft",
    "PlayerRemoved", "Private", "ProceduralLoss", "Public", "REVISION", "RULESETS", "ReadyMarked",
    "RelayMessage", "RelayedMessage", "RestartTurn", "Resume", "Resumed", "RevealCheck", "Role",
    "RoleAssigned", "RolesRevealed", "RuleSet", "SettingsChanged", "SideChosen",
    "SleepwalkerRevealed", "StartGame", "SuspectNamed", "TakeOver", "TapLift", "TapVote",
    "TargetNotAlive", "Team", "TeamChat", "Tempo", "TieRevote", "TimeAdded", "TurnEnded",
    "TurnRestarted", "TurnSkipped", "UndoJudgeAction", "UndoNomination", "VictoryDeclared",
    "VoteBestPlayer", "VoteCast", "VoteResult", "VoteTapped", "VoteWindowOpened", "WarningIssued",
    "WerewolfTurned", "apply", "command_from_dict", "decode_log", "event_from_dict", "find_game",
    "find_ruleset", "game_of", "legal_actions", "private", "register", "replay", "rules_revision",
    "state_to_dict", "to_dict",
]

# --- the games, one line each (the first CreateGame of a log names one of them) ---------------
register(PartyVariant())
register(ClubVariant())
register(OnlineVariant())
register(ForumVariant())
register(NoirGame())
