"""The online preset's part of the seeded playouts (:mod:`.playout`): the buttons built from the
online fields of ``legal_actions`` and the online chaos commands.

Voters concentrate on a few players per ballot (so ties and lifts happen), tap once or twice,
sometimes switch on the second tap and sometimes stay silent; the blacks mostly shoot the target
they agreed on; the first victim names three players or skips.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine import ChooseBestMove, Command, GameState, MarkAfk, NightAction, TapLift, TapVote

#: (phase_seq, voter) -> the favourite of this voter in this ballot (user id, None = PASS,
#: "silent" = never taps); other keys (("shot", night), ...) hold a playout's other plans
Intent = dict[tuple[object, ...], Any]


def online_options(rng: random.Random, st: GameState, u: int, la: Any,
                   intent: Intent) -> list[Command]:
    """Commands ``u`` may send now according to ``la`` (the online fields of LegalActions)."""
    out: list[Command] = []
    if la.ballot:
        key: tuple[object, ...] = (st.phase_seq, u)
        if key not in intent:
            focus = ("focus", st.phase_seq)
            if focus not in intent:  # the table's favourites in this ballot
                size = min(len(la.ballot), rng.choice((1, 2, 3)))
                intent[focus] = rng.sample(list(la.ballot), size)
            pool = list(intent[focus]) + (["pass"] if la.ballot_pass else []) + ["silent"]
            intent[key] = rng.choice(pool)
        want = intent[key]
        if want != "silent":
            target = None if want == "pass" else want
            if la.ballot_marked and rng.random() < 0.15:  # switch on the second tap
                target = rng.choice(list(la.ballot) + ([None] if la.ballot_pass else []))
            elif la.ballot_marked:
                target = la.ballot_mark
            if target is None or target in la.ballot:
                out.append(TapVote(user_id=u, target=target))
    if la.lift_vote:
        key = (st.phase_seq, u)
        if key not in intent:
            intent[key] = rng.choice([True, True, False, "silent"])
        want = intent[key]
        if want != "silent":
            out.append(TapLift(user_id=u, lift=want if la.lift_mark is None else la.lift_mark))
    if la.night_action == "kill" and st.ruleset == "online":
        # the blacks agreed on a target at their meeting: most shots go there (else every
        # night of a big table would misfire)
        key = ("shot", st.night)
        if key not in intent:
            intent[key] = rng.choice(la.night_targets)
        out += [NightAction(user_id=u, action="kill", target=intent[key])] * 4
    if la.best_move:
        if len(la.best_move) >= 3 and rng.random() < 0.6:
            out.append(ChooseBestMove(user_id=u, targets=tuple(rng.sample(list(la.best_move), 3))))
        else:
            out.append(ChooseBestMove(user_id=u, targets=()))
    return out


def online_chaos(rng: random.Random, st: GameState, users: list[int], strangers: list[int]):
    """One disruptive online command: the shell's AFK report (mostly for an OFFLINE player),
    forged taps and best moves."""
    u = rng.choice(strangers)
    target = rng.choice(users)
    offline = [p.user_id for p in st.seated() if p.alive and not p.active and not p.afk]
    r = rng.random()
    if r < 0.45:
        return MarkAfk(player=rng.choice(offline) if offline and rng.random() < 0.8 else target)
    if r < 0.65:
        return TapVote(user_id=u, target=rng.choice([target, None]))
    if r < 0.8:
        return TapLift(user_id=u, lift=rng.random() < 0.5)
    picks = tuple(rng.sample(users, rng.choice((2, 3, 3, 4))))
    return ChooseBestMove(user_id=rng.choice([u, st.speaker or u]), targets=picks)


# --- the online invariants of one finished playout ---------------------------------------------
def expected_tie(n: int, k: int, stage: str, same: bool) -> str:
    """The tie table written out again, independently of engine/online.py."""
    if stage == "revote":
        return "lift" if same else "revote"
    if n == 10:
        return "lift" if k == 2 else "night"
    if n in (6, 8) and k == 2:
        return "lift"
    return "revote"


def check_online_game(po) -> Counter:
    """The online preset's invariants, read off the event stream of one finished playout:

    * taps: a living voter taps at most twice per ballot, the first preliminary, the second
      final; a revote tap names a candidate, never PASS (ONLINE-16..18, 34);
    * results: leaders are the top of the tally; PASS is never a leader; day 1's lone vote
      removes nobody; a sole leader leaves; a tie goes exactly by the table with N counted
      when the day's vote opened; at N = 10 a lift never holds more than two (ONLINE-19, 22..31,
      Q07, Q08);
    * the lift passes exactly with ⌊N/2⌋+1 Lift taps, N counted when it opened, and removes
      exactly its candidates in seat order (ONLINE-32, 33, Q09);
    * the night: shots and checks private; checks at once and true; blind shots; the relay on
      night 1 only; the kill exactly when every living non-AFK black shot the same living
      target; the misfire count and the Town win at three (ONLINE-11..15, 36, 37, Q13, Q14);
    * the best move only by the victim of night 2's kill, three distinct living others or
      none (ONLINE-07, 08, Q12); AFK only for an OFFLINE living player (ONLINE-48).
    """
    from engine import (
        BestMove,
        CheckResult,
        DayWithoutElimination,
        DonCheckResult,
        ExcludeVoteResult,
        GameEnded,
        LiftCalled,
        LiftTapped,
        MafiaPicks,
        Misfire,
        NightAction,
        NightActionAccepted,
        NightResult,
        PhaseStarted,
        PlayerActive,
        PlayerAfk,
        PlayerEliminated,
        PlayerInactive,
        Private,
        RelayedMessage,
        Role,
        Team,
        TieRevote,
        VoteResult,
        VoteTapped,
    )

    st = po.state
    role = {p.user_id: p.role for p in st.seated()}
    seat = {p.user_id: p.seat for p in st.seated()}
    blacks = {u for u, r in role.items() if r.team is Team.MAFIA}
    alive: set[int] = set(role)
    afk: set[int] = set()
    offline: set[int] = set()
    seen: Counter = Counter()
    phase, day, night, day_n, base = "", 0, 0, 0, 0
    candidates: tuple = ()
    taps: dict = {}
    shots: dict = {}
    misfires = 0
    removed_today: list = []
    victim_night2 = None
    flat = [(i, e) for i, e in po.events]
    for k, (i, e) in enumerate(flat):
        nxt = flat[k + 1][1] if k + 1 < len(flat) else None
        cmd = po.log[i]
        if isinstance(e, PhaseStarted):
            if e.phase == "discussion":
                day_n = len(alive - afk)
                removed_today = []
            if e.phase in ("discussion", "revote", "lift_vote"):
                taps = {}
                candidates = e.candidates
            if e.phase == "lift_vote":
                base = len(alive - afk)
            if e.phase == "night":
                shots = {}
            phase, day, night = e.phase, e.day, e.night
        elif isinstance(e, VoteTapped):
            assert e.voter in alive and e.stage == ("day" if phase == "discussion" else "revote")
            assert e.final is (e.voter in taps) and not taps.get(e.voter), e
            taps[e.voter] = e.final
            if e.stage == "revote":
                assert e.target in candidates, e
            else:
                assert e.target is None or e.target in alive
            seen["tap_final" if e.final else "tap_preliminary"] += 1
        elif isinstance(e, LiftTapped):
            assert phase == "lift_vote" and e.voter in alive
            assert e.final is (e.voter in taps) and not taps.get(e.voter), e
            taps[e.voter] = e.final
        elif isinstance(e, VoteResult):
            stage = "day" if phase == "discussion" else "revote"
            counts = {c: len(v) for c, v in e.tally}
            top = max(counts.values(), default=0)
            assert e.leaders == tuple(c for c, _ in e.tally if counts[c] == top)
            assert None not in counts and all(counts.values()) or stage == "revote"
            if not e.leaders:
                assert stage == "day" and nxt is not None and nxt.reason == "all_pass"
            elif stage == "day" and day == 1 and sum(counts.values()) == 1:
                assert isinstance(nxt, DayWithoutElimination) and nxt.reason == "day1_single_vote"
                seen["day1_single_vote"] += 1
            elif len(e.leaders) == 1:
                assert isinstance(nxt, PlayerEliminated) and nxt.cause == "vote"
                assert nxt.user_id == e.leaders[0]
            else:
                same = stage == "revote" and set(e.leaders) == set(candidates)
                want = expected_tie(day_n, len(e.leaders), stage, same)
                got = {TieRevote: "revote", LiftCalled: "lift"}.get(type(nxt), "night")
                assert got == want, (day_n, e.leaders, stage, nxt)
                if want == "night":
                    assert nxt is not None and nxt.reason == "tie_at_ten"
                seen[f"tie_{want}_{day_n}"] += 1
        elif isinstance(e, LiftCalled):
            assert e.n == day_n and list(e.candidates) == sorted(e.candidates, key=lambda c: seat[c])
            if e.n == 10:
                assert len(e.candidates) == 2  # ONLINE-26
        elif isinstance(e, ExcludeVoteResult):
            lifts = sum(1 for u, f in taps.items() if u in alive and _last_lift(flat, k, u))
            assert e.needed == base // 2 + 1 and e.yes == lifts and e.passed is (lifts >= e.needed)
            if e.passed:
                outs = [x for _, x in flat[k + 1:k + 1 + len(e.candidates)]]
                assert [(x.user_id, x.cause) for x in outs] == [(c, "lift") for c in e.candidates]
                seen["lifted"] += 1
            else:
                assert nxt is not None and nxt.reason == "lift_failed"
        elif isinstance(e, PlayerEliminated):
            assert e.cause in ("vote", "lift", "night"), e
            if e.cause != "night":
                removed_today.append(e.user_id)
                if day_n == 10:
                    assert len(removed_today) <= 2  # ONLINE-26
            alive.discard(e.user_id)
        elif isinstance(e, NightActionAccepted):
            assert e.audience == Private(e.user_id)
            if e.action == "kill":
                assert e.user_id in blacks and night >= 2 and e.user_id not in shots
                shots[e.user_id] = e.target
        elif isinstance(e, (CheckResult, DonCheckResult)):
            assert e.audience == Private(e.checker) and night >= 2 and phase == "night"
            assert isinstance(cmd, NightAction) and cmd.user_id == e.checker  # at once
            if isinstance(e, DonCheckResult):
                assert role[e.checker] is Role.DON and e.target not in blacks
                assert e.is_sheriff is (role[e.target] is Role.SHERIFF)
            else:
                assert role[e.checker] is Role.SHERIFF and e.target != e.checker
                assert e.is_mafia is (e.target in blacks)
        elif isinstance(e, MafiaPicks):
            raise AssertionError("online shots are blind")
        elif isinstance(e, RelayedMessage):
            assert phase == "night" and night == 1
        elif isinstance(e, NightResult):
            if night == 1:
                assert e.killed is None
                continue
            shooters = (alive & blacks) - afk
            picks = {shots.get(u) for u in shooters}
            agreed = picks.pop() if len(picks) == 1 else None
            assert e.killed == (agreed if agreed in alive else None), (e, shots, shooters)
            misfires = 0 if e.killed is not None else misfires + 1
            if e.killed is None:
                assert nxt == Misfire(count=misfires)
                seen["misfire"] += 1
            if night == 2 and e.killed is not None:
                victim_night2 = e.killed
        elif isinstance(e, Misfire):
            if e.count == 3:
                assert isinstance(nxt, GameEnded) and nxt.winner is Team.TOWN
                seen["misfire_win"] += 1
        elif isinstance(e, BestMove):
            assert night == 2 and e.user_id == victim_night2 and phase == "best_move"
            assert e.targets == () or (len(set(e.targets)) == 3 and set(e.targets) <= alive
                                       and e.user_id not in e.targets)
            seen["best_move" if e.targets else "best_move_skipped"] += 1
        elif isinstance(e, PlayerInactive):
            offline.add(e.user_id)
        elif isinstance(e, PlayerActive):
            offline.discard(e.user_id)
            afk.discard(e.user_id)
        elif isinstance(e, PlayerAfk):
            assert e.user_id in offline and e.user_id in alive and e.user_id not in afk
            afk.add(e.user_id)
            seen["afk"] += 1
        elif isinstance(e, DayWithoutElimination):
            assert e.reason in ("all_pass", "day1_single_vote", "tie_at_ten", "lift_failed")
    return seen


def _last_lift(flat: list, k: int, voter: int) -> bool:
    """The voter's last Lift/Leave tap before position ``k``."""
    from engine import LiftTapped

    for _, e in reversed(flat[:k]):
        if isinstance(e, LiftTapped) and e.voter == voter:
            return e.lift
    return False
