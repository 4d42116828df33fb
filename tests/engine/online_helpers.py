"""Builders for the online preset's tests (docs/rules/online-sport.md), on top of
:mod:`.helpers`: games driven through real commands, seat ``k`` is user ``uid(k)``.

A deal is a string of role codes by seat: ``D`` Don, ``M`` mafioso, ``S`` Sheriff, ``T`` civilian.
The default deals put the Don at seat 1, the other blacks next, then the Sheriff:

    t = online_game(10)                     # NIGHT 1: the blacks' meeting
    t.to_day(1)                             # the blacks ready -> DISCUSSION of day 1
    t.ballot({1: 5, 2: 5, 3: None})         # 1 and 2 vote 5 (two taps: final), 3 PASS; close
    t.onight(kill=6, don_check=4, check=1)  # every black shoots 6, the checks, the rest Sleep
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import (
    REVISION,
    ChooseBestMove,
    NightAction,
    OnlinePhase,
    Phase,
    Role,
    StartGame,
    TapLift,
    TapVote,
    Team,
)

from .helpers import ORGANISER, Table, lobby, uid

ONLINE_CODES = {"D": Role.DON, "M": Role.MAFIA, "S": Role.SHERIFF, "T": Role.CIVILIAN}
#: the default deal by table size: Don at 1, the other blacks next, then the Sheriff
ONLINE_DEALS = {n: "D" + "M" * (n // 3 - 1) + "S" + "T" * (n - n // 3 - 1) for n in range(6, 11)}
PASS = None  # TapVote(target=None)


def online_deal(roles: str) -> StartGame:
    return StartGame(user_id=ORGANISER, seating=tuple(uid(i) for i in range(1, len(roles) + 1)),
                     roles=tuple(ONLINE_CODES[c] for c in roles))


class OnlineTable(Table):
    """A :class:`Table` with the online phases."""

    def tap(self, voter: int, target: int | None) -> None:
        """One tap on the open ballot by seat (``target`` a seat or None for PASS)."""
        self.do(TapVote(user_id=uid(voter), target=None if target is None else uid(target)))

    def ballot(self, votes: dict[int, int | None], *, final: bool = True,
               close: bool = True) -> None:
        """Each voter seat taps ``votes[seat]`` (a seat or None = PASS), twice if ``final`` (a
        final vote); then, if the ballot is still open and ``close``, its deadline fires."""
        phase, seq = self.phase, self.state.phase_seq
        assert phase in (OnlinePhase.DISCUSSION, OnlinePhase.REVOTE), phase
        for voter, target in votes.items():
            for _ in range(2 if final else 1):
                if self.state.phase_seq != seq:
                    return
                self.tap(voter, target)
        if close and self.state.phase_seq == seq:
            self.timeout()

    def lift(self, lift: Iterable[int] = (), leave: Iterable[int] = (), *, final: bool = True,
             close: bool = True) -> None:
        assert self.phase is OnlinePhase.LIFT_VOTE, self.phase
        seq = self.state.phase_seq
        for seats, choice in ((lift, True), (leave, False)):
            for seat in seats:
                for _ in range(2 if final else 1):
                    if self.state.phase_seq == seq:
                        self.do(TapLift(user_id=uid(seat), lift=choice))
        if close and self.state.phase_seq == seq:
            self.timeout()

    def best_move(self, *seats: int) -> None:
        assert self.phase is OnlinePhase.BEST_MOVE, self.phase
        self.do(ChooseBestMove(user_id=self.state.speaker, targets=tuple(uid(s) for s in seats)))

    def onight(self, *, kill: int | dict[int, int] | None = None, check: int | None = None,
               don_check: int | None = None, skip: Iterable[int] = (),
               close: bool = True) -> None:
        """Play an online NIGHT by seats: every living black shoots ``kill`` (or
        ``{black seat: target}``), the Don searches ``don_check`` (else taps Sleep), the
        Sheriff checks ``check`` (else Sleep), the rest tap Sleep; seats in ``skip`` do nothing.
        On night 1 the blacks tap Sleep (Ready); the reds have nothing to do.  If still open and
        ``close``, the deadline fires."""
        assert self.phase is Phase.NIGHT, self.phase
        st = self.state
        night = st.night
        picks = kill if isinstance(kill, dict) else (
            {p.seat: kill for p in st.mafia_alive()} if kill is not None else {})
        for p in list(st.alive()):
            if self.phase is not Phase.NIGHT or self.state.night != night:
                return
            if p.seat in skip:
                continue
            u = p.user_id
            if night == 1:
                if p.team is Team.MAFIA:  # ONLINE-02, X17: only the blacks tap Ready
                    self.do(NightAction(user_id=u, action="sleep"))
            elif p.role in (Role.MAFIA, Role.DON):
                if p.seat in picks:
                    self.do(NightAction(user_id=u, action="kill", target=uid(picks[p.seat])))
                if p.role is Role.DON and self.phase is Phase.NIGHT and \
                        self.state.night == night and u not in self.state.night_actions:
                    if don_check is not None:
                        self.do(NightAction(user_id=u, action="don_check", target=uid(don_check)))
                    else:
                        self.do(NightAction(user_id=u, action="sleep"))
            elif u in self.state.night_actions:
                continue  # he has checked or slept already
            elif p.role is Role.SHERIFF and check is not None:
                self.do(NightAction(user_id=u, action="sheriff_check", target=uid(check)))
            else:
                self.do(NightAction(user_id=u, action="sleep"))
        if close and self.phase is Phase.NIGHT and self.state.night == night:
            self.timeout()

    def leave_by_vote(self, seat: int) -> None:
        """From a DISCUSSION: everybody living votes ``seat`` (final); his last word ends;
        ends at the next night (or the end)."""
        assert self.phase is OnlinePhase.DISCUSSION, self.phase
        self.ballot({v: seat for v in self.alive_seats()})
        self.last_words()

    # --- jumping ahead -----------------------------------------------------------------------
    def to_day(self, day: int) -> None:
        """Advance to the DISCUSSION of ``day``: nights with everybody asleep (no shot: from
        night 2 a misfire!), days where everybody passes."""
        while not (self.phase is OnlinePhase.DISCUSSION and self.state.day == day):
            assert self.state.day <= day and not self.state.over, "overshot"
            self._step_quietly()

    def to_night(self, night: int) -> None:
        while not (self.phase is Phase.NIGHT and self.state.night == night):
            assert self.state.night <= night and not self.state.over, "overshot"
            self._step_quietly()

    def _step_quietly(self) -> None:
        ph = self.phase
        if ph is Phase.NIGHT:
            self.onight()
        elif ph in (Phase.DEFENCE, Phase.LAST_WORD):
            self.end_turn()
        elif ph in (OnlinePhase.DISCUSSION, OnlinePhase.REVOTE, OnlinePhase.LIFT_VOTE,
                    OnlinePhase.BEST_MOVE):
            self.timeout()
        else:
            raise AssertionError(f"cannot advance from {ph}")


def online_game(n: int = 10, roles: str | None = None, *, host: bool = False,
                settings: dict | None = None) -> OnlineTable:
    """A started online game (NIGHT 1, the blacks' meeting) with the deal ``roles`` by seat."""
    roles = roles or ONLINE_DEALS[n]
    assert len(roles) == n
    # REV-X01: a new game is played by today's rules (the bot stamps the revision likewise)
    base = lobby(n, host=host, settings={"revision": REVISION, **(settings or {})}, ruleset="online")
    t = OnlineTable()
    t.state, t.log, t.produced = base.state, base.log, base.produced
    t.do(online_deal(roles))
    return t


def online_at_day(n: int = 10, day: int = 1, roles: str | None = None, **kw) -> OnlineTable:
    """An online game at the DISCUSSION of ``day`` (day 1: nobody out; later days pass through
    misfire nights -- at most day 3)."""
    t = online_game(n, roles, **kw)
    t.to_day(day)
    return t


def online_at_night(n: int = 10, night: int = 2, roles: str | None = None,
                    **kw) -> OnlineTable:
    t = online_game(n, roles, **kw)
    t.to_night(night)
    return t
