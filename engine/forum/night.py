"""The forum preset's nights (rule IDs in docs/rules/forum.md).

**Night 1** (FORUM-50, 51, 37, Q13): one NIGHT phase (purpose ``intro``, timer ``meeting``).  The
team chat gets ``MafiaRevealed`` (the mafiosi and the Sleepwalker, unmarked); then ``NightWake``
wakes, in turn, the Mafia and the Sleepwalker (told the mafiosi), the Commissar, the Doctor, the
Maniac and the Putana.  Nobody kills, checks, heals or infects: everybody taps Sleep, the Maniac
and the Putana also choose their side (``ChooseSide``; Town if they do not).

**From night 2**, if a Cop is in the role list (alive or not, FORUM-Q21): COP_TURN first (timer
``cop``), where only the Cop may act (``NightAction(block)``); it ends with his choice or its
timer.  Then NIGHT (purpose ``night``, timer ``forum_night``): the Mafia pick (changeable, seen
by the team chat, FORUM-06), the Sleepwalker poses with a pick of his own that never counts, the
Commissar checks, the Doctor heals, the Maniac slays and the Putana infects on their nights, the
Journalist compares a pair (``ComparePlayers``), everybody else taps Sleep.  Checks and
comparisons are answered at once: the Cop has already moved and allegiances only change at
dawn, so this is the answer "as at the start of the night" (FORUM-Q22 (7)).

The end of the night and its resolution order: :mod:`.dawn`.
"""

from __future__ import annotations

from ..core.audience import HOST, Private
from ..core.errors import (
    AlreadyActed,
    InvalidTarget,
    NoNightAction,
    NotAllowed,
    NotInGame,
    PhaseClosed,
    PlayerDead,
    TargetNotAlive,
)
from ..mafia import flow
from ..mafia.commands import NightAction, RelayMessage
from ..mafia.events import CheckResult, MafiaPicks, MafiaRevealed, NightActionAccepted, RelayedMessage
from ..mafia.roles import Role, Team
from ..mafia.state import GameState, Phase, Player
from ..mafia.step import Step
from .commands import ChooseSide, ComparePlayers
from .events import (
    CheckShrugged,
    ComparisonResult,
    MafiaBlocked,
    NightWake,
    SideChosen,
    SleepwalkerRevealed,
)
from .phases import ForumPhase
from .state import ForumState

#: FORUM-50: who wakes on night 1, in turn (the Sleepwalker wakes with the Mafia, FORUM-37)
WAKE_ORDER = ((1, Role.MAFIA), (1, Role.SLEEPWALKER), (2, Role.COMMISSAR), (3, Role.DOCTOR),
              (4, Role.MANIAC), (5, Role.PUTANA))
#: FORUM-26, 28: the roles that choose a side
SIDED = (Role.MANIAC, Role.PUTANA)
MAX_RELAY_TEXT = 1000


# --- who is who ------------------------------------------------------------------------------
def team_chat(st: GameState) -> list[int]:
    """The team chat (``TeamChat(MAFIA)`` in a forum game): the living mafiosi, a turned
    Werewolf included, and the living Sleepwalker (FORUM-06, 37, 42, Q19), seat order."""
    return [p.user_id for p in st.alive() if p.team is Team.MAFIA or p.role is Role.SLEEPWALKER]


def killer_night(st: GameState) -> bool:
    """FORUM-27, 29, Q12: the Maniac and the Putana act on nights 3, 5, 7... (every night from 2
    with ``alternate_nights`` off)."""
    if st.night < 2:
        return False
    if st.options.get("alternate_nights", True):
        return st.night % 2 == 1
    return True


def cop_in_play(st: GameState) -> bool:
    return any(p.role is Role.COP for p in st.seated())


