"""Group chat discipline, the pure policy: ``bot.services.discipline.may_write`` per preset and
phase (CLUB-06/14/37, ONLINE-35/38, ONLINE-Q18; party games are the honour system)."""

from __future__ import annotations

import pytest

from bot.services.discipline import may_write
from engine import GameState, OnlinePhase, Phase, Player, Role
from engine.core.state import PauseState, Timer

HOST, ORGANISER, ONLOOKER = 900, 901, 902


def table(ruleset: str, phase: Phase, speaker: int | None = None, **kw) -> GameState:
    """Seats 1..6 (user ids 1..6), seat 6 eliminated; ``phase`` running."""
    st = GameState(ruleset=ruleset, organiser=ORGANISER, settings={}, timings={}, options={},
                   host=HOST, phase=phase, speaker=speaker, **kw)
    for uid in range(1, 7):
        st.players[uid] = Player(user_id=uid, name=f"P{uid}", seat=uid, role=Role.CIVILIAN,
                                 alive=uid != 6)
    return st


def writers(st: GameState) -> set[int]:
    return {u for u in (*range(1, 7), HOST, ORGANISER, ONLOOKER) if may_write(st, u, st.ruleset)}


LIVING, EVERYONE, STAFF = {1, 2, 3, 4, 5}, {1, 2, 3, 4, 5, 6, HOST, ORGANISER, ONLOOKER}, \
    {HOST, ORGANISER}


@pytest.mark.parametrize("phase", list(Phase))
def test_party_is_the_honour_system_in_every_phase(phase):
    assert writers(table("party", phase, speaker=2)) == EVERYONE


@pytest.mark.parametrize("phase, speaker, expected", [
    (Phase.SPEECH, 2, {2} | STAFF),  # CLUB-14: only the speaker
    (Phase.DEFENCE, 3, {3} | STAFF),
    (Phase.LAST_WORD, 6, {6} | STAFF),  # the eliminated speaker's last word
    (Phase.VOTING, None, STAFF),  # nobody during the vote
    (Phase.EXCLUDE_VOTE, None, STAFF),
    (Phase.NIGHT, None, STAFF),  # CLUB-06: nobody at night
    (Phase.READY, None, STAFF),
    (Phase.LOBBY, None, EVERYONE),
    (Phase.ENDED, None, EVERYONE),
])
def test_CLUB_06_14_who_may_write(phase, speaker, expected):
    assert writers(table("club", phase, speaker)) == expected


def test_CLUB_37_a_nomination_only_turn_is_silent():
    st = table("club", Phase.SPEECH, speaker=2, timer=Timer(seq=1, seconds=10, kind="silenced"))
    assert writers(st) == STAFF


def test_a_pause_opens_the_chat_to_the_living_only():
    for ruleset in ("club", "online"):
        st = table(ruleset, Phase.NIGHT, pause=PauseState(by=1, reason="pause", frozen_kind="night",
                                                          frozen_remaining=30))
        assert writers(st) == LIVING | STAFF


@pytest.mark.parametrize("phase, speaker, expected", [
    (OnlinePhase.DISCUSSION, None, LIVING | STAFF),  # ONLINE-Q18: the day is open to the living
    (Phase.NIGHT, None, STAFF),  # ONLINE-38
    (Phase.DEFENCE, 4, {4} | STAFF),  # ONLINE-35/Q11: the candidate whose sub-phase it is
    (OnlinePhase.REVOTE, None, STAFF),
    (OnlinePhase.LIFT_VOTE, None, STAFF),
    (OnlinePhase.BEST_MOVE, 6, STAFF),
    (Phase.LAST_WORD, 6, {6} | STAFF),
])
def test_ONLINE_Q18_who_may_write(phase, speaker, expected):
    assert writers(table("online", phase, speaker)) == expected


def test_an_unknown_phase_lets_the_living_write():
    st = table("online", OnlinePhase.DISCUSSION)
    st.phase = "some_phase_added_later"
    assert writers(st) == LIVING | STAFF
    st.ruleset = "club"
    assert writers(st) == LIVING | STAFF


def test_a_seated_organiser_follows_the_players_rules():
    st = table("club", Phase.NIGHT)
    st.organiser = 3
    assert not may_write(st, 3, "club")
    st.players[3].alive = False
    st.phase, st.speaker = Phase.SPEECH, 2
    assert not may_write(st, 3, "club")
