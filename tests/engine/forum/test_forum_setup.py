"""The forum preset's table, options and timings (docs/rules/forum.md: FORUM-01..05, 33, Q01,
Q02, Q27, X01..X03)."""

from __future__ import annotations

import random

import pytest

from engine import (
    BadSetup,
    ChangeSettings,
    CreateGame,
    GameFull,
    GameStarted,
    HostRoles,
    Join,
    NotEnoughPlayers,
    Phase,
    Private,
    Role,
    RoleAssigned,
    Team,
    apply,
    find_ruleset,
)
from engine.forum.setup import OPTIONAL_ROLES, allowed_mafia, default_mafia

from ..forum_helpers import forum_deal, forum_game, options_for
from ..forum_playout import random_options
from ..helpers import ORGANISER, lobby, uid

FORUM = find_ruleset("forum")


def test_FORUM_01_four_to_twelve_players():
    t = lobby(3, ruleset="forum", settings={"options": {"roles": []}})
    t.refuse(forum_deal("MTT"), NotEnoughPlayers)
    t = lobby(4, ruleset="forum", settings={"options": {"roles": []}})
    t.do(forum_deal("MTTT"))
    assert t.phase is Phase.NIGHT
    full = lobby(12, ruleset="forum")
    full.refuse(Join(user_id=uid(13), name="P13"), GameFull)


def test_FORUM_Q01_the_table_tops_out_at_twelve():
    assert (FORUM.min_players, FORUM.max_players) == (4, 12)
    assert find_ruleset("форум") is FORUM and find_ruleset("forum-mafia") is FORUM
    with pytest.raises(BadSetup):
        FORUM.roles_for(13, {})


def test_FORUM_02_every_deal_has_mafia_and_a_civilian():
    rng = random.Random(2)
    for n in range(4, 13):
        for _ in range(30):
            roles = FORUM.roles_for(n, random_options(rng, n))
            assert len(roles) == n and Role.MAFIA in roles and Role.CIVILIAN in roles


def test_FORUM_03_optional_roles_follow_the_options():
    assert Role.DOCTOR not in FORUM.roles_for(8, {"roles": ["commissar"]})
    assert FORUM.roles_for(8, {"roles": ["doctor", "maniac"]}).count(Role.MANIAC) == 1
    t = lobby(6, ruleset="forum", settings={"options": {"roles": ["commissar"]}})
    t.refuse(forum_deal("MDTTTT"), BadSetup)  # a Doctor the organiser did not choose
    t.do(forum_deal("MCTTTT"))


def test_FORUM_04_the_mafia_count_stays_in_the_ratio():
    with pytest.raises(BadSetup):
        FORUM.roles_for(8, {"mafia": 3})
    assert FORUM.roles_for(8, {"mafia": 2}).count(Role.MAFIA) == 2
    assert allowed_mafia(8) == (2,) and allowed_mafia(12) == (3,)
    assert set(allowed_mafia(6)) == {1, 2} and set(allowed_mafia(7)) == {1, 2}
    assert set(allowed_mafia(11)) == {2, 3}
    for n in range(4, 13):
        for m in allowed_mafia(n):
            exact = [k for k in range(1, n) if 3 * k <= n - k <= 4 * k]
            assert m in exact or not exact


def test_FORUM_Q02_the_default_mafia_table():
    want = {4: 1, 5: 1, 6: 1, 7: 2, 8: 2, 9: 2, 10: 2, 11: 3, 12: 3}
    assert {n: default_mafia(n) for n in want} == want
    assert {n: FORUM.roles_for(n, {"roles": []}).count(Role.MAFIA) for n in want} == want


def test_FORUM_05_roles_are_dealt_in_private():
    t = forum_game("MCDTTT", host=True)
    started = t.events(GameStarted)[0]
    assert started.audience.kind == "public" and started.mafia_count == 1
    cards = t.events(RoleAssigned)
    assert [(c.user_id, c.role, c.audience) for c in cards] == [
        (uid(i), r, Private(uid(i))) for i, r in enumerate(
            (Role.MAFIA, Role.COMMISSAR, Role.DOCTOR, Role.CIVILIAN, Role.CIVILIAN,
             Role.CIVILIAN), start=1)]
    assert cards[3].team is Team.TOWN
    assert t.events(HostRoles)[0].audience.kind == "host"


