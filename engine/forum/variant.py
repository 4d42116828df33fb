"""The forum preset's game object, :class:`ForumVariant` (rule IDs in docs/rules/forum.md).

Theory of operation
-------------------
The forum keeps the shared machinery of :mod:`engine.mafia` (the lobby and the deal, last-word
turns, pauses, presence, the host) and replaces the rest:

* :attr:`ForumVariant.handlers` adds the forum's own commands and its versions of
  ``NightAction``, ``CastVote``, ``MarkReady``, ``HostNext``, ``PhaseTimeout``, ``RelayMessage``
  and ``Disqualify`` (:data:`HANDLERS`);
* the variant's methods replace the shared day (:mod:`.day`), night (:mod:`.night`), night
  resolution (:mod:`.dawn`), win check (:mod:`.elimination`), presence and ``legal_actions``
  fields (this module) -- ``engine.mafia.flow`` calls them on ``s.game``.

Modules: this one -- deadlines and the host's Next, presence, the ``legal_actions`` fields, the
variant; :mod:`.elimination` -- eliminations (the role shown, the last word for Town status only),
the Werewolf's turn and the win check; :mod:`.day` -- the discussion, the ballot, the revote,
the host's decision, last-word extras; :mod:`.night` -- the night's phases and actions;
:mod:`.dawn` -- the resolution order and the morning; :mod:`.moderation` -- warnings and
removals; :mod:`.after` -- the win, the bonus round, the reveal, the best player;
:mod:`.setup` -- the table and the options; :mod:`.rules` -- the rule set; :mod:`.state` --
``GameState.forum``; :mod:`.commands`, :mod:`.events` -- the forum's own.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import NotAllowed, PhaseClosed
from ..mafia import control, flow
from ..mafia.commands import (
    CastVote,
    Command,
    Disqualify,
    HostNext,
    MarkReady,
    NightAction,
    PhaseTimeout,
    RelayMessage,
)
from ..mafia.roles import Role
from ..mafia.state import GameState, Phase, Player
from ..mafia.step import Step
from ..mafia.variant import Handler, MafiaVariant
from . import after as forum_after
from . import dawn as forum_dawn
from . import day as forum_day
from . import elimination
from . import moderation as forum_moderation
from . import night as forum_night
from .actions import ForumActions
from .commands import (
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
from .phases import ForumPhase
from .rules import FORUM

#: the phases this preset adds (their deadlines and the host's Next come here)
PHASES = tuple(ForumPhase)  # the Cop's turn, the debate, the ballot, the after-game rounds


# --- deadlines, the host, presence ---------------------------------------------------------------
def phase_timeout(s: Step, cmd: PhaseTimeout) -> None:
    """A deadline passed; a stale timer is a no-op (PARTY-X08)."""
    st = s.st
    t = st.timer
    if t is None or t.seq != cmd.timer_seq:
        return
    if t.kind in ("pause", "host_wait"):
        control.pause_expired(s)
        return
    _advance(s, by_host=False)


def host_next(s: Step, cmd: HostNext) -> None:
    """FORUM-X12: the host's Next closes the current phase as its deadline would (a night with no
    extra minute)."""
    if cmd.user_id is None or cmd.user_id != s.st.host:
        raise NotAllowed()
    _advance(s, by_host=True)


def _advance(s: Step, by_host: bool) -> None:
    st = s.st
    ph = st.phase
    if ph is ForumPhase.COP_TURN:
        forum_night.open_night(s)
    elif ph is Phase.NIGHT:
        if by_host:
            forum_dawn.end_night(s, timed_out=True)
        else:
            forum_dawn.deadline(s)
    elif ph is ForumPhase.DEBATE:
        forum_day.open_ballot(s)
    elif ph is ForumPhase.BALLOT:
        forum_day.close_ballot(s)
    elif ph is Phase.LAST_WORD:
        flow.next_turn(s)
    elif ph in (ForumPhase.BONUS_OFFER, ForumPhase.BONUS, ForumPhase.BEST_PLAYER):
        forum_after.advance(s)
    else:
        raise PhaseClosed(ph.value)


def presence_changed(s: Step) -> None:
    """A player went inactive (or was removed): he holds nothing up any more."""
    st = s.st
    if st.phase is ForumPhase.DEBATE:
        forum_day.ready_progress(s, None)
    elif st.phase is ForumPhase.BALLOT and st.forum.stage != "host" \
            and forum_day.ballot_complete(st):
        forum_day.close_ballot(s)
    elif st.phase in (ForumPhase.BONUS, ForumPhase.BEST_PLAYER):
        forum_after.presence_changed(s)


# --- queries -----------------------------------------------------------------------------------
def legal(st: GameState, user_id: int) -> dict[str, Any]:
    """The forum fields of :class:`~engine.forum.actions.ForumActions` for ``user_id``
    (documented in docs/rules/forum.md, "legal_actions")."""
    kw: dict[str, Any] = {}
    ph = st.phase
    f = st.forum
    is_host = user_id == st.host
    p = st.players.get(user_id)
    living = st.is_alive(user_id)
    if f is None:
        return kw
    if is_host and ph not in (ForumPhase.BONUS_OFFER, ForumPhase.BONUS, ForumPhase.BEST_PLAYER):
        kw["moderate"] = tuple(q.user_id for q in st.alive())
    if ph is Phase.LAST_WORD:
        kw["end_speech"] = user_id == st.speaker or is_host
        if user_id == st.speaker:
            if user_id not in f.named:
                kw["suspect"] = tuple(q.user_id for q in st.alive())
            if p is not None and p.role is Role.COMMISSAR and user_id not in f.shown:
                kw["reveal_check"] = tuple(forum_day.seat_order(st, forum_day.checked(st, user_id)))
    elif ph in (ForumPhase.BONUS_OFFER, ForumPhase.BONUS, ForumPhase.BEST_PLAYER):
        kw.update(forum_after.legal(st, user_id))
    elif not living or p is None:
        pass
    elif ph is ForumPhase.DEBATE:
        kw["ready"] = user_id not in st.ready
    elif ph is ForumPhase.BALLOT:
        if f.stage == "host":
            pass
        elif forum_day.votes_now(st, user_id):
            kw["day_vote"] = tuple(forum_day.choices(st, user_id))
            kw["day_vote_mark"] = st.vote_round().votes.get(user_id)
    elif ph in (Phase.NIGHT, ForumPhase.COP_TURN):
        kw.update(_night_fields(st, p))
    if ph is ForumPhase.BALLOT and f.stage == "host" and is_host:
        kw["host_decide"] = tuple(c for c in st.vote_round().candidates if st.is_alive(c))
    return kw


def _night_fields(st: GameState, p: Player) -> dict[str, Any]:
    kw: dict[str, Any] = {}
    acted = p.user_id in st.night_actions
    for action in forum_night.actions_for(st, p):
        if action == "sleep":
            kw["sleep"] = not acted
        elif action == "compare":
            if not acted:
                kw["compare"] = tuple(forum_night.targets(st, p, "compare"))
        elif action == "kill" or not acted:
            kw["night_action"] = action
            kw["night_targets"] = tuple(forum_night.targets(st, p, action))
    if st.night == 1 and p.role in forum_night.SIDED and p.user_id not in st.forum.sides:
        kw["choose_side"] = True
    return kw


def may_write(st: GameState, user_id: int) -> bool:
    """FORUM-16 (for the bot's chat discipline): the discussion -- every living player; a last
    word -- its speaker; anything else -- nobody."""
    if st.phase is ForumPhase.DEBATE:
        return st.is_alive(user_id)
    if st.phase is Phase.LAST_WORD:
        return user_id == st.speaker
    return False


HANDLERS: dict[type[Command], Handler] = {
    NightAction: forum_night.night_action, RelayMessage: forum_night.relay,
    ChooseSide: forum_night.choose_side, ComparePlayers: forum_night.compare,
    MarkReady: forum_day.mark_ready, CastVote: forum_day.cast_vote,
    HostDecide: forum_day.host_decide, NameSuspect: forum_day.name_suspect,
    RevealCheck: forum_day.reveal_check,
    HostNext: host_next, PhaseTimeout: phase_timeout,
    IssueWarning: forum_moderation.issue_warning, Disqualify: forum_moderation.disqualify,
    DecideBonusRound: forum_after.decide_bonus, GuessRoles: forum_after.guess_roles,
    VoteBestPlayer: forum_after.vote_best,
}


class ForumVariant(MafiaVariant):
    """The forum preset: a day of discussion and one vote, a night of many roles, the after-game."""

    rules = FORUM
    actions = ForumActions
    relay_phases = (Phase.NIGHT, ForumPhase.COP_TURN)  # FORUM-X16: the Cop's turn too
    handlers = {**MafiaVariant.handlers, **HANDLERS}
    not_presence = MafiaVariant.not_presence + (IssueWarning,)

    def in_team_chat(self, st: GameState, user_id: int) -> bool:
        """FORUM-06, 37, Q19: the team chat holds the Sleepwalker too (from the intro night)."""
        if st.forum is None:
            return super().in_team_chat(st, user_id)
        return user_id in forum_night.team_chat(st)

    def start_day(self, s: Step) -> None:
        forum_day.start_day(s)

    def check_win(self, s: Step) -> bool:
        return elimination.check_win(s)

    def start_night(self, s: Step) -> None:
        forum_night.start_night(s)

    def night_complete(self, s: Step) -> bool:
        return forum_night.night_complete(s)

    def end_night(self, s: Step, timed_out: bool) -> None:
        forum_dawn.end_night(s, timed_out)

    def presence_changed(self, s: Step) -> None:
        if s.st.phase in PHASES:  # a readiness, a ballot or an after-game vote
            presence_changed(s)

    def add_actions(self, st: GameState, user_id: int, kw: dict[str, Any]) -> bool:
        kw.update(legal(st, user_id))
        return True
