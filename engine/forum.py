"""The forum preset's own algorithms (rule IDs in docs/rules/forum.md).

Theory of operation
-------------------
A rule set with ``hooks == "forum"`` keeps the shared machinery (the lobby and the deal, last-word
turns, pauses, presence, the host) and replaces the rest:

* ``engine.game.apply`` takes the handler of a command from :data:`HANDLERS` first (the forum's
  own commands and its versions of ``NightAction``, ``CastVote``, ``MarkReady``, ``HostNext``,
  ``PhaseTimeout``, ``RelayMessage``, ``Disqualify``);
* ``flow`` calls :func:`check_win`, :mod:`.forum_day`'s ``start_day``, :mod:`.forum_night`'s
  ``start_night`` and ``night_complete`` and :mod:`.forum_dawn`'s ``end_night`` where marked
  ``FORUM hook``; ``control`` calls :func:`presence_changed`; ``queries.legal_actions`` takes
  the fields from :func:`legal`.

Modules: this one -- eliminations (the role shown, the last word for Town status only), the
Werewolf's turn and the win check, deadlines and the host's Next, the ``legal_actions`` fields;
:mod:`.forum_day` -- the discussion, the ballot, the revote, the host's decision, last-word
extras; :mod:`.forum_night` -- the night's phases and actions; :mod:`.forum_dawn` -- the
resolution order and the morning;
:mod:`.forum_moderation` -- warnings and removals; :mod:`.forum_after` -- the win, the bonus
round, the reveal, the best player; :mod:`.forum_setup` -- the table and the options;
:mod:`.forum_state` -- ``GameState.forum``.
"""

from __future__ import annotations

from . import flow, forum_after, forum_dawn, forum_day, forum_moderation, forum_night
from .audience import Private
from .commands import (
    CastVote, Disqualify, HostNext, MarkReady, NightAction, PhaseTimeout, RelayMessage,
)
from .errors import NotAllowed, PhaseClosed
from .events import MafiaRevealed, PlayerEliminated
from .forum_after import winners  # noqa: F401  (who won with the chosen sides)
from .forum_commands import (
    ChooseSide, ComparePlayers, DecideBonusRound, GuessRoles, HostDecide, IssueWarning,
    NameSuspect, RevealCheck, VoteBestPlayer,
)
from .forum_events import WerewolfTurned
from .forum_night import team_chat  # noqa: F401  (the bot resolves the forum's team chat here)
from .roles import Role, Team
from .state import GameState, Phase, Player
from .step import Step

#: the phases this preset adds (their deadlines and the host's Next come here)
PHASES = (Phase.COP_TURN, Phase.DEBATE, Phase.BALLOT, Phase.BONUS_OFFER, Phase.BONUS,
          Phase.BEST_PLAYER)


# --- eliminations, the Werewolf, the win -------------------------------------------------------
def has_last_word(p: Player) -> bool:
    """FORUM-13, 15, Q09: every Town-status role; not the Mafia, not a turned Werewolf."""
    return p.team is not Team.MAFIA


def eliminate(s: Step, uid: int, cause: str) -> None:
    """FORUM-07, 16, Q08, Q09: out at once with the card shown; a last word is queued for Town
    status unless removed for a breach ('disqualified')."""
    st = s.st
    p = st.players[uid]
    p.alive = False
    st.mafia_picks.pop(uid, None)
    st.night_actions.pop(uid, None)
    st.ready.discard(uid)
    s.emit(PlayerEliminated(user_id=uid, cause=cause, role=p.role))
    if cause != "disqualified" and has_last_word(p):
        st.queue.append(uid)


def settle(s: Step) -> None:
    """FORUM-42, Q20, X08: the moment the last mafioso is gone, a living Werewolf becomes the
    Mafia (told by DM; the team chat -- him and a living Sleepwalker -- gets the new list)."""
    st = s.st
    if any(p.role is Role.MAFIA for p in st.alive()):
        return
    for p in st.alive():
        if p.role is Role.WEREWOLF and not p.turned:
            p.turned = True
            s.emit(WerewolfTurned(user_id=p.user_id, audience=Private(p.user_id)))
            s.emit(MafiaRevealed(members=tuple(forum_night.team_chat(st))))


