"""Invariants of every NOIR playout (the issue's list; docs/rules/noir.md, "Playouts")."""

from __future__ import annotations

import json

from engine.core.audience import Private, Public
from engine.noir import (
    Collapsed,
    GameEnded,
    IdentityCard,
    command_from_dict,
    event_from_dict,
    public_board,
    replay,
    state_from_dict,
    state_to_dict,
    to_dict,
)
from engine.noir.rules import MAX_SHIELDS, Team

#: fields that would tie a player to his current suspect
SECRET_FIELDS = {"identity", "identities", "teammates", "cards", "hand", "deck"}


def on_grid(st) -> list[int]:
    return [s for row in st.grid for s in row]


def check_step(before, cmd, after, events, deep: bool = True) -> None:
    """``deep``: also round-trip the command and events through JSON."""
    if before is None or before.phase == "lobby":
        return
    # scores never fall
    assert after.arrests >= before.arrests and after.points >= before.points
    # an arrested suspect never dies; arrests are for ever
    assert before.arrested <= after.arrested
    assert not (after.arrested & after.dead)
    assert before.dead <= after.dead
    # the grid only shrinks by collapse
    removed = [s for e in events if isinstance(e, Collapsed) for s in e.removed]
    was, now = on_grid(before), on_grid(after)
    grid = set(now)
    assert len(grid) == len(now) == len(was) - len(removed) == after.rows * after.cols
    assert grid == set(was) - set(removed) and set(removed) <= before.dead
    if not removed:
        assert (after.rows, after.cols) == (before.rows, before.cols)
    # tokens sit on living, unarrested suspects of the grid; at most 6 shields
    for tokens in (after.bombs, after.threats, after.shields):
        assert tokens <= grid and not tokens & (after.dead | after.arrested)
    assert len(after.shields) <= MAX_SHIELDS
    # identities: distinct living unarrested suspects (the deck and hand never hold one)
    ids = [p.identity for p in after.players.values()]
    if after.phase == "play":
        assert None not in ids and len(set(ids)) == len(ids)
        assert all(after.killable(i) and i in grid for i in ids)
        assert not set(ids) & (set(after.deck) | set(after.hand))
    # no public event before the end carries an identity
    for e in events:
        if isinstance(e.audience, Public) and not isinstance(e, GameEnded):
            assert not SECRET_FIELDS & set(type(e).__dataclass_fields__), e
        if isinstance(e, IdentityCard):
            assert isinstance(e.audience, Private)
            me = after.players[e.audience.user_id]
            assert e.role == me.role.value
            for u, _, _ in e.teammates:
                assert after.players[u].team == me.team
    if not deep:
        return
    # the group's board depends on no secret (identities, deck, hand)
    blind = after.clone()
    for p in blind.players.values():
        p.identity = None
    blind.deck, blind.hand = [], []
    assert public_board(blind) == public_board(after)
    # JSON round trip of the command and the events
    assert command_from_dict(json.loads(json.dumps(to_dict(cmd)))) == cmd
    for e in events:
        assert event_from_dict(json.loads(json.dumps(to_dict(e)))) == e


def check_state_json(st) -> None:
    assert state_from_dict(json.loads(json.dumps(state_to_dict(st)))) == st


def check_game(po) -> None:
    """Per step, then once: exactly one outcome matching the thresholds, replay = state."""
    for i, (before, cmd, after, events) in enumerate(po.steps):
        check_step(before, cmd, after, events, deep=i % 4 == 0)
        if i % 40 == 0:
            check_state_json(after)
    for st, _ in po.refused[:5]:
        snapshot = state_to_dict(st)
        assert state_to_dict(st) == snapshot
    st = po.state
    check_state_json(st)
    ended = [e for _, _, _, evs in po.steps for e in evs if isinstance(e, GameEnded)]
    if st.phase == "ended":
        assert len(ended) == 1 and ended[0].outcome == st.outcome
        t = st.table
        agents, mafia = st.arrests >= t.arrests_needed, st.points >= t.points_needed
        assert st.outcome == ("draw" if agents and mafia else "agents" if agents else "mafia")
        assert ended[0].identities == tuple(
            (u, st.players[u].role.value, st.players[u].identity) for u in st.order)
    else:
        assert not ended and st.outcome is None
    final, _ = replay(po.log)
    assert final == st
    assert all(p.team in (Team.MAFIA, Team.AGENTS) for p in st.players.values())
