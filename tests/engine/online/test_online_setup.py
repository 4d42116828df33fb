"""Online preset: the table, the deal, the tempo, night 1 and the end
(docs/rules/online-sport.md)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import (
    PUBLIC,
    REVISION,
    BadSetup,
    ChangeSettings,
    CreateGame,
    GameEnded,
    GameFull,
    GameStarted,
    Join,
    MafiaRevealed,
    NightAction,
    NightResult,
    NoNightAction,
    NotAllowed,
    NotEnoughPlayers,
    PhaseClosed,
    PhaseStarted,
    PlayerInactive,
    Private,
    RelayMessage,
    Role,
    RoleAssigned,
    Team,
    TeamChat,
    apply,
    find_ruleset,
    legal_actions,
)
from engine.online import ONLINE

from ..helpers import ORGANISER, lobby, uid
from ..online_helpers import online_at_day, online_deal, online_game
from ..playout import leaks_role


def test_ONLINE_Q01_role_table_six_to_ten():
    for n in range(6, 11):
        roles = ONLINE.roles_for(n)
        blacks = n // 3
        assert Counter(roles) == Counter({Role.DON: 1, Role.MAFIA: blacks - 1, Role.SHERIFF: 1,
                                          Role.CIVILIAN: n - blacks - 1})
    assert Counter(ONLINE.roles_for(10)) == {Role.DON: 1, Role.MAFIA: 2, Role.SHERIFF: 1,
                                              Role.CIVILIAN: 6}
    t = lobby(5, ruleset="online")
    t.refuse(online_deal("DMSTT"), NotEnoughPlayers)
    t = lobby(10, ruleset="online")
    t.refuse(Join(user_id=uid(11), name="P11"), GameFull)
    t.refuse(online_deal("DDMSTTTTTT"), BadSetup)  # two Dons
    t.refuse(online_deal("MMMSTTTTTT"), BadSetup)  # no Don
    t.do(online_deal("TTTDTMMTST"))  # any seating of the table's roles
    started = t.events(GameStarted)[0]
    assert started.mafia_count == 3 and not started.doctor and started.audience == PUBLIC


def test_ONLINE_X01_aliases_tempo_and_timings():
    assert find_ruleset("online") is find_ruleset("Online-Sport") is find_ruleset("онлайн")
    st, _ = apply(None, CreateGame(user_id=ORGANISER, ruleset="online-sport"))
    assert st.ruleset == "online"
    with pytest.raises(BadSetup):
        ONLINE.roles_for(11)
    rs = ONLINE
    assert rs.timings({}) == {"discussion": 180, "defence": 30, "last_word": 60, "vote": 30,
                              "lift": 30, "night": 60, "meeting": 60, "best_move": 30}
    assert rs.timings({"tempo": "short"})["discussion"] == 120
    assert rs.timings({"tempo": "detailed"})["discussion"] == 300
    assert {rs.timings({"tempo": k})["defence"] for k in rs.tempos} == {30}  # ONLINE-Q11
    assert {rs.timings({"tempo": k})["best_move"] for k in rs.tempos} == {30}
    assert rs.timings({"timings": {"discussion": 240}})["discussion"] == 240
    for bad in ({"discussion": 10}, {"lift": 500}, {"best_move": 5}, {"speeches": 60}):
        with pytest.raises(BadSetup):
            rs.timings({"timings": bad})
    # a chat's defaults serve every preset: a valid timing the preset lacks is ignored
    assert rs.timings({"timings": {"speech": 45, "discussion": 240}}) == {
        **rs.timings({}), "discussion": 240}
    party = find_ruleset("party")
    assert party.timings({"timings": {"discussion": 240}}) == party.timings({})
    # a mid-game change applies from the next timer (PARTY-X07)
    t = online_game(10, settings={"tempo": "short"})
    assert t.state.timer.seconds == 45  # night 1, the meeting
    t.do(ChangeSettings(user_id=ORGANISER, settings={"timings": {"discussion": 200}}))
    assert t.state.timer.seconds == 45
    t.to_day(1)
    assert t.state.timer.seconds == 200 and t.state.timer.kind == "discussion"


def test_ONLINE_01_blacks_meet_on_night_1():
    t = online_game(10, "TDTMTSTMTT")
    met = t.events(MafiaRevealed)
    assert len(met) == 1 and met[0].audience == TeamChat(Team.MAFIA)
    assert set(met[0].members) == {uid(2), uid(4), uid(8)} and met[0].don == uid(2)
    cards = t.events(RoleAssigned)
    assert all(c.audience == Private(c.user_id) for c in cards)
    assert t.phase.value == "night" and t.state.night == 1
    assert t.events(PhaseStarted)[-1].purpose == "intro"


def test_ONLINE_02_day_1_starts_when_every_black_is_ready():
    t = online_game(10)  # the blacks: 1 (the Don), 2, 3
    for seat in (1, 2):
        t.do(NightAction(user_id=uid(seat), action="sleep"))
        assert t.phase.value == "night"
    t.do(NightAction(user_id=uid(3), action="sleep"))
    assert t.phase.value == "discussion" and t.state.day == 1
    assert t.events(NightResult)[-1].killed is None


def test_ONLINE_02_day_1_starts_at_the_timer_otherwise():
    t = online_game(10)
    t.onight(skip=[2], close=False)
    assert t.phase.value == "night" and t.state.timer.kind == "meeting"
    t.timeout()
    assert t.phase.value == "discussion" and t.state.day == 1


def test_ONLINE_02_no_shot_or_check_on_night_1():
    t = online_game(10)
    for seat in (1, 2, 4, 5):
        la = legal_actions(t.state, uid(seat))
        assert la.sleep == (seat <= 3) and la.night_action is None and la.night_extra is None
    t.refuse(NightAction(user_id=uid(1), action="kill", target=uid(5)), NoNightAction)
    t.refuse(NightAction(user_id=uid(1), action="don_check", target=uid(4)), NoNightAction)
    t.refuse(NightAction(user_id=uid(4), action="sheriff_check", target=uid(1)), NoNightAction)


def test_ONLINE_39_team_chat_on_night_1_only():
    t = online_game(10)
    events = t.do(RelayMessage(user_id=uid(1), text="I shoot first"))
    assert events[0].audience == TeamChat(Team.MAFIA)
    t.refuse(RelayMessage(user_id=uid(5), text="hi"), NotAllowed)  # a red has no team chat
    t.to_day(1)
    t.refuse(RelayMessage(user_id=uid(1), text="day"), PhaseClosed)
    t.to_night(2)
    t.refuse(RelayMessage(user_id=uid(1), text="night 2"), PhaseClosed)


def test_ONLINE_09_civilian_only_sleeps():
    t = online_game(10)
    t.to_night(2)
    la = legal_actions(t.state, uid(6))
    assert la.sleep and la.night_action is None and la.night_targets == ()
    t.refuse(NightAction(user_id=uid(6), action="sheriff_check", target=uid(1)), NoNightAction)
    t.refuse(NightAction(user_id=uid(6), action="kill", target=uid(1)), NoNightAction)


def test_ONLINE_03_day_is_one_discussion_with_the_vote_open():
    t = online_at_day(10)
    started = t.events(PhaseStarted)[-1]
    assert started.phase == "discussion" and started.seconds == 180 and started.speaker is None
    for p in t.state.alive():
        la = legal_actions(t.state, p.user_id)
        assert la.ballot == tuple(uid(s) for s in range(1, 11)) and la.ballot_pass
        assert not la.end_speech and la.nominate == ()


def test_ONLINE_46_roles_revealed_only_at_the_end():
    t = online_at_day(6)  # D M S T T T
    t.leave_by_vote(1)  # the Don
    t.onight(kill=5)
    t.best_move(3, 4, 6)
    t.last_words()
    t.leave_by_vote(2)  # the last black
    end = t.events(GameEnded)
    assert len(end) == 1 and end[0].winner is Team.TOWN and end[0].audience == PUBLIC
    assert end[0].roles == tuple((s, uid(s), r) for s, r in enumerate(
        [Role.DON, Role.MAFIA, Role.SHERIFF, Role.CIVILIAN, Role.CIVILIAN, Role.CIVILIAN], 1))
    assert not [e for e in t.events() if leaks_role(e)]


def test_ONLINE_X17_night_1_asks_nothing_of_the_reds_and_makes_nobody_offline():
    t = online_game(8)  # the blacks: 1 (the Don), 2
    for seat in (4, 5, 8):  # the Sheriff and civilians have no button tonight
        assert legal_actions(t.state, uid(seat)).sleep is False
    t.do(NightAction(user_id=uid(5), action="sleep"))  # an old button: accepted, changes nothing
    t.timeout()  # not a single tap: the meeting simply ends at its timer
    assert t.phase.value == "discussion" and t.state.day == 1
    assert not t.events(PlayerInactive)
    assert all(p.active and not p.afk for p in t.state.players.values())


def test_REV_X01_an_online_game_keeps_the_rules_revision_it_was_created_with() -> None:
    """REV-X01: night 1 of a revision-1 log (recorded before ONLINE-X17) asks every player to tap,
    as it did then, so that its log replays the same; today's games (revision 2) ask the reds
    nothing; ChangeSettings cannot change a game's revision."""
    old = online_game(8, settings={"revision": 1})  # the blacks: 1 (the Don), 2
    new = online_game(8)
    assert legal_actions(old.state, uid(5)).sleep
    assert not legal_actions(new.state, uid(5)).sleep
    for seat in (1, 2):  # every black ready: today's night 1 is over, revision 1's is not
        old.do(NightAction(user_id=uid(seat), action="sleep"))
        new.do(NightAction(user_id=uid(seat), action="sleep"))
    assert new.phase.value == "discussion" and old.phase.value == "night"
    new.do(ChangeSettings(user_id=ORGANISER, settings={"revision": 1}))
    assert new.state.settings["revision"] == REVISION