def check_win(s: Step) -> bool:
    """FORUM hook of ``flow.check_win`` (FORUM-43, 54, 55, Q13, Q20, Q29): the Werewolf turns
    first; Town wins with no mafioso (turned Werewolf included) alive, the Mafia at parity with
    everybody else (the Maniac and the Putana count as Town).  A win leads to the after-game."""
    settle(s)
    team = flow.winner(s.st)
    if team is None:
        return False
    forum_after.declare(s, team)
    return True


# --- deadlines, the host, presence ---------------------------------------------------------------
def phase_timeout(s: Step, cmd: PhaseTimeout) -> None:
    """A deadline passed; a stale timer is a no-op (PARTY-X08)."""
    st = s.st
    t = st.timer
    if t is None or t.seq != cmd.timer_seq:
        return
    if t.kind in ("pause", "host_wait"):
        from . import control

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
    if ph is Phase.COP_TURN:
        forum_night.open_night(s)
    elif ph is Phase.NIGHT:
        if by_host:
            forum_dawn.end_night(s, timed_out=True)
        else:
            forum_dawn.deadline(s)
    elif ph is Phase.DEBATE:
        forum_day.open_ballot(s)
    elif ph is Phase.BALLOT:
        forum_day.close_ballot(s)
    elif ph is Phase.LAST_WORD:
        flow.next_turn(s)
    elif ph in (Phase.BONUS_OFFER, Phase.BONUS, Phase.BEST_PLAYER):
        forum_after.advance(s)
    else:
        raise PhaseClosed(ph.value)


def presence_changed(s: Step) -> None:
    """A player went inactive (or was removed): he holds nothing up any more."""
    st = s.st
    if st.phase is Phase.DEBATE:
        forum_day.ready_progress(s, None)
    elif st.phase is Phase.BALLOT and st.forum.stage != "host" \
            and forum_day.ballot_complete(st):
        forum_day.close_ballot(s)
    elif st.phase in (Phase.BONUS, Phase.BEST_PLAYER):
        forum_after.presence_changed(s)


# --- queries -----------------------------------------------------------------------------------
def legal(st: GameState, user_id: int) -> dict:
    """The forum fields of :class:`engine.queries.LegalActions` for ``user_id`` (documented in
    docs/rules/forum.md, "legal_actions")."""
    kw: dict = {}
    ph = st.phase
    f = st.forum
    is_host = user_id == st.host
    p = st.players.get(user_id)
    living = st.is_alive(user_id)
    if f is None:
        return kw
    if is_host and ph not in (Phase.BONUS_OFFER, Phase.BONUS, Phase.BEST_PLAYER):
        kw["moderate"] = tuple(q.user_id for q in st.alive())
    if ph is Phase.LAST_WORD:
        kw["end_speech"] = user_id == st.speaker or is_host
        if user_id == st.speaker:
            if user_id not in f.named:
                kw["suspect"] = tuple(q.user_id for q in st.alive())
            if p.role is Role.COMMISSAR and user_id not in f.shown:
                kw["reveal_check"] = tuple(forum_day.seat_order(st, forum_day.checked(st, user_id)))
    elif ph in (Phase.BONUS_OFFER, Phase.BONUS, Phase.BEST_PLAYER):
        kw.update(forum_after.legal(st, user_id))
    elif not living:
        pass
    elif ph is Phase.DEBATE:
        kw["ready"] = user_id not in st.ready
    elif ph is Phase.BALLOT:
        if f.stage == "host":
            pass
        elif forum_day.votes_now(st, user_id):
            kw["day_vote"] = tuple(forum_day.choices(st, user_id))
            kw["day_vote_mark"] = st.vote.votes.get(user_id)
    elif ph in (Phase.NIGHT, Phase.COP_TURN):
        kw.update(_night_fields(st, p))
    if ph is Phase.BALLOT and f.stage == "host" and is_host:
        kw["host_decide"] = tuple(c for c in st.vote.candidates if st.is_alive(c))
    return kw


def _night_fields(st: GameState, p: Player) -> dict:
    kw: dict = {}
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
    if st.phase is Phase.DEBATE:
        return st.is_alive(user_id)
    if st.phase is Phase.LAST_WORD:
        return user_id == st.speaker
    return False


HANDLERS = {
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
