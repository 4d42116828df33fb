"""A tournament's standings from its games' score sheets (docs/rules/tournament.md, TOUR-X07..X09).

:func:`standings` adds up the published sheets (:class:`engine.scoring.ScoreSheet`) per player
and orders the rows by points -- or by points per game while the players with a game have
played different numbers of them (TOUR-X10) -- then by the tie-breaks (``DEFAULT_TIE_BREAKS``
unless the tournament sets its own); players without a game come last, and substitutes from
outside the tournament after them (TOUR-X11).  A substitute's
points are his own (TOUR-X07): a game may be given as
:class:`Played` with the substitutes' user ids, which are counted in ``Row.substitute_games``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction

from ..mafia.roles import Role
from ..scoring import ScoreSheet

#: TOUR-X08: the tie-breaks when the tournament sets none -- more wins, more additional points,
#: more best-move points, fewer penalties (a smaller sum of them)
DEFAULT_TIE_BREAKS: tuple[str, ...] = ("wins", "additional", "best_move", "penalties")
#: TOUR-X08: every tie-break by name; ``wins_as:<role>`` (e.g. ``wins_as:don``) counts the wins
#: in that role
TIE_BREAKS: tuple[str, ...] = (
    "wins", "additional", "best_move", "penalties", "fouls", "average", "wins_as:<role>")
ROLE_PREFIX = "wins_as:"
ROLES = frozenset(r.value for r in Role)


class BadTieBreak(ValueError):
    """A tie-break name that is not one of ``TIE_BREAKS`` (``value``: the name)."""

    def __init__(self, value: object) -> None:
        super().__init__(f"unknown tie-break {value!r}")
        self.value = value


@dataclass(frozen=True)
class Played:
    """A published game's sheet and the user ids who played it as substitutes (TOUR-X07)."""

    sheet: ScoreSheet
    substitutes: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Tally:
    """Games, wins and points of one player in one team or one role."""

    games: int = 0
    wins: int = 0
    points: float = 0.0


@dataclass(frozen=True)
class Row:
    """One player's line (TOUR-X07).  ``place``: 1-based, shared by rows equal on points and
    every tie-break (then ordered by user id); ``name``: his name on his latest sheet ("" with
    no game); ``points``: the sum of his sheets' totals (exact decimals); ``additional``,
    ``best_move``, ``penalties`` (<= 0): the sums of those columns; ``fouls``: his fouls;
    ``by_team`` / ``by_role``: a :class:`Tally` by team / role value (``"town"``, ``"don"``...),
    only those he played; ``substitute_games``: games he played as a substitute;
    ``per_game``: the table is ranked by points per game (TOUR-X10: the players with a game
    have played different numbers of them), the same on every row of one table."""

    place: int
    user_id: int
    name: str
    points: float
    games: int
    wins: int
    additional: float
    best_move: float
    penalties: float
    fouls: int
    substitute_games: int
    by_team: dict[str, Tally] = field(default_factory=dict)
    by_role: dict[str, Tally] = field(default_factory=dict)
    per_game: bool = False

    @property
    def average(self) -> float:
        """Points per game (0.0 with no game)."""
        return self.points / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, object]:
        """JSON-safe data for the export: every field, ``by_team`` / ``by_role`` as
        ``{value: {"games", "wins", "points"}}``."""
        out: dict[str, object] = {
            k: getattr(self, k) for k in (
                "place", "user_id", "name", "points", "games", "wins", "additional", "best_move",
                "penalties", "fouls", "substitute_games", "per_game")}
        for key in ("by_team", "by_role"):
            tallies: dict[str, Tally] = getattr(self, key)
            out[key] = {k: {"games": t.games, "wins": t.wins, "points": t.points}
                        for k, t in tallies.items()}
        return out


def check_tie_breaks(names: Iterable[str]) -> tuple[str, ...]:
    """``names`` as a tuple if every one is known (``TIE_BREAKS``; ``wins_as:<role>`` for a
    role value such as ``don``, ``sheriff``). Raises :class:`BadTieBreak`."""
    out = tuple(names)
    for name in out:
        if not isinstance(name, str):
            raise BadTieBreak(name)
        if name.startswith(ROLE_PREFIX):
            if name[len(ROLE_PREFIX):] not in ROLES:
                raise BadTieBreak(name)
        elif name not in TIE_BREAKS:
            raise BadTieBreak(name)
    return out


