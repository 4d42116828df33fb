"""Tournaments in the bot (issue 22, docs/tournaments.md): the application logic under
``/tournament`` (bot/handlers/tournament.py), free of Telegram.

A tournament is created in a group (its home: table 1), players register until the organiser
closes the registration (he adds and withdraws players until the draw), the draw seats them
(``engine.tournament.draw`` with the stored seed: the same players give the same schedule), other
groups are linked as tables 2..N, and each round's game opens in its table's group as a lobby of
the tournament's preset with the scheduled seats (PARTY-X26: only they join, seated in order).
The standings are the published score sheets of the tournament's games
(``engine.tournament.standings``, TOUR-X07..X09).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine import ChangeSettings, IllegalCommand, Role, Team, game_of
from engine.scoring import PLAIN, BadScoring, ScoreSheet, SeatScore, system_from_settings
from engine.tournament import DEFAULT_TIE_BREAKS, Played, Row, Schedule, ScheduledGame, draw, standings

from ..storage import Storage, TournamentGame, TournamentRecord, UserInAnotherGame

if TYPE_CHECKING:
    from .game_service import GameService

__all__ = ["RoundSlot", "TournamentService", "due_round", "new_seed"]

#: the presets a tournament plays (sport mafia: tables of ten)
PRESETS = ("club", "online")
#: games per player by default, and the range allowed
DEFAULT_GAMES, MAX_GAMES = 4, 20


def new_seed() -> int:
    """A draw's seed: a random signed 63-bit int (stored with the tournament)."""
    return random.SystemRandom().randrange(-(2**62), 2**62)


@dataclass(frozen=True)
class RoundSlot:
    """The scheduled game a table's group plays now: ``round`` (1-based), its ``game``
    (the schedule's seats) and the game already opened for it (None: not yet)."""

    round: int
    game: ScheduledGame
    opened: TournamentGame | None


def due_round(schedule: Schedule, played: Sequence[TournamentGame]) -> int | None:
    """The round in progress: the first whose games are not all finished (None: every game
    of the schedule is finished)."""
    done = {(g.round, g.table_no) for g in played if g.status == "finished"}
    for r in range(1, schedule.rounds + 1):
        if any((r, g.table) not in done for g in schedule.round(r)):
            return r
    return None


