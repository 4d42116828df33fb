"""The deal of every mafia preset, drawn by the shell (the engine draws no chance): the seats
shuffled, then the preset's role table shuffled, both from the game's seeded ``random.Random``
so that the start is replayable from the log."""

from __future__ import annotations

import random

from engine import GameState, StartGame, find_ruleset
from engine.mafia.lobby import seat_order


def deal(st: GameState, user_id: int | None, rng: random.Random) -> StartGame:
    """The StartGame for the lobby ``st`` (seats in ``settings["seat_order"]`` when it has
    one, PARTY-X26). Too few players: no role table exists, so the roles
    are empty and the engine refuses with NotEnoughPlayers."""
    rs = find_ruleset(st.ruleset)
    seating = list(st.players)
    rng.shuffle(seating)
    order = seat_order(st.settings)
    if order is not None:  # PARTY-X26: a tournament's table sits as scheduled
        seating = order
    roles = rs.roles_for(len(seating), st.options) if len(seating) >= rs.min_players else []
    rng.shuffle(roles)
    return StartGame(user_id=user_id, seating=tuple(seating), roles=tuple(roles))
