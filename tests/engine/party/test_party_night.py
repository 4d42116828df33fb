"""Party preset: readiness, the night and its resolution (docs/rules/party.md)."""

from __future__ import annotations

from engine import (
    PUBLIC,
    AlreadyActed,
    CheckResult,
    Continue,
    ContinueAvailable,
    HostNext,
    InvalidTarget,
    MafiaPicks,
    MafiaRevealed,
    MarkInactive,
    MarkReady,
    NightAction,
    NightResult,
    NoNightAction,
    NotAllowed,
    Pause,
    Phase,
    PhaseClosed,
    PhaseStarted,
    PlayerDead,
    PlayerEliminated,
    PlayerInactive,
    Private,
    ReadyMarked,
    RelayedMessage,
    RelayMessage,
    Resume,
    TargetNotAlive,
    Team,
    TeamChat,
    legal_actions,
)

from ..helpers import (
    HOST,
    eliminate_by_vote,
    game_at_day,
    game_at_night,
    started_game,
    uid,
)

ROLES7 = "MMCDTTT"   # mafia 1, 2; Commissar 3; Doctor 4; civilians 5, 6, 7


def kill_pick(seat, target):
    return NightAction(user_id=uid(seat), action="kill", target=uid(target))


# --- PARTY-05/06: the introduction night -----------------------------------------------------------
def test_PARTY_05_mafiosi_learn_each_other_on_night_1():
    t = started_game(9, "TMTMCDTMT")
    t.ready_all()
    (intro,) = t.events(MafiaRevealed)
    assert intro.members == (uid(2), uid(4), uid(8))
    assert intro.audience == TeamChat(Team.MAFIA)
    town = {uid(s) for s in (1, 3, 5, 6, 7, 9)}
    for e in t.events():
        if isinstance(e.audience, Private) and e.audience.user_id in town:
            assert getattr(e, "user_id", None) == e.audience.user_id  # only his own card


def test_PARTY_06_nobody_kills_checks_or_heals_on_night_1():
    t = started_game(7, ROLES7)
    t.ready_all()
    assert t.phase is Phase.NIGHT and t.state.night == 1
    for seat in range(1, 8):
        la = legal_actions(t.state, uid(seat))
        assert la.night_action is None and la.night_targets == () and la.sleep
    t.refuse(kill_pick(1, 5), NoNightAction)
    t.refuse(NightAction(user_id=uid(3), action="check", target=uid(1)), NoNightAction)
    t.refuse(NightAction(user_id=uid(4), action="heal", target=uid(4)), NoNightAction)
    t.night()
    assert t.events(NightResult) == [NightResult(killed=None)]
    assert t.alive_seats() == list(range(1, 8)) and t.phase is Phase.SPEECH


# --- PARTY-25/26, Q11, X05: the mafia's kill ------------------------------------------------------
def test_PARTY_25_the_agreed_target_is_killed():
    t = game_at_night(7, ROLES7)
    t.do(kill_pick(1, 5))
    t.do(kill_pick(1, 6))               # picks may change until the night closes
    (_, picks) = t.do(kill_pick(2, 6))
    assert picks == MafiaPicks(picks=((uid(1), uid(6)), (uid(2), uid(6))), agreed=uid(6))
    t.night()                           # the others sleep: the night closes at once
    assert t.events(NightResult)[-1] == NightResult(killed=uid(6))
    assert t.events(PlayerEliminated)[-1] == PlayerEliminated(user_id=uid(6), cause="night")


def test_PARTY_26_no_agreement_no_kill():
    t = game_at_night(7, ROLES7)
    t.do(kill_pick(1, 5))
    t.do(kill_pick(2, 6))
    t.night(close=False)
    assert t.phase is Phase.NIGHT       # the night waits for an agreement ...
    t.timeout()                         # ... until its deadline
    assert t.events(NightResult)[-1] == NightResult(killed=None)
    assert t.alive_seats() == list(range(1, 8))


def test_PARTY_Q11_mafia_keyboard_and_live_picks():
    t = game_at_night(7, ROLES7)
    la = legal_actions(t.state, uid(1))
    assert la.night_action == "kill" and not la.sleep
    assert la.night_targets == tuple(uid(s) for s in range(1, 8))   # teammates and himself too
    (accepted, picks) = t.do(kill_pick(1, 2))
    assert accepted.audience == Private(uid(1))
    assert picks.audience == TeamChat(Team.MAFIA) and picks.agreed is None
    assert legal_actions(t.state, uid(1)).night_action == "kill"    # may change his pick


