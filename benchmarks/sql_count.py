"""Counting the SQL a benchmark run issues (issue 11: the statements per update).

:class:`SqlCounter` listens to the store's engine (SQLAlchemy's ``before_cursor_execute`` and
the pool's ``checkout``) and counts every statement by its shape — the statement text up to its
first parameter list, so the same query with other values counts as one shape — and every
connection checked out of the pool. The report divides them by the updates handled.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from sqlalchemy import event

_SPACES = re.compile(r"\s+")


def shape(statement: str, width: int = 90) -> str:
    """``statement`` on one line, cut to ``width`` characters: its shape in the report."""
    one_line = _SPACES.sub(" ", statement).strip()
    return one_line if len(one_line) <= width else one_line[:width - 1] + "…"


class SqlCounter:
    """Counts statements (by :func:`shape`) and pool checkouts of one ``AsyncEngine`` from
    :meth:`attach` to :meth:`detach`."""

    def __init__(self) -> None:
        self.statements: Counter[str] = Counter()
        self.checkouts = 0
        self._engine: Any = None

    def attach(self, async_engine: Any) -> SqlCounter:
        self._engine = async_engine.sync_engine
        event.listen(self._engine, "before_cursor_execute", self._statement)
        event.listen(self._engine.pool, "checkout", self._checkout)
        return self

    def detach(self) -> None:
        if self._engine is not None:
            event.remove(self._engine, "before_cursor_execute", self._statement)
            event.remove(self._engine.pool, "checkout", self._checkout)
            self._engine = None

    def _statement(self, _conn, _cursor, statement, _parameters, _context, _many) -> None:
        self.statements[shape(statement)] += 1

    def _checkout(self, *_args: Any) -> None:
        self.checkouts += 1

    @property
    def total(self) -> int:
        return sum(self.statements.values())

    def of_kind(self, kind: str) -> int:
        """Statements beginning with ``kind`` (``SELECT``, ``INSERT``, ``UPDATE``...)."""
        return sum(n for s, n in self.statements.items() if s.upper().startswith(kind))

    def lines(self, updates: int, top: int = 6) -> list[str]:
        """Report lines: statements, reads and pool checkouts per update, the commonest shapes."""
        per = max(updates, 1)
        lines = [
            f"  SQL per update        {self.total / per:.2f} statements ({self.of_kind('SELECT') / per:.2f} "
            f"SELECT, {self.of_kind('INSERT') / per:.2f} INSERT, {self.of_kind('UPDATE') / per:.2f} "
            f"UPDATE), {self.checkouts / per:.2f} pool checkouts",
        ]
        lines += [f"      {n / per:5.2f}  {s}" for s, n in self.statements.most_common(top)]
        return lines
