"""The forum preset end to end: one scripted game with every optional role, its log replayed
from JSON; the state's copy; the ``legal_actions`` fields (docs/rules/forum.md: X20..X22)."""

from __future__ import annotations

import copy
import json
import random

from engine import (
    BallotCast,
    CheckResult,
    CheckShrugged,
    ComparePlayers,
    DecideBonusRound,
    ForumPhase,
    GameEnded,
    GuessRoles,
    IssueWarning,
    MafiaBlocked,
    NameSuspect,
    NightDeaths,
    PlayerEliminated,
    Role,
    RolesRevealed,
    SleepwalkerRevealed,
    SuspectNamed,
    Team,
    VictoryDeclared,
    VoteBestPlayer,
    WerewolfTurned,
    apply,
    command_from_dict,
    event_from_dict,
    legal_actions,
    replay,
    to_dict,
)

from ..forum_helpers import forum_at_day, forum_at_night, forum_game
from ..forum_playout import random_options
from ..helpers import uid
from ..playout import leaks_role, play
from ..test_purity import _mutable_ids

#: 12 seats: 1-3 Mafia, 4 Sleepwalker, 5 Commissar, 6 Doctor, 7 Maniac, 8 Putana,
#: 9 Journalist, 10 Werewolf, 11 Cop, 12 civilian
EVERY_ROLE = "MMMSCDKPJWOT"


def seats(t, uids) -> tuple[int, ...]:
    return tuple(t.state.players[u].seat for u in uids)


def full_game():
    t = forum_game(EVERY_ROLE, options={"announce_save": True})
    t.intro({7: Team.MAFIA, 8: Team.TOWN})
    # day 1: the first mafioso is voted out, no last word
    t.vote_out(1)
    assert t.phase is ForumPhase.COP_TURN
    # night 2: the Cop on the Commissar; the Mafia pick the Sleepwalker and must choose again
    t.cop_turn(5)
    t.act(5, "check", 2)
    assert isinstance(t.last[-1], CheckShrugged)
    t.act(2, "kill", 4)
    t.act(3, "kill", 4)
    assert SleepwalkerRevealed(user_id=uid(4)) in t.last
    t.do(ComparePlayers(user_id=uid(9), first=uid(2), second=uid(10)))
    assert t.last[0].same is False
    m = t.mark()
    t.fnight(kill=12, heal=12)
    assert t.events(NightDeaths, m) == [NightDeaths(killed=(uid(4),), saved=True)]
    t.do(NameSuspect(user_id=uid(4), target=uid(2)))
    t.last_words()
    # day 2: the second mafioso goes
    t.vote_out(2)
    # night 3: the Maniac (for the Mafia!) slays the last mafioso, who kills the Doctor; the
    # Putana infects the civilian; the Werewolf turns at dawn, in the same step
    t.cop_turn(9)
    t.act(5, "check", 10)
    assert t.last[-1] == CheckResult(checker=uid(5), target=uid(10), is_mafia=False,
                                     audience=t.last[-1].audience)
    m = t.mark()
    t.fnight(kill=6, slay=3, infect=12)
    assert seats(t, t.events(NightDeaths, m)[0].killed) == (3, 6)
    assert t.events(WerewolfTurned, m) and t.state.players[uid(10)].team is Team.MAFIA
    t.last_words()
    # day 3: the Putana is voted out
    t.vote_out(8)
    # night 4: the Cop stops the new Mafia; the infection of night 3 kills the civilian
    m = t.mark()
    t.cop_turn(10)
    assert t.events(MafiaBlocked, m)
    t.act(5, "check", 10)
    assert isinstance(t.last[-1], CheckShrugged)
    t.fnight()
    assert seats(t, t.events(NightDeaths, m)[0].killed) == (12,)
    t.last_words()
    # day 4: the turned Werewolf is voted out: Town wins
    t.vote_out(10)
    assert t.events(VictoryDeclared) == [VictoryDeclared(winner=Team.TOWN, days=4)]
    t.do(DecideBonusRound(user_id=uid(1), start=True))
    t.do(GuessRoles(user_id=uid(1), guesses=((uid(5), Role.COMMISSAR), (uid(7), Role.MAFIA))))
    t.timeout()
    reveal = t.events(RolesRevealed)[0]
    assert seats(t, reveal.winners) == (4, 5, 6, 8, 9, 11, 12)  # not the Maniac: Mafia's side
    for voter in range(1, 13):
        t.do(VoteBestPlayer(user_id=uid(voter), target=uid(11 if voter != 11 else 5)))
    assert isinstance(t.last[-1], GameEnded) and t.state.over
    return t


