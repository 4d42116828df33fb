"""The forum host's tools: warnings and removals (docs/rules/forum.md: FORUM-17, 18, 31, 32, 38,
49, Q16, Q17, Q26, Q29, X18)."""

from __future__ import annotations

from engine import (
    CastVote,
    Disqualify,
    ForumPhase,
    HostRoles,
    IssueWarning,
    NightAction,
    NotAllowed,
    NotInGame,
    Phase,
    PhaseClosed,
    PlayerDead,
    PlayerEliminated,
    PlayerRemoved,
    Role,
    SideChosen,
    Team,
    VictoryDeclared,
    WarningIssued,
    WerewolfTurned,
    legal_actions,
)
from engine.core.audience import HOST

from ..forum_helpers import forum_at_day, forum_at_night, forum_game
from ..helpers import lobby, uid

DEAL = "MMCDTTTT"  # 1-2 Mafia, 3 Commissar, 4 Doctor, 5-8 civilians


def test_FORUM_17_a_warning_for_an_oath_is_kept_in_the_log():
    t = forum_at_day(DEAL, host=True)
    host = t.state.host
    t.do(IssueWarning(user_id=host, player=uid(3), reason="oath"))
    assert t.last == [WarningIssued(player=uid(3), count=1, by=host, reason="oath")]
    t.do(IssueWarning(user_id=host, player=uid(3), reason="I swear" * 50))
    assert t.last[0].count == 2 and len(t.last[0].reason) == 200
    assert t.state.is_alive(uid(3)) and t.state.forum.warnings == {uid(3): 2}


def test_FORUM_18_an_insult_earns_a_warning_or_a_removal():
    t = forum_at_day(DEAL, host=True)
    host = t.state.host
    t.do(IssueWarning(user_id=host, player=uid(5), reason="insult"))
    t.do(Disqualify(user_id=host, player=uid(5), reason="insult"))
    assert t.last[:2] == [
        PlayerRemoved(player=uid(5), by=host, reason="insult"),
        PlayerEliminated(user_id=uid(5), cause="disqualified", role=Role.CIVILIAN)]
    assert t.phase is ForumPhase.DEBATE  # no last word
    t.refuse(IssueWarning(user_id=host, player=uid(5)), PlayerDead)


def test_FORUM_31_a_claim_in_words_is_no_command():
    t = forum_at_day(DEAL)
    # claiming a role is talk: the engine has no command for it and nothing changes; only a
    # removal by the host ends a player's game
    assert not legal_actions(t.state, uid(5)).moderate
    assert t.state.is_alive(uid(5)) and t.state.forum.warnings == {}


def test_FORUM_32_opening_the_card_removes_at_once():
    t = forum_at_night(DEAL)
    t.act(1, "kill", 6)
    t.do(Disqualify(user_id=None, player=uid(3), reason="card"))
    assert t.last[0].reason == "card" and not t.state.is_alive(uid(3))
    t.refuse(NightAction(user_id=uid(3), action="check", target=uid(1)), PlayerDead)


def test_FORUM_Q16_the_card_removal_shows_the_role_and_runs_the_win_check():
    t = forum_at_day("MCTTT")
    m = t.mark()
    t.do(Disqualify(user_id=None, player=uid(1), reason="card"))
    assert t.events(PlayerEliminated, m)[0].role is Role.MAFIA
    assert t.events(VictoryDeclared, m)[0].winner is Team.TOWN


def test_FORUM_38_a_sleepwalker_publishing_the_mafia_is_removed():
    t = forum_at_day("MMSCDTTTTT", host=True)
    t.do(Disqualify(user_id=t.state.host, player=uid(3), reason="mafia_list"))
    assert t.last[1].role is Role.SLEEPWALKER and t.last[1].cause == "disqualified"


def test_FORUM_49_private_messaging_is_a_removal_reason():
    t = forum_at_day(DEAL)
    t.do(Disqualify(user_id=None, player=uid(6), reason="private_messages"))
    assert t.last[0] == PlayerRemoved(player=uid(6), by=None, reason="private_messages")
    assert not t.state.is_alive(uid(6))


