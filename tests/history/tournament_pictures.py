"""The tournament pictures kept in ``docs/`` (issue 22): the standings of a 20-player tournament
after its 3 rounds (a substitute among them) and its schedule (2 tables), shared by their tests.

``python -m tests.history.tournament_pictures`` rewrites ``docs/tournament-standings.png`` and
``docs/tournament-schedule.png`` (Russian) after a deliberate change of the pictures."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bot.handlers.tournament_rounds import schedule_card, standings_card
from bot.history.tournament_picture import draw_schedule, draw_standings
from bot.storage import TournamentRecord
from bot.ui.i18n import Translator
from engine.tournament import Row, Schedule, draw

ROOT = Path(__file__).resolve().parents[2]
DOCS = {"standings": ROOT / "docs" / "tournament-standings.png",
        "schedule": ROOT / "docs" / "tournament-schedule.png"}
NAMES = ["Анна", "Борис", "Вера Длинная-Фамилия-Через-Дефис", "Глеб", "Дарья", "Егор", "Жанна",
         "Зоя", "Иван", "Кира", "Лев", "Мария", "Никита", "Ольга", "Пётр", "Рита", "Семён",
         "Таня", "Ульяна", "Фёдор", "Sub Stitute"]
PLAYERS = list(range(101, 121))


def record() -> TournamentRecord:
    return TournamentRecord(
        id=3, chat_id=-100, name="Кубок весны", preset="club", games_per_player=3,
        scoring={"name": "fiim"}, judges=[], status="finished", seed=7, schedule=None,
        created_by=1, created_at=datetime(2026, 4, 1, tzinfo=UTC), ui={})


def names() -> dict[int, str]:
    return dict(zip([*PLAYERS, 121], NAMES, strict=True))


def schedule() -> Schedule:
    return draw(PLAYERS, 3, 2, 7)


def rows() -> list[Row]:
    out = []
    for i, uid in enumerate([*PLAYERS, 121]):
        k = 2 if i == 3 else i  # the fourth ties the third on everything: a shared place
        points = round(5.4 - 0.25 * k, 2)
        out.append(Row(place=i + 1 if i != 3 else 3, user_id=uid, name=names()[uid],
                       points=points, games=3 if uid != 121 else 1, wins=max(0, 3 - i // 7),
                       additional=round(0.1 * (k % 5), 2), best_move=0.5 if k == 2 else 0.0,
                       penalties=0.0, fouls=i % 3, substitute_games=int(uid == 121)))
    return out


def standings_png(locale: str = "ru") -> bytes:
    _ = Translator().get(locale)
    after = _("After round {r} of {n}").format(r=3, n=3)
    return draw_standings(standings_card(_, record(), rows(), names(), after,
                                         final=True, locale=locale))


def schedule_png(locale: str = "ru") -> bytes | None:
    _ = Translator().get(locale)
    return draw_schedule(schedule_card(_, record(), schedule(), names()))


if __name__ == "__main__":
    DOCS["standings"].write_bytes(standings_png())
    png = schedule_png()
    assert png is not None
    DOCS["schedule"].write_bytes(png)
    print(*DOCS.values())
