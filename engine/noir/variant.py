"""NOIR's game object for the engine registry (``engine/__init__.py``): :class:`NoirGame`.

The only module of ``engine/noir/`` that knows the core's registry.  A NOIR log starts with the
core's ``CreateGame(ruleset="noir", settings=...)`` (the command that names the game of a log,
decoded with the core's type table); every later command and every event is NOIR's own and is
stored and decoded with NOIR's type tables (:mod:`engine.noir.serialize`), whose class names
(``Join``, ``StartGame``, ``Pause``...) clash with the mafia ones on purpose: a log is read with
the table of the game its first command names (:func:`engine.core.game.decode_log`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.commands import CreateGame as CoreCreateGame
from engine.core.game import Game

from . import serialize
from .commands import (
    COMMAND_TYPES,
    CancelGame,
    Command,
    CreateGame,
    Join,
    Leave,
    Pause,
    Resume,
    ReturnToGame,
    TurnTimeout,
)
from .events import EVENT_TYPES, Event
from .game import apply
from .state import NoirState


class NoirGame(Game[NoirState, Command, Event]):
    """NOIR in the registry: ``name`` "noir" (stored in every NOIR log; never rename it)."""

    name = "noir"
    aliases = ("fbi", "noir-fbi-vs-mafia")
    command_types = COMMAND_TYPES
    event_types = EVENT_TYPES

    def new_game(self, cmd: CoreCreateGame) -> tuple[NoirState, list[Event]]:
        """The lobby from the core's CreateGame (its ``settings`` as NOIR's CreateGame takes
        them: timings in seconds, options). Raises BadSetup for bad settings."""
        return apply(None, CreateGame(user_id=cmd.user_id, settings=dict(cmd.settings)))

    def execute(self, state: NoirState, cmd: Command) -> tuple[NoirState, list[Event]]:
        """One NOIR command (never the input state mutated). Raises a NoirIllegal."""
        return apply(state, cmd)

    # --- the log's JSON, with NOIR's own type tables -------------------------------------------
    def to_dict(self, obj: Command | Event) -> dict[str, Any]:
        return serialize.to_dict(obj)

    def command_from_dict(self, data: Mapping[str, Any]) -> Command:
        """A NOIR command ("unknown NOIR command type" on a type NOIR does not have)."""
        return serialize.command_from_dict(data)

    def event_from_dict(self, data: Mapping[str, Any]) -> Event:
        """A NOIR event ("unknown NOIR event type" on a type NOIR does not have)."""
        return serialize.event_from_dict(data)

    # --- what the shared adapter asks of any game ----------------------------------------------
    def status(self, state: NoirState) -> str:
        return {"lobby": "lobby", "play": "running", "ended": "finished",
                "cancelled": "cancelled"}[state.phase]

    def winner(self, state: NoirState) -> str | None:
        return state.outcome

    # --- the commands the shell builds ------------------------------------------------------------
    def timeout(self, timer_seq: int) -> TurnTimeout:
        return TurnTimeout(timer_seq=timer_seq)

    def pause(self, user_id: int, remaining: float | None) -> Pause:
        """NOIR's Pause takes whole seconds (rounded up: a started second is left)."""
        left = None if remaining is None else int(-(-remaining // 1))
        return Pause(user_id=user_id, remaining=left)

    def cancel(self, reason: str, by: int | None = None) -> CancelGame:
        """The shell's cancellation (NOIR-X23: ``user_id=None``, the shell has checked that
        ``by`` is the organiser or a group admin)."""
        return CancelGame(reason=reason)

    def join(self, user_id: int, name: str) -> Join:
        return Join(user_id=user_id, name=name)

    def leave(self, user_id: int) -> Leave:
        return Leave(user_id=user_id)

    def resume(self, user_id: int) -> Resume:
        return Resume(user_id=user_id)

    def seats(self, state: NoirState) -> list[tuple[int, str, int]]:
        """The turn order (NOIR-07) as seats 1..n."""
        return [(u, state.players[u].name, i) for i, u in enumerate(state.order, 1)]

    def back(self, state: NoirState, user_id: int) -> ReturnToGame | None:
        """NOIR-Q21: a player whose turns pass by themselves is back when he shows up."""
        p = state.players.get(user_id)
        if state.phase == "play" and p is not None and p.auto_pass:
            return ReturnToGame(user_id=user_id)
        return None
