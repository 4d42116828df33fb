"""Party preset: teams, the deal, the lobby, tempo and settings (docs/rules/party.md)."""

from __future__ import annotations

import pytest

from engine import (
    HOST as HOST_AUDIENCE,
)
from engine import (
    PUBLIC,
    AlreadyJoined,
    BadSetup,
    BecomeHost,
    ChangeSettings,
    CreateGame,
    GameFull,
    GameStarted,
    HostRoles,
    Join,
    Leave,
    NotAllowed,
    NotEnoughPlayers,
    NotInGame,
    Phase,
    PhaseClosed,
    Private,
    Role,
    RoleAssigned,
    SettingsChanged,
    StartGame,
    Team,
    apply,
    find_ruleset,
)
from engine.party import PARTY

from ..helpers import CODES, HOST, ORGANISER, codes, deal, default_deal, game_at_day, lobby, started_game, uid


# --- PARTY-01/02, Q01: teams and the role table ---------------------------------------------------
def test_PARTY_01_every_player_gets_exactly_one_team():
    t = started_game(7, "MMCDTTT")
    cards = t.events(RoleAssigned)
    assert sorted(c.user_id for c in cards) == [uid(s) for s in range(1, 8)]
    assert set(Team) == {Team.TOWN, Team.MAFIA}
    for c in cards:
        assert c.team in (Team.TOWN, Team.MAFIA) and c.team is c.role.team
    assert [c.team for c in sorted(cards, key=lambda c: c.user_id)] == \
        [Team.MAFIA] * 2 + [Team.TOWN] * 5


def test_PARTY_02_commissar_and_doctor_are_town():
    assert Role.COMMISSAR.team is Team.TOWN
    assert Role.DOCTOR.team is Team.TOWN
    assert Role.CIVILIAN.team is Team.TOWN
    assert Role.MAFIA.team is Team.MAFIA
    t = started_game(5, "MCDTT")
    teams = {c.role: c.team for c in t.events(RoleAssigned)}
    assert teams[Role.COMMISSAR] is Team.TOWN and teams[Role.DOCTOR] is Team.TOWN


@pytest.mark.parametrize("n", range(5, 13))
@pytest.mark.parametrize("doctor", [True, False])
def test_PARTY_Q01_role_table(n, doctor):
    roles = PARTY.roles_for(n, {"doctor": doctor})
    assert len(roles) == n
    assert roles.count(Role.MAFIA) == n // 3
    assert roles.count(Role.COMMISSAR) == 1
    assert roles.count(Role.DOCTOR) == (1 if doctor else 0)
    assert roles.count(Role.CIVILIAN) == n - n // 3 - 1 - doctor


@pytest.mark.parametrize("n, mafia", [(5, 1), (6, 2), (8, 2), (9, 3), (11, 3), (12, 4)])
def test_PARTY_Q01_mafia_count_examples(n, mafia):
    assert PARTY.roles_for(n).count(Role.MAFIA) == mafia
    t = started_game(n)
    assert t.events(GameStarted)[0].mafia_count == mafia


def test_PARTY_Q01_four_players_refused():
    t = lobby(4)
    t.refuse(StartGame(user_id=ORGANISER, seating=tuple(uid(i) for i in range(1, 5)),
                       roles=(Role.MAFIA, Role.COMMISSAR, Role.DOCTOR, Role.CIVILIAN)),
             NotEnoughPlayers)
    with pytest.raises(BadSetup):
        PARTY.roles_for(4)


def test_PARTY_Q01_thirteenth_player_refused():
    t = lobby(12)
    t.refuse(Join(user_id=uid(13), name="P13"), GameFull)
    with pytest.raises(BadSetup):
        PARTY.roles_for(13)


@pytest.mark.parametrize("seating, roles", [
    ((1, 2, 3, 4, 5), "MMCDT"),          # two mafiosi at 5
    ((1, 2, 3, 4, 5), "MCTTT"),          # no Doctor although it is on
    ((1, 2, 3, 4, 5), "MCDTTT"),         # more roles than players
    ((1, 2, 3, 4), "MCDT"),              # a joined player left out
    ((1, 2, 3, 4, 4), "MCDTT"),          # a seat twice
    ((1, 2, 3, 4, 9), "MCDTT"),          # a stranger seated
])
def test_PARTY_Q01_deal_is_validated(seating, roles):
    t = lobby(5)
    t.refuse(StartGame(user_id=ORGANISER, seating=tuple(uid(s) for s in seating),
                       roles=tuple(CODES[c] for c in roles)), BadSetup)


