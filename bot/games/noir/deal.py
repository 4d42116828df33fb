"""NOIR's deal, drawn by the shell from the game's seeded ``random.Random`` (the engine draws no
chance; NOIR-01..04, Q18): the turn order alternates mafia / agent with the Killer first, the
other roles shuffled within each team, the grid layout and the deck shuffled, and a seed for the
timeout's threat pick.  The same seed and lobby give the same deal, so a start is replayable."""

from __future__ import annotations

import random

from engine.noir import TABLES, NoirState, Role, StartGame, Team


def deal(st: NoirState, user_id: int | None, rng: random.Random) -> StartGame:
    """The StartGame for the lobby ``st`` (``user_id``: who pressed Start; anyone but the
    organiser starts as the shell, which checked him).  A player count with no table (NOIR-01: 6 or 8) gets
    an empty deal, which the engine refuses with its BadSetup."""
    if user_id != st.organiser:
        user_id = None  # NOIR-X23: the shell has checked the group admin who starts it
    users = list(st.players)
    rng.shuffle(users)
    table = TABLES.get(len(users))
    if table is None:
        return StartGame(user_id=user_id, order=tuple(users), roles=(), layout=(), deck=())
    mafia = [r for r in table.roles if r.team == Team.MAFIA and r != Role.KILLER]
    agents = [r for r in table.roles if r.team == Team.AGENTS]
    rng.shuffle(mafia)
    rng.shuffle(agents)
    roles = [r for pair in zip([Role.KILLER, *mafia], agents, strict=True) for r in pair]
    layout = list(range(table.size ** 2))
    deck = list(layout)
    rng.shuffle(layout)
    rng.shuffle(deck)
    return StartGame(user_id=user_id, order=tuple(users), roles=tuple(roles),
                     layout=tuple(layout), deck=tuple(deck), seed=rng.randrange(2 ** 32))
