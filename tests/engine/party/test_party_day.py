"""Party preset: speeches, nominations and defences (docs/rules/party.md)."""

from __future__ import annotations

from engine import (
    AlreadyNominated,
    DayWithoutElimination,
    DuplicateNomination,
    EndSpeech,
    MarkActive,
    MarkInactive,
    Nominate,
    NominationAccepted,
    NotYourTurn,
    Phase,
    PhaseClosed,
    PhaseStarted,
    PhaseTimeout,
    PlayerEliminated,
    TargetNotAlive,
    TurnSkipped,
    VoteWindowOpened,
    legal_actions,
)

from ..helpers import HOST, eliminate_by_vote, game_at_day, started_game, uid


def speakers(t, phase=Phase.SPEECH, since=0):
    """Seats given the floor in ``phase`` (in order) by the events since ``since``."""
    return [t.state.players[e.speaker].seat for e in t.events(PhaseStarted, since)
            if e.phase == phase.value]


# --- PARTY-07, Q02, X06: seat order and the opener -----------------------------------------------
def test_PARTY_07_speeches_in_seat_order_only_the_living_speak():
    t = game_at_day(7, "MMCDTTT")
    eliminate_by_vote(t, 3)          # day 1: seat 3 leaves
    t.to_night(2)
    t.night()                        # nobody killed
    assert t.phase is Phase.SPEECH and t.state.day == 2
    m = t.mark() - 1
    t.speeches()
    assert speakers(t, since=m) == [2, 4, 5, 6, 7, 1]  # day 2 opens with seat 2; seat 3 is out


def test_PARTY_Q02_day_1_opens_with_seat_1_later_days_rotate():
    t = started_game(7, "MMCDTTT")
    openers = []
    for day in (1, 2, 3):
        t.to_day(day)
        openers.append(t.speaker)
    assert openers == [1, 2, 3]


def test_PARTY_Q02_opener_skips_dead_seats():
    t = game_at_day(8, "TTCDTTMM")
    eliminate_by_vote(t, 2)              # day 1 (opener 1): seat 2 leaves
    t.to_day(2)
    assert t.speaker == 3                # the next living seat after 1
    t.speeches()
    t.to_night(3)
    t.night(kill=4)                      # seat 4 dies at night 3
    t.last_words()
    assert t.state.day == 3 and t.speaker == 5


def test_PARTY_Q02_opener_wraps_around():
    t = started_game(5, "MCDTT")
    openers = []
    for day in range(1, 8):
        t.to_day(day)
        openers.append(t.speaker)
    assert openers == [1, 2, 3, 4, 5, 1, 2]


def test_PARTY_X06_day_follows_the_night_with_the_same_number():
    t = started_game(5, "MCDTT")
    assert (t.state.day, t.state.night, t.phase) == (0, 1, Phase.READY)
    t.ready_all()
    assert (t.state.day, t.state.night, t.phase) == (0, 1, Phase.NIGHT)
    t.night()
    assert (t.state.day, t.state.night, t.phase) == (1, 1, Phase.SPEECH)
    t.speeches()
    assert (t.state.day, t.state.night, t.phase) == (1, 2, Phase.READY)
    t.ready_all()
    t.night()
    assert (t.state.day, t.state.night) == (2, 2)


# --- PARTY-08/09, Q03: nominations ---------------------------------------------------------------
def test_PARTY_08_one_nomination_per_speech_self_included():
    t = game_at_day(7, "MMCDTTT")
    events = t.do(Nominate(user_id=uid(1), target=uid(1)))
    assert events == [NominationAccepted(by=uid(1), target=uid(1), candidates=(uid(1),))]
    t.refuse(Nominate(user_id=uid(1), target=uid(4)), AlreadyNominated)
    assert legal_actions(t.state, uid(1)).nominate == ()
    t.end_turn()
    assert uid(1) not in legal_actions(t.state, uid(2)).nominate  # already on the ballot
    t.do(Nominate(user_id=uid(2), target=uid(4)))
    assert t.state.nominations == [uid(1), uid(4)]