def test_PARTY_Q11_an_inactive_mafioso_does_not_block_the_kill():
    t = game_at_night(7, ROLES7)
    t.do(MarkInactive(player=uid(2), reason="blocked"))
    t.night(kill={1: 5})
    assert t.events(NightResult)[-1].killed == uid(5)


def test_PARTY_Q11_no_kill_when_every_mafioso_is_inactive():
    t = game_at_night(7, ROLES7)
    t.do(MarkInactive(player=uid(1), reason="blocked"))
    t.do(MarkInactive(player=uid(2), reason="left"))
    t.night(close=False)
    assert t.phase is Phase.SPEECH      # nothing left to wait for
    assert t.events(NightResult)[-1] == NightResult(killed=None)


def test_PARTY_Q11_relay_between_living_mafiosi_at_night():
    t = game_at_night(7, ROLES7)
    (msg,) = t.do(RelayMessage(user_id=uid(1), text="x" * 1500))
    assert msg == RelayedMessage(sender=uid(1), text="x" * 1000)
    assert msg.audience == TeamChat(Team.MAFIA)
    t.refuse(RelayMessage(user_id=uid(5), text="hi"), NotAllowed)
    t.night()
    t.refuse(RelayMessage(user_id=uid(1), text="by day"), PhaseClosed)


def test_PARTY_Q24_dead_mafioso_is_cut_from_the_relay():
    t = game_at_day(7, ROLES7)
    eliminate_by_vote(t, 2)
    t.to_night(2)
    t.refuse(RelayMessage(user_id=uid(2), text="psst"), PlayerDead)
    t.do(RelayMessage(user_id=uid(1), text="alone"))


def test_PARTY_X05_mafia_pick_must_be_a_living_player():
    t = game_at_day(7, ROLES7)
    eliminate_by_vote(t, 7)
    t.to_night(2)
    t.refuse(kill_pick(1, 7), TargetNotAlive)
    t.refuse(NightAction(user_id=uid(1), action="kill", target=None), TargetNotAlive)
    t.refuse(NightAction(user_id=uid(1), action="kill", target=12345), TargetNotAlive)
    t.refuse(NightAction(user_id=uid(5), action="kill", target=uid(6)), NoNightAction)
    t.refuse(NightAction(user_id=uid(1), action="heal", target=uid(1)), NoNightAction)
    t.refuse(NightAction(user_id=uid(1), action="sleep"), NoNightAction)
    t.refuse(NightAction(user_id=uid(5), action="dance"), NoNightAction)
    assert uid(7) not in legal_actions(t.state, uid(1)).night_targets


# --- PARTY-27, Q12, X04: the Commissar --------------------------------------------------------------
def test_PARTY_27_commissar_learns_mafia_or_not_privately():
    t = game_at_night(7, ROLES7)
    events = t.do(NightAction(user_id=uid(3), action="check", target=uid(2)))
    (res,) = [e for e in events if isinstance(e, CheckResult)]
    assert res == CheckResult(checker=uid(3), target=uid(2), is_mafia=True,
                              audience=Private(uid(3)))
    assert all(e.audience != PUBLIC for e in events)
    t.night()
    t.to_night(3)
    events = t.do(NightAction(user_id=uid(3), action="check", target=uid(4)))
    assert [e for e in events if isinstance(e, CheckResult)][0].is_mafia is False


def test_PARTY_X04_check_result_is_sent_at_once():
    t = game_at_night(7, ROLES7)
    m = t.mark()
    t.do(NightAction(user_id=uid(3), action="check", target=uid(1)))
    assert t.phase is Phase.NIGHT and t.events(CheckResult, m)   # before the night is over


def test_PARTY_Q12_commissar_targets_any_other_living_player_rechecks_allowed():
    t = game_at_night(7, ROLES7)
    assert uid(3) not in legal_actions(t.state, uid(3)).night_targets
    t.refuse(NightAction(user_id=uid(3), action="check", target=uid(3)), InvalidTarget)
    t.do(NightAction(user_id=uid(3), action="check", target=uid(5)))
    t.refuse(NightAction(user_id=uid(3), action="check", target=uid(6)), AlreadyActed)
    t.night()
    t.to_night(3)
    t.do(NightAction(user_id=uid(3), action="check", target=uid(5)))   # the same player again


# --- PARTY-28/29, Q10, Q13: the Doctor and the resolution order ------------------------------------
def test_PARTY_28_doctor_saves_the_mafia_target():
    t = game_at_night(7, ROLES7)
    t.night(kill=6, heal=6)
    assert t.events(NightResult)[-1] == NightResult(killed=None, saved=False)
    assert 6 in t.alive_seats() and t.phase is Phase.SPEECH


