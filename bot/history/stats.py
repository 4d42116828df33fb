"""Per-game results and the community rating (pure; see docs/history.md, "Rating").

Rating: Elo with one track per team ("red" = town, "black" = mafia; any team of a future preset
gets its own track).  Every player starts each track at :data:`BASE_RATING`.  After a game, each
team's strength is the mean of its members' ratings on that team's track; with two teams A and B::

    E_A = 1 / (1 + 10 ** ((R_B - R_A) / 400))      S_A = 1 win, 0 loss, 0.5 no winner
    every member of A: r += K * (S_A - E_A)          (K = 24), and symmetrically for B

With more than two teams the pairwise changes are averaged.  Separate tracks absorb a preset's
side advantage: if the town wins 60 % of equal games, the red tracks drift up until the expected
score says 60 %, instead of inflating everyone who happened to draw a red card.  The overall
rating shown by /top and /me is ``BASE + Σ (track - BASE)``, the points won on all tracks; /top
lists players with at least :data:`MIN_GAMES_FOR_TOP` games.

A game with its own history (NOIR) stores scoped teams (``noir:agents``); those feed no track
(:func:`bot.history.games.rated`): :func:`rate` leaves them out of its answer, and the storage
keeps their per-role totals only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from .games import GameOutcome, rated
from .protocol import Protocol

if TYPE_CHECKING:
    from ..storage.records import GameRecord

BASE_RATING = 1500.0
K_FACTOR = 24.0
MIN_GAMES_FOR_TOP = 5

RatingKey = tuple[int, str]  # (user_id, team)


def expected(r_a: float, r_b: float) -> float:
    """Elo expected score of a side rated ``r_a`` against ``r_b``."""
    return 1.0 / (1.0 + 10.0 ** ((r_b - r_a) / 400.0))


def rate(current: Mapping[RatingKey, float], teams: Mapping[int, str], winner: str | None,
         k: float = K_FACTOR) -> dict[RatingKey, float]:
    """New ratings of one game's players: ``teams`` user -> team, ``current`` (user, team) ->
    rating (missing = :data:`BASE_RATING`), ``winner`` the winning team (None: no winner).
    Returns (user, team) -> new rating for every player on a rated team (a scoped team of a
    game that is not rated, e.g. ``noir:agents``, gets none)."""
    members: dict[str, list[int]] = {}
    for uid, team in teams.items():
        if not rated(team):
            continue
        members.setdefault(team, []).append(uid)
    strength = {t: sum(current.get((u, t), BASE_RATING) for u in us) / len(us)
                for t, us in members.items()}
    new: dict[RatingKey, float] = {}
    for team, us in members.items():
        others = [t for t in members if t != team]
        delta = 0.0
        for other in others:
            score = 1.0 if winner == team else 0.0 if winner == other else 0.5
            delta += k * (score - expected(strength[team], strength[other]))
        delta = delta / len(others) if others else 0.0
        for u in us:
            new[(u, team)] = current.get((u, team), BASE_RATING) + delta
    return new


def overall(tracks: Iterable[float]) -> float:
    """The rating /top shows: base plus what was won on every track."""
    return BASE_RATING + sum(r - BASE_RATING for r in tracks)


@dataclass(frozen=True)
class GameSummary:
    """One finished game in the history list (table ``game_summaries``)."""

    game_id: int
    chat_id: int
    title: str
    ruleset: str
    winner: str | None
    players: int
    days: int
    duration: int | None  # seconds from the start to the end
    finished_at: datetime


@dataclass(frozen=True)
class PlayerResult:
    """One player's result in one game (table ``player_results``)."""

    game_id: int
    chat_id: int
    user_id: int
    name: str
    seat: int
    role: str
    team: str
    won: bool
    survived: bool
    fouls: int
    finished_at: datetime


def summarize(game: GameRecord, protocol: Protocol,
              title: str = "") -> tuple[GameSummary, list[PlayerResult]]:
    """The summary rows of a finished ``game`` (:class:`bot.storage.GameRecord`) from its
    protocol. Raises ``ValueError`` if the game has no result or no finish time."""
    if protocol.result is None or game.finished_at is None:
        raise ValueError(f"game {game.id} has no result")
    winner = protocol.result.winner
    duration = None
    if game.started_at is not None:
        duration = max(0, int((game.finished_at - game.started_at).total_seconds()))
    summary = GameSummary(game_id=game.id, chat_id=game.chat_id, title=title[:256],
                          ruleset=game.ruleset, winner=winner, players=len(protocol.players),
                          days=protocol.result.days, duration=duration,
                          finished_at=game.finished_at)
    results = [PlayerResult(game_id=game.id, chat_id=game.chat_id, user_id=p.user_id,
                            name=p.name[:256], seat=p.seat, role=p.role or "?",
                            team=p.team or "?", won=protocol.won(p),
                            survived=p.alive, fouls=p.fouls, finished_at=game.finished_at)
               for p in protocol.players]
    return summary, results


def summarize_outcome(game: GameRecord, outcome: GameOutcome,
                      title: str = "") -> tuple[GameSummary, list[PlayerResult]]:
    """The summary rows of a finished game with its own history (``outcome``: the hook's
    ``Outcome``: ``winner``, ``rounds`` -- stored as ``days`` --, ``players``). Raises
    ``ValueError`` if the game has no finish time."""
    if game.finished_at is None:
        raise ValueError(f"game {game.id} has no result")
    duration = None
    if game.started_at is not None:
        duration = max(0, int((game.finished_at - game.started_at).total_seconds()))
    summary = GameSummary(game_id=game.id, chat_id=game.chat_id, title=title[:256],
                          ruleset=game.ruleset, winner=outcome.winner,
                          players=len(outcome.players), days=outcome.rounds, duration=duration,
                          finished_at=game.finished_at)
    results = [PlayerResult(game_id=game.id, chat_id=game.chat_id, user_id=p.user_id,
                            name=p.name[:256], seat=p.seat, role=p.role, team=p.team,
                            won=p.won, survived=p.survived, fouls=0,
                            finished_at=game.finished_at)
               for p in outcome.players]
    return summary, results


@dataclass(frozen=True)
class RoleLine:
    """Aggregates of one (team, role): games, wins, survived, fouls."""

    team: str
    role: str
    games: int
    wins: int
    survived: int
    fouls: int


def percent(part: int, whole: int) -> int:
    return round(100 * part / whole) if whole else 0


@dataclass(frozen=True)
class Standing:
    """A player's place in a chat's rating: ``tracks`` team -> (rating, games, wins)."""

    user_id: int
    name: str
    rating: float
    games: int
    wins: int
    tracks: dict[str, tuple[float, int, int]]


def standings(tracks: Iterable) -> list[Standing]:
    """Rating rows (``RatingTrack``) of one chat -> standings, best first (ties: more games,
    then user id)."""
    by_user: dict[int, list] = {}
    for t in tracks:
        by_user.setdefault(t.user_id, []).append(t)
    out = []
    for uid, ts in by_user.items():
        out.append(Standing(
            user_id=uid, name=ts[0].name, rating=overall(t.rating for t in ts),
            games=sum(t.games for t in ts), wins=sum(t.wins for t in ts),
            tracks={t.team: (t.rating, t.games, t.wins) for t in ts}))
    out.sort(key=lambda s: (-s.rating, -s.games, s.user_id))
    return out


def ranked(board: list[Standing], min_games: int = MIN_GAMES_FOR_TOP) -> list[Standing]:
    """The standings of players with at least ``min_games`` games (the /top list)."""
    return [s for s in board if s.games >= min_games]
