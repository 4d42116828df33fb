"""NOIR setup, lobby, identities and secrecy: NOIR-01..05, 08, 40, 41, Q18, Q20, Q26, X09, X23,
X30."""

from __future__ import annotations

import pytest

from engine.core.audience import Private, Public
from engine.noir import (
    COMMAND_TYPES,
    BadSetup,
    CreateGame,
    GameStarted,
    HandDealt,
    IdentityCard,
    Join,
    Leave,
    Role,
    StartGame,
    Team,
    TurnStarted,
    apply,
)
from engine.noir.errors import AlreadyJoined, GameFull, NotAllowed, WrongPhase

from .helpers import ORDER6, ORDER8, G, uid


def lobby(n: int):
    st, _ = apply(None, CreateGame(user_id=uid(1)))
    for i in range(1, n + 1):
        st, _ = apply(st, Join(user_id=uid(i), name=f"p{i}"))
    return st


def start_cmd(n: int, roles=None, order=None, size=None):
    size = size or (6 if n <= 7 else 7)
    roles = roles or (ORDER6 if n == 6 else ORDER8)[:n]
    return StartGame(user_id=uid(1), order=order or tuple(uid(i) for i in range(1, n + 1)),
                     roles=tuple(roles), layout=tuple(range(size * size)),
                     deck=tuple(range(size * size)))


def test_NOIR_01_six_or_eight_players_only():
    for n in (5, 7):
        st = lobby(n)
        with pytest.raises(BadSetup, match="6 or 8"):
            apply(st, start_cmd(n, roles=(ORDER8 * 2)[:n]))
    g6, g8 = G(6), G(8)
    assert [p.team for p in g6.st.players.values()].count(Team.MAFIA) == 3
    assert [p.team for p in g8.st.players.values()].count(Team.AGENTS) == 4


def test_NOIR_02_role_sets_per_count():
    assert {p.role for p in G(6).st.players.values()} == set(ORDER6)
    roles8 = {p.role for p in G(8).st.players.values()}
    assert Role.SNIPER in roles8 and Role.PROFILER in roles8
    st = lobby(6)
    bad = (Role.KILLER, Role.UNDERCOVER, Role.PSYCHO, Role.DETECTIVE, Role.SNIPER, Role.SUIT)
    with pytest.raises(BadSetup):
        apply(st, start_cmd(6, roles=bad))


def test_NOIR_03_each_player_holds_a_different_suspect():
    g = G(8)
    ids = [p.identity for p in g.st.players.values()]
    assert len(set(ids)) == 8 and None not in ids
    cards = [e for e in g.events if isinstance(e, IdentityCard)]
    assert {e.audience.user_id: e.suspect for e in cards} == {
        p.user_id: p.identity for p in g.st.players.values()}


def test_NOIR_04_grid_size_per_count():
    assert (G(6).st.rows, G(6).st.cols) == (6, 6)
    g8 = G(8)
    assert (g8.st.rows, g8.st.cols) == (7, 7)
    assert len({s for row in g8.st.grid for s in row}) == 49


def test_NOIR_05_roles_public_identities_only_to_teammates():
    g = G(6)
    started = g.of(GameStarted)[0]
    assert isinstance(started.audience, Public)
    assert dict(started.order) == {p.user_id: p.role.value for p in g.st.players.values()}
    for card in g.of(IdentityCard):
        me = g.st.players[card.audience.user_id]
        mates = {u for u, _, _ in card.teammates}
        assert mates == {p.user_id for p in g.st.players.values()
                         if p.team == me.team and p is not me}
        assert all(s == g.st.players[u].identity for u, _, s in card.teammates)
    killer_card = next(c for c in g.of(IdentityCard) if c.audience.user_id == g.u(Role.KILLER))
    assert {r for _, r, _ in killer_card.teammates} == {"psycho", "bomber"}


def test_NOIR_08_the_killer_opens():
    g = G(6)
    assert g.st.current == g.u(Role.KILLER)
    assert g.of(TurnStarted)[-1].role == "killer"
    st = lobby(6)
    with pytest.raises(BadSetup, match="Killer"):
        apply(st, start_cmd(6, roles=(Role.PSYCHO, Role.UNDERCOVER, Role.KILLER,
                                      Role.DETECTIVE, Role.BOMBER, Role.SUIT)))