def test_PARTY_08_only_the_speaker_nominates_and_only_the_living():
    t = game_at_day(7, "MMCDTTT")
    eliminate_by_vote(t, 6)
    t.to_day(2)
    assert t.speaker == 2
    t.refuse(Nominate(user_id=uid(3), target=uid(4)), NotYourTurn)
    t.refuse(Nominate(user_id=HOST, target=uid(4)), NotYourTurn)
    t.refuse(Nominate(user_id=uid(2), target=uid(6)), TargetNotAlive)
    t.refuse(Nominate(user_id=uid(2), target=999), TargetNotAlive)
    assert uid(6) not in legal_actions(t.state, uid(2)).nominate
    assert legal_actions(t.state, uid(3)).nominate == ()


def test_PARTY_09_an_accepted_nomination_is_final():
    t = game_at_day(7, "MMCDTTT")
    t.end_turn()
    t.end_turn()
    t.do(Nominate(user_id=uid(3), target=uid(5)))
    t.refuse(Nominate(user_id=uid(3), target=uid(6)), AlreadyNominated)
    assert t.state.nominations == [uid(5)]


def test_PARTY_Q03_duplicate_refused_and_the_speaker_may_still_nominate():
    t = game_at_day(7, "MMCDTTT")
    t.do(Nominate(user_id=uid(1), target=uid(5)))
    t.end_turn()
    t.refuse(Nominate(user_id=uid(2), target=uid(5)), DuplicateNomination)
    t.do(Nominate(user_id=uid(2), target=uid(6)))
    assert t.state.nominations == [uid(5), uid(6)]


def test_PARTY_Q03_no_nominations_in_defence_or_last_word():
    t = game_at_day(7, "MMCDTTT")
    t.speeches({1: 5, 2: 6})
    assert t.phase is Phase.DEFENCE and t.speaker == 5
    t.refuse(Nominate(user_id=uid(5), target=uid(1)), PhaseClosed)
    assert legal_actions(t.state, uid(5)).nominate == ()
    t.defences()
    t.vote({1: 5, 2: 5, 3: 5})
    assert t.phase is Phase.LAST_WORD and t.speaker == 5
    t.refuse(Nominate(user_id=uid(5), target=uid(1)), PhaseClosed)


# --- PARTY-10..13, Q04/Q05: defences and what follows the speeches --------------------------------
def test_PARTY_10_defences_in_nomination_order_nominees_only():
    t = game_at_day(7, "MMCDTTT")
    m = t.mark()
    t.speeches({1: 5, 3: 2})
    t.defences()
    assert speakers(t, Phase.DEFENCE, m) == [5, 2]
    assert t.phase is Phase.VOTING


def test_PARTY_Q04_inactive_nominee_skipped_but_stays_a_candidate():
    t = game_at_day(7, "MMCDTTT")
    t.speeches({1: 5, 3: 2})
    assert t.speaker == 5
    t.do(MarkInactive(player=uid(2), reason="blocked"))
    m = t.mark()
    t.end_turn()
    assert TurnSkipped(user_id=uid(2)) in t.events(since=m)
    assert t.phase is Phase.VOTING and t.state.vote.candidates == [uid(5), uid(2)]


def test_PARTY_11_sole_nominee_leaves_without_a_vote_on_day_1():
    """PARTY-Q05: on day 1 too -- the party preset differs from the club preset on purpose."""
    t = game_at_day(7, "MMCDTTT")
    m = t.mark()
    t.speeches({2: 4})
    t.defences()
    assert PlayerEliminated(user_id=uid(4), cause="sole_nominee") in t.events(since=m)
    assert not t.events(VoteWindowOpened, m)
    assert t.phase is Phase.LAST_WORD and t.speaker == 4
    assert not t.state.players[uid(4)].alive


def test_PARTY_11_sole_nominee_on_a_later_day():
    t = game_at_day(7, "MMCDTTT", day=2)
    t.speeches({3: 7})
    t.defences()
    assert t.events(PlayerEliminated)[-1] == PlayerEliminated(user_id=uid(7), cause="sole_nominee")