def test_PARTY_Q01_doctor_switched_off_in_lobby():
    t = lobby(6)
    t.do(ChangeSettings(user_id=ORGANISER, settings={"options": {"doctor": False}}))
    t.refuse(deal("MMCDTT"), BadSetup)
    t.do(deal("MMCTTT"))
    assert t.events(GameStarted)[0].doctor is False
    assert not t.seats_with(Role.DOCTOR)


# --- PARTY-47, Q18: who sees the deal ---------------------------------------------------------------
def test_PARTY_47_each_role_goes_only_to_its_owner():
    t = started_game(7, "MMCDTTT")
    for card in t.events(RoleAssigned):
        assert card.audience == Private(card.user_id)
    for e in t.events():
        if e.audience == PUBLIC:
            assert not isinstance(e, (RoleAssigned, HostRoles))
    assert not t.events(HostRoles)  # no host, nobody sees every role


def test_PARTY_Q18_host_gets_every_role_and_does_not_play():
    t = started_game(5, "MCDTT", host=True)
    (copy,) = t.events(HostRoles)
    assert copy.audience == HOST_AUDIENCE
    assert dict(copy.roles) == {uid(1): Role.MAFIA, uid(2): Role.COMMISSAR, uid(3): Role.DOCTOR,
                                uid(4): Role.CIVILIAN, uid(5): Role.CIVILIAN}
    assert HOST not in t.state.players and t.state.host == HOST


def test_PARTY_X21_lobby_rules():
    t = lobby(5)
    t.refuse(Join(user_id=uid(1), name="again"), AlreadyJoined)
    t.refuse(BecomeHost(user_id=uid(1), name="me"), AlreadyJoined)  # a player cannot host
    t.do(BecomeHost(user_id=HOST, name="Host"))
    t.refuse(Join(user_id=HOST, name="host"), AlreadyJoined)        # the host cannot play
    t.do(Leave(user_id=HOST))
    assert t.state.host is None
    t.do(Leave(user_id=uid(5)))
    assert uid(5) not in t.state.players
    t.refuse(Leave(user_id=uid(5)), NotInGame)
    t.do(Join(user_id=uid(5), name="P5"))
    t.do(deal("MCDTT"))
    for cmd in (Join(user_id=uid(6), name="late"), Leave(user_id=uid(2)),
                BecomeHost(user_id=HOST), deal("MCDTT")):
        t.refuse(cmd, PhaseClosed)


def test_PARTY_X21_log_must_start_with_create_game():
    with pytest.raises(BadSetup):
        apply(None, Join(user_id=1, name="x"))
    with pytest.raises(BadSetup):
        apply(None, CreateGame(user_id=1, ruleset="no-such-preset"))
    t = lobby(5)
    t.refuse(CreateGame(user_id=1, ruleset="party"), BadSetup)
    st, _ = apply(None, CreateGame(user_id=1, ruleset="Вечеринка"))  # aliases, any case
    assert st.ruleset == "party" and st.organiser == 1 and st.phase is Phase.LOBBY


# --- PARTY-33/34, Q16/Q17, X07: tempo -------------------------------------------------------------
@pytest.mark.parametrize("tempo, values", [
    ("short", (30, 20, 20, 10, 45)),
    ("normal", (60, 30, 60, 15, 60)),
    ("detailed", (90, 45, 90, 20, 120)),
])
def test_PARTY_Q16_tempo_values(tempo, values):
    timings = PARTY.timings({"tempo": tempo})
    assert (timings["speech"], timings["defence"], timings["last_word"], timings["vote"],
            timings["night"]) == values
    assert timings["ready_wait"] == 120
    assert PARTY.timings({})["speech"] == 60  # Normal is the default


def test_PARTY_33_tempo_preset_sets_every_duration():
    t = started_game(5, "MCDTT", settings={"tempo": "short"})
    assert t.state.timer.kind == "ready_wait" and t.state.timer.seconds == 120
    t.ready_all()
    assert t.state.timer.seconds == 45  # night
    t.to_day(1)
    assert t.state.timer.seconds == 30  # speech
    t2 = lobby(5)
    t2.do(ChangeSettings(user_id=ORGANISER, settings={"tempo": "detailed"}))
    t2.do(deal("MCDTT"))
    t2.to_day(1)
    assert t2.state.timer.seconds == 90


