"""Builders for the forum preset's tests (docs/rules/forum.md), on top of :mod:`.helpers`: games
driven through real commands, seat ``k`` is user ``uid(k)``.

A deal is a string of role codes by seat: ``M`` mafioso, ``C`` Commissar, ``D`` Doctor, ``K``
Maniac (the killer), ``P`` Putana, ``J`` Journalist, ``S`` Sleepwalker, ``W`` Werewolf, ``O`` Cop
(the officer), ``T`` civilian.  The options follow the deal (its optional roles, its mafia
count), so any deal the role table allows can be written down:

    t = forum_game("MCDTT")                 # NIGHT 1, the acquaintance
    t.to_day(1)                             # night 1 slept through -> DEBATE of day 1
    t.ballot({1: 3, 2: 3, 3: 1, 4: 3, 5: 3})  # the votes by seat, then the deadline
    t.fnight(kill=4, check=1, heal=4)       # night 2: the Mafia pick 4, the rest, the deadline
"""

from __future__ import annotations

from engine import (
    REVISION,
    CastVote,
    ChooseSide,
    ComparePlayers,
    EndSpeech,
    ForumPhase,
    HostNext,
    MarkReady,
    NightAction,
    Phase,
    Role,
    StartGame,
    Team,
)

from .helpers import ORGANISER, Table, lobby, uid

FORUM_CODES = {"M": Role.MAFIA, "C": Role.COMMISSAR, "D": Role.DOCTOR, "K": Role.MANIAC,
               "P": Role.PUTANA, "J": Role.JOURNALIST, "S": Role.SLEEPWALKER,
               "W": Role.WEREWOLF, "O": Role.COP, "T": Role.CIVILIAN}
NAMES = {Role.COMMISSAR: "commissar", Role.DOCTOR: "doctor", Role.MANIAC: "maniac",
         Role.PUTANA: "putana", Role.JOURNALIST: "journalist", Role.SLEEPWALKER: "sleepwalker",
         Role.WEREWOLF: "werewolf", Role.COP: "cop"}


def options_for(roles: str, **extra) -> dict:
    """The lobby options that make ``roles`` a legal deal."""
    chosen = [NAMES[FORUM_CODES[c]] for c in roles if FORUM_CODES[c] in NAMES]
    return {"roles": chosen, "mafia": roles.count("M"), **extra}


def forum_deal(roles: str) -> StartGame:
    return StartGame(user_id=ORGANISER, seating=tuple(uid(i) for i in range(1, len(roles) + 1)),
                     roles=tuple(FORUM_CODES[c] for c in roles))