class _Sum:
    """A player's running totals (exact decimals)."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        self.name = ""
        self.points = self.additional = self.best_move = self.penalties = Decimal(0)
        self.games = self.wins = self.fouls = self.substitutes = 0
        self.teams: dict[str, list[Decimal]] = {}
        self.roles: dict[str, list[Decimal]] = {}

    def row(self, place: int) -> Row:
        def tallies(d: dict[str, list[Decimal]]) -> dict[str, Tally]:
            return {k: Tally(int(v[0]), int(v[1]), float(v[2])) for k, v in sorted(d.items())}
        return Row(place=place, user_id=self.user_id, name=self.name, points=float(self.points),
                   games=self.games, wins=self.wins, additional=float(self.additional),
                   best_move=float(self.best_move), penalties=float(self.penalties),
                   fouls=self.fouls, substitute_games=self.substitutes,
                   by_team=tallies(self.teams), by_role=tallies(self.roles))


def _per_game(sums: Iterable[_Sum], outsiders: frozenset[int]) -> bool:
    """TOUR-X10: the players with a game (substitutes from outside apart, TOUR-X11) have not
    all played the same number of games."""
    return len({s.games for s in sums if s.games and s.user_id not in outsiders}) > 1


def _key(s: _Sum, tie_breaks: Sequence[str], per_game: bool, outsider: bool
         ) -> tuple[Fraction, ...]:
    """TOUR-X08/X10/X11, exact (no float ties); higher is better for every component: a
    tournament's player (not a substitute from outside, TOUR-X11), a game played at all, the
    points (per game when ``per_game``), then the tie-breaks in turn."""
    average = Fraction(s.points) / s.games if s.games else Fraction(0)
    out = [Fraction(0 if outsider else 1), Fraction(1 if s.games else 0),
           average if per_game else Fraction(s.points)]
    for name in tie_breaks:
        if name.startswith(ROLE_PREFIX):
            out.append(Fraction(int(s.roles.get(name[len(ROLE_PREFIX):], [Decimal(0)] * 3)[1])))
        elif name == "penalties":
            out.append(Fraction(s.penalties))  # <= 0: nearer 0 is better
        elif name == "fouls":
            out.append(Fraction(-s.fouls))
        elif name == "average":
            out.append(average)
        elif name == "wins":
            out.append(Fraction(s.wins))
        else:
            out.append(Fraction(s.additional if name == "additional" else s.best_move))
    return tuple(out)


def standings(games: Iterable[ScoreSheet | Played], tie_breaks: Iterable[str] = DEFAULT_TIE_BREAKS,
              players: Iterable[int] = ()) -> list[Row]:
    """TOUR-X07..X09: one :class:`Row` per player of ``games`` (the published sheets, each a
    :class:`ScoreSheet` or a :class:`Played`) and per user id of ``players`` (the registered,
    so that somebody without a game yet has his row of zeros), best first: by points, then by
    each tie-break in turn (names from ``TIE_BREAKS``), then sharing a place (ordered by user
    id).  TOUR-X10: while the players with a game have played different numbers of games
    the first key is the points per game (every ``Row.per_game`` is True), and players without
    a game rank after all with one.  TOUR-X11: when ``players`` is given, somebody of
    ``games`` who is not among them (a substitute from outside the tournament) keeps his row
    and his points but comes after every player of the tournament and does not count for
    X10's evenness.  A corrected sheet replaces the old one in ``games`` (the
    caller passes the current sheets only).  Raises :class:`BadTieBreak` on an unknown tie-break."""
    order = check_tie_breaks(tie_breaks)
    registered = tuple(players)
    sums: dict[int, _Sum] = {p: _Sum(p) for p in registered}
    for game in games:
        sheet, subs = (game.sheet, game.substitutes) if isinstance(game, Played) \
            else (game, frozenset[int]())
        for line in sheet.seats:
            s = sums.setdefault(line.user_id, _Sum(line.user_id))
            total = Decimal(str(line.total))
            s.name = line.name
            s.points += total
            s.games += 1
            s.wins += line.won
            s.additional += Decimal(str(line.additional))
            s.best_move += Decimal(str(line.best_move_points))
            s.penalties += Decimal(str(line.penalty))
            s.fouls += line.fouls
            s.substitutes += line.user_id in subs
            for book, key in ((s.teams, line.team.value), (s.roles, line.role.value)):
                tally = book.setdefault(key, [Decimal(0), Decimal(0), Decimal(0)])
                tally[0] += 1
                tally[1] += line.won
                tally[2] += total
    outsiders = frozenset(sums) - frozenset(registered) if registered else frozenset[int]()
    per_game = _per_game(sums.values(), outsiders)
    keyed = sorted(((_key(s, order, per_game, s.user_id in outsiders), s) for s in sums.values()),
                   key=lambda ks: (tuple(-k for k in ks[0]), ks[1].user_id))
    out: list[Row] = []
    for i, (rank, tot) in enumerate(keyed):
        same = i > 0 and keyed[i - 1][0] == rank
        place = out[-1].place if same else i + 1
        out.append(replace(tot.row(place), per_game=per_game))
    return out
