"""The judge's record of a club game (``bot/games/club/record.py``, issue 21 part 6) on
hand-built events: the checks with their night, today's protocol with a nomination taken back
and put back by Undo, an undone disqualification leaving no trace, how and when seats left."""

from __future__ import annotations

from bot.games.club.console import protocol_line
from bot.games.club.record import record
from engine import GameState, Phase, Player, Role
from engine.club.state import ClubState


def table() -> GameState:
    st = GameState(ruleset="club", organiser=1, settings={}, timings={}, options={},
                   phase=Phase.SPEECH, day=2, night=2, club=ClubState(fouls={4: 3}))
    for uid in range(1, 11):
        st.players[uid] = Player(user_id=uid, name=f"P{uid}", seat=uid, role=Role.CIVILIAN,
                                 alive=uid not in (7, 8))
    st.nominations = [5]
    st.nominated_by = {5: 2}
    return st


def phase(name: str, day: int, night: int) -> dict:
    return {"type": "PhaseStarted", "phase": name, "day": day, "night": night, "phase_seq": 0,
            "timer_seq": None, "seconds": None}


EVENTS = [
    phase("night", 0, 1),
    {"type": "CheckResult", "checker": 3, "target": 1, "is_mafia": True},
    {"type": "DonCheckResult", "checker": 1, "target": 3, "is_sheriff": True},
    phase("speech", 1, 1),
    {"type": "NominationAccepted", "by": 1, "target": 8, "candidates": [8]},
    {"type": "NominationAccepted", "by": 6, "target": 9, "candidates": [8, 9]},
    {"type": "VoteResult", "tally": [[8, [1, 2, 3, 4, 5, 6]], [9, [7, 9, 10]]], "leaders": [8]},
    {"type": "PlayerEliminated", "user_id": 8, "cause": "vote"},
    phase("night", 1, 2),
    {"type": "NightResult", "killed": 7},
    {"type": "PlayerEliminated", "user_id": 7, "cause": "night"},
    phase("speech", 2, 2),
    {"type": "NominationAccepted", "by": 1, "target": 6, "candidates": [6]},
    {"type": "NominationUndone", "target": 6, "nominator": 1, "by": 99, "candidates": []},
    {"type": "NominationAccepted", "by": 2, "target": 5, "candidates": [5]},
    {"type": "PlayerEliminated", "user_id": 9, "cause": "disqualified"},
    {"type": "JudgeActionUndone", "action": "disqualification", "player": 9, "by": 99},
]


def test_the_record_per_seat_and_the_days_protocol():
    st = table()
    rec = record(st, EVENTS)
    seats = {s.seat: s for s in rec.seats}
    assert (seats[8].left, seats[8].when) == ("voted", ("day", 1))
    assert (seats[7].left, seats[7].when) == ("killed", ("night", 2))
    assert seats[9].alive and seats[9].left is None  # the undone disqualification left nothing
    assert seats[5].nominated_by == 2 and seats[6].nominated_by is None
    assert seats[4].fouls == 3
    assert rec.checks == [
        {"night": 1, "kind": "mafia", "checker": 3, "target": 1, "result": True},
        {"night": 1, "kind": "sheriff", "checker": 1, "target": 3, "result": True}]
    assert rec.day == 2
    assert rec.protocol == [("nom", 2, 5)]  # №6's nomination was taken back; №9 is back


def test_undo_puts_a_removed_nomination_back_in_its_place_and_votes_are_counted():
    st = table()
    st.nominations, st.nominated_by = [6, 5], {6: 1, 5: 2}
    events = [*EVENTS[:-4], {"type": "NominationAccepted", "by": 2, "target": 5, "candidates": [6, 5]},
              {"type": "NominationUndone", "target": 6, "nominator": 1, "by": 99, "candidates": [5]},
              {"type": "JudgeActionUndone", "action": "nomination", "player": 6, "by": 99},
              {"type": "VoteResult", "tally": [[6, [1, 2]], [5, [3]]], "leaders": [6]}]
    rec = record(st, events)
    assert rec.protocol[:2] == [("nom", 1, 6), ("nom", 2, 5)]
    seats = {s.seat: s for s in rec.seats}
    assert (seats[6].votes, seats[5].votes, seats[4].votes) == (2, 1, None)
    _ = str
    assert protocol_line(_, rec.protocol[2]) == "🗳 №6: 2 (№1, №2); №5: 1 (№3)"
    assert protocol_line(_, ("out", 8, "voted")) == "🚪 №8 voted out"


def test_yesterdays_protocol_is_not_todays():
    st = table()
    st.day = 3
    rec = record(st, EVENTS)
    assert rec.day == 0 and rec.protocol == [] and all(s.nominated_by is None for s in rec.seats)
