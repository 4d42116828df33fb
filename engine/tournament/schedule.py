"""A tournament's seating: rounds of games at tables of ten (docs/rules/tournament.md).

:class:`Schedule` is frozen data: the registered players, the draw's parameters and every game
(round, table, the ten players in seat order).  :meth:`Schedule.to_dict` writes it as JSON-safe
data (lists, ints, strings) and :meth:`Schedule.from_dict` reads it back, checking what makes a
schedule playable (TOUR-X06); the bot stores and exports that form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

#: a table of sport mafia seats ten players (seat positions 1..10)
TABLE_SIZE = 10
#: the version of the :meth:`Schedule.to_dict` form
FORMAT = 1


class BadDraw(ValueError):
    """The draw cannot be made with these inputs (TOUR-X01, TOUR-X05).

    ``field``: ``players`` | ``games_per_player`` | ``tables`` | ``seed``; ``reason``:
    ``too_few`` (fewer than 10 players), ``too_many`` (more than ``MAX_PLAYERS`` players or
    ``MAX_GAMES`` games each), ``duplicate`` (a player registered twice), ``not_an_int``,
    ``out_of_range`` (games < 1; tables < 1 or more tables than tens of players); ``value``:
    what was given."""

    def __init__(self, field: str, reason: str, value: object = None) -> None:
        super().__init__(f"{field}: {reason} ({value!r})")
        self.field = field
        self.reason = reason
        self.value = value


class BadSchedule(ValueError):
    """Stored schedule data cannot be read back (TOUR-X06).  ``reason``: ``format`` (not the
    shape :meth:`Schedule.to_dict` writes, or another format version), ``table_size`` (a
    table without ten seats), ``unknown_player`` (a seat holds somebody not registered),
    ``twice_in_a_round`` (a player at two seats of one round); ``where``: which part."""

    def __init__(self, reason: str, where: str = "") -> None:
        super().__init__(f"{reason}: {where}" if where else reason)
        self.reason = reason
        self.where = where


@dataclass(frozen=True)
class ScheduledGame:
    """One game of the schedule: ``round`` and ``table`` numbered from 1; ``seats``: the ten
    players (user ids) in seat order, ``seats[0]`` at seat 1."""

    round: int
    table: int
    seats: tuple[int, ...]

    def seat_of(self, player: int) -> int:
        """The seat number (1..10) of ``player`` at this table. Raises KeyError."""
        try:
            return self.seats.index(player) + 1
        except ValueError:
            raise KeyError(player) from None


@dataclass(frozen=True)
class Schedule:
    """The seating of a tournament (TOUR-X01..X06).

    ``players``: the registered user ids in registration order; ``games_per_player`` (G) and
    ``tables`` (how many tables play at once, T) as asked; ``seed`` the draw's seed;
    ``games``: every game, by round then table.  Derived: :attr:`rounds`, :meth:`round`,
    :meth:`sitting_out`, :meth:`games_of`."""

    players: tuple[int, ...]
    games_per_player: int
    tables: int
    seed: int
    games: tuple[ScheduledGame, ...]
    _by_round: dict[int, tuple[ScheduledGame, ...]] = field(
        init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_round: dict[int, list[ScheduledGame]] = {}
        for g in self.games:
            by_round.setdefault(g.round, []).append(g)
        object.__setattr__(self, "_by_round", {r: tuple(gs) for r, gs in by_round.items()})

    @property
    def rounds(self) -> int:
        """How many rounds the tournament has (rounds are numbered 1..rounds)."""
        return max(self._by_round, default=0)

    def round(self, number: int) -> tuple[ScheduledGame, ...]:
        """The games of round ``number`` (1-based) by table; () for a round that does not exist."""
        return self._by_round.get(number, ())

    def sitting_out(self, number: int) -> tuple[int, ...]:
        """The players (registration order) without a seat in round ``number`` (TOUR-X02)."""
        seated = {p for g in self.round(number) for p in g.seats}
        return tuple(p for p in self.players if p not in seated)

    def games_of(self, player: int) -> tuple[ScheduledGame, ...]:
        """The games of ``player`` in round order (() for somebody not seated)."""
        return tuple(g for g in self.games if player in g.seats)

    def to_dict(self) -> dict[str, object]:
        """JSON-safe data: ``{"format": 1, "players": [ids], "games_per_player": G,
        "tables": T, "seed": seed, "rounds": [[[10 ids in seat order] per table] per round]}``.
        :meth:`from_dict` reads it back equal."""
        return {
            "format": FORMAT, "players": list(self.players),
            "games_per_player": self.games_per_player, "tables": self.tables, "seed": self.seed,
            "rounds": [[list(g.seats) for g in self.round(r)] for r in range(1, self.rounds + 1)],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Schedule:
        """The schedule :meth:`to_dict` wrote. Raises :class:`BadSchedule` on another shape,
        a table without ten distinct registered players, or a player twice in one round."""
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise BadSchedule("format", "format")
        players = _ints(data.get("players"), "players")
        if len(set(players)) != len(players):
            raise BadSchedule("format", "players")
        size = _int(data.get("games_per_player"), "games_per_player")
        tables = _int(data.get("tables"), "tables")
        seed = _int(data.get("seed"), "seed")
        rounds = data.get("rounds")
        if not isinstance(rounds, list):
            raise BadSchedule("format", "rounds")
        registered = set(players)
        games = []
        for r, tables_of_round in enumerate(rounds, start=1):
            if not isinstance(tables_of_round, list) or not tables_of_round:
                raise BadSchedule("format", f"round {r}")
            seen: set[int] = set()
            for t, seats in enumerate(tables_of_round, start=1):
                where = f"round {r} table {t}"
                ids = _ints(seats, where)
                if len(ids) != TABLE_SIZE or len(set(ids)) != TABLE_SIZE:
                    raise BadSchedule("table_size", where)
                if not set(ids) <= registered:
                    raise BadSchedule("unknown_player", where)
                if seen & set(ids):
                    raise BadSchedule("twice_in_a_round", where)
                seen |= set(ids)
                games.append(ScheduledGame(round=r, table=t, seats=tuple(ids)))
        return cls(players=tuple(players), games_per_player=size, tables=tables, seed=seed,
                   games=tuple(games))


def _int(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadSchedule("format", where)
    return value


def _ints(value: object, where: str) -> list[int]:
    if not isinstance(value, Sequence) or isinstance(value, (str, bytes)):
        raise BadSchedule("format", where)
    return [_int(v, where) for v in value]