def agreed(st: GameState) -> int | None:
    """FORUM-06, Q03: the living target every active living mafioso picked (the Sleepwalker's
    pick does not count), else None."""
    shooters = [p.user_id for p in st.mafia_alive() if p.active]
    if not shooters:
        return None
    picks = {st.mafia_picks.get(u) for u in shooters}
    if len(picks) == 1:
        (target,) = picks
        if target is not None and st.is_alive(target):
            return target
    return None


def actions_for(st: GameState, p: Player) -> tuple[str, ...]:
    """What ``p`` may do now (FORUM-19, 22, 27, 29, 34, 44, 48, 51, Q19): 'block', 'kill',
    'check', 'heal', 'slay', 'infect', 'compare' (through ``ComparePlayers``), 'sleep'."""
    f = st.forum
    if st.phase is ForumPhase.COP_TURN:
        return ("block",) if p.role is Role.COP else ()
    if st.phase is not Phase.NIGHT:
        return ()
    if st.night <= 1:
        return ("sleep",)
    if p.team is Team.MAFIA:
        return ("sleep",) if f.mafia_blocked else ("kill",)
    role = p.dealt_role
    if role is Role.SLEEPWALKER:
        if f.revealed == p.user_id:
            return ()
        return ("sleep",) if f.mafia_blocked else ("kill", "sleep")
    if role is Role.COP:
        return ()  # he moved in his own turn
    own = {Role.COMMISSAR: "check", Role.DOCTOR: "heal", Role.JOURNALIST: "compare"}.get(role)
    if role in SIDED and killer_night(st):
        own = "slay" if role is Role.MANIAC else "infect"
    return (own, "sleep") if own else ("sleep",)


def targets(st: GameState, p: Player, action: str) -> list[int]:
    """Legal targets (user ids, seat order): FORUM-Q07, Q11, Q14, Q15, Q18, Q21, Q30, X04."""
    f = st.forum
    alive = [q.user_id for q in st.alive()]
    if action in ("block", "check", "slay", "infect", "compare"):
        return [u for u in alive if u != p.user_id]
    if action == "heal":
        return alive if not f.self_healed else [u for u in alive if u != p.user_id]
    if action == "kill":
        return [u for u in alive if u != f.revealed]
    return []


def done(st: GameState, p: Player) -> bool:
    """Whether ``p`` holds nothing up tonight (the night closes early when all are done)."""
    f = st.forum
    if st.night > 1:
        if p.team is Team.MAFIA and not f.mafia_blocked:
            return agreed(st) is not None
        if p.role is Role.SLEEPWALKER:
            return (f.revealed == p.user_id or p.user_id in st.mafia_picks
                    or p.user_id in st.night_actions)
        if p.role is Role.COP:
            return True
    return p.user_id in st.night_actions


def night_complete(s: Step) -> bool:
    """FORUM hook of ``flow.night_complete``: every living active player is done.  Asked after
    every change (an action, a lost connection, a removal), so it first reveals a Sleepwalker
    the active mafiosi's picks now agree on (FORUM-39)."""
    st = s.st
    if st.phase is not Phase.NIGHT:
        return False
    if st.night > 1:
        maybe_reveal(s)
    return all(done(st, p) for p in st.alive_active())


# --- the night's phases ------------------------------------------------------------------------
def start_night(s: Step) -> None:
    """FORUM hook of ``flow.start_night``."""
    st = s.st
    if st.forum is None:
        st.forum = ForumState()
    st.night_actions, st.mafia_picks = {}, {}
    st.forum.new_night()
    if st.night == 1:
        _intro(s)
    elif cop_in_play(st):  # FORUM-44, Q21: every night while a Cop is in the role list
        s.new_phase(ForumPhase.COP_TURN, "cop", purpose="cop")
    else:
        open_night(s)


def _intro(s: Step) -> None:
    st = s.st
    s.new_phase(Phase.NIGHT, "meeting", purpose="intro")
    s.emit(MafiaRevealed(members=tuple(team_chat(st))))
    mafia = tuple(p.user_id for p in st.alive() if p.role is Role.MAFIA)
    for turn, role in WAKE_ORDER:
        for p in st.alive():
            if p.role is role:
                s.emit(NightWake(user_id=p.user_id, role=role, turn=turn,
                                 mafia=mafia if role is Role.SLEEPWALKER else (),
                                 audience=Private(p.user_id)))


