"""The engine's entry points -- :func:`apply`, :func:`replay` -- and the registry of games.

A *game* is one registered object (python-chess ``variant.py`` is the model): a subclass of
:class:`Game` that says how a log starts (:meth:`Game.new_game`) and how one command changes a
state (:meth:`Game.execute`).  ``engine/__init__.py`` registers each preset with
:func:`register`; the core knows no game by name.

``apply(state, command) -> (new_state, events)`` is one atomic step: the game works on a private
copy of the state, so a raised :class:`~engine.core.errors.IllegalCommand` leaves the caller's
state untouched.  The engine never reads the clock and draws no random numbers; it is
deterministic, so replaying a game's command log rebuilds exactly the same state (design.md §2-3).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Generic, TypeVar

from . import serialize
from .commands import CommandLike, CreateGame
from .errors import BadSetup, GameOver
from .events import EventLike
from .state import GameStateLike

S = TypeVar("S", bound=GameStateLike)
C = TypeVar("C", bound=CommandLike)
E = TypeVar("E", bound=EventLike)


class Game(Generic[S, C, E]):
    """A registered game: ``S`` its state, ``C`` the base of its commands, ``E`` of its events.
    ``name`` is stored in every ``CreateGame`` (never rename it); ``aliases`` are other names a
    chat may type; ``command_types`` / ``event_types`` are its type tables (class name -> class,
    the ``"type"`` of a stored command or event)."""

    command_types: Mapping[str, type[C]]
    event_types: Mapping[str, type[E]]

    @property
    def name(self) -> str:
        """The registered name (a game sets it as a class attribute or derives it)."""
        return ""

    @property
    def aliases(self) -> tuple[str, ...]:
        """Other names a chat may type (none unless the game says)."""
        return ()

    def new_game(self, cmd: CreateGame) -> tuple[S, list[E]]:
        """The initial state from the log's first command. Raises BadSetup for bad settings."""
        raise NotImplementedError

    def execute(self, state: S, cmd: C) -> tuple[S, list[E]]:
        """Apply ``cmd`` to a copy of ``state`` (never the input). Raises IllegalCommand."""
        raise NotImplementedError

    # --- the log's JSON, with the game's type tables --------------------------------------------
    def to_dict(self, obj: C | E) -> dict[str, Any]:
        """A command or event of this game as the log stores it (``{"type": ..., **fields}``)."""
        return serialize.to_dict(obj)

    def command_from_dict(self, data: Mapping[str, Any]) -> C:
        """Invert :meth:`to_dict` for a command. Raises ``ValueError`` on an unknown type."""
        return serialize.from_dict(data, self.command_types, "command")

    def event_from_dict(self, data: Mapping[str, Any]) -> E:
        """Invert :meth:`to_dict` for an event. Raises ``ValueError`` on an unknown type."""
        return serialize.from_dict(data, self.event_types, "event")

    # --- what the shared adapter asks of any game's state --------------------------------------
    def status(self, state: S) -> str:
        """The stored status of ``state``: 'lobby' | 'running' | 'finished' | 'cancelled'."""
        raise NotImplementedError

    def winner(self, state: S) -> str | None:
        """The stored winner of a finished game (a team's or outcome's value), else None."""
        raise NotImplementedError

    # --- the commands the shell builds for any game (time comes in as data) -------------------
    def timeout(self, timer_seq: int) -> C:
        """The command the shell sends when the state's timer ``timer_seq`` fires."""
        raise NotImplementedError

    def pause(self, user_id: int, remaining: float | None) -> C:
        """A pause with ``remaining`` seconds left on the running timer (None: no timer)."""
        raise NotImplementedError

    def cancel(self, reason: str, by: int | None = None) -> C:
        """The shell's cancellation of the game (``reason`` e.g. "expired"); ``by``: the user
        who asked for it, once the shell has checked his right (organiser or group admin)."""
        raise NotImplementedError

    def join(self, user_id: int, name: str) -> C:
        """A user joins the lobby under ``name`` (the deep link ``join_<game>``)."""
        raise NotImplementedError

    def leave(self, user_id: int) -> C:
        """A user leaves the lobby (its «Leave» button)."""
        raise NotImplementedError

    def resume(self, user_id: int) -> C:
        """``/resume`` from ``user_id``."""
        raise NotImplementedError

    def seats(self, state: S) -> list[tuple[int, str, int]]:
        """The seated players of a started game: (user_id, name, seat from 1), in seat order."""
        raise NotImplementedError

    def gone(self, state: S, user_id: int, reason: str) -> C | None:
        """What the shell sends when ``user_id`` cannot be reached (a 403 DM, he left the
        group), or None when the game has nothing to record."""
        return None

    def back(self, state: S, user_id: int) -> C | None:
        """What the shell sends when an absent ``user_id`` shows up again, or None."""
        return None