def test_PARTY_12_two_nominees_go_to_a_vote_after_both_defences():
    t = game_at_day(7, "MMCDTTT")
    t.speeches({1: 2, 2: 6})
    assert t.phase is Phase.DEFENCE
    t.end_turn()
    assert t.phase is Phase.DEFENCE and t.speaker == 6
    t.end_turn()
    assert t.phase is Phase.VOTING and t.state.vote.candidates == [uid(2), uid(6)]


def test_PARTY_13_no_nominees_no_vote_night_falls():
    t = game_at_day(7, "MMCDTTT")
    m = t.mark()
    t.speeches()
    assert t.events(DayWithoutElimination, m) == [DayWithoutElimination(reason="no_nominations")]
    assert not t.events(VoteWindowOpened, m)
    assert t.phase is Phase.READY and t.state.night == 2
    assert not any(e.phase == Phase.DEFENCE.value for e in t.events(PhaseStarted, m))


# --- PARTY-35/36/38: ending a turn, no readiness by day ------------------------------------------
def test_PARTY_35_end_speech_moves_on_at_once_and_the_old_deadline_is_a_no_op():
    t = game_at_day(7, "MMCDTTT")
    old = t.state.timer.seq
    t.do(EndSpeech(user_id=uid(1)))
    assert t.speaker == 2 and t.state.timer.seq != old
    before = t.state
    assert t.do(PhaseTimeout(timer_seq=old)) == []
    assert t.speaker == 2 and t.state.timer == before.timer and t.state.phase_seq == before.phase_seq


def test_PARTY_35_end_speech_in_defence_and_last_word():
    t = game_at_day(7, "MMCDTTT")
    t.speeches({1: 5})
    t.do(EndSpeech(user_id=uid(5)))         # defence
    assert t.phase is Phase.LAST_WORD and t.speaker == 5
    t.do(EndSpeech(user_id=uid(5)))         # last word of an eliminated player
    assert t.phase is Phase.READY


def test_PARTY_36_only_the_speaker_ends_the_speech():
    t = game_at_day(7, "MMCDTTT")
    t.refuse(EndSpeech(user_id=uid(5)), NotYourTurn)
    t.refuse(EndSpeech(user_id=None), NotYourTurn)
    assert not legal_actions(t.state, uid(5)).end_speech
    assert legal_actions(t.state, uid(1)).end_speech


def test_PARTY_36_the_host_may_end_any_turn():
    t = game_at_day(5, "MCDTT", host=True)
    t.do(EndSpeech(user_id=HOST))
    assert t.speaker == 2
    assert legal_actions(t.state, HOST).end_speech


def test_PARTY_38_speeches_defences_and_votes_need_no_readiness():
    t = game_at_day(7, "MMCDTTT")
    m = t.mark()
    t.speeches({1: 5, 2: 6})
    t.defences()
    t.vote({1: 5, 2: 5, 3: 5, 4: 6})
    t.last_words()
    phases = [e.phase for e in t.events(PhaseStarted, m)]
    assert phases[:-1] == ["speech"] * 6 + ["defence"] * 2 + ["voting", "last_word"]
    assert phases[-1] == "ready"     # the only ready gate: before the night


# --- PARTY-42: inactive speakers are skipped ------------------------------------------------------
def test_PARTY_42_inactive_player_turn_is_skipped():
    t = game_at_day(7, "MMCDTTT")
    t.do(MarkInactive(player=uid(2), reason="left"))
    m = t.mark()
    t.end_turn()
    assert TurnSkipped(user_id=uid(2), reason="inactive") in t.events(since=m)
    assert t.speaker == 3


def test_PARTY_42_speaker_dropping_out_loses_the_floor_at_once():
    t = game_at_day(7, "MMCDTTT")
    t.do(MarkInactive(player=uid(1), reason="blocked"))
    assert t.speaker == 2
    t.do(MarkActive(user_id=uid(1)))      # coming back does not give the turn back
    assert t.speaker == 2
