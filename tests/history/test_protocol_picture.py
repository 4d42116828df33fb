"""The protocol as clubs print it (issue 21, item 3): the card built from the protocol and the
score sheet, its picture (deterministic, kept in docs/) and its text fallback."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from bot.history import protocol as P
from bot.history.protocol_card import Span, build_card, sheet_of_entries, text_pages
from bot.history.protocol_picture import WIDTH, draw, wrap
from bot.ui.i18n import Translator
from bot.ui.scoring import num
from engine.scoring import FIIM, PLAIN
from tests.history.club_protocol import ADDITIONAL, DOCS, card_of, docs_picture, recorded


def words(line) -> str:
    return "".join(sp.text for sp in line)


# --- the protocol's new fact: how each player left ------------------------------------------
@pytest.mark.parametrize("name", ["club-10-auto", "club-10-host-chaos", "online-10-host"])
def test_score_x06_the_protocol_says_how_each_player_left_as_the_sheet_does(name):
    entries = recorded(name)
    pr = P.build_protocol(entries)
    sheet = sheet_of_entries(entries, FIIM)
    assert sheet is not None
    assert {p.user_id: p.left for p in pr.players} == {s.user_id: s.left for s in sheet.seats}
    assert all((p.left is None) == (p.out is None) for p in pr.players)


def test_club_38_a_disqualification_after_the_fourth_foul_reads_fourth_foul():
    entries = recorded()
    pr = P.build_protocol(entries)
    victim = next(p for p in pr.players if p.out is None)
    at = next(i for i, e in enumerate(entries)
              if any(ev["type"] == "NominationAccepted" for ev in e.events))
    extra = [{"type": "FoulIssued", "player": victim.user_id, "count": 4, "by": None, "reason": ""},
             {"type": "PlayerEliminated", "user_id": victim.user_id, "cause": "disqualified",
              "audience": {"kind": "public"}}]
    entries[at] = replace(entries[at], events=[*entries[at].events, *extra])
    line = P.build_protocol(entries).player(victim.user_id)
    assert line is not None and line.left == "fourth_foul" and line.out == ("day", 1, "disqualified")


# --- the card ---------------------------------------------------------------------------------
def test_the_card_has_every_seat_its_points_and_the_sums():
    card = card_of(recorded(), "en", additional=ADDITIONAL)
    assert [r.seat for r in card.rows] == list(range(1, 11))
    assert card.columns == ("Win", "BM", "Pen.", "Add.", "Total")
    by_seat = {r.seat: r for r in card.rows}
    assert by_seat[4].out == "N5" and by_seat[4].how == "disqualified"
    assert by_seat[4].points[2] == "−0.5" and by_seat[4].points[-1] == "−0.5"
    assert by_seat[5].points == ("1", "0", "0", "0.3", "1.3") and by_seat[5].won
    assert by_seat[10].fouls == 2 and by_seat[10].out == "D1" and by_seat[10].how == "voted out"
    assert card.totals == ("3", "0", "−0.5", "0.5", "3")


def test_the_card_has_every_night_and_day_with_nominations_votes_shots_and_checks():
    card = card_of(recorded(), "en")
    assert [(n.title if n else None, d.title if d else None) for n, d in card.grid] == [
        (f"Night {k}", f"Day {k}" if k < 6 else None) for k in range(1, 7)]
    night2, day1 = card.grid[1][0], card.grid[0][1]
    assert night2 is not None and day1 is not None
    texts = [words(line) for line in night2.lines]
    assert texts[0] == "Shots: 8→7, 5→6" and "Don's check: 8→2: not the sheriff" in texts
    day = [words(line) for line in day1.lines]
    assert day[0].startswith("Nominated: 1→4, 2→3")
    assert day[1].startswith("Vote: 4\u00a0—\u00a00 · 3\u00a0—\u00a01\u00a0(6)")
    assert "Out: 10 — voted out" in day and "Fouls: 10 ×2, 9, 5" in day
    mafia = {sp.text for cell in (night2, day1) for line in cell.lines for sp in line
             if sp.team == "mafia"}
    assert mafia == {"5", "8", "10"}


def test_online_best_move_is_on_the_card():
    card = card_of(recorded("online-10-host"), "en")
    assert "Best move of 9: 1, 7, 10 (1 black)" in [words(n) for n in card.notes]


def test_without_a_sheet_there_are_no_point_columns():
    entries = recorded()
    _ = Translator().get("en")
    card = build_card(_, "en", P.build_protocol(entries), None, game_id=7)
    assert card.columns == () and card.totals == () and all(r.points == () for r in card.rows)
    assert card.title == "Protocol of game #7 · Club (sport)"
    assert Image.open(io.BytesIO(draw(card))).size[0] == WIDTH


def test_the_plain_system_scores_the_win_only():
    card = card_of(recorded(), "en", system=PLAIN)
    assert [r.points[-1] for r in card.rows] == ["1" if r.won else "0" for r in card.rows]
    assert "Scoring: Plain (a win = 1)" in [words(n) for n in card.notes]


def test_SCORE_X16_one_formatter_of_points_in_the_locale():
    assert num("ru", -0.5) == "−0,5" and num("en", 0.25) == "0.25"
    assert num("en", 1.0) == "1" and num("en", -0.001) == "0" and num("ru", 1.5) == "1,5"
    # the tournament's standings, the protocol card and /top share it: no plain hyphen
    assert "-" not in num("en", -0.25)


def test_every_word_is_translated():
    en, ru = card_of(recorded(), "en"), card_of(recorded(), "ru")
    assert ru.heads[1:] == ("Игрок", "Роль", "Фолы", "Выбыл") and ru.columns[-1] == "Итог"
    assert ru.title.startswith("Протокол игры") and ru.rows[3].out == "Н5"
    latin = [words(line) for pair in ru.grid for cell in pair if cell for line in cell.lines
             if any("a" <= ch.lower() <= "z" for ch in words(line))]
    assert latin == []
    assert en.legend != ru.legend and en.subtitle != ru.subtitle


# --- the picture ------------------------------------------------------------------------------
@pytest.mark.parametrize("locale", ["ru", "en"])
def test_the_same_log_gives_the_same_picture_as_in_docs(locale):
    png = docs_picture(locale)
    assert png == docs_picture(locale)
    assert png == DOCS[locale].read_bytes(), \
        "the picture changed: look at it, then `python -m tests.history.club_protocol`"
    img = Image.open(io.BytesIO(png))
    assert img.size[0] == WIDTH and img.size[1] <= 2560  # Telegram's largest side of a photo


def test_another_log_gives_another_picture():
    assert draw(card_of(recorded("club-10-auto"), "ru")) != docs_picture("ru")


def test_wrap_breaks_at_spaces_only_and_keeps_the_width():
    line = tuple(Span(f"{k}→{k + 1}, ", "mafia" if k % 2 else None) for k in range(1, 30))
    rows = wrap(line, 22, 300)
    assert len(rows) > 2
    text = " ".join("".join(t for t, _c, _h in r) for r in rows)
    assert text.split() == "".join(sp.text for sp in line).split()


# --- the text fallback ------------------------------------------------------------------------
def test_the_text_fallback_has_the_seats_points_rounds_and_escaped_names():
    _ = Translator().get("en")
    pages = text_pages(_, card_of(recorded(), "en", additional=ADDITIONAL))
    text = "\n".join(pages)
    assert "<b>5</b>. P8 &lt;b&gt;&amp; — Mafia · fouls: 1 · <b>1.3</b> (Win 1, Add. 0.3)" in text
    assert "N5 disqualified · <b>−0.5</b> (Pen. −0.5)" in text
    assert "<b>Night 6</b>\nShots: 5→2\nKilled: 2" in text
    assert "Total: 3" in text and "P8 <b>&" not in text


@pytest.mark.parametrize("ruleset,seed,host", [("club", 3, False), ("club", 5, True),
                                               ("online", 4, True), ("party", 1, False)])
def test_seeded_games_draw_and_their_text_fits_messages(ruleset, seed, host):
    from bot.history.render import PAGE_LIMIT
    from bot.telegram.limits import utf16_len
    from tests.engine.playout import play
    from tests.history.helpers import entries_of

    po = play(seed=seed, n=10 if ruleset != "party" else 8, host=host, chaos=0.3, ruleset=ruleset)
    card = card_of(entries_of(po), "ru")
    img = Image.open(io.BytesIO(draw(card)))
    assert img.size[0] == WIDTH and img.size[1] + img.size[0] <= 10_000  # Telegram's photo limit
    pages = text_pages(Translator().get("ru"), card)
    assert pages and all(utf16_len(p) <= PAGE_LIMIT for p in pages)
    assert [r.seat for r in card.rows] == sorted(r.seat for r in card.rows)
