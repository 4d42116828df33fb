"""After the forum game is won (rule IDs in docs/rules/forum.md): the bonus round, the reveal and
the vote for the best player, all in the game's log before ``GameEnded``.

``VictoryDeclared(winner)`` -> BONUS_OFFER (timer ``bonus_offer``; the host or the organiser
starts the round or skips it, the deadline skips it; not offered with ``bonus_round`` off) ->
BONUS (timer ``bonus``: every participant, the eliminated included, guesses the roles of the
survivors, whose cards are still hidden; closes when every active participant has guessed) ->
``BonusResults`` -> ``RolesRevealed`` (every role, the Maniac's and the Putana's sides, the
winners) -> BEST_PLAYER (timer ``best_player``: every participant votes once for another one;
closes when every active participant has voted) -> ``BestPlayerChosen`` -> ``GameEnded`` (the
result and the full reveal, as in every preset; the phase is ENDED).  FORUM-54..57, Q13, Q23,
Q24.
"""

from __future__ import annotations

from collections.abc import Container
from typing import Any

from ..core.audience import Private
from ..core.errors import AlreadyVoted, InvalidTarget, NotAllowed, NotInGame, PhaseClosed
from ..mafia.events import GameEnded
from ..mafia.roles import Role, Team
from ..mafia.state import GameState, Phase, Player
from ..mafia.step import Step
from .commands import DecideBonusRound, GuessRoles, VoteBestPlayer
from .events import (
    BestPlayerChosen,
    BestPlayerVoted,
    BonusResults,
    GuessesRecorded,
    RolesRevealed,
    VictoryDeclared,
)
from .phases import ForumPhase
from .setup import OPTIONAL_ROLES
from .state import ForumState

#: the order roles are offered in the bonus round's form
ROLE_ORDER = (Role.MAFIA, *OPTIONAL_ROLES.values(), Role.CIVILIAN)


def winners(st: GameState) -> list[int]:
    """FORUM-Q13, Q20, X24: the players who win with ``st.winner`` (seat order): the Mafia -- the
    mafiosi, a turned Werewolf, a Maniac or Putana of the Mafia's side; Town -- everybody else
    (an unturned Werewolf included); never a player the host removed for a breach."""
    if st.winner is None:
        return []
    removed = st.forum.removed
    return [p.user_id for p in st.seated()
            if side(st, p) is st.winner and p.user_id not in removed]


def side(st: GameState, p: Player) -> Team:
    """The side a seated player wins with."""
    f: ForumState = st.forum
    if p.user_id in f.sides:
        return f.sides[p.user_id]
    return p.dealt_role.team if p.side is None else p.side


def declare(s: Step, team: Team) -> None:
    """The game is decided: announce it; the after-game begins."""
    st = s.st
    st.winner = team
    st.speaker = None
    st.queue = []
    st.vote = None
    s.emit(VictoryDeclared(winner=team, days=st.day))
    if st.options.get("bonus_round", True):
        s.new_phase(ForumPhase.BONUS_OFFER, "bonus_offer", purpose="offer")
    else:
        reveal(s)


def decide_bonus(s: Step, cmd: DecideBonusRound) -> None:
    """FORUM-56, Q23: the host or the organiser starts the bonus round, or skips it."""
    st = s.st
    if st.phase is not ForumPhase.BONUS_OFFER:
        raise PhaseClosed(st.phase.value)
    if cmd.user_id is None or cmd.user_id not in (st.host, st.organiser):
        raise NotAllowed()
    if cmd.start:
        st.forum.guesses = {}
        s.new_phase(ForumPhase.BONUS, "bonus", purpose="bonus")
    else:
        reveal(s)


def guess_targets(st: GameState, uid: int) -> list[int]:
    """Whose role ``uid`` may guess: the other survivors (the eliminated were shown, Q08)."""
    return [p.user_id for p in st.alive() if p.user_id != uid]


def guess_roles_offered(st: GameState) -> list[Role]:
    """The roles of this deal (``bonus_all_roles``), else the Mafia only (FORUM-56)."""
    if not st.options.get("bonus_all_roles", True):
        return [Role.MAFIA]
    dealt = {p.role for p in st.seated()}
    return [r for r in ROLE_ORDER if r in dealt]


def _participant(s: Step, uid: int | None) -> Player:
    p = s.st.players.get(uid) if uid is not None else None
    if p is None or not p.seat:
        raise NotInGame()
    return p


