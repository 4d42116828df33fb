"""Grid geometry: positions, adjacency, straight and diagonal lines, shifts with wrap-around,
swaps and the collapse of the dead (NOIR-06, 22, 26, 31, 37..39, Q04, Q05, Q13, Q23).

Positions are ``(row, col)``, 0-based, row 0 on top; cell names are "A1" (column letter, row
number).  Adjacency never wraps over an edge (NOIR-Q04); only shifts wrap (NOIR-37).
"""

from __future__ import annotations

from .state import NoirState, ShiftMove

LINES = ("row", "column")
ENDS = ("first", "last")
AXES = ("columns", "rows")


def cell_name(row: int, col: int) -> str:
    """"A1" for (0, 0): the column letter, then the row number."""
    return f"{chr(65 + col)}{row + 1}"


#: suspect -> (row, column) on the grid, from 0 (what :func:`positions` returns)
Positions = dict[int, tuple[int, int]]


def positions(st: NoirState) -> Positions:
    """suspect -> (row, col) for every suspect still on the grid."""
    return {s: (r, c) for r, line in enumerate(st.grid) for c, s in enumerate(line)}


def at(st: NoirState, row: int, col: int) -> int:
    return st.grid[row][col]


def neighbours(st: NoirState, suspect: int, pos: Positions | None = None) -> list[int]:
    """NOIR-06: the up to 8 surrounding suspects, reading order, no wrapping."""
    pos = pos or positions(st)
    r, c = pos[suspect]
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr or dc) and 0 <= r + dr < st.rows and 0 <= c + dc < st.cols:
                out.append(st.grid[r + dr][c + dc])
    return out


def adjacent(st: NoirState, a: int, b: int, pos: Positions | None = None) -> bool:
    pos = pos or positions(st)
    (ra, ca), (rb, cb) = pos[a], pos[b]
    return (ra, ca) != (rb, cb) and abs(ra - rb) <= 1 and abs(ca - cb) <= 1


def straight(st: NoirState, suspect: int, reach: int, pos: Positions | None = None) -> list[int]:
    """NOIR-Q05: suspects 1..reach cells away in the same row or column (nothing blocks)."""
    pos = pos or positions(st)
    r, c = pos[suspect]
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        for k in range(1, reach + 1):
            rr, cc = r + dr * k, c + dc * k
            if 0 <= rr < st.rows and 0 <= cc < st.cols:
                out.append(st.grid[rr][cc])
    return out


def diagonal(st: NoirState, suspect: int, reach: int, pos: Positions | None = None) -> list[int]:
    """NOIR-26: suspects 1..reach cells away along the four diagonals."""
    pos = pos or positions(st)
    r, c = pos[suspect]
    out = []
    for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
        for k in range(1, reach + 1):
            rr, cc = r + dr * k, c + dc * k
            if 0 <= rr < st.rows and 0 <= cc < st.cols:
                out.append(st.grid[rr][cc])
    return out


def in_line(st: NoirState, a: int, b: int, pos: Positions | None = None) -> bool:
    """NOIR-Q11: the same row or the same column, at any distance."""
    pos = pos or positions(st)
    return pos[a][0] == pos[b][0] or pos[a][1] == pos[b][1]


# --- shifts ------------------------------------------------------------------------------------
def line_length(st: NoirState, line: str) -> int:
    """A row is ``cols`` long, a column ``rows`` long."""
    return st.cols if line == "row" else st.rows


def line_count(st: NoirState, line: str) -> int:
    return st.rows if line == "row" else st.cols


def shift_distances(st: NoirState, line: str, reach: int) -> tuple[int, ...]:
    """The ``by`` values a line allows: ±1 needs a line longer than 1, ±2 one longer than 2
    (NOIR-X06) and a reach of 2 (NOIR-18)."""
    length = line_length(st, line)
    return tuple(b for b in (-2, -1, 1, 2) if abs(b) <= reach and length > max(1, abs(b)))


def shift_ok(st: NoirState, line: str, index: int, by: int, reach: int) -> bool:
    return (line in LINES and isinstance(index, int) and 0 <= index < line_count(st, line)
            and by in shift_distances(st, line, reach))


def shift_options(st: NoirState, reach: int) -> list[tuple[str, int, int]]:
    """Every (line, index, by) the reach allows, before the undo rule."""
    out = []
    for line in LINES:
        distances = shift_distances(st, line, reach)
        out += [(line, index, by) for index in range(line_count(st, line)) for by in distances]
    return out


def undoes(prev: ShiftMove | None, line: str, index: int, by: int) -> bool:
    """NOIR-38, Q23: the same line in the opposite direction, by any distance."""
    return prev is not None and prev[0] == line and prev[1] == index and (prev[2] > 0) != (by > 0)


def apply_shift(st: NoirState, line: str, index: int, by: int) -> None:
    """NOIR-37: a row moves right for ``by > 0`` (left for < 0), a column down (up); the suspect
    pushed off one edge comes back on the opposite edge."""
    if line == "row":
        cells = st.grid[index]
        k = by % len(cells)
        st.grid[index] = cells[-k:] + cells[:-k] if k else cells
    else:
        cells = [row[index] for row in st.grid]
        k = by % len(cells)
        cells = cells[-k:] + cells[:-k] if k else cells
        for r, s in enumerate(cells):
            st.grid[r][index] = s


def swap(st: NoirState, a: int, b: int) -> None:
    """NOIR-21, Q06: two suspects exchange cells."""
    pos = positions(st)
    (ra, ca), (rb, cb) = pos[a], pos[b]
    st.grid[ra][ca], st.grid[rb][cb] = b, a


# --- collapse ----------------------------------------------------------------------------------
def collapse_options(st: NoirState) -> list[tuple[str, str]]:
    """NOIR-39, Q13, X20: ('columns', end) when every column holds a dead suspect and more than one
    row is left (the grid loses a row); ('rows', end) likewise (it loses a column)."""
    out = []
    if st.rows > 1 and all(any(st.grid[r][c] in st.dead for r in range(st.rows))
                           for c in range(st.cols)):
        out += [("columns", e) for e in ENDS]
    if st.cols > 1 and all(any(s in st.dead for s in row) for row in st.grid):
        out += [("rows", e) for e in ENDS]
    return out


def apply_collapse(st: NoirState, axis: str, end: str) -> list[int]:
    """Remove one dead suspect per column (axis 'columns') or per row ('rows'): the topmost /
    leftmost for ``end='first'``, the bottommost / rightmost for 'last'; the rest close up in
    order.  Returns the removed suspects, in line order."""
    removed = []
    if axis == "columns":
        cols = []
        for c in range(st.cols):
            col = [st.grid[r][c] for r in range(st.rows)]
            idx = [i for i, s in enumerate(col) if s in st.dead]
            i = idx[0] if end == "first" else idx[-1]
            removed.append(col.pop(i))
            cols.append(col)
        st.grid = [[cols[c][r] for c in range(len(cols))] for r in range(len(cols[0]))]
    else:
        rows = []
        for row in st.grid:
            idx = [i for i, s in enumerate(row) if s in st.dead]
            i = idx[0] if end == "first" else idx[-1]
            removed.append(row[i])
            rows.append(row[:i] + row[i + 1:])
        st.grid = rows
    st.removed.update(removed)
    return removed