def test_PARTY_29_doctor_heals_himself_and_repeats_targets():
    t = game_at_night(7, ROLES7)
    t.night(kill=4, heal=4)
    t.to_night(3)
    t.night(kill=4, heal=4)
    assert [e.killed for e in t.events(NightResult)] == [None, None, None]
    t.to_night(4)
    t.night(kill=5, heal=5)
    t.to_night(5)
    t.night(kill=5, heal=5)
    assert 5 in t.alive_seats() and 4 in t.alive_seats()


def test_PARTY_Q10_simultaneous_night_protect_kill_check():
    t = game_at_night(7, ROLES7)
    t.night(kill=3, check=1, heal=5)
    assert t.events(CheckResult)[-1].is_mafia is True   # the killed Commissar still learns
    assert t.events(NightResult)[-1].killed == uid(3)
    t2 = game_at_night(7, ROLES7)
    t2.night(kill=4, heal=4)                             # the Doctor protects himself
    assert t2.events(NightResult)[-1].killed is None


def test_PARTY_Q13_a_save_is_announced_only_if_the_group_wants():
    t = game_at_night(7, ROLES7, settings={"options": {"announce_save": True}})
    t.night(kill=6, heal=6)
    assert t.events(NightResult)[-1] == NightResult(killed=None, saved=True)
    t.to_night(3)
    t.night(kill=6, heal=5)
    assert t.events(NightResult)[-1] == NightResult(killed=uid(6), saved=False)


# --- PARTY-30, Q15: the night victim speaks first ----------------------------------------------------
def test_PARTY_30_night_victim_gets_a_last_word_before_the_speeches():
    t = game_at_night(7, ROLES7)
    m = t.mark()
    t.night(kill=6)
    starts = [(e.phase, e.speaker) for e in t.events(PhaseStarted, m)]
    assert starts == [("last_word", uid(6))]
    t.end_turn()
    assert t.phase is Phase.SPEECH and t.speaker == 2


def test_PARTY_Q15_inactive_victim_last_word_skipped():
    t = game_at_night(7, ROLES7)
    t.do(MarkInactive(player=uid(6), reason="blocked"))
    t.night(kill=6, sleep_skip=(6,))
    assert t.phase is Phase.SPEECH and not t.state.players[uid(6)].alive


# --- PARTY-37/39, Q14, X01/X03: readiness and closing the night ------------------------------------
def test_PARTY_37_everyone_ready_before_each_night():
    t = started_game(7, ROLES7)
    assert t.phase is Phase.READY and t.events(PhaseStarted)[-1].purpose == "intro"
    for seat in range(1, 7):
        (e,) = t.do(MarkReady(user_id=uid(seat)))
        assert isinstance(e, ReadyMarked) and e.total == 7
    assert e.waiting == (uid(7),) and t.phase is Phase.READY
    t.refuse(MarkReady(user_id=uid(6)), AlreadyActed)
    t.do(MarkReady(user_id=uid(7)))
    assert t.phase is Phase.NIGHT
    t.to_ready(2)
    assert t.events(PhaseStarted)[-1].purpose == "night"
    t.refuse(kill_pick(1, 5), PhaseClosed)   # no night keyboard before everyone is ready


def test_PARTY_37_inactive_players_are_not_awaited():
    t = started_game(7, ROLES7)
    t.ready_all(skip=(7,))
    t.do(MarkInactive(player=uid(7), reason="blocked"))
    assert t.phase is Phase.NIGHT


def test_PARTY_Q14_host_mode_next_replaces_readiness():
    t = started_game(5, "MCDTT", host=True)
    assert t.phase is Phase.READY and t.state.timer is None
    t.ready_all(skip=(5,))
    t.do(MarkReady(user_id=uid(5)))
    assert t.phase is Phase.READY            # only the host moves on
    t.refuse(HostNext(user_id=uid(1)), NotAllowed)
    t.do(HostNext(user_id=HOST))
    assert t.phase is Phase.NIGHT
    t.night()
    t.speeches()
    t.do(HostNext(user_id=HOST))             # nobody tapped Ready: no missed deadline
    assert all(p.misses == 0 and p.active for p in t.state.seated())


