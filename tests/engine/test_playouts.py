"""Seeded random playouts: > 1,000 whole games checked against the engine's invariants.

Each case (table size x host mode) plays ``GAMES`` seeded games through :mod:`.playout`, a third
of them calm, a third with some chaos and a third with a lot (lost connections, pauses, stale
timers, forged commands, take-overs).  4 players are refused at StartGame; 5..12 play to the end.
Every game must end with exactly one GameEnded that matches the final state, replay exactly from
its JSON-serialized log, and keep every secret: no public event names a role before the end, no
private event reaches an eliminated player.  Per step (inside the playout): every command built
from ``legal_actions`` is accepted, the dead never act, nobody comes back to life.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine import (
    GameCancelled, GameEnded, MafiaPicks, NotEnoughPlayers, Phase, PlayerEliminated, Private, Team,
    command_from_dict, replay, to_dict,
)
from engine.flow import winner

from .playout import Playout, leaks_role, play

GAMES = 64                  # per case: 9 sizes x 2 modes x 64 = 1,152 games (1,024 played)
CHAOS = (0.0, 0.05, 0.25)


def seed_of(n: int, host: bool, i: int) -> int:
    return n * 10_000 + host * 1_000 + i


def check_game(po: Playout) -> Counter:
    """All end-of-game invariants; returns a count of notable events for the coverage check."""
    st = po.state
    flat = [e for _, e in po.events]
    if st.phase is Phase.CANCELLED:  # PARTY-X23: everybody went inactive
        assert isinstance(flat[-1], GameCancelled) and flat[-1].reason == "abandoned"
        assert not st.alive_active() and not [e for e in flat if isinstance(e, GameEnded)]
        state, _ = replay(po.log)
        assert state == st
        return Counter({"abandoned": 1})
    assert st.over and st.phase is Phase.ENDED, f"unfinished game in {st.phase}"

    # exactly one GameEnded, the very last event, matching the final state
    ends = [(i, e) for i, e in po.events if isinstance(e, GameEnded)]
    assert len(ends) == 1
    i, end = ends[0]
    assert i == len(po.log) - 1 and flat[-1] is end
    assert end.winner is st.winner is winner(st) is not None
    assert end.roles == tuple((p.seat, p.user_id, p.role) for p in st.seated())
    assert end.days == st.day

    # secrets: nothing public names a role; the eliminated get no private event; picks of the
    # living mafiosi only
    assert not [e for e in flat if leaks_role(e)]
    dead: set[int] = set()
    for e in flat:
        if isinstance(e.audience, Private):
            assert e.audience.user_id not in dead, f"private event to the dead: {e}"
        if isinstance(e, MafiaPicks):
            assert not {m for m, _ in e.picks} & dead
        if isinstance(e, PlayerEliminated):
            assert e.user_id not in dead
            dead.add(e.user_id)
    assert dead == {p.user_id for p in st.seated() if not p.alive}

    # the log is the truth: JSON round trip, then replay to the very same state and events
    commands = [command_from_dict(json.loads(json.dumps(to_dict(c)))) for c in po.log]
    assert commands == po.log
    state, produced = replay(commands)
    assert state == st
    assert [e for evs in produced for e in evs] == flat

    seen = Counter(type(e).__name__ for e in flat)
    seen[f"winner_{st.winner.value}"] += 1
    return seen


@pytest.mark.parametrize("host", [False, True], ids=["auto", "host"])
@pytest.mark.parametrize("n", range(4, 13))
def test_random_playouts(n, host):
    seen: Counter = Counter()
    for i in range(GAMES):
        po = play(seed_of(n, host, i), n, host=host, chaos=CHAOS[i % 3])
        if n < 5:
            assert isinstance(po.start_error, NotEnoughPlayers)
            assert po.state.phase is Phase.LOBBY
            continue
        assert po.start_error is None
        seen += check_game(po)
    if n < 5:
        return
    # the playouts really exercise the rules (a weak driver would pass everything)
    for kind in ("VoteResult", "TieRevote", "NightResult", "CheckResult", "PlayerInactive",
                 "Paused", "Resumed", "TurnSkipped", "winner_town", "winner_mafia"):
        assert seen[kind], f"no {kind} in {GAMES} games of {n}"
    if host:
        assert seen["HostRoles"] == GAMES and seen["HostModeEnded"]
    else:
        assert seen["ContinueAvailable"] and seen["OrganiserChanged"]


def test_playouts_are_deterministic():
    a = play(123, 9, host=True, chaos=0.25)
    b = play(123, 9, host=True, chaos=0.25)
    assert a.log == b.log and a.state == b.state and a.state.winner in (Team.TOWN, Team.MAFIA)