def test_PARTY_34_single_duration_overrides_the_preset():
    t = game_at_day(5, "MCDTT", settings={"tempo": "normal", "timings": {"speech": 45}})
    assert t.state.timer.seconds == 45
    t.speeches({1: 4})
    assert t.phase is Phase.DEFENCE and t.state.timer.seconds == 30


@pytest.mark.parametrize("settings", [
    {"tempo": "blitz"},
    {"timings": {"speech": 5}},
    {"timings": {"speech": 601}},
    {"timings": {"speech": "60"}},
    {"timings": {"coffee_break": 60}},
])
def test_PARTY_34_bad_durations_refused(settings):
    with pytest.raises(BadSetup):
        apply(None, CreateGame(user_id=1, ruleset="party", settings=settings))
    t = lobby(5)
    t.refuse(ChangeSettings(user_id=ORGANISER, settings=settings), BadSetup)


def test_PARTY_X07_mid_game_change_applies_from_the_next_timer():
    t = game_at_day(5, "MCDTT")
    assert t.state.timer.seconds == 60
    events = t.do(ChangeSettings(user_id=uid(1), settings={"timings": {"speech": 45}}))
    (changed,) = [e for e in events if isinstance(e, SettingsChanged)]
    assert changed.by == uid(1) and changed.audience == PUBLIC  # PARTY-Q17: announced, with who
    assert ("speech", 45) in changed.timings
    assert t.state.timer.seconds == 60 and t.speaker == 1  # the running speech keeps its deadline
    t.end_turn()
    assert t.speaker == 2 and t.state.timer.seconds == 45


def test_PARTY_X07_role_options_only_in_the_lobby():
    t = game_at_day(6, "MMCDTT")
    t.refuse(ChangeSettings(user_id=ORGANISER, settings={"options": {"doctor": False}}), BadSetup)
    t.refuse(ChangeSettings(user_id=ORGANISER, settings={"options": {"announce_save": True}}),
             BadSetup)
    t.do(ChangeSettings(user_id=ORGANISER, settings={"tempo": "short"}))  # timings are fine


def test_PARTY_X07_aliases_and_defaults_of_the_preset():
    rs = find_ruleset("classic")
    assert rs is PARTY and (rs.min_players, rs.max_players) == (5, 12)
    assert rs.default_options == {"doctor": True, "announce_save": False}


def test_PARTY_X16_the_table_is_public_the_roles_are_not():
    t = started_game(8, "TMCTDTMT")
    (start,) = t.events(GameStarted)
    assert start.audience == PUBLIC
    assert start.seating == tuple((s, uid(s)) for s in range(1, 9))
    assert (start.mafia_count, start.doctor) == (2, True)


# --- PARTY-X26: a lobby with a fixed seat order (a tournament's table) ------------------------------
def test_PARTY_X26_only_the_seated_players_join_and_the_deal_follows_the_order():
    order = [uid(s) for s in (3, 1, 2, 5, 4)]
    t = lobby_seated(order)
    t.refuse(Join(user_id=uid(9), name="P9"), NotAllowed)
    for u in (uid(1), uid(2), uid(3), uid(4)):
        t.do(Join(user_id=u, name=f"U{u}"))
    roles = tuple(codes()[c] for c in default_deal(5))
    t.refuse(StartGame(user_id=ORGANISER, seating=tuple(order[:4]), roles=roles[:4]),
             NotEnoughPlayers)
    t.do(Join(user_id=uid(5), name="P5"))
    shuffled = tuple(reversed(order))
    t.refuse(StartGame(user_id=ORGANISER, seating=shuffled, roles=roles), BadSetup)
    started = t.do(StartGame(user_id=ORGANISER, seating=tuple(order), roles=roles))
    seating = next(e for e in started if isinstance(e, GameStarted)).seating
    assert [u for _seat, u in seating] == order


def test_PARTY_X26_the_seat_order_may_change_in_the_lobby_for_a_substitute():
    order = [uid(s) for s in range(1, 6)]
    t = lobby_seated(order)
    substitute = uid(8)
    t.refuse(Join(user_id=substitute, name="Sub"), NotAllowed)
    t.do(ChangeSettings(user_id=ORGANISER, settings={"seat_order": [substitute, *order[1:]]}))
    t.do(Join(user_id=substitute, name="Sub"))
    assert substitute in t.state.players


def lobby_seated(order: list[int]):
    return lobby(0, settings={"seat_order": order})
