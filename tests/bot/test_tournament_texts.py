"""The tournament's texts (bot/handlers/tournament_texts.py): a long standings table keeps every
row whole (the Sender splits a long text at line breaks); the schedule's head needs no plural."""

from __future__ import annotations

from dataclasses import replace

from bot.handlers import tournament_texts as tx
from bot.telegram.limits import split_text
from bot.ui.i18n import Translator
from engine.tournament import draw
from tests.history.tournament_pictures import PLAYERS, record, rows


def test_TOUR_bot_layer_a_long_standings_table_keeps_every_row_whole() -> None:
    _ = Translator().get("en")
    base = rows()
    many = [replace(base[i % len(base)], place=i + 1, user_id=10_000 + i,
                    name=f"A&B <i>{i}</i> " + "Ж" * 40) for i in range(60)]
    text = tx.standings_text(_, record(), many, {}, final=False, locale="en")
    pages = split_text(text)
    assert len(pages) > 1
    lines = [line for page in pages for line in page.split("\n")]
    for i in range(60):  # every row, its name escaped and whole
        assert any(line.startswith(f"{i + 1}. ") and f"A&amp;B &lt;i&gt;{i}&lt;/i&gt;" in line
                   for line in lines), i


def test_TOUR_bot_layer_the_schedule_head_counts_without_a_plural() -> None:
    for locale in ("en", "ru"):
        _ = Translator().get(locale)
        one_table = draw(PLAYERS, 1, 1, 7)  # 20 players, one table at once: two rounds
        head = tx.schedule_pages(_, record(), one_table, {})[0].split("\n\n")[0]
        assert "1 tables" not in head and ": 1 ·" in head


def test_SCORE_X16_the_standings_write_points_as_the_sheet_does() -> None:
    """Review: the tournament's own formatter wrote «1.5» in Russian and a plain hyphen minus;
    the standings use bot.ui.scoring.num (the locale's separator, a true minus)."""
    base = rows()
    negative = replace(base[0], points=-0.5, additional=0.25, best_move=1.5)
    ru = tx.standings_text(Translator().get("ru"), record(), [negative], {}, final=False,
                           locale="ru")
    assert "−0,5" in ru and "0,25" in ru and "1,5" in ru and "-0" not in ru
    en = tx.standings_text(Translator().get("en"), record(), [negative], {}, final=False,
                           locale="en")
    assert "−0.5" in en and "0.25" in en


def test_TOUR_X10_the_text_card_picture_and_csv_show_the_points_per_game() -> None:
    from bot.handlers.tournament_rounds import standings_card
    from bot.history.tournament_picture import draw_standings
    from tests.history.tournament_pictures import names

    base = rows()
    per_game = [replace(r, per_game=True) for r in base]
    for locale, word in (("en", "per game"), ("ru", "за игру")):
        _ = Translator().get(locale)
        plain = tx.standings_text(_, record(), base, {}, final=False, locale=locale)
        text = tx.standings_text(_, record(), per_game, {}, final=False, locale=locale)
        assert word not in plain and tx.per_game_note(_) not in plain
        # 121 (1 game, 0.4) and the first (3 games, 5.4: 1.8 per game)
        assert f"· {'1.8' if locale == 'en' else '1,8'} {word}" in text.split("\n")[1]
        assert tx.per_game_note(_) in text
        card = standings_card(_, record(), per_game, names(), "x", final=False, locale=locale)
        assert card.per_game_head and card.rows[0].per_game in ("1.8", "1,8")
        assert card.note.split("\n") == [tx.per_game_note(_), _("* played as a substitute")]
        old = standings_card(_, record(), base, names(), "x", final=False, locale=locale)
        assert old.per_game_head == "" and old.rows[0].per_game == ""
        assert draw_standings(card) != draw_standings(old)
    csv_rows = tx.standings_csv(per_game).decode("utf-8-sig").splitlines()
    assert csv_rows[0].endswith(",average,per_game") and csv_rows[1].endswith(",1.8,1")
    assert tx.standings_csv(base).decode("utf-8-sig").splitlines()[1].endswith(",1.8,0")
