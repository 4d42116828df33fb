"""Builders for engine tests: games driven through real commands, never hand-made states.

Seats and users: players join in seat order and the deal seats them in that order, so seat ``k`` is
always user ``uid(k)`` (= 100 + k).  A deal is written as a string of role codes by seat:
``M`` mafioso, ``C`` Commissar, ``D`` Doctor, ``T`` civilian (Town), e.g. ``"MMCDTTT"``.

    t = started_game(7, roles="MMCDTTT")   # READY before night 1 (automatic mode)
    t.to_day(1)                             # everyone ready, night 1 slept through, day 1 speeches
    t.speeches({1: 5})                      # seat 1 nominates seat 5, the others pass
    t.defences()                            # seat 5 defends -> sole nominee leaves (PARTY-11)

Every step goes through :func:`engine.apply`; ``Table.refuse`` asserts that a refused command
raises the expected :class:`engine.IllegalCommand` *and* leaves the state unchanged.

The club preset (``ruleset="club"``, always 10 players) writes its deal with ``D`` Don, ``M``
mafioso, ``S`` Sheriff and ``T`` civilian, e.g. ``CLUB_DEAL = "DMMSTTTTTT"``:

    t = club_game()                         # NIGHT 1, the mafia's meeting (no ready gates)
    t.to_day(1)                             # the meeting runs out, day 1 speeches
    t.speeches({1: 5, 2: 7})                # the vote follows the speeches at once
    t.vote({3: 5, 4: 5})                    # silent players are counted against seat 7
    t.night(kill=6, don_check=4, check=1)   # every black shoots 6; the checks come at dawn
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

import pytest

from engine import (
    BecomeHost,
    CastExcludeVote,
    CastVote,
    Command,
    CreateGame,
    EndSpeech,
    Event,
    GameState,
    HostNext,
    IllegalCommand,
    Join,
    MarkReady,
    NightAction,
    Nominate,
    Phase,
    PhaseTimeout,
    Role,
    StartGame,
    apply,
    find_ruleset,
)

ORGANISER = 100 + 1  # seat 1 creates the game unless told otherwise
HOST = 900
SPECTATOR = 990

CODES = {"M": Role.MAFIA, "C": Role.COMMISSAR, "D": Role.DOCTOR, "T": Role.CIVILIAN}
#: the club preset's role codes: Don, mafioso, Sheriff, civilian
CLUB_CODES = {"D": Role.DON, "M": Role.MAFIA, "S": Role.SHERIFF, "T": Role.CIVILIAN}
CLUB_DEAL = "DMMSTTTTTT"  # seat 1 Don, 2-3 mafiosi, 4 Sheriff, 5-10 civilians


def uid(seat: int) -> int:
    """The user id sitting at ``seat`` in games built here."""
    return 100 + seat


def default_deal(n: int, *, doctor: bool = True, ruleset: str = "party") -> str:
    """The role table for ``n`` in a fixed order: mafiosi first, then C, D, civilians (party);
    Don, mafiosi, Sheriff, civilians (club)."""
    roles = find_ruleset(ruleset).roles_for(n, {"doctor": doctor})
    back = {v: k for k, v in codes(ruleset).items()}
    return "".join(back[r] for r in roles)


def codes(ruleset: str = "party") -> dict[str, Role]:
    """The deal letters of ``ruleset``."""
    return CLUB_CODES if find_ruleset(ruleset).name == "club" else CODES


class Table:
    """A game under test: the current state, the command log and the events of every command."""

    def __init__(self) -> None:
        self._state: GameState | None = None
        self.log: list[Command] = []
        self.produced: list[list[Event]] = []

    @property
    def state(self) -> GameState:
        """The current state (there is one once the first command, a CreateGame, is applied)."""
        assert self._state is not None, "no game yet"
        return self._state

    @state.setter
    def state(self, state: GameState) -> None:
        self._state = state

    # --- applying ----------------------------------------------------------------------------
    def do(self, cmd: Command) -> list[Event]:
        state, produced = apply(self._state, cmd)
        assert isinstance(state, GameState), "a mafia preset's game"
        events = [e for e in produced if isinstance(e, Event)]
        assert len(events) == len(produced), "a mafia preset emits mafia events"
        self._state = state
        self.log.append(cmd)
        self.produced.append(events)
        return events

    def refuse(self, cmd: Command, error: type[IllegalCommand]) -> IllegalCommand:
        """Assert ``cmd`` is refused with ``error`` and changes nothing."""
        before = self._state
        snapshot = before.clone() if before is not None else None
        with pytest.raises(error) as info:
            apply(before, cmd)
        assert self._state is before and before == snapshot, "a refused command changed the state"
        return info.value

    @property
    def last(self) -> list[Event]:
        return self.produced[-1] if self.produced else []

    def events(self, kind: type | None = None, since: int = 0) -> list[Event]:
        """All events (of class ``kind``) produced by commands ``since`` .. now."""
        out = [e for evs in self.produced[since:] for e in evs]
        return [e for e in out if kind is None or isinstance(e, kind)]

    def mark(self) -> int:
        """A position in the log, for ``events(..., since=t.mark())``."""
        return len(self.produced)

    # --- reading -----------------------------------------------------------------------------
    @property
    def phase(self) -> Enum:
        """The current phase: a :class:`Phase` or a preset's own phase."""
        return self.state.phase

    @property
    def speaker(self) -> int | None:
        """Seat of the current speaker (None outside turns)."""
        sp = self.state.speaker
        return self.state.players[sp].seat if sp is not None else None

    def speaker_seat(self) -> int:
        """Seat of the current speaker; asserts there is one."""
        seat = self.speaker
        assert seat is not None, f"no speaker in {self.phase}"
        return seat

    def timer_seq(self) -> int:
        """The running deadline's ``seq``; asserts there is one."""
        timer = self.state.timer
        assert timer is not None, f"no timer in {self.phase}"
        return timer.seq

    def alive_seats(self) -> list[int]:
        return [p.seat for p in self.state.alive()]

    def seats_with(self, role: Role) -> list[int]:
        return [p.seat for p in self.state.seated() if p.role is role]

    def timeout(self) -> list[Event]:
        """Fire the running deadline (the shell's PhaseTimeout)."""
        assert self.state.timer is not None, f"no timer in {self.phase}"
        return self.do(PhaseTimeout(timer_seq=self.state.timer.seq))

    # --- readiness and night -----------------------------------------------------------------
    def ready_all(self, *, skip: Iterable[int] = ()) -> None:
        """Every living active player (except seats in ``skip``) taps Ready."""
        assert self.phase is Phase.READY, self.phase
        for p in list(self.state.alive_active()):
            if self.phase is not Phase.READY:
                break
            if p.seat not in skip and p.user_id not in self.state.ready:
                self.do(MarkReady(user_id=p.user_id))

    def night(self, *, kill: int | dict[int, int] | None = None, check: int | None = None,
              heal: int | None = None, sleep_skip: Iterable[int] = (), close: bool = True,
              don_check: int | None = None) -> None:
        """Play the NIGHT phase by seat numbers.

        ``kill``: the seat every living mafioso (and the Don) picks, or ``{black seat: target}``.
        ``check`` / ``heal``: the Commissar's or Sheriff's / Doctor's target (else they tap
        Sleep); ``don_check``: the Don's Sheriff search.  Everybody else taps Sleep except
        ``sleep_skip`` and those who have acted already (the Don has no Sleep; a club shot
        already made stands).  If the night is still open afterwards and ``close`` is true, its
        deadline fires.
        """
        assert self.phase is Phase.NIGHT, self.phase
        st = self.state
        night = st.night
        final = find_ruleset(st.ruleset).final_shots  # club: a shot already made stands
        picks = kill if isinstance(kill, dict) else (
            {p.seat: kill for p in st.mafia_alive()} if kill is not None else {})
        for p in list(st.alive()):
            if self.phase is not Phase.NIGHT or self.state.night != night:
                return
            if p.seat in sleep_skip or p.user_id in self.state.night_actions:
                continue
            if p.role in (Role.MAFIA, Role.DON) and night > 1:
                if p.seat in picks and not (final and p.user_id in self.state.mafia_picks):
                    self.do(NightAction(user_id=p.user_id, action="kill",
                                        target=uid(picks[p.seat])))
                if p.role is Role.DON and don_check is not None and self.phase is Phase.NIGHT:
                    self.do(NightAction(user_id=p.user_id, action="don_check",
                                        target=uid(don_check)))
            elif p.role in (Role.COMMISSAR, Role.SHERIFF) and night > 1 and check is not None:
                action = "check" if p.role is Role.COMMISSAR else "sheriff_check"
                self.do(NightAction(user_id=p.user_id, action=action, target=uid(check)))
            elif p.role is Role.DOCTOR and night > 1 and heal is not None:
                self.do(NightAction(user_id=p.user_id, action="heal", target=uid(heal)))
            else:
                self.do(NightAction(user_id=p.user_id, action="sleep"))
        if close and self.phase is Phase.NIGHT and self.state.night == night:
            self.timeout()

    # --- day ---------------------------------------------------------------------------------
    def end_turn(self) -> list[Event]:
        """The current speaker presses End speech."""
        return self.do(EndSpeech(user_id=self.state.speaker))

    def speeches(self, nominations: dict[int, int] | None = None) -> None:
        """Run the speech phase: each speaker nominates ``nominations[his seat]`` (if any), then
        ends his speech."""
        nominations = nominations or {}
        while self.phase is Phase.SPEECH:
            seat = self.speaker
            if seat in nominations:
                self.do(Nominate(user_id=uid(seat), target=uid(nominations[seat])))
            self.end_turn()

    def defences(self) -> None:
        while self.phase is Phase.DEFENCE:
            self.end_turn()

    def last_words(self) -> None:
        while self.phase is Phase.LAST_WORD:
            self.end_turn()

    def vote(self, votes: dict[int, int]) -> None:
        """Run one voting round: ``votes`` maps voter seat -> candidate seat; each window's
        voters vote, then the window's deadline fires unless the round already closed."""
        assert self.phase is Phase.VOTING, self.phase
        while self.phase is Phase.VOTING:
            current = self.state.players[self.state.vote_round().current].seat
            seq = self.timer_seq()
            for voter, target in votes.items():
                if target == current and self.phase is Phase.VOTING:
                    self.do(CastVote(user_id=uid(voter), target=uid(target)))
            if self.phase is Phase.VOTING and self.timer_seq() == seq:
                self.timeout()

    def exclude_vote(self, yes: Iterable[int] = (), no: Iterable[int] = (),
                     close: bool = True) -> None:
        assert self.phase is Phase.EXCLUDE_VOTE, self.phase
        for seat in yes:
            self.do(CastExcludeVote(user_id=uid(seat), yes=True))
        for seat in no:
            self.do(CastExcludeVote(user_id=uid(seat), yes=False))
        if close and self.phase is Phase.EXCLUDE_VOTE:
            self.timeout()

    # --- jumping ahead -----------------------------------------------------------------------
    def to_day(self, day: int) -> None:
        """Advance to the first speech of ``day``: quiet days (no nominations) and quiet nights
        (nobody picks, everybody sleeps)."""
        while not (self.phase is Phase.SPEECH and self.state.day == day):
            assert self.state.day <= day and not self.state.over, "overshot"
            self._step_quietly()

    def to_night(self, night: int) -> None:
        """Advance to the NIGHT phase of ``night`` (its ready gate passed by everyone)."""
        while not (self.phase is Phase.NIGHT and self.state.night == night):
            assert self.state.night <= night and not self.state.over, "overshot"
            self._step_quietly()

    def to_ready(self, night: int) -> None:
        """Advance to the ready gate before ``night``."""
        while not (self.phase is Phase.READY and self.state.night == night):
            assert self.state.night <= night and not self.state.over, "overshot"
            self._step_quietly()

    def _step_quietly(self) -> None:
        ph = self.phase
        if ph is Phase.READY:
            if self.state.host:
                self.do(HostNext(user_id=self.state.host))
            else:
                self.ready_all()
                if self.phase is Phase.READY:  # inactive players: wait the gate out
                    self.timeout()
        elif ph is Phase.NIGHT:
            self.night()
        elif ph is Phase.SPEECH:
            self.speeches()
        elif ph in (Phase.DEFENCE, Phase.LAST_WORD):
            self.end_turn()
        elif ph in (Phase.VOTING, Phase.EXCLUDE_VOTE):
            self.timeout()
        else:
            raise AssertionError(f"cannot advance from {ph}")