class TournamentService:
    """The tournament operations; ``games`` is the GameService (lobbies are opened through it)."""

    def __init__(self, storage: Storage, games: GameService) -> None:
        self.storage = storage
        self.games = games

    # --- schedule ----------------------------------------------------------------------------
    @staticmethod
    def schedule(t: TournamentRecord) -> Schedule | None:
        return None if t.schedule is None else Schedule.from_dict(t.schedule)

    async def draw(self, t: TournamentRecord) -> TournamentRecord | None:
        """Draw the seating of the registered players with the stored seed, on as many tables
        as are linked (at most one per ten players). Raises ``engine.tournament.BadDraw`` (too
        few players...). None when another press drew it first."""
        players = [p.user_id for p in await self.storage.tournament_players(t.id)]
        linked = len(await self.storage.tournament_tables(t.id))
        tables = max(1, min(linked, len(players) // 10))
        schedule = draw(players, t.games_per_player, tables, t.seed)
        return await self.storage.update_tournament(
            t.id, expect_status=t.status, status="drawn", schedule=schedule.to_dict())

    async def slot(self, t: TournamentRecord, table_no: int) -> tuple[int | None, RoundSlot | None]:
        """(the round in progress, this table's slot in it): (None, None) when every game is
        finished; (r, None) when the table has no game in round r (fewer games than tables),
        or its game of round r is finished (the other tables still play)."""
        schedule = self.schedule(t)
        if schedule is None:
            return None, None
        played = await self.storage.tournament_games(t.id)
        r = due_round(schedule, played)
        if r is None:
            return None, None
        game = next((g for g in schedule.round(r) if g.table == table_no), None)
        opened = next((g for g in played if (g.round, g.table_no) == (r, table_no)), None)
        if game is None or (opened is not None and opened.status == "finished"):
            return r, None
        return r, RoundSlot(r, game, opened)

    async def due(self, t: TournamentRecord) -> int | None:
        """The round in progress (:func:`due_round`); None: not drawn, or every game finished."""
        schedule = self.schedule(t)
        return None if schedule is None else due_round(
            schedule, await self.storage.tournament_games(t.id))

    # --- a round's lobby ---------------------------------------------------------------------
    async def open_round(self, t: TournamentRecord, slot: RoundSlot, chat_id: int, by: int,
                         locale: str, settings: dict[str, Any], title: str,
                         reachable: Callable[[int], bool]) -> tuple[int, list[int]]:
        """Open the lobby of ``slot`` in ``chat_id`` (the table's group): the tournament's
        preset, the scheduled seat order (PARTY-X26) and scoring system, ``ui["tournament"]``.
        Every scheduled player who is ``reachable`` in private and in no other game is joined
        at once; returns (the game id, the user ids still to join by pressing «Join»).
        Raises ``storage.ActiveGameExists`` (a game is open in the chat)."""
        names = {p.user_id: p.name for p in await self.storage.tournament_players(
            t.id, withdrawn=True)}
        order = list(slot.game.seats)
        settings = {**settings, "seat_order": order, "scoring": t.scoring}
        game_id = await self.games.new_game(
            chat_id, by, locale, settings, ruleset=t.preset,
            ui={"title": title, "tournament": t.id, "round": slot.round})
        self.games.persist_ui_soon(await self.games.live(game_id))
        await self.storage.set_tournament_game(t.id, slot.round, slot.game.table, game_id)
        if t.status == "drawn":
            await self.storage.update_tournament(t.id, expect_status="drawn", status="running")
        waiting = [uid for uid in order
                   if not await self._seat(game_id, uid, names.get(uid, str(uid)), reachable)]
        return game_id, waiting

    async def _seat(self, game_id: int, uid: int, name: str,
                    reachable: Callable[[int], bool]) -> bool:
        if not reachable(uid):
            return False
        async with self.games.user_lock(uid):
            other = await self.games.game_for_user(uid)
            if other is not None:
                return other == game_id
            try:
                await self.games.execute(game_id, lambda g: game_of(g.state).join(uid, name))
            except (IllegalCommand, UserInAnotherGame):
                return False
        return True

    async def substitute(self, game_id: int, seat: int, substitute: int, name: str, by: int,
                         reachable: Callable[[int], bool]) -> tuple[int, bool]:
        """The judge replaces the scheduled player of ``seat`` (1-based) of the tournament
        lobby ``game_id`` by ``substitute`` (TOUR-X07: his points are his own, marked as a
        substitute). Returns (the replaced user id, whether the substitute is seated already:
        else he joins by pressing). Raises ``IllegalCommand`` (the lobby is closed...),
        ``ValueError`` (no such seat, or the substitute is scheduled at this table)."""
        g = await self.games.live(game_id)
        st = g.state
        order = list(st.settings.get("seat_order") or []) if st is not None else []
        if not 1 <= seat <= len(order):
            raise ValueError("seat")
        if substitute in order:
            raise ValueError("seated")
        absent = order[seat - 1]
        order[seat - 1] = substitute
        if st is not None and absent in st.players:
            await self.games.execute(game_id, lambda live: game_of(live.state).leave(absent))
        await self.games.execute(game_id, ChangeSettings(user_id=by,
                                                         settings={"seat_order": order}))
        await self.storage.set_tournament_substitute(game_id, absent, substitute)
        return absent, await self._seat(game_id, substitute, name, reachable)

    # --- standings ---------------------------------------------------------------------------
    async def sheets(self, t: TournamentRecord) -> list[tuple[TournamentGame, ScoreSheet]]:
        """The published sheets of the tournament's finished games (from ``player_points``),
        by round then table."""
        out = []
        fouls = await self.storage.game_fouls([g.game_id for g in
                                               await self.storage.tournament_games(t.id)])
        try:
            system = system_from_settings(t.scoring)
        except BadScoring:
            system = PLAIN
        for g in await self.storage.tournament_games(t.id):
            rows = await self.storage.game_points_rows(g.game_id)
            if g.status != "finished" or not rows:
                continue
            seats = tuple(SeatScore(
                seat=r.seat, user_id=r.user_id, name=r.name, role=Role(r.role), team=Team(r.team),
                won=r.won, fouls=fouls.get(g.game_id, {}).get(r.user_id, 0), left=None,
                best_move=None, procedural_loss=False, win_points=r.win_points,
                best_move_points=r.best_move_points, penalty=r.penalty, additional=r.additional,
                total=r.total) for r in rows)
            winner = next((s.team for s in seats if s.won), seats[0].team)
            out.append((g, ScoreSheet(system=system, winner=winner, procedural_loss=None,
                                      seats=seats)))
        return out

    async def standings(self, t: TournamentRecord,
                        sheets: Sequence[tuple[TournamentGame, ScoreSheet]] | None = None
                        ) -> list[Row]:
        """TOUR-X07..X09: every registered player's row (zeros before his first published
        game), substitutes included, best first. ``sheets``: :meth:`sheets` of ``t`` when the
        caller has them already."""
        played = [Played(sheet, frozenset(g.substitutes.values()))
                  for g, sheet in (await self.sheets(t) if sheets is None else sheets)]
        players = [p.user_id for p in await self.storage.tournament_players(t.id)]
        tie_breaks = tuple(t.ui.get("tie_breaks") or DEFAULT_TIE_BREAKS)
        return standings(played, tie_breaks, players)

    # --- export ------------------------------------------------------------------------------
    async def export(self, t: TournamentRecord) -> dict[str, Any]:
        """The tournament as JSON-safe data (docs/tournaments.md, ``format`` 1): its settings,
        players, tables, schedule, games with their sheets' lines, and standings."""
        players = await self.storage.tournament_players(t.id, withdrawn=True)
        sheets = {g.game_id: s for g, s in await self.sheets(t)}
        return {
            "format": 1, "kind": "mafia-bot tournament",
            "tournament": {"id": t.id, "name": t.name, "chat_id": t.chat_id,
                           "preset": t.preset, "games_per_player": t.games_per_player,
                           "scoring": t.scoring, "judges": t.judges, "status": t.status,
                           "seed": t.seed, "created_by": t.created_by,
                           "created_at": t.created_at.isoformat(),
                           "tie_breaks": t.ui.get("tie_breaks")},
            "players": [{"user_id": p.user_id, "name": p.name, "withdrawn": p.withdrawn}
                        for p in players],
            "tables": {str(k): v for k, v in
                       sorted((await self.storage.tournament_tables(t.id)).items())},
            "schedule": t.schedule,
            "games": [{"round": g.round, "table": g.table_no, "game_id": g.game_id,
                       "status": g.status,
                       "substitutes": {str(k): v for k, v in g.substitutes.items()},
                       "sheet": None if g.game_id not in sheets else [
                           {"seat": s.seat, "user_id": s.user_id, "name": s.name,
                            "role": s.role.value, "team": s.team.value, "won": s.won,
                            "fouls": s.fouls, "win_points": s.win_points,
                            "best_move_points": s.best_move_points, "penalty": s.penalty,
                            "additional": s.additional, "total": s.total}
                           for s in sheets[g.game_id].seats]}
                      for g in await self.storage.tournament_games(t.id)],
            "standings": [r.to_dict() for r in await self.standings(t)],
        }
