"""The base of every mafia preset's game object: :class:`MafiaVariant`.

A preset registers one instance of a subclass (python-chess ``variant.py`` is the model): the
class names its :class:`~engine.mafia.rules.RuleSet` (``rules``, frozen data), adds its own
commands to :attr:`MafiaVariant.handlers`, and overrides the few methods below where its
algorithm differs from the shared day and night of :mod:`.flow`.  The shared mechanics never
ask which preset they run: they call these methods on ``s.game``, typed as the protocol
:class:`engine.mafia.step.Variant` (this module imports the mechanics; they never import it).

One command (:meth:`MafiaVariant.execute`): the handler for its type (``IllegalCommand`` if the
preset has none), the pause gate, a private copy of the state, the presence bookkeeping
(PARTY-44, X25), then the handler changes the copy and emits events through the
:class:`~engine.mafia.step.Step`.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any

from ..core.commands import COMMAND_TYPES, CreateGame
from ..core.errors import GamePaused, IllegalCommand, NotAllowed, PhaseClosed
from ..core.events import EVENT_TYPES, Event, GameCreated
from ..core.game import Game
from . import control, flow, lobby, night, play, presence
from .actions import LegalActions
from .commands import (
    BecomeHost,
    CancelGame,
    CastExcludeVote,
    CastVote,
    ChangeSettings,
    Command,
    Continue,
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
from .roles import Team
from .rules import RuleSet
from .state import GameState, Phase
from .step import Step

#: a command's handler: ``(step, command)``; its command parameter is the one class it is
#: registered for in :attr:`MafiaVariant.handlers` (a pairing no static type can state, hence Any)
Handler = Callable[[Step, Any], None]


def no_fouls(s: Step, cmd: Command) -> None:
    """A judge's tool (CLUB-36..39) in a preset without them."""
    raise NotAllowed("this preset has no fouls")


def phase_closed(s: Step, cmd: Command) -> None:
    """A command of a phase this preset never has (the online ballot, lift and best move)."""
    raise PhaseClosed(s.st.phase.value)