def open_night(s: Step) -> None:
    """FORUM-45: after the Cop's turn (or without a Cop) the other roles move."""
    s.new_phase(Phase.NIGHT, "forum_night", purpose="night")


# --- commands ----------------------------------------------------------------------------------
def _living(s: Step, uid: int | None) -> Player:
    p = s.st.players.get(uid) if uid is not None else None
    if p is None or not p.seat:
        raise NotInGame()
    if not p.alive:
        raise PlayerDead()
    return p


def night_action(s: Step, cmd: NightAction) -> None:
    """The forum's ``NightAction``: 'block' in the Cop's turn, the rest in the night."""
    st = s.st
    if st.phase not in (Phase.NIGHT, ForumPhase.COP_TURN):
        raise PhaseClosed(st.phase.value)
    p = _living(s, cmd.user_id)
    if cmd.action == "compare" or cmd.action not in actions_for(st, p):
        raise NoNightAction(cmd.action)
    target = None
    if cmd.action != "sleep":
        if cmd.target is None or not st.is_alive(cmd.target):
            raise TargetNotAlive()
        if cmd.target not in targets(st, p, cmd.action):
            raise InvalidTarget()
        target = cmd.target
    if cmd.action != "kill" and p.user_id in st.night_actions:
        raise AlreadyActed()  # one action a night (FORUM-19, 22)
    p.misses = 0
    s.emit(NightActionAccepted(user_id=p.user_id, action=cmd.action, target=target,
                               audience=Private(p.user_id)))
    if cmd.action == "block":
        assert target is not None  # only "sleep" has none
        _block(s, p.user_id, target)
        return
    if cmd.action == "kill":
        assert target is not None  # only "sleep" has none
        st.mafia_picks[p.user_id] = target
        _show_picks(s)
        maybe_reveal(s)
    else:
        st.night_actions[p.user_id] = (cmd.action, target)
        if cmd.action == "heal" and target == p.user_id:
            st.forum.self_healed = True  # FORUM-24, X05: spent when chosen
        elif cmd.action == "check":
            assert target is not None  # only "sleep" has none
            _answer_check(s, p.user_id, target)
    if night_complete(s):
        flow.end_night(s, timed_out=False)


def _block(s: Step, cop: int, target: int) -> None:
    """FORUM-44..48: the Cop's choice fixes tonight's immunity; on a mafioso the Mafia are told
    they kill nobody.  Then the others move."""
    st = s.st
    st.night_actions[cop] = ("block", target)
    st.forum.cop_target = target
    if st.players[target].team is Team.MAFIA:
        st.forum.mafia_blocked = True
        s.emit(MafiaBlocked())
    open_night(s)


def _show_picks(s: Step) -> None:
    """FORUM-Q19 c: the team chat sees every member's pick, never a "consensus" mark."""
    st = s.st
    s.emit(MafiaPicks(picks=tuple((u, st.mafia_picks.get(u)) for u in team_chat(st)),
                      agreed=None))


def maybe_reveal(s: Step) -> None:
    """FORUM-39, Q19 e: the Mafia agreed on the (unrevealed) Sleepwalker: he is revealed to them
    at once and they choose again -- unless he is the Cop's target (immune, X06)."""
    st = s.st
    f = st.forum
    target = agreed(st)
    if target is None or f.mafia_blocked or f.revealed is not None or f.cop_target == target:
        return
    if st.players[target].role is not Role.SLEEPWALKER:
        return
    f.revealed = target
    st.mafia_picks = {}
    s.emit(SleepwalkerRevealed(user_id=target))
    _show_picks(s)