def lobby(n: int, *, host: bool = False, settings: dict | None = None,
          organiser: int = ORGANISER, ruleset: str = "party") -> Table:
    """A lobby with ``n`` joined players (users uid(1)..uid(n)) and optionally a human host."""
    t = Table()
    t.do(CreateGame(user_id=organiser, ruleset=ruleset, settings=settings or {}))
    if host:
        t.do(BecomeHost(user_id=HOST, name="Host"))
    for seat in range(1, n + 1):
        t.do(Join(user_id=uid(seat), name=f"P{seat}"))
    return t


def deal(roles: str, ruleset: str = "party") -> StartGame:
    """The StartGame command seating uid(1)..uid(n) in order with ``roles`` by seat."""
    table = codes(ruleset)
    return StartGame(user_id=ORGANISER, seating=tuple(uid(i) for i in range(1, len(roles) + 1)),
                     roles=tuple(table[c] for c in roles))


def started_game(n: int, roles: str | None = None, *, host: bool = False,
                 settings: dict | None = None, organiser: int = ORGANISER,
                 ruleset: str = "party") -> Table:
    """A started game (READY before the introduction night; club: NIGHT 1, the meeting) with
    the deal ``roles`` by seat."""
    doctor = ((settings or {}).get("options") or {}).get("doctor", True)
    roles = roles or default_deal(n, doctor=doctor, ruleset=ruleset)
    assert len(roles) == n
    t = lobby(n, host=host, settings=settings, organiser=organiser, ruleset=ruleset)
    t.do(deal(roles, ruleset))
    return t


