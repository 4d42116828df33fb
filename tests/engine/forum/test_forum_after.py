"""The forum preset's end: the win, the bonus round, the reveal, the best player
(docs/rules/forum.md: FORUM-54..58, Q23..Q25, X17, X24)."""

from __future__ import annotations

from engine import (
    AlreadyVoted,
    BestPlayerChosen,
    BestPlayerVoted,
    BonusResults,
    CastVote,
    DecideBonusRound,
    Disqualify,
    ForumPhase,
    GameEnded,
    GuessesRecorded,
    GuessRoles,
    HostNext,
    InvalidTarget,
    IssueWarning,
    NotAllowed,
    NotInGame,
    Phase,
    PhaseClosed,
    PhaseStarted,
    Private,
    Role,
    RolesRevealed,
    Team,
    VictoryDeclared,
    VoteBestPlayer,
    legal_actions,
    state_to_dict,
)
from engine.forum import winners

from ..forum_helpers import forum_at_day
from ..helpers import ORGANISER, uid


def won_by_town(**kw):
    """"MCDTTT": the Mafia (seat 1) voted out on day 1 -> Town wins."""
    t = forum_at_day("MCDTTT", **kw)
    t.vote_out(1)
    return t


def test_FORUM_54_town_wins_once_no_mafioso_is_left():
    t = won_by_town()
    assert t.events(VictoryDeclared) == [VictoryDeclared(winner=Team.TOWN, days=1)]
    assert t.state.winner is Team.TOWN and not t.state.over


def test_FORUM_55_the_mafia_win_at_parity():
    t = forum_at_day("MMCDTTTT")
    t.vote_out(5)
    t.fnight(kill=6)
    t.last_words()
    t.vote_out(7)
    t.fnight(kill=8)
    t.last_words()
    assert t.events(VictoryDeclared)[0].winner is Team.MAFIA and len(t.state.alive()) == 4


def test_FORUM_56_the_bonus_round():
    t = won_by_town()
    assert t.phase is ForumPhase.BONUS_OFFER and legal_actions(t.state, ORGANISER).bonus_decide
    t.refuse(DecideBonusRound(user_id=uid(3), start=True), NotAllowed)
    t.do(DecideBonusRound(user_id=ORGANISER, start=True))
    assert t.phase is ForumPhase.BONUS and t.state.timer.kind == "bonus"
    la = legal_actions(t.state, uid(1))  # the eliminated mafioso guesses too
    assert la.bonus_guess == tuple(uid(s) for s in range(2, 7))
    assert la.bonus_roles == (Role.MAFIA, Role.COMMISSAR, Role.DOCTOR, Role.CIVILIAN)
    t.refuse(GuessRoles(user_id=uid(2), guesses=((uid(1), Role.MAFIA),)), InvalidTarget)
    t.refuse(GuessRoles(user_id=uid(2), guesses=((uid(3), Role.COP),)), InvalidTarget)
    t.refuse(GuessRoles(user_id=uid(2), guesses=((uid(3), Role.DOCTOR), (uid(3), Role.MAFIA))),
             InvalidTarget)
    t.refuse(GuessRoles(user_id=uid(2), guesses=((uid(3), "doctor", 1),)), InvalidTarget)
    t.do(GuessRoles(user_id=uid(2), guesses=((uid(3), Role.DOCTOR), (uid(4), Role.MAFIA))))
    assert t.last == [GuessesRecorded(user_id=uid(2), guesses=((uid(3), Role.DOCTOR),
                                                               (uid(4), Role.MAFIA)),
                                      audience=Private(uid(2)))]
    t.do(GuessRoles(user_id=uid(3), guesses=((uid(2), Role.CIVILIAN),)))
    m = t.mark()
    t.timeout()
    results = t.events(BonusResults, m)[0]
    assert results.hits == ((uid(2), 1), (uid(3), 0))
    assert t.events(RolesRevealed, m)[0].winners == tuple(uid(s) for s in range(2, 7))
    assert t.state.winner is Team.TOWN  # the result stays as it was


def test_FORUM_57_the_players_vote_for_the_best_player():
    t = won_by_town(options={"bonus_round": False})
    assert t.phase is ForumPhase.BEST_PLAYER and t.state.timer.kind == "best_player"
    assert legal_actions(t.state, uid(1)).best_player == tuple(uid(s) for s in range(2, 7))
    t.do(VoteBestPlayer(user_id=uid(1), target=uid(3)))
    assert t.last == [BestPlayerVoted(voter=uid(1), target=uid(3))]
    for voter, target in ((2, 3), (3, 2), (4, 2), (5, 6)):
        t.do(VoteBestPlayer(user_id=uid(voter), target=uid(target)))
    m = t.mark()
    t.do(VoteBestPlayer(user_id=uid(6), target=uid(5)))  # the last vote closes it
    chosen = t.events(BestPlayerChosen, m)[0]
    assert chosen.winners == (uid(2), uid(3))  # a tie shares the title
    assert chosen.tally[0] == (uid(2), (uid(3), uid(4)))
    assert t.last[-1] == GameEnded(winner=Team.TOWN, days=1, roles=tuple(
        (p.seat, p.user_id, p.role) for p in t.state.seated()))
    assert t.state.over and t.phase is Phase.ENDED


