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

from typing import Iterable

from .commands import Command, CreateGame
from .errors import BadSetup, GameOver
from .events import Event
from . import serialize


class Game:
    """A registered game.  ``name`` is stored in every ``CreateGame`` (never rename it);
    ``aliases`` are other names a chat may type."""

    name: str = ""
    aliases: tuple[str, ...] = ()

    def new_game(self, cmd: CreateGame) -> tuple[object, list[Event]]:
        """The initial state from the log's first command. Raises BadSetup for bad settings."""
        raise NotImplementedError

    def execute(self, state, cmd: Command) -> tuple[object, list[Event]]:
        """Apply ``cmd`` to a copy of ``state`` (never the input). Raises IllegalCommand."""
        raise NotImplementedError

    # --- the log's JSON: the core's type tables unless the game has its own ----------------------
    def to_dict(self, obj) -> dict:
        """A command or event of this game as the log stores it (``{"type": ..., **fields}``)."""
        return serialize.to_dict(obj)

    def command_from_dict(self, data: dict):
        """Invert :meth:`to_dict` for a command. Raises ``ValueError`` on an unknown type."""
        return serialize.command_from_dict(data)

    def event_from_dict(self, data: dict):
        """Invert :meth:`to_dict` for an event. Raises ``ValueError`` on an unknown type."""
        return serialize.event_from_dict(data)

    # --- what the shared adapter asks of any game's state --------------------------------------
    def status(self, state) -> str:
        """The stored status of ``state``: 'lobby' | 'running' | 'finished' | 'cancelled'."""
        raise NotImplementedError

    def winner(self, state) -> str | None:
        """The stored winner of a finished game (a team's or outcome's value), else None."""
        raise NotImplementedError

    # --- the commands the shell builds for any game (time comes in as data) -------------------
    def timeout(self, timer_seq: int) -> Command:
        """The command the shell sends when the state's timer ``timer_seq`` fires."""
        raise NotImplementedError

    def pause(self, user_id: int, remaining: float | None) -> Command:
        """A pause with ``remaining`` seconds left on the running timer (None: no timer)."""
        raise NotImplementedError

    def cancel(self, reason: str, by: int | None = None) -> Command:
        """The shell's cancellation of the game (``reason`` e.g. "expired"); ``by``: the user
        who asked for it, once the shell has checked his right (organiser or group admin)."""
        raise NotImplementedError

    def join(self, user_id: int, name: str) -> Command:
        """A user joins the lobby under ``name`` (the deep link ``join_<game>``)."""
        raise NotImplementedError

    def leave(self, user_id: int) -> Command:
        """A user leaves the lobby (its «Leave» button)."""
        raise NotImplementedError

    def resume(self, user_id: int) -> Command:
        """``/resume`` from ``user_id``."""
        raise NotImplementedError

    def seats(self, state) -> list[tuple[int, str, int]]:
        """The seated players of a started game: (user_id, name, seat from 1), in seat order."""
        raise NotImplementedError

    def gone(self, state, user_id: int, reason: str) -> Command | None:
        """What the shell sends when ``user_id`` cannot be reached (a 403 DM, he left the
        group), or None when the game has nothing to record."""
        return None

    def back(self, state, user_id: int) -> Command | None:
        """What the shell sends when an absent ``user_id`` shows up again, or None."""
        return None


#: registered name -> game, in registration order
GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add ``game`` to the registry. Raises ``ValueError`` if its name or an alias is taken."""
    taken = {n for g in GAMES.values() for n in (g.name, *g.aliases)}
    clash = taken & {game.name, *game.aliases}
    if clash:
        raise ValueError(f"game name taken: {sorted(clash)}")
    GAMES[game.name] = game
    return game


def find_game(name: str) -> Game:
    """Look a game up by name or alias (case-insensitive). Raises ``KeyError``."""
    if name in GAMES:
        return GAMES[name]
    key = name.strip().lower()
    for game in GAMES.values():
        if key == game.name or key in game.aliases:
            return game
    raise KeyError(name)


def apply(state, cmd: Command) -> tuple[object, list[Event]]:
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


def game_of(state, cmd: Command | None = None) -> Game:
    """The game ``state`` belongs to, or (``state`` None) the one ``cmd``, a CreateGame, names.
    Raises ``KeyError`` for an unknown name."""
    if state is None:
        return find_game(cmd.ruleset)  # type: ignore[union-attr]
    return find_game(state.ruleset)


def decode_log(entries: Iterable[dict]) -> list:
    """The commands of a stored log (JSON dicts, first one a ``CreateGame``): the first decoded
    with the core's table, the rest with the table of the game it names (NOIR's ``Join`` is not
    the mafia ``Join``).  Raises ``ValueError`` on an unknown type, game or a first command
    that is no CreateGame."""
    commands: list = []
    game: Game | None = None
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


def replay(commands: Iterable[Command]) -> tuple[object, list[list[Event]]]:
    """Rebuild a game from its log. Returns the final state and the events of every command.

    Raises :class:`IllegalCommand` if the log holds a command the rules refuse (a corrupt log).
    """
    state = None
    produced: list[list[Event]] = []
    for cmd in commands:
        state, events = apply(state, cmd)
        produced.append(events)
    if state is None:
        raise BadSetup("empty log")
    return state, produced
