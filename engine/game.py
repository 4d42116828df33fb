"""The engine's entry points: :func:`new_game`, :func:`apply`, :func:`replay`.

``apply(state, command) -> (new_state, events)`` is one atomic step: it works on a private deep copy
(:meth:`GameState.clone`), so a raised :class:`~engine.errors.IllegalCommand` leaves the caller's
state untouched.  The engine never reads the clock and draws no random numbers; it is deterministic,
so replaying a game's command log rebuilds exactly the same state (design.md §2-3).
"""

from __future__ import annotations

from typing import Iterable

from . import control, forum, handlers_lobby as lobby, handlers_play as play, moderation, online
from .commands import (
    BecomeHost, CancelFoul, CancelGame, CastExcludeVote, CastVote, ChangeSettings, Command,
    Continue, CreateGame, Disqualify, EndSpeech, HostNext, IssueFoul, Join, Leave, MarkActive,
    MarkInactive, MarkReady, Nominate, NightAction, Pause, PhaseTimeout, RelayMessage, Resume,
    StartGame, TakeOver, UndoNomination, TapVote, TapLift, ChooseBestMove, MarkAfk,
)
from .errors import BadSetup, GameOver, GamePaused, IllegalCommand
from .events import Event, GameCreated
from .forum_commands import IssueWarning
from .rulesets import find_ruleset
from .state import GameState
from .step import Step

HANDLERS = {
    Join: lobby.join, Leave: lobby.leave, BecomeHost: lobby.become_host,
    ChangeSettings: lobby.change_settings, StartGame: lobby.start_game, CancelGame: lobby.cancel,
    MarkReady: play.mark_ready, Continue: play.continue_, EndSpeech: play.end_speech,
    Nominate: play.nominate, CastVote: play.cast_vote, CastExcludeVote: play.cast_exclude_vote,
    NightAction: play.night_action, RelayMessage: play.relay, HostNext: play.host_next,
    PhaseTimeout: play.phase_timeout, Pause: control.pause, Resume: control.resume,
    TakeOver: control.take_over, MarkInactive: control.mark_inactive,
    MarkActive: control.mark_active, IssueFoul: moderation.issue_foul,
    Disqualify: moderation.disqualify, CancelFoul: moderation.cancel_foul,
    UndoNomination: moderation.undo_nomination,
    TapVote: online.tap_vote, TapLift: online.tap_lift, ChooseBestMove: online.choose_best_move,
    MarkAfk: online.mark_afk,
}

#: Commands accepted while the game is paused (everything else raises GamePaused).
WHILE_PAUSED = (Resume, Pause, MarkInactive, MarkActive, PhaseTimeout, CancelGame, ChangeSettings,
                TakeOver, RelayMessage, MarkAfk)
#: Commands that do not count as "the user is here" (PARTY-44).
NOT_PRESENCE = (CreateGame, MarkInactive, PhaseTimeout, Join, Leave, BecomeHost, StartGame,
                IssueFoul, Disqualify, CancelFoul, UndoNomination, MarkAfk, IssueWarning)


def new_game(cmd: CreateGame) -> tuple[GameState, list[Event]]:
    """Build the initial state from the log's first command. Raises BadSetup (unknown rule set)."""
    try:
        rs = find_ruleset(cmd.ruleset)
    except KeyError as exc:
        raise BadSetup(f"unknown rule set {cmd.ruleset!r}") from exc
    settings = dict(cmd.settings)
    st = GameState(ruleset=rs.name, organiser=cmd.user_id, settings=settings,
                   timings=rs.timings(settings),
                   options={**rs.default_options, **(settings.get("options") or {})})
    if rs.check_options:
        rs.check_options(st.options)
    st.commands = 1
    return st, [GameCreated(ruleset=rs.name, organiser=cmd.user_id)]


def apply(state: GameState | None, cmd: Command) -> tuple[GameState, list[Event]]:
    """Apply one command. ``state`` None only with :class:`CreateGame`.

    Returns the new state (the input is never mutated) and the events, in order.
    Raises an :class:`IllegalCommand` subclass when the rules refuse the command.
    """
    if isinstance(cmd, CreateGame):
        if state is not None:
            raise BadSetup("game exists")
        return new_game(cmd)
    if state is None:
        raise BadSetup("the first command must be CreateGame")
    if state.over:
        raise GameOver()
    rs = find_ruleset(state.ruleset)
    handler = HANDLERS.get(type(cmd))
    if rs.hooks == "forum":  # FORUM: the preset's own handlers first (engine/forum.py)
        handler = forum.HANDLERS.get(type(cmd), handler)
    if handler is None:
        raise IllegalCommand(f"unknown command {type(cmd).__name__}")
    if state.pause and not isinstance(cmd, WHILE_PAUSED):
        raise GamePaused()
    st = state.clone()
    s = Step(st, rs)
    if not isinstance(cmd, NOT_PRESENCE):
        control.reactivate(s, cmd.user_id)
    handler(s, cmd)
    me = st.players.get(cmd.user_id) if cmd.user_id is not None else None
    if me is not None and not isinstance(cmd, NOT_PRESENCE):
        me.misses = 0  # PARTY-X25: any accepted action shows he is there (a speech, a vote...)
    st.commands += 1
    return st, s.events


def replay(commands: Iterable[Command]) -> tuple[GameState, list[list[Event]]]:
    """Rebuild a game from its log. Returns the final state and the events of every command.

    Raises :class:`IllegalCommand` if the log holds a command the rules refuse (a corrupt log).
    """
    state: GameState | None = None
    produced: list[list[Event]] = []
    for cmd in commands:
        state, events = apply(state, cmd)
        produced.append(events)
    if state is None:
        raise BadSetup("empty log")
    return state, produced