class ForumTable(Table):
    """A :class:`Table` with the forum's phases (seats, not user ids)."""

    def role_seat(self, role: Role) -> int | None:
        seats = self.seats_with(role)
        return seats[0] if seats else None

    def act(self, seat: int, action: str, target: int | None = None) -> list:
        return self.do(NightAction(user_id=uid(seat), action=action,
                                   target=None if target is None else uid(target)))

    def intro(self, sides: dict[int, Team] | None = None, close: bool = True) -> None:
        """Night 1: the Maniac / Putana seats in ``sides`` choose, everybody taps Sleep."""
        assert self.phase is Phase.NIGHT and self.state.night == 1, self.phase
        for seat, side in (sides or {}).items():
            self.do(ChooseSide(user_id=uid(seat), side=side))
        for p in list(self.state.alive()):
            if self.phase is not Phase.NIGHT or self.state.night != 1:
                return
            if p.user_id not in self.state.night_actions:
                self.do(NightAction(user_id=p.user_id, action="sleep"))
        if close and self.phase is Phase.NIGHT and self.state.night == 1:
            self.timeout()

    def cop_turn(self, target: int | None) -> None:
        """The Cop's turn: he picks ``target`` (a seat) or it runs out."""
        assert self.phase is ForumPhase.COP_TURN, self.phase
        if target is None:
            self.timeout()
        else:
            cop = self.role_seat(Role.COP)
            assert cop is not None, "no Cop at this table"
            self.act(cop, "block", target)

    def fnight(self, *, cop: int | None = None, kill: int | dict[int, int] | None = None,
               check: int | None = None, heal: int | None = None, slay: int | None = None,
               infect: int | None = None, compare: tuple[int, int] | None = None,
               close: bool = True) -> None:
        """A night from night 2 by seats: the Cop's turn (if any), then every team member
        picks ``kill`` (or ``{seat: target}``, the Sleepwalker included), the others act or
        tap Sleep; then the deadline fires unless the night already closed or ``close`` is
        false."""
        night = self.state.night
        if self.phase is ForumPhase.COP_TURN:
            self.cop_turn(cop)
        assert self.phase is Phase.NIGHT and self.state.night == night, self.phase
        st = self.state
        team = [p.seat for p in st.alive() if p.team is Team.MAFIA or p.role is Role.SLEEPWALKER]
        picks = kill if isinstance(kill, dict) else (
            {s: kill for s in team if st.players[uid(s)].role is not Role.SLEEPWALKER}
            if kill is not None else {})
        if st.forum.mafia_blocked:  # FORUM-48: no picks tonight, the team sleeps
            picks = {}
        own = {Role.COMMISSAR: ("check", check), Role.DOCTOR: ("heal", heal),
               Role.MANIAC: ("slay", slay), Role.PUTANA: ("infect", infect)}
        for p in list(st.alive()):
            if self.phase is not Phase.NIGHT or self.state.night != night:
                return
            if p.seat in picks:
                self.act(p.seat, "kill", picks[p.seat])
                continue
            if p.team is Team.MAFIA and not self.state.forum.mafia_blocked:
                continue  # a mafioso without a pick holds the night until its deadline
            if p.role in own and own[p.role][1] is not None:
                self.act(p.seat, *own[p.role])
            elif p.role is Role.JOURNALIST and compare is not None:
                self.do(ComparePlayers(user_id=p.user_id, first=uid(compare[0]),
                                       second=uid(compare[1])))
            elif p.role is not Role.COP and p.user_id not in self.state.night_actions \
                    and self.state.forum.revealed != p.user_id:
                self.act(p.seat, "sleep")
        if close and self.phase is Phase.NIGHT and self.state.night == night:
            self.timeout()

    def debate(self) -> None:
        """Everybody taps "ready to vote"."""
        assert self.phase is ForumPhase.DEBATE, self.phase
        for p in list(self.state.alive_active()):
            if self.phase is ForumPhase.DEBATE:
                self.do(MarkReady(user_id=p.user_id))

    def ballot(self, votes: dict[int, int], *, close: bool = True) -> None:
        """The open ballot (the vote or the revote): ``votes`` voter seat -> target seat; then
        the deadline fires unless the ballot closed or ``close`` is false."""
        if self.phase is ForumPhase.DEBATE:
            self.debate()
        assert self.phase is ForumPhase.BALLOT, self.phase
        seq = self.state.phase_seq
        for voter, target in votes.items():
            if self.state.phase_seq == seq:
                self.do(CastVote(user_id=uid(voter), target=uid(target)))
        if close and self.state.phase_seq == seq:
            self.timeout()

    def last_words(self) -> None:
        while self.phase is Phase.LAST_WORD:
            self.do(EndSpeech(user_id=self.state.speaker))

    def vote_out(self, seat: int) -> None:
        """From the DEBATE: everybody votes ``seat`` out (he votes another), the last words."""
        alive = self.alive_seats()
        other = next(s for s in alive if s != seat)
        self.ballot({v: (seat if v != seat else other) for v in alive})
        self.last_words()

    def _step_quietly(self) -> None:
        ph = self.phase
        if ph is Phase.NIGHT and self.state.night == 1:
            self.intro()
        elif ph in (Phase.NIGHT, ForumPhase.COP_TURN):
            if self.state.host:
                self.do(HostNext(user_id=self.state.host))
            else:
                self.timeout()
        elif ph is ForumPhase.DEBATE or ph is ForumPhase.BALLOT:
            self.timeout()
        elif ph is Phase.LAST_WORD:
            self.last_words()
        else:
            raise AssertionError(f"cannot advance from {ph}")

    def to_day(self, day: int) -> None:
        """Advance to the DEBATE of ``day`` (quiet nights, days without votes)."""
        while not (self.phase is ForumPhase.DEBATE and self.state.day == day):
            assert self.state.day <= day and not self.state.over, "overshot"
            self._step_quietly()

    def to_night(self, night: int) -> None:
        """Advance to the first phase of ``night`` (COP_TURN with a Cop, else NIGHT)."""
        while not (self.phase in (Phase.NIGHT, ForumPhase.COP_TURN) and self.state.night == night):
            assert self.state.night <= night and not self.state.over, "overshot"
            self._step_quietly()


def forum_game(roles: str, *, host: bool = False, options: dict | None = None,
               settings: dict | None = None) -> ForumTable:
    """A started forum game (NIGHT 1, the acquaintance) with the deal ``roles`` by seat."""
    settings = {"revision": REVISION, **(settings or {})}  # REV-X01: today's rules
    settings["options"] = {**options_for(roles), **(options or {})}
    base = lobby(len(roles), host=host, settings=settings, ruleset="forum")
    t = ForumTable()
    t.state, t.log, t.produced = base.state, base.log, base.produced
    t.do(forum_deal(roles))
    return t


def forum_at_night(roles: str, night: int = 2, **kw) -> ForumTable:
    t = forum_game(roles, **kw)
    t.to_night(night)
    return t


def forum_at_day(roles: str, day: int = 1, **kw) -> ForumTable:
    t = forum_game(roles, **kw)
    t.to_day(day)
    return t