def game_at_day(n: int, roles: str | None = None, day: int = 1, **kw) -> Table:
    """A started game advanced to the first speech of ``day`` (nobody eliminated)."""
    t = started_game(n, roles, **kw)
    t.to_day(day)
    return t


def game_at_night(n: int, roles: str | None = None, night: int = 2, **kw) -> Table:
    """A started game advanced to the NIGHT phase of ``night`` (nobody eliminated)."""
    t = started_game(n, roles, **kw)
    t.to_night(night)
    return t


def eliminate_by_vote(t: Table, seat: int) -> None:
    """From the start of a day's speeches: the first speaker nominates ``seat``, who leaves as
    the sole nominee (PARTY-11) and says his last word.  Ends at the next ready gate (or the end)."""
    assert t.phase is Phase.SPEECH
    t.speeches({t.speaker_seat(): seat})
    t.defences()
    t.last_words()


# --- the club preset -------------------------------------------------------------------------
def club_game(roles: str = CLUB_DEAL, **kw) -> Table:
    """A started club game of 10 (NIGHT 1: the mafia's meeting) with the deal ``roles``."""
    return started_game(10, roles, ruleset="club", **kw)


def club_at_day(day: int = 1, roles: str = CLUB_DEAL, **kw) -> Table:
    """A club game advanced to the first speech of ``day`` (nobody eliminated)."""
    t = club_game(roles, **kw)
    t.to_day(day)
    return t


def club_at_night(night: int = 2, roles: str = CLUB_DEAL, **kw) -> Table:
    """A club game advanced to the NIGHT phase of ``night`` (nobody eliminated)."""
    t = club_game(roles, **kw)
    t.to_night(night)
    return t


def club_vote_out(t: Table, seat: int) -> None:
    """From the start of a club day's speeches: ``seat`` leaves by the vote and says his last
    word.  Day 1: the first speaker nominates ``seat`` and the second another seat, and everybody
    votes against ``seat`` in the first window; later days: ``seat`` is the lone nominee
    (CLUB-Q02).  Ends at the next night (or the end)."""
    assert t.phase is Phase.SPEECH
    first = t.speaker_seat()
    if t.state.day == 1:
        alive = t.alive_seats()
        second = alive[(alive.index(first) + 1) % len(alive)]
        other = next(x for x in alive if x not in (seat, first, second))
        t.speeches({first: seat, second: other})
        t.vote({v: seat for v in t.alive_seats()})
    else:
        t.speeches({first: seat})
    t.last_words()
