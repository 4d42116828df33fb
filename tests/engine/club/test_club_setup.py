"""Club preset: the table, the deal, the judge and the tempo (docs/rules/club.md)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import (
    PUBLIC,
    AlreadyJoined,
    BadSetup,
    BecomeHost,
    GameFull,
    GameStarted,
    HostRoles,
    IssueFoul,
    Join,
    MarkInactive,
    NotAllowed,
    NotEnoughPlayers,
    Paused,
    PhaseStarted,
    Private,
    Role,
    RoleAssigned,
    StartGame,
    Team,
    find_ruleset,
)
from engine.club.state import fouls_of
from engine.core.audience import HOST as HOST_AUDIENCE

from ..helpers import (
    CLUB_CODES,
    CLUB_DEAL,
    HOST,
    ORGANISER,
    club_at_day,
    club_game,
    club_vote_out,
    deal,
    lobby,
    uid,
)

CLUB = find_ruleset("club")


def test_CLUB_01_exactly_ten_players_and_a_judge():
    t = lobby(9, ruleset="club", host=True)
    t.refuse(deal(CLUB_DEAL[:9], "club"), NotEnoughPlayers)
    t.do(Join(user_id=uid(10), name="P10"))
    t.refuse(Join(user_id=uid(11), name="P11"), GameFull)
    t.refuse(Join(user_id=HOST, name="Host"), AlreadyJoined)  # the judge does not play
    t.do(deal(CLUB_DEAL, "club"))
    started = t.events(GameStarted)[0]
    assert [seat for seat, _ in started.seating] == list(range(1, 11))
    assert HOST not in {u for _, u in started.seating} and t.state.host == HOST
    # without a human judge the bot runs the table
    auto = club_game()
    assert auto.state.host is None and len(auto.state.seated()) == 10


def test_CLUB_02_six_civilians_sheriff_two_mafia_and_don():
    roles = CLUB.roles_for(10)
    assert Counter(roles) == {Role.CIVILIAN: 6, Role.SHERIFF: 1, Role.MAFIA: 2, Role.DON: 1}
    assert sum(r.team is Team.MAFIA for r in roles) == 3
    assert sum(r.team is Team.TOWN for r in roles) == 7
    for n in (9, 11):
        with pytest.raises(BadSetup):
            CLUB.roles_for(n)
    t = club_game("TTSTMTDTMT")  # any seating of the same multiset is a valid deal
    assert t.seats_with(Role.DON) == [7] and t.seats_with(Role.SHERIFF) == [3]


def test_CLUB_02_a_deal_off_the_table_is_refused():
    t = lobby(10, ruleset="club")
    for bad in ("DDMSTTTTTT", "DMMTTTTTTT", "MMMSTTTTTT", "DMSSTTTTTT"):
        t.refuse(deal(bad, "club"), BadSetup)
    party_like = StartGame(user_id=ORGANISER, seating=tuple(uid(i) for i in range(1, 11)),
                           roles=(Role.MAFIA,) * 3 + (Role.COMMISSAR, Role.DOCTOR)
                           + (Role.CIVILIAN,) * 5)
    t.refuse(party_like, BadSetup)


def test_CLUB_05_sheriff_is_red_don_is_black():
    assert Role.SHERIFF.team is Team.TOWN and Role.DON.team is Team.MAFIA
    t = club_game()
    cards = {e.user_id: e for e in t.events(RoleAssigned)}
    assert cards[uid(1)].role is Role.DON and cards[uid(1)].team is Team.MAFIA
    assert cards[uid(4)].role is Role.SHERIFF and cards[uid(4)].team is Team.TOWN
    for u, card in cards.items():
        assert card.audience == Private(u)


def test_CLUB_07_the_deal_opens_the_night():
    t = lobby(10, ruleset="club")
    events = t.do(deal(CLUB_DEAL, "club"))
    kinds = [type(e).__name__ for e in events]
    assert kinds[0] == "GameStarted" and kinds.count("RoleAssigned") == 10
    night = next(e for e in events if isinstance(e, PhaseStarted))
    assert (night.phase, night.night, night.day, night.purpose) == ("night", 1, 0, "intro")
    started = events[0]
    assert started.audience == PUBLIC and started.mafia_count == 3 and started.doctor is False
    # no ready gate: the club deal goes straight into the night (the shell drew the deal)
    assert "ReadyMarked" not in kinds and t.state.phase.value == "night"


def test_CLUB_15_seats_keep_their_numbers():
    t = club_at_day(1)
    before = {p.user_id: p.seat for p in t.state.seated()}
    club_vote_out(t, 4)
    t.night()
    assert {p.user_id: p.seat for p in t.state.seated()} == before
    assert 4 not in t.alive_seats() and t.state.by_seat(4).user_id == uid(4)
    assert t.alive_seats() == [1, 2, 3, 5, 6, 7, 8, 9, 10]


def test_CLUB_41_the_judge_sees_every_role_and_alone_gives_fouls():
    t = club_game(host=True)
    roles = t.events(HostRoles)[0]
    assert roles.audience == HOST_AUDIENCE and len(roles.roles) == 10
    assert dict(roles.roles)[uid(1)] is Role.DON and dict(roles.roles)[uid(4)] is Role.SHERIFF
    t.refuse(IssueFoul(user_id=uid(2), player=uid(5)), NotAllowed)
    t.refuse(IssueFoul(user_id=None, player=uid(5)), NotAllowed)
    t.do(IssueFoul(user_id=HOST, player=uid(5)))
    assert fouls_of(t.state, uid(5)) == 1


def test_CLUB_Q08_judge_is_a_non_player_and_a_lost_judge_pauses_the_game():
    t = lobby(10, ruleset="club")
    t.refuse(BecomeHost(user_id=uid(3), name="P3"), AlreadyJoined)  # a player cannot judge
    t.do(BecomeHost(user_id=HOST, name="Judge"))
    t.do(deal(CLUB_DEAL, "club"))
    assert t.events(HostRoles)
    t.do(MarkInactive(player=HOST, reason="blocked"))
    paused = t.last[-1]
    assert isinstance(paused, Paused) and paused.reason == "host_lost"
    assert t.state.pause.frozen_kind == "meeting"


def test_CLUB_Q08_without_a_judge_the_shell_decides_who_fouls():
    t = club_game()
    t.do(IssueFoul(user_id=None, player=uid(5)))  # a group admin, checked by the shell
    t.do(IssueFoul(user_id=12345, player=uid(5)))
    assert fouls_of(t.state, uid(5)) == 2


def test_CLUB_Q20_seats_follow_the_shells_shuffle():
    t = lobby(10, ruleset="club")
    seating = tuple(uid(i) for i in (7, 3, 10, 1, 5, 2, 9, 4, 8, 6))
    roles = tuple(CLUB_CODES[c] for c in CLUB_DEAL)
    t.do(StartGame(user_id=ORGANISER, seating=seating, roles=roles))
    assert [p.user_id for p in t.state.seated()] == list(seating)
    assert t.state.by_seat(1).name == "P7" and t.state.by_seat(1).role is Role.DON


def test_CLUB_Q14_speech_lengths_the_text_omits():
    timings = CLUB.timings({})
    assert (timings["defence"], timings["last_word"], timings["silenced"]) == (30, 60, 10)
    assert (timings["speech"], timings["meeting"]) == (60, 60)


def test_CLUB_X09_tempo_presets_and_limits():
    expected = {
        "short": dict(speech=45, defence=20, last_word=45, vote=10, night=30, meeting=45,
                      silenced=10),
        "normal": dict(speech=60, defence=30, last_word=60, vote=10, night=45, meeting=60,
                       silenced=10),
        "detailed": dict(speech=90, defence=45, last_word=90, vote=15, night=60, meeting=90,
                         silenced=10),
    }
    for tempo, values in expected.items():
        got = CLUB.timings({"tempo": tempo})
        assert {k: got[k] for k in values} == values, tempo
    assert CLUB.default_tempo == "normal"
    assert CLUB.timings({"timings": {"meeting": 20, "silenced": 60}})["meeting"] == 20
    for bad in ({"meeting": 19}, {"meeting": 301}, {"silenced": 4}, {"silenced": 61}):
        with pytest.raises(BadSetup):
            CLUB.timings({"timings": bad})
    for alias in ("club", "club-sport", "sport", "клуб", "СПОРТ"):
        assert find_ruleset(alias) is CLUB
    t = club_game(settings={"tempo": "short"})
    assert t.state.timer.seconds == 45 and t.state.timer.kind == "meeting"
