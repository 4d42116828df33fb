"""The protocol as clubs print it, as one PNG (issue 21, item 3) drawn with Pillow from a
:class:`bot.history.protocol_card.Card`: a title, the seats' table (number, name, role, fouls as
four boxes, the round and the way a player left, the score sheet's point columns and their
sums), the nights and days side by side (nominations, votes, shots, checks, who left, fouls),
then the best move, the judge, the scoring system and a legend.

Laid out for a phone: 1200 px wide (Telegram shows it across the screen; opening it gives the
full size), text at least 20 px.  Mafia seats are red wherever a seat number appears.  The font
is the DejaVu Sans that NOIR's board ships (``bot/games/noir/fonts``, read by path: the
history may not import a game's package), so Cyrillic draws the same everywhere.  The PNG has
no metadata or time: the same card gives the same bytes.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from .protocol_card import Card, Cell, Line, SeatRow, Span

FONT = Path(__file__).resolve().parent.parent / "games" / "noir" / "fonts" / "DejaVuSans.ttf"
WIDTH, MARGIN, GAP = 1200, 28, 14  # px
ROW, HEAD_ROW = 50, 44  # px, the table's rows
LINE, PAD, TEXT = 30, 10, 22  # px: a line of a night or day, the cells' padding, its text
BG, PAPER, INK, DIM = (236, 232, 222), (255, 255, 255), (25, 25, 25), (105, 100, 92)
RULE, BAND = (170, 160, 145), (226, 220, 205)
RED, GOLD = (178, 24, 24), (140, 95, 0)
ROW_FILL = {"mafia": (250, 226, 224), "don": (244, 206, 202), "sheriff": (252, 242, 204)}
NIGHT_BAND, DAY_BAND = (210, 214, 230), (240, 226, 190)
FOUL_BOXES = 4


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT), size)


@lru_cache(maxsize=4096)
def _length(text: str, size: int) -> float:
    """The width in px of ``text`` at ``size`` (cached: the same seat numbers recur)."""
    return _font(size).getlength(text)


def _bold(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
          fill: tuple[int, int, int], anchor: str = "la") -> None:
    """Text drawn a little heavier (DejaVu Sans Bold is not shipped: a thin stroke)."""
    d.text(xy, text, font=_font(size), fill=fill, anchor=anchor, stroke_width=1, stroke_fill=fill)


def _fit(text: str, size: int, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` px at ``size``."""
    if _length(text, size) <= width:
        return text
    while text and _length(text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def _size(text: str, size: int, width: float, least: int = 16) -> int:
    """The largest size from ``size`` down to ``least`` at which ``text`` fits ``width``."""
    while size > least and _length(text, size) > width:
        size -= 1
    return size


# --- wrapping the nights' and days' lines --------------------------------------------------------
Piece = tuple[str, tuple[int, int, int], bool]  # text, colour, heavier


def wrap(line: Line, size: int, width: float) -> list[list[Piece]]:
    """``line`` as visual lines of at most ``width`` px at ``size``: broken at spaces only
    (``8→5`` stays whole), mafia seats red; leading spaces indent every visual line."""
    words: list[list[Piece]] = [[]]  # pieces between spaces; [] marks a space
    for span in line:
        color = RED if span.team == "mafia" else INK
        heavy = span.strong or span.team == "mafia"
        for i, part in enumerate(span.text.split(" ")):
            if i:
                words.append([])
            if part:
                words[-1].append((part, color, heavy))
    indent = 0
    while indent < len(words) - 1 and not words[indent]:
        indent += 1
    space = _length(" ", size)
    pad = space * indent
    rows: list[list[Piece]] = [[]]
    used = pad
    for word in words[indent:]:
        if not word:
            continue
        w = sum(_length(t, size) for t, _c, _h in word)
        gap = space if rows[-1] else 0.0
        if rows[-1] and used + gap + w > width:
            rows.append([])
            used, gap = pad, 0.0
        if gap:
            rows[-1].append((" ", INK, False))
        elif pad:
            rows[-1].append((" " * indent, INK, False))
        rows[-1] += word
        used += gap + w
    return [r for r in rows if r] or [[]]


@dataclass(frozen=True)
class _Laid:
    cell: Cell | None
    rows: list[list[Piece]]


# --- the picture ----------------------------------------------------------------------------------
def draw(card: Card) -> bytes:
    """The protocol as PNG bytes (see the module's docstring): no metadata, no time, so the
    same card gives the same bytes."""
    out = io.BytesIO()
    image(card).save(out, format="PNG", compress_level=3)  # 6 is ~5% smaller, ~30% slower
    return out.getvalue()


def _columns(card: Card) -> list[tuple[str, int]]:
    """The table's (title, width px); the name takes what the others leave."""
    fixed = [("№", 52), ("", 0), ("role", 172), ("fouls", 122), ("out", 200)]
    points = [(title, 78) for title in card.columns]
    name = WIDTH - 2 * MARGIN - sum(w for _t, w in fixed) - sum(w for _t, w in points)
    fixed[1] = ("name", name)
    return fixed + points


def image(card: Card) -> Image.Image:
    """The protocol as a Pillow image (:func:`draw` encodes it)."""
    cols = _columns(card)
    inner = WIDTH - 2 * MARGIN
    night_w = (inner - GAP) * 44 // 100
    widths = (night_w, inner - GAP - night_w)
    laid = [[_Laid(c, [r for line in (c.lines if c else ()) for r in wrap(line, TEXT, w - 2 * PAD)])
             for c, w in zip(pair, widths, strict=True)] for pair in card.grid]
    notes = [r for line in card.notes for r in wrap(line, 22, inner)]
    legend = wrap((Span(card.legend),), 19, inner)
    table_h = HEAD_ROW + ROW * len(card.rows) + (ROW if card.totals else 0)
    grid_h = sum(_cell_h(pair) + GAP for pair in laid)
    height = (MARGIN + 96 + table_h + 2 * GAP + grid_h + GAP + LINE * len(notes)
              + 26 * len(legend) + MARGIN)
    img = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    y = MARGIN
    _bold(d, (MARGIN, y), _fit(card.title, 36, inner), 36, INK)
    d.text((MARGIN, y + 50), _fit(card.subtitle, 26, inner), font=_font(26), fill=DIM)
    y += 96
    y = _table(d, card, cols, y)
    y += 2 * GAP
    for pair in laid:
        h = _cell_h(pair)
        for k, item in enumerate(pair):
            x = MARGIN + k * (widths[0] + GAP)
            _cell(d, item, x, y, widths[k], h, night=k == 0)
        y += h + GAP
    for row in notes:
        _pieces(d, row, MARGIN, y, 22)
        y += LINE
    for row in legend:
        d.text((MARGIN, y + 4), "".join(t for t, _c, _h in row), font=_font(19), fill=DIM)
        y += 26
    return img


def _cell_h(pair: list[_Laid]) -> int:
    return 38 + PAD + max(max(len(item.rows), 1) * LINE for item in pair) + PAD


def _cell(d: ImageDraw.ImageDraw, item: _Laid, x: int, y: int, w: int, h: int, *,
          night: bool) -> None:
    if item.cell is None:
        return
    d.rectangle((x, y, x + w, y + h), fill=PAPER, outline=RULE)
    d.rectangle((x, y, x + w, y + 38), fill=NIGHT_BAND if night else DAY_BAND, outline=RULE)
    _bold(d, (x + PAD, y + 19), item.cell.title, 22, INK, anchor="lm")
    ty = y + 38 + PAD
    for row in item.rows:
        _pieces(d, row, x + PAD, ty, TEXT)
        ty += LINE


def _pieces(d: ImageDraw.ImageDraw, row: list[Piece], x: float, y: int, size: int) -> None:
    """Draw one visual line; neighbouring pieces of one style go in one call."""
    runs: list[Piece] = []
    for text, color, heavy in row:
        if runs and runs[-1][1:] == (color, heavy):
            runs[-1] = (runs[-1][0] + text, color, heavy)
        else:
            runs.append((text, color, heavy))
    font = _font(size)
    for text, color, heavy in runs:
        if heavy:
            _bold(d, (x, y + 3), text, size, color)
        else:
            d.text((x, y + 3), text, font=font, fill=color)
        x += _length(text, size)


def _table(d: ImageDraw.ImageDraw, card: Card, cols: list[tuple[str, int]], y: int) -> int:
    titles = [*card.heads, *card.columns]
    x = MARGIN
    d.rectangle((MARGIN, y, WIDTH - MARGIN, y + HEAD_ROW), fill=BAND, outline=RULE)
    for (key, w), title in zip(cols, titles, strict=True):
        anchor_x = x + w / 2 if key != "name" else x + 10
        _bold(d, (anchor_x, y + HEAD_ROW / 2), _fit(title, 19, w - 8), 19, INK,
              anchor="mm" if key != "name" else "lm")
        x += w
    y += HEAD_ROW
    for row in card.rows:
        _seat_row(d, row, cols, y)
        y += ROW
    if card.totals:
        d.rectangle((MARGIN, y, WIDTH - MARGIN, y + ROW), fill=BAND, outline=RULE)
        x = MARGIN + sum(w for _k, w in cols[:5])
        _bold(d, (x - 12, y + ROW / 2), card.total_label, 21, INK, anchor="rm")
        for (_k, w), value in zip(cols[5:], card.totals, strict=True):
            _bold(d, (x + w / 2, y + ROW / 2), value, 21, INK, anchor="mm")
            x += w
        y += ROW
    x = MARGIN
    top = y - ROW * len(card.rows) - (ROW if card.totals else 0) - HEAD_ROW
    for _k, w in cols[:-1]:
        x += w
        d.line((x, top, x, y), fill=RULE)
    return y


def _seat_row(d: ImageDraw.ImageDraw, row: SeatRow, cols: list[tuple[str, int]], y: int) -> None:
    key = row.role_key if row.role_key in ROW_FILL else "mafia" if row.team == "mafia" else ""
    d.rectangle((MARGIN, y, WIDTH - MARGIN, y + ROW), fill=ROW_FILL.get(key, PAPER), outline=RULE)
    mid = y + ROW / 2
    x = MARGIN
    widths = [w for _k, w in cols]
    _bold(d, (x + widths[0] / 2, mid), str(row.seat), 24, RED if row.team == "mafia" else INK,
          anchor="mm")
    x += widths[0]
    d.text((x + 10, mid), _fit(row.name, 22, widths[1] - 16), font=_font(22), fill=INK, anchor="lm")
    x += widths[1]
    color = RED if row.team == "mafia" else GOLD if row.role_key == "sheriff" else INK
    size = _size(row.role, 21, widths[2] - 10)
    d.text((x + widths[2] / 2, mid), _fit(row.role, size, widths[2] - 10), font=_font(size),
           fill=color, anchor="mm")
    x += widths[2]
    box, gap = 20, 7
    bx = x + (widths[3] - FOUL_BOXES * box - (FOUL_BOXES - 1) * gap) / 2
    for i in range(FOUL_BOXES):
        fill = (RED if i == 3 else INK) if i < row.fouls else PAPER
        d.rectangle((bx, mid - box / 2, bx + box, mid + box / 2), fill=fill, outline=DIM, width=2)
        bx += box + gap
    x += widths[3]
    if row.out:
        _bold(d, (x + 10, mid), row.out, 21, INK, anchor="lm")
        ox = x + 10 + _length(row.out, 21) + 10
        d.text((ox, mid), _fit(row.how, 19, x + widths[4] - ox - 6), font=_font(19), fill=DIM,
               anchor="lm")
    x += widths[4]
    for i, (w, value) in enumerate(zip(widths[5:], row.points, strict=True)):
        last = i == len(row.points) - 1
        shown = value if value != "0" or last or i == 0 else "·"
        if last:
            _bold(d, (x + w / 2, mid), shown, 23, INK, anchor="mm")
        else:
            d.text((x + w / 2, mid), shown, font=_font(21), fill=INK if shown != "·" else DIM,
                   anchor="mm")
        x += w