def test_NOIR_Q18_order_alternates_mafia_and_agents():
    g = G(8)
    teams = [g.st.players[u].team for u in g.st.order]
    assert teams == [Team.MAFIA, Team.AGENTS] * 4
    st = lobby(6)
    with pytest.raises(BadSetup, match="alternate"):
        apply(st, start_cmd(6, roles=(Role.KILLER, Role.PSYCHO, Role.UNDERCOVER,
                                      Role.DETECTIVE, Role.BOMBER, Role.SUIT)))


def test_NOIR_X09_the_deal_is_checked():
    st = lobby(6)
    cmd = start_cmd(6)
    for bad in (
        StartGame(user_id=uid(1), order=cmd.order[:5] + (999,), roles=cmd.roles,
                  layout=cmd.layout, deck=cmd.deck),
        StartGame(user_id=uid(1), order=cmd.order, roles=cmd.roles,
                  layout=cmd.layout[:-1] + (0,), deck=cmd.deck),
        StartGame(user_id=uid(1), order=cmd.order, roles=cmd.roles, layout=cmd.layout,
                  deck=cmd.deck[:-1]),
    ):
        with pytest.raises(BadSetup):
            apply(st, bad)
    g = G(8)
    assert g.st.deck[:1] and not set(g.st.deck) & {p.identity for p in g.st.players.values()}
    hand = [e for e in g.events if isinstance(e, HandDealt)]
    assert hand[0].audience == Private(g.u(Role.PROFILER)) and len(hand[0].cards) == 4


def test_NOIR_X23_lobby_join_leave_start():
    st = lobby(6)
    with pytest.raises(AlreadyJoined):
        apply(st, Join(user_id=uid(1), name="again"))
    st8 = lobby(8)
    with pytest.raises(GameFull):
        apply(st8, Join(user_id=uid(9), name="ninth"))
    st5, _ = apply(st, Leave(user_id=uid(6)))
    assert len(st5.players) == 5
    with pytest.raises(NotAllowed):
        apply(st, StartGame(**{**start_cmd(6).__dict__, "user_id": uid(2)}))
    started, _ = apply(st, start_cmd(6))
    with pytest.raises(WrongPhase):
        apply(started, Join(user_id=uid(7), name="late"))


def test_NOIR_40_no_private_team_channel():
    assert not {name for name in COMMAND_TYPES if "relay" in name.lower()
                or "message" in name.lower() or "chat" in name.lower()}


def test_NOIR_Q20_team_hears_only_identities():
    g = G(6)
    private = [e for e in g.events if isinstance(e.audience, Private)]
    assert {type(e) for e in private} == {IdentityCard}


def test_NOIR_Q26_no_disarm_or_self_destruct():
    names = {n.lower() for n in COMMAND_TYPES}
    assert not {n for n in names if "disarm" in n or "destruct" in n}


def test_NOIR_41_the_engine_polices_no_talk():
    names = {n.lower() for n in COMMAND_TYPES}
    assert not {n for n in names if "warn" in n or "foul" in n or "delete" in n}


def test_NOIR_X23_the_organiser_cancels_and_then_nothing_is_accepted():
    from engine.noir import CancelGame, GameCancelled, Kill
    from engine.noir.errors import GameOver
    g = G(6, ids={Role.KILLER: "B2"})
    g.refuse(CancelGame(user_id=g.u(Role.SUIT)), NotAllowed)
    g.do(CancelGame(user_id=uid(1)))
    assert g.st.phase == "cancelled" and g.st.timer is None and g.of(GameCancelled)
    g.refuse(Kill(user_id=g.u(Role.KILLER), target=g.s("B3")), GameOver)


def test_NOIR_X30_timings_come_with_create_game_only():
    st, _ = apply(None, CreateGame(user_id=uid(1), settings={"timings": {"turn": 90}}))
    for i in range(1, 7):
        st, _ = apply(st, Join(user_id=uid(i), name=f"p{i}"))
    started, _ = apply(st, start_cmd(6))
    assert started.timings["turn"] == 90 and started.timer.seconds == 90
    for bad in ({"turn": 5}, {"speech": 60}):  # out of range; a mafia timing is not NOIR's
        with pytest.raises(BadSetup):
            apply(None, CreateGame(user_id=uid(1), settings={"timings": bad}))
    assert "ChangeSettings" not in COMMAND_TYPES  # no change after the lobby opens
