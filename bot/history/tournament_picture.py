"""A tournament's pictures (issue 22, docs/tournaments.md): the standings table and the seating
schedule, each one PNG drawn with Pillow in the protocol picture's style (its font, colours and
helpers: bot/history/protocol_picture.py).

The caller gives the texts already translated (:class:`StandingsCard`, :class:`ScheduleCard`);
this module only lays them out.  Laid out for a phone: 1000 px (standings) or 1200 px
(schedule) wide, text at least 20 px.  No metadata and no time in the PNG: the same card gives
the same bytes.  A picture Telegram would refuse (width + height over 10,000 px) is not drawn:
:func:`draw_standings` keeps the first :data:`MAX_ROWS` rows, :func:`draw_schedule` returns
None (the caller sends the text).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from .protocol_picture import BAND, BG, DIM, GOLD, INK, MARGIN, PAPER, RULE, _bold, _fit, _font

__all__ = ["MAX_ROWS", "ScheduleCard", "ScheduleRound", "StandingLine", "StandingsCard",
           "draw_schedule", "draw_standings"]

#: Telegram refuses a photo whose width + height pass 10,000 px
TELEGRAM_SIDES = 10_000
#: the standings picture's rows at most (the rest are in the text)
MAX_ROWS = 150
S_WIDTH, S_ROW, S_HEAD = 1000, 46, 44  # px: the standings picture
C_WIDTH, C_LINE, C_HEAD, C_GAP = 1200, 31, 40, 12  # px: the schedule picture
SUB_FILL, TOP_FILL = (232, 238, 250), (252, 242, 204)


@dataclass(frozen=True)
class StandingLine:
    """One row: ``place``, ``name``, and the numbers as shown (``points``, ``games``, ``wins``,
    ``additional``, ``best_move``: text); ``substitute``: he played as a substitute (marked);
    ``per_game``: his points per game as shown, drawn in a column after the points when the
    card has ``per_game_head`` (TOUR-X10)."""

    place: int
    name: str
    points: str
    games: str
    wins: str
    additional: str
    best_move: str
    substitute: bool = False
    per_game: str = ""


@dataclass(frozen=True)
class StandingsCard:
    """``heads``: the 7 column titles (place, name, points, games, wins, additional, best
    move); ``note``: the lines under the table (the per-game key, the substitutes' mark), may
    be empty; ``per_game_head``: the title of the per-game column, drawn only when not empty
    (the table is ranked by points per game, TOUR-X10)."""

    title: str
    subtitle: str
    heads: tuple[str, str, str, str, str, str, str]
    rows: tuple[StandingLine, ...]
    note: str = ""
    per_game_head: str = ""


@dataclass(frozen=True)
class ScheduleRound:
    """A round: its ``label``, per table (its label, the names by seat 1..10) and the line of
    who sits out (empty: nobody)."""

    label: str
    tables: tuple[tuple[str, tuple[str, ...]], ...]
    sitting_out: str = ""


@dataclass(frozen=True)
class ScheduleCard:
    title: str
    subtitle: str
    rounds: tuple[ScheduleRound, ...]


def _png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=3)
    return out.getvalue()


# --- the standings -------------------------------------------------------------------------------
S_COLS = (70, 0, 120, 90, 90, 120, 130)  # px; the name takes what the others leave
S_PER_GAME = 110  # px: the per-game column after the points (TOUR-X10)


def draw_standings(card: StandingsCard) -> bytes:
    """The standings as PNG bytes: a title, a subtitle, the table (the top three tinted gold,
    a substitute's row blue with ``*``), the per-game column when the card has one (then in
    bold instead of the points), the note (one line per its lines); at most :data:`MAX_ROWS`
    rows."""
    rows = card.rows[:MAX_ROWS]
    inner = S_WIDTH - 2 * MARGIN
    widths = list(S_COLS)
    heads = list(card.heads)
    if card.per_game_head:
        widths.insert(3, S_PER_GAME)
        heads.insert(3, card.per_game_head)
    widths[1] = inner - sum(widths)
    notes = card.note.splitlines()
    height = MARGIN + 92 + S_HEAD + S_ROW * len(rows) + 32 * len(notes) + \
        (8 if notes else 0) + MARGIN
    img = Image.new("RGB", (S_WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    _bold(d, (MARGIN, MARGIN), _fit(card.title, 34, inner), 34, INK)
    d.text((MARGIN, MARGIN + 48), _fit(card.subtitle, 24, inner), font=_font(24), fill=DIM)
    y = MARGIN + 92
    d.rectangle((MARGIN, y, S_WIDTH - MARGIN, y + S_HEAD), fill=BAND, outline=RULE)
    x = MARGIN
    for k, (title, w) in enumerate(zip(heads, widths, strict=True)):
        if k == 1:
            _bold(d, (x + 10, y + S_HEAD / 2), _fit(title, 19, w - 12), 19, INK, anchor="lm")
        else:
            _bold(d, (x + w / 2, y + S_HEAD / 2), _fit(title, 19, w - 8), 19, INK, anchor="mm")
        x += w
    top = y
    y += S_HEAD
    for row in rows:
        fill = SUB_FILL if row.substitute else TOP_FILL if row.place <= 3 else PAPER
        d.rectangle((MARGIN, y, S_WIDTH - MARGIN, y + S_ROW), fill=fill, outline=RULE)
        mid = y + S_ROW / 2
        cells = [str(row.place), row.name + (" *" if row.substitute else ""), row.points,
                 row.games, row.wins, row.additional, row.best_move]
        if card.per_game_head:
            cells.insert(3, row.per_game)
        x = MARGIN
        for k, (text, w) in enumerate(zip(cells, widths, strict=True)):
            if k == 0:
                _bold(d, (x + w / 2, mid), text, 23, GOLD if row.place <= 3 else INK, anchor="mm")
            elif k == 1:
                d.text((x + 10, mid), _fit(text, 22, w - 16), font=_font(22), fill=INK,
                       anchor="lm")
            elif k == (3 if card.per_game_head else 2):  # the ranking key in bold
                _bold(d, (x + w / 2, mid), _fit(text, 23, w - 8), 23, INK, anchor="mm")
            else:
                d.text((x + w / 2, mid), _fit(text, 21, w - 8), font=_font(21), fill=INK,
                       anchor="mm")
            x += w
        y += S_ROW
    x = MARGIN
    for w in widths[:-1]:
        x += w
        d.line((x, top, x, y), fill=RULE)
    for i, note in enumerate(notes):
        d.text((MARGIN, y + 10 + 32 * i), _fit(note, 20, inner), font=_font(20), fill=DIM)
    return _png(img)


# --- the schedule --------------------------------------------------------------------------------
def _columns(tables: int) -> int:
    return 1 if tables == 1 else 2 if tables in (2, 4) else 3


def _cell_h(names: int) -> int:
    return C_HEAD + C_LINE * names + 10


def _round_h(r: ScheduleRound, cols: int) -> int:
    lines = max((len(names) for _l, names in r.tables), default=0)
    grid = -(-len(r.tables) // cols) * (_cell_h(lines) + C_GAP)
    return 44 + C_GAP + grid + (34 if r.sitting_out else 0)


def draw_schedule(card: ScheduleCard) -> bytes | None:
    """The schedule as PNG bytes: per round a band, then its tables side by side (1, 2 or 3
    columns), each with its seats 1..10 and names; who sits out under them. None when the
    picture would pass Telegram's 10,000 px (width + height): the caller sends the text."""
    tables = max((len(r.tables) for r in card.rounds), default=1)
    cols = _columns(tables)
    height = MARGIN + 92 + sum(_round_h(r, cols) for r in card.rounds) + MARGIN
    if height + C_WIDTH > TELEGRAM_SIDES:
        return None
    inner = C_WIDTH - 2 * MARGIN
    cell_w = (inner - C_GAP * (cols - 1)) // cols
    img = Image.new("RGB", (C_WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    _bold(d, (MARGIN, MARGIN), _fit(card.title, 34, inner), 34, INK)
    d.text((MARGIN, MARGIN + 48), _fit(card.subtitle, 24, inner), font=_font(24), fill=DIM)
    y = MARGIN + 92
    for r in card.rounds:
        d.rectangle((MARGIN, y, C_WIDTH - MARGIN, y + 44), fill=BAND, outline=RULE)
        _bold(d, (MARGIN + 12, y + 22), _fit(r.label, 24, inner - 24), 24, INK, anchor="lm")
        y += 44 + C_GAP
        lines = max((len(names) for _l, names in r.tables), default=0)
        for k, (label, names) in enumerate(r.tables):
            x = MARGIN + (k % cols) * (cell_w + C_GAP)
            top = y + (k // cols) * (_cell_h(lines) + C_GAP)
            _table_cell(d, x, top, cell_w, _cell_h(lines), label, names)
        y += -(-len(r.tables) // cols) * (_cell_h(lines) + C_GAP)
        if r.sitting_out:
            d.text((MARGIN, y + 2), _fit(r.sitting_out, 20, inner), font=_font(20), fill=DIM)
            y += 34
    return _png(img)


def _table_cell(d: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, label: str,
                names: Sequence[str]) -> None:
    d.rectangle((x, y, x + w, y + h), fill=PAPER, outline=RULE)
    d.rectangle((x, y, x + w, y + C_HEAD), fill=BAND, outline=RULE)
    _bold(d, (x + 10, y + C_HEAD / 2), _fit(label, 21, w - 20), 21, INK, anchor="lm")
    for i, name in enumerate(names, start=1):
        ly = y + C_HEAD + 5 + (i - 1) * C_LINE + C_LINE / 2
        _bold(d, (x + 38, ly), str(i), 21, DIM, anchor="rm")
        d.text((x + 50, ly), _fit(name, 21, w - 60), font=_font(21), fill=INK, anchor="lm")