def test_FORUM_Q23_the_bonus_round_is_optional_and_never_hangs():
    t = won_by_town()
    m = t.mark()
    t.timeout()  # nobody started it within the offer's time
    assert not t.events(BonusResults, m) and t.events(RolesRevealed, m)
    t = won_by_town(options={"bonus_round": False})
    assert not [e for e in t.events(PhaseStarted) if e.phase == "bonus_offer"]
    t = won_by_town(host=True)
    t.do(DecideBonusRound(user_id=t.state.host, start=False))
    assert t.phase is ForumPhase.BEST_PLAYER
    t = won_by_town(options={"bonus_all_roles": False})
    t.do(DecideBonusRound(user_id=ORGANISER, start=True))
    assert legal_actions(t.state, uid(2)).bonus_roles == (Role.MAFIA,)
    for s in range(1, 7):
        t.do(GuessRoles(user_id=uid(s)))  # empty forms count as done
    assert t.phase is ForumPhase.BEST_PLAYER


def test_FORUM_Q24_every_participant_once_not_himself_not_the_host():
    t = won_by_town(host=True, options={"bonus_round": False})
    t.refuse(VoteBestPlayer(user_id=t.state.host, target=uid(2)), NotInGame)
    t.refuse(VoteBestPlayer(user_id=uid(2), target=uid(2)), InvalidTarget)
    t.do(VoteBestPlayer(user_id=uid(2), target=uid(1)))
    t.refuse(VoteBestPlayer(user_id=uid(2), target=uid(3)), AlreadyVoted)
    assert legal_actions(t.state, uid(2)).best_player == ()
    m = t.mark()
    t.do(HostNext(user_id=t.state.host))
    assert t.events(BestPlayerChosen, m)[0].winners == (uid(1),)
    assert isinstance(t.last[-1], GameEnded)


def test_FORUM_X17_the_after_game_comes_before_game_ended():
    t = won_by_town()
    t.refuse(CastVote(user_id=uid(2), target=uid(3)), PhaseClosed)
    t.refuse(IssueWarning(user_id=None, player=uid(2)), PhaseClosed)
    t.timeout()
    t.timeout()
    kinds = [type(e).__name__ for e in t.events()]
    order = [k for k in kinds if k in ("VictoryDeclared", "RolesRevealed", "BestPlayerChosen",
                                       "GameEnded")]
    assert order == ["VictoryDeclared", "RolesRevealed", "BestPlayerChosen", "GameEnded"]
    assert kinds[-1] == "GameEnded" and t.state.over


def test_FORUM_X24_a_removed_player_is_no_winner_though_his_side_wins():
    """Issue 20: a mafioso the host removed was shown 🏆 in the final reveal. His side's win
    stands (the removal is a win check, FORUM-Q29), but he is not one of its winners."""
    t = forum_at_day("MMCDTTTT", host=True, options={"bonus_round": False})
    host = t.state.host
    m = t.mark()
    for s in (2, 3, 4, 5, 6, 7):  # the second mafioso, then Town down to parity: 1 vs 1
        t.do(Disqualify(user_id=host, player=uid(s), reason="insult"))
    assert t.events(VictoryDeclared, m)[0].winner is Team.MAFIA
    assert t.events(RolesRevealed, m)[0].winners == (uid(1),)
    assert winners(t.state) == [uid(1)]
    t = won_by_town(host=True, options={"bonus_round": False})
    assert t.events(RolesRevealed)[0].winners == tuple(uid(s) for s in range(2, 7))
    t = forum_at_day("MCDTTT", host=True, options={"bonus_round": False})
    t.do(Disqualify(user_id=t.state.host, player=uid(6), reason="card"))
    t.vote_out(1)
    assert t.state.winner is Team.TOWN
    assert t.events(RolesRevealed)[0].winners == tuple(uid(s) for s in range(2, 6))


def test_REV_X01_a_forum_game_before_revision_3_keeps_its_removed_winner():
    """REV-X01: FORUM-X24 came with rules revision 3; a forum game created before it (running
    across the upgrade, or replayed for /history) is played by its own revision: the removed
    mafioso is among the winners as he was, and the state keeps no ``removed`` key."""
    t = forum_at_day("MMCDTTTT", host=True, options={"bonus_round": False},
                     settings={"revision": 2})
    host = t.state.host
    m = t.mark()
    for s in (2, 3, 4, 5, 6, 7):
        t.do(Disqualify(user_id=host, player=uid(s), reason="insult"))
    assert t.events(RolesRevealed, m)[0].winners == (uid(1), uid(2))
    assert "removed" not in state_to_dict(t.state)["forum"]
