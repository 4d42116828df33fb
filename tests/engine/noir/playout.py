"""Seeded random NOIR games for the invariant playouts (test_noir_playouts.py).

:func:`deal` draws a StartGame the way the shell would; :func:`play` drives a whole game with
random legal actions from :func:`engine.noir.legal_actions`, random timeouts, pauses, stale
timers, Suit answers and refused commands, and records the log and every step's events."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from engine.noir import (
    TABLES,
    Accuse,
    AnswerCancel,
    Autopsy,
    ChangeIdentity,
    Collapse,
    Command,
    CreateGame,
    Detonate,
    IllegalCommand,
    Interrogate,
    Join,
    Kill,
    MoveToken,
    NoirState,
    Pause,
    PlaceBomb,
    PlaceThreats,
    Profile,
    Protect,
    Resume,
    ReturnToGame,
    Role,
    Shift,
    Shoot,
    StartGame,
    Swap,
    Team,
    TurnTimeout,
    Unprotect,
    apply,
    chain_links,
    legal_actions,
)

BASE = 1000


def uid(i: int) -> int:
    return BASE + i


def deal(rng: random.Random, n: int, users: list[int]) -> StartGame:
    """A random deal as the shell draws it: teams alternate, the Killer first (NOIR-Q18)."""
    roles = TABLES[n].roles
    mafia: list[Role] = [r for r in roles if r.team == Team.MAFIA and r != Role.KILLER]
    agents = [r for r in roles if r.team == Team.AGENTS]
    rng.shuffle(mafia)
    rng.shuffle(agents)
    mafia = [Role.KILLER] + mafia
    order_roles = [r for pair in zip(mafia, agents, strict=True) for r in pair]
    users = list(users)
    rng.shuffle(users)
    size = TABLES[n].size
    layout = list(range(size * size))
    deck = list(range(size * size))
    rng.shuffle(layout)
    rng.shuffle(deck)
    return StartGame(user_id=None, order=tuple(users),
                     roles=tuple(order_roles), layout=tuple(layout), deck=tuple(deck),
                     seed=rng.randrange(2 ** 32))


def opening(rng: random.Random, n: int, settings: dict | None = None) -> list[Command]:
    users = [uid(i) for i in range(1, n + 1)]
    log: list[Command] = [CreateGame(user_id=users[0], settings=settings or {})]
    log += [Join(user_id=u, name=f"P{u}") for u in users]
    log.append(deal(rng, n, users))
    return log


def random_action(rng: random.Random, st: NoirState, user: int) -> Command | None:
    """One random command among exactly the legal actions of ``user`` (None if none)."""
    la = legal_actions(st, user)
    if la.step == "cancel":
        return AnswerCancel(user_id=user, cancel=rng.random() < 0.6)
    if la.step == "threats":
        k = rng.randint(1, la.threats_max)
        return PlaceThreats(user_id=user, targets=tuple(rng.sample(la.threats, k)))
    if la.step != "act":
        return None
    weights = {"shifts": 3, "kill": 6, "accuse": 3, "detonate": 4, "place_bomb": 3, "shoot": 5,
               "collapse": 6, "protect": 2, "swap": 2, "move_token": 1, "autopsy": 2,
               "interrogate": 2, "unprotect": 1, "profile": 2}
    kinds = [k for k in weights if getattr(la, k)]
    if la.change_identity:
        kinds.append("change_identity")
    name = rng.choices(kinds, [weights.get(k, 1) for k in kinds])[0]
    # one of the kind's legal arguments: a suspect, a (line, index, by), a pair...
    arg: Any = rng.choice(getattr(la, name)) if name != "change_identity" else None
    if name == "accuse" and rng.random() < 0.15:  # a sharp agent: the hidden mafioso if in reach
        hits = [t for t in la.accuse if (o := st.owner(t)) is not None and o.team == Team.MAFIA]
        arg = hits[0] if hits else arg
    name = "shift" if name == "shifts" else name
    u = user
    if name == "shift":
        return Shift(user_id=u, line=arg[0], index=arg[1], by=arg[2])
    if name == "collapse":
        return Collapse(user_id=u, axis=arg[0], end=arg[1])
    if name == "accuse":
        return Accuse(user_id=u, target=arg)
    if name == "kill":
        return Kill(user_id=u, target=arg)
    if name == "change_identity":
        return ChangeIdentity(user_id=u)
    if name == "swap":
        return Swap(user_id=u, first=arg[0], second=arg[1])
    if name == "place_bomb":
        return PlaceBomb(user_id=u, target=arg)
    if name == "detonate":
        chain: tuple = ()
        while True:
            links = chain_links(st, arg, chain)
            if not links or (chain and rng.random() < 0.3):
                break
            chain += (rng.choice(links),)
        return Detonate(user_id=u, bomb=arg, chain=chain)
    if name == "shoot":
        return Shoot(user_id=u, target=arg)
    if name == "move_token":
        return MoveToken(user_id=u, kind=arg[0], source=arg[1], dest=arg[2])
    if name == "autopsy":
        return Autopsy(user_id=u, target=arg)
    if name == "interrogate":
        return Interrogate(user_id=u, keep=arg)
    if name == "protect":
        return Protect(user_id=u, target=arg)
    if name == "unprotect":
        return Unprotect(user_id=u, target=arg)
    return Profile(user_id=u, card=arg)


def junk(rng: random.Random, st: NoirState) -> Command:
    """A command that is usually refused: a wrong player, a wrong target, a stale timer."""
    users = list(st.players)
    u = rng.choice(users)
    size = st.size * st.size
    return rng.choice([
        Kill(user_id=u, target=rng.randrange(size)),
        Accuse(user_id=u, target=rng.randrange(size)),
        Shift(user_id=u, line="row", index=rng.randrange(9), by=rng.choice((-3, -1, 2))),
        PlaceThreats(user_id=u, targets=()),
        Detonate(user_id=u, bomb=rng.randrange(size), chain=(rng.randrange(size),)),
        Protect(user_id=u, target=rng.randrange(size)),
        AnswerCancel(user_id=u, cancel=True),
        Resume(user_id=u),
    ])


@dataclass
class Playout:
    seed: int
    n: int
    log: list = field(default_factory=list)
    steps: list = field(default_factory=list)  # (state before, command, state after, events)
    refused: list = field(default_factory=list)  # (state, command) refused unchanged
    state: object = None


def _timer_seq(st: NoirState) -> int:
    assert st.timer is not None, "a deadline is running"
    return st.timer.seq


def play(seed: int, n: int, *, chaos: float = 0.06, max_commands: int = 900) -> Playout:
    rng = random.Random(seed)
    po = Playout(seed=seed, n=n)
    first: NoirState | None = None
    for cmd in opening(rng, n):
        new, events = apply(first, cmd)
        po.log.append(cmd)
        po.steps.append((first, cmd, new, events))
        first = new
    assert first is not None
    st = first
    while st.phase == "play" and len(po.log) < max_commands:
        roll = rng.random()
        if roll < chaos * 0.5:
            cmd = junk(rng, st)
            try:
                new, events = apply(st, cmd)
            except IllegalCommand:
                po.refused.append((st, cmd))
                continue
        elif st.paused is not None:
            cmd = Resume(user_id=rng.choice(list(st.players))) if rng.random() < 0.7 \
                else TurnTimeout(timer_seq=_timer_seq(st))
            new, events = apply(st, cmd)
        elif roll < chaos * 0.6:
            cmd = Pause(user_id=st.current, remaining=rng.randint(1, 120))
            try:
                new, events = apply(st, cmd)
            except IllegalCommand:
                po.refused.append((st, cmd))
                continue
        elif roll < chaos * 0.7:
            cmd = TurnTimeout(timer_seq=st.timer_seq - 1)  # stale: a no-op
            new, events = apply(st, cmd)
        elif roll < chaos * 0.8:
            cmd = ReturnToGame(user_id=rng.choice(list(st.players)))
            new, events = apply(st, cmd)
        elif st.window is not None:
            suit = st.by_role(Role.SUIT)
            assert suit is not None, "a window opens at a table with the Suit"
            action = None
            if st.window.suit_can and rng.random() < 0.7:
                action = random_action(rng, st, suit.user_id)
            cmd = action or TurnTimeout(timer_seq=_timer_seq(st))
            new, events = apply(st, cmd)
        elif roll < chaos * 2:
            cmd = TurnTimeout(timer_seq=_timer_seq(st))
            new, events = apply(st, cmd)
        else:
            action = random_action(rng, st, st.turn_player().user_id)
            assert action is not None, "the player whose turn it is can act"
            cmd = action
            new, events = apply(st, cmd)
        po.log.append(cmd)
        po.steps.append((st, cmd, new, events))
        st = new
    po.state = st
    return po
