"""Seeded random playouts of whole games, used by the invariant tests (and handy in a REPL)."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from enum import Enum

from engine import (
    PUBLIC, CastExcludeVote, CastVote, Continue, CreateGame, EndSpeech, GameEnded, GameState,
    HostNext, IllegalCommand, Join, MarkActive, MarkInactive, MarkReady, NightAction, Nominate,
    Pause, PhaseTimeout, RelayMessage, Resume, Role, StartGame, Team, BecomeHost, apply,
    find_ruleset, legal_actions,
)

ACTING = (CastVote, CastExcludeVote, Nominate, NightAction, MarkReady, Continue, RelayMessage)


@dataclass
class Playout:
    state: GameState
    log: list = field(default_factory=list)
    events: list = field(default_factory=list)  # (command index, event)
    refused: int = 0


def _walk(value):
    if isinstance(value, Enum):
        yield value
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            yield from _walk(getattr(value, f.name))
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _walk(v)


def leaks_role(event) -> bool:
    """True if a PUBLIC event names a role or team (only GameEnded may)."""
    if event.audience != PUBLIC or isinstance(event, GameEnded):
        return False
    return any(isinstance(v, (Role, Team)) for v in _walk(event))


def play(seed: int, n: int, *, host: bool = False, chaos: float = 0.05,
         settings: dict | None = None, max_steps: int = 20000) -> Playout:
    rng = random.Random(seed)
    rs = find_ruleset("party")
    users = [1_000_000_000_000 + seed * 100 + i for i in range(n)]  # ids past 32 bits
    organiser = users[0]
    po = Playout(state=None)  # type: ignore[arg-type]

    def do(cmd, expect_ok=True):
        before = po.state
        try:
            st, ev = apply(before, cmd)
        except IllegalCommand:
            if expect_ok:
                raise
            po.refused += 1
            return False
        check_step(before, cmd, st)
        po.log.append(cmd)
        po.events.extend((len(po.log) - 1, e) for e in ev)
        po.state = st
        return True

    do(CreateGame(user_id=organiser, ruleset="party", settings=settings or {}))
    host_id = None
    if host:
        host_id = 999
        do(BecomeHost(user_id=host_id, name="Host"))
    for i, u in enumerate(users):
        do(Join(user_id=u, name=f"P{i + 1} <b>&"))
    roles = rs.roles_for(n, po.state.options)
    rng.shuffle(roles)
    seating = users[:]
    rng.shuffle(seating)
    do(StartGame(user_id=organiser, seating=tuple(seating), roles=tuple(roles)))

    everyone = users + ([host_id] if host_id else [])
    for _ in range(max_steps):
        st = po.state
        if st.over:
            break
        options = []
        for u in everyone:
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
            if la.vote is not None and rng.random() < 0.8:
                options.append(CastVote(user_id=u, target=la.vote))
            if la.exclude_vote:
                options.append(CastExcludeVote(user_id=u, yes=rng.random() < 0.6))
            if la.night_action:
                options.append(NightAction(user_id=u, action=la.night_action,
                                           target=rng.choice(la.night_targets)))
            if la.sleep:
                options.append(NightAction(user_id=u, action="sleep"))
            if la.resume and rng.random() < 0.3:
                options.append(Resume(user_id=u))
            if la.host_next and (rng.random() < 0.1 or st.timer is None):
                options.append(HostNext(user_id=u))
        if st.timer and (not options or rng.random() < 0.15):
            options.append(PhaseTimeout(timer_seq=st.timer.seq))
        if rng.random() < chaos:
            u = rng.choice(everyone)
            options.append(rng.choice([
                MarkInactive(player=u, reason="blocked"), MarkActive(user_id=u),
                Pause(user_id=u, remaining=rng.uniform(0, 60)),
                PhaseTimeout(timer_seq=max(0, (st.timer.seq if st.timer else 1) - 1)),
                CastVote(user_id=u, target=rng.choice(users)),
                NightAction(user_id=u, action="kill", target=rng.choice(users)),
                Nominate(user_id=u, target=rng.choice(users)),
                RelayMessage(user_id=u, text="hi"),
            ]))
        if not options:
            raise AssertionError(f"stuck in {st.phase} with no timer and no legal action")
        cmd = rng.choice(options)
        do(cmd, expect_ok=False)
    return po


def check_step(before: GameState | None, cmd, after: GameState) -> None:
    """Per-step invariants: the dead never act; an accepted step never revives anyone."""
    if before is None:
        return
    if isinstance(cmd, ACTING) and cmd.user_id in before.players:
        p = before.players[cmd.user_id]
        assert p.seat and p.alive, f"dead or unseated player acted: {cmd}"
    for uid, p in before.players.items():
        if not p.alive:
            assert not after.players[uid].alive, "a dead player came back"