def _answer_check(s: Step, checker: int, target: int) -> None:
    """FORUM-19, 41, 47, Q10: Mafia (a turned Werewolf too) or not; a shrug on the Cop's
    target or when the Commissar is the Cop's target."""
    st = s.st
    f = st.forum
    if f.cop_target in (checker, target):
        s.emit(CheckShrugged(checker=checker, target=target, audience=Private(checker)))
        return
    is_mafia = st.players[target].team is Team.MAFIA
    f.checks[checker] = f.checks.get(checker, ()) + ((target, is_mafia),)
    s.emit(CheckResult(checker=checker, target=target, is_mafia=is_mafia,
                       audience=Private(checker)))


def clan(st: GameState, uid: int) -> str:
    """FORUM-35, 36, Q10: the Journalist's clans -- the Mafia (a turned Werewolf too), the
    Maniac alone, Town (everybody else, the Putana and the Sleepwalker included)."""
    p = st.players[uid]
    if p.team is Team.MAFIA:
        return "mafia"
    return f"maniac:{uid}" if p.role is Role.MANIAC else "town"


def compare(s: Step, cmd: ComparePlayers) -> None:
    """FORUM-34..36, Q18: two different living players other than himself, once a night."""
    st = s.st
    if st.phase is not Phase.NIGHT:
        raise PhaseClosed(st.phase.value)
    p = _living(s, cmd.user_id)
    if "compare" not in actions_for(st, p):
        raise NoNightAction("compare")
    if p.user_id in st.night_actions:
        raise AlreadyActed()
    if not (st.is_alive(cmd.first) and st.is_alive(cmd.second)):
        raise TargetNotAlive()
    allowed = targets(st, p, "compare")
    if cmd.first == cmd.second or cmd.first not in allowed or cmd.second not in allowed:
        raise InvalidTarget()
    p.misses = 0
    st.night_actions[p.user_id] = ("compare", cmd.first)
    f = st.forum
    same = None
    if f.cop_target not in (p.user_id, cmd.first, cmd.second):
        same = clan(st, cmd.first) == clan(st, cmd.second)
    s.emit(ComparisonResult(checker=p.user_id, first=cmd.first, second=cmd.second, same=same,
                            audience=Private(p.user_id)))
    if night_complete(s):
        flow.end_night(s, timed_out=False)


def choose_side(s: Step, cmd: ChooseSide) -> None:
    """FORUM-26, 28, Q13: on night 1, once, secret (to him and the host)."""
    st = s.st
    if st.phase is not Phase.NIGHT or st.night != 1:
        raise PhaseClosed(st.phase.value)
    p = _living(s, cmd.user_id)
    if p.role not in SIDED:
        raise NotAllowed("only the Maniac and the Putana choose a side")
    if p.user_id in st.forum.sides:
        raise AlreadyActed()
    if not isinstance(cmd.side, Team):
        raise InvalidTarget("side")
    p.misses = 0
    st.forum.sides[p.user_id] = cmd.side
    st.night_actions.setdefault(p.user_id, ("side", None))
    side_chosen(s, p.user_id, cmd.side, False)
    if night_complete(s):
        flow.end_night(s, timed_out=False)


def side_chosen(s: Step, uid: int, side: Team, by_default: bool) -> None:
    s.emit(SideChosen(user_id=uid, side=side, by_default=by_default, audience=Private(uid)))
    if s.st.host is not None:
        s.emit(SideChosen(user_id=uid, side=side, by_default=by_default, audience=HOST))


def relay(s: Step, cmd: RelayMessage) -> None:
    """FORUM-06, Q19 b: the team chat talks every night (the Cop's turn included)."""
    st = s.st
    if st.phase not in (Phase.NIGHT, ForumPhase.COP_TURN):
        raise PhaseClosed(st.phase.value)
    p = _living(s, cmd.user_id)
    if p.user_id not in team_chat(st):
        raise NotAllowed()
    s.emit(RelayedMessage(sender=p.user_id, text=cmd.text[:MAX_RELAY_TEXT]))