def test_PARTY_39_continue_after_two_minutes_of_waiting():
    t = started_game(7, ROLES7)
    t.ready_all(skip=(7,))
    assert not legal_actions(t.state, uid(2)).continue_
    t.refuse(Continue(user_id=uid(2)), PhaseClosed)
    (avail,) = t.timeout()
    assert avail == ContinueAvailable(timer_seq=t.state.timer.seq, seconds=120)
    assert legal_actions(t.state, uid(2)).continue_
    t.do(Continue(user_id=uid(2)))
    assert t.phase is Phase.NIGHT
    assert t.state.players[uid(7)].misses == 1


def test_PARTY_39_paused_time_does_not_count():
    t = started_game(7, ROLES7)
    t.do(Pause(user_id=uid(1), remaining=30))
    t.do(Resume(user_id=uid(1)))
    assert (t.state.timer.kind, t.state.timer.seconds) == ("ready_wait", 30)
    t.refuse(Continue(user_id=uid(2)), PhaseClosed)
    t.timeout()
    t.do(Continue(user_id=uid(2)))
    assert t.phase is Phase.NIGHT


def test_PARTY_39_the_dead_cannot_continue():
    t = game_at_day(7, ROLES7)
    eliminate_by_vote(t, 6)
    t.timeout()
    t.refuse(Continue(user_id=uid(6)), PlayerDead)


def test_PARTY_X01_second_wait_starts_the_night_by_itself():
    t = started_game(7, ROLES7)
    t.ready_all(skip=(6, 7))
    t.timeout()                               # Continue becomes available
    assert t.state.timer.kind == "ready_grace" and t.state.timer.seconds == 120
    m = t.mark()
    t.timeout()                               # nobody pressed it
    assert t.phase is Phase.NIGHT
    assert [t.state.players[uid(s)].misses for s in (5, 6, 7)] == [0, 1, 1]
    assert not t.events(PlayerInactive, m)


def test_PARTY_X03_night_closes_when_every_living_active_player_submitted():
    t = game_at_night(7, ROLES7)
    t.do(kill_pick(1, 6))
    t.do(kill_pick(2, 6))
    t.do(NightAction(user_id=uid(3), action="sleep"))   # Commissar skips
    t.do(NightAction(user_id=uid(4), action="sleep"))   # Doctor skips
    t.refuse(NightAction(user_id=uid(4), action="heal", target=uid(6)), AlreadyActed)
    for seat in (5, 7):
        t.do(NightAction(user_id=uid(seat), action="sleep"))
    assert t.phase is Phase.NIGHT                        # seat 6 has not tapped Sleep
    t.do(NightAction(user_id=uid(6), action="sleep"))
    assert t.events(NightResult)[-1].killed == uid(6)


def test_PARTY_Q23_every_living_player_gets_a_night_tap():
    t = game_at_night(7, ROLES7)
    for seat in range(1, 8):
        la = legal_actions(t.state, uid(seat))
        assert la.sleep or la.night_action


# --- PARTY-Q20 (c), X12: missed deadlines ----------------------------------------------------------
def test_PARTY_Q20_two_missed_deadlines_in_a_row_make_a_player_inactive():
    t = started_game(7, ROLES7)
    t.ready_all(skip=(7,))
    t.timeout()
    t.do(Continue(user_id=uid(1)))            # miss 1: readiness
    m = t.mark()
    t.night(sleep_skip=(7,))                  # miss 2: the night's Sleep
    assert t.events(PlayerInactive, m) == [PlayerInactive(user_id=uid(7), reason="missed")]
    p = t.state.players[uid(7)]
    assert p.alive and not p.active


def test_PARTY_Q20_acting_resets_the_count():
    t = started_game(7, ROLES7)
    t.ready_all(skip=(7,))
    t.timeout()
    t.do(Continue(user_id=uid(1)))
    t.night()                                 # seat 7 sleeps: back to 0
    assert t.state.players[uid(7)].misses == 0
    t.speeches()
    t.ready_all(skip=(7,))
    t.timeout()
    t.do(Continue(user_id=uid(1)))
    assert t.state.players[uid(7)].active and t.state.players[uid(7)].misses == 1


def test_PARTY_X12_a_mafioso_dropped_at_the_close_does_not_block_the_kill():
    t = game_at_day(7, ROLES7)
    t.speeches()
    t.ready_all(skip=(2,))
    t.timeout()
    t.do(Continue(user_id=uid(1)))            # mafioso 2 missed the ready gate
    t.night(kill={1: 6}, sleep_skip=(2,))     # ... and the night: inactive at the close
    assert t.events(NightResult)[-1].killed == uid(6)
    t2 = game_at_night(7, ROLES7)
    t2.night(kill={1: 6})                     # a first miss: still active, no agreement
    assert t2.events(NightResult)[-1].killed is None