#: registered name -> game, in registration order
#: (a game of any state, command and event types: the registry holds them all)
AnyGame = Game[Any, Any, Any]
GAMES: dict[str, AnyGame] = {}
_G = TypeVar("_G", bound=AnyGame)


def register(game: _G) -> _G:
    """Add ``game`` to the registry. Raises ``ValueError`` if its name or an alias is taken."""
    taken = {n for g in GAMES.values() for n in (g.name, *g.aliases)}
    clash = taken & {game.name, *game.aliases}
    if clash:
        raise ValueError(f"game name taken: {sorted(clash)}")
    GAMES[game.name] = game
    return game


def find_game(name: str) -> AnyGame:
    """Look a game up by name or alias (case-insensitive). Raises ``KeyError``."""
    if name in GAMES:
        return GAMES[name]
    key = name.strip().lower()
    for game in GAMES.values():
        if key == game.name or key in game.aliases:
            return game
    raise KeyError(name)


def apply(state: GameStateLike | None, cmd: CommandLike) -> tuple[GameStateLike, list[EventLike]]:
    """Apply one command. ``state`` None only with :class:`CreateGame`.

    Returns the new state (the input is never mutated) and the events, in order.
    Raises an :class:`IllegalCommand` subclass when the rules refuse the command.
    """
    if isinstance(cmd, CreateGame):
        if state is not None:
            raise BadSetup("game exists")
        try:
            game = find_game(cmd.ruleset)
        except KeyError as exc:
            raise BadSetup(f"unknown rule set {cmd.ruleset!r}") from exc
        return game.new_game(cmd)
    if state is None:
        raise BadSetup("the first command must be CreateGame")
    if state.over:
        raise GameOver()
    return find_game(state.ruleset).execute(state, cmd)


def game_of(state: GameStateLike | None, cmd: CommandLike | None = None) -> AnyGame:
    """The game ``state`` belongs to, or (``state`` None) the one ``cmd``, a CreateGame, names.
    Raises ``KeyError`` for an unknown name (``TypeError`` when ``state`` is None and ``cmd``
    is no CreateGame)."""
    if state is None:
        if not isinstance(cmd, CreateGame):
            raise TypeError(f"no state and no CreateGame: {cmd!r}")
        return find_game(cmd.ruleset)
    return find_game(state.ruleset)


def decode_log(entries: Iterable[Mapping[str, Any]]) -> list[CommandLike]:
    """The commands of a stored log (JSON dicts, first one a ``CreateGame``): the first decoded
    with the core's table, the rest with the table of the game it names (NOIR's ``Join`` is not
    the mafia ``Join``).  Raises ``ValueError`` on an unknown type, game or a first command
    that is no CreateGame."""
    commands: list[CommandLike] = []
    game: AnyGame | None = None
    for data in entries:
        if game is None:
            first = serialize.command_from_dict(data)
            if not isinstance(first, CreateGame):
                raise ValueError(f"a log starts with CreateGame, not {data.get('type')!r}")
            try:
                game = find_game(first.ruleset)
            except KeyError as exc:
                raise ValueError(f"unknown game {first.ruleset!r}") from exc
            commands.append(first)
        else:
            commands.append(game.command_from_dict(data))
    return commands


def replay(commands: Iterable[CommandLike]) -> tuple[GameStateLike, list[list[EventLike]]]:
    """Rebuild a game from its log. Returns the final state and the events of every command.

    Raises :class:`IllegalCommand` if the log holds a command the rules refuse (a corrupt log).
    """
    state: GameStateLike | None = None
    produced: list[list[EventLike]] = []
    for cmd in commands:
        state, events = apply(state, cmd)
        produced.append(events)
    if state is None:
        raise BadSetup("empty log")
    return state, produced
