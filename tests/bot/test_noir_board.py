"""The NOIR board picture and text grid (NOIR-42, Q22, Q28): pure functions of the public
board; the same public state gives the same bytes whatever the hidden identities; Cyrillic is
drawn with the font shipped in the package."""

from __future__ import annotations

import dataclasses
import io

from PIL import Image, ImageChops, ImageFont

from bot.games.noir import board
from bot.games.noir.names import SUSPECTS
from engine.noir import public_board
from tests.engine.noir.playout import play

EN = list(SUSPECTS)


def _mid_game(seed: int = 3, n: int = 8):
    po = play(seed, n)
    return po.steps[len(po.steps) // 2][2]


def test_NOIR_42_same_public_state_same_picture_bytes_whatever_the_identities():
    st = _mid_game()
    other = st.clone()
    ids = [p.identity for p in other.players.values()]
    for p, new in zip(other.players.values(), ids[1:] + ids[:1], strict=True):  # identities rotated
        p.identity = new
    assert public_board(st) == public_board(other)
    png = board.draw(public_board(st), EN)
    assert png == board.draw(public_board(other), EN)
    assert board.text_grid(public_board(st), EN) == board.text_grid(public_board(other), EN)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_NOIR_42_the_picture_has_a_cell_per_suspect_and_coordinates_on_the_edges():
    b = public_board(_mid_game())
    img = Image.open(io.BytesIO(board.draw(b, EN)))
    rows, cols = len(b.grid), len(b.grid[0])
    assert img.size == (2 * board.EDGE + cols * board.CELL, 2 * board.EDGE + rows * board.CELL)
    text = board.text_grid(b, EN)
    assert text.splitlines()[0].split() == [chr(65 + c) for c in range(cols)]
    assert [line.split()[0] for line in text.splitlines()[1:]] == [str(r + 1) for r in range(rows)]


def test_NOIR_42_marks_and_the_last_action_change_the_picture():
    b = public_board(_mid_game())
    plain = dataclasses.replace(b, dead=(), arrested=(), bombs=(), threats=(), shields=(),
                                interrogated=(), last_action=())
    assert board.draw(plain, EN) != board.draw(b, EN)
    s = b.grid[0][0]
    marked = dataclasses.replace(plain, bombs=(s,))
    assert board.draw(marked, EN) != board.draw(plain, EN)
    assert "*" in board.text_grid(marked, EN).splitlines()[1]
    outlined = dataclasses.replace(plain, last_action=("kill", s))
    assert board.outlined(outlined) == {s}
    assert board.text_grid(outlined, EN).splitlines()[1].split()[1].startswith("[")
    row = dataclasses.replace(plain, last_action=("shift", "row", 0, 1))
    assert board.outlined(row) == set(b.grid[0])


def test_cyrillic_is_drawn_with_the_font_shipped_in_the_package():
    assert board.FONT.is_file() and board.FONT.parent.parent.name == "noir"
    assert (board.FONT.parent / "LICENSE-DejaVu.txt").is_file()
    font = ImageFont.truetype(str(board.FONT), 20)
    # a font without Cyrillic draws the same "missing glyph" box for every letter
    assert font.getmask("Ж").getbbox() != font.getmask("Щ").getbbox() or \
        bytes(font.getmask("Ж")) != bytes(font.getmask("Щ"))
    b = public_board(_mid_game())
    ru = ["Жора" if i % 2 else "Щука" for i in range(len(EN))]
    assert board.draw(b, ru) != board.draw(b, EN)


def test_NOIR_42_each_token_is_drawn_well_inside_its_own_cell():
    """Issue 20: a shield and a bomb on adjacent cells looked like one cell's: every token is
    drawn at least 8 px inside its cell, in the cell's lower half under the name, so the tokens
    of two cells are never next to the border between them."""
    b = public_board(_mid_game())
    plain = dataclasses.replace(b, dead=(), arrested=(), bombs=(), threats=(), shields=(),
                                interrogated=(), last_action=())
    base = Image.open(io.BytesIO(board.draw(plain, EN))).convert("RGB")
    r, c = 1, 1
    s = plain.grid[r][c]
    x0, y0 = board.EDGE + c * board.CELL, board.EDGE + r * board.CELL
    for kind in ("bombs", "threats", "shields", "interrogated"):
        img = Image.open(io.BytesIO(board.draw(dataclasses.replace(plain, **{kind: (s,)}), EN)))
        box = ImageChops.difference(img.convert("RGB"), base).getbbox()
        assert box is not None, kind
        left, top, right, bottom = box
        assert x0 + 8 <= left and right <= x0 + board.CELL - 8, (kind, box)
        assert y0 + board.CELL // 2 <= top and bottom <= y0 + board.CELL - 8, (kind, box)
