"""/stats' average game agrees each count with its noun (issue 20: "1 days"), also for the
fractional averages («1,5 дня», "1.5 days")."""

from __future__ import annotations

import pytest

from bot.history.render_stats import game_section, stats_text
from bot.storage.stats import ChatOverview
from bot.ui.i18n import Translator, nget_of
from tests.fakes.telegram import plain_text

TR = Translator(default_locale="en")


def average_line(locale: str, players: float, days: float, ruleset: str | None = None) -> str:
    _ = TR.get(locale)
    ov = ChatOverview(games=3, wins={"town": 2, "mafia": 1}, avg_players=players, avg_days=days,
                      avg_duration=600.0)
    text = game_section(_, nget_of(_), locale, ruleset, ov, []) if ruleset else \
        stats_text(_, nget_of(_), locale, "Group", ov, [], [])
    (line,) = [x for x in plain_text(text).splitlines()
               if x.startswith(("Average game: ", "Средняя игра: "))]
    return line


@pytest.mark.parametrize(("locale", "players", "days", "expected"), [
    ("en", 6, 1, "Average game: 6 players · 1 day · "),
    ("en", 1, 1.5, "Average game: 1 player · 1.5 days · "),
    ("en", 8.5, 3, "Average game: 8.5 players · 3 days · "),
    ("ru", 6, 1, "Средняя игра: 6 игроков · 1 день · "),
    ("ru", 7, 2.5, "Средняя игра: 7 игроков · 2,5 дня · "),
    ("ru", 2, 5, "Средняя игра: 2 игрока · 5 дней · "),
    ("ru", 21, 1.04, "Средняя игра: 21 игрок · 1 день · "),
])
def test_the_average_game_agrees_counts_with_nouns(locale, players, days, expected):
    assert average_line(locale, players, days).startswith(expected)


def test_a_game_shown_apart_agrees_its_players_too():
    assert average_line("en", 1, 4, ruleset="noir").startswith("Average game: 1 player · ")
    assert average_line("ru", 6, 4, ruleset="noir").startswith("Средняя игра: 6 игроков · ")
