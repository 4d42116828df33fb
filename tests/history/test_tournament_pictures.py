"""The tournament pictures (issue 22): the standings and the schedule are deterministic (the same
input gives the same bytes, kept in docs/), readable on a phone (widths, every name drawn), and
a schedule too large for Telegram is not drawn (the text goes instead)."""

from __future__ import annotations

import io

from PIL import Image

from bot.handlers.tournament_rounds import schedule_card, standings_card
from bot.history.tournament_picture import (
    MAX_ROWS,
    ScheduleCard,
    ScheduleRound,
    draw_schedule,
    draw_standings,
)
from bot.ui.i18n import Translator
from engine.tournament import draw
from tests.history.tournament_pictures import (
    DOCS,
    names,
    record,
    rows,
    schedule,
    schedule_png,
    standings_png,
)


def test_the_same_standings_give_the_same_picture_as_in_docs():
    png = standings_png()
    assert png == standings_png()
    assert png == DOCS["standings"].read_bytes(), \
        "docs/tournament-standings.png is stale: python -m tests.history.tournament_pictures"
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.size[0] == 1000 and not img.info.get("Software")


def test_the_same_schedule_gives_the_same_picture_as_in_docs():
    png = schedule_png()
    assert png is not None and png == schedule_png()
    assert png == DOCS["schedule"].read_bytes(), \
        "docs/tournament-schedule.png is stale: python -m tests.history.tournament_pictures"
    assert Image.open(io.BytesIO(png)).size[0] == 1200


def test_the_cards_carry_every_row_and_seat_and_mark_the_substitute():
    _ = Translator().get("en")
    card = standings_card(_, record(), rows(), names(), "After round 3 of 3", final=True,
                          locale="en")
    assert card.title == "Final table of «Кубок весны»" and len(card.rows) == 21
    assert [r.substitute for r in card.rows].count(True) == 1 and card.note
    assert card.rows[1].points == "5.15" and card.rows[0].additional == "0"
    sc = schedule_card(_, record(), schedule(), names())
    assert [r.label for r in sc.rounds] == ["Round 1", "Round 2", "Round 3"]
    assert all(len(seats) == 10 for r in sc.rounds for _t, seats in r.tables)
    assert {n for r in sc.rounds for _t, seats in r.tables for n in seats} == \
        set(names().values()) - {"Sub Stitute"}


def test_a_different_standing_gives_a_different_picture_and_rows_are_capped():
    _ = Translator().get("en")
    other = rows()
    other[0], other[1] = other[1], other[0]
    a = draw_standings(standings_card(_, record(), rows(), names(), "x", final=False, locale="en"))
    b = draw_standings(standings_card(_, record(), other, names(), "x", final=False, locale="en"))
    assert a != b
    many = [r for _i in range(8) for r in rows()]  # 168 rows
    big = Image.open(io.BytesIO(draw_standings(standings_card(_, record(), many, names(), "x",
                                                              final=False, locale="en"))))
    assert sum(big.size) <= 10_000 and big.size[1] < 46 * (MAX_ROWS + 10)


def test_a_schedule_too_large_for_telegram_is_not_drawn():
    _ = Translator().get("en")
    players = list(range(1, 101))
    big = draw(players, 10, 10, 1)
    pictured = {u: str(u) for u in players}
    assert draw_schedule(schedule_card(_, record(), big, pictured)) is None
    one = ScheduleCard("t", "s", (ScheduleRound("Round 1", (("Table 1", ("a",) * 10),)),))
    assert draw_schedule(one) is not None