def test_FORUM_X22_a_game_with_every_optional_role_replays_from_its_log():
    t = full_game()
    commands = [command_from_dict(json.loads(json.dumps(to_dict(c)))) for c in t.log]
    assert commands == t.log
    state, produced = replay(commands)
    assert state == t.state and produced == t.produced
    flat = [e for evs in produced for e in evs]
    assert [event_from_dict(json.loads(json.dumps(to_dict(e)))) for e in flat] == flat
    assert not [e for e in flat if leaks_role(e, "forum")]
    assert [e for e in flat if isinstance(e, PlayerEliminated) and e.role is not None]
    assert leaks_role(PlayerEliminated(user_id=1, cause="vote", role=Role.MAFIA))  # elsewhere
    assert [e for e in flat if isinstance(e, SuspectNamed)]
    assert [e.voter for e in flat if isinstance(e, BallotCast)]


def test_FORUM_X21_the_forum_state_is_copied_whole():
    t = forum_at_night("MMCDKPJTTTO", 3, options={"alternate_nights": False})
    t.cop_turn(8)
    t.act(1, "kill", 9)
    t.act(3, "check", 1)
    t.act(6, "infect", 10)
    t.do(IssueWarning(user_id=None, player=uid(2)))
    st = t.state
    assert st.forum.checks and st.forum.warnings and st.forum.sides
    c = st.clone()
    assert c == st
    shared = set(_mutable_ids(st, {})) & set(_mutable_ids(c, {}))
    assert not shared, [_mutable_ids(st, {})[i] for i in shared]


def test_FORUM_X21_apply_never_mutates_a_forum_state():
    po = play(31, 9, host=True, chaos=0.2, ruleset="forum",
              settings={"options": random_options(random.Random(31), 9)})
    state = None
    for cmd in po.log:
        snapshot = copy.deepcopy(state)
        new, _ = apply(state, cmd)
        assert state == snapshot, f"apply mutated its input on {cmd}"
        state = new
    assert state.over


def test_FORUM_X20_legal_actions_offer_the_forum_buttons():
    t = forum_game("MMMSCDKPJTTO", host=True)  # 4 Sleepwalker, 7 Maniac, 9 Journalist, 12 Cop
    host = t.state.host
    assert legal_actions(t.state, uid(7)).choose_side and legal_actions(t.state, uid(1)).sleep
    assert legal_actions(t.state, host).moderate == tuple(uid(s) for s in range(1, 13))
    t.intro()
    t.to_night(3)
    assert legal_actions(t.state, uid(12)).night_action == "block"
    assert legal_actions(t.state, uid(1)).night_action is None  # the Cop first
    t.cop_turn(11)
    la = legal_actions(t.state, uid(4))
    assert la.night_action == "kill" and la.sleep and uid(4) in la.night_targets  # Sleepwalker
    la = legal_actions(t.state, uid(1))
    assert la.night_action == "kill" and not la.sleep
    la = legal_actions(t.state, uid(9))
    assert la.compare and la.night_action is None and la.sleep
    assert legal_actions(t.state, uid(7)).night_action == "slay"
    t.act(7, "sleep")
    assert legal_actions(t.state, uid(7)) == type(la)(pause=True)
    assert legal_actions(t.state, uid(12)) == type(la)(pause=True)  # he moved already
    t2 = forum_at_day("MCDTT")
    t2.debate()
    la = legal_actions(t2.state, uid(2))
    assert la.day_vote == (uid(1), uid(3), uid(4), uid(5)) and la.day_vote_mark is None
