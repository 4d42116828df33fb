"""The group's board (NOIR-42, Q22, Q28): the grid as a PNG drawn with Pillow, and the same
board as a text grid for a chat where a picture cannot go (no media right, an upload error).

Both are pure functions of :class:`engine.noir.PublicBoard` (the public state, never a hidden
identity) and the translated suspect names, so the same public state always gives the same
picture bytes.  Drawn: column letters and row numbers on the edges, the short names, dead
(struck through, greyed) and arrested (barred) suspects, bombs, threats, shields, interrogation
marks, and the last action outlined.  The font is DejaVu Sans, shipped in ``fonts/`` with its
licence, so Cyrillic draws the same wherever the project is installed."""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from engine.noir import PublicBoard, cell_name

FONT = Path(__file__).resolve().parent / "fonts" / "DejaVuSans.ttf"
CELL = 92  # px, one suspect
EDGE = 30  # px, the coordinates' margin
BG, GRID, INK = (246, 242, 232), (120, 110, 95), (30, 30, 30)
DEAD_FILL, ARREST_FILL, OUTLINE = (190, 185, 178), (196, 214, 240), (230, 120, 0)
BOMB, THREAT, SHIELD = (20, 20, 20), (200, 30, 30), (30, 90, 200)
#: the tokens of a cell sit in one row across its bottom, centred, MARK px each, MARK_STEP
#: apart, MARK_BOTTOM px above its bottom edge, under its name (NAME_LIFT px above its centre;
#: the history's replay tags the top): every marker is well inside its own cell, and a cell's
#: markers are never next to the border they would share with another cell's
MARK, MARK_STEP, MARK_BOTTOM, NAME_LIFT = 16, 21, 12, 2


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT), size)


def outlined(board: PublicBoard) -> set[int]:
    """The suspects the last action touched (a shift: its whole line; a collapse or a change
    of identity: none left on the grid to show)."""
    act = board.last_action
    if not act:
        return set()
    kind, *rest = act
    if kind == "shift":
        line, index = rest[0], rest[1]
        assert isinstance(index, int)  # ("shift", line, index, by): engine/noir/common.py
        if line == "row":
            return set(board.grid[index]) if index < len(board.grid) else set()
        return {row[index] for row in board.grid if index < len(row)}
    on_grid = {s for row in board.grid for s in row}
    return {s for s in rest if isinstance(s, int) and s in on_grid}


def draw(board: PublicBoard, names: list[str]) -> bytes:
    """The board as PNG bytes. ``names[suspect]`` is the suspect's (translated) short name."""
    return png_bytes(image(board, names))


def png_bytes(img: Image.Image) -> bytes:
    """``img`` as PNG: no metadata, no time, so the same picture gives the same bytes."""
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=6)
    return out.getvalue()


def _mark(d: ImageDraw.ImageDraw, kind: str, x: int, y: int) -> None:
    """One token in the MARK x MARK square at (x, y): a bomb with its fuse, a threat's
    triangle with "!", a shield, or the interrogation's "?"."""
    m = MARK
    if kind == "bomb":
        d.ellipse((x, y + 3, x + m - 3, y + m), fill=BOMB)
        d.line((x + m - 6, y + 5, x + m, y), fill=THREAT, width=2)
    elif kind == "threat":
        d.polygon([(x + m // 2, y), (x + m, y + m), (x, y + m)], fill=THREAT)
        d.text((x + m // 2, y + m - 5), "!", font=_font(11), fill=BG, anchor="mm")
    elif kind == "shield":
        d.polygon([(x, y), (x + m, y), (x + m, y + m * 9 // 16), (x + m // 2, y + m),
                   (x, y + m * 9 // 16)], fill=SHIELD)
    else:
        d.text((x + m // 2, y + m // 2), "?", font=_font(18), fill=SHIELD, anchor="mm")


def image(board: PublicBoard, names: list[str]) -> Image.Image:
    """The board as a Pillow image (:func:`draw` encodes it; the history's replay marks the
    identities on it first)."""
    rows, cols = len(board.grid), len(board.grid[0]) if board.grid else 0
    w, h = EDGE * 2 + cols * CELL, EDGE * 2 + rows * CELL
    img = Image.new("RGB", (max(w, EDGE * 2), max(h, EDGE * 2)), BG)
    d = ImageDraw.Draw(img)
    small, name_font = _font(16), _font(17)
    for c in range(cols):
        letter = cell_name(0, c)[0]
        for y in (EDGE // 2, h - EDGE // 2):
            d.text((EDGE + c * CELL + CELL // 2, y), letter, font=small, fill=INK, anchor="mm")
    for r in range(rows):
        for x in (EDGE // 2, w - EDGE // 2):
            d.text((x, EDGE + r * CELL + CELL // 2), str(r + 1), font=small, fill=INK, anchor="mm")
    dead, arrested = set(board.dead), set(board.arrested)
    bombs, threats, shields = set(board.bombs), set(board.threats), set(board.shields)
    asked, last = set(board.interrogated), outlined(board)
    for r, row in enumerate(board.grid):
        for c, s in enumerate(row):
            x0, y0 = EDGE + c * CELL, EDGE + r * CELL
            x1, y1 = x0 + CELL, y0 + CELL
            fill = DEAD_FILL if s in dead else ARREST_FILL if s in arrested else BG
            d.rectangle((x0, y0, x1, y1), fill=fill, outline=GRID, width=1)
            cx, cy = x0 + CELL // 2, y0 + CELL // 2
            d.text((cx, cy - NAME_LIFT), names[s], font=name_font, fill=INK, anchor="mm")
            if s in dead:
                d.line((x0 + 8, y0 + 8, x1 - 8, y1 - 8), fill=INK, width=3)
                d.line((x0 + 8, y1 - 8, x1 - 8, y0 + 8), fill=INK, width=3)
            if s in arrested:
                for bx in range(x0 + 14, x1 - 8, 16):
                    d.line((bx, y0 + 6, bx, y1 - 6), fill=SHIELD, width=2)
            marks = [k for k, on in (("bomb", s in bombs), ("threat", s in threats),
                                      ("shield", s in shields), ("asked", s in asked)) if on]
            mx = cx - (len(marks) * MARK_STEP - (MARK_STEP - MARK)) // 2
            for i, kind in enumerate(marks):
                _mark(d, kind, mx + i * MARK_STEP, y1 - MARK_BOTTOM - MARK)
            if s in last:
                d.rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), outline=OUTLINE, width=4)
    return img


#: the text grid's marks, one letter each, after the name (the legend explains them)
MARKS = (("dead", "x"), ("arrested", "#"), ("bombs", "*"), ("threats", "!"), ("shields", "+"),
         ("interrogated", "?"))


def text_grid(board: PublicBoard, names: list[str], width: int = 7) -> str:
    """The board as monospaced lines (for ``<pre>``): a header of column letters, then one line
    a row: its number and each suspect's name cut to ``width`` and its marks; the last action's
    suspects in [brackets]."""
    cols = len(board.grid[0]) if board.grid else 0
    sets = {key: set(getattr(board, key)) for key, _ in MARKS}
    last = outlined(board)
    cell = width + 4
    lines = ["   " + "".join(cell_name(0, c)[0].center(cell) for c in range(cols))]
    for r, row in enumerate(board.grid):
        parts = []
        for s in row:
            marks = "".join(m for key, m in MARKS if s in sets[key])
            text = names[s][:width] + marks
            parts.append((f"[{text}]" if s in last else f" {text} ").ljust(cell))
        lines.append(f"{r + 1:>2} " + "".join(parts).rstrip())
    return "\n".join(lines)