def test_FORUM_Q17_warnings_are_counted_and_a_threshold_may_remove():
    t = forum_at_day(DEAL)
    for _ in range(3):
        t.do(IssueWarning(user_id=None, player=uid(6), reason="oath"))
    assert t.state.forum.warnings[uid(6)] == 3 and t.state.is_alive(uid(6))
    t = forum_at_day(DEAL, options={"warnings_to_remove": 2})
    t.do(IssueWarning(user_id=None, player=uid(6), reason="oath"))
    m = t.mark()
    t.do(IssueWarning(user_id=None, player=uid(6), reason="oath"))
    assert [type(e).__name__ for e in t.events(since=m)][:3] == [
        "WarningIssued", "PlayerRemoved", "PlayerEliminated"]
    assert t.events(PlayerRemoved, m)[0].reason == "warnings"
    t = forum_at_day(DEAL, options={"warnings_to_remove": 1})  # a missed vote counts too
    m = t.mark()
    t.ballot({v: 5 for v in range(1, 8) if v != 5} | {5: 1})
    assert (uid(8), "disqualified") in [(e.user_id, e.cause) for e in t.events(PlayerEliminated, m)]
    assert t.phase is Phase.LAST_WORD and t.speaker == 5


def test_FORUM_Q26_with_a_host_only_he_moderates_and_he_sees_everything():
    t = forum_game("MMCDKPJTTT", host=True)
    host = t.state.host
    assert t.events(HostRoles)[0].audience == HOST
    t.intro({5: Team.MAFIA})
    assert [e for e in t.events(SideChosen) if e.audience == HOST]
    t.refuse(IssueWarning(user_id=uid(2), player=uid(3)), NotAllowed)
    t.refuse(Disqualify(user_id=uid(2), player=uid(3)), NotAllowed)
    assert legal_actions(t.state, host).moderate == tuple(uid(s) for s in range(1, 11))
    t.refuse(IssueWarning(user_id=host, player=999), NotInGame)
    lob = lobby(5, ruleset="forum")
    lob.refuse(IssueWarning(user_id=uid(1), player=uid(2)), PhaseClosed)


def test_FORUM_Q29_the_win_check_runs_after_every_removal():
    t = forum_at_day("MWTTT")
    m = t.mark()
    t.do(Disqualify(user_id=None, player=uid(1), reason="insult"))
    assert t.events(WerewolfTurned, m) and not t.events(VictoryDeclared, m)  # he turns instead
    t = forum_at_day("MKTTT")
    t.do(Disqualify(user_id=None, player=uid(1), reason="insult"))
    assert t.events(VictoryDeclared)[0].winner is Team.TOWN  # a living Maniac does not block it
    t = forum_at_night("MMCDTTTT")
    t.do(Disqualify(user_id=None, player=uid(3), reason="card"))
    t.do(Disqualify(user_id=None, player=uid(4), reason="card"))
    t.do(Disqualify(user_id=None, player=uid(5), reason="card"))
    assert not t.events(VictoryDeclared)
    t.do(Disqualify(user_id=None, player=uid(6), reason="card"))
    assert t.events(VictoryDeclared)[0].winner is Team.MAFIA


def test_FORUM_X18_the_phase_goes_on_without_the_removed():
    t = forum_at_day(DEAL)
    t.debate()
    for v in range(1, 8):
        t.do(CastVote(user_id=uid(v), target=uid(5 if v != 5 else 1)))
    assert t.phase is ForumPhase.BALLOT  # waits for seat 8
    t.do(Disqualify(user_id=None, player=uid(8), reason="insult"))
    assert t.phase is Phase.LAST_WORD and t.speaker == 5  # the ballot was complete
    t = forum_at_night(DEAL)
    t.act(1, "kill", 6)
    for p in list(t.state.alive()):
        if p.seat > 2:
            t.act(p.seat, "sleep")
    assert t.phase is Phase.NIGHT  # seat 2 has not picked
    t.do(Disqualify(user_id=None, player=uid(2), reason="insult"))
    assert t.phase is Phase.LAST_WORD and t.speaker == 6  # seat 1 alone decides now
    t.do(Disqualify(user_id=None, player=uid(7), reason="insult"))  # during a last word
    assert t.phase is Phase.LAST_WORD and t.speaker == 6
