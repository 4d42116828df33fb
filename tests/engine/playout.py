"""Seeded random playouts of whole games, used by the invariant tests (and handy in a REPL).

``play(seed, n, host=..., chaos=...)`` drives one game through :func:`engine.apply` only: every
step it asks :func:`engine.legal_actions` what each user may do, adds the running deadline and,
with probability ``chaos``, one disruptive command (a lost connection, a pause, a stale timer, a
forged vote, a take-over...), then applies one of them at random.  A command built from
``legal_actions`` must be accepted -- the bot offers exactly those buttons -- so a refusal there
fails the playout; chaos commands may be refused (counted in ``Playout.refused``).
``ruleset="online"`` adds the online preset's buttons (ballot, lift, best move) and chaos (the
shell's AFK reports, forged taps) from :mod:`.online_playout`; ``ruleset="forum"`` the forum's
(side choices, comparisons, the changeable day vote, last-word extras, the after-game,
warnings and removals) from :mod:`.forum_playout`.

    >>> po = play(seed=7, n=9, host=True)
    >>> po.state.winner, len(po.log), po.refused
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from enum import Enum

from engine import (
    PUBLIC,
    REVISION,
    BecomeHost,
    CancelFoul,
    CastExcludeVote,
    CastVote,
    ChangeSettings,
    ChooseBestMove,
    ChooseSide,
    Command,
    ComparePlayers,
    Continue,
    CreateGame,
    Disqualify,
    EndSpeech,
    Event,
    GameEnded,
    GameState,
    HostNext,
    IllegalCommand,
    IssueFoul,
    Join,
    MarkActive,
    MarkInactive,
    MarkReady,
    NightAction,
    Nominate,
    OnlinePhase,
    Pause,
    PhaseTimeout,
    PlayerEliminated,
    RelayMessage,
    Resume,
    Role,
    StartGame,
    TakeOver,
    TapLift,
    TapVote,
    Team,
    UndoNomination,
    apply,
    find_ruleset,
    legal_actions,
)
from engine.forum.events import AFTER_WIN_EVENTS

from .forum_playout import AFTER_WIN_PHASES, forum_chaos, forum_options
from .online_playout import Intent, online_chaos, online_options

#: Commands only a living player may have accepted (the dead never act, PARTY-49).
ACTING = (CastVote, CastExcludeVote, Nominate, NightAction, MarkReady, Continue, RelayMessage,
          TapVote, TapLift, ChooseSide, ComparePlayers)

HOST_ID = 999
ADMIN_ID = 998  # a group admin who is not in the game (TakeOver)


@dataclass
class Playout:
    state: GameState | None
    log: list = field(default_factory=list)
    #: (index of the command in ``log``, event) for every event, in order
    events: list[tuple[int, Event]] = field(default_factory=list)
    refused: int = 0
    #: the refusal of StartGame for tables outside the preset's range (then the game never starts)
    start_error: IllegalCommand | None = None

    @property
    def final(self) -> GameState:
        """The state reached (there is one once the CreateGame is applied)."""
        assert self.state is not None, "no game was created"
        return self.state


def _walk(value):
    if isinstance(value, Enum):
        yield value
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            yield from _walk(getattr(value, f.name))
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _walk(v)


def leaks_role(event, ruleset: str = "party") -> bool:
    """True if a PUBLIC event names a role or team (only GameEnded may).  The forum preset
    allows exactly two more: ``PlayerEliminated.role``, the leaving player's own card
    (FORUM-Q08; its other fields must not), and the events after the win
    (``AFTER_WIN_EVENTS``: VictoryDeclared, BonusResults, RolesRevealed)."""
    if event.audience != PUBLIC or isinstance(event, GameEnded):
        return False
    if ruleset == "forum":
        if isinstance(event, AFTER_WIN_EVENTS):
            return False
        if isinstance(event, PlayerEliminated):
            event = dataclasses.replace(event, role=None)
    return any(isinstance(v, (Role, Team)) for v in _walk(event))


def play(seed: int, n: int, *, host: bool = False, chaos: float = 0.05,
         settings: dict | None = None, max_steps: int = 20000,
         ruleset: str = "party") -> Playout:
    """Play one seeded game with ``n`` players; see the module docstring.

    Raises AssertionError when an invariant of a single step breaks (a legal command refused,
    a dead player acting, nothing to do and no timer).
    """
    rng = random.Random(seed)
    rs = find_ruleset(ruleset)
    users = [1_000_000_000_000 + seed * 100 + i for i in range(n)]  # ids past 32 bits
    organiser = users[0]
    po = Playout(state=None)

    def do(cmd, expect_ok=True):
        before = po.state
        try:
            st, ev = apply(before, cmd)
        except IllegalCommand as exc:
            if expect_ok:
                raise AssertionError(f"a legal command was refused: {cmd} -> {exc!r}") from exc
            po.refused += 1
            return False
        assert isinstance(st, GameState), "a mafia preset's game"
        check_step(before, cmd, st)
        po.log.append(cmd)
        po.events.extend((len(po.log) - 1, e) for e in ev if isinstance(e, Event))
        po.state = st
        return True

    revision = {"revision": REVISION} if rs.name in ("online", "forum") else {}  # REV-X01: today's rules
    do(CreateGame(user_id=organiser, ruleset=rs.name, settings={**revision, **(settings or {})}))
    host_id = None
    if host:
        host_id = HOST_ID
        do(BecomeHost(user_id=host_id, name="Host"))
    for i, u in enumerate(users):
        do(Join(user_id=u, name=f"P{i + 1} <b>&"))
    lobby = po.state
    assert lobby is not None
    if rs.min_players <= n <= rs.max_players:
        roles = rs.roles_for(n, lobby.options)
    else:  # what a careless shell would deal: refused by StartGame
        roles = ([Role.MAFIA, Role.COMMISSAR, Role.DOCTOR] + [Role.CIVILIAN] * n)[:n]
    rng.shuffle(roles)
    seating = users[:]
    rng.shuffle(seating)
    try:
        apply(lobby, StartGame(user_id=organiser, seating=tuple(seating), roles=tuple(roles)))
    except IllegalCommand as exc:
        po.start_error = exc
        return po
    do(StartGame(user_id=organiser, seating=tuple(seating), roles=tuple(roles)))

    everyone = users + ([host_id] if host_id else [])
    strangers = everyone + [ADMIN_ID]
    intent: Intent = {}  # (phase_seq, voter) -> chosen candidate, and the presets' plans
    for _ in range(max_steps):
        st = po.state
        assert st is not None
        if st.over:
            break
        options: list[Command] = []
        for u in everyone:
            if u != st.speaker and u != st.organiser and u != st.host and not st.is_alive(u) \
                    and st.phase not in AFTER_WIN_PHASES:
                continue  # an eliminated player has nothing to do (saves half the queries)
            la = legal_actions(st, u)
            if la.ready:
                options.append(MarkReady(user_id=u))
            if la.continue_:
                options.append(Continue(user_id=u))
            if la.end_speech and rng.random() < 0.5:
                options.append(EndSpeech(user_id=u))
            for t in la.nominate:
                if rng.random() < 0.3:
                    options.append(Nominate(user_id=u, target=t))
            if la.vote is not None:
                # each voter picks his candidate (or none) once per round and waits for its
                # window, so rounds produce realistic ties and lost votes
                key = (st.phase_seq, u)
                if key not in intent:
                    intent[key] = rng.choice([*st.vote_round().candidates, None])
                if intent[key] == la.vote:
                    options.append(CastVote(user_id=u, target=la.vote))
            if la.exclude_vote:
                options.append(CastExcludeVote(user_id=u, yes=rng.random() < 0.6))
            if la.night_action:
                options.append(NightAction(user_id=u, action=la.night_action,
                                           target=rng.choice(la.night_targets)))
            if la.night_extra:
                options.append(NightAction(user_id=u, action=la.night_extra,
                                           target=rng.choice(la.night_extra_targets)))
            if la.sleep:
                options.append(NightAction(user_id=u, action="sleep"))
            if rs.name == "online":  # the online preset's buttons (OnlineActions)
                options += online_options(rng, st, u, la, intent)
            if rs.name == "forum":
                options += forum_options(rng, st, u, la, intent)
            if la.resume and rng.random() < 0.3:
                options.append(Resume(user_id=u))
            if la.host_next and (rng.random() < 0.1 or st.timer is None):
                options.append(HostNext(user_id=u))
        if st.timer and (not options or rng.random() < 0.15):
            options.append(PhaseTimeout(timer_seq=st.timer.seq))
        if not options:
            raise AssertionError(f"stuck in {st.phase} with no timer and no legal action")
        if rng.random() < chaos:
            if rs.name == "forum" and rng.random() < 0.4:
                do(forum_chaos(rng, st, users, strangers), expect_ok=False)
            else:
                do(online_chaos(rng, st, users, strangers) if rs.afk_after and rng.random() < 0.4
                   else _chaos(rng, st, everyone, strangers, users, rs.fouls), expect_ok=False)
        else:
            do(rng.choice(options))
    return po


def _chaos(rng: random.Random, st: GameState, everyone: list[int], strangers: list[int],
           users: list[int], fouls: bool = False):
    """One disruptive command: connection loss, pause, stale timer, forgery, take-over, and in a
    preset with a judge's tools (club) fouls, disqualifications, cancelled fouls, undone
    nominations."""
    u = rng.choice(strangers)
    target = rng.choice(users)
    if fouls and rng.random() < 0.3:
        judge = st.host if st.host and rng.random() < 0.8 else u
        r = rng.random()
        if r < 0.1:
            return Disqualify(user_id=judge, player=target)
        if r < 0.25:
            return CancelFoul(user_id=judge, player=target)
        if r < 0.4:
            return UndoNomination(user_id=judge, target=rng.choice(st.nominations or users))
        return IssueFoul(user_id=judge, player=target, reason="gesture")
    return rng.choice([
        MarkInactive(player=rng.choice(everyone), reason=rng.choice(["blocked", "left", "away"])),
        MarkInactive(player=rng.choice(everyone), reason="blocked"),
        MarkActive(user_id=u),
        Pause(user_id=u, remaining=rng.uniform(0, 60)),
        Resume(user_id=u),
        PhaseTimeout(timer_seq=max(0, (st.timer.seq if st.timer else 1) - 1)),
        CastVote(user_id=u, target=target),
        CastExcludeVote(user_id=u, yes=True),
        NightAction(user_id=u, action=rng.choice(["kill", "check", "heal"]), target=target),
        Nominate(user_id=u, target=target),
        EndSpeech(user_id=u),
        Continue(user_id=u),
        HostNext(user_id=u),
        RelayMessage(user_id=u, text="hi"),
        ChangeSettings(user_id=st.organiser, settings={"tempo": rng.choice(
            ["short", "normal", "detailed"])}),
        TakeOver(user_id=ADMIN_ID) if rng.random() < 0.2 else MarkActive(user_id=u),
    ])


def check_step(before: GameState | None, cmd, after: GameState) -> None:
    """Per-step invariants: the dead never act; an accepted step never revives anyone."""
    if before is None:
        return
    if isinstance(cmd, ACTING) and cmd.user_id in before.players:
        p = before.players[cmd.user_id]
        assert p.seat and p.alive, f"dead or unseated player acted: {cmd}"
    if isinstance(cmd, EndSpeech) and cmd.user_id in before.players:
        assert cmd.user_id in (before.speaker, before.host), f"ended another's turn: {cmd}"
    if isinstance(cmd, ChooseBestMove):  # ONLINE-Q12: only the first victim, in his phase
        assert cmd.user_id == before.speaker and before.phase is OnlinePhase.BEST_MOVE, cmd
    for uid, p in before.players.items():
        if not p.alive:
            assert not after.players[uid].alive, "a dead player came back"
    for p in after.players.values():  # ONLINE-48/49: AFK is a kind of OFFLINE
        assert not (p.afk and p.active), f"AFK and ONLINE at once: {p}"
