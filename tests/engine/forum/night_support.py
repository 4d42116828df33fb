"""What the forum night's tests share: a deal of every night role and the seats a night killed."""

from __future__ import annotations

from engine import NightDeaths

#: 10 seats: 1-2 Mafia, 3 Commissar, 4 Doctor, 5 Maniac, 6 Putana, 7 Journalist, 8-10 civilians
DEAL = "MMCDKPJTTT"


def deaths(t, since: int) -> tuple[int, ...]:
    return tuple(t.state.players[u].seat for e in t.events(NightDeaths, since) for u in e.killed)