def test_FORUM_33_the_extra_roles_are_off_by_default():
    assert FORUM.default_options["roles"] == ["commissar", "doctor"]
    roles = FORUM.roles_for(12, {})
    for extra in (Role.JOURNALIST, Role.SLEEPWALKER, Role.WEREWOLF, Role.COP, Role.MANIAC,
                  Role.PUTANA):
        assert extra not in roles
    every = FORUM.roles_for(12, {"roles": list(OPTIONAL_ROLES)})
    want = [Role.MAFIA] * 3 + list(OPTIONAL_ROLES.values()) + [Role.CIVILIAN]
    assert sorted(every) == sorted(want)


def test_FORUM_X01_options_are_checked_at_once():
    for bad in ({"roles": ["priest"]}, {"roles": "doctor"}, {"roles": ["cop", "cop"]},
                {"mafia": 4}, {"mafia": True}, {"alternate_nights": "no"},
                {"warnings_to_remove": 11}):
        with pytest.raises(BadSetup):
            apply(None, CreateGame(user_id=ORGANISER, ruleset="forum",
                                   settings={"options": bad}))
    st, _ = apply(None, CreateGame(user_id=ORGANISER, ruleset="forum",
                                   settings={"options": {"doctor": False}}))  # another preset's
    assert st.options["roles"] == ["commissar", "doctor"]
    t = lobby(5, ruleset="forum")
    t.refuse(ChangeSettings(user_id=ORGANISER, settings={"options": {"roles": ["x"]}}), BadSetup)
    t.do(ChangeSettings(user_id=ORGANISER, settings={"options": {"roles": ["cop"]}}))
    assert t.state.options["roles"] == ["cop"]
    g = forum_game("MCTTT")
    g.refuse(ChangeSettings(user_id=ORGANISER, settings={"options": {"roles": []}}), BadSetup)


def test_FORUM_X02_a_deal_keeps_a_civilian():
    with pytest.raises(BadSetup):
        FORUM.roles_for(4, {"roles": ["commissar", "doctor", "cop"]})
    assert FORUM.roles_for(4, {"roles": ["commissar", "doctor"]}).count(Role.CIVILIAN) == 1
    t = lobby(4, ruleset="forum", settings={"options": {"roles": ["commissar", "doctor", "cop"]}})
    t.refuse(forum_deal("MCDO"), BadSetup)


def test_FORUM_X03_tempo_presets_and_limits():
    normal = FORUM.timings({})
    assert normal == {"forum_day": 600, "forum_vote": 120, "last_word": 60, "meeting": 90,
                      "cop": 60, "forum_night": 180, "bonus_offer": 120, "bonus": 180,
                      "best_player": 120}
    assert FORUM.timings({"tempo": "short"})["forum_day"] == 300
    assert FORUM.timings({"tempo": "detailed"})["forum_night"] == 300
    assert FORUM.timings({"timings": {"speech": 45}}) == normal  # another preset's key: ignored
    with pytest.raises(BadSetup):
        FORUM.timings({"timings": {"cop": 5}})
    assert find_ruleset("party").timings({"timings": {"forum_day": 3600}})["speech"] == 60


def test_FORUM_Q27_day_and_night_from_a_minute_to_a_day():
    assert FORUM.timings({"timings": {"forum_day": 86400, "forum_night": 60}})["forum_day"] == 86400
    for key, value in (("forum_day", 86401), ("forum_night", 59), ("forum_day", 59)):
        with pytest.raises(BadSetup):
            FORUM.timings({"timings": {key: value}})
    t = forum_game("MCDTT", settings={"timings": {"forum_day": 7200}})
    t.to_day(1)
    assert t.state.timer.seconds == 7200 and t.state.timer.kind == "forum_day"


def test_FORUM_X01_the_options_of_a_deal_are_the_deal():
    assert options_for("MMSCDKPJWOT") == {
        "roles": ["sleepwalker", "commissar", "doctor", "maniac", "putana", "journalist",
                  "werewolf", "cop"], "mafia": 2}
