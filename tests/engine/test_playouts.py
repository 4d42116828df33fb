"""Seeded random playouts: > 1,000 party games and 504 club games checked against the engine's
invariants.

Each case (table size x host mode) plays ``GAMES`` seeded games through :mod:`.playout`, a third
of them calm, a third with some chaos and a third with a lot (lost connections, pauses, stale
timers, forged commands, take-overs).  4 players are refused at StartGame; 5..12 play to the end.
Every game must end with exactly one GameEnded that matches the final state, replay exactly from
its JSON-serialized log, and keep every secret: no public event names a role before the end, no
private event reaches an eliminated player.  Per step (inside the playout): every command built
from ``legal_actions`` is accepted, the dead never act, nobody comes back to life.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine import (
    CheckResult,
    DayWithoutElimination,
    DonCheckResult,
    ExcludeVoteResult,
    FoulCancelled,
    FoulIssued,
    GameCancelled,
    GameEnded,
    HostAssigned,
    HostModeEnded,
    HostNext,
    MafiaPicks,
    NightActionAccepted,
    NightResult,
    NotEnoughPlayers,
    Phase,
    PhaseStarted,
    PhaseTimeout,
    PlayerEliminated,
    Private,
    RelayedMessage,
    Role,
    Team,
    TieRevote,
    VictoryDeclared,
    VoteResult,
    VoteWindowOpened,
    command_from_dict,
    replay,
    to_dict,
)
from engine.mafia.flow import winner

from .playout import Playout, leaks_role, play

GAMES = 64                  # per case: 9 sizes x 2 modes x 64 = 1,152 games (1,024 played)
CHAOS = (0.0, 0.05, 0.25)


def seed_of(n: int, host: bool, i: int) -> int:
    return n * 10_000 + host * 1_000 + i


def check_game(po: Playout) -> Counter:
    """All end-of-game invariants; returns a count of notable events for the coverage check."""
    st = po.final
    flat = [e for _, e in po.events]
    if st.phase is Phase.CANCELLED:  # PARTY-X23: everybody went inactive
        assert isinstance(flat[-1], GameCancelled) and flat[-1].reason == "abandoned"
        assert not st.alive_active() and not [e for e in flat if isinstance(e, GameEnded)]
        state, _ = replay(po.log)
        assert state == st
        return Counter({"abandoned": 1})
    assert st.over and st.phase is Phase.ENDED, f"unfinished game in {st.phase}"

    # exactly one GameEnded, the very last event, matching the final state
    ends = [(i, e) for i, e in po.events if isinstance(e, GameEnded)]
    assert len(ends) == 1
    i, end = ends[0]
    assert i == len(po.log) - 1 and flat[-1] is end
    assert end.winner is st.winner is winner(st) is not None
    assert end.roles == tuple((p.seat, p.user_id, p.role) for p in st.seated())
    assert end.days == st.day

    # secrets: nothing public names a role (the forum: see leaks_role); the eliminated get no
    # private event (the forum: until the win -- they take part in the after-game); picks of
    # the living mafiosi only
    assert not [e for e in flat if leaks_role(e, st.ruleset)]
    dead: set[int] = set()
    won = next((k for k, e in enumerate(flat) if isinstance(e, VictoryDeclared)), len(flat))
    for k, e in enumerate(flat):
        if isinstance(e.audience, Private) and k < won:
            assert e.audience.user_id not in dead, f"private event to the dead: {e}"
        if isinstance(e, MafiaPicks):
            assert not {m for m, _ in e.picks} & dead
        if isinstance(e, PlayerEliminated):
            assert e.user_id not in dead
            dead.add(e.user_id)
    assert dead == {p.user_id for p in st.seated() if not p.alive}

    # the log is the truth: JSON round trip, then replay to the very same state and events
    commands = [command_from_dict(json.loads(json.dumps(to_dict(c)))) for c in po.log]
    assert commands == po.log
    state, produced = replay(commands)
    assert state == st
    assert [e for evs in produced for e in evs] == flat

    seen = Counter(type(e).__name__ for e in flat)
    seen[f"winner_{st.winner.value}"] += 1
    return seen


@pytest.mark.parametrize("host", [False, True], ids=["auto", "host"])
@pytest.mark.parametrize("n", range(4, 13))
def test_random_playouts(n: int, host: bool) -> None:
    seen: Counter = Counter()
    for i in range(GAMES):
        po = play(seed_of(n, host, i), n, host=host, chaos=CHAOS[i % 3])
        if n < 5:
            assert isinstance(po.start_error, NotEnoughPlayers)
            assert po.final.phase is Phase.LOBBY
            continue
        assert po.start_error is None
        seen += check_game(po)
    if n < 5:
        return
    # the playouts really exercise the rules (a weak driver would pass everything)
    for kind in ("VoteResult", "TieRevote", "NightResult", "CheckResult", "PlayerInactive",
                 "Paused", "Resumed", "TurnSkipped", "winner_town", "winner_mafia"):
        assert seen[kind], f"no {kind} in {GAMES} games of {n}"
    if host:
        assert seen["HostRoles"] == GAMES and seen["HostModeEnded"]
    else:
        assert seen["ContinueAvailable"] and seen["OrganiserChanged"]


def test_playouts_are_deterministic():
    a = play(123, 9, host=True, chaos=0.25)
    b = play(123, 9, host=True, chaos=0.25)
    assert a.log == b.log and a.state == b.state and a.state.winner in (Team.TOWN, Team.MAFIA)


# --- the club preset (docs/rules/club.md) ------------------------------------------------------
CLUB_GAMES = 84             # per case: 2 modes x 3 chaos levels x 84 = 504 club games
DAY_PHASES = ("speech", "defence", "voting", "exclude_vote")
BY_VOTE = ("vote", "sole_nominee", "exclude_all")
CLUB_REASONS = ("no_nominations", "day1_single", "all_tied", "exclude_failed", "vote_cancelled")


def check_club_game(po: Playout) -> Counter:
    """The club's own invariants, read off the event stream of one finished game:

    * a disqualified player never gets a last word;
    * no day removes a player by vote (no window, tally, revote or exclude-all either) after a
      disqualification cancelled that day's vote -- the day it happened, or the next one if the
      day's vote was over (CLUB-Q17);
    * check results go privately to the checker, at dawn only: in the command that closes the
      night (deadline or the host's Next), Don's before the Sheriff's, right before the morning
      news, and they are true (CLUB-31..33, 40);
    * the night never closes early; the kill is exactly the seat every living black shot;
      shots are blind (no MafiaPicks); the relay only speaks on night 1 (CLUB-08..10, 29, 30);
    * a third foul silences the next regular speech (10 s), a cancelled one lifts it; with a
      judge only he fouls (CLUB-36, 37, 41, Q15, Q16);
    * day 1's lone nominee is never voted on, later ones leave; the last nominee has no window.
    """
    st = po.final
    role = {p.user_id: p.dealt_role for p in st.seated()}
    blacks = {u for u, r in role.items() if r.team is Team.MAFIA}
    seen: Counter = Counter()
    host = None
    phase, day, night = "lobby", 0, 0
    alive = set(role)
    disqualified: set[int] = set()
    cancelled: set[int] = set()
    silenced: set[int] = set()
    shots: dict[int, int | None] = {}
    by_command: dict[int, list] = {}
    for i, e in po.events:
        by_command.setdefault(i, []).append(e)
    for i, events in by_command.items():
        cmd = po.log[i]
        checks = [k for k, e in enumerate(events) if isinstance(e, (CheckResult, DonCheckResult))]
        if checks:
            assert isinstance(cmd, (PhaseTimeout, HostNext)), f"check result outside dawn: {cmd}"
            dons = [k for k in checks if isinstance(events[k], DonCheckResult)]
            assert dons == checks[:len(dons)], "the Don's result comes first"
            assert isinstance(events[checks[-1] + 1], NightResult)
            assert checks == list(range(checks[0], checks[-1] + 1))
        for e in events:
            if isinstance(e, HostAssigned):
                host = e.user_id
            elif isinstance(e, HostModeEnded):
                host = None
            elif isinstance(e, PhaseStarted):
                phase, day, night = e.phase, e.day, e.night
                if e.phase == "night":
                    shots = {}
                if e.phase == "speech":
                    assert (e.purpose == "silenced") == (e.speaker in silenced), e
                    if e.purpose == "silenced":
                        assert e.seconds == 10
                        seen["silenced"] += 1
                    silenced.discard(e.speaker)
                if e.phase == "last_word":
                    assert e.speaker not in disqualified, "a disqualified player's last word"
            elif isinstance(e, MafiaPicks):
                raise AssertionError("club shots are blind")
            elif isinstance(e, RelayedMessage):
                assert phase == "night" and night == 1, "the relay is open on night 1 only"
            elif isinstance(e, NightActionAccepted) and e.action == "kill":
                assert e.user_id in blacks and e.audience == Private(e.user_id)
                shots[e.user_id] = e.target
            elif isinstance(e, (CheckResult, DonCheckResult)):
                assert e.audience == Private(e.checker) and e.checker in alive
                assert phase == "night" and night >= 2
                if isinstance(e, DonCheckResult):
                    assert role[e.checker] is Role.DON and e.target not in blacks
                    assert e.is_sheriff is (role[e.target] is Role.SHERIFF)
                else:
                    assert role[e.checker] is Role.SHERIFF and e.target != e.checker
                    assert e.is_mafia is (e.target in blacks)
            elif isinstance(e, NightResult):
                assert isinstance(cmd, (PhaseTimeout, HostNext)), "a club night has a fixed length"
                living = blacks & alive
                targets = {shots.get(b) for b in living}
                agreed = targets.pop() if len(targets) == 1 else None
                expected = agreed if night >= 2 and agreed in alive else None
                assert e.killed == expected, (e, shots, living)
            elif isinstance(e, FoulIssued):
                assert host is None or e.by == host, "only the judge fouls"
                if e.count == 3:
                    silenced.add(e.player)
            elif isinstance(e, FoulCancelled):
                assert host is None or e.by == host
                if e.count < 3:
                    silenced.discard(e.player)
                seen["FoulCancelled"] += 1
            elif isinstance(e, VoteWindowOpened):
                assert day not in cancelled and e.candidate != e.candidates[-1]
            elif isinstance(e, (VoteResult, TieRevote, ExcludeVoteResult)):
                assert day not in cancelled, f"a vote on day {day} after its cancellation"
            elif isinstance(e, DayWithoutElimination):
                assert e.reason in CLUB_REASONS, e
                assert (e.reason == "vote_cancelled") == (day in cancelled), (e, day, cancelled)
                assert e.reason != "day1_single" or day == 1
                seen[f"day_{e.reason}"] += 1
            elif isinstance(e, PlayerEliminated):
                alive.discard(e.user_id)
                if e.cause == "disqualified":
                    disqualified.add(e.user_id)
                    cancelled.add(day if phase in DAY_PHASES else day + 1)
                    silenced.discard(e.user_id)
                elif e.cause in BY_VOTE:
                    assert day not in cancelled, f"removed by vote on cancelled day {day}"
                    assert e.cause != "sole_nominee" or day >= 2
                seen[f"out_{e.cause}"] += 1
    return seen


@pytest.mark.parametrize("chaos", CHAOS)
@pytest.mark.parametrize("host", [False, True], ids=["auto", "host"])
def test_club_random_playouts(host: bool, chaos: float) -> None:
    seen: Counter = Counter()
    for i in range(CLUB_GAMES):
        seed = 500_000 + host * 10_000 + CHAOS.index(chaos) * 1_000 + i
        po = play(seed, 10, host=host, chaos=chaos, ruleset="club")
        assert po.start_error is None
        seen += check_game(po)
        seen += check_club_game(po)
    for kind in ("VoteResult", "TieRevote", "NightResult", "CheckResult", "DonCheckResult",
                 "winner_town", "winner_mafia", "out_vote", "out_night", "out_sole_nominee"):
        assert seen[kind], f"no {kind} in {CLUB_GAMES} club games"
    if chaos >= 0.25:
        for kind in ("FoulIssued", "out_disqualified", "day_vote_cancelled", "silenced",
                     "FoulCancelled", "NominationUndone", "Paused"):
            assert seen[kind], f"no {kind} in {CLUB_GAMES} club games with chaos {chaos}"
    if host:
        assert seen["HostRoles"] + seen["abandoned"] == CLUB_GAMES
    assert not seen["MafiaPicks"] and not seen["ReadyMarked"]


# --- the online preset (docs/rules/online-sport.md) ----------------------------------------------
ONLINE_GAMES = 50           # per case: 6 sizes x 2 modes x 50 = 600 games (500 played, 6..10)


@pytest.mark.parametrize("host", [False, True], ids=["auto", "host"])
@pytest.mark.parametrize("n", range(5, 11))
def test_online_random_playouts(n: int, host: bool) -> None:
    from .online_playout import check_online_game

    seen: Counter = Counter()
    # a lift that holds at 6 (4 of 6 Lift taps) is rare with a host: that case plays 25 more
    games = ONLINE_GAMES + (25 if (n, host) == (6, True) else 0)
    for i in range(games):
        po = play(700_000 + n * 1_000 + host * 100 + i, n, host=host, chaos=CHAOS[i % 3],
                  ruleset="online")
        if n < 6:
            assert isinstance(po.start_error, NotEnoughPlayers)
            continue
        assert po.start_error is None
        seen += check_game(po)
        seen += check_online_game(po)
    if n < 6:
        return
    for kind in ("VoteTapped", "tap_preliminary", "tap_final", "VoteResult", "NightResult",
                 "CheckResult", "DonCheckResult", "misfire", "best_move", "best_move_skipped",
                 "PlayerInactive", "afk", "Paused", "winner_town", "winner_mafia", "lifted",
                 "LiftCalled", "DayWithoutElimination"):
        assert seen[kind], f"no {kind} in {ONLINE_GAMES} online games of {n}"
    assert not seen["MafiaPicks"] and not seen["ReadyMarked"] and not seen["VoteWindowOpened"]
    if host:
        assert seen["HostRoles"] + seen["abandoned"] == games
    assert seen["abandoned"] < games // 5


def test_online_playouts_cover_every_row_of_the_tie_table() -> None:
    """ONLINE-24..31 and ONLINE-36 happen in the seeded games, not only in the unit tests."""
    from .online_playout import check_online_game

    seen: Counter = Counter()
    for n in range(6, 11):
        for i in range(30):
            po = play(900_000 + n * 1_000 + i, n, chaos=0.05 * (i % 3), ruleset="online")
            seen += check_online_game(po)
    for row in ("tie_lift_10", "tie_night_10", "tie_revote_9", "tie_lift_8", "tie_revote_8",
                "tie_lift_6", "tie_revote_6", "tie_revote_7", "misfire_win", "day1_single_vote"):
        assert seen[row], f"no {row} in the online playouts: {sorted(seen)}"