class MafiaVariant(Game[GameState, Command, Event]):
    """The shared mafia game; a preset subclasses it.  ``rules``: the preset's rule set."""

    rules: RuleSet
    #: the class of this preset's :func:`~engine.mafia.queries.legal_actions` answers: the
    #: shared buttons, or a subclass with the preset's own fields (filled by ``add_actions``)
    actions: type[LegalActions] = LegalActions

    #: command type -> handler ``(step, command)``; a preset extends it with ``{**base, ...}``;
    #: a command without an entry of its own takes that of its nearest base class
    command_types = COMMAND_TYPES
    event_types = EVENT_TYPES

    handlers: dict[type[Command], Handler] = {
        Join: lobby.join, Leave: lobby.leave, BecomeHost: lobby.become_host,
        ChangeSettings: lobby.change_settings, StartGame: lobby.start_game,
        CancelGame: lobby.cancel,
        MarkReady: play.mark_ready, Continue: play.continue_, EndSpeech: play.end_speech,
        Nominate: play.nominate, CastVote: play.cast_vote,
        CastExcludeVote: play.cast_exclude_vote, NightAction: play.night_action,
        RelayMessage: play.relay, HostNext: play.host_next, PhaseTimeout: play.phase_timeout,
        Pause: control.pause, Resume: control.resume, TakeOver: control.take_over,
        MarkInactive: control.mark_inactive, MarkActive: control.mark_active,
        MarkAfk: presence.mark_afk, JudgeCommand: no_fouls, OwnPhaseCommand: phase_closed,
    }
    #: the phases in which the mafia's team chat is relayed (the engine still judges each
    #: message: ``RelayMessage``); the bot answers "closed" at once outside them
    relay_phases: tuple[Enum, ...] = (Phase.NIGHT,)
    #: commands accepted while the game is paused (everything else raises GamePaused)
    while_paused: tuple[type[Command], ...] = (Resume, Pause, MarkInactive, MarkActive, PhaseTimeout,
                                      CancelGame, ChangeSettings, TakeOver, RelayMessage, MarkAfk)
    #: commands that do not count as "the user is here" (PARTY-44)
    not_presence: tuple[type[Command], ...] = (CreateGame, MarkInactive, PhaseTimeout, Join, Leave,
                                      BecomeHost, StartGame, JudgeCommand, MarkAfk)

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def aliases(self) -> tuple[str, ...]:
        return self.rules.aliases

    # --- the core's entry points ---------------------------------------------------------------
    def new_game(self, cmd: CreateGame) -> tuple[GameState, list[Event]]:
        """The lobby. Raises BadSetup (bad tempo, timing or options)."""
        rs = self.rules
        settings = dict(cmd.settings)
        st = GameState(ruleset=rs.name, organiser=cmd.user_id, settings=settings,
                       timings=rs.timings(settings),
                       options={**rs.default_options, **(settings.get("options") or {})})
        if rs.check_options:
            rs.check_options(st.options)
        self.new_lobby(st)
        st.commands = 1
        return st, [GameCreated(ruleset=rs.name, organiser=cmd.user_id)]

    def execute(self, state: GameState, cmd: Command) -> tuple[GameState, list[Event]]:
        handler = next((self.handlers[c] for c in type(cmd).__mro__ if c in self.handlers), None)
        if handler is None:
            raise IllegalCommand(f"unknown command {type(cmd).__name__}")
        if state.pause and not isinstance(cmd, self.while_paused):
            raise GamePaused()
        st = state.clone()
        s = Step(st, self)
        presence = not isinstance(cmd, self.not_presence)
        if presence:
            control.reactivate(s, cmd.user_id)
        handler(s, cmd)
        me = st.players.get(cmd.user_id) if cmd.user_id is not None else None
        if me is not None and presence:
            me.misses = 0  # PARTY-X25: any accepted action shows he is there (a speech, a vote...)
        st.commands += 1
        return st, s.events

    def status(self, state: GameState) -> str:
        if state.phase is Phase.CANCELLED:
            return "cancelled"
        if state.phase is Phase.ENDED:
            return "finished"
        return "lobby" if state.phase is Phase.LOBBY else "running"

    def winner(self, state: GameState) -> str | None:
        return state.winner.value if state.winner else None

    def timeout(self, timer_seq: int) -> Command:
        return PhaseTimeout(timer_seq=timer_seq)

    def pause(self, user_id: int, remaining: float | None) -> Command:
        return Pause(user_id=user_id, remaining=remaining)

    def cancel(self, reason: str, by: int | None = None) -> Command:
        return CancelGame(user_id=by, reason=reason)

    def join(self, user_id: int, name: str) -> Command:
        return Join(user_id=user_id, name=name)

    def leave(self, user_id: int) -> Command:
        return Leave(user_id=user_id)

    def resume(self, user_id: int) -> Command:
        return Resume(user_id=user_id)

    def seats(self, state: GameState) -> list[tuple[int, str, int]]:
        return [(p.user_id, p.name, p.seat) for p in state.seated()]

    def gone(self, state: GameState, user_id: int, reason: str) -> Command | None:
        """PARTY-Q20: a living active player or an active host becomes inactive."""
        if state.phase is Phase.LOBBY or state.over:
            return None
        p = state.players.get(user_id)
        if (p and p.active and p.alive) or (user_id == state.host and state.host_active):
            return MarkInactive(player=user_id, reason=reason)
        return None

    def back(self, state: GameState, user_id: int) -> Command | None:
        """PARTY-44: an inactive seated player or a lost host is back."""
        if state.phase is Phase.LOBBY or state.over:
            return None
        p = state.players.get(user_id)
        if (p and p.seat and not p.active) or (user_id == state.host and not state.host_active):
            return MarkActive(user_id=user_id)
        return None

    # --- where a preset's algorithm differs (the shared versions live in .flow) ----------------
    def new_lobby(self, st: GameState) -> None:
        """Hang the preset's own state object on a new lobby's ``st`` (none in the shared game)."""

    def silenced_turn(self, s: Step, user_id: int) -> bool:
        """Whether ``user_id``'s regular speech starting now is a nomination-only turn (CLUB-37;
        the preset forgets it then).  None in the shared game."""
        return False

    def vote_cancelled(self, s: Step) -> bool:
        """Whether today's vote was cancelled before it opened (CLUB-Q17).  Never in the shared
        game."""
        return False

    def forced_winner(self, st: GameState) -> Team | None:
        """A team that has won by a rule of the preset's own while both teams live (ONLINE-36:
        Town after its misfires); None in the shared game."""
        return None

    def start_day(self, s: Step) -> None:
        """The morning: speeches, nominations, defences (PARTY-07..10, CLUB-20)."""
        flow.day_of_speeches(s)

    def defences_done(self, s: Step) -> None:
        """After the defences: the sole nominee leaves (PARTY-11) or the vote opens."""
        flow.vote_after_defences(s)

    def check_win(self, s: Step) -> bool:
        """After the last words: end the game if a team has won (PARTY-03/04, 32)."""
        return flow.end_if_won(s)

    def start_night(self, s: Step) -> None:
        """The night opens; night 1 introduces the mafia (PARTY-05, CLUB-08/09)."""
        night.night_of_actions(s)

    def night_complete(self, s: Step) -> bool:
        """Whether the night may close before its timer (PARTY-Q14, CLUB-Q09/Q10)."""
        return night.all_night_actions_in(s)

    def end_night(self, s: Step, timed_out: bool) -> None:
        """Resolve the night: protect, kill, check (PARTY-Q10, CLUB-33), then the morning."""
        flow.resolve_night(s, timed_out)

    def phase_timeout(self, s: Step) -> bool:
        """The deadline (or the host's Next) of a phase only this preset has; False = not one."""
        return False

    def presence_changed(self, s: Step) -> None:
        """A player went inactive in a phase only this preset has (PARTY-42/43)."""

    def in_team_chat(self, st: GameState, user_id: int) -> bool:
        """Whether ``user_id``'s private messages go to the mafia's team chat: a mafioso (alive
        or not; the relay refuses the eliminated)."""
        p = st.players.get(user_id)
        return p is not None and p.team is Team.MAFIA

    def add_actions(self, st: GameState, user_id: int, kw: dict[str, Any]) -> bool:
        """Add this preset's fields of its ``actions`` class (and shared ones) to ``kw``;
        True when they are all there is (the shared fields are then not computed)."""
        return False
