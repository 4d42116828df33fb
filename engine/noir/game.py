"""NOIR's entry points: :func:`apply` and :func:`replay`.

``apply(state, command) -> (new_state, events)`` is one atomic step on a private copy
(:meth:`NoirState.clone`): a refused command raises an :class:`engine.core.errors.IllegalCommand`
subclass (:mod:`engine.noir.errors`) and changes nothing.  No clock, no chance: replaying a log
rebuilds the same state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from . import agents, common, mafia, setup, turns
from .commands import (
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
from .errors import BadInput, BadSetup, GameOver, GamePaused, NoirIllegal
from .events import Event
from .state import NoirState
from .step import Step

#: command type -> handler ``(step, command)``; the command parameter is the one class it is
#: registered for (a pairing no static type can state, hence Any)
HANDLERS: dict[type[Command], Callable[[Step, Any], None]] = {
    Join: setup.join, Leave: setup.leave, StartGame: setup.start, CancelGame: setup.cancel,
    Shift: common.shift, Collapse: common.collapse, Accuse: common.accuse,
    Kill: mafia.kill, ChangeIdentity: mafia.change_identity, Swap: mafia.swap,
    PlaceThreats: mafia.place_threats, PlaceBomb: mafia.place_bomb, Detonate: mafia.detonate,
    Shoot: mafia.shoot, MoveToken: mafia.move_token,
    Autopsy: agents.autopsy, Interrogate: agents.interrogate, Protect: agents.protect,
    Unprotect: agents.unprotect, AnswerCancel: agents.answer_cancel, Profile: agents.profile,
    TurnTimeout: lambda s, c: turns.timeout(s, c.timer_seq),
    Pause: lambda s, c: turns.pause(s, c.user_id, c.remaining),
    Resume: lambda s, c: turns.resume(s, c.user_id),
    ReturnToGame: lambda s, c: turns.return_to_game(s, c.user_id),
}

#: accepted while paused (everything else raises GamePaused)
WHILE_PAUSED = (Resume, TurnTimeout, CancelGame, ReturnToGame)


def apply(state: NoirState | None, cmd: Command) -> tuple[NoirState, list[Event]]:
    """Apply one command; ``state`` is None only for :class:`CreateGame`.

    Returns the new state (the input is never mutated) and the events in order.  Raises a
    :class:`~engine.noir.errors.NoirIllegal` when the rules refuse the command."""
    if isinstance(cmd, CreateGame):
        if state is not None:
            raise BadSetup("game exists")
        st, events = setup.create(cmd)
        st.commands = 1
        return st, events
    if state is None:
        raise BadSetup("the first command must be CreateGame")
    if state.phase in ("ended", "cancelled"):
        raise GameOver()
    handler = HANDLERS.get(type(cmd))
    if handler is None:
        raise NoirIllegal(f"unknown command {type(cmd).__name__}")
    if state.paused is not None and not isinstance(cmd, WHILE_PAUSED):
        raise GamePaused()
    st = state.clone()
    s = Step(st)
    try:
        handler(s, cmd)
    except (TypeError, KeyError) as exc:  # NOIR-X26: a value of the wrong type or shape
        raise BadInput(f"malformed {type(cmd).__name__}: {exc!r}") from exc
    st.commands += 1
    return st, s.events


def replay(commands: Iterable[Command]) -> tuple[NoirState, list[list[Event]]]:
    """Rebuild a game from its log: the final state and each command's events.  Raises
    :class:`~engine.noir.errors.NoirIllegal` on a command the rules refuse (a corrupt log)."""
    state: NoirState | None = None
    produced: list[list[Event]] = []
    for cmd in commands:
        state, events = apply(state, cmd)
        produced.append(events)
    if state is None:
        raise BadSetup("empty log")
    return state, produced