def guess_roles(s: Step, cmd: GuessRoles) -> None:
    """FORUM-Q23: a participant's form replaces his previous one; ``()`` guesses nothing."""
    st = s.st
    if st.phase is not ForumPhase.BONUS:
        raise PhaseClosed(st.phase.value)
    p = _participant(s, cmd.user_id)
    allowed, roles = guess_targets(st, p.user_id), guess_roles_offered(st)
    guesses = tuple(cmd.guesses)
    seen = set()
    for item in guesses:
        if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], Role)):
            raise InvalidTarget("a guess is (player, role)")
        target, role = item
        if target not in allowed or role not in roles or target in seen:
            raise InvalidTarget()
        seen.add(target)
    f = st.forum
    f.guesses[p.user_id] = guesses  # () = no guess, he is done
    s.emit(GuessesRecorded(user_id=p.user_id, guesses=guesses, audience=Private(p.user_id)))
    if _all_in(st, f.guesses):
        close_bonus(s)


def _all_in(st: GameState, done: Container[int]) -> bool:
    return all(p.user_id in done for p in st.seated() if p.active)


def close_bonus(s: Step) -> None:
    st = s.st
    f = st.forum
    order = [p.user_id for p in st.seated() if p.user_id in f.guesses]
    hits = tuple((u, sum(1 for t, r in f.guesses[u] if st.players[t].role is r)) for u in order)
    s.emit(BonusResults(guesses=tuple((u, f.guesses[u]) for u in order), hits=hits))
    reveal(s)


def reveal(s: Step) -> None:
    """FORUM-Q08, Q13, Q24: every card, the sides, the winners; then the best-player vote."""
    st = s.st
    f = st.forum
    s.emit(RolesRevealed(
        roles=tuple((p.seat, p.user_id, p.dealt_role) for p in st.seated()),
        sides=tuple((p.user_id, f.sides[p.user_id]) for p in st.seated() if p.user_id in f.sides),
        winners=tuple(winners(st))))
    f.best_votes = {}
    s.new_phase(ForumPhase.BEST_PLAYER, "best_player", purpose="best_player")


def vote_best(s: Step, cmd: VoteBestPlayer) -> None:
    """FORUM-57, Q24: every participant (the host does not), once, not for himself."""
    st = s.st
    if st.phase is not ForumPhase.BEST_PLAYER:
        raise PhaseClosed(st.phase.value)
    p = _participant(s, cmd.user_id)
    f = st.forum
    if p.user_id in f.best_votes:
        raise AlreadyVoted()
    q = st.players.get(cmd.target)
    if q is None or not q.seat or q.user_id == p.user_id:
        raise InvalidTarget()
    f.best_votes[p.user_id] = q.user_id
    s.emit(BestPlayerVoted(voter=p.user_id, target=q.user_id))
    if _all_in(st, f.best_votes):
        close_best(s)


def close_best(s: Step) -> None:
    """The most votes win; a tie shares the title; then ``GameEnded``."""
    st = s.st
    votes = st.forum.best_votes
    names = [p.user_id for p in st.seated() if p.user_id in set(votes.values())]
    tally = {c: [p.user_id for p in st.seated() if votes.get(p.user_id) == c] for c in names}
    top = max((len(v) for v in tally.values()), default=0)
    s.emit(BestPlayerChosen(winners=tuple(c for c in names if len(tally[c]) == top),
                            tally=tuple((c, tuple(tally[c])) for c in names)))
    st.phase = Phase.ENDED
    st.phase_seq += 1
    st.speaker = None
    s.clear_timer()
    assert st.winner is not None, "the after-game follows a win"
    s.emit(GameEnded(winner=st.winner, days=st.day,
                     roles=tuple((p.seat, p.user_id, p.dealt_role) for p in st.seated())))


def advance(s: Step) -> None:
    """A deadline (or the host's Next) of an after-game phase."""
    ph = s.st.phase
    if ph is ForumPhase.BONUS_OFFER:
        reveal(s)
    elif ph is ForumPhase.BONUS:
        close_bonus(s)
    else:
        close_best(s)


def presence_changed(s: Step) -> None:
    st = s.st
    if st.phase is ForumPhase.BONUS and _all_in(st, st.forum.guesses):
        close_bonus(s)
    elif st.phase is ForumPhase.BEST_PLAYER and _all_in(st, st.forum.best_votes):
        close_best(s)


def legal(st: GameState, user_id: int) -> dict[str, Any]:
    """The after-game fields of ``legal_actions``."""
    kw: dict[str, Any] = {}
    p = st.players.get(user_id)
    seated = p is not None and bool(p.seat)
    if st.phase is ForumPhase.BONUS_OFFER:
        kw["bonus_decide"] = user_id in (st.host, st.organiser)
    elif st.phase is ForumPhase.BONUS and seated:
        kw["bonus_guess"] = tuple(guess_targets(st, user_id))
        kw["bonus_roles"] = tuple(guess_roles_offered(st))
    elif st.phase is ForumPhase.BEST_PLAYER and seated and user_id not in st.forum.best_votes:
        kw["best_player"] = tuple(q.user_id for q in st.seated() if q.user_id != user_id)
    return kw
